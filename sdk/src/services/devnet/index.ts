export { isLoopback, startDevnet, DEFAULT_WALLET_NAME, DEFAULT_WALLET_PASSWORD, DEFAULT_ACCOUNT_COUNT, DEFAULT_ACCOUNT_FUNDS, DevnetConfigError } from './devnet.js';
export type { DevnetPorts, DevnetOptions, ServiceEndpoint as DevnetEndpoint, DevnetAccount, RunningDevnet } from './devnet.js';
export * from './running-file.js';
