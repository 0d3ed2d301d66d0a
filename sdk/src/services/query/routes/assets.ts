// The query service's asset routes: the listing (by name and unit too), one asset, its holders and
// its transactions.
import { encodeAddress } from '../../../encoding/address.js';
import { toHex } from '../../../encoding/hex.js';
import { NotFoundError } from '../../http/errors.js';
import { QueryParams, parseAddressParam } from '../params.js';
import { assetJson, miniHoldingJson } from '../render.js';
import { MSG, paged, jsonReply, pathId, txnFilter, upperBound, type Json, type QueryRoutes } from './shared.js';

/** Routes 14–17 of query-service.md: assets. */
export function assetRoutes(r: QueryRoutes): void {
  const { index, router, cur, txnSearch, entityListing } = r;
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
}
