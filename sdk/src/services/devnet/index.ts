export * from './devnet.js';
