export * from './errors.js';
export * from './handles.js';
export * from './wallet-crypto.js';
export type { MultisigPreimage, WalletKey, WalletSecrets } from './wallet-file.js';
export * from './wallet-store.js';
export * from './key-manager.js';
export { parseBytes, parseMultisig, type ByteForm } from './wire.js';
export * from './routes.js';
