export * from './service.js';
export { NODE_ENDPOINTS, NODE_API_VERSIONS, nodeSwagger, nodeRouter, routePattern, type NodeEndpoint, type NodeContext, type BuildInfo } from './routes.js';
export { TransactionPool, type PoolEntry, type PoolOptions, type PoolStats } from './pool.js';
export { FollowerState, type FollowerOptions } from './follower.js';
export { MetricsRegistry, type MetricType } from './metrics.js';
export { buildStateDelta, deltaToJsonValue, deltaToMsgpack, type DeltaTree } from './state-delta.js';
export { decodeSimulateRequest, simulateResponseToWire, responseFormat, type ResponseFormat } from './simulate-wire.js';
export { accountView, assetParamsView, blockView, transactionView, confirmedView, involves, type V1Json } from './v1-views.js';
export { NOT_A_FOLLOWER } from './follower.js';
export {
  FollowSource,
  FollowSourceError,
  firstDivergentRound,
  MAX_FOLLOW_BLOCK_BYTES,
  MAX_FOLLOW_DOCUMENT_BYTES,
  type FollowSourceOptions,
  type SourceGenesis,
  type FollowerDivergence,
} from './follower-source.js';
export { FollowerSync, type FollowerSyncOptions, type FollowerSyncStatus } from './follower-sync.js';
export { AppSpecRegistry, addAbiReturns, methodTable, type MethodTable } from './abi-returns.js';
export type { NodeSimulateRequest } from './simulate-wire.js';
export { algodEndpoints, ALGOD_ERRORS, type AlgodRouteOptions } from './algod/routes.js';
export { genesisText, type GenesisDescription, type GenesisAllocEntry } from './algod/genesis.js';
export { accountJson, appJson, assetJson, type AlgodJson } from './algod/views.js';
export { devnetEndpoints, CheatsRefusedError } from './devnet-routes.js';
