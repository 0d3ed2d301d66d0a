import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { decodeMsgpack, encodeMsgpack } from '../../../../sdk/src/encoding/msgpack.js';
import { stringifyJson } from '../../../../sdk/src/encoding/json.js';
import { encodeSignedTransaction, txid } from '../../../../sdk/src/txn/encode.js';
import { signedTransactionToNodeJson } from '../../../../sdk/src/txn/json.js';
import { signedTransactionToWire } from '../../../../sdk/src/txn/wire.js';
import { simulateRequestBody } from '../../../../sdk/src/adapters/node/adapter.js';
import { NodeServiceAdapter } from '../../../../sdk/src/adapters/node/node-service.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { makeAppCreateTxn, makeAssetCreateTxn } from '../../../../sdk/src/txn/builders.js';
import { ALGO, group, startNode, TOKEN, type Node } from './helpers.js';
import { NOT_A_FOLLOWER } from '../../../../sdk/src/services/node/follower.js';

describe('node service: simulate (POST /v1/transactions/simulate: the node shape plus the result fields)', function () {
  let node: Node;
  before(async () => {
    node = await startNode({ accounts: 3 });
  });
  after(async () => {
    await node.close();
  });

  const jsonBody = (stxns: ReturnType<Node['sign']>[], extra: Record<string, unknown> = {}) =>
    stringifyJson({ 'txn-groups': [{ txns: stxns.map(signedTransactionToNodeJson) }], ...extra });

  it('JSON request → JSON response with the result fields of both documents', async () => {
    const round = node.ledger.latestRound;
    const stx = node.sign(node.pay(0, 1, 5000n));
    const r = await node.call('POST', '/v1/transactions/simulate', { body: jsonBody([stx]), contentType: 'application/json' });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.ok(r.text.startsWith('{\n  "'), 'two-space indented');
    const body = r.json;
    assert.equal(body.version, 2);
    assert.equal(body['last-round'], Number(round));
    assert.equal(body.would_succeed, true);
    const g = body['txn-groups'][0];
    assert.deepEqual(g.failed_at, []);
    assert.equal(g['failure-message'], undefined);
    const t = g['txn-results'][0];
    assert.equal(t.missing_signature, false);
    assert.equal(t['txn-result']['pool-error'], '');
    assert.equal(t['txn-result'].txn.txn.snd, node.addr(0), 'embedded txn in the node JSON view: addresses as text');
    assert.equal(t['txn-result'].txn.txn.amt, 5000);
    assert.equal(node.ledger.latestRound, round, 'nothing committed');
    assert.equal(node.ledger.transaction(txid(stx.txn)), undefined);
  });

  it('msgpack request → msgpack response (format=msgpack), Content-Type ignored on input', async () => {
    const stx = node.sign(node.pay(1, 2, 777n));
    const body = encodeMsgpack({ 'txn-groups': [{ txns: [signedTransactionToWire(stx)] }] });
    for (const contentType of ['application/msgpack', 'application/json', 'text/plain']) {
      const r = await node.call('POST', '/v1/transactions/simulate?format=msgpack', { body, contentType });
      assert.equal(r.status, 200, contentType);
      assert.equal(r.headers['content-type'], 'application/msgpack');
      const res = decodeMsgpack(r.bytes) as any;
      assert.equal(res.version, 2);
      assert.equal(res.would_succeed, true);
      const txn = res['txn-groups'][0]['txn-results'][0]['txn-result'].txn;
      assert.ok(txn.txn.snd instanceof Uint8Array, 'wire form: addresses as bytes');
      assert.deepEqual(txn.sig, stx.sig);
    }
    const j = await node.call('POST', '/v1/transactions/simulate', { body });
    assert.equal(j.json['txn-groups'][0]['txn-results'][0]['txn-result'].txn.txn.amt, 777, 'msgpack in, JSON out');
  });

  it('a failing group is still 200, with failure message, failed-at and would_succeed false', async () => {
    const stx = node.sign(node.pay(2, 1, 10_000n * ALGO));
    const r = await node.call('POST', '/v1/transactions/simulate', { body: jsonBody([stx]) });
    assert.equal(r.status, 200);
    const g = r.json['txn-groups'][0];
    assert.match(g['failure-message'], /overspend/);
    assert.equal(g.failure_message, g['failure-message']);
    assert.deepEqual(g['failed-at'], [0]);
    assert.deepEqual(g.failed_at, [0]);
    assert.equal(r.json.would_succeed, false);
  });

  it('reports a missing signature; allow-empty-signatures evaluates the group as signed', async () => {
    const unsigned = { txn: node.pay(0, 1, 1n) };
    const plain = await node.call('POST', '/v1/transactions/simulate', { body: jsonBody([unsigned]) });
    assert.equal(plain.status, 200);
    assert.equal(plain.json['txn-groups'][0]['txn-results'][0].missing_signature, true);
    assert.equal(plain.json.would_succeed, false);
    const allowed = await node.call('POST', '/v1/transactions/simulate', { body: jsonBody([unsigned], { 'allow-empty-signatures': true }) });
    assert.equal(allowed.json['txn-groups'][0]['failure-message'], undefined);
    assert.deepEqual(allowed.json['eval-overrides'], { 'allow-empty-signatures': true });
  });

  it('app calls: logs, state deltas and execution traces survive both encodings', async () => {
    const approval = assemble('#pragma version 10\nbyte "k"\nint 7\napp_global_put\nbyte "hi"\nlog\nint 1').program;
    const clear = assemble('#pragma version 10\nint 1').program;
    const create = makeAppCreateTxn({
      suggestedParams: node.sp(),
      sender: node.addr(0),
      approvalProgram: approval,
      clearProgram: clear,
      globalSchema: { numUints: 1, numByteSlices: 0 },
    });
    const req = { 'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true } };
    const j = await node.call('POST', '/v1/transactions/simulate', { body: jsonBody([node.sign(create)], req) });
    assert.equal(j.status, 200, j.text);
    const t = j.json['txn-groups'][0]['txn-results'][0];
    assert.deepEqual(t['txn-result'].logs, ['aGk=']);
    assert.deepEqual(t['txn-result']['global-state-delta'], [{ key: 'aw==', value: { action: 2, uint: 7 } }]);
    assert.ok(t['txn-result']['application-index'] > 0);
    assert.ok(t['exec-trace']['approval-program-trace'].length > 0);
    assert.equal(typeof t['exec-trace']['approval-program-hash'], 'string');
    assert.ok(t['app-budget-consumed'] > 0);
    const m = await node.call('POST', '/v1/transactions/simulate?format=msgpack', {
      body: encodeMsgpack({ 'txn-groups': [{ txns: [signedTransactionToWire(node.sign(create))] }], ...req }),
    });
    const mt = (decodeMsgpack(m.bytes) as any)['txn-groups'][0]['txn-results'][0];
    assert.deepEqual(mt['txn-result'].logs, [new Uint8Array([0x68, 0x69])]);
    assert.ok(mt['exec-trace']['approval-program-hash'] instanceof Uint8Array);
  });

  it('the SDK adapter request body (msgpack with raw signed txns) is understood', async () => {
    const txns = group([node.pay(0, 1, 10n), node.pay(1, 0, 10n)]);
    const body = simulateRequestBody(txns.map((t) => encodeSignedTransaction(node.sign(t))));
    const r = await node.call('POST', '/v1/transactions/simulate?format=msgp', { body });
    const res = decodeMsgpack(r.bytes) as any;
    assert.equal(res['txn-groups'][0]['txn-results'].length, 2);
    assert.equal(res.would_succeed, true);
  });

  it('request problems are 400 with the public node API\'s {"message": …} body', async () => {
    const stx = node.sign(node.pay(0, 1, 1n));
    const cases: [string | Uint8Array, RegExp][] = [
      ['', /empty/],
      ['not json at all', /neither msgpack nor JSON/],
      [stringifyJson({ 'txn-groups': [] }), /expected 1 transaction group, got 0/],
      [stringifyJson({ 'txn-groups': [{ txns: [] }] }), /empty txgroup/],
      [jsonBody([stx], { 'extra-opcode-budget': 320_001 }), /extra budget 320001 > simulation extra budget limit 320000/],
      [jsonBody([stx], { 'fix-signers': true }), /FixSigners requires AllowEmptySignatures/],
      [jsonBody([stx], { bogus: 1 }), /unknown field "bogus"/],
      [stringifyJson({ 'txn-groups': [{ txns: [{ txn: { type: 'nope' } }] }] }), /txn-groups\[0\]\.txns\[0\]/],
    ];
    for (const [body, pattern] of cases) {
      const r = await node.call('POST', '/v1/transactions/simulate', { body });
      assert.equal(r.status, 400, String(body).slice(0, 60));
      const reply = JSON.parse(r.text) as { message: string };
      assert.deepEqual(Object.keys(reply), ['message']);
      assert.match(reply.message, pattern);
    }
    const fmt = await node.call('POST', '/v1/transactions/simulate?format=xml', { body: jsonBody([stx]) });
    assert.equal(fmt.status, 400);
    assert.deepEqual(JSON.parse(fmt.text), { message: 'failed to parse the format option' });
  });

  it('interop: algosdk v3 Algodv2.simulateTransactions works against this path', async () => {
    const url = new URL(node.service.url);
    const algod = new algosdk.Algodv2({ 'X-Node-API-Token': TOKEN }, `${url.protocol}//${url.hostname}`, url.port);
    const sk = new Uint8Array([...node.keys[0]!.seed, ...node.keys[0]!.publicKey]);
    // The node also serves the public API's /v2/transactions/params (issue 17).
    const params = await algod.getTransactionParams().do();
    assert.equal(params.genesisID, node.ledger.genesisId);
    const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: node.addr(0),
      receiver: node.addr(1),
      amount: 4321,
      suggestedParams: {
        fee: 1000,
        flatFee: true,
        minFee: 1000,
        firstValid: Number(node.ledger.latestRound),
        lastValid: Number(node.ledger.latestRound) + 100,
        genesisID: node.ledger.genesisId,
        genesisHash: node.ledger.genesisHash,
      },
    });
    const signed = txn.signTxn(sk);
    const resp = await algod.simulateRawTransactions([signed]).do();
    assert.equal(resp.version, 2);
    assert.equal(resp.txnGroups[0]!.failureMessage, undefined);
    assert.equal(resp.txnGroups[0]!.txnResults[0]!.txnResult.txn.txn.payment!.amount, 4321n);
    // The same bytes go through the /v1 raw submission.
    const sent = await node.call('POST', '/v1/transactions', { body: signed, contentType: 'application/x-binary' });
    assert.equal(sent.status, 200);
    assert.equal(sent.json.txId, txn.txID());
  });

  it('interop: the SDK node-service adapter reads every /v1 shape it knows', async () => {
    const adapter = new NodeServiceAdapter({ url: node.service.url, token: TOKEN });
    try {
      await adapter.health();
      const st = await adapter.status();
      assert.equal(st.lastRound, node.ledger.latestRound);
      const sp = await adapter.suggestedParams();
      assert.equal(sp.genesisId, node.ledger.genesisId);
      const acct = await adapter.account(node.addr(0));
      assert.equal(acct.amount, node.ledger.balance(node.addr(0)));
      const stx = node.sign(node.pay(0, 2, 99n));
      const sent = await adapter.submit(encodeSignedTransaction(stx));
      assert.equal(sent.txid, txid(stx.txn));
      const p = await adapter.pending(txid(stx.txn));
      assert.equal(p.confirmedRound, node.ledger.latestRound);
      const sim = await adapter.simulate([encodeSignedTransaction(node.sign(node.pay(0, 2, 1n)))]);
      assert.equal(sim.wouldSucceed, true);
      const v = await adapter.versions();
      assert.deepEqual(v.genesisHash, node.ledger.genesisHash);
      const b = await adapter.v1Block(node.ledger.latestRound);
      assert.equal(b.txns[0]!.txid, txid(stx.txn));
      assert.equal(await adapter.getSyncRound(), undefined, 'not a follower: no sync round');
    } finally {
      await adapter.close();
    }
  });
});

describe('node service: follower operations (/v2/ledger/sync, /v2/deltas)', function () {
  it('on a regular node: the sync-round operations are 404 (follower mode only), deltas for recent rounds', async () => {
    const node = await startNode({ accounts: 2 });
    try {
      for (const [method, path] of [
        ['GET', '/v2/ledger/sync'],
        ['POST', '/v2/ledger/sync/5'],
        ['DELETE', '/v2/ledger/sync'],
      ] as const) {
        const r = await node.call(method, path);
        assert.equal(r.status, 404, `${method} ${path}`);
        assert.equal(r.text, NOT_A_FOLLOWER);
      }
      const stx = node.sign(node.pay(0, 1, 3n * ALGO));
      await node.submit([stx]);
      const d = await node.call('GET', '/v2/deltas/1');
      assert.equal(d.status, 200);
      assert.equal(d.json.Hdr.rnd, 1);
      assert.equal(d.json.Hdr.gen, node.ledger.genesisId);
      assert.match(d.json.Hdr.prev, /^blk-[A-Z2-7]{52}$/);
      const accts = d.json.Accts.Accts as any[];
      const sender = accts.find((a) => a.Addr === node.addr(0));
      assert.equal(BigInt(sender.MicroAlgos), node.ledger.balance(node.addr(0)));
      assert.equal(sender.Status, 0, 'zero fields are written in JSON');
      assert.ok(accts.some((a) => a.Addr === node.addr(1)));
      assert.deepEqual(Object.keys(d.json.Txids), [txid(stx.txn)]);
      assert.equal(d.json.Txleases, null);
      assert.equal(BigInt(d.json.Totals.online.mon) + BigInt(d.json.Totals.offline.mon), node.ledger.supply().totalMoney);
      const m = await node.call('GET', '/v2/deltas/1?format=msgpack');
      assert.equal(m.headers['content-type'], 'application/msgpack');
      const md = decodeMsgpack(m.bytes, { maps: true }) as Map<string, any>;
      const hdr = md.get('Hdr') as Map<string, unknown>;
      assert.equal(hdr.get('rnd'), 1);
      const txids = md.get('Txids') as Map<Uint8Array, unknown>;
      assert.equal([...txids.keys()][0]!.length, 32, 'msgpack keys txids by their 32 bytes');
      assert.equal((await node.call('GET', '/v2/deltas/2')).status, 404);
      assert.equal((await node.call('GET', '/v2/deltas/0')).status, 404, 'genesis has no delta');

      // Created resources: asset params and holding, app params with global state, the creatable record.
      const asset = makeAssetCreateTxn({ suggestedParams: node.sp(), sender: node.addr(1), total: 10n, unitName: 'U', manager: node.addr(1) });
      const app = makeAppCreateTxn({
        suggestedParams: node.sp(),
        sender: node.addr(0),
        approvalProgram: assemble('#pragma version 10\nbyte "k"\nbyte "v"\napp_global_put\nint 1').program,
        clearProgram: assemble('#pragma version 10\nint 1').program,
        globalSchema: { numUints: 0, numByteSlices: 1 },
      });
      node.ledger.submit([node.sign(asset)]);
      node.ledger.submit([node.sign(app)]);
      const da = (await node.call('GET', '/v2/deltas/2')).json;
      const assetId = String(node.ledger.block(2n).txns[0]!.ad.createdAssetId);
      assert.deepEqual(da.Creatables[assetId], { Ctype: 0, Created: true, Creator: node.addr(1), Ndeltas: 0 });
      const ar = (da.Accts.AssetResources as any[]).find((r) => r.Addr === node.addr(1));
      assert.equal(ar.Params.Params.un, 'U');
      assert.equal(ar.Params.Params.m, node.addr(1));
      assert.deepEqual(ar.Holding, { Holding: { a: 10, f: false }, Deleted: false });
      const dp = (await node.call('GET', '/v2/deltas/3')).json;
      const appId = String(node.ledger.block(3n).txns[0]!.ad.createdAppId);
      assert.equal(dp.Creatables[appId].Ctype, 1);
      const pr = (dp.Accts.AppResources as any[])[0];
      assert.equal(pr.Addr, node.addr(0));
      assert.deepEqual(pr.Params.Params.gs, { k: { tt: 1, tb: 'v' } });
      const mp = decodeMsgpack((await node.call('GET', '/v2/deltas/3?format=msgpack')).bytes, { maps: true }) as Map<string, any>;
      assert.equal(mp.get('Accts').get('AppResources')[0].get('Aidx'), Number(appId));
      assert.equal((await node.call('GET', '/v2/deltas/1?format=yaml')).status, 400);
      assert.equal((await node.call('GET', '/v2/deltas/x')).status, 400);
    } finally {
      await node.close();
    }
  });

  it('in follower mode: a sync round moved back within what the node accepts keeps its deltas; unsetting after a far jump keeps the recent ones', async () => {
    const node = await startNode({ accounts: 2, follower: { enabled: true, lookback: 4 } });
    try {
      for (let i = 0; i < 12; i++) node.ledger.submit([node.sign(node.pay(i % 2, (i + 1) % 2, BigInt(1000 + i)))]);
      // Fetch up to 10 (sync 7: rounds 7..10), then move back to 6: 6 + 4 >= 10, so the node accepts it ...
      assert.equal((await node.call('POST', '/v2/ledger/sync/7')).status, 200);
      assert.equal((await node.call('GET', '/v1/status')).json.lastRound, 10);
      assert.equal((await node.call('POST', '/v2/ledger/sync/6')).status, 200);
      // ... and every delta of its window can still be read.
      for (const r of [6, 7, 8, 9]) assert.equal((await node.call('GET', `/v2/deltas/${r}`)).status, 200, `round ${r}`);
      // Fetching never goes backwards: 10 stays fetched. 5 + 4 < 10 is refused, as by the node.
      assert.equal((await node.call('GET', '/v1/status')).json.lastRound, 10);
      const back = await node.call('POST', '/v2/ledger/sync/5');
      assert.equal(back.status, 400);
      assert.equal(back.text, 'failed to set sync round on the ledger');
      // A far jump ahead, then unset: the node follows the latest round and still holds its recent deltas.
      assert.equal((await node.call('POST', '/v2/ledger/sync/500')).status, 200);
      assert.equal((await node.call('DELETE', '/v2/ledger/sync')).status, 200);
      for (const r of [9, 10, 11, 12]) assert.equal((await node.call('GET', `/v2/deltas/${r}`)).status, 200, `round ${r}`);
    } finally {
      await node.close();
    }
  });

  it('in follower mode: paused at 0, window of MaxAcctLookback rounds from the sync round, no submissions', async () => {
    const node = await startNode({ accounts: 2, follower: { enabled: true, lookback: 4 } });
    try {
      // The devnet's ledger plays the network and advances by itself.
      for (let i = 0; i < 8; i++) node.ledger.submit([node.sign(node.pay(i % 2, (i + 1) % 2, BigInt(1000 + i)))]);
      assert.equal(node.ledger.latestRound, 8n);
      // Rule 1-2: starts at 0 and reports it.
      assert.deepEqual((await node.call('GET', '/v2/ledger/sync')).json, { round: 0 });
      // Rule 3: blocks fetched up to 0 + 4 - 1 = 3.
      assert.equal((await node.call('GET', '/v1/status')).json.lastRound, 3);
      for (const r of [1, 2, 3]) assert.equal((await node.call('GET', `/v2/deltas/${r}`)).status, 200, `round ${r}`);
      const beyond = await node.call('GET', '/v2/deltas/4');
      assert.equal(beyond.status, 404);
      assert.match(beyond.text, /^failed retrieving State Delta: /);
      assert.equal((await node.call('GET', '/v1/block/4')).status, 400, 'not fetched yet');

      // Moving the sync round forward moves the window: R = 3 → rounds 3..6.
      assert.equal((await node.call('POST', '/v2/ledger/sync/3')).status, 200);
      assert.deepEqual((await node.call('GET', '/v2/ledger/sync')).json, { round: 3 });
      assert.equal((await node.call('GET', '/v2/deltas/2')).status, 404, 'before the window');
      for (const r of [3, 4, 5, 6]) assert.equal((await node.call('GET', `/v2/deltas/${r}`)).status, 200, `round ${r}`);
      assert.equal((await node.call('GET', '/v2/deltas/7')).status, 404);
      // A delta kept while paused carries the values of its own round.
      const d5 = (await node.call('GET', '/v2/deltas/5')).json;
      assert.equal(d5.Hdr.rnd, 5);
      assert.equal(Object.keys(d5.Txids)[0], node.ledger.block(5n).txns[0]!.txid);

      // Rule 4: at the network's round only that round's delta.
      assert.equal((await node.call('POST', '/v2/ledger/sync/8')).status, 200);
      assert.equal((await node.call('GET', '/v2/deltas/8')).status, 200);
      assert.equal((await node.call('GET', '/v2/deltas/7')).status, 404);
      // Going back behind what was fetched is refused.
      const back = await node.call('POST', '/v2/ledger/sync/1');
      assert.equal(back.status, 400);
      assert.equal(back.text, 'failed to set sync round on the ledger');

      // Rule 6: delete → follow the latest round.
      assert.equal((await node.call('DELETE', '/v2/ledger/sync')).status, 200);
      assert.equal((await node.call('GET', '/v2/ledger/sync')).status, 404);
      node.ledger.submit([node.sign(node.pay(0, 1, 5n))]);
      assert.equal((await node.call('GET', '/v1/status')).json.lastRound, 9);
      assert.equal((await node.call('GET', '/v2/deltas/9')).status, 200);

      // A follower does not accept transactions.
      const r = await node.submit([node.sign(node.pay(0, 1, 1n))]);
      assert.equal(r.status, 400);
      assert.equal(r.text, 'cannot broadcast txns in follower mode');
    } finally {
      await node.close();
    }
  });

  it('wait-for-block-after on a paused follower wakes when the sync round moves', async () => {
    const node = await startNode({ accounts: 2, follower: { enabled: true, lookback: 2 } });
    try {
      for (let i = 0; i < 3; i++) node.ledger.submit([node.sign(node.pay(0, 1, BigInt(10 + i)))]);
      assert.equal((await node.call('GET', '/v1/status')).json.lastRound, 1);
      const waiting = node.call('GET', '/v1/status/wait-for-block-after/1/');
      await new Promise((r) => setTimeout(r, 20));
      assert.equal((await node.call('POST', '/v2/ledger/sync/2')).status, 200);
      assert.equal((await waiting).json.lastRound, 3);
    } finally {
      await node.close();
    }
  });
});
