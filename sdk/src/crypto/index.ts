export * from './hash.js';
export * from './ed25519.js';
