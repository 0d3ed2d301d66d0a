import { decodeAddress } from '../../../encoding/address.js';
import { fromBase32 } from '../../../encoding/base32.js';
import { BadRequestError } from '../../http/errors.js';
import { jsonReply, msgpackReply } from '../../http/reply.js';
import type { Reply, RequestContext } from '../../http/types.js';
import type { TokenChecker } from '../../http/auth.js';
import type { NodeEndpoint } from '../routes.js';
import { type WireForm } from './pending.js';
import { type GenesisDescription } from './genesis.js';
import { FAILED_LOOKING_UP_LEDGER } from './error-reply.js';

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
  roundGreaterThanLatest: 'given round is greater than the latest round',
  roundTooOld: 'given round is no longer available; use a more recent round',
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

// ---- parameters ---------------------------------------------------------------------------------

/** The largest uint64. */
export const UINT64_MAX = (1n << 64n) - 1n;

/** A uint64 query or path parameter, or undefined when absent; 400 when not one. */
export function uintParam(raw: string | null | undefined, name: string): bigint | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!/^\d{1,20}$/.test(raw) || BigInt(raw) > UINT64_MAX)
    throw new BadRequestError(`Invalid format for parameter ${name}: ${JSON.stringify(raw.slice(0, 40))} is not an unsigned 64-bit integer`);
  return BigInt(raw);
}

/** Go's `strconv.ParseUint(raw, 10, 64)` error text, or the value. */
export function goParseUint(raw: string): bigint | string {
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
export function resourcePage(ctx: RequestContext, kind: 'assets' | 'applications', max: bigint): { after: bigint; limit: bigint } {
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
export function pageOfIds(ids: Iterable<bigint>, after: bigint, limit: bigint): { page: bigint[]; next?: string } {
  const sorted = [...ids].filter((id) => id > after).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const page = sorted.slice(0, Number(limit));
  return sorted.length > page.length ? { page, next: String(page[page.length - 1]!) } : { page };
}

/** A required uint64 path parameter. */
export function pathUint(ctx: RequestContext, name: string): bigint {
  return uintParam(ctx.params[name] ?? '', name)!;
}

/** A boolean query parameter (`true`/`1`, `false`/`0`/empty), or undefined when absent. */
export function boolParam(raw: string | null, name: string): boolean | undefined {
  if (raw === null) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0' || raw === '') return false;
  throw new BadRequestError(`Invalid format for parameter ${name}: expected a boolean, got ${JSON.stringify(raw.slice(0, 40))}`);
}

/** The `{address}` path parameter as public-key bytes; the node's 400 wording when malformed. */
export function addressParam(ctx: RequestContext): Uint8Array {
  try {
    return decodeAddress(ctx.params.address ?? '');
  } catch {
    throw new BadRequestError(ALGOD_ERRORS.failedToParseAddress);
  }
}

/** `?format=` (json or msgpack) and, without it, an msgpack `Accept` header. */
export function wireForm(ctx: RequestContext): WireForm {
  const f = ctx.query.get('format');
  if (f === null || f === '') return /application\/(x-)?msgpack/i.test(ctx.headers.accept ?? '') ? 'msgpack' : 'json';
  if (f === 'json') return 'json';
  if (f === 'msgpack' || f === 'msgp') return 'msgpack';
  throw new BadRequestError(ALGOD_ERRORS.failedParsingFormat);
}

/** A JSON or msgpack answer of one value. */
export function reply(value: unknown, form: WireForm): Reply {
  return form === 'msgpack' ? msgpackReply(value) : jsonReply(value);
}

/** A `{txid}` path parameter (52 base32 characters); the node's 400 wording otherwise. */
export function txidParam(raw: string | undefined): string {
  const t = raw ?? '';
  try {
    if (t.length !== 52 || fromBase32(t).length !== 32) throw new Error('length');
  } catch {
    throw new BadRequestError(ALGOD_ERRORS.noValidTxn);
  }
  return t;
}

/** Media types of JSON-only operations. */
export const JSON_ONLY = ['application/json'];
/** Media types of operations that also answer msgpack. */
export const BOTH = ['application/json', 'application/msgpack'];
/** The responses of an operation: 200, the given ones, 401 and default. */
export const R = (extra: Record<string, string> = {}): Record<string, string> => ({
  '200': 'OK',
  ...extra,
  '401': 'Invalid API Token',
  default: 'Unknown Error',
});
/** The `{address}` path parameter's description. */
export const ADDRESS = { name: 'address', in: 'path' as const, type: 'string' as const, required: true, description: 'An account public key' };
/** The `format` query parameter's description. */
export const FORMAT = { name: 'format', in: 'query' as const, type: 'string' as const, description: 'json (default) or msgpack' };
/** The `{round}` path parameter's description. */
export const ROUND = { name: 'round', in: 'path' as const, type: 'integer' as const, format: 'uint64', required: true, description: 'A round number' };

/** One /v2 operation before the node numbers it. */
export type AlgodRoute = Omit<NodeEndpoint, 'number'>;
