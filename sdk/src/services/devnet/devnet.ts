import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TealworksError, ValidationError } from '../../errors.js';
import { Ledger } from '../../ledger/ledger.js';
import { FileLedgerStore } from '../../ledger/persistence.js';
import { KeyManager } from '../kmd/key-manager.js';
import { startKeyManagerService, type RunningKeyManager } from '../kmd/routes.js';
import type { ScryptParams } from '../kmd/wallet-crypto.js';
import type { RunningService } from '../http/server.js';
import type { RequestLogHook } from '../http/types.js';
import { startNodeService, type RunningNodeService } from '../node/service.js';
import { startQueryService } from '../query/index.js';
import { lockDataDir, type DataDirLock } from './lock.js';

export const DEFAULT_WALLET_NAME = 'unencrypted-default-wallet';
export const DEFAULT_WALLET_PASSWORD = '';
export const DEFAULT_ACCOUNT_COUNT = 3;
/** 1,000,000 units of the native currency per funded account. */
export const DEFAULT_ACCOUNT_FUNDS = 1_000_000_000_000n;

const IN_MEMORY_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 1 << 10, r: 8, p: 1 });

export interface DevnetPorts {
  /** 0 picks a free port (the default for each service). */
  node?: number;
  query?: number;
  kmd?: number;
}

export interface DevnetOptions {
  /** Where the chain, the wallets and the API tokens live. Absent (or `inMemory`) keeps everything in memory. */
  dataDir?: string;
  /** Keep everything in memory even when `dataDir` is given. */
  inMemory?: boolean;
  /** Default 127.0.0.1. Any other address exposes the devnet's keys to the network. */
  host?: string;
  ports?: DevnetPorts;
  /** 0 or absent: dev mode (each submitted group is its own block, at once). */
  blockIntervalMs?: number;
  /** Funded accounts at genesis (default 3, or what the data directory was created with). */
  accounts?: number;
  /** Micro-units given to each funded account (default 10^12). */
  accountFunds?: bigint;
  /** Start the chain over from genesis (wallets and tokens are kept). */
  reset?: boolean;
  /**
   * Open a damaged data directory anyway: keep every intact round and move the damaged part of
   * the journal (or a damaged snapshot) aside into a separate file. Without it a damaged directory
   * is refused and left untouched. What was set aside is listed in `RunningDevnet.recovered`.
   */
  recover?: boolean;
  /** scrypt cost for a newly created wallet (default: the key manager's). */
  kdf?: ScryptParams;
  log?: RequestLogHook;
  /**
   * Stop (flushing everything) on the first SIGINT or SIGTERM, for programs that embed the devnet
   * and have no shutdown logic of their own. The `tealworks devnet` command handles signals itself.
   */
  stopOnSignals?: boolean;
}

export interface ServiceEndpoint {
  url: string;
  token: string;
}

export interface DevnetAccount {
  address: string;
  /** Balance at genesis (micro-units). */
  genesisAmount: bigint;
}

export interface RunningDevnet {
  node: ServiceEndpoint;
  query: ServiceEndpoint;
  kmd: ServiceEndpoint;
  accounts: DevnetAccount[];
  wallet: { name: string; password: string };
  /** The data directory in use, or undefined in memory. */
  dataDir: string | undefined;
  genesisId: string;
  ledger: Ledger;
  keyManager: KeyManager;
  /** What `recover` set aside while opening the data directory (empty when nothing was damaged). */
  recovered: string[];
  /** Closes the three services, flushes the ledger snapshot and the wallets. Idempotent. */
  stop(): Promise<void>;
}

/** A data directory that belongs to another chain configuration, or cannot be used. */
export class DevnetConfigError extends TealworksError {}

interface Tokens {
  node: string;
  query: string;
  kmd: string;
}

interface GenesisRecord {
  version: 1;
  accounts: { address: string; amount: string }[];
}

const newToken = (): string => randomBytes(32).toString('hex');

function writePrivate(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

function readJson<T>(path: string, what: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    throw new DevnetConfigError(`${what} (${path}) is unreadable: ${(e as Error).message}; remove it or start with --reset`);
  }
}

/** API tokens are generated once per data directory and kept there (owner-only permissions). */
function loadTokens(dir: string | undefined): Tokens {
  if (!dir) return { node: newToken(), query: newToken(), kmd: newToken() };
  const path = join(dir, 'tokens.json');
  const stored = readJson<Partial<Tokens>>(path, 'the token file');
  const valid = (t: unknown): t is string => typeof t === 'string' && /^[0-9a-f]{64}$/.test(t);
  const tokens: Tokens = {
    node: valid(stored?.node) ? stored.node : newToken(),
    query: valid(stored?.query) ? stored.query : newToken(),
    kmd: valid(stored?.kmd) ? stored.kmd : newToken(),
  };
  if (!stored || tokens.node !== stored.node || tokens.query !== stored.query || tokens.kmd !== stored.kmd) writePrivate(path, JSON.stringify(tokens, null, 2) + '\n');
  return tokens;
}

function checkPort(name: string, port: number | undefined): number {
  const p = port ?? 0;
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw new ValidationError(`${name} port must be an integer in 0..65535, got ${port}`);
  return p;
}

/** True for addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Starts the embedded devnet: a ledger whose genesis funds the keys of the default key-manager
 * wallet, and the node, query and key-manager services on their own ports, each with its own API
 * token. With a data directory the chain (journal + snapshot), the wallets and the tokens survive
 * restarts; the genesis is remembered there so a restart rebuilds the same chain.
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<RunningDevnet> {
  const host = options.host ?? '127.0.0.1';
  const ports = { node: checkPort('node', options.ports?.node), query: checkPort('query', options.ports?.query), kmd: checkPort('kmd', options.ports?.kmd) };
  if (options.accounts !== undefined && (!Number.isInteger(options.accounts) || options.accounts < 0 || options.accounts > 1000)) {
    throw new ValidationError(`accounts must be an integer in 0..1000, got ${options.accounts}`);
  }
  const funds = options.accountFunds ?? DEFAULT_ACCOUNT_FUNDS;
  if (funds <= 0n) throw new ValidationError('accountFunds must be positive');
  const dir = options.dataDir && !options.inMemory ? resolve(options.dataDir) : undefined;
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Before anything in the directory is read or written: one process per data directory.
  const lock = dir ? lockDataDir(dir) : undefined;
  try {
    return await openDevnet(options, host, ports, funds, dir, lock);
  } catch (e) {
    lock?.release();
    throw e;
  }
}

async function openDevnet(options: DevnetOptions, host: string, ports: Required<DevnetPorts>, funds: bigint, dir: string | undefined, lock: DataDirLock | undefined): Promise<RunningDevnet> {
  const genesisPath = dir ? join(dir, 'genesis.json') : undefined;
  if (dir && options.reset) {
    rmSync(join(dir, 'ledger'), { recursive: true, force: true });
    rmSync(genesisPath!, { force: true });
  }
  if (dir && !existsSync(genesisPath!) && existsSync(join(dir, 'ledger', 'journal.bin'))) {
    throw new DevnetConfigError(
      `${genesisPath} is missing but ${join(dir, 'ledger')} holds a chain: without it the chain's genesis accounts are unknown. Nothing was changed. Restore genesis.json, or start with --reset to delete that chain and begin a new one.`,
    );
  }
  const tokens = loadTokens(dir);

  // In memory the sealed wallet never leaves the process and its password is empty, so a costly
  // key derivation would only slow every start down.
  const kdf = options.kdf ?? (dir ? undefined : IN_MEMORY_SCRYPT);
  const keyManager = await KeyManager.open({ ...(dir ? { dataDir: join(dir, 'kmd') } : {}), ...(kdf ? { kdf } : {}) });
  const started: RunningService[] = [];
  let ledger: Ledger | undefined;
  try {
    const stored = genesisPath ? readJson<GenesisRecord>(genesisPath, 'the genesis record') : undefined;
    let genesis: { address: string; amount: bigint }[];
    if (stored) {
      genesis = stored.accounts.map((a) => ({ address: a.address, amount: BigInt(a.amount) }));
      if (options.accounts !== undefined && options.accounts !== genesis.length) {
        throw new DevnetConfigError(`the data directory's chain was created with ${genesis.length} funded accounts, not ${options.accounts}; start with --reset to make a new chain`);
      }
      // The funded accounts' keys live in the default wallet. A missing or damaged wallet is never
      // replaced by a new one (its keys could not sign for these accounts): refuse instead.
      const kmdDir = join(dir!, 'kmd');
      if (!keyManager.findWallet(DEFAULT_WALLET_NAME) && genesis.length > 0) {
        const damaged = [...keyManager.unreadable].map(([id, why]) => `${id}.wallet.json (${why})`);
        throw new DevnetConfigError(
          `the wallet "${DEFAULT_WALLET_NAME}" holding the keys of this chain's funded accounts is ${damaged.length ? `not readable: damaged file${damaged.length === 1 ? '' : 's'} in ${kmdDir}: ${damaged.join(', ')}` : `missing from ${kmdDir}`}. ` +
            'Nothing was changed and no new wallet was created. Restore the wallet file from a backup, or start with --reset to begin a new chain.',
        );
      }
      let held: string[];
      try {
        held = (await keyManager.ensureWallet({ name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD, keyCount: genesis.length })).addresses;
      } catch (e) {
        throw new DevnetConfigError(`the wallet "${DEFAULT_WALLET_NAME}" in ${kmdDir} cannot be opened (${(e as Error).message}); its file may be damaged. Nothing was changed: restore it from a backup, or start with --reset to begin a new chain.`, { cause: e });
      }
      const missing = genesis.filter((g) => !held.includes(g.address));
      if (missing.length) {
        throw new DevnetConfigError(
          `the wallet "${DEFAULT_WALLET_NAME}" in ${kmdDir} does not hold the keys of ${missing.length} funded account${missing.length === 1 ? '' : 's'} of this chain (${missing[0]!.address}${missing.length > 1 ? ' …' : ''}). Restore the wallet file it was created with, or start with --reset to begin a new chain.`,
        );
      }
    } else {
      const count = options.accounts ?? DEFAULT_ACCOUNT_COUNT;
      const { addresses } = await keyManager.ensureWallet({ name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD, keyCount: count });
      genesis = addresses.slice(0, count).map((address) => ({ address, amount: funds }));
      if (genesisPath) {
        const record: GenesisRecord = { version: 1, accounts: genesis.map((g) => ({ address: g.address, amount: String(g.amount) })) };
        writePrivate(genesisPath, JSON.stringify(record, null, 2) + '\n');
      }
    }

    const store = dir ? new FileLedgerStore(join(dir, 'ledger'), { recover: options.recover ?? false }) : undefined;
    ledger = new Ledger({
      genesisAccounts: genesis,
      ...(store ? { store } : {}),
    });

    const serveOpts = { host, ...(options.log ? { log: options.log } : {}) };
    const node: RunningNodeService = await startNodeService({
      ...serveOpts,
      port: ports.node,
      ledger,
      apiToken: tokens.node,
      ...(options.blockIntervalMs ? { blockIntervalMs: options.blockIntervalMs } : {}),
      ownsLedger: true,
    });
    started.push(node);
    const query = await startQueryService({ ...serveOpts, port: ports.query, ledger, token: tokens.query });
    started.push(query);
    const kmd: RunningKeyManager = await startKeyManagerService({ ...serveOpts, port: ports.kmd, keyManager, apiToken: tokens.kmd, ownsKeyManager: true });
    started.push(kmd);

    let stopping: Promise<void> | undefined;
    const onSignal = () => void stop();
    const stop = (): Promise<void> => {
      // Query and key manager first: the node's close flushes the ledger the query service reads.
      stopping ??= (async () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await Promise.allSettled([query.close(), kmd.close()]);
        try {
          await node.close();
        } finally {
          lock?.release();
        }
      })();
      return stopping;
    };
    lock?.publish({ node: node.url, query: query.url, kmd: kmd.url });
    if (options.stopOnSignals) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    return {
      node: { url: node.url, token: tokens.node },
      query: { url: query.url, token: tokens.query },
      kmd: { url: kmd.url, token: tokens.kmd },
      accounts: genesis.map((g) => ({ address: g.address, genesisAmount: g.amount })),
      wallet: { name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD },
      dataDir: dir,
      genesisId: ledger.genesisId,
      ledger,
      keyManager,
      recovered: store ? [...store.recovered] : [],
      stop,
    };
  } catch (e) {
    for (const s of started.reverse()) await s.close().catch(() => undefined);
    // The node service owns (and closed) the ledger once started; otherwise close it here.
    if (ledger && started.length === 0) ledger.close();
    await keyManager.close();
    throw e;
  }
}
