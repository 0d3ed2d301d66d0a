export * from './devnet.js';
export * from './running-file.js';
