// The query service's block routes: block headers by round and time, and one block with its
// transactions.
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { QueryParams, parseAddressParam } from '../params.js';
import { blockJson, transactionJson } from '../render.js';
import { decodeRoundToken, encodeRoundToken } from '../tokens.js';
import { MSG, paged, jsonReply, pathId, roundFilters, type Json, type QueryRoutes } from './shared.js';

/** Routes 18–19 of query-service.md: blocks. */
export function blockRoutes(r: QueryRoutes): void {
  const { index, router, cur } = r;
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
    let [lo, hi] = [index.txns.firstRound, index.latestRound];
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
}
