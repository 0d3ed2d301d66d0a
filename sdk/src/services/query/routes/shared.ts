// What every route module of the query service shares: the reply helpers, the query-parameter
// filters, path parameters, and the per-router context (the index, its current round, the
// transaction search and the id-ordered listings). The routes themselves are in the sibling
// modules, one per resource; service.ts assembles them into the router.
import { ZERO_ADDRESS_STRING } from '../../../encoding/address.js';
import { toHex } from '../../../encoding/hex.js';
import { bytesEqual } from '../../../encoding/bytes.js';
import { TRANSACTION_TYPES, type TransactionType } from '../../../txn/types.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { textReply } from '../../http/reply.js';
import type { Router, RouteOptions } from '../../http/router.js';
import type { Reply, RequestContext } from '../../http/types.js';
import { QueryParams, parseAddressParam, parseBase64Param, parseTxidParam, pathUint, MAX_SEARCHABLE, TOO_LARGE_MESSAGE } from '../params.js';
import type { QueryIndex } from '../query-index.js';
import { transactionJson } from '../render.js';
import { num } from '../json-number.js';
import { decodeIdToken, decodeTxnToken, encodeTxnToken } from '../tokens.js';
import type { AddressRole, SigType, TxnEntry, TxnFilter } from '../txn-index.js';

/** A JSON object of a reply body. */
export type Json = Record<string, unknown>;

/** The reference service's error messages, word for word. */
export const MSG = {
  accountNotFound: 'no accounts found for address',
  assetNotFound: 'no assets found for asset-id',
  appNotFound: 'no application found for application-id',
  txnNotFound: 'no transaction found for transaction id',
  boxNotFound: 'no application boxes found',
  blockNotFound: 'error while looking up block for round',
  roundAndRange: 'cannot specify round and min-round/max-round',
  minMax: 'min-round must be less than max-round',
  afterBefore: 'after-time must be less than before-time',
} as const;

const ADDRESS_ROLES: readonly AddressRole[] = ['sender', 'receiver', 'freeze-target'];
const SIG_TYPES: readonly SigType[] = ['sig', 'msig', 'lsig'];
export const EXCLUDES = ['all', 'assets', 'created-assets', 'apps-local-state', 'created-apps', 'none'] as const;
export type Exclude = (typeof EXCLUDES)[number];

/**
 * JSON for a reply body. The native serializer is several times faster than the portable
 * bigint-aware one on 1000-transaction pages, and faster again without a replacer: bodies whose
 * integers were written with `num` (the transaction renderers) need none, and any other body falls
 * back to the replacer at its first bigint. Integers beyond 2^53 travel as marked strings and are
 * unquoted afterwards (no rendered string can hold a NUL character: names are shown only when
 * printable, everything else is base64 or an address).
 */
export function jsonReply(value: unknown): Reply {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? num(v) : v));
  }
  return textReply((text.includes(MARK_JSON) ? text.replace(MARKED, '$1') : text) + '\n', 200, 'application/json');
}

/** The mark as JSON writes it inside a string, and a marked integer. */
const MARK_JSON = '"\\u0000n:';
const MARKED = /"\\u0000n:(-?\d+)"/g;

export const paged = (body: Json, next: string | undefined): Reply => jsonReply(next === undefined ? body : { ...body, 'next-token': next });

/** Round and time filters shared by the transaction searches and the block-header listing. */
export function roundFilters(q: QueryParams, errors: string[]): Pick<TxnFilter, 'round' | 'minRound' | 'maxRound' | 'afterTime' | 'beforeTime'> {
  const f: Pick<TxnFilter, 'round' | 'minRound' | 'maxRound' | 'afterTime' | 'beforeTime'> = {};
  const round = q.uint('round');
  const minRound = q.uint('min-round');
  const maxRound = q.uint('max-round');
  const after = q.time('after-time');
  const before = q.time('before-time');
  if (round !== undefined) f.round = round;
  if (minRound !== undefined) f.minRound = minRound;
  if (maxRound !== undefined) f.maxRound = maxRound;
  if (after !== undefined) f.afterTime = after;
  if (before !== undefined) f.beforeTime = before;
  if (round !== undefined && (minRound !== undefined || maxRound !== undefined)) errors.push(MSG.roundAndRange);
  if (minRound !== undefined && maxRound !== undefined && minRound > maxRound) errors.push(MSG.minMax);
  if (after !== undefined && before !== undefined && after > before) errors.push(MSG.afterBefore);
  return f;
}

export function txnFilter(q: QueryParams, fixed: { address?: Uint8Array; assetId?: bigint }, allowAddress: boolean): TxnFilter {
  const errors: string[] = [];
  const f: TxnFilter = roundFilters(q, errors);
  if (fixed.address) f.address = fixed.address;
  if (fixed.assetId !== undefined) f.assetId = fixed.assetId;
  const assetId = q.uint('asset-id');
  if (assetId !== undefined && fixed.assetId === undefined) f.assetId = assetId;
  const appId = q.has('application-id') ? q.uint('application-id') : undefined;
  if (appId !== undefined) f.appId = appId;
  const gt = q.uint('currency-greater-than');
  const lt = q.uint('currency-less-than');
  if (gt !== undefined) f.currencyGreaterThan = gt;
  if (lt !== undefined) f.currencyLessThan = lt;
  const note = q.string('note-prefix');
  if (note !== undefined) collectParseError(errors, () => (f.notePrefix = parseBase64Param(note, 'note-prefix')));
  const rekey = q.bool('rekey-to');
  if (rekey) f.rekeyTo = true;
  const sig = q.string('sig-type');
  if (sig !== undefined) {
    if ((SIG_TYPES as readonly string[]).includes(sig)) f.sigType = sig as SigType;
    else errors.push(`unknown sig-type [valid types: ${SIG_TYPES.join(', ')}]: '${sig}'`);
  }
  const type = q.string('tx-type');
  if (type !== undefined) {
    if ((TRANSACTION_TYPES as readonly string[]).includes(type)) f.txType = type as TransactionType;
    else errors.push(`unknown tx-type [valid types: ${TRANSACTION_TYPES.join(', ')}]: '${type}'`);
  }
  const txid = q.string('txid');
  if (txid !== undefined) collectParseError(errors, () => (f.txid = parseTxidParam(txid)));
  const group = q.string('group-id');
  if (group !== undefined)
    collectParseError(errors, () => {
      const g = parseBase64Param(group, 'group-id');
      if (g.length !== 32) errors.push("bad length for group ID: 'group-id'");
      else f.groupId = g;
    });
  if (allowAddress) {
    const address = q.string('address');
    if (address !== undefined) collectParseError(errors, () => (f.address = parseAddressParam(address, 'address')));
    const role = q.string('address-role');
    if (role !== undefined) {
      if ((ADDRESS_ROLES as readonly string[]).includes(role)) f.role = role as AddressRole;
      else errors.push(`unknown address role [valid roles: ${ADDRESS_ROLES.join(', ')}]: '${role}'`);
    }
    if (q.bool('exclude-close-to')) f.excludeCloseTo = true;
    if (f.address && address === ZERO_ADDRESS_STRING) {
      // The zero address fills every unset address field; those roles would match everything.
      if (f.role === 'receiver' && !f.excludeCloseTo) errors.push('searching transactions by zero address with close address role is not supported');
      if (f.role === 'sender') errors.push('searching transactions by zero address with asset sender role is not supported');
    }
  }
  if (errors.length) throw new BadRequestError(`invalid input: ${errors.join(', ')}`);
  return f;
}

export function parseExclude(q: QueryParams): Set<Exclude> {
  const list = q.list('exclude') ?? [];
  const out = new Set<Exclude>();
  for (const v of list) {
    if (!(EXCLUDES as readonly string[]).includes(v))
      throw new BadRequestError(`Invalid format for parameter exclude: unknown value '${v}' [valid values: ${EXCLUDES.join(', ')}]`);
    out.add(v as Exclude);
  }
  if (out.has('all')) for (const v of ['assets', 'created-assets', 'apps-local-state', 'created-apps'] as const) out.add(v);
  return out;
}

export function pathAddress(ctx: RequestContext): { bytes: Uint8Array; hex: string; text: string } {
  const text = ctx.params['account-id']!;
  const bytes = parseAddressParam(text, 'account-id');
  return { bytes, hex: toHex(bytes), text };
}

export function pathId(ctx: RequestContext, name: string): bigint {
  const id = pathUint(ctx.params[name]!, name);
  if (id > MAX_SEARCHABLE) throw new NotFoundError(TOO_LARGE_MESSAGE);
  return id;
}

/** Index of the first element greater than `key` in an ascending array. */
export function upperBound<T>(arr: readonly T[], key: T): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index the routes read and the helpers over it, one per router. */
export interface QueryRoutes {
  readonly index: QueryIndex;
  /** Registers a GET route; every request first makes sure the index still describes its ledger. */
  readonly router: { get(pattern: string, handler: (ctx: RequestContext) => Reply, options?: RouteOptions): unknown };
  /** The round the index has reached. */
  cur(): bigint;
  /** The header of an indexed round. */
  header(round: bigint): NonNullable<ReturnType<QueryIndex['txns']['header']>>;
  /** Top-level transactions as the service renders them. */
  txnsJson(roots: TxnEntry[]): Json[];
  /** Rejects a `round` parameter beyond the current round. */
  checkRound(round: bigint | undefined): void;
  /** One page of a transaction search, newest first when `descending`. */
  txnSearch(ctx: RequestContext, f: TxnFilter, descending: boolean): Reply;
  /** Id-ordered entity listings (applications, assets). */
  entityListing<R extends { id: bigint; creator: Uint8Array; history: { at(r?: bigint): unknown } }>(
    q: QueryParams,
    kind: 'applications' | 'assets',
    idParam: string,
    order: readonly bigint[],
    get: (id: bigint) => R | undefined,
    render: (r: R) => Json | undefined,
    extra?: (r: R) => boolean,
  ): { out: Json[]; next: string | undefined };
}

/** The context the route modules register their routes with, over `inner`. */
export function queryRoutes(index: QueryIndex, inner: Router): QueryRoutes {
  // Every operation first makes sure the index still describes the ledger it follows.
  const router = {
    get(pattern: string, handler: (ctx: RequestContext) => Reply, options?: { public?: boolean }) {
      inner.get(
        pattern,
        (ctx) => {
          index.refresh();
          return handler(ctx);
        },
        options,
      );
      return router;
    },
  };
  const cur = () => index.latestRound;
  const header = (round: bigint) => index.txns.header(round)!;
  const txnsJson = (roots: TxnEntry[]) => roots.map((r) => transactionJson(r, header(r.round)));

  const checkRound = (round: bigint | undefined) => {
    if (round !== undefined && round > cur()) throw new BadRequestError(`requested round ${round} is newer than the current round ${cur()}`);
  };

  const txnSearch = (ctx: RequestContext, f: TxnFilter, descending: boolean): Reply => {
    const q = new QueryParams(ctx.query);
    const limit = q.limit('transactions');
    const nextText = q.string('next');
    const after = nextText !== undefined ? decodeTxnToken(nextText) : undefined;
    const page = index.txns.search(f, { descending, limit, ...(after ? { after } : {}) });
    return paged({ 'current-round': num(cur()), transactions: txnsJson(page.roots) }, page.next ? encodeTxnToken(page.next) : undefined);
  };

  /** Id-ordered entity listings (applications, assets). */
  const entityListing: QueryRoutes['entityListing'] = (q, kind, idParam, order, get, render, extra) => {
    const limit = q.limit(kind);
    const only = q.uint(idParam);
    const creatorText = q.string('creator');
    const creator = creatorText !== undefined ? parseAddressParam(creatorText, 'creator') : undefined;
    const includeAll = q.bool('include-all') ?? false;
    const nextText = q.string('next');
    const after = nextText !== undefined ? decodeIdToken(nextText) : undefined;
    const out: Json[] = [];
    let last: bigint | undefined;
    const consider = (id: bigint): boolean => {
      const r = get(id);
      if (!r) return false;
      if (creator && !bytesEqual(r.creator, creator)) return false;
      if (r.history.at() === undefined && !includeAll) return false;
      if (extra && !extra(r)) return false;
      const j = render(r);
      if (!j) return false;
      out.push(j);
      last = id;
      return true;
    };
    if (only !== undefined) {
      if (after === undefined || only > after) consider(only);
    } else {
      for (let i = after === undefined ? 0 : upperBound(order, after); i < order.length && out.length < limit; i++) consider(order[i]!);
    }
    return { out, next: last === undefined ? undefined : String(last) };
  };

  return { index, router, cur, header, txnsJson, checkRound, txnSearch, entityListing };
}

/** Runs one parameter's parse; a bad value adds its message to `errors` (all bad parameters are reported together). */
function collectParseError(errors: string[], parse: () => unknown): void {
  try {
    parse();
  } catch (e) {
    errors.push((e as Error).message);
  }
}
