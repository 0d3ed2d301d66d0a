import assert from 'node:assert/strict';

import { AlgodAdapter } from '../../../sdk/src/adapters/node/algod.js';
import { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import type { NodeAdapter } from '../../../sdk/src/adapters/node/adapter.js';
import { TransactionNotFoundError, TransactionRejectedError } from '../../../sdk/src/adapters/node/errors.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { blockHashText } from '../../../sdk/src/ledger/block.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { encodeSignedTransaction, txid as txidOf } from '../../../sdk/src/txn/encode.js';
import { populatedDevnet, rejects, APPROVAL, type PopulatedDevnet } from './devnet-fixture.js';

/**
 * The public-network node adapter (`AlgodAdapter`, /v2 — the path testnet and mainnet users take)
 * against the embedded devnet over HTTP, and the shared `NodeAdapter` contract run once through
 * each adapter (specified /v1 node service and public /v2).
 */
describe('adapters: public /v2 node adapter against the embedded devnet', function () {
  this.timeout(30_000);
  let p: PopulatedDevnet;
  let algod: AlgodAdapter;

  before(async () => {
    p = await populatedDevnet({ localnet: true, ports: { node: 0, query: 0, keyManager: 0 } });
    algod = new AlgodAdapter({ url: p.d.node.url, token: p.d.node.token, retry: false });
  });
  after(async () => {
    await algod?.close();
    await p?.stop();
  });

  it('health, ready, versions, genesis (public), status and wait-for-block-after', async () => {
    const bare = new AlgodAdapter({ url: p.d.node.url, retry: false });
    try {
      await bare.health();
      await bare.ready();
      const v = await bare.versions();
      assert.equal(v.genesisId, 'dockernet-v1');
      const g = (await bare.genesis()) as { id: string; alloc: { addr: string; comment: string }[] };
      assert.equal(g.id, 'dockernet-v1');
      assert.equal(g.alloc.find((a) => a.comment === 'Wallet1')?.addr, p.addrs[0]);
      await rejects(bare.status(), 401);
    } finally {
      await bare.close();
    }
    const st = await algod.status();
    assert.equal(st.lastRound, p.d.ledger.latestRound);
    const waiting = algod.waitForBlockAfter(st.lastRound);
    await p.submit([makePaymentTxn({ sender: p.addrs[0]!, receiver: p.addrs[1]!, amount: 1n, suggestedParams: await p.sp() })]);
    assert.ok((await waiting).lastRound > st.lastRound);
  });

  it('account, account asset/app, paged assets, asset, application, box and boxes', async () => {
    const a0 = await algod.account(p.addrs[0]!);
    assert.equal(a0.amount, p.d.ledger.balance(p.addrs[0]!));
    assert.equal(a0.minBalance, p.d.ledger.minBalance(p.addrs[0]!));
    assert.ok(a0.createdApps.some((x) => x.id === p.appId));
    const bare = await algod.account(p.addrs[0]!, { exclude: 'all' });
    assert.equal(bare.createdApps.length, 0);
    const holding = (await algod.accountAsset(p.addrs[1]!, p.assetId)) as { assetHolding: { amount: bigint } };
    assert.equal(BigInt(holding.assetHolding.amount), 500n);
    const local = (await algod.accountApplication(p.addrs[1]!, p.appId)) as { appLocalState: { keyValue: { value: { uint: bigint } }[] } };
    assert.equal(BigInt(local.appLocalState.keyValue[0]!.value.uint), 7n);
    const paged = (await algod.accountAssets(p.addrs[1]!, { limit: 1 })) as { assetHoldings: unknown[] };
    assert.equal(paged.assetHoldings.length, 1);
    const asset = await algod.asset(p.assetId);
    assert.equal(asset.params.unitName, 'TW');
    const app = await algod.application(p.appId);
    assert.deepEqual(app.params.approvalProgram, assemble(APPROVAL).program);
    const box = await algod.box(p.appId, utf8('b2'));
    assert.deepEqual(box.value, utf8('boxvalue'));
    assert.deepEqual(
      (await algod.boxes(p.appId)).map((b) => new TextDecoder().decode(b)),
      p.boxNames,
    );
    await rejects(algod.box(p.appId, utf8('nope')), 404);
    await rejects(algod.asset(999_999n), 404);
    await rejects(algod.application(999_999n), 404);
    await rejects(algod.account('not-an-address'), 400);
  });

  it('pending (committed with logs and inner fields, rejected, unknown), pending lists', async () => {
    const call = await algod.pending(p.callTxid);
    assert.equal(call.state, 'committed');
    assert.deepEqual(call.logs, [utf8('hello')]);
    const over = makePaymentTxn({ sender: p.addrs[2]!, receiver: p.addrs[0]!, amount: 10n ** 15n, suggestedParams: await p.sp() });
    const [signed] = await p.signer.sign([over], [0]);
    await rejects(algod.submit(signed!), 400);
    const gone = await algod.pending(txidOf(over));
    assert.equal(gone.state, 'rejected');
    await assert.rejects(algod.waitForConfirmation(txidOf(over)), TransactionRejectedError);
    await assert.rejects(algod.pending('A'.repeat(52)), TransactionNotFoundError);
    const list = await algod.pendingTransactions();
    assert.equal(list.totalTransactions, 0n);
    assert.deepEqual((await algod.pendingByAddress(p.addrs[0]!)).transactions, []);
  });

  it('blocks (msgpack decoded by our reader, header only), txids, hash, supply', async () => {
    const round = (await algod.pending(p.callTxid)).confirmedRound;
    const b = await algod.block(round);
    assert.equal(b.round, round);
    assert.equal(b.timestamp, p.d.ledger.block(round).header.timestamp);
    assert.equal(b.genesisId, 'dockernet-v1');
    const h = await algod.block(round, { headerOnly: true });
    assert.equal(h.round, round);
    assert.deepEqual(
      await algod.blockTxids(round),
      p.d.ledger.block(round).txns.map((t) => t.txid),
    );
    assert.equal(await algod.blockHash(round), blockHashText(p.d.ledger.block(round).hash).slice(4));
    await rejects(algod.block(p.d.ledger.latestRound + 10n), 404);
    const s = await algod.supply();
    assert.equal(s.round, p.d.ledger.latestRound);
  });

  it('compile and disassemble; timestamp offset', async () => {
    const c = await algod.compile(APPROVAL);
    assert.deepEqual(c.program, assemble(APPROVAL).program);
    assert.equal(c.hash, assemble(APPROVAL).address);
    assert.match(await algod.disassemble(c.program), /^#pragma version 10/);
    await algod.setBlockTimestampOffset(60);
    assert.equal(await algod.getBlockTimestampOffset(), 60);
    await algod.setBlockTimestampOffset(0);
  });
});

/** The NodeAdapter contract, once per adapter, against one devnet. */
describe('adapters: the NodeAdapter contract through each adapter (node service /v1 and public /v2)', function () {
  this.timeout(30_000);
  let p: PopulatedDevnet;
  before(async () => {
    p = await populatedDevnet({ localnet: true, ports: { node: 0, query: 0, keyManager: 0 } });
  });
  after(async () => {
    await p?.stop();
  });

  for (const kind of ['node-service', 'algod'] as const) {
    it(`${kind}: params, submit, confirm, account, asset, block, supply, simulate`, async () => {
      const node: NodeAdapter =
        kind === 'algod'
          ? new AlgodAdapter({ url: p.d.node.url, token: p.d.node.token, retry: false })
          : new NodeServiceAdapter({ url: p.d.node.url, token: p.d.node.token, retry: false });
      try {
        assert.equal(node.kind, kind);
        const sp = await node.suggestedParams();
        assert.equal(sp.genesisId, 'dockernet-v1');
        assert.deepEqual(sp.genesisHash, p.d.ledger.genesisHash);
        const txn = makePaymentTxn({
          sender: p.addrs[0]!,
          receiver: p.addrs[2]!,
          amount: 777n,
          note: utf8(kind),
          suggestedParams: {
            fee: sp.minFee,
            flatFee: true,
            firstValid: sp.lastRound,
            lastValid: sp.lastRound + 100n,
            genesisId: sp.genesisId,
            genesisHash: sp.genesisHash,
          },
        });
        const [signed] = await p.signer.sign([txn], [0]);
        const sent = await node.submit(signed!);
        assert.equal(sent.txid, txidOf(txn));
        const conf = await node.waitForConfirmation(sent.txid);
        assert.ok(conf.confirmedRound > 0n);
        const acct = await node.account(p.addrs[2]!);
        assert.equal(acct.amount, p.d.ledger.balance(p.addrs[2]!));
        const asset = await node.asset(p.assetId);
        assert.equal(asset.params.total, 1_000_000n);
        const block = await node.block(conf.confirmedRound);
        assert.equal(block.round, conf.confirmedRound);
        assert.equal(block.timestamp, p.d.ledger.block(conf.confirmedRound).header.timestamp);
        const supply = await node.supply();
        assert.ok(supply.totalMoney > 0n);
        const call = makeAppCallTxn({
          sender: p.addrs[0]!,
          appId: p.appId,
          args: [utf8('x')],
          suggestedParams: {
            fee: sp.minFee,
            flatFee: true,
            firstValid: sp.lastRound,
            lastValid: sp.lastRound + 100n,
            genesisId: sp.genesisId,
            genesisHash: sp.genesisHash,
          },
        });
        const sim = await node.simulate([encodeSignedTransaction({ txn: call })], { allowEmptySignatures: true });
        assert.deepEqual(sim.txns[0]!.result.logs, [utf8('hello')]);
        assert.deepEqual(sim.failedAt, []);
      } finally {
        await node.close();
      }
    });
  }
});
