export * from './http/index.js';
export * from './kmd/index.js';
