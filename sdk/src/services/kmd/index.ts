export * from './errors.js';
export * from './handles.js';
export * from './wallet-crypto.js';
export type { MultisigPreimage as WalletMultisigPreimage, WalletKey, WalletSecrets } from './wallet-file.js';
export * from './wallet-store.js';
export {
  DRIVER_NAME,
  DRIVER_VERSION,
  SUPPORTED_TXS,
  MAX_WALLET_NAME_BYTES,
  KeyManager,
  type WalletInfo,
  type HandleInfo,
  type PasswordCallOptions,
  type KeyManagerOptions as KeyManagerServiceOptions,
} from './key-manager.js';
export { PasswordGate, TOO_MANY_PASSWORD_ATTEMPTS, type PasswordBackoffOptions, type PasswordGateStats } from './password-gate.js';
export { parseBytes, parseMultisig, type ByteForm } from './wire.js';
export * from './routes.js';
