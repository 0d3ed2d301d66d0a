export * from './devnet.js';
export * from './config.js';
