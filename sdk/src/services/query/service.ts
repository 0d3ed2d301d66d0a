import type { Ledger } from '../../ledger/ledger.js';
import { queryServiceErrors, QUERY_SERVICE_TOKEN_HEADER } from '../http/presets.js';
import { Router } from '../http/router.js';
import { serve, type RunningService, type ServeOptions, type ServiceDefinition } from '../http/server.js';
import { runningService } from '../http/running.js';
import { LIMITS } from './params.js';
import { QueryIndex } from './query-index.js';
import { accountRoutes } from './routes/accounts.js';
import { applicationRoutes } from './routes/applications.js';
import { assetRoutes } from './routes/assets.js';
import { blockRoutes } from './routes/blocks.js';
import { jsonReply, queryRoutes } from './routes/shared.js';
import { transactionRoutes } from './routes/transactions.js';

export { MSG } from './routes/shared.js';

/** The version the query service reports. */
export const QUERY_SERVICE_VERSION = '3.0.0-tealworks';

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

/**
 * The query service's router over an index (query-service.md): /health here, the rest by resource
 * in routes/ (accounts, applications, assets, blocks, transactions), in the spec's order.
 */
export function queryRouter(index: QueryIndex, version = QUERY_SERVICE_VERSION): Router {
  const inner = new Router();
  const r = queryRoutes(index, inner);
  const { router, cur } = r;

  // 1
  router.get('/health', () => jsonReply({ 'db-available': true, 'is-migrating': false, message: String(cur()), round: cur(), version }), { public: true });

  accountRoutes(r);
  applicationRoutes(r);
  assetRoutes(r);
  blockRoutes(r);
  transactionRoutes(r);
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
  return runningService(s, { index: def.index });
}

export { LIMITS };
