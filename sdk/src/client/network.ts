import { resolve } from 'node:path';
import { explainConnectFailure } from '../adapters/connect-failure.js';
import {
  keyManagerFor,
  localnetProfile,
  nodeAdapterFor,
  profileFromDevnet,
  profileFromEnv,
  publicProfile,
  queryClientFor,
  type NetworkProfile,
} from '../adapters/profiles.js';
import type { KeyManagerClient } from '../adapters/kmd/client.js';
import type { AppChain } from '../app/chain.js';
import { findWalletDispenser, walletKeySeed } from '../app/dispenser.js';
import { DEFAULT_DEVNET_DATA_DIR, DEFAULT_LOCALNET_DATA_DIR, LOCK_FILE, readRunningDevnetRecord } from '../services/devnet/lock.js';
import { PUBLIC_ENDPOINTS } from '../workflow/network.js';
import { accountFromMnemonic, LocalAccount, type SigningAccount } from './accounts.js';
import { ConnectError } from '../errors.js';
import type { TxnLogLevel, TxnLogOptions } from './txn-log.js';

/*
 * From "which network" to live adapters: the node (either API), the query service and the key
 * manager when the network has them, and a dispenser on development networks. The first request
 * is made here, so a wrong URL, token or API is reported at connect time with what to change.
 */

/** Environment variables as a plain record (default `process.env`). */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** Options shared by every way to connect. */
export interface ConnectOptionsBase {
  /** Funds `account.ensureFunded` where the network has no dispenser of its own (testnet, mainnet, custom). */
  funder?: SigningAccount;
  /** Read instead of `process.env` (ALGOD_*, INDEXER_*, KMD_*, DISPENSER_MNEMONIC, TEALWORKS_LOG). */
  env?: EnvLike;
  /** The transaction log (`tw.log`): a level (`off`, `info`, `debug`) or level and sink; default `TEALWORKS_LOG`, else off. */
  log?: TxnLogLevel | TxnLogOptions;
}

/** Options of `Tealworks.connect.devnet()`. */
export interface DevnetConnectOptions extends ConnectOptionsBase {
  /**
   * Data directory of a devnet that `tealworks devnet` keeps running (default: `$TEALWORKS_DEVNET_DIR`,
   * else `.tealworks/devnet` under the working directory, else `.tealworks/localnet` where
   * `tealworks devnet --localnet` runs). When none runs there, a devnet is started in this process,
   * in memory, and stopped by `close()` (`tw.network.inProcess` says so).
   */
  dataDir?: string;
  /** Always start an in-process, in-memory devnet, even when one runs on the data directory. */
  inProcess?: boolean;
  /** Funded accounts of an in-process devnet (default 3). */
  accounts?: number;
}

/** Options of `Tealworks.connect.localnet()`. */
export interface LocalnetConnectOptions extends ConnectOptionsBase {
  /** Default `http://localhost` (ports 4001 node, 8980 query, 4002 key manager; token `a` × 64). */
  host?: string;
}

/** A live connection (internal to the client). */
export interface Connection {
  name: string;
  profile: NetworkProfile;
  chain: AppChain;
  keyManager?: KeyManagerClient;
  dispenser?: SigningAccount;
  isDev: boolean;
  /** Where the token came from, for 401 messages. */
  tokenSource: string;
  /** The environment the connection read (for `account.fromEnvironment`). */
  env?: EnvLike;
  /** True when `connect.devnet()` found no running devnet and started one in this process. */
  inProcess?: boolean;
  close(): Promise<void>;
}

async function openAdapters(profile: NetworkProfile, tokenSource: string): Promise<{ chain: AppChain; keyManager?: KeyManagerClient; close(): Promise<void> }> {
  let chain: AppChain;
  let keyManager: KeyManagerClient | undefined;
  try {
    chain = { node: nodeAdapterFor(profile), ...(profile.query ? { query: queryClientFor(profile) } : {}) };
    keyManager = profile.keyManager ? keyManagerFor(profile) : undefined;
  } catch (e) {
    throw new ConnectError(`cannot use the ${profile.name} network's endpoints: ${(e as Error).message}`, { url: profile.node.url, cause: e });
  }
  const close = async () => {
    await Promise.allSettled([chain.node.close(), chain.query?.close(), keyManager?.close()]);
  };
  try {
    await chain.node.suggestedParams();
  } catch (e) {
    await close();
    throw await explainConnectFailure(e, profile, tokenSource);
  }
  return { chain, ...(keyManager ? { keyManager } : {}), close };
}

function funderFromEnv(env: EnvLike): SigningAccount | undefined {
  const m = env.DISPENSER_MNEMONIC;
  return m ? accountFromMnemonic(m) : undefined;
}

/** The key manager's dispenser (see `findWalletDispenser`) as a signing account and a way to close its session. */
async function walletDispenser(keyManager: KeyManagerClient, chain: AppChain): Promise<{ account: SigningAccount; close(): Promise<void> } | undefined> {
  const d = await findWalletDispenser(keyManager, chain);
  return d ? { account: { address: d.address, signer: d.signer }, close: () => d.session.close() } : undefined;
}

async function generic(name: string, profile: NetworkProfile, isDev: boolean, tokenSource: string, options: ConnectOptionsBase): Promise<Connection> {
  const env = options.env ?? process.env;
  const opened = await openAdapters(profile, tokenSource);
  const fromWallet = isDev && opened.keyManager && !options.funder ? await walletDispenser(opened.keyManager, opened.chain) : undefined;
  const dispenser = options.funder ?? funderFromEnv(env) ?? fromWallet?.account;
  return {
    name,
    profile,
    chain: opened.chain,
    ...(opened.keyManager ? { keyManager: opened.keyManager } : {}),
    ...(dispenser ? { dispenser } : {}),
    isDev,
    tokenSource,
    env,
    close: async () => {
      await fromWallet?.close().catch(() => undefined);
      await opened.close();
    },
  };
}

/** ALGOD_SERVER/PORT/TOKEN, INDEXER_*, KMD_* (and NODE_API=node-service for our /v1 node service). */
export async function connectFromEnv(options: ConnectOptionsBase = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const profile = profileFromEnv(env);
  if (!profile)
    throw new ConnectError(
      'ALGOD_SERVER is not set: set ALGOD_SERVER (and ALGOD_PORT, ALGOD_TOKEN; optionally INDEXER_* and KMD_*), or connect by name with Tealworks.connect.devnet() / .localnet() / .testnet() / .mainnet()',
    );
  const local = /localhost|127\.0\.0\.1|\[::1\]/.test(profile.node.url);
  return generic(profile.name, profile, local, 'the ALGOD_TOKEN environment variable', options);
}

/** The local node set-up on the usual ports (`tealworks devnet --localnet`, AlgoKit LocalNet). */
export function connectLocalnet(options: LocalnetConnectOptions = {}): Promise<Connection> {
  return generic(
    'localnet',
    localnetProfile(options.host),
    true,
    "the local node's well-known development token ('a' × 64); a node with another token needs Tealworks.connect() with ALGOD_TOKEN",
    options,
  );
}

/** A public network through its free public endpoints. */
export function connectPublic(name: 'testnet' | 'mainnet', options: ConnectOptionsBase = {}): Promise<Connection> {
  const p = PUBLIC_ENDPOINTS[name];
  return generic(
    name,
    publicProfile(name, p.node, p.query),
    false,
    'nowhere (the public endpoints need none); use Tealworks.connect() with ALGOD_TOKEN for a provider that wants one',
    options,
  );
}

/** The embedded devnet: one already running on the data directory, else a fresh one in this process. */
export async function connectDevnet(options: DevnetConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const named = options.dataDir ?? env.TEALWORKS_DEVNET_DIR;
  let dataDir = resolve(named ?? DEFAULT_DEVNET_DATA_DIR);
  let record = options.inProcess ? undefined : readRunningDevnetRecord(dataDir);
  if (!record && !options.inProcess && named === undefined) {
    // `tealworks devnet --localnet` keeps its chain in its own folder: use it rather than a throwaway chain.
    const localnetDir = resolve(DEFAULT_LOCALNET_DATA_DIR);
    record = readRunningDevnetRecord(localnetDir);
    if (record) dataDir = localnetDir;
  }
  let stopOwned: (() => Promise<void>) | undefined;
  let running: {
    node: { url: string; token: string };
    query: { url: string; token: string };
    keyManager: { url: string; token: string };
    wallet: { name: string; password: string };
    accounts: Array<{ address: string }>;
  };
  let tokenSource: string;
  if (record) {
    running = { ...record, keyManager: record.kmd };
    tokenSource = `${resolve(dataDir, LOCK_FILE)} (published by the running devnet)`;
  } else {
    const { startDevnet } = await import('../services/devnet/devnet.js');
    const devnet = await startDevnet({ inMemory: true, ...(options.accounts !== undefined ? { accounts: options.accounts } : {}) });
    running = devnet;
    stopOwned = () => devnet.stop();
    tokenSource = 'the in-process devnet (generated at start)';
  }
  const profile = profileFromDevnet(running);
  let opened: Awaited<ReturnType<typeof openAdapters>>;
  try {
    opened = await openAdapters(profile, tokenSource);
  } catch (e) {
    await stopOwned?.();
    throw e;
  }
  let dispenser: SigningAccount | undefined = options.funder;
  const funded = running.accounts[0];
  if (!dispenser && funded && opened.keyManager) {
    dispenser = new LocalAccount(await walletKeySeed(opened.keyManager, running.wallet, funded.address));
  }
  return {
    name: 'devnet',
    profile,
    chain: opened.chain,
    ...(opened.keyManager ? { keyManager: opened.keyManager } : {}),
    ...(dispenser ? { dispenser } : {}),
    isDev: true,
    tokenSource,
    env,
    inProcess: stopOwned !== undefined,
    close: async () => {
      await opened.close();
      await stopOwned?.();
    },
  };
}
