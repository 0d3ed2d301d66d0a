export * from './hash.js';
export * from './ed25519.js';
export * from './mnemonic.js';
export * from './kmd-derivation.js';
export { ENGLISH_WORDS } from './wordlist.js';
