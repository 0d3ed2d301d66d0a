// `tealworks devnet`: runs the embedded devnet (node, query and key-manager services) in the
// foreground until SIGINT/SIGTERM, then stops it with the chain and wallets flushed to disk.
import { resolve } from 'node:path';
import { ArgReader } from '../args.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { isLoopback, startDevnet, type DevnetOptions, type RunningDevnet } from '../../services/devnet/index.js';

const USAGE =
  'tealworks devnet [--data DIR] [--in-memory] [--host 127.0.0.1] [--ports NODE,QUERY,KMD] [--block-interval MS] [--accounts N] [--reset] [--recover] [--json]';

export const DEFAULT_DATA_DIR = '.tealworks/devnet';

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
        const [node, query, kmd] = parts.map((p) => intArg('--ports', p.trim(), 65535));
        options.ports = { node: node!, query: query!, kmd: kmd! };
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
      case '--recover':
        options.recover = true;
        break;
      case '--json':
        json = true;
        break;
      default:
        throw new UsageError(a.startsWith('-') ? `unknown option ${a}` : `unexpected argument "${a}"`);
    }
  }
  if (!options.inMemory) options.dataDir = resolve(cwd, data ?? DEFAULT_DATA_DIR);
  else if (data !== undefined) throw new UsageError('--data and --in-memory exclude each other');
  return { options, json };
}

const microToUnits = (m: bigint): string => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;

function describe(d: RunningDevnet): string {
  const lines = [
    `tealworks devnet running (${d.dataDir ? `data: ${d.dataDir}` : 'in memory'}; genesis ${d.genesisId})`,
    `  node   ${d.node.url}  token ${d.node.token}`,
    `  query  ${d.query.url}  token ${d.query.token}`,
    `  kmd    ${d.kmd.url}  token ${d.kmd.token}`,
    `  wallet ${d.wallet.name} (password: ${d.wallet.password === '' ? 'empty' : d.wallet.password})`,
    `  funded accounts:`,
    ...d.accounts.map((a) => `    ${a.address}  ${microToUnits(a.genesisAmount)}`),
    'Press Ctrl+C to stop.',
  ];
  return lines.join('\n') + '\n';
}

function describeJson(d: RunningDevnet): string {
  return (
    JSON.stringify({
      dataDir: d.dataDir ?? null,
      genesisId: d.genesisId,
      node: d.node,
      query: d.query,
      kmd: d.kmd,
      wallet: d.wallet,
      accounts: d.accounts.map((a) => ({ address: a.address, genesisAmount: a.genesisAmount.toString() })),
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
export async function runDevnet(args: string[], io: CliIo, trigger: () => StopTrigger = stopOnSignals): Promise<number> {
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
    devnet = await startDevnet(options);
  } catch (e) {
    stop.cancel();
    throw e;
  }
  for (const r of devnet.recovered) io.stderr(`recovered: ${r}\n`);
  if (options.recover && devnet.recovered.length === 0 && devnet.dataDir) io.stderr('recover: nothing in the data directory was damaged; nothing was set aside.\n');
  io.stdout(json ? describeJson(devnet) : describe(devnet));
  const signal = await stop.promise;
  io.stderr(`${typeof signal === 'string' ? signal : 'stop'} received: stopping the devnet…\n`);
  await devnet.stop();
  io.stderr('devnet stopped; chain and wallets flushed.\n');
  return 0;
}

export const devnetCommand: Command = {
  name: 'devnet',
  summary: 'Run the embedded devnet: node, query and key-manager services on loopback',
  usage: USAGE,
  run: (args, io) => runDevnet(args, io),
};
