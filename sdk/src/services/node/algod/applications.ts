import { toBase64 } from '../../../encoding/base64.js';
import { compareBytes } from '../../../encoding/bytes.js';
import { startsWith } from '../../../abi/bytes-util.js';
import type { Ledger } from '../../../ledger/ledger.js';
import { BadRequestError, HttpError, NotFoundError } from '../../http/errors.js';
import { jsonReply } from '../../http/reply.js';
import { appJson, assetJson, type AlgodJson } from './views.js';
import { ALGOD_ERRORS, uintParam, pathUint, JSON_ONLY, R } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';
import { AppCallBytesError, appCallBytes, boxNameParam } from './app-call-bytes.js';

/** The node's default `MaxAPIBoxPerApplication`: the most box names one answer holds. */
export const MAX_API_BOX_PER_APPLICATION = 100000n;
/** What the node reads at most for one page of boxes: names (as stored keys, 11 bytes longer) and values. */
export const MAX_BOX_FETCH_BYTES = 1_000_000;
/** Length of the node's box key before the name (`"bx:"` and the app id). */
const BOX_KEY_PREFIX = 11;

/** The node's unpaged listing: every name, or its "Result limit exceeded" when `max` (or its own cap) is below the count. */
function legacyBoxNames(ledger: Ledger, id: bigint, requested: bigint): Uint8Array[] {
  const names = ledger.boxNames(id);
  const cap = MAX_API_BOX_PER_APPLICATION;
  // The node asks one more than it may return, to tell "exactly the cap" from "more".
  const most = requested === 0n || requested > cap ? cap + 1n : requested;
  const total = BigInt(names.length);
  if (total > most) throw new HttpError(400, 'Result limit exceeded', { max: requested, 'max-api-box-per-application': cap, 'total-boxes': total });
  return names;
}

/** A name given as `encoding:value` in `next` or `prefix`, or the node's 400 with its wording. */
function appCallBytesParam(raw: string, what: 'invalid next token' | 'invalid prefix'): Uint8Array {
  try {
    return appCallBytes(raw);
  } catch (e) {
    if (e instanceof AppCallBytesError) throw new BadRequestError(`${what}: ${e.message}`);
    throw e;
  }
}

/**
 * One page of the node's paged box listing: names ascending after `next` and under `prefix`, at
 * most `limit` (0 or above the node's cap: the cap) and about `MAX_BOX_FETCH_BYTES` (always at
 * least one), with values when asked, the round read at, and `next-token` (the page's last name)
 * when more follow.
 */
function boxesPage(
  ledger: Ledger,
  id: bigint,
  q: { limit: bigint; next: string | null; prefix: string | null; includeValues: boolean; round: bigint },
): AlgodJson {
  const limit = q.limit === 0n || q.limit > MAX_API_BOX_PER_APPLICATION ? MAX_API_BOX_PER_APPLICATION : q.limit;
  const after = q.next ? appCallBytesParam(q.next, 'invalid next token') : undefined;
  const prefix = q.prefix ? appCallBytesParam(q.prefix, 'invalid prefix') : undefined;
  // A fork holds only the boxes it has read or written of an app that existed before it: a page of
  // them would call the others absent. Apps made on the fork (ids past the remote's counter) are whole.
  const fork = ledger.fork;
  if (fork && id <= fork.head.txnCounter) {
    throw new BadRequestError(
      `a fork holds only the boxes it has read or written of app ${id} (made before the fork), so it does not page them; list them on the remote ${fork.head.url}`,
    );
  }
  const all = ledger.boxesAt(id, q.round);
  if (!all) throw new BadRequestError(ALGOD_ERRORS.roundTooOld);
  const matching = [...all.values()]
    .filter((b) => (!prefix || startsWith(b.name, prefix)) && (!after || compareBytes(b.name, after) > 0))
    .sort((x, y) => compareBytes(x.name, y.name));
  let bytes = 0;
  let take = matching.length;
  for (let i = 0; i < matching.length; i++) {
    const b = matching[i]!;
    const size = BOX_KEY_PREFIX + b.name.length + (q.includeValues ? b.value.length : 0);
    if (i > 0 && bytes + size > MAX_BOX_FETCH_BYTES) {
      take = i;
      break;
    }
    bytes += size;
    if (BigInt(i + 1) >= limit) {
      take = i + 1;
      break;
    }
  }
  const page = matching.slice(0, take);
  const o: AlgodJson = { boxes: page.map((b) => (q.includeValues ? { name: b.name, value: b.value } : { name: b.name })) };
  if (take < matching.length && page.length > 0) o['next-token'] = `b64:${toBase64(page[page.length - 1]!.name)}`;
  o.round = q.round;
  return o;
}

/** Applications with their boxes, and assets. */
export function applicationRoutes(_options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'GetApplicationByID',
      method: 'GET',
      path: '/v2/applications/{application-id}',
      summary: 'Get application information.',
      params: [{ name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' }],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'Application Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const app = node.ledger.app(pathUint(ctx, 'application-id'));
        if (!app) throw new NotFoundError(ALGOD_ERRORS.appDoesNotExist);
        return jsonReply(appJson(app));
      },
    },
    {
      operationId: 'GetApplicationBoxes',
      method: 'GET',
      path: '/v2/applications/{application-id}/boxes',
      summary: 'Get all box names for a given application.',
      params: [
        { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' },
        {
          name: 'max',
          in: 'query',
          type: 'integer',
          format: 'uint64',
          description: 'Max number of box names to return. If max is not set, or max == 0, returns all box-names.',
        },
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of boxes to return per page.' },
        {
          name: 'next',
          in: 'query',
          type: 'string',
          description: "A box name, in the goal app call arg form 'encoding:value': results start after it. Use the next-token from a previous response.",
        },
        {
          name: 'prefix',
          in: 'query',
          type: 'string',
          description: "A box name prefix, in the goal app call arg form 'encoding:value': only boxes whose names start with it are returned.",
        },
        { name: 'include', in: 'query', type: 'string', description: 'values: also return each box value. Comma-separated; unknown items are ignored.' },
        {
          name: 'round',
          in: 'query',
          type: 'integer',
          format: 'uint64',
          description: "Return box data from the given round. The round must be within the node's available range.",
        },
      ],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const id = pathUint(ctx, 'application-id');
        // Parameters are checked in the order the node binds them, before anything else.
        const max = uintParam(ctx.query.get('max'), 'max') ?? 0n;
        const limitRaw = uintParam(ctx.query.get('limit'), 'limit');
        const next = ctx.query.get('next');
        const prefixRaw = ctx.query.get('prefix');
        const include = ctx.query.getAll('include');
        const roundRaw = uintParam(ctx.query.get('round'), 'round');
        const latest = node.ledger.latestRound;
        if (roundRaw !== undefined && roundRaw > latest) throw new BadRequestError(ALGOD_ERRORS.roundGreaterThanLatest);
        const includeValues = include.flatMap((v) => v.split(',')).includes('values');
        const limit = limitRaw ?? 0n;
        if (limit === 0n && next === null && !includeValues && (prefixRaw === null || prefixRaw === '') && roundRaw === undefined) {
          return jsonReply({ boxes: legacyBoxNames(node.ledger, id, max).map((name) => ({ name })) });
        }
        return jsonReply(boxesPage(node.ledger, id, { limit, next, prefix: prefixRaw, includeValues, round: roundRaw ?? latest }));
      },
    },
    {
      operationId: 'GetApplicationBoxByName',
      method: 'GET',
      path: '/v2/applications/{application-id}/box',
      summary: 'Get box information for a given application.',
      params: [
        { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' },
        {
          name: 'name',
          in: 'query',
          type: 'string',
          required: true,
          description: 'A box name, in the goal app call arg form encoding:value (str:, b64:, int:, addr:)',
        },
      ],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'Box Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const id = pathUint(ctx, 'application-id');
        const name = boxNameParam(ctx.query.get('name'));
        const value = node.ledger.box(id, name);
        if (value === undefined) throw new NotFoundError(ALGOD_ERRORS.boxDoesNotExist);
        return jsonReply({ name, round: node.ledger.latestRound, value });
      },
    },
    {
      operationId: 'GetAssetByID',
      method: 'GET',
      path: '/v2/assets/{asset-id}',
      summary: 'Get asset information.',
      params: [{ name: 'asset-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An asset identifier' }],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'Application Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const asset = node.ledger.asset(pathUint(ctx, 'asset-id'));
        if (!asset) throw new NotFoundError(ALGOD_ERRORS.assetDoesNotExist);
        return jsonReply(assetJson(asset));
      },
    },
  ];
}
