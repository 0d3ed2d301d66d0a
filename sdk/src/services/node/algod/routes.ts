import { decodeAddress, encodeAddress } from '../../../encoding/address.js';
import { fromBase32 } from '../../../encoding/base32.js';
import { toBase64 } from '../../../encoding/base64.js';
import { compareBytes, utf8 } from '../../../encoding/bytes.js';
import { startsWith } from '../../../abi/bytes-util.js';
import { BoxNameError, parseBoxName } from '../../query/box-name.js';
import { blockHashText, blockToWire, headerToWire, encodeBlock, type TxnApplyData } from '../../../ledger/block.js';
import type { Transaction } from '../../../txn/types.js';
import { LedgerNotFoundError } from '../../../ledger/errors.js';
import { decodeSignedTransactions } from '../../../txn/encode.js';
import { AssembleError } from '../../../teal/types.js';
import { assembleCollect, formatDiagnostic } from '../../../teal/assembler/index.js';
import { disassemble } from '../../../teal/disassembler/index.js';
import { toNodeSourceMap } from '../../../teal/sourcemap.js';
import { TealworksError } from '../../../errors.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';
import { bytesReply, emptyReply, jsonReply, msgpackReply, textReply } from '../../http/reply.js';
import type { Reply, RequestContext } from '../../http/types.js';
import type { TokenChecker } from '../../http/auth.js';
import { involves } from '../v1-views.js';
import { PoolRejectionError } from '../pool.js';
import { DecodeError } from '../../../errors.js';
import type { NodeContext, NodeEndpoint } from '../routes.js';
import { accountJson, accountRecordMsgpack, appJson, appParamsJson, assetJson, assetParamsJson, localStateJson, wireToJson, type AlgodJson } from './views.js';
import { confirmedPending, poolPending, signedTxnForm, type WireForm } from './pending.js';
import { genesisText, type GenesisDescription } from './genesis.js';
import { algodErrorReply, FAILED_LOOKING_UP_LEDGER } from './error-reply.js';

/** Error texts of the public node API, word for word (clients match on them). */
export const ALGOD_ERRORS = {
  appDoesNotExist: 'application does not exist',
  assetDoesNotExist: 'asset does not exist',
  accountAppDoesNotExist: 'account application info not found',
  accountAssetDoesNotExist: 'account asset info not found',
  boxDoesNotExist: 'box not found',
  failedLookingUpLedger: FAILED_LOOKING_UP_LEDGER,
  failedParsingFormat: 'failed to parse the format option',
  failedToParseAddress: 'failed to parse the address',
  failedToParseExclude: 'failed to parse exclude',
  noValidTxn: 'no valid transaction ID was specified',
  invalidHashType: 'invalid hash type',
  transactionNotFound: 'could not find the transaction in the transaction pool or in the last 1000 confirmed rounds',
  payloadZeroLength: 'payload was of zero length',
  notDevMode: 'failed retrieving timestamp offset from node: cannot get block timestamp offset because we are not in dev mode',
} as const;

/** What the /v2 operations need beyond the node context. */
export interface AlgodRouteOptions {
  genesis: GenesisDescription;
  /** Dev mode (a block per submitted group): enables `/v2/devmode/*`. */
  devMode(): boolean;
  /**
   * The service's token check. Given, the /v2 operations check the token themselves so a refusal
   * is the node's `401 {"message":"Invalid API Token"}` (the service's own 401 has no content,
   * as node-service.md wants for /v1); the routes are then registered as public.
   */
  auth?: TokenChecker;
}

/** Rejections the node finds while verifying a group, before its pool (no `TransactionPool.Remember:` prefix). */
const VERIFY_KINDS: ReadonlySet<string> = new Set(['signature', 'malformed', 'group']);

// ---- parameters ---------------------------------------------------------------------------------

const UINT64_MAX = (1n << 64n) - 1n;

function uintParam(raw: string | null | undefined, name: string): bigint | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!/^\d{1,20}$/.test(raw) || BigInt(raw) > UINT64_MAX) throw new BadRequestError(`Invalid format for parameter ${name}: ${JSON.stringify(raw.slice(0, 40))} is not an unsigned 64-bit integer`);
  return BigInt(raw);
}

/** Go's `strconv.ParseUint(raw, 10, 64)` error text, or the value. */
function goParseUint(raw: string): bigint | string {
  const quoted = JSON.stringify(raw);
  if (!/^\d+$/.test(raw)) return `strconv.ParseUint: parsing ${quoted}: invalid syntax`;
  const v = BigInt(raw);
  return v > UINT64_MAX ? `strconv.ParseUint: parsing ${quoted}: value out of range` : v;
}

/**
 * The node's paging of an account's assets or applications: `next` is the last id of the previous
 * page (results start after it), `limit` defaults to 1000 and is at most `max`; the node's wording
 * for each refusal.
 */
function resourcePage(ctx: RequestContext, kind: 'assets' | 'applications', max: bigint): { after: bigint; limit: bigint } {
  let after = 0n;
  const nextRaw = ctx.query.get('next');
  if (nextRaw !== null) {
    const v = goParseUint(nextRaw);
    if (typeof v === 'string') throw new BadRequestError(`unable to parse next token: ${v}`);
    after = v;
  }
  const limit = uintParam(ctx.query.get('limit'), 'limit') ?? 1000n;
  if (limit === 0n) throw new BadRequestError('limit parameter must be a positive integer');
  if (limit > max) throw new BadRequestError(`limit ${limit} exceeds max ${kind} single batch limit ${max}`);
  return { after, limit };
}

/** Ids above `after`, ascending, one page of at most `limit`, and the next token (the page's last id) when more remain. */
function pageOfIds(ids: Iterable<bigint>, after: bigint, limit: bigint): { page: bigint[]; next?: string } {
  const sorted = [...ids].filter((id) => id > after).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const page = sorted.slice(0, Number(limit));
  return sorted.length > page.length ? { page, next: String(page[page.length - 1]!) } : { page };
}

function pathUint(ctx: RequestContext, name: string): bigint {
  return uintParam(ctx.params[name] ?? '', name)!;
}

function boolParam(raw: string | null, name: string): boolean | undefined {
  if (raw === null) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0' || raw === '') return false;
  throw new BadRequestError(`Invalid format for parameter ${name}: expected a boolean, got ${JSON.stringify(raw.slice(0, 40))}`);
}

function addressParam(ctx: RequestContext): Uint8Array {
  try {
    return decodeAddress(ctx.params.address ?? '');
  } catch {
    throw new BadRequestError(ALGOD_ERRORS.failedToParseAddress);
  }
}

/** `?format=` (json or msgpack) and, without it, an msgpack `Accept` header. */
function wireForm(ctx: RequestContext): WireForm {
  const f = ctx.query.get('format');
  if (f === null || f === '') return /application\/(x-)?msgpack/i.test(ctx.headers.accept ?? '') ? 'msgpack' : 'json';
  if (f === 'json') return 'json';
  if (f === 'msgpack' || f === 'msgp') return 'msgpack';
  throw new BadRequestError(ALGOD_ERRORS.failedParsingFormat);
}

function reply(value: unknown, form: WireForm): Reply {
  return form === 'msgpack' ? msgpackReply(value) : jsonReply(value);
}

function txidParam(raw: string | undefined): string {
  const t = raw ?? '';
  try {
    if (t.length !== 52 || fromBase32(t).length !== 32) throw new Error('length');
  } catch {
    throw new BadRequestError(ALGOD_ERRORS.noValidTxn);
  }
  return t;
}

/** A box name parameter in the node's `encoding:value` form (the query service's parser: one grammar). */
function boxNameParam(raw: string | null, what = 'name'): Uint8Array {
  if (raw === null || raw === '') throw new BadRequestError(`${what} is required: use encoding:value (str:, int:, addr:, b32:, b64:)`);
  try {
    return parseBoxName(raw);
  } catch (e) {
    throw new BadRequestError(e instanceof BoxNameError ? e.message : 'box name is not valid');
  }
}

// ---- shared views -------------------------------------------------------------------------------

function statusJson(node: NodeContext): AlgodJson {
  const last = node.follower.fetchedRound;
  const proto = node.ledger.block(last).header.protocol;
  return {
    catchpoint: '',
    'catchpoint-acquired-blocks': 0n,
    'catchpoint-processed-accounts': 0n,
    'catchpoint-processed-kvs': 0n,
    'catchpoint-total-accounts': 0n,
    'catchpoint-total-blocks': 0n,
    'catchpoint-total-kvs': 0n,
    'catchpoint-verified-accounts': 0n,
    'catchpoint-verified-kvs': 0n,
    'catchup-time': 0n,
    'last-catchpoint': '',
    'last-round': last,
    'last-version': proto,
    'next-version': proto,
    'next-version-round': last + 1n,
    'next-version-supported': true,
    'stopped-at-unsupported-round': false,
    'time-since-last-round': BigInt(Math.max(0, Date.now() - node.lastBlockAt())) * 1_000_000n,
  };
}

/** Recently confirmed: within the node's memory of the last MaxTxnLife rounds. */
function recentConfirmed(node: NodeContext, txid: string) {
  const t = node.ledger.transaction(txid);
  if (!t) return undefined;
  const latest = node.ledger.latestRound;
  const life = node.ledger.params.maxTxnLife;
  return latest <= life || t.round >= latest - life ? t : undefined;
}

function blockAt(node: NodeContext, round: bigint) {
  if (round > node.follower.fetchedRound) throw new NotFoundError(ALGOD_ERRORS.failedLookingUpLedger);
  try {
    return node.ledger.block(round);
  } catch (e) {
    if (e instanceof LedgerNotFoundError) throw new NotFoundError(ALGOD_ERRORS.failedLookingUpLedger);
    throw e;
  }
}

function pendingList(node: NodeContext, ctx: RequestContext, address?: string): Reply {
  const form = wireForm(ctx);
  const max = uintParam(ctx.query.get('max'), 'max') ?? 0n;
  const all = node.pool.pending();
  const picked = [];
  for (const e of all) {
    if (max !== 0n && BigInt(picked.length) >= max) break;
    if (address !== undefined && !involves(e.stxn.txn, address)) continue;
    picked.push(signedTxnForm(e.stxn, form));
  }
  return reply({ 'top-transactions': picked, 'total-transactions': BigInt(all.length) }, form);
}

/** Renders failures as the public API does: the status and a `{"message": …}` body. */
function algodErrors(handler: NodeEndpoint['handler'], auth: TokenChecker | undefined): NodeEndpoint['handler'] {
  return async (ctx, node) => {
    if (auth && !auth.accepts(ctx.headers)) return jsonReply({ message: 'Invalid API Token' }, 401);
    try {
      return await handler(ctx, node);
    } catch (e) {
      const reply = algodErrorReply(e);
      if (reply) return reply;
      throw e;
    }
  };
}

const JSON_ONLY = ['application/json'];
const BOTH = ['application/json', 'application/msgpack'];
const R = (extra: Record<string, string> = {}): Record<string, string> => ({ '200': 'OK', ...extra, '401': 'Invalid API Token', default: 'Unknown Error' });
const ADDRESS = { name: 'address', in: 'path' as const, type: 'string' as const, required: true, description: 'An account public key' };
const FORMAT = { name: 'format', in: 'query' as const, type: 'string' as const, description: 'json (default) or msgpack' };
const ROUND = { name: 'round', in: 'path' as const, type: 'integer' as const, format: 'uint64', required: true, description: 'A round number' };

/**
 * The public node API (`/v2`, algod's OpenAPI description) served next to the specified `/v1`
 * operations: paths, parameters, kebab-case JSON, msgpack where the node offers it, and the
 * node's error texts and status codes with `{"message": …}` bodies.
 */
export function algodEndpoints(options: AlgodRouteOptions): NodeEndpoint[] {
  const list: Omit<NodeEndpoint, 'number'>[] = [
    {
      operationId: 'GetReady', method: 'GET', path: '/ready', summary: 'Returns OK if healthy and fully caught up.',
      params: [], produces: JSON_ONLY, responses: { '200': 'OK', '500': 'Internal Error', '503': 'Node not ready yet' }, public: true,
      handler: () => emptyReply(200),
    },
    {
      operationId: 'GetGenesis', method: 'GET', path: '/genesis', summary: 'Gets the genesis information.',
      params: [], produces: JSON_ONLY, responses: { '200': 'The genesis file in json.', default: 'Unknown Error' }, public: true,
      handler: (_ctx, node) => textReply(genesisText(node.ledger, options.genesis), 200, 'application/json'),
    },
    {
      operationId: 'GetStatus', method: 'GET', path: '/v2/status', summary: 'Gets the current node status.',
      params: [], produces: JSON_ONLY, responses: R({ '500': 'Internal Error' }),
      handler: (_ctx, node) => jsonReply(statusJson(node)),
    },
    {
      operationId: 'WaitForBlock', method: 'GET', path: '/v2/status/wait-for-block-after/{round}', summary: 'Gets the node status after waiting for a round after the given round.',
      params: [ROUND], produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: async (ctx, node) => {
        const round = pathUint(ctx, 'round');
        const deadline = Date.now() + node.waitTimeoutMs;
        while (node.follower.fetchedRound <= round && !ctx.signal.aborted) {
          const left = deadline - Date.now();
          if (left <= 0) break;
          await node.nextChange(ctx.signal, left);
        }
        return jsonReply(statusJson(node));
      },
    },
    {
      operationId: 'TransactionParams', method: 'GET', path: '/v2/transactions/params', summary: 'Get parameters for constructing a new transaction',
      params: [], produces: JSON_ONLY, responses: R({ '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: (_ctx, node) => {
        const l = node.ledger;
        return jsonReply({
          'consensus-version': l.params.protocol,
          fee: 0n,
          'genesis-hash': l.genesisHash,
          'genesis-id': l.genesisId,
          'last-round': node.follower.fetchedRound,
          'min-fee': l.params.minTxnFee,
        });
      },
    },
    {
      operationId: 'GetSupply', method: 'GET', path: '/v2/ledger/supply', summary: 'Get the current supply reported by the ledger.',
      params: [], produces: JSON_ONLY, responses: R(),
      handler: (_ctx, node) => {
        const s = node.ledger.supply();
        return jsonReply({ current_round: s.round, 'online-money': s.onlineMoney, 'online-stake': s.onlineMoney, 'total-money': s.totalMoney });
      },
    },
    {
      operationId: 'RawTransaction', method: 'POST', path: '/v2/transactions', summary: 'Broadcasts a raw transaction or transaction group to the network.',
      params: [{ name: 'rawtxn', in: 'body', type: 'string', format: 'binary', required: true, description: 'The byte encoded signed transaction to broadcast to network' }],
      consumes: ['application/x-binary'], produces: JSON_ONLY, responses: R({ '400': 'Bad Request - Malformed Algorand transaction', '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: async (ctx, node) => {
        if (node.follower.enabled) throw new BadRequestError('cannot broadcast txns in follower mode');
        const body = await ctx.body();
        let txId: string;
        try {
          txId = node.pool.submit(body, node.ledger.params.maxTxGroupSize);
        } catch (e) {
          // The node reports what its pool refused (balances, fees, programs, duplicates …) through
          // TransactionPool.Remember; signature and well-formedness failures come before the pool.
          if (e instanceof PoolRejectionError && !VERIFY_KINDS.has(e.rejection.kind) && !e.rejection.reason.startsWith('rejected by logic')) {
            throw new BadRequestError(`TransactionPool.Remember: ${e.message}`);
          }
          if (e instanceof DecodeError) throw new BadRequestError(e.message);
          throw e;
        }
        return jsonReply({ txId });
      },
    },
    {
      operationId: 'RawTransactionAsync', method: 'POST', path: '/v2/transactions/async', summary: 'Fast track for broadcasting a raw transaction or transaction group to the network (developer API): no answer about the pool.',
      params: [{ name: 'rawtxn', in: 'body', type: 'string', format: 'binary', required: true, description: 'The byte encoded signed transaction to broadcast to network' }],
      consumes: ['application/x-binary'], produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Developer or Experimental API not enabled', '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: async (ctx, node) => {
        if (node.follower.enabled) throw new BadRequestError('cannot broadcast txns in follower mode');
        const body = await ctx.body();
        let stxns;
        try {
          stxns = decodeSignedTransactions(body);
        } catch (e) {
          throw new BadRequestError(e instanceof Error ? e.message : 'malformed transaction');
        }
        if (stxns.length === 0) throw new BadRequestError('empty txgroup');
        try {
          node.pool.submit(body, node.ledger.params.maxTxGroupSize);
        } catch {
          // The asynchronous path does not report whether the pool took the group.
        }
        return emptyReply(200);
      },
    },
    {
      operationId: 'GetPendingTransactions', method: 'GET', path: '/v2/transactions/pending', summary: 'Get a list of unconfirmed transactions currently in the transaction pool.',
      params: [{ name: 'max', in: 'query', type: 'integer', format: 'uint64', description: 'Truncated number of transactions to display. If max=0, returns all pending txns.' }, FORMAT],
      produces: BOTH, responses: R({ '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: (ctx, node) => pendingList(node, ctx),
    },
    {
      operationId: 'PendingTransactionInformation', method: 'GET', path: '/v2/transactions/pending/{txid}', summary: 'Get a specific pending transaction.',
      params: [{ name: 'txid', in: 'path', type: 'string', required: true, description: 'A transaction ID' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '404': 'Transaction Not Found' }),
      handler: (ctx, node) => {
        const txid = txidParam(ctx.params.txid);
        const form = wireForm(ctx);
        const p = node.pool.lookup(txid);
        if (p && p.poolError === '') return reply(poolPending(p.stxn, '', form), form);
        const t = recentConfirmed(node, txid);
        if (t) return reply(confirmedPending(t, form), form);
        if (p) return reply(poolPending(p.stxn, p.poolError, form), form);
        throw new NotFoundError(ALGOD_ERRORS.transactionNotFound);
      },
    },
    {
      operationId: 'GetPendingTransactionsByAddress', method: 'GET', path: '/v2/accounts/{address}/transactions/pending', summary: 'Get a list of unconfirmed transactions currently in the transaction pool by address.',
      params: [ADDRESS, { name: 'max', in: 'query', type: 'integer', format: 'uint64', description: 'Truncated number of transactions to display. If max=0, returns all pending txns.' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => pendingList(node, ctx, encodeAddress(addressParam(ctx))),
    },
    {
      operationId: 'AccountInformation', method: 'GET', path: '/v2/accounts/{address}', summary: 'Get account information.',
      params: [ADDRESS, { name: 'exclude', in: 'query', type: 'string', description: 'all, none, created-apps-params, created-assets-params (comma-separated)' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const form = wireForm(ctx);
        const raw = ctx.query.getAll('exclude').flatMap((v) => v.split(',')).map((v) => v.trim());
        const opts = { all: false, createdAppsParams: false, createdAssetsParams: false };
        if (raw.length === 1 && raw[0] === 'all') opts.all = true;
        else if (!(raw.length === 1 && (raw[0] === 'none' || raw[0] === ''))) {
          for (const v of raw) {
            if (v === 'created-apps-params') opts.createdAppsParams = true;
            else if (v === 'created-assets-params') opts.createdAssetsParams = true;
            else throw new BadRequestError(ALGOD_ERRORS.failedToParseExclude);
          }
        }
        // msgpack: the node's raw account record, not the JSON model.
        return form === 'msgpack' ? msgpackReply(accountRecordMsgpack(node.ledger, address)) : jsonReply(accountJson(node.ledger, address, opts));
      },
    },
    {
      operationId: 'AccountAssetInformation', method: 'GET', path: '/v2/accounts/{address}/assets/{asset-id}', summary: "Get account information about a given asset.",
      params: [ADDRESS, { name: 'asset-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An asset identifier' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '404': 'Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const id = pathUint(ctx, 'asset-id');
        const form = wireForm(ctx);
        const a = node.ledger.account(address);
        const h = a?.holdings.get(id);
        const created = a?.createdAssets.has(id) ? node.ledger.asset(id) : undefined;
        if (!h && !created) throw new NotFoundError(ALGOD_ERRORS.accountAssetDoesNotExist);
        const o: AlgodJson = { round: node.ledger.latestRound };
        if (h) o['asset-holding'] = { amount: h.amount, 'asset-id': id, 'is-frozen': h.frozen };
        if (created) o['created-asset'] = assetParamsJson(created);
        return reply(o, form);
      },
    },
    {
      operationId: 'AccountAssetsInformation', method: 'GET', path: '/v2/accounts/{address}/assets', summary: "Get a list of assets held by an account, inclusive of asset params.",
      params: [ADDRESS, { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of results to return.' }, { name: 'next', in: 'query', type: 'string', description: 'The next page of results.' }],
      produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const { after, limit } = resourcePage(ctx, 'assets', 1000n);
        const a = node.ledger.account(address);
        const { page, next } = pageOfIds(a ? a.holdings.keys() : [], after, limit);
        const holdings = page.map((id) => {
          const h = a!.holdings.get(id)!;
          const asset = node.ledger.asset(id);
          const entry: AlgodJson = { 'asset-holding': { amount: h.amount, 'asset-id': id, 'is-frozen': h.frozen } };
          if (asset) entry['asset-params'] = assetParamsJson(asset);
          return entry;
        });
        const o: AlgodJson = { 'asset-holdings': holdings, round: node.ledger.latestRound };
        if (next !== undefined) o['next-token'] = next;
        return jsonReply(o);
      },
    },
    {
      operationId: 'AccountApplicationsInformation', method: 'GET', path: '/v2/accounts/{address}/applications', summary: 'Get a list of applications held by an account.',
      params: [
        ADDRESS,
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of results to return.' },
        { name: 'next', in: 'query', type: 'string', description: 'The next page of results (the last application ID of the previous page).' },
        { name: 'include', in: 'query', type: 'string', description: '`params` to include each created application\'s parameters (comma-separated list).' },
      ],
      produces: JSON_ONLY, responses: R({ '400': 'Malformed address', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const withParams = ctx.query.getAll('include').some((v) => v.split(',').some((x) => x.trim() === 'params'));
        // Without params the node's answers are small, so it allows 100 times more per page.
        const { after, limit } = resourcePage(ctx, 'applications', withParams ? 1000n : 100_000n);
        const a = node.ledger.account(address);
        // The account's application resources: apps it created and apps it holds local state in.
        const ids = new Set<bigint>(a ? [...a.createdApps, ...a.locals.keys()] : []);
        const { page, next } = pageOfIds(ids, after, limit);
        const resources = page.map((id) => {
          const entry: AlgodJson = { id };
          const app = node.ledger.app(id);
          if (!app) entry.deleted = true;
          else if (withParams && a!.createdApps.has(id)) entry.params = appParamsJson(app);
          const local = a!.locals.get(id);
          if (local) entry['app-local-state'] = localStateJson(node.ledger, id, local);
          return entry;
        });
        const o: AlgodJson = { 'application-resources': resources, round: node.ledger.latestRound };
        if (next !== undefined) o['next-token'] = next;
        return jsonReply(o);
      },
    },
    {
      operationId: 'AccountApplicationInformation', method: 'GET', path: '/v2/accounts/{address}/applications/{application-id}', summary: "Get account information about a given app.",
      params: [ADDRESS, { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '404': 'Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const id = pathUint(ctx, 'application-id');
        const form = wireForm(ctx);
        const a = node.ledger.account(address);
        const local = a?.locals.get(id);
        const created = a?.createdApps.has(id) ? node.ledger.app(id) : undefined;
        if (!local && !created) throw new NotFoundError(ALGOD_ERRORS.accountAppDoesNotExist);
        const o: AlgodJson = { round: node.ledger.latestRound };
        if (local) o['app-local-state'] = localStateJson(node.ledger, id, local);
        if (created) o['created-app'] = appParamsJson(created);
        return reply(o, form);
      },
    },
    {
      operationId: 'GetApplicationByID', method: 'GET', path: '/v2/applications/{application-id}', summary: 'Get application information.',
      params: [{ name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' }],
      produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Application Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const app = node.ledger.app(pathUint(ctx, 'application-id'));
        if (!app) throw new NotFoundError(ALGOD_ERRORS.appDoesNotExist);
        return jsonReply(appJson(app));
      },
    },
    {
      operationId: 'GetApplicationBoxes', method: 'GET', path: '/v2/applications/{application-id}/boxes', summary: 'Get all box names for a given application.',
      params: [
        { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' },
        { name: 'max', in: 'query', type: 'integer', format: 'uint64', description: 'Max number of box names to return. If max is not set, or max == 0, returns all box-names.' },
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of boxes to return (paged form).' },
        { name: 'next', in: 'query', type: 'string', description: 'A box name (b64:…) to continue after (paged form).' },
        { name: 'prefix', in: 'query', type: 'string', description: 'Only names starting with this encoded value (paged form).' },
        { name: 'include', in: 'query', type: 'string', description: 'values: also return each box value (paged form).' },
      ],
      produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const id = pathUint(ctx, 'application-id');
        const max = uintParam(ctx.query.get('max'), 'max') ?? 0n;
        const limit = uintParam(ctx.query.get('limit'), 'limit') ?? 0n;
        const next = ctx.query.get('next');
        const prefixRaw = ctx.query.get('prefix');
        const includeValues = ctx.query.getAll('include').flatMap((v) => v.split(',')).includes('values');
        let names = node.ledger.boxNames(id).sort(compareBytes);
        const paged = limit !== 0n || next !== null || includeValues || (prefixRaw !== null && prefixRaw !== '') || ctx.query.get('round') !== null;
        if (!paged) {
          if (max !== 0n && BigInt(names.length) > max) {
            throw new HttpError(400, 'Result limit exceeded', { 'max-api-box-per-application': 100000n, max, 'total-boxes': BigInt(names.length) });
          }
          return jsonReply({ boxes: names.map((name) => ({ name })) });
        }
        if (prefixRaw) {
          const prefix = boxNameParam(prefixRaw, 'prefix');
          names = names.filter((n) => startsWith(n, prefix));
        }
        if (next) {
          const after = boxNameParam(next, 'next');
          names = names.filter((n) => compareBytes(n, after) > 0);
        }
        const cap = limit === 0n ? 100000 : Number(limit > 100000n ? 100000n : limit);
        const page = names.slice(0, cap);
        const o: AlgodJson = { boxes: page.map((name) => (includeValues ? { name, value: node.ledger.box(id, name) ?? new Uint8Array() } : { name })), round: node.ledger.latestRound };
        if (names.length > page.length) o['next-token'] = `b64:${toBase64(page[page.length - 1]!)}`;
        return jsonReply(o);
      },
    },
    {
      operationId: 'GetApplicationBoxByName', method: 'GET', path: '/v2/applications/{application-id}/box', summary: 'Get box information for a given application.',
      params: [
        { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' },
        { name: 'name', in: 'query', type: 'string', required: true, description: 'A box name, in the goal app call arg form encoding:value (str:, b64:, int:, addr:)' },
      ],
      produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Box Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const id = pathUint(ctx, 'application-id');
        const name = boxNameParam(ctx.query.get('name'));
        const value = node.ledger.box(id, name);
        if (value === undefined) throw new NotFoundError(ALGOD_ERRORS.boxDoesNotExist);
        return jsonReply({ name, round: node.ledger.latestRound, value });
      },
    },
    {
      operationId: 'GetAssetByID', method: 'GET', path: '/v2/assets/{asset-id}', summary: 'Get asset information.',
      params: [{ name: 'asset-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An asset identifier' }],
      produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Application Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const asset = node.ledger.asset(pathUint(ctx, 'asset-id'));
        if (!asset) throw new NotFoundError(ALGOD_ERRORS.assetDoesNotExist);
        return jsonReply(assetJson(asset));
      },
    },
    {
      operationId: 'GetBlock', method: 'GET', path: '/v2/blocks/{round}', summary: 'Get the block for the given round.',
      params: [ROUND, { name: 'header-only', in: 'query', type: 'boolean', description: 'If true, only the block header (exclusive of payset or certificate) may be included in response.' }, FORMAT],
      produces: BOTH, responses: R({ '400': 'Bad Request', '404': 'None existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const round = pathUint(ctx, 'round');
        const form = wireForm(ctx);
        const headerOnly = boolParam(ctx.query.get('header-only'), 'header-only') ?? false;
        const b = blockAt(node, round);
        if (headerOnly) return form === 'msgpack' ? msgpackReply({ block: headerToWire(b.header) }) : jsonReply({ block: wireToJson(headerToWire(b.header)) });
        if (form === 'msgpack') {
          // {block, cert}: the block in the node's bytes (Go strings for TEAL keys, values and logs); dev mode has no certificate.
          const blockBytes = encodeBlock(b, { goStrings: true });
          const out = new Uint8Array(1 + 6 + blockBytes.length);
          out[0] = 0x81; // fixmap, 1 entry
          out.set([0xa5, ...utf8('block')], 1);
          out.set(blockBytes, 7);
          const reply = bytesReply(out, 'application/msgpack');
          return { ...reply, headers: { 'x-algorand-struct': 'block-v1' } };
        }
        return jsonReply({ block: wireToJson(blockToWire(b, true)) });
      },
    },
    {
      operationId: 'GetBlockTxids', method: 'GET', path: '/v2/blocks/{round}/txids', summary: 'Get the top level transaction IDs for the block on the given round.',
      params: [ROUND], produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Non existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => jsonReply({ blockTxids: blockAt(node, pathUint(ctx, 'round')).txns.map((t) => t.txid) }),
    },
    {
      operationId: 'GetBlockHash', method: 'GET', path: '/v2/blocks/{round}/hash', summary: 'Get the block hash for the block on the given round.',
      params: [ROUND], produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'None existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => jsonReply({ blockHash: blockHashText(blockAt(node, pathUint(ctx, 'round')).hash).slice(4) }),
    },
    {
      operationId: 'GetBlockLogs', method: 'GET', path: '/v2/blocks/{round}/logs', summary: 'Get all of the logs from outer and inner app calls in the given round.',
      params: [ROUND], produces: JSON_ONLY, responses: R({ '400': 'Bad Request', '404': 'Non existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const b = blockAt(node, pathUint(ctx, 'round'));
        const logs: AlgodJson[] = [];
        const walk = (txn: Transaction, ad: TxnApplyData, outer: string): void => {
          if (ad.logs.length) logs.push({ 'application-index': txn.appCall?.appId || ad.createdAppId || 0n, logs: ad.logs, txId: outer });
          for (const i of ad.inner) walk(i.txn, i.ad, outer);
        };
        for (const t of b.txns) walk(t.stxn.txn, t.ad, t.txid);
        return jsonReply({ logs });
      },
    },
    {
      operationId: 'GetBlockTimeStampOffset', method: 'GET', path: '/v2/devmode/blocks/offset', summary: 'Returns the timestamp offset. Doesn\'t work on real network.',
      params: [], produces: JSON_ONLY, responses: R({ '400': 'TimeStamp offset not set.' }),
      handler: (_ctx, node) => {
        if (!options.devMode()) throw new BadRequestError(ALGOD_ERRORS.notDevMode);
        return jsonReply({ offset: node.ledger.getTimestampOffset() ?? 0n });
      },
    },
    {
      operationId: 'SetBlockTimeStampOffset', method: 'POST', path: '/v2/devmode/blocks/offset/{offset}', summary: 'Given a timestamp offset in seconds, adds the offset to every subsequent block header\'s timestamp (0 returns to the wall clock).',
      params: [{ name: 'offset', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'The timestamp offset for blocks in dev mode.' }],
      produces: JSON_ONLY, responses: R({ '400': 'Cannot set timestamp offset to a negative integer.' }),
      handler: (ctx, node) => {
        const offset = pathUint(ctx, 'offset');
        if (!options.devMode()) throw new BadRequestError('failed to set timestamp offset on the node: cannot set block timestamp offset when not in dev mode');
        node.ledger.setTimestampOffset(offset === 0n ? undefined : offset);
        return emptyReply(200);
      },
    },
    {
      operationId: 'TealCompile', method: 'POST', path: '/v2/teal/compile', summary: 'Compile TEAL source code to binary, produce its hash (our assembler: #define macros and every version).',
      params: [
        { name: 'source', in: 'body', type: 'string', format: 'binary', required: true, description: 'TEAL source code to be compiled' },
        { name: 'sourcemap', in: 'query', type: 'boolean', description: 'When set to true, returns the source map of the program as a JSON.' },
      ],
      consumes: ['text/plain'], produces: JSON_ONLY, responses: R({ '400': 'Bad Request - Teal Compile Error', '404': 'Developer API not enabled', '500': 'Internal Error' }),
      maxBodyBytes: 512 * 1024,
      handler: async (ctx) => {
        const wantMap = boolParam(ctx.query.get('sourcemap'), 'sourcemap') ?? false;
        const source = new TextDecoder().decode(await ctx.body());
        const { result, diagnostics } = assembleCollect(source);
        if (!result) {
          const errors = diagnostics.filter((d) => d.severity === 'error');
          throw new BadRequestError((errors.length ? errors : diagnostics).map((d) => formatDiagnostic(d)).join('\n') + '\n');
        }
        const o: AlgodJson = { hash: result.address, result: result.program };
        if (wantMap) o.sourcemap = toNodeSourceMap(result.sourceMap, { sources: ['<body>'] });
        return jsonReply(o);
      },
    },
    {
      operationId: 'TealDisassemble', method: 'POST', path: '/v2/teal/disassemble', summary: 'Disassemble program bytes into the TEAL source code.',
      params: [{ name: 'source', in: 'body', type: 'string', format: 'byte', required: true, description: 'TEAL program binary to be disassembled' }],
      consumes: ['application/x-binary'], produces: JSON_ONLY, responses: R({ '400': 'Bad Request - Teal Compile Error', '404': 'Developer API not enabled', '500': 'Internal Error' }),
      maxBodyBytes: 512 * 1024,
      handler: async (ctx) => {
        const program = await ctx.body();
        try {
          return jsonReply({ result: disassemble(program) });
        } catch (e) {
          if (e instanceof AssembleError || e instanceof TealworksError) throw new BadRequestError(e.message);
          throw e;
        }
      },
    },
  ];
  return list.map((e) => ({ ...e, number: 0, ...(options.auth ? { public: true } : {}), handler: algodErrors(e.handler, e.public ? undefined : options.auth) }));
}
