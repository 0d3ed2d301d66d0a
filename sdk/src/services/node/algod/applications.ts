import { toBase64 } from '../../../encoding/base64.js';
import { compareBytes } from '../../../encoding/bytes.js';
import { startsWith } from '../../../abi/bytes-util.js';
import { HttpError, NotFoundError } from '../../http/errors.js';
import { jsonReply } from '../../http/reply.js';
import { appJson, assetJson, type AlgodJson } from './views.js';
import { ALGOD_ERRORS, uintParam, pathUint, boxNameParam, JSON_ONLY, R } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

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
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of boxes to return (paged form).' },
        { name: 'next', in: 'query', type: 'string', description: 'A box name (b64:…) to continue after (paged form).' },
        { name: 'prefix', in: 'query', type: 'string', description: 'Only names starting with this encoded value (paged form).' },
        { name: 'include', in: 'query', type: 'string', description: 'values: also return each box value (paged form).' },
      ],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const id = pathUint(ctx, 'application-id');
        const max = uintParam(ctx.query.get('max'), 'max') ?? 0n;
        const limit = uintParam(ctx.query.get('limit'), 'limit') ?? 0n;
        const next = ctx.query.get('next');
        const prefixRaw = ctx.query.get('prefix');
        const includeValues = ctx.query
          .getAll('include')
          .flatMap((v) => v.split(','))
          .includes('values');
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
        const o: AlgodJson = {
          boxes: page.map((name) => (includeValues ? { name, value: node.ledger.box(id, name) ?? new Uint8Array() } : { name })),
          round: node.ledger.latestRound,
        };
        if (names.length > page.length) o['next-token'] = `b64:${toBase64(page[page.length - 1]!)}`;
        return jsonReply(o);
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
