export * from './http/index.js';
export * from './kmd/index.js';
export * from './node/index.js';
export * from './devnet/index.js';
export * from './query/index.js';
