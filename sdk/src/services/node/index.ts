export * from './service.js';
export { NODE_ENDPOINTS, NODE_API_VERSIONS, nodeSwagger, nodeRouter, routePattern, type NodeEndpoint, type NodeContext, type BuildInfo } from './routes.js';
export { TransactionPool, type PoolEntry, type PoolOptions, type PoolStats } from './pool.js';
export { FollowerState, type FollowerOptions } from './follower.js';
export { MetricsRegistry, type MetricType } from './metrics.js';
export { buildStateDelta, deltaToJsonValue, deltaToMsgpack, type DeltaTree } from './state-delta.js';
export { decodeSimulateRequest, simulateResponseToWire, responseFormat, type ResponseFormat } from './simulate-wire.js';
export { accountView, assetParamsView, blockView, transactionView, confirmedView, involves, type V1Json } from './v1-views.js';
