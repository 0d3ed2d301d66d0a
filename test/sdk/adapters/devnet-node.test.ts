import assert from 'node:assert/strict';
import { UnsupportedOperationError } from '../../../sdk/src/adapters/http/errors.js';
import { TransactionNotFoundError } from '../../../sdk/src/adapters/node/errors.js';
import { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import { toSimulateResult } from '../../../sdk/src/adapters/node/normalize.js';
import { simulateRequestBody } from '../../../sdk/src/adapters/node/adapter.js';
import { decodeBlock } from '../../../sdk/src/ledger/block.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { startDevnet } from '../../../sdk/src/services/devnet/index.js';
import { startNodeService, type RunningNodeService } from '../../../sdk/src/services/node/service.js';
import { TEST_SCRYPT } from '../../../sdk/src/services/kmd/index.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { decodeSignedTransaction, encodeSignedTransaction as encodeSignedTransactionOf, txid as txidOf } from '../../../sdk/src/txn/encode.js';
import { signedTransactionToNodeJson } from '../../../sdk/src/txn/json.js';
import { stringifyJson } from '../../../sdk/src/encoding/json.js';
import { populatedDevnet, rejects, devnetSigner, type PopulatedDevnet } from './devnet-fixture.js';

/** Every node-service operation through NodeServiceAdapter, against the embedded devnet over HTTP. */
describe('adapters: node service client against the embedded devnet', function () {
  this.timeout(20_000);
  let p: PopulatedDevnet;
  let node: NodeServiceAdapter;

  before(async () => {
    p = await populatedDevnet();
    node = p.node;
  });
  after(async () => {
    await p?.stop();
  });

  it('health, versions, metrics, swagger', async () => {
    await node.health();
    const v = await node.versions();
    assert.ok(v.versions.includes('v1'));
    assert.equal(v.genesisId, p.d.genesisId);
    assert.deepEqual(v.genesisHash, p.d.ledger.genesisHash);
    const m = await node.metrics();
    assert.ok(m.size > 0);
    const sw = (await node.swagger()) as { swagger: string; paths: Record<string, unknown> };
    assert.equal(sw.swagger, '2.0');
    assert.ok('/v1/transactions' in sw.paths);
    const wrongToken = new NodeServiceAdapter({ url: p.d.node.url, token: 'b'.repeat(64), retry: false });
    try {
      const e = await rejects(wrongToken.status(), 401);
      assert.ok(!e.message.includes('b'.repeat(64)));
      await wrongToken.versions(); // public
    } finally {
      await wrongToken.close();
    }
  });

  it('status, wait-for-block-after (already there and after a new block), state-hash extension', async () => {
    const st = await node.status();
    assert.equal(st.lastRound, p.d.ledger.latestRound);
    const past = await node.waitForBlockAfter(st.lastRound - 1n);
    assert.equal(past.lastRound, st.lastRound);
    const waiting = node.waitForBlockAfter(st.lastRound);
    await p.submit([makePaymentTxn({ sender: p.addrs[0]!, receiver: p.addrs[2]!, amount: 1n, note: utf8('wake'), suggestedParams: await p.sp() })]);
    assert.ok((await waiting).lastRound > st.lastRound);
    const sh = await node.http.json<{ round: bigint | number; blockHash: string; stateHash: string }>({ method: 'GET', path: '/v1/devnet/state-hash' });
    assert.equal(BigInt(sh.round), p.d.ledger.latestRound);
    assert.match(sh.blockHash, /^blk-/);
    assert.match(sh.stateHash, /^[0-9a-f]{64}$/);
  });

  it('suggested params and fee', async () => {
    const sp = await node.suggestedParams();
    assert.equal(sp.genesisId, p.d.genesisId);
    assert.deepEqual(sp.genesisHash, p.d.ledger.genesisHash);
    assert.equal(sp.minFee, p.d.ledger.params.minTxnFee);
    assert.equal(sp.lastRound, p.d.ledger.latestRound);
    assert.equal(await node.fee(), 0n);
  });

  it('submit raw and group, pending by txid (committed, rejected, unknown), confirmation', async () => {
    const pay = p.payTxids[0]!;
    const pend = await node.pending(pay);
    assert.equal(pend.state, 'committed');
    assert.ok(pend.confirmedRound > 0n);
    // The fixture's last submission was a group of four (payment + three box writes).
    const call = await node.pending(p.callTxid);
    assert.equal(call.state, 'committed');
    // /v1 Transaction records carry no logs (node-service.md "Transaction"); the fixture's app wrote them.
    assert.equal(call.applicationIndex ?? p.appId, p.appId);
    const conf = await node.waitForConfirmation(p.callTxid, { maxRounds: 2 });
    assert.equal(conf.confirmedRound, call.confirmedRound);

    // A payment of more than the sender holds is rejected with 400 and remembered as a pool error.
    const sp = await p.sp();
    const over = makePaymentTxn({ sender: p.addrs[2]!, receiver: p.addrs[0]!, amount: 10n ** 15n, suggestedParams: sp });
    const [signed] = await p.signer.sign([over], [0]);
    const e = await rejects(node.submit(signed!), 400);
    assert.ok(e.serviceMessage);
    const gone = await node.pending(txidOf(over));
    assert.equal(gone.state, 'rejected');
    assert.ok(gone.poolError.length > 0);
    await assert.rejects(node.pending('A'.repeat(52)), TransactionNotFoundError);
    await rejects(node.pending('not-a-txid'), 400);
  });

  it('account lookup (balances, holdings, created asset/app), account transactions and one transaction', async () => {
    const a0 = await node.account(p.addrs[0]!);
    assert.equal(a0.address, p.addrs[0]);
    assert.equal(a0.amount, p.d.ledger.account(p.addrs[0]!)!.balance);
    assert.ok(a0.createdAssets.some((x) => x.index === p.assetId));
    assert.ok(a0.createdApps.some((x) => x.id === p.appId));
    const app = a0.createdApps.find((x) => x.id === p.appId)!;
    assert.deepEqual(
      app.params.globalState.map((kv) => [kv.key, kv.value]),
      [[utf8('g'), 4n]],
    );
    const a1 = await node.account(p.addrs[1]!);
    assert.deepEqual(a1.assets.find((h) => h.assetId === p.assetId)?.amount, 500n);

    const list = await node.accountTransactions(p.addrs[0]!, { max: 100 });
    assert.ok(list.some((t) => t.txid === p.payTxids[0]));
    const limited = await node.accountTransactions(p.addrs[0]!, { max: 2 });
    assert.equal(limited.length, 2);
    const ranged = await node.accountTransactions(p.addrs[0]!, { firstRound: 1, lastRound: 2 });
    assert.ok(ranged.length > 0 && ranged.every((t) => t.round! >= 1n && t.round! <= 2n));
    // Date filters: a range around every block keeps all of them, a range long past keeps none.
    assert.equal((await node.accountTransactions(p.addrs[0]!, { fromDate: '2000-01-01', toDate: '2999-12-31', max: 100 })).length, list.length);
    assert.equal((await node.accountTransactions(p.addrs[0]!, { fromDate: '2000-01-01', toDate: '2000-01-02' })).length, 0);
    await rejects(node.accountTransactions(p.addrs[0]!, { fromDate: '2000-13-45' }), 400);
    const one = await node.accountTransaction(p.addrs[0]!, p.payTxids[0]!);
    assert.equal(one.txid, p.payTxids[0]);
    assert.equal(one.payment?.amount, 1000n);
    assert.deepEqual(one.note, utf8('pay 0'));
    const byId = await node.transaction(p.payTxids[1]!);
    assert.equal(byId.sender, p.addrs[1]);
    assert.equal(byId.payment?.to, p.addrs[2]);
    await rejects(node.account('not-an-address'), 400);
    await rejects(node.transaction('A'.repeat(52)), 404);
  });

  it('asset lookup and asset list; application and box are reported as not in /v1', async () => {
    const a = await node.asset(p.assetId);
    assert.equal(a.params.total, 1_000_000n);
    assert.equal(a.params.decimals, 2);
    assert.equal(a.params.unitName, 'TW');
    assert.equal(a.params.name, 'Tealworks');
    assert.equal(a.params.creator, p.addrs[0]);
    const all = await node.assets({ max: 10 });
    assert.ok(all.some((x) => x.index === p.assetId));
    // node-service.md lists 400 (not 404) for GET /v1/asset/{index}.
    await rejects(node.assetParams(p.assetId + 1000n), 400);
    await assert.rejects(node.application(p.appId), UnsupportedOperationError);
    await assert.rejects(node.box(p.appId, utf8('b1')), UnsupportedOperationError);
  });

  it('block (JSON view and raw msgpack) and supply', async () => {
    const round = (await node.pending(p.payTxids[0]!)).confirmedRound;
    const b = await node.block(round);
    assert.equal(b.round, round);
    const v1 = await node.v1Block(round);
    assert.ok(v1.txns.some((t) => t.txid === p.payTxids[0]));
    const raw = await node.rawBlock(round);
    const decoded = decodeBlock(raw);
    assert.equal(decoded.header.round, round);
    assert.equal(decoded.header.timestamp, b.timestamp);
    await rejects(node.block(p.d.ledger.latestRound + 100n), 400);
    const s = await node.supply();
    assert.equal(s.round, p.d.ledger.latestRound);
    assert.ok(s.totalMoney >= s.onlineMoney && s.totalMoney > 0n);
  });

  it('simulate: msgpack request with JSON and msgpack responses, failure path, JSON request body', async () => {
    const sp = await p.sp();
    const call = makeAppCallTxn({ sender: p.addrs[0]!, appId: p.appId, args: [utf8('x')], note: utf8('sim'), suggestedParams: sp });
    const [signed] = await p.signer.sign([call], [0]);
    const ok = await node.simulate([signed!]);
    assert.equal(ok.wouldSucceed, true);
    assert.deepEqual(ok.txns[0]!.result.logs, [utf8('hello')]);
    assert.ok((ok.txns[0]!.appBudgetConsumed ?? 0) > 0);

    const unsigned = encodeUnsigned(call);
    const empty = await node.simulate([unsigned], { allowEmptySignatures: true, execTrace: true });
    // Evaluation passes; the service still reports the missing signature, and (node-service.md:
    // would_succeed is false when a signature is missing) our client honours its verdict.
    assert.deepEqual(empty.failedAt, []);
    assert.equal(empty.failureMessage, undefined);
    assert.equal(empty.txns[0]!.missingSignature, true);
    assert.equal(empty.wouldSucceed, false);
    const trace = (empty.txns[0]!.raw as { 'exec-trace'?: { 'approval-program-trace'?: unknown[] } })['exec-trace'];
    assert.ok((trace?.['approval-program-trace']?.length ?? 0) > 0, 'exec trace requested but missing');

    // Same request, msgpack response, through our HTTP layer.
    const mp = await node.http.msgpack({
      method: 'POST',
      path: '/v2/transactions/simulate',
      query: { format: 'msgpack' },
      body: simulateRequestBody([signed!]),
      contentType: 'application/msgpack',
      idempotent: true,
    });
    const fromMsgpack = toSimulateResult(mp);
    assert.equal(fromMsgpack.wouldSucceed, true);
    assert.deepEqual(fromMsgpack.txns[0]!.result.logs, [utf8('hello')]);

    // Failure: no args at all makes `txna ApplicationArgs 0` fail.
    const bad = makeAppCallTxn({ sender: p.addrs[0]!, appId: p.appId, suggestedParams: sp });
    const [badSigned] = await p.signer.sign([bad], [0]);
    const failed = await node.simulate([badSigned!]);
    assert.equal(failed.wouldSucceed, false);
    assert.deepEqual(failed.failedAt, [0]);
    assert.ok(failed.failureMessage);

    // A JSON request body is accepted too.
    const stx = decodeSignedTransaction(signed!);
    assert.equal(txidOf(stx.txn), txidOf(call));
    const jsonBody = JSON.stringify({ 'txn-groups': [{ txns: [JSON.parse(jsonOfSigned(signed!))] }] });
    const viaJson = toSimulateResult(
      await node.http.json({ method: 'POST', path: '/v2/transactions/simulate', body: utf8(jsonBody), contentType: 'application/json', idempotent: true }),
    );
    assert.equal(viaJson.wouldSucceed, true);

    await rejects(
      node.http.json({ method: 'POST', path: '/v2/transactions/simulate', body: utf8('{"txn-groups": 7}'), contentType: 'application/json', idempotent: true }),
      400,
    );
  });

  it('follower calls on a node that is not a follower: no sync round, setting and deleting one are 404, deltas of recent rounds', async () => {
    assert.equal(await node.getSyncRound(), undefined);
    await rejects(node.setSyncRound(1n), 404);
    assert.equal(await node.getSyncRound(), undefined);
    await rejects(node.unsetSyncRound(), 404);
    const latest = p.d.ledger.latestRound;
    const delta = await node.deltas(latest);
    assert.ok(delta instanceof Map);
    await rejects(node.deltas(latest + 5n), 404);
  });

  describe('pending pool (block interval mode) and follower mode', function () {
    it('pending by txid, by address and the pending list while a group waits for its block', async () => {
      const d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 3, kdf: TEST_SCRYPT, blockIntervalMs: 60_000 });
      const n = new NodeServiceAdapter({ url: d.node.url, token: d.node.token, retry: false });
      try {
        const signer = await devnetSigner(d);
        const sp = await n.suggestedParams();
        const [a, b] = [d.accounts[0]!.address, d.accounts[1]!.address];
        const txns = [0, 1, 2].map((i) =>
          makePaymentTxn({
            sender: a,
            receiver: b,
            amount: 10n + BigInt(i),
            note: utf8(`pool ${i}`),
            suggestedParams: {
              fee: sp.minFee,
              flatFee: true,
              firstValid: sp.lastRound,
              lastValid: sp.lastRound + 100n,
              genesisId: sp.genesisId,
              genesisHash: sp.genesisHash,
            },
          }),
        );
        for (const t of txns) await n.submit(await signer.sign([t], [0]));
        const one = await n.pending(txidOf(txns[0]!));
        assert.equal(one.state, 'in-pool');
        assert.equal(one.confirmedRound, 0n);
        const all = await n.pendingTransactions();
        assert.equal(all.totalTxns, 3n);
        assert.deepEqual(new Set(all.truncatedTxns.map((t) => t.txid)), new Set(txns.map((t) => txidOf(t))));
        const truncated = await n.pendingTransactions({ max: 1 });
        assert.equal(truncated.totalTxns, 3n);
        assert.equal(truncated.truncatedTxns.length, 1);
        const mine = await n.accountPendingTransactions(a);
        assert.equal(mine.truncatedTxns.length, 3);
        // The receiver is involved too; the third account is not.
        assert.equal((await n.accountPendingTransactions(b)).truncatedTxns.length, 3);
        // totalTxns is the total in the pool (node-service.md), whatever the account.
        const none = await n.accountPendingTransactions(d.accounts[2]!.address);
        assert.equal(none.totalTxns, 3n);
        assert.equal(none.truncatedTxns.length, 0);
        assert.equal((await n.transaction(txidOf(txns[1]!))).txid, txidOf(txns[1]!));
      } finally {
        await n.close();
        await d.stop();
      }
    });

    it('follower mode: paused at 0, sync round set/get/delete, delta window, submissions refused', async () => {
      let follower: RunningNodeService | undefined;
      let f: NodeServiceAdapter | undefined;
      try {
        follower = await startNodeService({
          ledger: p.d.ledger,
          apiToken: 'f'.repeat(64),
          follower: { enabled: true, lookback: 4 },
          port: 0,
          host: '127.0.0.1',
        });
        f = new NodeServiceAdapter({ url: follower.url, token: 'f'.repeat(64), retry: false });
        const latest = p.d.ledger.latestRound;
        assert.ok(latest > 8n);
        // A fresh follower is paused at round 0, which our client reads as "not set" (adapters README).
        assert.equal(await f.getSyncRound(), undefined);
        // Paused at 0 with a window of 4: it has fetched up to round 3.
        assert.equal((await f.status()).lastRound, 3n);
        await rejects(f.deltas(5n), 404);
        await f.setSyncRound(latest - 2n);
        assert.equal(await f.getSyncRound(), latest - 2n);
        assert.equal((await f.status()).lastRound, latest);
        const d = (await f.deltas(latest - 1n)) as Map<unknown, unknown>;
        assert.ok(d instanceof Map && d.size > 0);
        await rejects(f.deltas(latest - 3n), 404);
        // Going back before what it already fetched is refused.
        await rejects(f.setSyncRound(1n), 400);
        const sp = await p.sp();
        const [signed] = await p.signer.sign(
          [makePaymentTxn({ sender: p.addrs[0]!, receiver: p.addrs[1]!, amount: 1n, note: utf8('follower'), suggestedParams: sp })],
          [0],
        );
        const e = await rejects(f.submit(signed!), 400);
        assert.match(e.serviceMessage ?? '', /follower mode/);
        await f.unsetSyncRound();
        assert.equal(await f.getSyncRound(), undefined);
      } finally {
        await f?.close();
        await follower?.close();
      }
    });
  });
});

function encodeUnsigned(txn: Parameters<typeof txidOf>[0]): Uint8Array {
  return encodeSignedTransactionOf({ txn });
}

/** The signed transaction in the node's JSON form (addresses as text, bytes as base64). */
function jsonOfSigned(raw: Uint8Array): string {
  return stringifyJson(signedTransactionToNodeJson(decodeSignedTransaction(raw)));
}
