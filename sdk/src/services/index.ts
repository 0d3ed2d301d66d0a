export * from './http/index.js';
export * from './kmd/index.js';
export * from './node/index.js';
export * from './devnet/index.js';
export * from './query/index.js';
// The token header names are the clients' (adapters'): the same fact, declared once publicly.
export { NODE_SERVICE_TOKEN_HEADER } from '../adapters/node/node-service.js';
export { KEY_MANAGER_TOKEN_HEADER } from '../adapters/kmd/client.js';
