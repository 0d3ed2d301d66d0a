import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { jsonReply, msgpackReply } from '../../http/reply.js';
import { accountJson, accountRecordMsgpack, appParamsJson, assetParamsJson, localStateJson, type AlgodJson } from './views.js';
import { ALGOD_ERRORS, resourcePage, pageOfIds, pathUint, addressParam, wireForm, reply, JSON_ONLY, BOTH, R, ADDRESS, FORMAT } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

/** An account, its assets and applications, one or paged. */
export function accountRoutes(_options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'AccountInformation',
      method: 'GET',
      path: '/v2/accounts/{address}',
      summary: 'Get account information.',
      params: [
        ADDRESS,
        { name: 'exclude', in: 'query', type: 'string', description: 'all, none, created-apps-params, created-assets-params (comma-separated)' },
        FORMAT,
      ],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const form = wireForm(ctx);
        const raw = ctx.query
          .getAll('exclude')
          .flatMap((v) => v.split(','))
          .map((v) => v.trim());
        const opts = { all: false, createdAppsParams: false, createdAssetsParams: false };
        if (raw.length === 1 && raw[0] === 'all') opts.all = true;
        else if (!(raw.length === 1 && (raw[0] === 'none' || raw[0] === ''))) {
          for (const v of raw) {
            if (v === 'created-apps-params') opts.createdAppsParams = true;
            else if (v === 'created-assets-params') opts.createdAssetsParams = true;
            else throw new BadRequestError(ALGOD_ERRORS.failedToParseExclude);
          }
        }
        // msgpack: the node's raw account record, not the JSON model.
        return form === 'msgpack' ? msgpackReply(accountRecordMsgpack(node.ledger, address)) : jsonReply(accountJson(node.ledger, address, opts));
      },
    },
    {
      operationId: 'AccountAssetInformation',
      method: 'GET',
      path: '/v2/accounts/{address}/assets/{asset-id}',
      summary: 'Get account information about a given asset.',
      params: [ADDRESS, { name: 'asset-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An asset identifier' }, FORMAT],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '404': 'Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const id = pathUint(ctx, 'asset-id');
        const form = wireForm(ctx);
        const a = node.ledger.account(address);
        const h = a?.holdings.get(id);
        const created = a?.createdAssets.has(id) ? node.ledger.asset(id) : undefined;
        if (!h && !created) throw new NotFoundError(ALGOD_ERRORS.accountAssetDoesNotExist);
        const o: AlgodJson = { round: node.ledger.latestRound };
        if (h) o['asset-holding'] = { amount: h.amount, 'asset-id': id, 'is-frozen': h.frozen };
        if (created) o['created-asset'] = assetParamsJson(created);
        return reply(o, form);
      },
    },
    {
      operationId: 'AccountAssetsInformation',
      method: 'GET',
      path: '/v2/accounts/{address}/assets',
      summary: 'Get a list of assets held by an account, inclusive of asset params.',
      params: [
        ADDRESS,
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of results to return.' },
        { name: 'next', in: 'query', type: 'string', description: 'The next page of results.' },
      ],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const { after, limit } = resourcePage(ctx, 'assets', 1000n);
        const a = node.ledger.account(address);
        const { page, next } = pageOfIds(a ? a.holdings.keys() : [], after, limit);
        const holdings = page.map((id) => {
          const h = a!.holdings.get(id)!;
          const asset = node.ledger.asset(id);
          const entry: AlgodJson = { 'asset-holding': { amount: h.amount, 'asset-id': id, 'is-frozen': h.frozen } };
          if (asset) entry['asset-params'] = assetParamsJson(asset);
          return entry;
        });
        const o: AlgodJson = { 'asset-holdings': holdings, round: node.ledger.latestRound };
        if (next !== undefined) o['next-token'] = next;
        return jsonReply(o);
      },
    },
    {
      operationId: 'AccountApplicationsInformation',
      method: 'GET',
      path: '/v2/accounts/{address}/applications',
      summary: 'Get a list of applications held by an account.',
      params: [
        ADDRESS,
        { name: 'limit', in: 'query', type: 'integer', format: 'uint64', description: 'Maximum number of results to return.' },
        { name: 'next', in: 'query', type: 'string', description: 'The next page of results (the last application ID of the previous page).' },
        { name: 'include', in: 'query', type: 'string', description: "`params` to include each created application's parameters (comma-separated list)." },
      ],
      produces: JSON_ONLY,
      responses: R({ '400': 'Malformed address', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const withParams = ctx.query.getAll('include').some((v) => v.split(',').some((x) => x.trim() === 'params'));
        // Without params the node's answers are small, so it allows 100 times more per page.
        const { after, limit } = resourcePage(ctx, 'applications', withParams ? 1000n : 100_000n);
        const a = node.ledger.account(address);
        // The account's application resources: apps it created and apps it holds local state in.
        const ids = new Set<bigint>(a ? [...a.createdApps, ...a.locals.keys()] : []);
        const { page, next } = pageOfIds(ids, after, limit);
        const resources = page.map((id) => {
          const entry: AlgodJson = { id };
          const app = node.ledger.app(id);
          if (!app) entry.deleted = true;
          else if (withParams && a!.createdApps.has(id)) entry.params = appParamsJson(app);
          const local = a!.locals.get(id);
          if (local) entry['app-local-state'] = localStateJson(node.ledger, id, local);
          return entry;
        });
        const o: AlgodJson = { 'application-resources': resources, round: node.ledger.latestRound };
        if (next !== undefined) o['next-token'] = next;
        return jsonReply(o);
      },
    },
    {
      operationId: 'AccountApplicationInformation',
      method: 'GET',
      path: '/v2/accounts/{address}/applications/{application-id}',
      summary: 'Get account information about a given app.',
      params: [
        ADDRESS,
        { name: 'application-id', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'An application identifier' },
        FORMAT,
      ],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '404': 'Not Found', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const address = addressParam(ctx);
        const id = pathUint(ctx, 'application-id');
        const form = wireForm(ctx);
        const a = node.ledger.account(address);
        const local = a?.locals.get(id);
        const created = a?.createdApps.has(id) ? node.ledger.app(id) : undefined;
        if (!local && !created) throw new NotFoundError(ALGOD_ERRORS.accountAppDoesNotExist);
        const o: AlgodJson = { round: node.ledger.latestRound };
        if (local) o['app-local-state'] = localStateJson(node.ledger, id, local);
        if (created) o['created-app'] = appParamsJson(created);
        return reply(o, form);
      },
    },
  ];
}
