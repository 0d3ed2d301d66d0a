// The query service's account routes: /v2/accounts and the per-account listings (local states,
// holdings, created apps and assets, transactions), at the current round or a past one.
import { encodeAddress } from '../../../encoding/address.js';
import { bytesEqual } from '../../../encoding/bytes.js';
import { toHex } from '../../../encoding/hex.js';
import { NotFoundError } from '../../http/errors.js';
import type { RequestContext } from '../../http/types.js';
import { QueryParams, parseAddressParam } from '../params.js';
import { accountBaseJson, appJson, assetJson, holdingJson, localStateJson } from '../render.js';
import type { AccountRec } from '../state-index.js';
import { decodeIdToken } from '../tokens.js';
import { MSG, paged, jsonReply, parseExclude, pathAddress, txnFilter, upperBound, type Exclude, type Json, type QueryRoutes } from './shared.js';

/** Routes 2–8 of query-service.md: accounts. */
export function accountRoutes(r: QueryRoutes): void {
  const { index, router, cur, checkRound, txnSearch } = r;
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
  const idListing = (
    ctx: RequestContext,
    idParam: string,
    ids: (rec: AccountRec) => Iterable<bigint>,
    limitKind: 'applications' | 'assets' | 'balances',
    render: (rec: AccountRec, id: bigint, includeAll: boolean) => Json | undefined,
  ) => {
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
    const { out, next } = idListing(
      ctx,
      'application-id',
      (r) => r.locals,
      'applications',
      (rec, id, all) => {
        const l = index.state.local(rec.hex, id);
        if (!l || (l.history.at() === undefined && !all)) return undefined;
        return localStateJson(l, localSchema(id));
      },
    );
    return paged({ 'apps-local-states': out, 'current-round': cur() }, next);
  });

  // 5
  router.get('/v2/accounts/:account-id/assets', (ctx) => {
    const { out, next } = idListing(
      ctx,
      'asset-id',
      (r) => r.assets,
      'balances',
      (rec, id, all) => {
        const h = index.state.holding(rec.hex, id);
        if (!h || (h.history.at() === undefined && !all)) return undefined;
        return holdingJson(h);
      },
    );
    return paged({ assets: out, 'current-round': cur() }, next);
  });

  // 6
  router.get('/v2/accounts/:account-id/created-applications', (ctx) => {
    const { out, next } = idListing(
      ctx,
      'application-id',
      (r) => r.createdApps,
      'applications',
      (_rec, id, all) => {
        const a = index.state.apps.get(id);
        if (!a || (a.history.at() === undefined && !all)) return undefined;
        return appJson(a);
      },
    );
    return paged({ applications: out, 'current-round': cur() }, next);
  });

  // 7
  router.get('/v2/accounts/:account-id/created-assets', (ctx) => {
    const { out, next } = idListing(
      ctx,
      'asset-id',
      (r) => r.createdAssets,
      'assets',
      (_rec, id, all) => {
        const a = index.state.assets.get(id);
        if (!a || (a.history.at() === undefined && !all)) return undefined;
        return assetJson(a);
      },
    );
    return paged({ assets: out, 'current-round': cur() }, next);
  });

  // 8
  router.get('/v2/accounts/:account-id/transactions', (ctx) => {
    const a = pathAddress(ctx);
    const f = txnFilter(new QueryParams(ctx.query), { address: a.bytes }, false);
    return txnSearch(ctx, f, true);
  });
}
