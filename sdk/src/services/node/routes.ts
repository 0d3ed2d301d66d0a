import { decodeAddress } from '../../encoding/address.js';
import { fromBase32 } from '../../encoding/base32.js';
import { toBase64 } from '../../encoding/base64.js';
import type { Ledger } from '../../ledger/ledger.js';
import { blockHashText, encodeBlock } from '../../ledger/block.js';
import { toHex } from '../../encoding/hex.js';
import { simulate } from '../../ledger/simulate.js';
import { forkRoute } from './fork-routes.js';
import type { Semaphore } from '../http/semaphore.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { bytesReply, emptyReply, jsonReply, msgpackReply, textReply } from '../http/reply.js';
import { Router, type HttpMethod } from '../http/router.js';
import type { Handler, Reply, RequestContext } from '../http/types.js';
import type { FollowerState } from './follower.js';
import type { MetricsRegistry } from './metrics.js';
import type { TransactionPool } from './pool.js';
import { deltaToJsonValue, deltaToMsgpack } from './state-delta.js';
import { decodeSimulateRequest, responseFormat, simulateResponseToWire } from './simulate-wire.js';
import { addAbiReturns, type AppSpecRegistry } from './abi-returns.js';
import { algodErrorReply } from './algod/error-reply.js';
import { toHttpError } from '../http/server.js';
import { DecodeError, ValidationError } from '../../errors.js';
import { accountView, assetParamsView, blockView, confirmedView, involves, transactionView, type V1Json } from './v1-views.js';

/** Supported API versions reported by `/versions`: the /v1 node operations and the /v2 ones. */
export const NODE_API_VERSIONS: readonly string[] = ['v1', 'v2'];

/** The build the node service reports in its version answer. */
export interface BuildInfo {
  major: number;
  minor: number;
  buildNumber: number;
  branch: string;
  channel: string;
  commitHash: string;
}

/** What the node's operations read and change. */
export interface NodeContext {
  ledger: Ledger;
  pool: TransactionPool;
  follower: FollowerState;
  /** undefined: metrics compiled out (`/metrics` answers 404). */
  metrics: MetricsRegistry | undefined;
  build: BuildInfo;
  /** How long wait-for-block-after holds a request before answering with the current status. */
  waitTimeoutMs: number;
  /** Wall-clock milliseconds of the last block (for timeSinceLastRound). */
  lastBlockAt(): number;
  /** Resolves when a block commits or the sync round moves; rejects never. */
  nextChange(signal: AbortSignal, timeoutMs: number): Promise<void>;
  /** App specs registered by deploy tools, for typed ABI return values in simulate. */
  appSpecs?: AppSpecRegistry;
  /** Global limit on simulations with an execution trace (held until their response is sent). */
  traces?: Semaphore;
  /** Trace bytes one simulate response may hold. */
  maxExecTraceBytes?: number;
}

interface Param {
  name: string;
  in: 'path' | 'query' | 'body';
  type: 'string' | 'integer' | 'boolean';
  format?: string;
  required?: boolean;
  description: string;
}

/** One operation of node-service.md, with what the interface description says about it. */
export interface NodeEndpoint {
  /** node-service.md's operation number (0 for operations it leaves unnumbered). */
  number: number;
  operationId: string;
  method: HttpMethod;
  /** Swagger-style path (`{name}` parameters). */
  path: string;
  summary: string;
  params: Param[];
  consumes?: string[];
  produces: string[];
  /** status → description; `default` for the unknown-error response. */
  responses: Record<string, string>;
  /** Served without the API token (operations 2, 3, 20). */
  public?: boolean;
  /** Request body limit, when it differs from the service's. */
  maxBodyBytes?: number;
  handler: (ctx: RequestContext, node: NodeContext) => Reply | Promise<Reply>;
}

// ---- parameter parsing -------------------------------------------------------------------------

const INT64_MAX = (1n << 63n) - 1n;

function int64Param(raw: string | null | undefined, what: string, message: string): bigint | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (!/^\d{1,19}$/.test(raw)) throw new BadRequestError(`${message}: ${JSON.stringify(raw.slice(0, 40))} is not a non-negative integer (${what})`);
  const v = BigInt(raw);
  if (v > INT64_MAX) throw new BadRequestError(`${message}: ${what} exceeds the int64 range`);
  return v;
}

function roundParam(ctx: RequestContext): bigint {
  return int64Param(ctx.params.round, 'round', 'failed to parse the round number')!;
}

function addressParam(raw: string | undefined): Uint8Array {
  try {
    return decodeAddress(raw ?? '');
  } catch {
    throw new BadRequestError('failed to parse the address');
  }
}

function txidParam(raw: string | undefined): string {
  const t = raw ?? '';
  if (t === '') throw new BadRequestError('no transaction ID was specified');
  try {
    if (t.length !== 52 || fromBase32(t).length !== 32) throw new Error('length');
  } catch {
    throw new BadRequestError('failed to parse transaction');
  }
  return t;
}

function maxParam(ctx: RequestContext): number | undefined {
  const v = int64Param(ctx.query.get('max'), 'max', 'failed to parse max value');
  return v === undefined ? undefined : Number(v > 1_000_000n ? 1_000_000n : v);
}

function dateParam(raw: string | null, what: string, endOfDay: boolean): bigint | undefined {
  if (raw === null || raw === '') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3]) || new Date(ms).getUTCMonth() !== Number(m[2]) - 1)
    throw new BadRequestError(`failed to parse ${what}: expected a date as YYYY-MM-DD`);
  return BigInt(ms / 1000) + (endOfDay ? 86_399n : 0n);
}

// ---- shared views ------------------------------------------------------------------------------

function nodeStatus(node: NodeContext): V1Json {
  const last = node.follower.fetchedRound;
  const proto = node.ledger.block(last).header.protocol;
  return {
    lastRound: last,
    lastConsensusVersion: proto,
    nextConsensusVersion: proto,
    nextConsensusVersionRound: last + 1n,
    nextConsensusVersionSupported: true,
    stoppedAtUnsupportedRound: false,
    hasSyncedSinceStartup: false,
    catchupTime: 0n,
    timeSinceLastRound: BigInt(Math.max(0, Date.now() - node.lastBlockAt())) * 1_000_000n,
  };
}

/** A confirmed transaction within the node's memory of recent blocks (MaxTxnLife rounds). */
function recentConfirmed(node: NodeContext, txid: string) {
  const t = node.ledger.transaction(txid);
  if (!t) return undefined;
  const latest = node.ledger.latestRound;
  const oldest = latest > node.ledger.params.maxTxnLife ? latest - node.ledger.params.maxTxnLife : 0n;
  return t.round >= oldest ? t : undefined;
}

function pendingList(node: NodeContext, max: number | undefined, address?: string): V1Json {
  const pool = node.pool.pending();
  const all = pool.filter((e) => address === undefined || involves(e.stxn.txn, address));
  const shown = max ? all.slice(0, max) : all;
  // node-service.md: totalTxns is the total in the pool, also on the per-account listing.
  return { truncatedTxns: { transactions: shown.map((e) => transactionView(e.stxn, { txid: e.txid })) }, totalTxns: BigInt(pool.length) };
}

const NOT_FOUND_TXN = "couldn't find the required transaction in the required range";

const JSON_ONLY = ['application/json'];
const AUTH_RESPONSES = { '401': 'Invalid API Token' };

// ---- the operations ----------------------------------------------------------------------------

/** How the node writes a simulate answer in JSON. */
export const SIMULATE_JSON = { indent: 2, sortKeys: true } as const;

const SIMULATE_PARAMS: Param[] = [
  { name: 'request', in: 'body', type: 'string', required: true, description: 'SimulateRequest as msgpack or JSON (tried in that order)' },
  { name: 'format', in: 'query', type: 'string', description: 'json (default), msgpack or msgp' },
];

/**
 * Simulate. `/v2` answers in the node's own shape (tools validate it against the node's OpenAPI);
 * `/v1` adds the result fields of node-service.md and decoded ABI returns.
 */
async function simulateOperation(ctx: RequestContext, node: NodeContext, withResultFields: boolean): Promise<Reply> {
  try {
    const form = responseFormat(ctx.query);
    const request = decodeSimulateRequest(await ctx.body());
    // Simulate takes one group; anything else is refused by its validation, unchecked.
    const groups = request['txn-groups'];
    if (groups.length === 1) await node.pool.preverifyGroup(groups[0]!.txns, node.ledger.params.maxTxGroupSize);
    if (request['exec-trace-config']?.enable && node.traces) {
      // Traces are large: a global budget holds each from its computation until its response is sent.
      ctx.onFinished(await node.traces.acquire(ctx.signal));
    }
    const response = simulate(node.ledger, request, node.maxExecTraceBytes ? { maxExecTraceBytes: node.maxExecTraceBytes } : {});
    const wire = simulateResponseToWire(response, request, form, withResultFields);
    if (withResultFields) addAbiReturns(wire, response, request['txn-groups'], request.appSpecs ?? [], node.appSpecs);
    if (form === 'msgpack') return msgpackReply(wire);
    // go-codec JSON: canonical key order, two-space indent.
    return jsonReply(wire, 200, undefined, SIMULATE_JSON);
  } catch (e) {
    // The node API's clients (algosdk, AlgoKit) read the reason from a `{"message": …}` body.
    if (e instanceof ValidationError || e instanceof DecodeError) return algodErrorReply(toHttpError(e))!;
    const reply = algodErrorReply(e);
    if (reply) return reply;
    throw e;
  }
}
/** The node service's route table: every operation of node-service.md with method, path and handler. */
export const NODE_ENDPOINTS: readonly NodeEndpoint[] = [
  {
    number: 1,
    operationId: 'HealthCheck',
    method: 'GET',
    path: '/health',
    summary: 'Returns OK if healthy.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'OK', ...AUTH_RESPONSES, '404': 'Not Found', default: 'Unknown Error' },
    handler: () => emptyReply(200),
  },
  {
    number: 2,
    operationId: 'Metrics',
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus-format counters of this node.',
    params: [],
    produces: ['text/plain'],
    responses: { '200': 'metrics text', '404': 'metrics were compiled out' },
    public: true,
    handler: (_ctx, node) => (node.metrics ? textReply(node.metrics.render(), 200, 'text/plain; version=0.0.4; charset=utf-8') : emptyReply(404)),
  },
  {
    number: 3,
    operationId: 'SwaggerJSON',
    method: 'GET',
    path: '/swagger.json',
    summary: 'The current interface description (this document).',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'the interface description', default: 'Unknown Error' },
    public: true,
    handler: () => jsonReply(NODE_SWAGGER),
  },
  {
    number: 4,
    operationId: 'AccountInformation',
    method: 'GET',
    path: '/v1/account/{address}',
    summary: 'Get account information.',
    params: [{ name: 'address', in: 'path', type: 'string', required: true, description: 'An account public key (58-character address)' }],
    produces: JSON_ONLY,
    responses: { '200': 'Account', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => jsonReply(accountView(node.ledger, addressParam(ctx.params.address))),
  },
  {
    number: 5,
    operationId: 'TransactionInformation',
    method: 'GET',
    path: '/v1/account/{address}/transaction/{txid}',
    summary: 'Get a specific transaction of an account (confirmed in the last MaxTxnLife rounds, or pending).',
    params: [
      { name: 'address', in: 'path', type: 'string', required: true, description: 'An account public key' },
      { name: 'txid', in: 'path', type: 'string', required: true, description: 'A transaction id' },
    ],
    produces: JSON_ONLY,
    responses: { '200': 'Transaction', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'Transaction Not Found', default: 'Unknown Error' },
    handler: (ctx, node) => {
      addressParam(ctx.params.address);
      const txid = txidParam(ctx.params.txid);
      const text = ctx.params.address!;
      const t = recentConfirmed(node, txid);
      if (t && involves(t.stxn.txn, text)) return jsonReply(confirmedView(t));
      const p = node.pool.lookup(txid);
      if (p && involves(p.stxn.txn, text)) return jsonReply(transactionView(p.stxn, { txid: p.txid, poolError: p.poolError }));
      throw new NotFoundError(NOT_FOUND_TXN);
    },
  },
  {
    number: 6,
    operationId: 'ListTransactions',
    method: 'GET',
    path: '/v1/account/{address}/transactions',
    summary: "Get an account's confirmed transactions, newest first (served from the devnet's full block history).",
    params: [
      { name: 'address', in: 'path', type: 'string', required: true, description: 'An account public key' },
      { name: 'firstRound', in: 'query', type: 'integer', format: 'int64', description: 'Do not fetch any transactions before this round' },
      { name: 'lastRound', in: 'query', type: 'integer', format: 'int64', description: 'Do not fetch any transactions after this round' },
      { name: 'fromDate', in: 'query', type: 'string', format: 'date', description: 'Do not fetch any transactions before this date' },
      { name: 'toDate', in: 'query', type: 'string', format: 'date', description: 'Do not fetch any transactions after this date' },
      { name: 'max', in: 'query', type: 'integer', format: 'int64', description: 'maximum transactions to show (default 100)' },
    ],
    produces: JSON_ONLY,
    responses: { '200': 'TransactionList', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => {
      addressParam(ctx.params.address);
      const text = ctx.params.address!;
      const first = int64Param(ctx.query.get('firstRound'), 'firstRound', 'failed to parse the round number') ?? 0n;
      const latest = node.ledger.latestRound;
      let last = int64Param(ctx.query.get('lastRound'), 'lastRound', 'failed to parse the round number') ?? latest;
      if (first > last) throw new BadRequestError(`firstRound ${first} is after lastRound ${last}`);
      if (last > latest) last = latest;
      const from = dateParam(ctx.query.get('fromDate'), 'fromDate', false);
      const to = dateParam(ctx.query.get('toDate'), 'toDate', true);
      const max = maxParam(ctx) || 100;
      const out: V1Json[] = [];
      for (let r = last; r >= first && out.length < max; r--) {
        const b = node.ledger.block(r);
        const ts = b.header.timestamp;
        if ((from !== undefined && ts < from) || (to !== undefined && ts > to)) continue;
        for (let i = b.txns.length - 1; i >= 0 && out.length < max; i--) {
          const t = b.txns[i]!;
          if (involves(t.stxn.txn, text)) out.push(confirmedView(t));
        }
        if (r === 0n) break;
      }
      return jsonReply({ transactions: out });
    },
  },
  {
    number: 7,
    operationId: 'GetPendingTransactionsByAddress',
    method: 'GET',
    path: '/v1/account/{addr}/transactions/pending',
    summary: "Get an account's transactions waiting in the pool, highest priority first.",
    params: [
      { name: 'addr', in: 'path', type: 'string', required: true, description: 'An account public key' },
      { name: 'max', in: 'query', type: 'integer', format: 'int64', description: 'Truncate the list at this many transactions (0 = all)' },
    ],
    produces: JSON_ONLY,
    responses: { '200': 'PendingTransactions', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => {
      addressParam(ctx.params.addr);
      return jsonReply(pendingList(node, maxParam(ctx), ctx.params.addr));
    },
  },
  {
    number: 8,
    operationId: 'AssetInformation',
    method: 'GET',
    path: '/v1/asset/{index}',
    summary: 'Get asset parameters.',
    params: [{ name: 'index', in: 'path', type: 'integer', format: 'int64', required: true, description: 'Asset index' }],
    produces: JSON_ONLY,
    responses: { '200': 'AssetParams', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const id = int64Param(ctx.params.index, 'index', 'failed to parse asset index')!;
      const a = node.ledger.asset(id);
      if (!a) throw new BadRequestError(`failed to retrieve asset information: asset ${id} does not exist`);
      return jsonReply(assetParamsView(a));
    },
  },
  {
    number: 9,
    operationId: 'Assets',
    method: 'GET',
    path: '/v1/assets',
    summary: 'List assets, highest index first.',
    params: [
      { name: 'assetIdx', in: 'query', type: 'integer', format: 'int64', description: 'Fetch assets with index at most this (0 = most recent)' },
      { name: 'max', in: 'query', type: 'integer', format: 'int64', description: 'Fetch no more than this many assets (1..100, default 100)' },
    ],
    produces: JSON_ONLY,
    responses: { '200': 'AssetList', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const idx = int64Param(ctx.query.get('assetIdx'), 'assetIdx', 'failed to parse asset index') ?? 0n;
      const rawMax = ctx.query.get('max');
      const max = rawMax === null || rawMax === '' ? 100 : Number(int64Param(rawMax, 'max', 'failed to parse max value'));
      if (max < 1 || max > 100) throw new BadRequestError('failed to parse max assets, must be between 1 and 100');
      const ids = [...node.ledger.state.assets.keys()]
        .filter((id) => idx === 0n || id <= idx)
        .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        .slice(0, max);
      return jsonReply({ assets: ids.map((id) => ({ AssetIndex: id, AssetParams: assetParamsView(node.ledger.asset(id)!) })) });
    },
  },
  {
    number: 10,
    operationId: 'GetBlock',
    method: 'GET',
    path: '/v1/block/{round}',
    summary: 'Get the block for the given round.',
    params: [
      { name: 'round', in: 'path', type: 'integer', format: 'int64', required: true, description: 'The round from which to fetch block information' },
      { name: 'raw', in: 'query', type: 'integer', format: 'int64', description: 'Nonzero: return the raw msgpack block bytes' },
    ],
    produces: ['application/json', 'application/msgpack'],
    responses: { '200': 'Block', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const round = roundParam(ctx);
      const raw = int64Param(ctx.query.get('raw'), 'raw', 'failed to parse raw') ?? 0n;
      if (round > node.follower.fetchedRound)
        throw new BadRequestError(`failed to retrieve information from the ledger: round ${round} is after the latest round ${node.follower.fetchedRound}`);
      const b = node.ledger.block(round);
      return raw !== 0n ? bytesReply(encodeBlock(b, { goStrings: true }), 'application/msgpack') : jsonReply(blockView(b));
    },
  },
  {
    number: 11,
    operationId: 'GetSupply',
    method: 'GET',
    path: '/v1/ledger/supply',
    summary: 'Current supply of the native currency.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'Supply', ...AUTH_RESPONSES, default: 'Unknown Error' },
    handler: (_ctx, node) => {
      const s = node.ledger.supply();
      return jsonReply({ round: s.round, totalMoney: s.totalMoney, onlineMoney: s.onlineMoney });
    },
  },
  {
    number: 12,
    operationId: 'GetStatus',
    method: 'GET',
    path: '/v1/status',
    summary: 'Gets the current node status.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'NodeStatus', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (_ctx, node) => jsonReply(nodeStatus(node)),
  },
  {
    number: 13,
    operationId: 'WaitForBlock',
    method: 'GET',
    path: '/v1/status/wait-for-block-after/{round}/',
    summary: 'Gets the node status after waiting for a block after the given round (answers with the current status after a time limit).',
    params: [{ name: 'round', in: 'path', type: 'integer', format: 'int64', required: true, description: 'The round to wait until returning status' }],
    produces: JSON_ONLY,
    responses: { '200': 'NodeStatus', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: async (ctx, node) => {
      const round = roundParam(ctx);
      const deadline = Date.now() + node.waitTimeoutMs;
      while (node.follower.fetchedRound <= round && !ctx.signal.aborted) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        await node.nextChange(ctx.signal, left);
      }
      return jsonReply(nodeStatus(node));
    },
  },
  {
    number: 14,
    operationId: 'Transaction',
    method: 'GET',
    path: '/v1/transaction/{txid}',
    summary: "Get a transaction by id from the devnet's full block history (or the pool).",
    params: [{ name: 'txid', in: 'path', type: 'string', required: true, description: 'A transaction id' }],
    produces: JSON_ONLY,
    responses: { '200': 'Transaction', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'Transaction Not Found', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const txid = txidParam(ctx.params.txid);
      const t = node.ledger.transaction(txid);
      if (t) return jsonReply(confirmedView(t));
      const p = node.pool.lookup(txid);
      if (p) return jsonReply(transactionView(p.stxn, { txid: p.txid, poolError: p.poolError }));
      throw new NotFoundError(NOT_FOUND_TXN);
    },
  },
  {
    number: 15,
    operationId: 'RawTransaction',
    method: 'POST',
    path: '/v1/transactions',
    summary: 'Broadcasts a raw transaction group: the concatenated msgpack signed transactions.',
    params: [
      { name: 'rawtxn', in: 'body', type: 'string', format: 'binary', required: true, description: 'The byte encoded signed transaction(s) of one group' },
    ],
    consumes: ['application/x-binary'],
    produces: JSON_ONLY,
    responses: { '200': 'transactionID', '400': 'Bad Request', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: async (ctx, node) => {
      if (node.follower.enabled) throw new BadRequestError('cannot broadcast txns in follower mode');
      const body = await ctx.body();
      await node.pool.preverify(body, node.ledger.params.maxTxGroupSize);
      const txId = node.pool.submit(body, node.ledger.params.maxTxGroupSize);
      return jsonReply({ txId });
    },
  },
  {
    number: 16,
    operationId: 'SuggestedFee',
    method: 'GET',
    path: '/v1/transactions/fee',
    summary: 'Suggested fee per byte (0 on an idle devnet; MinTxnFee still applies).',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'TransactionFee', ...AUTH_RESPONSES, default: 'Unknown Error' },
    handler: () => jsonReply({ fee: 0n }),
  },
  {
    number: 17,
    operationId: 'TransactionParams',
    method: 'GET',
    path: '/v1/transactions/params',
    summary: 'Parameters for constructing a new transaction.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'TransactionParams', ...AUTH_RESPONSES, default: 'Unknown Error' },
    handler: (_ctx, node) => {
      const l = node.ledger;
      return jsonReply({
        fee: 0n,
        genesisID: l.genesisId,
        genesishashb64: toBase64(l.genesisHash),
        lastRound: node.follower.fetchedRound,
        consensusVersion: l.params.protocol,
        minFee: l.params.minTxnFee,
      });
    },
  },
  {
    number: 18,
    operationId: 'GetPendingTransactions',
    method: 'GET',
    path: '/v1/transactions/pending',
    summary: 'Transactions waiting in the pool, highest priority (fee per byte) first.',
    params: [{ name: 'max', in: 'query', type: 'integer', format: 'int64', description: 'Truncate the list at this many transactions (0 = all)' }],
    produces: JSON_ONLY,
    responses: { '200': 'PendingTransactions', ...AUTH_RESPONSES, '500': 'Internal Error', default: 'Unknown Error' },
    handler: (ctx, node) => jsonReply(pendingList(node, maxParam(ctx))),
  },
  {
    number: 19,
    operationId: 'PendingTransactionInformation',
    method: 'GET',
    path: '/v1/transactions/pending/{txid}',
    summary: 'A transaction from the pool, recently confirmed (round > 0) or evicted (poolerror set).',
    params: [{ name: 'txid', in: 'path', type: 'string', required: true, description: 'A transaction id' }],
    produces: JSON_ONLY,
    responses: { '200': 'Transaction', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'Transaction Not Found', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const txid = txidParam(ctx.params.txid);
      const t = recentConfirmed(node, txid);
      if (t) return jsonReply(confirmedView(t));
      const p = node.pool.lookup(txid);
      if (p) return jsonReply(transactionView(p.stxn, { txid: p.txid, poolError: p.poolError }));
      throw new NotFoundError(NOT_FOUND_TXN);
    },
  },
  {
    number: 20,
    operationId: 'GetVersion',
    method: 'GET',
    path: '/versions',
    summary: 'Supported API versions, genesis and build information.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'Version' },
    public: true,
    handler: (_ctx, node) => {
      const b = node.build;
      return jsonReply({
        versions: [...NODE_API_VERSIONS],
        genesis_id: node.ledger.genesisId,
        genesis_hash_b64: toBase64(node.ledger.genesisHash),
        build: { major: b.major, minor: b.minor, build_number: b.buildNumber, branch: b.branch, channel: b.channel, commit_hash: b.commitHash },
      });
    },
  },
  {
    number: 21,
    operationId: 'GetSyncRound',
    method: 'GET',
    path: '/v2/ledger/sync',
    summary: 'The current sync round (follower mode).',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': '{"round": n}', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'no sync round is set, or not a follower', default: 'Unknown Error' },
    handler: (_ctx, node) => jsonReply({ round: node.follower.getSyncRound() }),
  },
  {
    number: 22,
    operationId: 'SetSyncRound',
    method: 'POST',
    path: '/v2/ledger/sync/{round}',
    summary: 'Sets the sync round (follower mode only; 404 on other nodes).',
    params: [{ name: 'round', in: 'path', type: 'integer', format: 'int64', required: true, description: 'The round to sync to' }],
    produces: JSON_ONLY,
    responses: { '200': 'sync round set', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'not a follower', default: 'Unknown Error' },
    handler: (ctx, node) => {
      node.follower.setSyncRound(roundParam(ctx));
      return emptyReply(200);
    },
  },
  {
    number: 23,
    operationId: 'UnsetSyncRound',
    method: 'DELETE',
    path: '/v2/ledger/sync',
    summary: 'Removes the sync round: the node follows the latest round (follower mode).',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': 'sync round removed', ...AUTH_RESPONSES, '404': 'not a follower', default: 'Unknown Error' },
    handler: (_ctx, node) => {
      node.follower.unsetSyncRound();
      return emptyReply(200);
    },
  },
  {
    number: 24,
    operationId: 'GetLedgerStateDelta',
    method: 'GET',
    path: '/v2/deltas/{round}',
    summary: 'The ledger state delta of a round inside the delta window.',
    params: [
      { name: 'round', in: 'path', type: 'integer', format: 'int64', required: true, description: 'A round inside the window' },
      { name: 'format', in: 'query', type: 'string', description: 'json (default) or msgpack' },
    ],
    produces: ['application/json', 'application/msgpack'],
    responses: { '200': 'StateDelta', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'round outside the delta window', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const round = roundParam(ctx);
      const form = responseFormat(ctx.query);
      const d = node.follower.delta(round);
      if (form === 'msgpack') return bytesReply(deltaToMsgpack(d), 'application/msgpack');
      return jsonReply(deltaToJsonValue(d));
    },
  },
  {
    number: 0,
    operationId: 'DevnetStateHash',
    method: 'GET',
    path: '/v1/devnet/state-hash',
    summary: 'Devnet extension (no node has it): the latest round, its block hash and a digest of all account, asset, app and box state, read together.',
    params: [],
    produces: JSON_ONLY,
    responses: { '200': '{round, blockHash, stateHash (hex)}', ...AUTH_RESPONSES, default: 'Unknown Error' },
    // One synchronous read: no block can commit between the round and the digest.
    handler: (_ctx, node) => {
      const l = node.ledger;
      return jsonReply({ round: l.latestRound, blockHash: blockHashText(l.latestBlock.hash), stateHash: toHex(l.stateHash()) });
    },
  },
  {
    number: 0,
    operationId: 'DevnetPutAppSpec',
    method: 'PUT',
    path: '/v1/devnet/apps/{application-id}/spec',
    summary: "Devnet extension: registers an app's ARC-56, ARC-32 or ARC-4 spec so simulate types its ABI return values (our deploy tools do this).",
    params: [
      { name: 'application-id', in: 'path', type: 'integer', format: 'int64', required: true, description: 'An application id' },
      { name: 'spec', in: 'body', type: 'string', required: true, description: 'The contract description as JSON' },
    ],
    consumes: JSON_ONLY,
    produces: JSON_ONLY,
    responses: {
      '200': '{application-id, methods: [signatures]}',
      '400': 'Bad Request',
      ...AUTH_RESPONSES,
      '404': 'no such application',
      default: 'Unknown Error',
    },
    maxBodyBytes: 4_000_000,
    handler: async (ctx, node) => {
      const id = int64Param(ctx.params['application-id'], 'application-id', 'failed to parse the application id')!;
      if (!node.appSpecs) throw new NotFoundError('this node keeps no app specs');
      if (!node.ledger.app(id)) throw new NotFoundError(`application does not exist: ${id}`);
      const text = new TextDecoder().decode(await ctx.body());
      const table = node.appSpecs.register(id, text);
      return jsonReply({ 'application-id': id, methods: [...table.values()].map((m) => m.signature) });
    },
  },
  {
    number: 0,
    operationId: 'DevnetGetAppSpec',
    method: 'GET',
    path: '/v1/devnet/apps/{application-id}/spec',
    summary: 'Devnet extension: the app spec registered for an application.',
    params: [{ name: 'application-id', in: 'path', type: 'integer', format: 'int64', required: true, description: 'An application id' }],
    produces: JSON_ONLY,
    responses: { '200': 'the registered spec', '400': 'Bad Request', ...AUTH_RESPONSES, '404': 'no spec registered', default: 'Unknown Error' },
    handler: (ctx, node) => {
      const id = int64Param(ctx.params['application-id'], 'application-id', 'failed to parse the application id')!;
      const entry = node.appSpecs?.get(id);
      if (!entry) throw new NotFoundError(`no app spec is registered for application ${id}`);
      return jsonReply(entry.json as V1Json);
    },
  },
  {
    number: 0,
    operationId: 'SimulateTransaction',
    method: 'POST',
    path: '/v2/transactions/simulate',
    summary: "Evaluates one transaction group against the latest (or a recent) state without committing it; the node's response shape exactly.",
    params: SIMULATE_PARAMS,
    consumes: ['application/json', 'application/msgpack'],
    produces: ['application/json', 'application/msgpack'],
    responses: {
      '200': 'SimulateResponse (a failing group is still 200)',
      '400': 'Bad Request',
      ...AUTH_RESPONSES,
      '500': 'Internal Error',
      default: 'Unknown Error',
    },
    // MaxSimulateBytes (protocol.md §4.1).
    maxBodyBytes: 1_000_000,
    handler: (ctx, node) => simulateOperation(ctx, node, false),
  },
  {
    number: 0,
    operationId: 'DevnetSimulate',
    method: 'POST',
    path: '/v1/transactions/simulate',
    summary:
      'Simulate with the result fields of node-service.md: would_succeed, failed_at, failure_message, missing_signature, and decoded ABI returns (abi-return).',
    params: SIMULATE_PARAMS,
    consumes: ['application/json', 'application/msgpack'],
    produces: ['application/json', 'application/msgpack'],
    responses: {
      '200': 'SimulateResponse with the result fields (a failing group is still 200)',
      '400': 'Bad Request',
      ...AUTH_RESPONSES,
      '500': 'Internal Error',
      default: 'Unknown Error',
    },
    maxBodyBytes: 1_000_000,
    handler: (ctx, node) => simulateOperation(ctx, node, true),
  },
];

/** The interface description served at /swagger.json, generated from NODE_ENDPOINTS. */
export function nodeSwagger(endpoints: readonly NodeEndpoint[] = NODE_ENDPOINTS): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(e.responses)) {
      const r: Record<string, unknown> = { description };
      if (status === '400' || status === '500' || (status === '404' && e.path !== '/metrics')) r.schema = { type: 'string' };
      responses[status] = r;
    }
    const op: Record<string, unknown> = {
      operationId: e.operationId,
      summary: e.summary,
      produces: e.produces,
      ...(e.consumes ? { consumes: e.consumes } : {}),
      parameters: e.params.map((p) =>
        p.in === 'body'
          ? { name: p.name, in: 'body', required: true, description: p.description, schema: { type: 'string', ...(p.format ? { format: p.format } : {}) } }
          : { name: p.name, in: p.in, type: p.type, ...(p.format ? { format: p.format } : {}), required: p.required ?? false, description: p.description },
      ),
      responses,
      ...(e.public ? {} : { security: [{ api_key: [] }] }),
    };
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    swagger: '2.0',
    info: {
      title: 'Tealworks node service',
      description: 'Transaction submission, node status, follower-mode deltas and simulate for the embedded devnet.',
      version: '0.1.0',
    },
    basePath: '/',
    schemes: ['http'],
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: { api_key: { type: 'apiKey', name: 'X-Node-API-Token', in: 'header' } },
    paths,
  };
}

const NODE_SWAGGER = nodeSwagger();

/** Router pattern (`:name`) of a swagger path (`{name}`). */
export function routePattern(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The node service's router over a node context. */
export function nodeRouter(node: NodeContext, endpoints: readonly NodeEndpoint[] = NODE_ENDPOINTS): Router {
  const router = new Router();
  for (const e of endpoints) {
    const plain: Handler = (ctx) => e.handler(ctx, node);
    const fork = node.ledger?.fork;
    const handler = fork ? forkRoute(fork, plain) : plain;
    router.add(e.method, routePattern(e.path), handler, { ...(e.public ? { public: true } : {}), ...(e.maxBodyBytes ? { maxBodyBytes: e.maxBodyBytes } : {}) });
  }
  return router;
}
