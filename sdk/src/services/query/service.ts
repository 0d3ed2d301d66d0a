import { ZERO_ADDRESS_STRING, encodeAddress } from '../../encoding/address.js';
import { toBase64 } from '../../encoding/base64.js';
import { bytesEqual } from '../../encoding/bytes.js';
import { toHex } from '../../encoding/hex.js';
import type { Ledger } from '../../ledger/ledger.js';
import { TRANSACTION_TYPES, type TransactionType } from '../../txn/types.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { QUERY_SERVICE_TOKEN_HEADER, queryServiceErrors } from '../http/presets.js';
import { textReply } from '../http/reply.js';
import { Router } from '../http/router.js';
import { serve, type RunningService, type ServeOptions, type ServiceDefinition } from '../http/server.js';
import type { Reply, RequestContext } from '../http/types.js';
import { BoxNameError, parseBoxName } from './box-name.js';
import { LIMITS, QueryParams, parseAddressParam, parseBase64Param, parseTxidParam, pathUint, MAX_SEARCHABLE, TOO_LARGE_MESSAGE } from './params.js';
import { QueryIndex } from './query-index.js';
import { accountBaseJson, appJson, assetJson, blockJson, holdingJson, localStateJson, miniHoldingJson, transactionJson } from './render.js';
import type { AccountRec } from './state-index.js';
import { boxToken, decodeIdToken, decodeRoundToken, decodeTxnToken, encodeRoundToken, encodeTxnToken } from './tokens.js';
import type { AddressRole, SigType, TxnEntry, TxnFilter } from './txn-index.js';

type Json = Record<string, unknown>;

/** The version the query service reports. */
export const QUERY_SERVICE_VERSION = '3.0.0-tealworks';

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
const EXCLUDES = ['all', 'assets', 'created-assets', 'apps-local-state', 'created-apps', 'none'] as const;
type Exclude = (typeof EXCLUDES)[number];

/** How to start the query service: the ledger it indexes and its token. */
export interface QueryServiceOptions {
  /** Followed through its change feed unless `index` is given. */
  ledger?: Ledger;
  /** An index fed by the caller (the devnet can share one). */
  index?: QueryIndex;
  /** API token; omitted = no token required (the reference service's token is optional too). */
  token?: string;
  version?: string;
  /**
   * Index the followed ledger's history at the first request (or first new block) rather than now:
   * a devnet opening a long persisted chain answers at once. Default false.
   */
  lazyIndex?: boolean;
}

/** The query service definition with its index. */
export interface QueryServiceDefinition extends ServiceDefinition {
  readonly index: QueryIndex;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const BIG_MARK = '\u0000n:';

/**
 * JSON for a reply body. The native serializer is several times faster than the portable
 * bigint-aware one on 1000-transaction pages; the few integers beyond 2^53 travel as marked
 * strings and are unquoted afterwards (no rendered string can hold a NUL character: names are
 * shown only when printable, everything else is base64 or an address).
 */
function jsonReply(value: unknown): Reply {
  let big = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    if (v <= MAX_SAFE && v >= -MAX_SAFE) return Number(v);
    big = true;
    return BIG_MARK + v.toString();
  });
  return textReply((big ? text.replace(/"\\u0000n:(-?\d+)"/g, '$1') : text) + '\n', 200, 'application/json');
}

const paged = (body: Json, next: string | undefined): Reply => jsonReply(next === undefined ? body : { ...body, 'next-token': next });

/** Round and time filters shared by the transaction searches and the block-header listing. */
function roundFilters(q: QueryParams, errors: string[]): Pick<TxnFilter, 'round' | 'minRound' | 'maxRound' | 'afterTime' | 'beforeTime'> {
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

function txnFilter(q: QueryParams, fixed: { address?: Uint8Array; assetId?: bigint }, allowAddress: boolean): TxnFilter {
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
  if (note !== undefined) {
    try {
      f.notePrefix = parseBase64Param(note, 'note-prefix');
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
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
  if (txid !== undefined) {
    try {
      f.txid = parseTxidParam(txid);
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  const group = q.string('group-id');
  if (group !== undefined) {
    try {
      const g = parseBase64Param(group, 'group-id');
      if (g.length !== 32) errors.push("bad length for group ID: 'group-id'");
      else f.groupId = g;
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  if (allowAddress) {
    const address = q.string('address');
    if (address !== undefined) {
      try {
        f.address = parseAddressParam(address, 'address');
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
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

function parseExclude(q: QueryParams): Set<Exclude> {
  const list = q.list('exclude') ?? [];
  const out = new Set<Exclude>();
  for (const v of list) {
    if (!(EXCLUDES as readonly string[]).includes(v)) throw new BadRequestError(`Invalid format for parameter exclude: unknown value '${v}' [valid values: ${EXCLUDES.join(', ')}]`);
    out.add(v as Exclude);
  }
  if (out.has('all')) for (const v of ['assets', 'created-assets', 'apps-local-state', 'created-apps'] as const) out.add(v);
  return out;
}

function pathAddress(ctx: RequestContext): { bytes: Uint8Array; hex: string; text: string } {
  const text = ctx.params['account-id']!;
  const bytes = parseAddressParam(text, 'account-id');
  return { bytes, hex: toHex(bytes), text };
}

function pathId(ctx: RequestContext, name: string): bigint {
  const id = pathUint(ctx.params[name]!, name);
  if (id > MAX_SEARCHABLE) throw new NotFoundError(TOO_LARGE_MESSAGE);
  return id;
}

/** Index of the first element greater than `key` in an ascending array. */
function upperBound<T>(arr: readonly T[], key: T): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The query service's router over an index (query-service.md). */
export function queryRouter(index: QueryIndex, version = QUERY_SERVICE_VERSION): Router {
  const inner = new Router();
  // Every operation first makes sure the index still describes the ledger it follows.
  const router = {
    get(pattern: string, handler: (ctx: RequestContext) => Reply, options?: { public?: boolean }) {
      inner.get(pattern, (ctx) => {
        index.refresh();
        return handler(ctx);
      }, options);
      return router;
    },
  };
  const cur = () => index.currentRound;
  const header = (round: bigint) => index.txns.header(round)!;
  const txnsJson = (roots: TxnEntry[]) => roots.map((r) => transactionJson(r, header(r.round)));

  const checkRound = (round: bigint | undefined) => {
    if (round !== undefined && round > cur()) throw new BadRequestError(`requested round ${round} is newer than the current round ${cur()}`);
  };

  /** Full account record at a round, nested lists as asked. */
  const accountJson = (rec: AccountRec, round: bigint | undefined, includeAll: boolean, exclude: Set<Exclude>): Json | undefined => {
    const snap = rec.history.at(round);
    if (!snap && !includeAll) return undefined;
    if (!rec.history.existedBy(round)) return undefined;
    const o = accountBaseJson(rec, snap, round ?? cur());
    if (!exclude.has('assets')) {
      const list: Json[] = [];
      for (const id of [...rec.assets].sort((a, b) => (a < b ? -1 : 1))) {
        const h = index.state.holding(rec.hex, id);
        if (!h || !h.history.existedBy(round)) continue;
        if (h.history.at(round) === undefined && !includeAll) continue;
        const j = holdingJson(h, round);
        if (j) list.push(j);
      }
      if (list.length) o.assets = list;
    }
    if (!exclude.has('created-assets')) {
      const list: Json[] = [];
      for (const id of [...rec.createdAssets].sort((a, b) => (a < b ? -1 : 1))) {
        const a = index.state.assets.get(id);
        if (!a || !a.history.existedBy(round) || (a.history.at(round) === undefined && !includeAll)) continue;
        const j = assetJson(a, round);
        if (j) list.push(j);
      }
      if (list.length) o['created-assets'] = list;
    }
    if (!exclude.has('apps-local-state')) {
      const list: Json[] = [];
      for (const id of [...rec.locals].sort((a, b) => (a < b ? -1 : 1))) {
        const l = index.state.local(rec.hex, id);
        if (!l || !l.history.existedBy(round) || (l.history.at(round) === undefined && !includeAll)) continue;
        list.push(localStateJson(l, localSchema(id), round));
      }
      if (list.length) o['apps-local-state'] = list;
    }
    if (!exclude.has('created-apps')) {
      const list: Json[] = [];
      for (const id of [...rec.createdApps].sort((a, b) => (a < b ? -1 : 1))) {
        const a = index.state.apps.get(id);
        if (!a || !a.history.existedBy(round) || (a.history.at(round) === undefined && !includeAll)) continue;
        const j = appJson(a, round);
        if (j) list.push(j);
      }
      if (list.length) o['created-apps'] = list;
    }
    return o;
  };

  const localSchema = (appId: bigint): { nui: bigint; nbs: bigint } => {
    const app = index.state.apps.get(appId);
    const p = app ? (app.history.at() ?? app.history.values.findLast((v) => v !== undefined)) : undefined;
    return { nui: p?.params.localNumUint ?? 0n, nbs: p?.params.localNumByteSlice ?? 0n };
  };

  const accountOr404 = (ctx: RequestContext): AccountRec => {
    const a = pathAddress(ctx);
    const rec = index.state.account(a.hex);
    if (!rec) throw new NotFoundError(`${MSG.accountNotFound}: ${a.text}`);
    return rec;
  };

  // 1
  router.get(
    '/health',
    () => jsonReply({ 'db-available': true, 'is-migrating': false, message: String(cur()), round: cur(), version }),
    { public: true },
  );

  // 2
  router.get('/v2/accounts', (ctx) => {
    const q = new QueryParams(ctx.query);
    const limit = q.limit('accounts');
    const assetId = q.uint('asset-id');
    const appId = q.uint('application-id');
    const authText = q.string('auth-addr');
    const auth = authText !== undefined ? parseAddressParam(authText, 'auth-addr') : undefined;
    const gt = q.uint('currency-greater-than');
    const lt = q.uint('currency-less-than');
    const exclude = parseExclude(q);
    const includeAll = q.bool('include-all') ?? false;
    const round = q.uint('round');
    checkRound(round);
    const nextText = q.string('next');
    const after = nextText !== undefined ? toHex(parseAddressParam(nextText, 'next')) : undefined;
    let order: readonly string[];
    if (assetId !== undefined) order = index.state.holderOrder.get(assetId) ?? [];
    else if (appId !== undefined) {
      const app = index.state.apps.get(appId);
      // A deleted application (at the asked round) lists no accounts unless include-all.
      if (!app || (!includeAll && app.history.at(round) === undefined)) order = [];
      else {
        const set = new Set(index.state.optedIn.get(appId) ?? []);
        set.add(toHex(app.creator));
        order = [...set].sort();
      }
    } else if (auth) order = [...(index.state.byAuth.get(toHex(auth)) ?? [])].sort();
    else order = index.state.accountOrder;
    const out: Json[] = [];
    let last: string | undefined;
    for (let i = after === undefined ? 0 : upperBound(order, after); i < order.length && out.length < limit; i++) {
      const rec = index.state.account(order[i]!);
      if (!rec) continue;
      const snap = rec.history.at(round);
      if (!rec.history.existedBy(round) || (!snap && !includeAll)) continue;
      if (auth && !(snap?.authAddr && bytesEqual(snap.authAddr, auth))) continue;
      if (appId !== undefined && assetId !== undefined) {
        if (!index.state.local(rec.hex, appId) && !(index.state.apps.get(appId) && bytesEqual(index.state.apps.get(appId)!.creator, rec.address))) continue;
      }
      let amount = snap?.balance ?? 0n;
      if (assetId !== undefined) {
        const h = index.state.holding(rec.hex, assetId);
        if (!h || !h.history.existedBy(round)) continue;
        const hv = h.history.at(round);
        if (!hv && !includeAll) continue;
        amount = hv?.amount ?? 0n;
      } else if (appId !== undefined) {
        const l = index.state.local(rec.hex, appId);
        const creator = index.state.apps.get(appId);
        const isCreator = creator !== undefined && bytesEqual(creator.creator, rec.address);
        if (!isCreator && (!l || (l.history.at(round) === undefined && !includeAll))) continue;
      }
      if (gt !== undefined && !(amount > gt)) continue;
      if (lt !== undefined && !(amount < lt)) continue;
      const j = accountJson(rec, round, includeAll, exclude);
      if (!j) continue;
      out.push(j);
      last = rec.hex;
    }
    const next = last !== undefined ? encodeAddress(index.state.account(last)!.address) : undefined;
    return paged({ accounts: out, 'current-round': cur() }, next);
  });

  // 3
  router.get('/v2/accounts/:account-id', (ctx) => {
    const q = new QueryParams(ctx.query);
    const exclude = parseExclude(q);
    const includeAll = q.bool('include-all') ?? false;
    const round = q.uint('round');
    checkRound(round);
    const a = pathAddress(ctx);
    const rec = index.state.account(a.hex);
    const j = rec ? accountJson(rec, round, includeAll, exclude) : undefined;
    if (!j) throw new NotFoundError(`${MSG.accountNotFound}: ${a.text}`);
    return jsonReply({ account: j, 'current-round': cur() });
  });

  /** Per-account listings keyed by id: filter, include-all, page after the last id. */
  const idListing = (ctx: RequestContext, idParam: string, ids: (rec: AccountRec) => Iterable<bigint>, limitKind: 'applications' | 'assets' | 'balances', render: (rec: AccountRec, id: bigint, includeAll: boolean) => Json | undefined) => {
    const q = new QueryParams(ctx.query);
    const limit = q.limit(limitKind);
    const only = q.uint(idParam);
    const includeAll = q.bool('include-all') ?? false;
    const nextText = q.string('next');
    const after = nextText !== undefined ? decodeIdToken(nextText) : undefined;
    const rec = accountOr404(ctx);
    const sorted = [...ids(rec)].sort((a, b) => (a < b ? -1 : 1));
    const out: Json[] = [];
    let last: bigint | undefined;
    for (const id of sorted) {
      if (out.length >= limit) break;
      if (after !== undefined && id <= after) continue;
      if (only !== undefined && id !== only) continue;
      const j = render(rec, id, includeAll);
      if (!j) continue;
      out.push(j);
      last = id;
    }
    return { out, next: last === undefined ? undefined : String(last) };
  };

  // 4
  router.get('/v2/accounts/:account-id/apps-local-state', (ctx) => {
    const { out, next } = idListing(ctx, 'application-id', (r) => r.locals, 'applications', (rec, id, all) => {
      const l = index.state.local(rec.hex, id);
      if (!l || (l.history.at() === undefined && !all)) return undefined;
      return localStateJson(l, localSchema(id));
    });
    return paged({ 'apps-local-states': out, 'current-round': cur() }, next);
  });

  // 5
  router.get('/v2/accounts/:account-id/assets', (ctx) => {
    const { out, next } = idListing(ctx, 'asset-id', (r) => r.assets, 'balances', (rec, id, all) => {
      const h = index.state.holding(rec.hex, id);
      if (!h || (h.history.at() === undefined && !all)) return undefined;
      return holdingJson(h);
    });
    return paged({ assets: out, 'current-round': cur() }, next);
  });

  // 6
  router.get('/v2/accounts/:account-id/created-applications', (ctx) => {
    const { out, next } = idListing(ctx, 'application-id', (r) => r.createdApps, 'applications', (_rec, id, all) => {
      const a = index.state.apps.get(id);
      if (!a || (a.history.at() === undefined && !all)) return undefined;
      return appJson(a);
    });
    return paged({ applications: out, 'current-round': cur() }, next);
  });

  // 7
  router.get('/v2/accounts/:account-id/created-assets', (ctx) => {
    const { out, next } = idListing(ctx, 'asset-id', (r) => r.createdAssets, 'assets', (_rec, id, all) => {
      const a = index.state.assets.get(id);
      if (!a || (a.history.at() === undefined && !all)) return undefined;
      return assetJson(a);
    });
    return paged({ assets: out, 'current-round': cur() }, next);
  });

  const txnSearch = (ctx: RequestContext, f: TxnFilter, descending: boolean): Reply => {
    const q = new QueryParams(ctx.query);
    const limit = q.limit('transactions');
    const nextText = q.string('next');
    const after = nextText !== undefined ? decodeTxnToken(nextText) : undefined;
    const page = index.txns.search(f, { descending, limit, ...(after ? { after } : {}) });
    return paged({ 'current-round': cur(), transactions: txnsJson(page.roots) }, page.next ? encodeTxnToken(page.next) : undefined);
  };

  // 8
  router.get('/v2/accounts/:account-id/transactions', (ctx) => {
    const a = pathAddress(ctx);
    const f = txnFilter(new QueryParams(ctx.query), { address: a.bytes }, false);
    return txnSearch(ctx, f, true);
  });

  /** Id-ordered entity listings (applications, assets). */
  const entityListing = <R extends { id: bigint; creator: Uint8Array; history: { at(r?: bigint): unknown } }>(
    q: QueryParams,
    kind: 'applications' | 'assets',
    idParam: string,
    order: readonly bigint[],
    get: (id: bigint) => R | undefined,
    render: (r: R) => Json | undefined,
    extra?: (r: R) => boolean,
  ) => {
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

  // 9
  router.get('/v2/applications', (ctx) => {
    const q = new QueryParams(ctx.query);
    const { out, next } = entityListing(q, 'applications', 'application-id', index.state.appOrder, (id) => index.state.apps.get(id), (r) => appJson(r));
    return paged({ applications: out, 'current-round': cur() }, next);
  });

  // 10
  router.get('/v2/applications/:application-id', (ctx) => {
    const q = new QueryParams(ctx.query);
    const includeAll = q.bool('include-all') ?? false;
    const id = pathId(ctx, 'application-id');
    const rec = index.state.apps.get(id);
    if (!rec || (rec.history.at() === undefined && !includeAll)) throw new NotFoundError(`${MSG.appNotFound}: ${id}`);
    return jsonReply({ application: appJson(rec), 'current-round': cur() });
  });

  // 11
  router.get('/v2/applications/:application-id/box', (ctx) => {
    const q = new QueryParams(ctx.query);
    const id = pathId(ctx, 'application-id');
    const raw = q.string('name');
    if (raw === undefined) throw new BadRequestError('Query argument name is required, but not found');
    let name: Uint8Array;
    try {
      name = parseBoxName(raw);
    } catch (e) {
      const reason = e instanceof BoxNameError ? e.reason : 'invalid box name';
      throw new BadRequestError(`LookupApplicationBoxByIDAndName received illegal box name (${raw}): ${reason}`);
    }
    if (!index.state.apps.get(id)) throw new NotFoundError(`${MSG.appNotFound}: ${id}`);
    const box = index.state.boxes.get(id)?.get(toHex(name));
    if (!box) throw new NotFoundError(`${MSG.boxNotFound}: round=${cur()}, appid=${id}, boxName=${boxToken(name)}`);
    return jsonReply({ name: toBase64(box.name), round: cur(), value: toBase64(box.value) });
  });

  // 12
  router.get('/v2/applications/:application-id/boxes', (ctx) => {
    const q = new QueryParams(ctx.query);
    const id = pathId(ctx, 'application-id');
    const limit = q.limit('boxes');
    const nextText = q.string('next');
    let after: string | undefined;
    if (nextText !== undefined) {
      try {
        after = toHex(parseBoxName(nextText));
      } catch (e) {
        const reason = e instanceof BoxNameError ? e.reason : 'invalid token';
        throw new BadRequestError(`SearchForApplicationBoxes received illegal next token (${nextText}): ${reason}`);
      }
    }
    if (!index.state.apps.get(id)) throw new NotFoundError(`${MSG.appNotFound}: ${id}`);
    const names = index.state.boxNames(id);
    const boxes = index.state.boxes.get(id);
    const out: Json[] = [];
    let last: Uint8Array | undefined;
    for (let i = after === undefined ? 0 : upperBound(names, after); i < names.length && out.length < limit; i++) {
      const b = boxes!.get(names[i]!)!;
      out.push({ name: toBase64(b.name) });
      last = b.name;
    }
    const body: Json = { 'application-id': id, boxes: out, 'current-round': cur() };
    if (last) body['next-token'] = boxToken(last);
    return jsonReply(body);
  });

  // 13
  router.get('/v2/applications/:application-id/logs', (ctx) => {
    const q = new QueryParams(ctx.query);
    const id = pathId(ctx, 'application-id');
    const limit = q.limit('logs');
    const errors: string[] = [];
    const r = roundFilters(q, errors);
    if (errors.length) throw new BadRequestError(`invalid input: ${errors.join(', ')}`);
    const senderText = q.string('sender-address');
    const txidText = q.string('txid');
    const nextText = q.string('next');
    const f: { minRound?: bigint; maxRound?: bigint; sender?: Uint8Array; txid?: string } = {};
    if (r.minRound !== undefined) f.minRound = r.minRound;
    if (r.maxRound !== undefined) f.maxRound = r.maxRound;
    if (senderText !== undefined) f.sender = parseAddressParam(senderText, 'sender-address');
    if (txidText !== undefined) f.txid = parseTxidParam(txidText);
    const page = index.txns.logs(id, f, limit, nextText !== undefined ? decodeTxnToken(nextText) : undefined);
    const body: Json = {
      'application-id': id,
      'current-round': cur(),
      'log-data': page.rows.map((e) => ({ logs: e.ad.logs.map(toBase64), txid: index.txns.rootTxid(e) })),
    };
    if (page.next) body['next-token'] = encodeTxnToken(page.next);
    return jsonReply(body);
  });

  // 14
  router.get('/v2/assets', (ctx) => {
    const q = new QueryParams(ctx.query);
    const name = q.string('name');
    const unit = q.string('unit');
    const decoder = new TextDecoder();
    const same = (b: Uint8Array, s: string) => decoder.decode(b).toLowerCase() === s.toLowerCase();
    const { out, next } = entityListing(
      q,
      'assets',
      'asset-id',
      index.state.assetOrder,
      (id) => index.state.assets.get(id),
      (r) => assetJson(r),
      (r) => {
        if (name === undefined && unit === undefined) return true;
        const p = r.history.at() ?? r.history.values.findLast((v) => v !== undefined);
        if (!p) return false;
        return (name === undefined || same(p.name, name)) && (unit === undefined || same(p.unitName, unit));
      },
    );
    return paged({ assets: out, 'current-round': cur() }, next);
  });

  // 15
  router.get('/v2/assets/:asset-id', (ctx) => {
    const q = new QueryParams(ctx.query);
    const includeAll = q.bool('include-all') ?? false;
    const id = pathId(ctx, 'asset-id');
    const rec = index.state.assets.get(id);
    if (!rec || (rec.history.at() === undefined && !includeAll)) throw new NotFoundError(`${MSG.assetNotFound}: ${id}`);
    return jsonReply({ asset: assetJson(rec), 'current-round': cur() });
  });

  // 16
  router.get('/v2/assets/:asset-id/balances', (ctx) => {
    const q = new QueryParams(ctx.query);
    const id = pathId(ctx, 'asset-id');
    const limit = q.limit('balances');
    const gt = q.uint('currency-greater-than');
    const lt = q.uint('currency-less-than');
    const includeAll = q.bool('include-all') ?? false;
    const nextText = q.string('next');
    const after = nextText !== undefined ? toHex(parseAddressParam(nextText, 'next')) : undefined;
    const order = index.state.holderOrder.get(id) ?? [];
    const holders = index.state.holders.get(id);
    const out: Json[] = [];
    let last: Uint8Array | undefined;
    for (let i = after === undefined ? 0 : upperBound(order, after); i < order.length && out.length < limit; i++) {
      const h = holders!.get(order[i]!)!;
      const now = h.history.at();
      if (!now && !includeAll) continue;
      const amount = now?.amount ?? 0n;
      if (gt !== undefined && !(amount > gt)) continue;
      if (lt !== undefined && !(amount < lt)) continue;
      out.push(miniHoldingJson(h)!);
      last = h.address;
    }
    return paged({ balances: out, 'current-round': cur() }, last ? encodeAddress(last) : undefined);
  });

  // 17
  router.get('/v2/assets/:asset-id/transactions', (ctx) => {
    const id = pathId(ctx, 'asset-id');
    const f = txnFilter(new QueryParams(ctx.query), { assetId: id }, true);
    return txnSearch(ctx, f, false);
  });

  // 18
  router.get('/v2/block-headers', (ctx) => {
    const q = new QueryParams(ctx.query);
    const limit = q.limit('blockHeaders');
    const errors: string[] = [];
    const r = roundFilters(q, errors);
    if (errors.length) throw new BadRequestError(`invalid input: ${errors.join(', ')}`);
    const lists = ['absent', 'expired', 'proposers'].map((n) => q.list(n)?.map((a) => parseAddressParam(a, n)));
    const nextText = q.string('next');
    const afterRound = nextText !== undefined ? decodeRoundToken(nextText) : undefined;
    let [lo, hi] = [index.txns.firstRound, index.currentRound];
    if (r.minRound !== undefined && r.minRound > lo) lo = r.minRound;
    if (r.maxRound !== undefined && r.maxRound < hi) hi = r.maxRound;
    if (afterRound !== undefined && afterRound + 1n > lo) lo = afterRound + 1n;
    const out: Json[] = [];
    let last: bigint | undefined;
    // The devnet has no proposers and no participation updates, so those filters match nothing.
    const anyAddressFilter = lists.some((l) => l !== undefined && l.length > 0);
    for (let round = lo; round <= hi && out.length < limit && !anyAddressFilter; round++) {
      const h = index.txns.header(round);
      if (!h) break;
      const ts = Number(h.timestamp);
      if (r.afterTime !== undefined && !(ts > r.afterTime)) continue;
      if (r.beforeTime !== undefined && !(ts < r.beforeTime)) break;
      out.push(blockJson(h, undefined));
      last = round;
    }
    return paged({ blocks: out, 'current-round': cur() }, last !== undefined ? encodeRoundToken(last) : undefined);
  });

  // 19
  router.get('/v2/blocks/:round-number', (ctx) => {
    const q = new QueryParams(ctx.query);
    const headerOnly = q.bool('header-only') ?? false;
    const round = pathId(ctx, 'round-number');
    const block = index.txns.block(round);
    if (!block) throw new NotFoundError(`${MSG.blockNotFound}: ${round}`);
    let txns: Json[] | undefined;
    if (!headerOnly) {
      const start = index.txns.seqOf({ round, intra: 0 });
      txns = [];
      for (let i = 0, seq = start; i < block.txns.length; i++) {
        const e = index.txns.entries[seq]!;
        txns.push(transactionJson(e, block.header));
        seq += 1 + e.innerCount;
      }
    }
    return jsonReply(blockJson(block.header, txns));
  });

  // 20
  router.get('/v2/transactions', (ctx) => {
    const f = txnFilter(new QueryParams(ctx.query), {}, true);
    return txnSearch(ctx, f, f.address !== undefined);
  });

  // 21
  router.get('/v2/transactions/:txid', (ctx) => {
    const txid = parseTxidParam(ctx.params.txid!);
    const e = index.txns.byTxid(txid);
    if (!e) throw new NotFoundError(`${MSG.txnNotFound}: ${txid}`);
    return jsonReply({ 'current-round': cur(), transaction: transactionJson(e, header(e.round)) });
  });

  return inner;
}

/** The query service's definition, ready for `serve` or for mounting by the devnet. */
export function createQueryService(options: QueryServiceOptions = {}): QueryServiceDefinition {
  const owns = !options.index;
  const index = options.index ?? new QueryIndex();
  // The service refreshes the index before every request, so a lazy index is built by the first one.
  if (owns && options.ledger) index.attach(options.ledger, { lazy: options.lazyIndex === true });
  return {
    name: 'query',
    index,
    router: queryRouter(index, options.version),
    errors: queryServiceErrors,
    ...(options.token ? { auth: { header: QUERY_SERVICE_TOKEN_HEADER, tokens: [options.token], bearer: true } } : {}),
    onClose: () => {
      if (owns) index.detach();
    },
  };
}

/** A running query service. */
export interface RunningQueryService extends RunningService {
  readonly index: QueryIndex;
}

/** Starts the query service over a ledger; it indexes blocks as they commit. */
export async function startQueryService(options: QueryServiceOptions & ServeOptions): Promise<RunningQueryService> {
  const def = createQueryService(options);
  const s = await serve(def, options);
  return { name: s.name, host: s.host, port: s.port, url: s.url, server: s.server, index: def.index, close: () => s.close() };
}

export { LIMITS };
