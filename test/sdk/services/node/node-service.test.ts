import assert from 'node:assert/strict';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { decodeBlock } from '../../../../sdk/src/ledger/index.js';
import { NODE_ENDPOINTS, routePattern, nodeRouter } from '../../../../sdk/src/services/node/index.js';
import { makeAssetCreateTxn, makeAssetOptInTxn, makeAssetTransferTxn } from '../../../../sdk/src/txn/builders.js';
import { txid } from '../../../../sdk/src/txn/encode.js';
import { parseMetrics } from '../../../../sdk/src/adapters/node/v1-model.js';
import { ALGO, group, startNode, TOKEN, type Node } from './helpers.js';

describe('node service: /v1 operations over HTTP', function () {
  let node: Node;
  before(async () => {
    node = await startNode({ accounts: 3 });
  });
  after(async () => {
    await node.close();
  });

  describe('authentication', () => {
    it('answers 401 with no content for a missing or wrong token on token-guarded operations', async () => {
      for (const token of [null, 'wrong', TOKEN + 'x']) {
        for (const path of ['/health', '/v1/status', `/v1/account/${node.addr(0)}`, '/v2/ledger/sync']) {
          const r = await node.call('GET', path, { token });
          assert.equal(r.status, 401, `${path} with ${token}`);
          assert.equal(r.bytes.length, 0);
        }
        const r = await node.call('POST', '/v1/transactions', { token, body: new Uint8Array([1]) });
        assert.equal(r.status, 401);
        assert.equal(r.bytes.length, 0);
      }
    });

    it('serves /metrics, /swagger.json and /versions without a token (operations 2, 3, 20)', async () => {
      for (const path of ['/metrics', '/swagger.json', '/versions']) assert.equal((await node.call('GET', path, { token: null })).status, 200, path);
    });

    it('GET /health is 200 with an empty body', async () => {
      const r = await node.call('GET', '/health');
      assert.equal(r.status, 200);
      assert.equal(r.bytes.length, 0);
    });
  });

  describe('service-level operations', () => {
    it('/versions names the versions, the genesis and the build', async () => {
      const r = await node.call('GET', '/versions', { token: null });
      assert.deepEqual(r.json.versions, ['v1', 'v2']);
      assert.equal(r.json.genesis_id, node.ledger.genesisId);
      assert.equal(r.json.genesis_hash_b64, toBase64(node.ledger.genesisHash));
      assert.deepEqual(Object.keys(r.json.build).sort(), ['branch', 'build_number', 'channel', 'commit_hash', 'major', 'minor']);
    });

    it('/swagger.json describes exactly the routes the service answers', async () => {
      const r = await node.call('GET', '/swagger.json', { token: null });
      assert.equal(r.json.swagger, '2.0');
      assert.equal(r.json.securityDefinitions.api_key.name, 'X-Node-API-Token');
      const described = new Set<string>();
      for (const [path, ops] of Object.entries<Record<string, any>>(r.json.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          described.add(`${method.toUpperCase()} ${routePattern(path)}`);
          const isPublic = ['/metrics', '/swagger.json', '/versions', '/genesis'].includes(path);
          assert.equal(op.security === undefined, isPublic, `${method} ${path} security`);
          if (!isPublic) assert.ok(op.responses['401'], `${path} lists 401`);
          for (const p of op.parameters.filter((x: any) => x.in === 'path')) assert.ok(path.includes(`{${p.name}}`), `${path} has {${p.name}}`);
        }
      }
      // The router is built from the same table; the description must cover every route and no other.
      const router = nodeRouter({} as never);
      const routes = new Set(router.routes().map((rt) => `${rt.method} ${rt.pattern}`));
      assert.deepEqual([...described].sort(), [...routes].sort());
      // Every numbered operation of node-service.md (1-24) is present once.
      assert.deepEqual(
        NODE_ENDPOINTS.map((e) => e.number)
          .filter((n) => n > 0)
          .sort((a, b) => a - b),
        Array.from({ length: 24 }, (_, i) => i + 1),
      );
    });

    it('/metrics is Prometheus text with HELP/TYPE comments and live counters', async () => {
      const before = parseMetrics((await node.call('GET', '/metrics', { token: null })).text);
      const stx = node.sign(node.pay(0, 1, 1000n, { note: new Uint8Array([9, 9]) }));
      assert.equal((await node.submit([stx])).status, 200);
      const r = await node.call('GET', '/metrics', { token: null });
      assert.match(String(r.headers['content-type']), /^text\/plain/);
      const lines = r.text.trim().split('\n');
      for (const l of lines) assert.match(l, /^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[^}]*\})? \d+)$/, l);
      assert.ok(lines.includes('# TYPE tealworks_node_transactions_submitted_total counter'));
      const after = parseMetrics(r.text);
      assert.equal(Number(after.get('tealworks_node_transactions_submitted_total')), Number(before.get('tealworks_node_transactions_submitted_total')) + 1);
      assert.equal(after.get('tealworks_node_ledger_round'), String(node.ledger.latestRound));
      assert.ok(Number(after.get('tealworks_node_http_requests_total{code="200"}')) >= 2);
    });

    it('/metrics answers 404 with no content when metrics are compiled out', async () => {
      const bare = await startNode({ metrics: false });
      try {
        const r = await bare.call('GET', '/metrics', { token: null });
        assert.equal(r.status, 404);
        assert.equal(r.bytes.length, 0);
      } finally {
        await bare.close();
      }
    });

    it('unknown paths are 404 with a string body', async () => {
      const r = await node.call('GET', '/v1/nothing');
      assert.equal(r.status, 404);
      assert.ok(r.text.length > 0);
    });
  });

  describe('status, parameters, supply', () => {
    it('/v1/status and /v1/transactions/params use the legacy field names', async () => {
      const s = (await node.call('GET', '/v1/status')).json;
      assert.equal(s.lastRound, Number(node.ledger.latestRound));
      assert.equal(s.lastConsensusVersion, node.ledger.params.protocol);
      for (const k of [
        'nextConsensusVersion',
        'nextConsensusVersionRound',
        'nextConsensusVersionSupported',
        'stoppedAtUnsupportedRound',
        'hasSyncedSinceStartup',
        'catchupTime',
        'timeSinceLastRound',
      ])
        assert.ok(k in s, k);
      const p = (await node.call('GET', '/v1/transactions/params')).json;
      assert.deepEqual(Object.keys(p).sort(), ['consensusVersion', 'fee', 'genesisID', 'genesishashb64', 'lastRound', 'minFee']);
      assert.equal(p.minFee, 1000);
      assert.equal(p.genesishashb64, toBase64(node.ledger.genesisHash));
      assert.deepEqual((await node.call('GET', '/v1/transactions/fee')).json, { fee: 0 });
    });

    it('/v1/ledger/supply counts every account', async () => {
      const s = (await node.call('GET', '/v1/ledger/supply')).json;
      assert.equal(s.round, Number(node.ledger.latestRound));
      assert.equal(BigInt(s.totalMoney), node.ledger.supply().totalMoney);
      assert.equal(s.onlineMoney, 0);
    });
  });

  describe('accounts', () => {
    it('reports a funded account', async () => {
      const a = (await node.call('GET', `/v1/account/${node.addr(2)}`)).json;
      assert.equal(a.address, node.addr(2));
      assert.equal(BigInt(a.amount), node.ledger.balance(node.addr(2)));
      assert.equal(a.amountwithoutpendingrewards, a.amount);
      assert.equal(a.pendingrewards, 0);
      assert.equal(a.rewards, 0);
      assert.equal(a.status, 'Offline');
      assert.equal(a.round, Number(node.ledger.latestRound));
    });

    it('an address the ledger never saw is an empty account; a malformed one is 400', async () => {
      const unknown = new Address(new Uint8Array(32).fill(7)).toString();
      const a = (await node.call('GET', `/v1/account/${unknown}`)).json;
      assert.equal(a.amount, 0);
      const bad = await node.call('GET', '/v1/account/NOTANADDRESS');
      assert.equal(bad.status, 400);
      assert.equal(bad.text, 'failed to parse the address');
      assert.match(String(bad.headers['content-type']), /^text\/plain/);
    });
  });

  describe('submission → confirmation → lookup', () => {
    it('confirms a payment at once (dev mode) and finds it by every lookup', async () => {
      const before = node.ledger.latestRound;
      const stx = node.sign(node.pay(0, 1, 12_345n, { note: new Uint8Array([1, 2, 3]) }));
      const id = txid(stx.txn);
      const r = await node.submit([stx]);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { txId: id });
      assert.equal(node.ledger.latestRound, before + 1n);

      const pending = (await node.call('GET', `/v1/transactions/pending/${id}`)).json;
      assert.equal(pending.tx, id);
      assert.equal(pending.round, Number(before + 1n), 'committed: confirmed round > 0');
      assert.equal(pending.poolerror, undefined);
      assert.equal(pending.type, 'pay');
      assert.equal(pending.from, node.addr(0));
      assert.equal(pending.fee, 1000);
      assert.equal(pending.noteb64, 'AQID');
      assert.equal(pending.genesisID, node.ledger.genesisId);
      assert.deepEqual(pending.payment, { to: node.addr(1), amount: 12345, torewards: 0, closerewards: 0 });
      assert.deepEqual(pending['first-round'], Number(before));

      assert.deepEqual((await node.call('GET', `/v1/transaction/${id}`)).json, pending);
      assert.deepEqual((await node.call('GET', `/v1/account/${node.addr(1)}/transaction/${id}`)).json, pending);
      const other = await node.call('GET', `/v1/account/${node.addr(2)}/transaction/${id}`);
      assert.equal(other.status, 404, 'not a transaction of that account');

      const list = (await node.call('GET', `/v1/account/${node.addr(0)}/transactions?firstRound=${before + 1n}&lastRound=${before + 1n}`)).json;
      assert.deepEqual(
        list.transactions.map((t: any) => t.tx),
        [id],
      );
      const dated = (await node.call('GET', `/v1/account/${node.addr(0)}/transactions?fromDate=2000-01-01&max=1`)).json;
      assert.equal(dated.transactions.length, 1);
      assert.equal((await node.call('GET', `/v1/account/${node.addr(0)}/transactions?toDate=2000-01-01`)).json.transactions.length, 0);
      assert.equal((await node.call('GET', `/v1/account/${node.addr(0)}/transactions?fromDate=2000-13-01`)).status, 400);

      const block = (await node.call('GET', `/v1/block/${before + 1n}`)).json;
      assert.equal(block.round, Number(before + 1n));
      assert.deepEqual(
        block.txns.transactions.map((t: any) => t.tx),
        [id],
      );
      for (const k of [
        'hash',
        'previousBlockHash',
        'seed',
        'proposer',
        'period',
        'txnRoot',
        'timestamp',
        'currentProtocol',
        'nextProtocol',
        'nextProtocolApprovals',
        'nextProtocolVoteBefore',
        'nextProtocolSwitchOn',
        'upgradePropose',
        'upgradeApprove',
      ])
        assert.ok(k in block, k);
      const raw = await node.call('GET', `/v1/block/${before + 1n}?raw=1`);
      assert.equal(raw.status, 200);
      const decoded = decodeBlock(raw.bytes);
      assert.equal(decoded.header.round, before + 1n);
      assert.equal(decoded.txns[0]!.txid, id);
    });

    it('submits a whole group in one request and reports the first id', async () => {
      const txns = group([node.pay(0, 2, 1n), node.pay(1, 2, 2n)]);
      const r = await node.submit(txns.map((t) => node.sign(t)));
      assert.equal(r.status, 200);
      assert.equal(r.json.txId, txid(txns[0]!));
      const second = (await node.call('GET', `/v1/transactions/pending/${txid(txns[1]!)}`)).json;
      assert.equal(second.round, Number(node.ledger.latestRound));
      assert.equal(second.group, toBase64(txns[1]!.group!));
    });

    it('refuses malformed submissions with 400 and a string body', async () => {
      const empty = await node.call('POST', '/v1/transactions', { body: new Uint8Array(0), contentType: 'application/x-binary' });
      assert.equal(empty.status, 400);
      assert.equal(empty.text, 'empty txgroup');
      const junk = await node.call('POST', '/v1/transactions', { body: new Uint8Array([0xc1, 0xff, 0x00]), contentType: 'application/x-binary' });
      assert.equal(junk.status, 400);
      assert.ok(junk.text.length > 0);
      const notTxn = await node.call('POST', '/v1/transactions', { body: new Uint8Array([0x81, 0xa1, 0x78, 0x01]), contentType: 'application/x-binary' });
      assert.equal(notTxn.status, 400);
      const tooMany = Array.from({ length: 17 }, (_, i) => node.sign(node.pay(0, 1, BigInt(i + 1))));
      const big = await node.submit(tooMany);
      assert.equal(big.status, 400);
      assert.equal(big.text, 'max group size is 16');
    });

    it('passes the ledger rejection through and remembers it with a pool error', async () => {
      const stx = node.sign(node.pay(2, 1, 10_000n * ALGO));
      const id = txid(stx.txn);
      const before = node.ledger.latestRound;
      const r = await node.submit([stx]);
      assert.equal(r.status, 400);
      assert.match(r.text, /overspend/);
      assert.ok(r.text.includes(id), 'the message names the transaction');
      assert.equal(node.ledger.latestRound, before, 'nothing committed');
      const p = (await node.call('GET', `/v1/transactions/pending/${id}`)).json;
      assert.equal(p.round, 0, 'removed from the pool: confirmed round 0');
      assert.equal(p.poolerror, r.text, 'and a non-empty pool error');
    });

    it('a bad signature is rejected with the ledger message', async () => {
      const stx = node.sign(node.pay(0, 1, 5n), node.keys[1]);
      const r = await node.submit([stx]);
      assert.equal(r.status, 400);
      assert.ok(r.text.length > 0);
    });

    it('unknown transactions are 404, malformed ids 400', async () => {
      const unknown = 'A'.repeat(52);
      for (const path of [`/v1/transactions/pending/${unknown}`, `/v1/transaction/${unknown}`, `/v1/account/${node.addr(0)}/transaction/${unknown}`]) {
        const r = await node.call('GET', path);
        assert.equal(r.status, 404, path);
        assert.equal(r.text, "couldn't find the required transaction in the required range");
      }
      for (const path of ['/v1/transactions/pending/xyz', '/v1/transaction/12345', `/v1/account/${node.addr(0)}/transaction/nope`]) {
        assert.equal((await node.call('GET', path)).status, 400, path);
      }
    });

    it('an empty pool lists nothing in dev mode', async () => {
      assert.deepEqual((await node.call('GET', '/v1/transactions/pending?max=0')).json, { truncatedTxns: { transactions: [] }, totalTxns: 0 });
      assert.deepEqual((await node.call('GET', `/v1/account/${node.addr(0)}/transactions/pending`)).json, {
        truncatedTxns: { transactions: [] },
        totalTxns: 0,
      });
      assert.equal((await node.call('GET', '/v1/transactions/pending?max=abc')).status, 400);
    });
  });

  describe('assets', () => {
    let assetId: bigint;
    before(async () => {
      const create = makeAssetCreateTxn({
        suggestedParams: node.sp(),
        sender: node.addr(0),
        total: 1_000_000n,
        decimals: 2,
        unitName: 'TW',
        assetName: 'Tealworks',
        url: 'https://example.test',
        manager: node.addr(0),
        clawback: node.addr(1),
      });
      const r = await node.submit([node.sign(create)]);
      assert.equal(r.status, 200);
      const info = (await node.call('GET', `/v1/transactions/pending/${r.json.txId}`)).json;
      assetId = BigInt(info.txresults.createdasset);
      assert.ok(info.curcfg.params);
      const opt = makeAssetOptInTxn({ suggestedParams: node.sp(), sender: node.addr(1), assetId });
      assert.equal((await node.submit([node.sign(opt)])).status, 200);
      const xfer = makeAssetTransferTxn({ suggestedParams: node.sp(), sender: node.addr(0), receiver: node.addr(1), assetId, amount: 250n });
      const x = await node.submit([node.sign(xfer)]);
      assert.equal(x.status, 200);
      const xi = (await node.call('GET', `/v1/transaction/${x.json.txId}`)).json;
      assert.deepEqual(xi.curxfer, { id: Number(assetId), rcv: node.addr(1), amt: 250 });
    });

    it('GET /v1/asset/{index} returns AssetParams with the legacy names', async () => {
      const a = (await node.call('GET', `/v1/asset/${assetId}`)).json;
      assert.deepEqual(a, {
        creator: node.addr(0),
        total: 1_000_000,
        decimals: 2,
        defaultfrozen: false,
        unitname: 'TW',
        assetname: 'Tealworks',
        url: 'https://example.test',
        managerkey: node.addr(0),
        clawbackaddr: node.addr(1),
      });
    });

    it('unknown or malformed asset indices are 400', async () => {
      const r = await node.call('GET', '/v1/asset/999999');
      assert.equal(r.status, 400);
      assert.match(r.text, /^failed to retrieve asset information/);
      assert.equal((await node.call('GET', '/v1/asset/-1')).status, 400);
    });

    it('GET /v1/assets lists {AssetIndex, AssetParams}, newest first, bounded by assetIdx and max', async () => {
      const all = (await node.call('GET', '/v1/assets')).json;
      assert.equal(all.assets[0].AssetIndex, Number(assetId));
      assert.equal(all.assets[0].AssetParams.unitname, 'TW');
      assert.deepEqual((await node.call('GET', `/v1/assets?assetIdx=${assetId - 1n}`)).json, { assets: [] });
      assert.equal((await node.call('GET', '/v1/assets?max=101')).status, 400);
      assert.equal((await node.call('GET', '/v1/assets?max=0')).status, 400);
    });

    it('the account record carries holdings (assets) and created assets (thisassettotal)', async () => {
      const creator = (await node.call('GET', `/v1/account/${node.addr(0)}`)).json;
      assert.equal(creator.thisassettotal[String(assetId)].assetname, 'Tealworks');
      assert.deepEqual(creator.assets[String(assetId)], { creator: node.addr(0), amount: 1_000_000 - 250, frozen: false });
      const holder = (await node.call('GET', `/v1/account/${node.addr(1)}`)).json;
      assert.deepEqual(holder.assets[String(assetId)], { creator: node.addr(0), amount: 250, frozen: false });
      assert.equal(holder.thisassettotal, undefined);
    });
  });

  describe('blocks and waiting', () => {
    it('a block past the latest round is 400; a malformed round 400', async () => {
      assert.equal((await node.call('GET', `/v1/block/${node.ledger.latestRound + 5n}`)).status, 400);
      assert.equal((await node.call('GET', '/v1/block/abc')).status, 400);
      assert.equal((await node.call('GET', '/v1/block/99999999999999999999')).status, 400);
    });

    it('wait-for-block-after answers at once for a past round and after the next block otherwise', async () => {
      const now = node.ledger.latestRound;
      const past = (await node.call('GET', `/v1/status/wait-for-block-after/${now - 1n}/`)).json;
      assert.equal(past.lastRound, Number(now));
      const waiting = node.call('GET', `/v1/status/wait-for-block-after/${now}/`);
      let settled = false;
      void waiting.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(settled, false, 'still waiting: no block after the round yet');
      await node.submit([node.sign(node.pay(1, 0, 7n))]);
      const s = (await waiting).json;
      assert.equal(s.lastRound, Number(now + 1n));
    });

    it('wait-for-block-after gives up with the current status after its time limit', async () => {
      const quick = await startNode({ waitTimeoutMs: 30 });
      try {
        const r = await quick.call('GET', `/v1/status/wait-for-block-after/${quick.ledger.latestRound + 10n}`);
        assert.equal(r.status, 200);
        assert.equal(r.json.lastRound, Number(quick.ledger.latestRound));
      } finally {
        await quick.close();
      }
    });
  });
});

describe('node service: pool in interval mode', function () {
  let node: Node;
  beforeEach(async () => {
    // A long interval: the test makes the blocks itself, so nothing depends on timing.
    node = await startNode({ accounts: 3, blockIntervalMs: 3_600_000 });
  });
  afterEach(async () => {
    await node.close();
  });

  it('keeps submitted transactions pending (round 0, no pool error) until a block is made', async () => {
    const a = node.sign(node.pay(0, 1, 100n, { fee: 1000n }));
    const b = node.sign(node.pay(1, 2, 100n, { fee: 5000n }));
    assert.equal((await node.submit([a])).status, 200);
    assert.equal((await node.submit([b])).status, 200);
    assert.equal(node.ledger.latestRound, 0n);
    const p = (await node.call('GET', `/v1/transactions/pending/${txid(a.txn)}`)).json;
    assert.equal(p.round, 0);
    assert.equal(p.poolerror, undefined);
    const all = (await node.call('GET', '/v1/transactions/pending')).json;
    assert.equal(all.totalTxns, 2);
    assert.deepEqual(
      all.truncatedTxns.transactions.map((t: any) => t.tx),
      [txid(b.txn), txid(a.txn)],
      'higher fee per byte first',
    );
    const one = (await node.call('GET', '/v1/transactions/pending?max=1')).json;
    assert.equal(one.totalTxns, 2);
    assert.equal(one.truncatedTxns.transactions.length, 1);
    const mine = (await node.call('GET', `/v1/account/${node.addr(2)}/transactions/pending?max=0`)).json;
    assert.deepEqual(
      mine.truncatedTxns.transactions.map((t: any) => t.tx),
      [txid(b.txn)],
    );
    const dup = await node.submit([a]);
    assert.equal(dup.status, 400);

    node.service.pool.produceBlock();
    assert.equal(node.ledger.latestRound, 1n);
    assert.equal((await node.call('GET', `/v1/transactions/pending/${txid(a.txn)}`)).json.round, 1);
    assert.equal((await node.call('GET', '/v1/transactions/pending')).json.totalTxns, 0);
  });

  it('evicts a group that no longer applies at block time, with the reason as pool error', async () => {
    const balance = node.ledger.balance(node.addr(0));
    // Each alone is fine; together they overspend, so the second fails when the block is made.
    const first = node.sign(node.pay(0, 1, balance - 110_000n - 1000n));
    const second = node.sign(node.pay(0, 2, 50_000n));
    assert.equal((await node.submit([first])).status, 200);
    assert.equal((await node.submit([second])).status, 200);
    node.service.pool.produceBlock();
    const ok = (await node.call('GET', `/v1/transactions/pending/${txid(first.txn)}`)).json;
    assert.equal(ok.round, 1);
    const evicted = (await node.call('GET', `/v1/transactions/pending/${txid(second.txn)}`)).json;
    assert.equal(evicted.round, 0);
    assert.match(evicted.poolerror, /overspend|below min/);
  });

  it('checks a group before pooling it', async () => {
    const r = await node.submit([node.sign(node.pay(0, 1, 1n), node.keys[2])]);
    assert.equal(r.status, 400);
    assert.equal((await node.call('GET', '/v1/transactions/pending')).json.totalTxns, 0);
  });
});
