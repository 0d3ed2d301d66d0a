import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { AlgorandClient, Config } from '@algorandfoundation/algokit-utils';
import { consoleLogger, nullLogger } from '@algorandfoundation/algokit-utils/types/logging';
import { request } from 'undici';
import { createHash } from 'node:crypto';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, LOCALNET_TOKEN, LOCALNET_GENESIS_ID, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../../../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../../../../sdk/src/ledger/persistence.js';
import { PortInUseError } from '../../../../sdk/src/services/http/errors.js';
import { assemble } from '../../../../sdk/src/teal/assembler/assembler.js';
import { toBase32 } from '../../../../sdk/src/encoding/base32.js';

/**
 * What outside clients tripped on against `devnet --localnet` (issue 22), each checked over HTTP
 * with algosdk and AlgoKit utils as the clients.
 */

const port = (url: string) => Number(new URL(url).port);
const program = (src: string) => assemble(src).program;
const CLEAR = program('#pragma version 10\nint 1');

describe('localnet parity: what outside clients trip on', function () {
  this.timeout(60_000);
  let d: RunningDevnet;
  let algod: algosdk.Algodv2;
  let algorand: AlgorandClient;
  let dispenser: algosdk.Address;
  let signer: algosdk.TransactionSigner;

  async function send(txns: algosdk.Transaction[]): Promise<algosdk.modelsv2.PendingTransactionResponse[]> {
    if (txns.length > 1) algosdk.assignGroupID(txns);
    const signed = await signer(
      txns,
      txns.map((_, i) => i),
    );
    await algod.sendRawTransaction(signed).do();
    return Promise.all(txns.map((t) => algosdk.waitForConfirmation(algod, t.txID(), 4)));
  }
  const sp = () => algod.getTransactionParams().do();

  before(async () => {
    d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT });
    algod = new algosdk.Algodv2(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.node.url));
    const kmd = new algosdk.Kmd(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.keyManager.url));
    algorand = AlgorandClient.fromClients({ algod, kmd, indexer: new algosdk.Indexer(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.query.url)) });
    Config.configure({ logger: nullLogger });
  });
  after(async () => {
    Config.configure({ logger: consoleLogger });
    await d?.stop();
  });

  it("item 5: genesis accounts are Online, so AlgoKit's documented dispenser lookup (status !== 'Offline') finds Wallet1", async () => {
    const found = await algorand.account.fromKmd(
      'unencrypted-default-wallet',
      (a: Record<string, any>) => a.status !== 'Offline' && BigInt(a.amount) > 1_000_000_000n,
    );
    dispenser = found.addr;
    signer = found.signer;
    assert.equal(dispenser.toString(), d.accounts[0]!.address);
    const info = await algod.accountInformation(dispenser).do();
    assert.equal(info.status, 'Online');
    assert.ok(info.participation, 'an online account has participation keys');
    assert.equal(info.participation!.voteKeyDilution, 10_000n);
    const genesis = JSON.parse(await algod.genesis().do()) as { alloc: { comment: string; state: { onl?: number } }[] };
    assert.equal(genesis.alloc.find((a) => a.comment === 'Wallet1')!.state.onl, 1);
    const supply = await algod.supply().do();
    assert.ok(supply.onlineMoney > 0n, 'online stake is counted');
  });

  it("item 3: the query service answers requests without a token, as LocalNet's indexer does", async () => {
    const bare = new algosdk.Indexer('', 'http://127.0.0.1', port(d.query.url));
    const acct = await bare.lookupAccountByID(dispenser).do();
    assert.equal(acct.account.address, dispenser.toString());
    const health = await bare.makeHealthCheck().do();
    assert.ok(health.round >= 0);
  });

  it('item 1: over HTTP the failing pc is the failing instruction (`+` at pc 6), on submit and on simulate', async () => {
    // pushint 1 (pc 1); pushbytes "x" (pc 3); + (pc 6): hand-assembled, the assembler refuses it.
    const bad = Uint8Array.of(10, 0x81, 0x01, 0x80, 0x01, 0x78, 0x08);
    const create = algosdk.makeApplicationCreateTxnFromObject({
      sender: dispenser,
      approvalProgram: bad,
      clearProgram: CLEAR,
      numGlobalByteSlices: 0,
      numGlobalInts: 0,
      numLocalByteSlices: 0,
      numLocalInts: 0,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      suggestedParams: await sp(),
    });
    const [signed] = await signer([create], [0]);
    await assert.rejects(algod.sendRawTransaction(signed!).do(), (e: Error) => {
      // item 7: algod with the developer API (LocalNet) adds the disassembled lines up to the failing op.
      assert.match(
        e.message,
        /logic eval error: \+ arg 1 wanted uint64 but got \[\]byte\. Details: app=\d+, pc=6, opcodes=pushint 1; pushbytes 0x78 \/\/ "x"; \+$/,
      );
      return true;
    });
    const sim = await algod
      .simulateTransactions(
        new algosdk.modelsv2.SimulateRequest({
          txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [algosdk.decodeMsgpack(signed!, algosdk.SignedTransaction)] })],
        }),
      )
      .do();
    assert.match(sim.txnGroups[0]!.failureMessage!, /pc=6, opcodes=pushint 1; pushbytes 0x78 \/\/ "x"; \+$/);
  });

  it('item 4: an update over one page is accepted for an app with an extra page, and refused over its own pages with the node wording', async () => {
    const small = program('#pragma version 10\nint 1');
    const [created] = await send([
      algosdk.makeApplicationCreateTxnFromObject({
        sender: dispenser,
        approvalProgram: small,
        clearProgram: CLEAR,
        extraPages: 1,
        numGlobalByteSlices: 0,
        numGlobalInts: 0,
        numLocalByteSlices: 0,
        numLocalInts: 0,
        onComplete: algosdk.OnApplicationComplete.NoOpOC,
        suggestedParams: await sp(),
      }),
    ]);
    const appId = created!.applicationIndex!;
    const big = program(`#pragma version 10\nint 1\nreturn\n${'int 1\npop\n'.repeat(1100)}int 1`);
    assert.ok(big.length > 2048 && big.length + CLEAR.length <= 4096, `${big.length} bytes`);
    const params = await sp();
    await send([
      algosdk.makeApplicationUpdateTxnFromObject({ sender: dispenser, appIndex: appId, approvalProgram: big, clearProgram: CLEAR, suggestedParams: params }),
    ]);
    const app = await algod.getApplicationByID(appId).do();
    assert.equal(app.params!.approvalProgram.length, big.length);
    const tooBig = program(`#pragma version 10\nint 1\nreturn\n${'int 1\npop\n'.repeat(2100)}int 1`);
    const [s] = await signer(
      [
        algosdk.makeApplicationUpdateTxnFromObject({
          sender: dispenser,
          appIndex: appId,
          approvalProgram: tooBig,
          clearProgram: CLEAR,
          suggestedParams: params,
        }),
      ],
      [0],
    );
    await assert.rejects(algod.sendRawTransaction(s!).do(), (e: Error) => {
      assert.match(e.message, new RegExp(`approval program too long\\. \\(${tooBig.length} > 4096\\)`));
      return true;
    });
  });

  it('item 6: GET /v2/accounts/{address}/applications pages as the node does (algosdk accountApplicationsInformation)', async () => {
    const counter = program('#pragma version 10\nint 1');
    const mk = (onComplete: algosdk.OnApplicationComplete, p: algosdk.SuggestedParams, note: string) =>
      algosdk.makeApplicationCreateTxnFromObject({
        sender: dispenser,
        approvalProgram: counter,
        clearProgram: CLEAR,
        numGlobalByteSlices: 0,
        numGlobalInts: 1,
        numLocalByteSlices: 0,
        numLocalInts: 1,
        onComplete,
        note: new TextEncoder().encode(note),
        suggestedParams: p,
      });
    const p = await sp();
    const made = await send([mk(algosdk.OnApplicationComplete.OptInOC, p, 'a'), mk(algosdk.OnApplicationComplete.NoOpOC, p, 'b')]);
    const ids = made.map((m) => m.applicationIndex!);
    const all = await algod.accountApplicationsInformation(dispenser).do();
    const mine = (all.applicationResources ?? []).filter((r) => ids.includes(BigInt(r.id)));
    assert.equal(mine.length, 2);
    assert.ok(mine[0]!.appLocalState, 'opted in at creation: local state');
    assert.equal(mine[0]!.params, undefined, 'params only with include=params');
    const withParams = await algod.accountApplicationsInformation(dispenser).include(['params']).do();
    assert.ok(withParams.applicationResources!.find((r) => BigInt(r.id) === ids[1])!.params);
    // Paging: the next token is the last id of the page; the next page starts after it.
    const first = await algod.accountApplicationsInformation(dispenser).limit(1).do();
    assert.equal(first.nextToken, String(first.applicationResources![0]!.id));
    const second = await algod.accountApplicationsInformation(dispenser).limit(1).next(first.nextToken!).do();
    assert.ok(second.applicationResources![0]!.id > first.applicationResources![0]!.id);
    const raw = async (q: string) => {
      const r = await request(`${d.node.url}/v2/accounts/${dispenser}/${q}`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
      return { status: r.statusCode, body: (await r.body.json()) as { message?: string; 'next-token'?: string } };
    };
    assert.deepEqual(await raw('applications?limit=0'), { status: 400, body: { message: 'limit parameter must be a positive integer' } });
    assert.deepEqual(await raw('applications?limit=1001&include=params'), {
      status: 400,
      body: { message: 'limit 1001 exceeds max applications single batch limit 1000' },
    });
    assert.deepEqual(await raw('applications?next=x'), {
      status: 400,
      body: { message: 'unable to parse next token: strconv.ParseUint: parsing "x": invalid syntax' },
    });
    assert.deepEqual(await raw('assets?limit=1001'), { status: 400, body: { message: 'limit 1001 exceeds max assets single batch limit 1000' } });
    assert.deepEqual(await raw('assets?next=-1'), {
      status: 400,
      body: { message: 'unable to parse next token: strconv.ParseUint: parsing "-1": invalid syntax' },
    });
  });

  it("item 10: one app-resource record per account and app in the ledger's state delta, as in /v2/deltas", async () => {
    const [made] = await send([
      algosdk.makeApplicationCreateTxnFromObject({
        sender: dispenser,
        approvalProgram: program('#pragma version 10\nint 1'),
        clearProgram: CLEAR,
        numGlobalByteSlices: 0,
        numGlobalInts: 0,
        numLocalByteSlices: 0,
        numLocalInts: 1,
        onComplete: algosdk.OnApplicationComplete.OptInOC,
        note: new TextEncoder().encode('delta'),
        suggestedParams: await sp(),
      }),
    ]);
    const round = made!.confirmedRound!;
    const delta = d.ledger.stateDelta(round) as { Accts: { AppResources: { Aidx: bigint; Params: { Params: unknown }; State: { LocalState: unknown } }[] } };
    const mine = delta.Accts.AppResources.filter((r) => r.Aidx === made!.applicationIndex);
    assert.equal(mine.length, 1, 'params and local state in one record');
    assert.ok(mine[0]!.Params.Params && mine[0]!.State.LocalState);
    const r = await request(`${d.node.url}/v2/deltas/${round}`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
    const wire = (await r.body.json()) as { Accts: { AppResources: { Aidx: number }[] } };
    assert.equal(wire.Accts.AppResources.filter((x) => BigInt(x.Aidx) === made!.applicationIndex).length, 1);
  });

  it('item 9: simulate at a recent past round uses the state after that round', async () => {
    const fresh = algosdk.generateAccount();
    const before = (await algod.status().do()).lastRound;
    await send([
      algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser, receiver: fresh.addr, amount: 1_000_000, suggestedParams: await sp() }),
    ]);
    const spend = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: fresh.addr, receiver: dispenser, amount: 1000, suggestedParams: await sp() });
    const group = [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [new algosdk.SignedTransaction({ txn: spend })] })];
    const at = (round?: bigint) =>
      algod
        .simulateTransactions(new algosdk.modelsv2.SimulateRequest({ txnGroups: group, allowEmptySignatures: true, ...(round !== undefined ? { round } : {}) }))
        .do();
    const now = await at();
    assert.equal(now.txnGroups[0]!.failureMessage, undefined);
    const past = await at(before);
    assert.equal(past.lastRound, before);
    assert.match(past.txnGroups[0]!.failureMessage!, /overspend/);
    await assert.rejects(at(before + 1000n), (e: Error & { response?: { status: number } }) => e.response?.status === 400);
  });

  it("item 7: /v2 simulate answers in the node's shape only; /v1 simulate keeps our result fields", async () => {
    const pay = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser, receiver: dispenser, amount: 0, suggestedParams: await sp() });
    const body = algosdk.encodeMsgpack(
      new algosdk.modelsv2.SimulateRequest({
        txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [new algosdk.SignedTransaction({ txn: pay })] })],
        allowEmptySignatures: true,
      }),
    );
    const post = async (path: string) => {
      const r = await request(`${d.node.url}${path}`, {
        method: 'POST',
        body,
        headers: { 'x-algo-api-token': LOCALNET_TOKEN, 'content-type': 'application/msgpack' },
      });
      return (await r.body.json()) as Record<string, unknown> & { 'txn-groups': Record<string, unknown>[] };
    };
    const v2 = await post('/v2/transactions/simulate');
    for (const k of ['would_succeed']) assert.equal(k in v2, false, k);
    for (const k of ['failed_at', 'failure_message']) assert.equal(k in v2['txn-groups'][0]!, false, k);
    assert.equal('missing_signature' in (v2['txn-groups'][0]!['txn-results'] as Record<string, unknown>[])[0]!, false);
    const v1 = await post('/v1/transactions/simulate');
    assert.equal(v1.would_succeed, false, 'a missing signature');
    assert.deepEqual(v1['txn-groups'][0]!.failed_at, []);
    assert.equal((v1['txn-groups'][0]!['txn-results'] as Record<string, unknown>[])[0]!.missing_signature, true);
  });

  it('item 7: empty msgpack pending lists carry both keys; fee shortfalls read in MicroAlgos as algod prints them', async () => {
    for (const path of ['/v2/transactions/pending', `/v2/accounts/${dispenser}/transactions/pending`]) {
      const r = await request(`${d.node.url}${path}?format=msgpack`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
      assert.equal(r.statusCode, 200);
      const bytes = new Uint8Array(await r.body.arrayBuffer());
      assert.deepEqual([...bytes], [0x82, 0xb0, ...Buffer.from('top-transactions'), 0x90, 0xb2, ...Buffer.from('total-transactions'), 0x00], path);
      const decoded = algosdk.decodeMsgpack(bytes, algosdk.modelsv2.PendingTransactionsResponse);
      assert.deepEqual(decoded.topTransactions, []);
      assert.equal(decoded.totalTransactions, 0);
    }
    const params = { ...(await sp()), flatFee: true, fee: 0n };
    const [s] = await signer(
      [algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser, receiver: dispenser, amount: 0, suggestedParams: params })],
      [0],
    );
    await assert.rejects(algod.sendRawTransaction(s!).do(), (e: Error) => {
      assert.match(e.message, /txgroup with 0\.0A fees is less than 1mA \(usage=1\.000000 \* base=1mA\)/);
      return true;
    });
  });

  it('item 7: the node reports the real v42 consensus URL, and block headers carry prev512/txn512 as algod computes them', async () => {
    const V42 = 'https://github.com/algorandfoundation/specs/tree/268b63433a907455d439995bf916f6b296018f4f';
    const status = await algod.status().do();
    assert.equal(status.lastVersion, V42);
    assert.equal(status.nextVersion, V42);
    assert.equal((await sp()).consensusVersion, V42);
    assert.equal((JSON.parse(await algod.genesis().do()) as { proto: string }).proto, V42);
    // A group of three payments in one block exercises the vector commitment's bit-reversed order and padding.
    const params = await sp();
    const pays = [1, 2, 3].map((i) =>
      algosdk.makePaymentTxnWithSuggestedParamsFromObject({
        sender: dispenser,
        receiver: dispenser,
        amount: 0,
        note: new Uint8Array([i]),
        suggestedParams: params,
      }),
    );
    const confirmed = await send(pays);
    const round = confirmed[0]!.confirmedRound!;
    const H = (alg: string, ...parts: Uint8Array[]) => new Uint8Array(createHash(alg).update(Buffer.concat(parts)).digest());
    const enc = (s: string) => new TextEncoder().encode(s);
    for (let r = round - 1n; r <= round; r++) {
      const blk = (await algod.block(r).do()).block;
      const prev = (await algod.block(r - 1n).do()).block;
      assert.equal(blk.header.upgradeState.currentProtocol, V42);
      // prev512 is SHA-512 of "BH" || the previous header's canonical msgpack (algosdk's own encoder).
      const prevHeader = algosdk.encodeMsgpack(prev.header);
      assert.deepEqual(blk.header.branch512, H('sha512', enc('BH'), prevHeader), `prev512 of round ${r}`);
      // The transaction commitments, from the payset as algosdk encodes it; a leaf names the
      // transaction with its genesis fields restored (`hgi`/`hgh`), as its id does.
      const raw = await request(`${d.node.url}/v2/blocks/${r}?format=msgpack`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
      const rawBlock = (algosdk.msgpackRawDecodeAsMap(new Uint8Array(await raw.body.arrayBuffer())) as Map<string, Map<string, unknown>>).get('block')!;
      const rawTxns = (rawBlock.get('txns') ?? []) as Map<string, unknown>[];
      const leaves = blk.payset.map((stib, i) => {
        const t = new Map(rawTxns[i]!.get('txn') as Map<string, unknown>);
        if (rawTxns[i]!.get('hgi')) t.set('gen', rawBlock.get('gen'));
        if (rawTxns[i]!.get('hgh')) t.set('gh', rawBlock.get('gh'));
        const txn = algosdk.msgpackRawEncode(t as unknown as algosdk.MsgpackEncodingData);
        if (r === round) assert.equal(toBase32(H('sha512-256', enc('TX'), txn)), pays[i]!.txID());
        const stibBytes = algosdk.encodeMsgpack(stib);
        return {
          native: H('sha512-256', enc('TL'), H('sha512-256', enc('TX'), txn), H('sha512-256', enc('STIB'), stibBytes)),
          raw: Buffer.concat([enc('TL'), H('sha256', enc('TX'), txn), H('sha256', enc('STIB'), stibBytes)]),
        };
      });
      const vc = (alg: string, size: number) => {
        const n = leaves.length;
        let depth = 0;
        while (1 << depth < n) depth++;
        const layer: Uint8Array[] = [];
        for (let pos = 0; pos < 1 << depth; pos++) {
          const rev = parseInt(pos.toString(2).padStart(depth, '0').split('').reverse().join('') || '0', 2);
          layer.push(rev < n ? H(alg, leaves[rev]!.raw) : H(alg, enc('MB')));
        }
        let l = layer;
        while (l.length > 1) l = l.flatMap((x, i) => (i % 2 ? [] : [H(alg, enc('MA'), x, l[i + 1] ?? new Uint8Array(size))]));
        return l[0]!;
      };
      let nat = leaves.map((x) => x.native);
      while (nat.length > 1) nat = nat.flatMap((x, i) => (i % 2 ? [] : [H('sha512-256', enc('MA'), x, nat[i + 1] ?? new Uint8Array(32))]));
      const tc = blk.header.txnCommitments;
      assert.deepEqual(tc.sha512Commitment, vc('sha512', 64), `txn512 of round ${r}`);
      assert.deepEqual(tc.sha256Commitment, vc('sha256', 32), `txn256 of round ${r}`);
      assert.deepEqual(tc.nativeSha512_256Commitment, nat[0] ?? new Uint8Array(32), `txn of round ${r}`);
    }
    // The JSON block names both keys too.
    const json = await request(`${d.node.url}/v2/blocks/${round}`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
    const hdr = ((await json.body.json()) as { block: Record<string, unknown> }).block;
    assert.equal(Buffer.from(String(hdr.prev512), 'base64').length, 64);
    assert.equal(Buffer.from(String(hdr.txn512), 'base64').length, 64);
  });

  it('item 7: an overspend names the account record as algod prints it (Go %+v of its ledger record)', async () => {
    const user = algosdk.generateAccount();
    await send([algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser, receiver: user.addr, amount: 200_000, suggestedParams: await sp() })]);
    const params = { ...(await sp()), flatFee: true, fee: 1000n };
    const bad = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: user.addr, receiver: dispenser, amount: 1_000_000, suggestedParams: params });
    const zeros = (n: number) => `[${new Array(n).fill(0).join(' ')}]`;
    const data =
      '{AccountBaseData:{Status:Offline MicroAlgos:199mA RewardsBase:0 RewardedMicroAlgos:0.0A AuthAddr:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ IncentiveEligible:false ' +
      'TotalAppSchema:{NumUint:0 NumByteSlice:0} TotalExtraAppPages:0 TotalAppParams:0 TotalAppLocalStates:0 TotalAssetParams:0 TotalAssets:0 TotalBoxes:0 TotalBoxBytes:0 LastProposed:0 LastHeartbeat:0} ' +
      `VotingData:{VoteID:${zeros(32)} SelectionID:${zeros(32)} StateProofID:${zeros(64)} VoteFirstValid:0 VoteLastValid:0 VoteKeyDilution:0}}`;
    await assert.rejects(algod.sendRawTransaction(bad.signTxn(user.sk)).do(), (e: Error) => {
      assert.ok(e.message.includes(`: overspend (account ${user.addr}, data ${data}, tried to spend 1A)`), e.message);
      return true;
    });
  });

  it('item 2: any browser origin may call the three services under --localnet, Private Network Access preflights included', async () => {
    for (const [url, header] of [
      [d.node.url, 'x-algo-api-token'],
      [d.query.url, 'x-indexer-api-token'],
      [d.keyManager.url, 'x-kmd-api-token'],
    ] as const) {
      const path = url === d.keyManager.url ? '/versions' : url === d.query.url ? '/health' : '/v2/status';
      const pre = await request(`${url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'GET',
          'access-control-request-headers': `${header}, x-custom`,
          'access-control-request-private-network': 'true',
        },
      });
      await pre.body.dump();
      assert.equal(pre.statusCode, 204, url);
      assert.equal(pre.headers['access-control-allow-origin'], 'http://localhost:5173');
      assert.equal(pre.headers['access-control-allow-private-network'], 'true');
      assert.match(String(pre.headers['access-control-allow-headers']), new RegExp(header));
      const get = await request(`${url}${path}`, { headers: { origin: 'https://lora.algokit.io', [header]: LOCALNET_TOKEN } });
      await get.body.dump();
      assert.equal(get.statusCode, 200, url);
      assert.equal(get.headers['access-control-allow-origin'], 'https://lora.algokit.io');
    }
  });
});

describe('devnet parity: CORS option and a taken port', function () {
  this.timeout(60_000);

  it('item 2: without --localnet browsers are refused unless their origin is allowed (corsOrigins)', async () => {
    const d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT, corsOrigins: ['http://app.example'] });
    try {
      const asked = (origin: string) => request(`${d.node.url}/health`, { headers: { origin, 'x-algo-api-token': d.node.token } });
      const ok = await asked('http://app.example');
      await ok.body.dump();
      assert.equal(ok.statusCode, 200);
      const other = await asked('http://evil.example');
      await other.body.dump();
      assert.equal(other.statusCode, 403);
    } finally {
      await d.stop();
    }
  });

  it('item 11: a taken port names the likely cause instead of EADDRINUSE', async () => {
    const first = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT });
    try {
      await assert.rejects(startDevnet({ inMemory: true, ports: { node: port(first.node.url), query: 0, keyManager: 0 }, kdf: TEST_SCRYPT }), (e: Error) => {
        assert.ok(e instanceof PortInUseError, String(e));
        assert.match(e.message, /already in use, most likely by another LocalNet/);
        assert.match(e.message, /--ports/);
        return true;
      });
    } finally {
      await first.stop();
    }
  });
});

describe('devnet parity: a data directory written before the v42 URL and prev512/txn512', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-legacy-chain-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('still opens with its hashes, keeps its protocol name, and grows in its own header scheme', async () => {
    const opts = { dataDir: dir, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT, stopOnSignals: false } as const;
    // The fixture: the wallet and genesis.json of a LocalNet data directory, and a chain journal
    // written as the previous version wrote it (no header scheme in its genesis record).
    await (await startDevnet(opts)).stop();
    const accounts = (JSON.parse(readFileSync(join(dir, 'genesis.json'), 'utf8')) as { accounts: { address: string; amount: string; online?: boolean }[] })
      .accounts;
    rmSync(join(dir, 'ledger'), { recursive: true });
    const old = new Ledger({
      genesisId: LOCALNET_GENESIS_ID,
      genesisAccounts: accounts.map((a) => ({ address: a.address, amount: BigInt(a.amount), online: a.online === true })),
      store: new FileLedgerStore(join(dir, 'ledger')),
      headerScheme: 1,
    });
    const genesisHash = Buffer.from(old.genesisHash).toString('base64');
    old.close();

    let d = await startDevnet(opts);
    try {
      const algod = new algosdk.Algodv2(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.node.url));
      assert.equal(Buffer.from((await algod.versionsCheck().do()).genesisHashB64).toString('base64'), genesisHash);
      assert.equal((await algod.status().do()).lastVersion, 'https://github.com/algorandfoundation/specs/tree/v42');
      const kmd = new algosdk.Kmd(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.keyManager.url));
      const algorand = AlgorandClient.fromClients({ algod, kmd });
      const from = await algorand.account.fromKmd('unencrypted-default-wallet', (a: Record<string, any>) => BigInt(a.amount) > 1_000_000_000n);
      for (let i = 0; i < 2; i++)
        await algorand.send.payment({ sender: from.addr, signer: from.signer, receiver: from.addr, amount: (0).algo(), note: `legacy ${i}` });
      const last = (await algod.status().do()).lastRound;
      const blk = (await algod.block(last).do()).block;
      assert.ok(
        blk.header.branch512.every((b) => b === 0),
        'no prev512 on a scheme-1 chain',
      );
      assert.equal(blk.header.upgradeState.currentProtocol, 'https://github.com/algorandfoundation/specs/tree/v42');
      const hash = (await algod.getBlockHash(last).do()).blockhash;
      await d.stop();
      // Reopened, the rounds written in scheme 1 replay to the same hashes.
      d = await startDevnet(opts);
      const again = new algosdk.Algodv2(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.node.url));
      assert.equal((await again.status().do()).lastRound, last);
      assert.equal((await again.getBlockHash(last).do()).blockhash, hash);
    } finally {
      await d.stop();
    }
  });
});
