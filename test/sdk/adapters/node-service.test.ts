import assert from 'node:assert/strict';
import { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import { firstTxid, simulateRequestBody } from '../../../sdk/src/adapters/node/adapter.js';
import { ConfirmationTimeoutError, TransactionNotFoundError, TransactionRejectedError } from '../../../sdk/src/adapters/node/errors.js';
import { HttpError, UnsupportedOperationError } from '../../../sdk/src/adapters/http/errors.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { decodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { FakeServer, json, reset, sameBytes, text, type RecordedRequest } from './fake-server.js';
import type { ServerResponse } from 'node:http';

const TOKEN = 'node-token-0123456789abcdef';
const ADDR = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
// Golden signed payment (protocol.md §3.7) and its id.
const STX = fromBase64(
  'gqNzaWfEQPhUAZ3xkDDcc8FvOVo6UinzmKBCqs0woYSfodlmBMfQvGbeUx3Srxy3dyJDzv7rLm26BRv9FnL2/AuT7NYfiAWjdHhui6NhbXTNA+ilY2xvc2XEIEDpNJKIJWTLzpxZpptnVCaJ6aHDoqnqW2Wm6KRCH/xXo2ZlZc0EmKJmds0wsqNnZW6sZGV2bmV0LXYzMy4womdoxCAmCyAJoJOohot5WHIvpeVG7eftF+TYXEx4r7BFJpDt0qJsds00mqRub3RlxAjqABVHQ2y/lqNyY3bEIHts4k/rW6zAsWTinCIsV/X2PcOH1DkEglhBHF/hD3wCo3NuZMQg5/D4TQaBHfnzHI2HixFV9GcdUaGFwgCQhmf0SVhwaKGkdHlwZaNwYXk=',
);
const TXID = '5FJDJD5LMZC3EHUYYJNH5I23U4X6H2KXABNDGPIL557ZMJ33GZHQ';
const GH = 'JgsgCaCTqIaLeVhyL6XlRu3n7Rfk2FxMeK+wRSaQ7dI=';

const STATUS = {
  lastRound: 1000,
  lastConsensusVersion: 'v41',
  nextConsensusVersion: 'v42',
  nextConsensusVersionRound: 2000,
  nextConsensusVersionSupported: true,
  stoppedAtUnsupportedRound: false,
  hasSyncedSinceStartup: true,
  catchupTime: 0,
  timeSinceLastRound: 1500000000,
};

const V1_TXN = {
  tx: TXID,
  type: 'pay',
  from: ADDR,
  fee: 1176,
  'first-round': 12466,
  'last-round': 13466,
  genesisID: 'devnet-v33.0',
  genesishashb64: GH,
  noteb64: '6gAVR0Nsv5Y=',
  round: 12470,
  payment: {
    to: 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI',
    amount: 1000,
    close: 'IDUTJEUIEVSMXTU4LGTJWZ2UE2E6TIODUKU6UW3FU3UKIQQ77RLUBBBFLA',
    closeamount: 0,
    torewards: 0,
    closerewards: 0,
  },
};

describe('adapters/node-service: every operation of node-service.md', () => {
  let server: FakeServer;
  let node: NodeServiceAdapter;

  beforeEach(async () => {
    server = await FakeServer.start();
    node = new NodeServiceAdapter({ url: server.url, token: TOKEN, retry: { retries: 2, baseDelayMs: 1 } });
  });
  afterEach(async () => {
    await node.close();
    await server.close();
  });

  function expectRequest(method: string, path: string, query: Record<string, string> = {}): RecordedRequest {
    const r = server.last;
    assert.equal(r.method, method);
    assert.equal(r.path, path);
    assert.deepEqual(r.query, query);
    assert.equal(r.headers['x-node-api-token'], TOKEN);
    return r;
  }

  it('1 GET /health', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200);
      res.end();
    };
    await node.health();
    expectRequest('GET', '/health');
  });

  it('2 GET /metrics (text with # comments and key:value lines)', async () => {
    server.handler = (_r, res) => text(res, 200, '# HELP algod_ledger_round round\nalgod_ledger_round:1234\n# another\nalgod_network_sent_bytes_total{} 99\n');
    const m = await node.metrics();
    assert.equal(m.get('algod_ledger_round'), '1234');
    assert.equal(m.get('algod_network_sent_bytes_total{}'), '99');
    assert.equal(m.size, 2);
    expectRequest('GET', '/metrics');
  });

  it('3 GET /swagger.json', async () => {
    server.handler = (_r, res) => json(res, 200, { swagger: '2.0', info: { title: 'node' } });
    assert.deepEqual(await node.swagger(), { swagger: '2.0', info: { title: 'node' } });
    expectRequest('GET', '/swagger.json');
  });

  it('4 GET /v1/account/{address}', async () => {
    server.handler = (_r, res) =>
      json(res, 200, {
        address: ADDR,
        amount: 18446744073709551615n,
        amountwithoutpendingrewards: 5000,
        pendingrewards: 10,
        rewards: 20,
        round: 77,
        status: 'Not Participating',
        participation: { partpkb64: 'AA==', vrfpkb64: 'AA==', votefst: 1, votelst: 2, votekd: 3 },
        assets: { '31566704': { creator: ADDR, amount: 42, frozen: true } },
        thisassettotal: {
          '9': {
            creator: ADDR,
            total: 1000000,
            decimals: 6,
            defaultfrozen: false,
            unitname: 'USD',
            assetname: 'Dollar',
            managerkey: ADDR,
            metadatahash: 'AQID',
          },
        },
      });
    const a = await node.account(ADDR);
    expectRequest('GET', `/v1/account/${ADDR}`);
    assert.equal(a.amount, 2n ** 64n - 1n);
    assert.equal(a.amountWithoutPendingRewards, 5000n);
    assert.equal(a.status, 'NotParticipating');
    assert.deepEqual(a.assets, [{ assetId: 31566704n, amount: 42n, frozen: true }]);
    assert.equal(a.createdAssets[0]!.index, 9n);
    assert.equal(a.createdAssets[0]!.params.unitName, 'USD');
    assert.equal(a.createdAssets[0]!.params.manager, ADDR);
    assert.deepEqual(a.createdAssets[0]!.params.metadataHash, new Uint8Array([1, 2, 3]));
  });

  it('5 GET /v1/account/{address}/transaction/{txid}', async () => {
    server.handler = (_r, res) => json(res, 200, V1_TXN);
    const t = await node.accountTransaction(ADDR, TXID);
    expectRequest('GET', `/v1/account/${ADDR}/transaction/${TXID}`);
    assert.equal(t.txid, TXID);
    assert.equal(t.fee, 1176n);
    assert.equal(t.round, 12470n);
    assert.deepEqual(t.note, fromBase64('6gAVR0Nsv5Y='));
    assert.equal(t.payment?.amount, 1000n);
    assert.equal(t.payment?.closeAmount, 0n);
  });

  it('6 GET /v1/account/{address}/transactions with every filter', async () => {
    server.handler = (_r, res) =>
      json(res, 200, { transactions: [V1_TXN, { ...V1_TXN, tx: 'B', type: 'axfer', payment: undefined, curxfer: { id: 5, amt: 3, rcv: ADDR, snd: ADDR } }] });
    const list = await node.accountTransactions(ADDR, { firstRound: 0n, lastRound: 100, max: 0, fromDate: '2024-01-01', toDate: '2024-02-01' });
    expectRequest('GET', `/v1/account/${ADDR}/transactions`, { firstRound: '0', lastRound: '100', max: '0', fromDate: '2024-01-01', toDate: '2024-02-01' });
    assert.equal(list.length, 2);
    assert.deepEqual(list[1]!.assetTransfer, { id: 5n, amount: 3n, receiver: ADDR, clawbackSource: ADDR });
    await node.accountTransactions(ADDR);
    expectRequest('GET', `/v1/account/${ADDR}/transactions`);
  });

  it('7 GET /v1/account/{addr}/transactions/pending', async () => {
    server.handler = (_r, res) => json(res, 200, { totalTxns: 3, truncatedTxns: { transactions: [{ ...V1_TXN, round: 0 }] } });
    const p = await node.accountPendingTransactions(ADDR, { max: 1 });
    expectRequest('GET', `/v1/account/${ADDR}/transactions/pending`, { max: '1' });
    assert.equal(p.totalTxns, 3n);
    assert.equal(p.truncatedTxns.length, 1);
  });

  it('8 GET /v1/asset/{index}', async () => {
    server.handler = (_r, res) => json(res, 200, { creator: ADDR, total: 10, decimals: 0, defaultfrozen: true, clawbackaddr: '', url: 'https://x' });
    const a = await node.asset(31566704n);
    expectRequest('GET', '/v1/asset/31566704');
    assert.deepEqual(a, { index: 31566704n, params: { creator: ADDR, total: 10n, decimals: 0, defaultFrozen: true, url: 'https://x', clawback: '' } });
  });

  it('9 GET /v1/assets', async () => {
    server.handler = (_r, res) => json(res, 200, { assets: [{ AssetIndex: 7, AssetParams: { creator: ADDR, total: 1, decimals: 0 } }] });
    const list = await node.assets({ assetIdx: 0, max: 10 });
    expectRequest('GET', '/v1/assets', { assetIdx: '0', max: '10' });
    assert.equal(list[0]!.index, 7n);
  });

  it('10 GET /v1/block/{round} (JSON and raw)', async () => {
    const block = {
      hash: 'H',
      previousBlockHash: 'P',
      round: 5,
      period: 0,
      proposer: ADDR,
      seed: 'S',
      timestamp: 1700000000,
      txnRoot: 'T',
      currentProtocol: 'v41',
      nextProtocol: '',
      nextProtocolApprovals: 0,
      nextProtocolSwitchOn: 0,
      nextProtocolVoteBefore: 0,
      upgradeApprove: false,
      upgradePropose: '',
      rate: 3,
      txns: { transactions: [V1_TXN] },
    };
    server.handler = (_r, res) => json(res, 200, block);
    const b = await node.v1Block(5n);
    expectRequest('GET', '/v1/block/5');
    assert.equal(b.round, 5n);
    assert.equal(b.rate, 3n);
    assert.equal(b.txns[0]!.txid, TXID);
    const info = await node.block(5n);
    assert.equal(info.timestamp, 1700000000n);
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/x-binary' });
      res.end(Buffer.from([0x81, 0xa1, 0x61, 0x01]));
    };
    assert.deepEqual(await node.rawBlock(5n), new Uint8Array([0x81, 0xa1, 0x61, 0x01]));
    expectRequest('GET', '/v1/block/5', { raw: '1' });
  });

  it('11 GET /v1/ledger/supply', async () => {
    server.handler = (_r, res) => json(res, 200, { onlineMoney: 5, round: 6, totalMoney: 10000000000000000000n });
    assert.deepEqual(await node.supply(), { round: 6n, totalMoney: 10000000000000000000n, onlineMoney: 5n });
    expectRequest('GET', '/v1/ledger/supply');
  });

  it('12 GET /v1/status', async () => {
    server.handler = (_r, res) => json(res, 200, STATUS);
    const s = await node.status();
    expectRequest('GET', '/v1/status');
    assert.deepEqual(s, {
      lastRound: 1000n,
      lastVersion: 'v41',
      nextVersion: 'v42',
      nextVersionRound: 2000n,
      nextVersionSupported: true,
      stoppedAtUnsupportedRound: false,
      hasSyncedSinceStartup: true,
      catchupTime: 0n,
      timeSinceLastRound: 1500000000n,
    });
  });

  it('13 GET /v1/status/wait-for-block-after/{round}/', async () => {
    server.handler = (_r, res) => json(res, 200, { ...STATUS, lastRound: 1001 });
    assert.equal((await node.waitForBlockAfter(1000n)).lastRound, 1001n);
    expectRequest('GET', '/v1/status/wait-for-block-after/1000/');
  });

  it('14 GET /v1/transaction/{txid}', async () => {
    server.handler = (_r, res) => json(res, 200, V1_TXN);
    assert.equal((await node.transaction(TXID)).sender, ADDR);
    expectRequest('GET', `/v1/transaction/${TXID}`);
  });

  it('15 POST /v1/transactions (raw bytes, application/x-binary)', async () => {
    server.handler = (_r, res) => json(res, 200, { txId: TXID });
    assert.deepEqual(await node.submit(STX), { txid: TXID });
    const r = expectRequest('POST', '/v1/transactions');
    assert.equal(r.headers['content-type'], 'application/x-binary');
    sameBytes(r.body, STX);
    await node.submit([STX, STX]);
    assert.equal(server.last.body.length, STX.length * 2);
  });

  it('16 GET /v1/transactions/fee', async () => {
    server.handler = (_r, res) => json(res, 200, { fee: 0 });
    assert.equal(await node.fee(), 0n);
    expectRequest('GET', '/v1/transactions/fee');
  });

  it('17 GET /v1/transactions/params (minFee optional)', async () => {
    server.handler = (_r, res) =>
      json(res, 200, { consensusVersion: 'v41', fee: 0, genesisID: 'devnet-v33.0', genesishashb64: GH, lastRound: 99, minFee: 2000 });
    const p = await node.suggestedParams();
    expectRequest('GET', '/v1/transactions/params');
    assert.deepEqual(p, { feePerByte: 0n, minFee: 2000n, lastRound: 99n, genesisId: 'devnet-v33.0', genesisHash: fromBase64(GH), consensusVersion: 'v41' });
    server.handler = (_r, res) => json(res, 200, { consensusVersion: 'v41', fee: 1, genesisID: 'x', genesishashb64: GH, lastRound: 99 });
    assert.equal((await node.suggestedParams()).minFee, 1000n);
  });

  it('18 GET /v1/transactions/pending', async () => {
    server.handler = (_r, res) => json(res, 200, { totalTxns: 0, truncatedTxns: {} });
    assert.deepEqual(await node.pendingTransactions({ max: 0 }), { totalTxns: 0n, truncatedTxns: [] });
    expectRequest('GET', '/v1/transactions/pending', { max: '0' });
  });

  it('19 GET /v1/transactions/pending/{txid}: the four pool conditions', async () => {
    server.handler = (_r, res) => json(res, 200, { ...V1_TXN, round: 12470 });
    assert.equal((await node.pending(TXID)).state, 'committed');
    expectRequest('GET', `/v1/transactions/pending/${TXID}`);
    server.handler = (_r, res) => json(res, 200, { ...V1_TXN, round: 0 });
    assert.equal((await node.pending(TXID)).state, 'in-pool');
    server.handler = (_r, res) => json(res, 200, { ...V1_TXN, round: 0, poolerror: 'overspend' });
    const rejected = await node.pending(TXID);
    assert.equal(rejected.state, 'rejected');
    assert.equal(rejected.poolError, 'overspend');
    server.handler = (_r, res) => text(res, 404, 'Transaction Not Found');
    await assert.rejects(node.pending(TXID), TransactionNotFoundError);
  });

  it('20 GET /versions', async () => {
    server.handler = (_r, res) =>
      json(res, 200, {
        versions: ['v1'],
        genesis_id: 'devnet-v33.0',
        genesis_hash_b64: GH,
        build: { major: 3, minor: 1, build_number: 7, branch: 'rel', channel: 'stable', commit_hash: 'abc' },
      });
    const v = await node.versions();
    expectRequest('GET', '/versions');
    assert.deepEqual(v.versions, ['v1']);
    assert.equal(v.build?.buildNumber, 7n);
  });

  it('21-23 follower sync round: get, set, delete', async () => {
    server.handler = (_r, res) => json(res, 200, { round: 1000 });
    assert.equal(await node.getSyncRound(), 1000n);
    expectRequest('GET', '/v2/ledger/sync');
    server.handler = (_r, res) => json(res, 200, 0);
    assert.equal(await node.getSyncRound(), undefined);
    server.handler = (_r, res) => json(res, 404, { message: 'failed retrieving sync round from ledger' });
    assert.equal(await node.getSyncRound(), undefined);
    server.handler = (_r, res) => {
      res.writeHead(200);
      res.end();
    };
    await node.setSyncRound(1000n);
    expectRequest('POST', '/v2/ledger/sync/1000');
    await node.unsetSyncRound();
    expectRequest('DELETE', '/v2/ledger/sync');
  });

  it('24 GET /v2/deltas/{round} (msgpack), and the error outside the window', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/msgpack' });
      res.end(Buffer.from([0x81, 0xa3, 0x48, 0x64, 0x72, 0x80]));
    };
    assert.deepEqual(await node.deltas(1063n), new Map([['Hdr', new Map()]]));
    expectRequest('GET', '/v2/deltas/1063', { format: 'msgpack' });
    server.handler = (_r, res) => json(res, 404, { message: 'failed retrieving State Delta: round 5 before dbRound 900' });
    await assert.rejects(node.deltas(5n), (e: unknown) => e instanceof HttpError && e.status === 404 && /before dbRound/.test(e.serviceMessage ?? ''));
  });

  it('simulate: msgpack request with the signed bytes spliced in; both response spellings', async () => {
    server.handler = (_r, res) =>
      json(res, 200, {
        version: 2,
        'last-round': 1000,
        'txn-groups': [
          {
            'failed-at': [0],
            'failure-message': 'logic eval error',
            'txn-results': [{ 'txn-result': { 'pool-error': '', txn: {} }, 'app-budget-consumed': 12 }],
            'app-budget-added': 700,
          },
        ],
      });
    const r = await node.simulate([STX], { allowEmptySignatures: true, extraOpcodeBudget: 1000 });
    const req = expectRequest('POST', '/v1/transactions/simulate');
    assert.equal(req.headers['content-type'], 'application/msgpack');
    const decoded = decodeMsgpack(req.body) as Record<string, unknown>;
    assert.equal(decoded['allow-empty-signatures'], true);
    assert.equal(decoded['extra-opcode-budget'], 1000);
    const groups = decoded['txn-groups'] as { txns: unknown[] }[];
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]!.txns[0], decodeMsgpack(STX));
    assert.equal(r.wouldSucceed, false);
    assert.deepEqual(r.failedAt, [0]);
    assert.equal(r.failureMessage, 'logic eval error');
    assert.equal(r.txns[0]!.appBudgetConsumed, 12);
    assert.equal(r.appBudgetAdded, 700);
    assert.equal(r.lastRound, 1000n);

    server.handler = (_r, res) =>
      json(res, 200, { would_succeed: true, failed_at: [], txn_groups: [{ txn_results: [{ txn_result: {}, missing_signature: true }] }] });
    const snake = await node.simulate([STX]);
    assert.equal(snake.wouldSucceed, true);
    assert.equal(snake.txns[0]!.missingSignature, true);
    server.handler = (_r, res) =>
      json(res, 200, { version: 1, 'would-succeed': false, 'txn-groups': [{ 'txn-results': [{ 'txn-result': {}, 'missing-signature': true }] }] });
    assert.equal((await node.simulate([STX])).wouldSucceed, false);
  });

  it('simulate request keys are canonical (sorted) msgpack', () => {
    const body = simulateRequestBody([STX], { allowUnnamedResources: true, round: 5n, execTrace: true });
    const keys = Object.keys(decodeMsgpack(body) as object);
    assert.deepEqual(keys, [...keys].sort());
    assert.deepEqual(keys, ['allow-unnamed-resources', 'exec-trace-config', 'round', 'txn-groups']);
  });

  it('application and box lookups are reported as unsupported by the /v1 service', async () => {
    await assert.rejects(node.application(1n), UnsupportedOperationError);
    await assert.rejects(node.box(1n, new Uint8Array([1])), UnsupportedOperationError);
  });

  it('401 without a body surfaces as HttpError 401', async () => {
    server.handler = (_r, res) => {
      res.writeHead(401);
      res.end();
    };
    await assert.rejects(
      node.status(),
      (e: unknown) => e instanceof HttpError && e.status === 401 && e.serviceMessage === undefined && !e.message.includes(TOKEN),
    );
  });
});

describe('adapters/node-service: submission safety and confirmation', () => {
  let server: FakeServer;
  let node: NodeServiceAdapter;
  let routes: Record<string, ((r: RecordedRequest, res: ServerResponse) => void)[]>;

  beforeEach(async () => {
    routes = {};
    server = await FakeServer.start((req, res) => {
      const key = `${req.method} ${req.path}`;
      const queue = routes[key];
      if (!queue || queue.length === 0) return text(res, 500, `no route for ${key}`);
      const h = queue.length > 1 ? queue.shift()! : queue[0]!;
      h(req, res);
    });
    node = new NodeServiceAdapter({ url: server.url, token: TOKEN, retry: { retries: 2, baseDelayMs: 1 } });
  });
  afterEach(async () => {
    await node.close();
    await server.close();
  });

  const submits = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/transactions').length;
  const pendingPath = `/v1/transactions/pending/${TXID}`;

  it('after a reset, finds the transaction in the pool instead of sending it again', async () => {
    routes['POST /v1/transactions'] = [reset];
    routes[`GET ${pendingPath}`] = [(_r, res) => json(res, 200, { ...V1_TXN, round: 0 })];
    assert.deepEqual(await node.submit(STX), { txid: TXID, recoveredAfterFailure: true });
    assert.equal(submits(), 1);
  });

  it('re-sends only after the node says it does not know the transaction', async () => {
    routes['POST /v1/transactions'] = [(_r, res) => json(res, 503, { message: 'busy' }), (_r, res) => json(res, 200, { txId: TXID })];
    routes[`GET ${pendingPath}`] = [(_r, res) => text(res, 404, 'Transaction Not Found')];
    assert.deepEqual(await node.submit(STX), { txid: TXID });
    assert.equal(submits(), 2);
    const order = server.requests.map((r) => r.method);
    assert.deepEqual(order, ['POST', 'GET', 'POST']);
  });

  it('reports a pool eviction found during recovery', async () => {
    routes['POST /v1/transactions'] = [reset];
    routes[`GET ${pendingPath}`] = [(_r, res) => json(res, 200, { ...V1_TXN, round: 0, poolerror: 'TransactionPool.Remember: fee too low' })];
    await assert.rejects(node.submit(STX), (e: unknown) => e instanceof TransactionRejectedError && e.poolError.includes('fee too low'));
    assert.equal(submits(), 1);
  });

  it('does not retry a definitive rejection (400)', async () => {
    routes['POST /v1/transactions'] = [(_r, res) => text(res, 400, 'overspend')];
    await assert.rejects(node.submit(STX), (e: unknown) => e instanceof HttpError && e.status === 400 && e.serviceMessage === 'overspend');
    assert.equal(submits(), 1);
    assert.equal(server.requests.length, 1);
  });

  it('waits for confirmation across rounds', async () => {
    routes['GET /v1/status'] = [(_r, res) => json(res, 200, STATUS)];
    routes[`GET ${pendingPath}`] = [(_r, res) => json(res, 200, { ...V1_TXN, round: 0 }), (_r, res) => json(res, 200, { ...V1_TXN, round: 1001 })];
    routes['GET /v1/status/wait-for-block-after/1000/'] = [(_r, res) => json(res, 200, { ...STATUS, lastRound: 1001 })];
    const p = await node.waitForConfirmation(TXID);
    assert.equal(p.confirmedRound, 1001n);
    assert.equal(p.state, 'committed');
  });

  it('stops waiting on a pool error', async () => {
    routes['GET /v1/status'] = [(_r, res) => json(res, 200, STATUS)];
    routes[`GET ${pendingPath}`] = [(_r, res) => json(res, 200, { ...V1_TXN, round: 0, poolerror: 'txn dead' })];
    await assert.rejects(node.waitForConfirmation(TXID), TransactionRejectedError);
  });

  it('gives up after maxRounds', async () => {
    let round = 1000;
    routes['GET /v1/status'] = [(_r, res) => json(res, 200, STATUS)];
    routes[`GET ${pendingPath}`] = [(_r, res) => json(res, 200, { ...V1_TXN, round: 0 })];
    server.handler = ((inner) => (req: RecordedRequest, res: ServerResponse) => {
      if (req.path.startsWith('/v1/status/wait-for-block-after/')) return json(res, 200, { ...STATUS, lastRound: ++round });
      return inner(req, res);
    })(server.handler);
    await assert.rejects(node.waitForConfirmation(TXID, { maxRounds: 3 }), (e: unknown) => e instanceof ConfirmationTimeoutError && e.lastRound === 1003n);
  });

  it('reports a forgotten transaction while waiting', async () => {
    routes['GET /v1/status'] = [(_r, res) => json(res, 200, STATUS)];
    routes[`GET ${pendingPath}`] = [(_r, res) => text(res, 404, 'not found')];
    await assert.rejects(node.waitForConfirmation(TXID), TransactionNotFoundError);
  });

  it('computes the id used for recovery from the signed bytes (golden txid)', () => {
    assert.equal(firstTxid(STX), TXID);
    assert.equal(firstTxid(new Uint8Array([0xc1])), undefined);
  });
});
