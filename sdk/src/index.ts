export * from './errors.js';
export * from './encoding/index.js';
export * from './crypto/index.js';
