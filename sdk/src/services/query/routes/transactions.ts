// The query service's transaction routes: the search and one transaction by id.
import { NotFoundError } from '../../http/errors.js';
import { QueryParams, parseTxidParam } from '../params.js';
import { transactionJson } from '../render.js';
import { num } from '../json-number.js';
import { MSG, jsonReply, txnFilter, type QueryRoutes } from './shared.js';

/** Routes 20–21 of query-service.md: transactions. */
export function transactionRoutes(r: QueryRoutes): void {
  const { index, router, cur, header, txnSearch } = r;
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
    return jsonReply({ 'current-round': num(cur()), transaction: transactionJson(e, header(e.round)) });
  });
}
