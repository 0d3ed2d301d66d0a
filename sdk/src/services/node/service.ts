import type { Ledger } from '../../ledger/ledger.js';
import { nodeServiceErrors, NODE_SERVICE_TOKEN_HEADER } from '../http/presets.js';
// The header the public node API's clients (algosdk, AlgoKit) send, as our own client sends it.
import { ALGOD_TOKEN_HEADER } from '../../adapters/node/algod.js';
import { simulateRequestBody } from '../../adapters/node/adapter.js';
import { serve, type RunningService, type ServeOptions, type ServiceDefinition } from '../http/server.js';
import { runningService } from '../http/running.js';
import type { RequestLogHook } from '../http/types.js';
import { Semaphore } from '../http/semaphore.js';
import { MAX_EXEC_TRACE_BYTES, simulate } from '../../ledger/simulate.js';
import { TokenChecker, type TokenAuth } from '../http/auth.js';
import { FollowerState, type FollowerOptions } from './follower.js';
import { MetricsRegistry } from './metrics.js';
import { AppSpecRegistry } from './abi-returns.js';
import { TransactionPool, type PoolOptions } from './pool.js';
import { NODE_ENDPOINTS, nodeRouter, SIMULATE_JSON, type BuildInfo, type NodeContext } from './routes.js';
import { decodeSimulateRequest, simulateRequestOfSigned, simulateResponseToWire } from './simulate-wire.js';
import { BadRequestError } from '../http/errors.js';
import { jsonRoundTrip } from '../../encoding/json.js';
import type { GroupEvalResult } from '../../ledger/eval.js';
import type { ConfirmedTxn } from '../../ledger/block.js';
import { algodEndpoints } from './algod/routes.js';
import { devnetEndpoints } from './devnet-routes.js';
import type { GenesisAllocEntry, GenesisDescription } from './algod/genesis.js';

/** How to start the node service: ledger, token, pool and follower options, build info. */
export interface NodeServiceOptions extends PoolOptions {
  ledger: Ledger;
  /** Value expected in `X-Node-API-Token`. */
  apiToken: string;
  /** Follower mode (node-service.md "EnableFollowMode") and its delta window. */
  follower?: Partial<FollowerOptions>;
  /** False: `/metrics` answers 404, as a node built without metrics. Default true. */
  metrics?: boolean;
  /** Time limit of wait-for-block-after (default 60 s, as the node). */
  waitTimeoutMs?: number;
  build?: Partial<BuildInfo>;
  maxBodyBytes?: number;
  /** Close the ledger (flushing its snapshot) when the service closes. */
  ownsLedger?: boolean;
  /** Serve without checking the API token (the node's `DisableAPIAuth`). */
  disableApiAuth?: boolean;
  /** Where registered app specs are kept (JSON); absent: in memory. */
  appSpecsFile?: string;
  /** What `/genesis` lists (funded accounts and their comments, network name). Default: no funded accounts. */
  genesis?: GenesisDescription;
  /** Serve `/health` without the token, as the public node API does (LocalNet compatibility). Default false. */
  publicHealth?: boolean;
  /**
   * Serve the `/v1/devnet/…` cheat routes (snapshots, rounds, time, balances, state): only a devnet
   * sets this. Default false: the routes answer 403.
   */
  cheats?: boolean;
  /** Bounds on simulations with an execution trace (each is large): see {@link SimulateTraceLimits}. */
  simulateTraces?: SimulateTraceLimits;
}

/**
 * The node service's global budget for traced simulations. Each traced response is capped at
 * `maxBytes` of trace (the ledger's `MAX_EXEC_TRACE_BYTES` by default); at most `concurrent` of them
 * are computed or still being sent at once, so their traces never hold more than
 * `concurrent × maxBytes` in total (4 × 64 MiB by default). Further traced simulations wait their
 * turn (first come, first served); past `maxWaiting` waiting ones the answer is 503.
 */
export interface SimulateTraceLimits {
  /** Traced simulations in progress at once (default 4). */
  concurrent?: number;
  /** Trace bytes one response may hold (default `MAX_EXEC_TRACE_BYTES`, 64 MiB). */
  maxBytes?: number;
  /** Traced simulations allowed to wait (default 64). */
  maxWaiting?: number;
}

/** Traced simulations the node service runs or sends at once by default. */
export const DEFAULT_CONCURRENT_TRACED_SIMULATES = 4;

/** The build reported when none is configured. */
export const DEFAULT_BUILD: BuildInfo = { major: 0, minor: 1, buildNumber: 0, branch: 'main', channel: 'dev', commitHash: '' };

/** The parts of a node service beyond its HTTP definition, for the devnet and for tests. */
export interface NodeServiceParts {
  definition: ServiceDefinition;
  pool: TransactionPool;
  follower: FollowerState;
  metrics: MetricsRegistry | undefined;
  /** The global limit on traced simulations. */
  traces: Semaphore;
  /** Wraps a request log hook so request counts reach `/metrics`. */
  logHook(next?: RequestLogHook): RequestLogHook;
  /**
   * For a caller in this process (the in-process chain's client): the answer of
   * `POST /v2/transactions/simulate` for the group `signed` (each transaction's msgpack, as
   * submitted; with a trace when `execTrace`), as the client parses its JSON, after which the
   * group is committed when it succeeded and `accept` approves the evaluation (dev mode), from one
   * evaluation. `json` is worked out when first read; `confirmed` holds the ledger's records of
   * the committed transactions (read them, do not change them).
   */
  simulateAndSubmit(
    signed: readonly Uint8Array[],
    execTrace: boolean,
    accept: (result: GroupEvalResult) => boolean,
  ): { json: unknown; committed: { round: bigint; txids: string[]; confirmed: ConfirmedTxn[] } | undefined };
  /**
   * For a caller in this process: the answer of `POST /v2/transactions/simulate` for `body`, as
   * the client parses its JSON, without the HTTP layers; undefined when the route would answer
   * anything but a simulation (a bad request, a follower node): the caller then asks the route.
   */
  simulate(body: Uint8Array): unknown;
}

/** Builds the node service (node-service.md) over a ledger: the pool, follower state, metrics and routes. */
export function nodeService(options: NodeServiceOptions): NodeServiceParts {
  const { ledger } = options;
  const pool = new TransactionPool(ledger, options);
  const follower = new FollowerState(ledger, {
    enabled: options.follower?.enabled ?? false,
    ...(options.follower?.lookback ? { lookback: options.follower.lookback } : {}),
    ...(options.follower?.maxRetained ? { maxRetained: options.follower.maxRetained } : {}),
    ...(options.follower?.initialSyncRound !== undefined ? { initialSyncRound: options.follower.initialSyncRound } : {}),
  });
  const metrics = options.metrics === false ? undefined : new MetricsRegistry();
  const startedAt = Date.now();
  let lastBlockAt = startedAt;

  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  follower.onChange = wake;

  if (metrics) {
    metrics.define('tealworks_node_http_requests_total', 'counter', 'HTTP requests answered by the node service, by status code.');
    metrics.define('tealworks_node_transactions_submitted_total', 'counter', 'Transactions accepted through POST /v1/transactions.');
    metrics.define('tealworks_node_transactions_rejected_total', 'counter', 'Transactions refused at submission or evicted from the pool.');
    metrics.define('tealworks_node_blocks_committed_total', 'counter', 'Blocks committed since the service started.');
    metrics.define('tealworks_node_ledger_round', 'gauge', 'Latest round of the ledger.');
    metrics.define('tealworks_node_pool_transactions', 'gauge', 'Transactions waiting in the pool.');
    metrics.define('tealworks_node_uptime_seconds', 'gauge', 'Seconds since the node service started.');
    metrics.onCollect(() => {
      metrics.set('tealworks_node_transactions_submitted_total', pool.stats.submittedTxns);
      metrics.set('tealworks_node_transactions_rejected_total', pool.stats.rejectedTxns);
      metrics.set('tealworks_node_ledger_round', ledger.latestRound);
      metrics.set('tealworks_node_pool_transactions', pool.pending().length);
      metrics.set('tealworks_node_uptime_seconds', Math.floor((Date.now() - startedAt) / 1000));
    });
  }

  const unsubscribe = ledger.onBlock(() => {
    lastBlockAt = Date.now();
    metrics?.inc('tealworks_node_blocks_committed_total');
    wake();
  });

  const traces = new Semaphore(
    options.simulateTraces?.concurrent ?? DEFAULT_CONCURRENT_TRACED_SIMULATES,
    options.simulateTraces?.maxWaiting ?? 64,
    'too many simulations with an execution trace are waiting; retry in a moment',
  );
  const node: NodeContext = {
    ledger,
    pool,
    follower,
    metrics,
    build: { ...DEFAULT_BUILD, ...options.build },
    waitTimeoutMs: options.waitTimeoutMs ?? 60_000,
    appSpecs: new AppSpecRegistry(options.appSpecsFile),
    traces,
    maxExecTraceBytes: options.simulateTraces?.maxBytes ?? MAX_EXEC_TRACE_BYTES,
    lastBlockAt: () => lastBlockAt,
    nextChange(signal, timeoutMs) {
      return new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        signal.addEventListener('abort', done, { once: true });
        waiters.add(done);
      });
    },
  };

  pool.start();
  const auth: TokenAuth = { header: NODE_SERVICE_TOKEN_HEADER, alsoHeaders: [ALGOD_TOKEN_HEADER], tokens: [options.apiToken] };
  const definition: ServiceDefinition = {
    name: 'node',
    router: nodeRouter(node, [
      ...NODE_ENDPOINTS.map((e) => (options.publicHealth && e.path === '/health' ? { ...e, public: true } : e)),
      ...devnetEndpoints(() => options.cheats === true && !follower.enabled),
      ...algodEndpoints({
        genesis: options.genesis ?? { alloc: ledgerGenesisAlloc(ledger) },
        devMode: () => pool.devMode,
        ...(options.disableApiAuth ? {} : { auth: new TokenChecker(auth) }),
      }),
    ]),
    errors: nodeServiceErrors,
    ...(options.disableApiAuth ? {} : { auth }),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    onClose: () => {
      pool.stop();
      unsubscribe();
      follower.close();
      wake();
      if (options.ownsLedger) ledger.close();
    },
  };
  return {
    definition,
    pool,
    follower,
    metrics,
    traces,
    simulateAndSubmit(signed, execTrace, accept) {
      if (follower.enabled) throw new BadRequestError('a follower node does not take transactions');
      // The request the route would decode from these bytes, without writing and reading its
      // envelope; bytes that are not one value each are decoded as the route would.
      const request = simulateRequestOfSigned(signed, execTrace) ?? decodeSimulateRequest(simulateRequestBody(signed, execTrace ? { execTrace: true } : {}));
      const out = pool.simulateAndSubmit(request, accept, { maxExecTraceBytes: node.maxExecTraceBytes });
      // The answer's JSON form is written when first read: a caller whose group was committed
      // often never reads it. The response holds only values of this evaluation (the AVM never
      // changes a byte string it made), so a later read gives what an immediate one would.
      let json: unknown;
      const answer = {
        get json(): unknown {
          return (json ??= jsonRoundTrip(simulateResponseToWire(out.response, request, 'json', false), SIMULATE_JSON));
        },
      };
      if (!out.committed) return { json: answer.json, committed: undefined };
      const confirmed = out.committed.txids.map((id) => ledger.transaction(id)!);
      return Object.assign(answer, { committed: { ...out.committed, confirmed } });
    },
    simulate(body) {
      if (follower.enabled) return undefined;
      try {
        const request = decodeSimulateRequest(body);
        const response = simulate(ledger, request, node.maxExecTraceBytes ? { maxExecTraceBytes: node.maxExecTraceBytes } : {});
        return jsonRoundTrip(simulateResponseToWire(response, request, 'json', false), SIMULATE_JSON);
      } catch {
        // The route gives the node's own error reply for it.
        return undefined;
      }
    },
    logHook: (next) => (entry) => {
      metrics?.inc('tealworks_node_http_requests_total', { code: String(entry.status) });
      next?.(entry);
    },
  };
}

/** A running node service and its ledger. */
export interface RunningNodeService extends RunningService {
  readonly ledger: Ledger;
  readonly pool: TransactionPool;
  readonly follower: FollowerState;
  /** The global limit on traced simulations (its stats say how many waited or were refused). */
  readonly traces: Semaphore;
}

/** Serves the node service on its own port. */
export async function startNodeService(options: NodeServiceOptions & ServeOptions): Promise<RunningNodeService> {
  const parts = nodeService(options);
  let service: RunningService;
  try {
    service = await serve(parts.definition, { ...options, log: parts.logHook(options.log) });
  } catch (e) {
    await parts.definition.onClose?.();
    throw e;
  }
  return runningService(service, { ledger: options.ledger, pool: parts.pool, follower: parts.follower, traces: parts.traces });
}

/** The ledger's funded genesis accounts (without the fee sink and rewards pool) as `/genesis` lists them. */
function ledgerGenesisAlloc(ledger: Ledger): GenesisAllocEntry[] {
  const g = ledger.genesis();
  return g.alloc
    .filter((a) => a.addr !== g.fees && a.addr !== g.rwd)
    .map((a) => ({ address: a.addr, amount: a.state.algo, ...(a.state.onl === 1 ? { status: 1 as const } : {}) }));
}
