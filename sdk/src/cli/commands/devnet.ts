// `tealworks devnet`: runs the embedded devnet (node, query and key-manager services) in the
// foreground until SIGINT/SIGTERM, then stops it with the chain and wallets flushed to disk.
import { join, resolve } from 'node:path';
import { ArgReader } from '../args.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { isLoopback, LOCALNET_GENESIS_ID, startDevnet, type DevnetOptions, type RunningDevnet } from '../../services/devnet/index.js';
import { DEFAULT_DEVNET_DATA_DIR, DEFAULT_LOCALNET_DATA_DIR, type RunningDevnetRecord } from '../../services/devnet/lock.js';
import { detachDevnet, DEVNET_LOG_FILE, runDevnetSubcommand, selfCommand, type SelfCommand } from './devnet-background.js';

const USAGE =
  'tealworks devnet [--data DIR] [--in-memory] [--host 127.0.0.1] [--ports NODE,QUERY,KMD] [--block-interval MS] [--accounts N] [--reset] [--recover] [--localnet] [--token T] [--cors ORIGIN]... [--json] [--detach] [--follow URL [--follow-token TOKEN]]\n' +
  'tealworks devnet status [--data DIR | --localnet] [--json]   |   tealworks devnet logs [--data DIR | --localnet] [--tail N] [--follow]   |   tealworks devnet stop [--data DIR | --localnet]\n' +
  '  --detach: run in the background (as `algokit localnet start`): returns once the services listen; output goes to DIR/devnet.log. status: URLs, tokens and health; logs: that output; stop: a clean stop. Without --data they look in .tealworks/devnet, .tealworks/localnet and .tealworks/fork.\n' +
  "  --reset: delete the data directory's chain and wallets and start a brand-new chain and wallet (as LocalNet's reset).\n" +
  '  --recover: start on a damaged data directory, keeping every intact round and setting the damaged rest aside.\n' +
  '  --localnet: act as AlgoKit LocalNet (ports 4001/8980/4002, token aaa…a, genesis dockernet-v1, dispenser Wallet1). --token T: one token for all three services.\n' +
  '  --cors ORIGIN: let that browser origin (e.g. http://localhost:5173; * for any) call the three services; repeatable. --localnet allows every origin, as LocalNet does.\n' +
  "  --follow URL: follow that node's chain (follower mode; paused at sync round 0). Its token: TEALWORKS_FOLLOW_TOKEN (preferred: a --follow-token argument shows in `ps`).\n" +
  '  --fork URL|testnet|mainnet [--fork-token T] [--fork-refresh]: fork a live network: its genesis, rounds after its latest, state copied from its /v2 API on first read (cached in the data directory, default .tealworks/fork; transactions never reach it). Token also from TEALWORKS_FORK_TOKEN; --fork-refresh drops the cache and the local chain.\n' +
  "  The data directory's config.json (node key names: EnableFollowMode, MaxAcctLookback, CatchupParallelBlocks, EndpointAddress, DevMode, DisableAPIAuth…) is read at start; see `tealworks node profile`.";

export const DEFAULT_DATA_DIR = DEFAULT_DEVNET_DATA_DIR;
/** `--localnet` keeps its chain apart (its genesis id differs). */
export { DEFAULT_LOCALNET_DATA_DIR };
/** `--fork` keeps its chain apart (its genesis is the remote's). */
export const DEFAULT_FORK_DATA_DIR = '.tealworks/fork';

interface DevnetArgs {
  options: DevnetOptions;
  json: boolean;
}

function intArg(flag: string, v: string, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got "${v}"`);
  return Number(v);
}

export function parseDevnetArgs(args: string[], cwd: string): DevnetArgs {
  const options: DevnetOptions = {};
  let json = false;
  let data: string | undefined;
  let follow: string | undefined;
  let followToken: string | undefined;
  let fork: string | undefined;
  let forkToken: string | undefined;
  let forkRefresh = false;
  const argv = new ArgReader(args);
  for (let a = argv.next(); a !== undefined; a = argv.next()) {
    switch (a) {
      case '--data':
        data = argv.value();
        break;
      case '--in-memory':
        options.inMemory = true;
        break;
      case '--host':
        options.host = argv.value();
        break;
      case '--ports': {
        const parts = argv.value().split(',');
        if (parts.length !== 3) throw new UsageError('--ports wants three ports NODE,QUERY,KMD (0 = any free port)');
        const [node, query, keyManager] = parts.map((p) => intArg('--ports', p.trim(), 65535));
        options.ports = { node: node!, query: query!, keyManager: keyManager! };
        break;
      }
      case '--block-interval':
        options.blockIntervalMs = intArg('--block-interval', argv.value(), 86_400_000);
        break;
      case '--accounts':
        options.accounts = intArg('--accounts', argv.value(), 1000);
        break;
      case '--reset':
        options.reset = true;
        break;
      case '--cors': {
        const o = argv.value();
        if (o !== '*' && !/^[a-z][a-z0-9+.-]*:\/\/[^\s/]+$/i.test(o))
          throw new UsageError(`--cors wants a browser origin such as http://localhost:5173 (scheme://host[:port]), or * for any origin, got "${o}"`);
        options.corsOrigins = [...(options.corsOrigins ?? []), o];
        break;
      }
      case '--localnet':
        options.localnet = true;
        break;
      case '--token': {
        const t = argv.value();
        if (t === '' || /[\s\x00-\x1f]/.test(t)) throw new UsageError('--token wants a non-empty token without spaces');
        options.token = t;
        break;
      }
      case '--recover':
        options.recover = true;
        break;
      case '--json':
        json = true;
        break;
      case '--follow':
        follow = argv.value();
        break;
      case '--follow-token':
        followToken = argv.value();
        break;
      case '--fork':
        fork = argv.value();
        break;
      case '--fork-token':
        forkToken = argv.value();
        break;
      case '--fork-refresh':
        forkRefresh = true;
        break;
      default:
        throw new UsageError(a.startsWith('-') ? `unknown option ${a}` : `unexpected argument "${a}"`);
    }
  }
  if (followToken !== undefined && follow === undefined) throw new UsageError('--follow-token needs --follow URL');
  if (follow !== undefined) {
    const token = followToken ?? process.env.TEALWORKS_FOLLOW_TOKEN;
    options.follow = { url: follow, ...(token ? { token } : {}) };
  }
  if ((forkToken !== undefined || forkRefresh) && fork === undefined) throw new UsageError('--fork-token and --fork-refresh need --fork URL');
  if (fork !== undefined) {
    if (follow !== undefined) throw new UsageError('--fork and --follow exclude each other');
    const token = forkToken ?? process.env.TEALWORKS_FORK_TOKEN;
    options.fork = { url: fork, ...(token ? { token } : {}), ...(forkRefresh ? { refresh: true } : {}) };
  }
  if (!options.inMemory)
    options.dataDir = resolve(cwd, data ?? (fork !== undefined ? DEFAULT_FORK_DATA_DIR : options.localnet ? DEFAULT_LOCALNET_DATA_DIR : DEFAULT_DATA_DIR));
  else if (data !== undefined) throw new UsageError('--data and --in-memory exclude each other');
  return { options, json };
}

const microToUnits = (m: bigint): string => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;

const origin = (url: string): string => `${new URL(url).protocol}//${new URL(url).hostname}`;
const port = (url: string): string => new URL(url).port;

function describe(d: RunningDevnet, followUrl?: string): string {
  const lines = [
    `tealworks devnet running (${d.dataDir ? `data: ${d.dataDir}` : 'in memory'}; genesis ${d.genesisId})`,
    `  node   ${d.node.url}  token ${d.node.token}`,
    `  query  ${d.query.url}  token ${d.query.token}`,
    `  kmd    ${d.keyManager.url}  token ${d.keyManager.token}`,
    `  wallet ${d.wallet.name} (password: ${d.wallet.password === '' ? 'empty' : d.wallet.password})`,
    ...(d.fork ? forkLines(d) : []),
    ...(d.follower && followUrl
      ? [
          `  follower of ${followUrl}: takes no transactions; paused at its sync round (GET/POST /v2/ledger/sync/{round} to read or move it, DELETE /v2/ledger/sync to follow the latest round)`,
        ]
      : []),
    d.follower ? `  genesis accounts (their keys are at the source):` : `  funded accounts:`,
    ...d.accounts.map((a) => `    ${a.address}  ${microToUnits(a.genesisAmount)}`),
    ...(d.genesisId === LOCALNET_GENESIS_ID
      ? [
          '  LocalNet-compatible: algod /v2, indexer and kmd APIs; the first account is the dispenser (Wallet1).',
          `  ${envLine(d.node.url, d.node.token, d.query.url, d.query.token, d.keyManager.url, d.keyManager.token)}`,
        ]
      : []),
    'Press Ctrl+C to stop.',
  ];
  return lines.join('\n') + '\n';
}

function forkLines(d: RunningDevnet): string[] {
  const s = d.fork!.status();
  return [
    `  fork of ${s.url} (genesis ${s.genesisId}) at its round ${s.forkRound}; local rounds start at ${s.forkRound + 1n}; transactions stay local`,
    `  fork cache: ${s.cached} record${s.cached === 1 ? '' : 's'}${d.dataDir ? ' in fork-cache.bin' : ' (in memory)'}; state is fetched on first read, each remote request is logged`,
    ...(s.movedOn
      ? [`  the remote is at round ${s.remoteRound} now: fetched state may be newer than the fork round; --fork-refresh forks its current round`]
      : []),
  ];
}

function describeJson(d: RunningDevnet): string {
  return (
    JSON.stringify({
      dataDir: d.dataDir ?? null,
      genesisId: d.genesisId,
      node: d.node,
      query: d.query,
      kmd: d.keyManager,
      wallet: d.wallet,
      accounts: d.accounts.map((a) => ({ address: a.address, genesisAmount: a.genesisAmount.toString() })),
      follower: d.follower !== undefined,
      ...(d.fork ? { fork: { url: d.fork.status().url, forkRound: d.fork.head.round.toString(), cached: d.fork.status().cached } } : {}),
    }) + '\n'
  );
}

export interface StopTrigger {
  /** Settles when the devnet should stop (with a signal name to report, if any). */
  promise: Promise<unknown>;
  /** Stops listening (the devnet failed to start). */
  cancel(): void;
}

/** The first of SIGINT/SIGTERM; both listeners are removed once either arrives. */
function stopOnSignals(): StopTrigger {
  let cancel = () => {};
  const promise = new Promise<NodeJS.Signals>((resolveSignal) => {
    const on = (s: NodeJS.Signals) => () => {
      cancel();
      resolveSignal(s);
    };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    cancel = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  return { promise, cancel };
}

/** Starts the devnet, reports it and keeps it running until the stop trigger fires. */
export async function runDevnet(args: string[], io: CliIo, trigger: () => StopTrigger = stopOnSignals, self?: SelfCommand): Promise<number> {
  const sub = args[0];
  if (sub === 'status' || sub === 'logs' || sub === 'stop') {
    const t = sub === 'logs' ? trigger() : undefined;
    try {
      return await runDevnetSubcommand(sub, args.slice(1), io, t?.promise ?? new Promise(() => {}));
    } finally {
      t?.cancel();
    }
  }
  if (args.includes('--detach'))
    return detached(
      args.filter((a) => a !== '--detach'),
      io,
      self,
    );
  const { options, json } = parseDevnetArgs(args, io.cwd);
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) {
    io.stderr(
      `WARNING: binding to ${host}: the devnet's services, API tokens and funded keys become reachable from the network.\n` +
        'WARNING: its tokens are printed below and its wallet has an empty password. Use 127.0.0.1 unless you mean it.\n',
    );
  }
  // Listen for signals before the (slow) start, so an early Ctrl+C still stops cleanly.
  const stop = trigger();
  let devnet: RunningDevnet;
  // Failures the clients see (a full disk answers 503) are reported here too, without request contents.
  options.log ??= (e) => {
    if (e.status >= 500) io.stderr(`${e.service}: ${e.method} ${e.path} answered ${e.status}${e.failure ? ` (${e.failure})` : ''}\n`);
  };
  try {
    devnet = await startDevnet({
      ...options,
      onFollowerError: (e, fatal) => io.stderr(`follower: ${e.message}${fatal ? ' (stopped following)' : ' (retrying)'}\n`),
      onBlockError: (e) =>
        io.stderr(
          e ? `blocks: could not write a block (${e.message}); transactions wait in the pool and every interval retries\n` : 'blocks: writing blocks again\n',
        ),
    });
  } catch (e) {
    stop.cancel();
    throw e;
  }
  if (devnet.fork) {
    devnet.fork.onRequest = (r) => {
      const n = devnet.fork!.requests.length;
      const what = r.found
        ? `fetched ${r.resource} (remote round ${r.round})`
        : `${r.resource} is not on the remote ${devnet.fork!.head.url} (round ${r.round}): it exists here only if made locally`;
      io.stderr(`fork: ${what}; ${n} remote request${n === 1 ? '' : 's'} so far\n`);
    };
    // Best effort: a fork with a cache runs offline; it only learns whether the remote moved on.
    await devnet.fork.checkRemote().catch((e: Error) => io.stderr(`fork: ${e.message}\n`));
  }
  const nodeHost = new URL(devnet.node.url).hostname.replace(/^\[|\]$/g, '');
  if (isLoopback(host) && !isLoopback(nodeHost)) {
    io.stderr(`WARNING: config.json's EndpointAddress binds the node service to ${nodeHost}: it and its API token become reachable from the network.\n`);
  }
  for (const r of devnet.recovered) io.stderr(`recovered: ${r}\n`);
  if (options.recover && devnet.recovered.length === 0 && devnet.dataDir)
    io.stderr('recover: nothing in the data directory was damaged; nothing was set aside.\n');
  // Scripts and one-off commands find this devnet through the lock file in its data directory.
  io.stdout(json ? describeJson(devnet) : describe(devnet, options.follow?.url));
  const signal = await stop.promise;
  io.stderr(`${typeof signal === 'string' ? signal : 'stop'} received: stopping the devnet…\n`);
  await devnet.stop();
  io.stderr('devnet stopped; chain and wallets flushed.\n');
  return 0;
}

/** `--detach`: the same devnet in a background process, reported once its services listen. */
async function detached(args: string[], io: CliIo, self?: SelfCommand): Promise<number> {
  const { options, json } = parseDevnetArgs(args, io.cwd);
  if (!options.dataDir) throw new UsageError('--detach keeps its state and log in a data directory: drop --in-memory (use --reset for a fresh chain)');
  // The child gets the same arguments with its data directory spelled out; its output is a log, not JSON.
  const childArgs = [...args.filter((a) => a !== '--json'), ...(args.includes('--data') ? [] : ['--data', options.dataDir])];
  const rec = await detachDevnet(childArgs, options.dataDir, io, self ?? selfCommand());
  const log = join(options.dataDir, DEVNET_LOG_FILE);
  io.stdout(json ? JSON.stringify({ ...rec, dataDir: options.dataDir, log }) + '\n' : describeDetached(rec, options.dataDir, log));
  return 0;
}

function describeDetached(rec: RunningDevnetRecord, dataDir: string, log: string): string {
  return (
    [
      `tealworks devnet running in the background (process ${rec.pid}; data: ${dataDir}; genesis ${rec.genesisId})`,
      `  node   ${rec.node.url}  token ${rec.node.token}`,
      `  query  ${rec.query.url}  token ${rec.query.token}`,
      `  kmd    ${rec.kmd.url}  token ${rec.kmd.token}`,
      `  wallet ${rec.wallet.name} (password: ${rec.wallet.password === '' ? 'empty' : rec.wallet.password})`,
      '  funded accounts:',
      ...rec.accounts.map((a) => `    ${a.address}  ${microToUnits(BigInt(a.genesisAmount))}`),
      ...(rec.genesisId === LOCALNET_GENESIS_ID
        ? [`  ${envLine(rec.node.url, rec.node.token, rec.query.url, rec.query.token, rec.kmd.url, rec.kmd.token)}`]
        : []),
      `  log    ${log}`,
      'tealworks devnet status | logs | stop' +
        (dataDir.endsWith('.tealworks/devnet') || dataDir.endsWith('.tealworks/localnet') ? '' : ` --data ${dataDir}`) +
        ': its health, its output, a clean stop.',
    ].join('\n') + '\n'
  );
}

const envLine = (node: string, nodeToken: string, query: string, queryToken: string, keyManager: string, keyManagerToken: string): string =>
  `ALGOD_SERVER=${origin(node)} ALGOD_PORT=${port(node)} ALGOD_TOKEN=${nodeToken} INDEXER_SERVER=${origin(query)} INDEXER_PORT=${port(query)} INDEXER_TOKEN=${queryToken} KMD_SERVER=${origin(keyManager)} KMD_PORT=${port(keyManager)} KMD_TOKEN=${keyManagerToken}`;

export const devnetCommand: Command = {
  name: 'devnet',
  summary: 'Run the embedded devnet: node, query and key-manager services on loopback',
  usage: USAGE,
  run: (args, io) => runDevnet(args, io),
};
