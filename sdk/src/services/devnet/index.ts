export {
  isLoopback,
  startDevnet,
  LOCALNET_TOKEN,
  LOCALNET_GENESIS_ID,
  LOCALNET_PORTS,
  DEFAULT_WALLET_NAME,
  DEFAULT_WALLET_PASSWORD,
  DEFAULT_ACCOUNT_COUNT,
  DEFAULT_ACCOUNT_FUNDS,
  DevnetConfigError,
  DEFAULT_NON_DEV_BLOCK_INTERVAL_MS,
} from './devnet.js';
export type { DevnetPorts, DevnetOptions, ServiceEndpoint as DevnetEndpoint, DevnetAccount, RunningDevnet } from './devnet.js';
export { LOCK_FILE, readRunningDevnetRecord } from './lock.js';
export type { RunningDevnetRecord } from './lock.js';
export * from './config.js';
export { AlgodForkRemote, forkUrlOf } from './fork-remote.js';
export type { ForkOptions } from './fork-remote.js';
