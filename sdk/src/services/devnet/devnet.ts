import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writePrivate } from './private-file.js';
import { TealworksError, ValidationError } from '../../errors.js';
import { toBase64 } from '../../encoding/base64.js';
import { Ledger } from '../../ledger/ledger.js';
import { FileForkCache, FileLedgerStore } from '../../ledger/persistence.js';
import { ForkState, MemoryForkCache } from '../../ledger/fork.js';
import { AlgodForkRemote, type ForkOptions } from './fork-remote.js';
import { KeyManager } from '../kmd/key-manager.js';
import { startKeyManagerService, type RunningKeyManager } from '../kmd/routes.js';
import type { ScryptParams } from '../kmd/wallet-crypto.js';
import type { RunningService } from '../http/server.js';
import type { RequestLogHook } from '../http/types.js';
import { startNodeService, type RunningNodeService } from '../node/service.js';
import { startQueryService } from '../query/index.js';
import { firstDivergentRound, FollowSource } from '../node/follower-source.js';
import { FollowerSync } from '../node/follower-sync.js';
import { parseEndpointAddress, readNodeConfig, validateNodeConfig, type NodeConfig } from './config.js';
import { lockDataDir, type DataDirLock } from './lock.js';

/** The devnet's key-manager wallet that holds the funded genesis keys. */
export const DEFAULT_WALLET_NAME = 'unencrypted-default-wallet';
/** Password of the devnet wallet (empty: it is a development wallet). */
export const DEFAULT_WALLET_PASSWORD = '';
/** Funded accounts a new devnet chain gets at genesis. */
export const DEFAULT_ACCOUNT_COUNT = 3;
/** 1,000,000 units of the native currency per funded account. */
export const DEFAULT_ACCOUNT_FUNDS = 1_000_000_000_000n;

const IN_MEMORY_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 1 << 10, r: 8, p: 1 });

/** Ports of the devnet's three services (0 or absent: any free port). */
export interface DevnetPorts {
  /** 0 picks a free port (the default for each service). */
  node?: number;
  query?: number;
  keyManager?: number;
}

/** How to start the devnet: data directory or memory, host, ports, block interval, funded accounts, reset, key-derivation cost. */
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
  /** Start over: a new chain from genesis and a new default wallet (new funded accounts); tokens are kept. */
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
  /**
   * Follow another node's chain (follower mode): its node service address and API token. The
   * devnet rebuilds the source's genesis, fetches and applies its blocks, refuses transactions,
   * and starts paused at sync round 0.
   */
  follow?: {
    url: string;
    token?: string;
    /** Time limit of each fetch from the source, body included (default 30 s). */
    timeoutMs?: number;
    /** Largest block accepted from the source (default `MAX_FOLLOW_BLOCK_BYTES`, 32 MiB). */
    maxBlockBytes?: number;
  };
  /**
   * Fork a live network: the chain takes the remote node's genesis id and hash, begins after its
   * latest round, and copies accounts, apps, assets and boxes from its `/v2` API on first read.
   * Transactions run locally, never on the remote. Fetched records are cached in the data
   * directory (`fork-cache.bin`), so a fork restarts offline; `refresh` drops the cache and the
   * local chain. The funded accounts are local keys, funded on top of the remote's state.
   */
  fork?: ForkOptions;
  /** Node settings (the node's `config.json` key names); merged over the data directory's `config.json`. */
  nodeConfig?: NodeConfig;
  /**
   * Interval mode: called with the error when blocks stop being written (a full disk; waiting
   * transactions stay in the pool), and with `undefined` once blocks are written again.
   */
  onBlockError?: (error: Error | undefined) => void;
  /** Failures of a follower's block fetching (retried unless `fatal`). Default: ignored. */
  onFollowerError?: (error: Error, fatal: boolean) => void;
  /**
   * Behave as AlgoKit LocalNet does: ports 4001 (node), 8980 (query) and 4002 (key manager) unless
   * `ports` says otherwise, one shared token (`token`, default 64 × `a`), genesis id
   * `dockernet-v1`, the funded accounts marked `Wallet1`… in `/genesis` and online from genesis,
   * `/health` public, a query service that needs no token (unless `token` is given), and
   * key-manager byte fields answered as base64 strings.
   */
  localnet?: boolean;
  /** One API token for all three services (instead of a generated token per service). */
  token?: string;
  /**
   * Browser origins allowed to call the three services (`*` for any), besides the VS Code
   * extension's webviews. Default: none, or every origin under `localnet` (LocalNet's node allows
   * any origin). Private Network Access preflights of an allowed origin are answered too.
   */
  corsOrigins?: readonly (string | RegExp)[];
}

import { LOCALNET_TOKEN } from '../../adapters/profiles.js';
/** LocalNet's well-known API token (shared by its node, indexer and kmd); the adapters' profile constant. */
export { LOCALNET_TOKEN };
/** LocalNet's genesis id: tools recognise a LocalNet by it. */
export const LOCALNET_GENESIS_ID = 'dockernet-v1';
/** LocalNet's ports: node (algod), query (indexer), key manager (kmd). */
export const LOCALNET_PORTS: Readonly<Required<DevnetPorts>> = Object.freeze({ node: 4001, query: 8980, keyManager: 4002 });

/** Blocks every this many ms when `DevMode` is false and no interval is given. */
export const DEFAULT_NON_DEV_BLOCK_INTERVAL_MS = 3000;

/** URL and API token of one running devnet service (public name `DevnetEndpoint`). */
export interface ServiceEndpoint {
  url: string;
  token: string;
}

/** A funded genesis account of the devnet: address and genesis balance. */
export interface DevnetAccount {
  address: string;
  /** Balance at genesis (micro-units). */
  genesisAmount: bigint;
}

/** A running devnet: the services' URLs and tokens, funded accounts, wallet, data directory, the ledger and key manager, and `stop()`. */
export interface RunningDevnet {
  node: ServiceEndpoint;
  query: ServiceEndpoint;
  /** The key-manager service. */
  keyManager: ServiceEndpoint;
  accounts: DevnetAccount[];
  wallet: { name: string; password: string };
  /** The data directory in use, or undefined in memory. */
  dataDir: string | undefined;
  genesisId: string;
  ledger: Ledger;
  /** The wallets behind the key-manager service (in process). */
  wallets: KeyManager;
  /** The node settings in effect (data directory's `config.json` merged with `nodeConfig`). */
  config: NodeConfig;
  /** A follower's block fetching (status, waiting for a round); undefined on a regular devnet. */
  follower: FollowerSync | undefined;
  /** What `recover` set aside while opening the data directory (empty when nothing was damaged). */
  recovered: string[];
  /** The fork's state source (remote, fork round, requests, cache), or undefined when not a fork. */
  fork: ForkState | undefined;
  /** Closes the three services, flushes the ledger snapshot and the wallets. Idempotent. */
  stop(): Promise<void>;
}

/** A data directory that belongs to another chain configuration, or cannot be used. */
export class DevnetConfigError extends TealworksError {}

/** The key-manager service's wallet folder inside a data directory (the name is the on-disk layout, kept as it was). */
const KEY_MANAGER_DIR = 'kmd';

/** The API tokens as kept in the data directory's tokens.json (its `kmd` key is that file's format). */
interface Tokens {
  node: string;
  query: string;
  kmd: string;
}

interface GenesisRecord {
  version: 1;
  /** `online` is written only for accounts online at genesis (LocalNet's). */
  accounts: { address: string; amount: string; online?: true }[];
}

const newToken = (): string => randomBytes(32).toString('hex');

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
  if (!stored || tokens.node !== stored.node || tokens.query !== stored.query || tokens.kmd !== stored.kmd)
    writePrivate(path, JSON.stringify(tokens, null, 2) + '\n');
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
  const localnet = options.localnet ?? false;
  const defaults: DevnetPorts = localnet ? LOCALNET_PORTS : {};
  const ports = {
    node: checkPort('node', options.ports?.node ?? defaults.node),
    query: checkPort('query', options.ports?.query ?? defaults.query),
    keyManager: checkPort('key manager', options.ports?.keyManager ?? defaults.keyManager),
  };
  if (options.token !== undefined && (options.token.length === 0 || /[\s\x00-\x1f]/.test(options.token))) {
    throw new ValidationError('token must be a non-empty string without spaces or control characters');
  }
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

async function openDevnet(
  options: DevnetOptions,
  host: string,
  ports: Required<DevnetPorts>,
  funds: bigint,
  dir: string | undefined,
  lock: DataDirLock | undefined,
): Promise<RunningDevnet> {
  const localnet = options.localnet ?? false;
  let nodeHost = host;
  // Settings: config.json (node key names) with the caller's on top; explicit options win over both.
  const config: NodeConfig = { ...(dir ? readNodeConfig(dir) : {}), ...(options.nodeConfig ? validateNodeConfig(options.nodeConfig, 'nodeConfig') : {}) };
  if (config.EndpointAddress !== undefined) {
    const ep = parseEndpointAddress(config.EndpointAddress);
    if (options.ports?.node === undefined) ports.node = ep.port;
    if (options.host === undefined && ep.host !== undefined) nodeHost = ep.host;
  }
  const followMode = options.follow !== undefined || config.EnableFollowMode === true;
  if (followMode && !options.follow) {
    throw new DevnetConfigError(
      `EnableFollowMode is set${dir ? ` in ${join(dir, 'config.json')}` : ''} but no source to follow was given: start with --follow URL (the source node's address)`,
    );
  }
  if (followMode && options.fork) throw new DevnetConfigError('a devnet either follows a chain or forks one: --follow and --fork cannot be combined');
  if (followMode && options.blockIntervalMs)
    throw new DevnetConfigError('a follower makes no blocks of its own: --block-interval does not apply with --follow');
  if (followMode && (options.accounts !== undefined || options.accountFunds !== undefined))
    throw new DevnetConfigError("a follower's accounts are its source's genesis: --accounts does not apply with --follow");
  const blockIntervalMs = followMode ? 0 : (options.blockIntervalMs ?? (config.DevMode === false ? DEFAULT_NON_DEV_BLOCK_INTERVAL_MS : 0));
  const source = options.follow
    ? new FollowSource({
        url: options.follow.url,
        ...(options.follow.token ? { token: options.follow.token } : {}),
        ...(options.follow.timeoutMs ? { timeoutMs: options.follow.timeoutMs } : {}),
        ...(options.follow.maxBlockBytes ? { maxBlockBytes: options.follow.maxBlockBytes } : {}),
      })
    : undefined;
  // Before anything is created: a source that cannot be read fails the start cleanly.
  const sourceGenesis = source ? await source.genesis() : undefined;
  // /versions and /genesis are public: ask for the status too, so a wrong token fails the start.
  if (source) await source.latestRound();
  const genesisPath = dir ? join(dir, 'genesis.json') : undefined;
  // A fork's remote is asked for its head only when there is no cache to start from (offline restarts).
  const forkRemote = options.fork ? new AlgodForkRemote(options.fork) : undefined;
  const fork = forkRemote
    ? await ForkState.open({ remote: forkRemote, cache: dir ? new FileForkCache(dir) : new MemoryForkCache(), refresh: options.fork?.refresh ?? false })
    : undefined;
  // The local chain was built on the dropped state: a refreshed fork starts its chain over.
  if (dir && options.fork?.refresh) rmSync(join(dir, 'ledger'), { recursive: true, force: true });
  if (dir && options.reset) {
    // As LocalNet's reset: a brand-new chain and a brand-new wallet (new funded accounts).
    rmSync(join(dir, 'ledger'), { recursive: true, force: true });
    rmSync(join(dir, KEY_MANAGER_DIR), { recursive: true, force: true });
    rmSync(join(dir, 'app-specs.json'), { force: true });
    rmSync(genesisPath!, { force: true });
  }
  if (dir && !sourceGenesis && !existsSync(genesisPath!) && existsSync(join(dir, 'ledger', 'journal.bin'))) {
    throw new DevnetConfigError(
      `${genesisPath} is missing but ${join(dir, 'ledger')} holds a chain: without it the chain's genesis accounts are unknown. Nothing was changed. Restore genesis.json, or start with --reset to delete that chain and begin a new one.`,
    );
  }
  if (dir && !sourceGenesis && !options.fork?.refresh && existsSync(genesisPath!) && !existsSync(join(dir, 'ledger', 'journal.bin'))) {
    // (A refreshed fork has just dropped its local chain on purpose: it starts over from the remote.)
    // genesis.json (and the wallet) say a chain was made here; without its journal there is no
    // chain to open, and starting a new one would silently replace it.
    const snapshot = join(dir, 'ledger', 'snapshot.bin');
    throw new DevnetConfigError(
      `${join(dir, 'ledger', 'journal.bin')} is missing, but ${genesisPath} shows a chain was created in this data directory` +
        `${existsSync(snapshot) ? ` (${snapshot} is still there, but a snapshot alone cannot rebuild the blocks)` : ''}. ` +
        'Nothing was changed and no new chain was started. Restore journal.bin from a backup, or start with --reset to delete this chain and begin a new one.',
    );
  }
  const shared = options.token ?? (localnet ? LOCALNET_TOKEN : undefined);
  const tokens = shared !== undefined ? { node: shared, query: shared, kmd: shared } : loadTokens(dir);

  // In memory the sealed wallet never leaves the process and its password is empty, so a costly
  // key derivation would only slow every start down.
  const kdf = options.kdf ?? (dir ? undefined : IN_MEMORY_SCRYPT);
  const keyManager = await KeyManager.open({ ...(dir ? { dataDir: join(dir, KEY_MANAGER_DIR) } : {}), ...(kdf ? { kdf } : {}) });
  const started: RunningService[] = [];
  let ledger: Ledger | undefined;
  try {
    const stored = genesisPath && !sourceGenesis ? readJson<GenesisRecord>(genesisPath, 'the genesis record') : undefined;
    let genesis: { address: string; amount: bigint; online?: boolean }[];
    if (sourceGenesis) {
      // A follower's chain is the source's: its genesis comes from there, its wallet holds no keys of it.
      genesis = (sourceGenesis.ledgerConfig.genesisAccounts ?? []).map((g) => ({
        address: String(g.address),
        amount: g.amount,
        ...(g.online ? { online: true } : {}),
      }));
      await keyManager.ensureWallet({ name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD, keyCount: 0 });
    } else if (stored) {
      genesis = stored.accounts.map((a) => ({ address: a.address, amount: BigInt(a.amount), ...(a.online ? { online: true } : {}) }));
      if (options.accounts !== undefined && options.accounts !== genesis.length) {
        throw new DevnetConfigError(
          `the data directory's chain was created with ${genesis.length} funded accounts, not ${options.accounts}; start with --reset to make a new chain`,
        );
      }
      // The funded accounts' keys live in the default wallet. A missing or damaged wallet is never
      // replaced by a new one (its keys could not sign for these accounts): refuse instead.
      const keyManagerDir = join(dir!, KEY_MANAGER_DIR);
      if (!keyManager.findWallet(DEFAULT_WALLET_NAME) && genesis.length > 0) {
        const damaged = [...keyManager.unreadable].map(([id, why]) => `${id}.wallet.json (${why})`);
        throw new DevnetConfigError(
          `the wallet "${DEFAULT_WALLET_NAME}" holding the keys of this chain's funded accounts is ${damaged.length ? `not readable: damaged file${damaged.length === 1 ? '' : 's'} in ${keyManagerDir}: ${damaged.join(', ')}` : `missing from ${keyManagerDir}`}. ` +
            'Nothing was changed and no new wallet was created. Restore the wallet file from a backup, or start with --reset to begin a new chain.',
        );
      }
      let held: string[];
      try {
        held = (await keyManager.ensureWallet({ name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD, keyCount: genesis.length })).addresses;
      } catch (e) {
        throw new DevnetConfigError(
          `the wallet "${DEFAULT_WALLET_NAME}" in ${keyManagerDir} cannot be opened (${(e as Error).message}); its file may be damaged. Nothing was changed: restore it from a backup, or start with --reset to begin a new chain.`,
          { cause: e },
        );
      }
      const missing = genesis.filter((g) => !held.includes(g.address));
      if (missing.length) {
        throw new DevnetConfigError(
          `the wallet "${DEFAULT_WALLET_NAME}" in ${keyManagerDir} does not hold the keys of ${missing.length} funded account${missing.length === 1 ? '' : 's'} of this chain (${missing[0]!.address}${missing.length > 1 ? ' …' : ''}). Restore the wallet file it was created with, or start with --reset to begin a new chain.`,
        );
      }
    } else {
      const count = options.accounts ?? DEFAULT_ACCOUNT_COUNT;
      const { addresses } = await keyManager.ensureWallet({ name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD, keyCount: count });
      // LocalNet's funded accounts are online (participating) from genesis; AlgoKit finds its
      // dispenser among the accounts that are not offline.
      genesis = addresses.slice(0, count).map((address) => ({ address, amount: funds, ...(localnet ? { online: true } : {}) }));
      if (genesisPath) {
        const record: GenesisRecord = {
          version: 1,
          accounts: genesis.map((g) => ({ address: g.address, amount: String(g.amount), ...(g.online ? { online: true as const } : {}) })),
        };
        writePrivate(genesisPath, JSON.stringify(record, null, 2) + '\n');
      }
    }

    let store = dir ? new FileLedgerStore(join(dir, 'ledger'), { recover: options.recover ?? false }) : undefined;
    const ledgerConfig = sourceGenesis ? sourceGenesis.ledgerConfig : { ...(localnet ? { genesisId: LOCALNET_GENESIS_ID } : {}), genesisAccounts: genesis };
    ledger = new Ledger({ ...ledgerConfig, ...(store ? { store } : {}), ...(fork ? { fork } : {}) });
    if (sourceGenesis && toBase64(ledger.genesisHash) !== toBase64(sourceGenesis.genesisHash)) {
      throw new DevnetConfigError(
        `the follow source's genesis does not rebuild its chain (genesis hash ${toBase64(sourceGenesis.genesisHash)}, rebuilt ${toBase64(ledger.genesisHash)}): only a tealworks devnet's chain can be followed`,
      );
    }
    const recoveredNotes: string[] = [];
    if (source && store && dir && ledger.latestRound > 0n) {
      // A follower restarted on a kept ledger: its rounds must still be its source's. Divergent
      // rounds (an altered block taken from a hostile or rolled-back source) would wedge it.
      const divergence = await firstDivergentRound(ledger, source);
      if (divergence) {
        const why = `rounds ${divergence.round}..${ledger.latestRound} of this follower differ from its source's (block ${divergence.round} is ${divergence.ours} here, ${divergence.theirs} at ${source.url})`;
        if (!options.recover) {
          throw new DevnetConfigError(
            `${why}. Nothing was changed. Start with --recover to move those rounds aside into a separate file (nothing is deleted) and fetch them again from the source, or follow the source the rounds came from.`,
          );
        }
        const round = divergence.round;
        ledger.close();
        ledger = undefined;
        const cut = new FileLedgerStore(join(dir, 'ledger'), { recover: true });
        cut.readJournal();
        cut.setAsideFrom(Number(round), why);
        cut.close();
        recoveredNotes.push(...cut.recovered);
        // The snapshot is past the cut now: reopening sets it aside and rebuilds from the journal.
        store = new FileLedgerStore(join(dir, 'ledger'), { recover: true });
        ledger = new Ledger({ ...ledgerConfig, store });
      }
    }
    const lookback = config.MaxAcctLookback;

    const corsOrigins = options.corsOrigins ?? (localnet ? ['*'] : undefined);
    const serveOpts = { host, ...(options.log ? { log: options.log } : {}), ...(corsOrigins ? { corsOrigins } : {}) };
    const node: RunningNodeService = await startNodeService({
      ...serveOpts,
      host: nodeHost,
      port: ports.node,
      ledger,
      apiToken: tokens.node,
      genesis: {
        ...(localnet ? { network: 'dockernet' } : {}),
        devMode: !blockIntervalMs,
        alloc: genesis.map((g, i) => ({ address: g.address, amount: g.amount, comment: `Wallet${i + 1}`, ...(g.online ? { status: 1 as const } : {}) })),
      },
      ...(localnet ? { publicHealth: true } : {}),
      ...(blockIntervalMs ? { blockIntervalMs } : {}),
      // A devnet answers the /v1/devnet cheat routes; a follower of a real network does not.
      cheats: !followMode,
      ...(options.onBlockError ? { onBlockError: options.onBlockError } : {}),
      ownsLedger: true,
      ...(config.DisableAPIAuth ? { disableApiAuth: true } : {}),
      ...(dir ? { appSpecsFile: join(dir, 'app-specs.json') } : {}),
      follower: {
        enabled: followMode,
        ...(lookback ? { lookback } : {}),
        // Rule 1 for a fresh follower. One restarted on a kept ledger starts at the first round it
        // does not hold, as the node does: deltas live in memory, so the window starts afresh.
        ...(followMode && ledger.latestRound > 0n ? { initialSyncRound: ledger.latestRound + 1n } : {}),
      },
    });
    started.push(node);
    // LocalNet's indexer asks for no token (clients may still send one): under `localnet` the query
    // service accepts every request, unless a token was chosen explicitly.
    const queryOpen = localnet && options.token === undefined;
    // A chain opened with history is indexed at the query service's first request, not at start
    // (decoding every stored block was most of a cold start on a long chain).
    const query = await startQueryService({
      ...serveOpts,
      port: ports.query,
      ledger,
      lazyIndex: ledger.latestRound > ledger.firstRound + 1n,
      ...(queryOpen ? {} : { token: tokens.query }),
    });
    started.push(query);
    const keyManagerService: RunningKeyManager = await startKeyManagerService({
      ...serveOpts,
      port: ports.keyManager,
      wallets: keyManager,
      apiToken: tokens.kmd,
      ownsKeyManager: true,
      ...(localnet ? { byteForm: 'base64' as const } : {}),
    });
    started.push(keyManagerService);
    const sync = source
      ? new FollowerSync(ledger, node.follower, source, {
          ...(config.CatchupParallelBlocks ? { parallelBlocks: config.CatchupParallelBlocks } : {}),
          ...(options.onFollowerError ? { onError: options.onFollowerError } : {}),
        })
      : undefined;
    sync?.start();

    let stopping: Promise<void> | undefined;
    const onSignal = () => void stop();
    const stop = (): Promise<void> => {
      // Query and key manager first: the node's close flushes the ledger the query service reads.
      stopping ??= (async () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await sync?.stop();
        await Promise.allSettled([query.close(), keyManagerService.close()]);
        try {
          await node.close();
        } finally {
          lock?.release();
        }
      })();
      return stopping;
    };
    lock?.publish({
      genesisId: ledger.genesisId,
      node: { url: node.url, token: tokens.node },
      query: { url: query.url, token: tokens.query },
      kmd: { url: keyManagerService.url, token: tokens.kmd },
      wallet: { name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD },
      accounts: genesis.map((g) => ({ address: g.address, genesisAmount: String(g.amount) })),
    });
    if (options.stopOnSignals) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    return {
      node: { url: node.url, token: tokens.node },
      query: { url: query.url, token: tokens.query },
      keyManager: { url: keyManagerService.url, token: tokens.kmd },
      accounts: genesis.map((g) => ({ address: g.address, genesisAmount: g.amount })),
      wallet: { name: DEFAULT_WALLET_NAME, password: DEFAULT_WALLET_PASSWORD },
      dataDir: dir,
      genesisId: ledger.genesisId,
      ledger,
      wallets: keyManager,
      config,
      follower: sync,
      recovered: [...recoveredNotes, ...(store ? store.recovered : [])],
      fork,
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
