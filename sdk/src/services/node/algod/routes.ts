import { jsonReply } from '../../http/reply.js';
import type { TokenChecker } from '../../http/auth.js';
import type { NodeEndpoint } from '../routes.js';
import { algodErrorReply } from './error-reply.js';
export { ALGOD_ERRORS, type AlgodRouteOptions } from './common.js';
import type { AlgodRoute, AlgodRouteOptions } from './common.js';
import { statusRoutes } from './status.js';
import { transactionRoutes } from './transactions.js';
import { accountRoutes } from './accounts.js';
import { applicationRoutes } from './applications.js';
import { blockRoutes } from './blocks.js';
import { tealRoutes } from './teal.js';

/** Renders failures as the public API does: the status and a `{"message": …}` body. */
function algodErrors(handler: NodeEndpoint['handler'], auth: TokenChecker | undefined): NodeEndpoint['handler'] {
  return async (ctx, node) => {
    // The service checked the token as the request came in (the same tokens: see nodeService);
    // a context without that verdict (a handler called directly) is checked here.
    if (auth && !(ctx.authenticated ?? auth.accepts(ctx.headers))) return jsonReply({ message: 'Invalid API Token' }, 401);
    try {
      return await handler(ctx, node);
    } catch (e) {
      const reply = algodErrorReply(e);
      if (reply) return reply;
      throw e;
    }
  };
}

/**
 * The public node API (`/v2`, algod's OpenAPI description) served next to the specified `/v1`
 * operations: paths, parameters, kebab-case JSON, msgpack where the node offers it, and the
 * node's error texts and status codes with `{"message": …}` bodies.
 */
export function algodEndpoints(options: AlgodRouteOptions): NodeEndpoint[] {
  // Grouped by resource; the router matches the most specific path, so order does not matter.
  const list: AlgodRoute[] = [
    ...statusRoutes(options),
    ...transactionRoutes(options),
    ...accountRoutes(options),
    ...applicationRoutes(options),
    ...blockRoutes(options),
    ...tealRoutes(options),
  ];
  return list.map((e) => ({
    ...e,
    number: 0,
    ...(options.auth ? { public: true } : {}),
    handler: algodErrors(e.handler, e.public ? undefined : options.auth),
  }));
}
