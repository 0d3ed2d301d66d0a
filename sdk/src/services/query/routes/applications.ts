// The query service's application routes: the listing, one application, its boxes and its logs.
import { toBase64 } from '../../../encoding/base64.js';
import { toHex } from '../../../encoding/hex.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { BoxNameError, parseBoxName } from '../box-name.js';
import { QueryParams, parseAddressParam, parseTxidParam } from '../params.js';
import { appJson } from '../render.js';
import { boxToken, decodeTxnToken, encodeTxnToken } from '../tokens.js';
import { MSG, paged, jsonReply, pathId, roundFilters, upperBound, type Json, type QueryRoutes } from './shared.js';

/** Routes 9–13 of query-service.md: applications. */
export function applicationRoutes(r: QueryRoutes): void {
  const { index, router, cur, entityListing } = r;
  // 9
  router.get('/v2/applications', (ctx) => {
    const q = new QueryParams(ctx.query);
    const { out, next } = entityListing(
      q,
      'applications',
      'application-id',
      index.state.appOrder,
      (id) => index.state.apps.get(id),
      (r) => appJson(r),
    );
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
}
