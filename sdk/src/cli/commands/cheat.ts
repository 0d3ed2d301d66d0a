// `tealworks cheat NAME [key=value …]`: one cheat on a devnet (`/v1/devnet/NAME`): this folder's, another folder's (--data) or any running one's (--node).
import { join, resolve } from 'node:path';
import { DEVNET_CHEATS, DevnetCheatsClient, type DevnetCheat } from '../../adapters/node/devnet-cheats.js';
import { stringifyJson } from '../../encoding/json.js';
import { parseArgs, networkOption } from './run.js';
import { connectNetwork } from '../../workflow/connect.js';
import { TealworksError } from '../../errors.js';
import { HttpError, NetworkError } from '../../adapters/http/errors.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { DEFAULT_DEVNET_DATA_DIR } from '../../services/devnet/lock.js';

const USAGE = `tealworks cheat NAME [field=value …] [--data DIR | --node URL [--node-token T] | --network devnet|localnet] [--json]
  NAME: ${DEVNET_CHEATS.join(', ')}
  e.g.  tealworks cheat advance-rounds rounds=1000
        tealworks cheat set-balance address=ABC… amount=5000000
        tealworks cheat set-box appId=1001 name=Ym94 value=AAAAAAAAAAE=   (bytes as base64)
        id=$(tealworks cheat snapshot --node $URL --json | jq -r .id); …; tealworks cheat revert id=$id --node $URL
  Which chain: by default the devnet of this folder (${DEFAULT_DEVNET_DATA_DIR}): the \`tealworks devnet\`
  serving it when one runs (found through its lock file), else a devnet started on that folder for
  this one command and stopped after it (the change is kept in the folder's chain).
  --data DIR: the devnet of that data directory instead, found or started the same way.
  --node URL: the node service of a running devnet, e.g. one started with \`tealworks devnet --in-memory\`
  (the only kind whose chain can be snapshotted and reverted: a chain kept in a folder cannot be
  rewound). Its token: --node-token T, else the ALGOD_TOKEN environment variable (both printed by
  \`tealworks devnet\`; the variable keeps it out of \`ps\`).
  --network localnet acts on the local network's node. The output names the chain acted on
  (JSON: "target"), and so does an error.`;

/** A cheat the chain refused or could not take; the message names the chain it was sent to. */
export class CheatFailedError extends TealworksError {}

/** `field=value` pairs as a JSON body: true/false become booleans, everything else stays text (the route parses numbers). */
function bodyOf(pairs: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected field=value, got "${p}"`);
    const k = p.slice(0, eq);
    const v = p.slice(eq + 1);
    if (Object.hasOwn(body, k)) throw new UsageError(`field ${k} is given twice; give each field once`);
    body[k] = v === 'true' ? true : v === 'false' ? false : v;
  }
  return body;
}

export const cheatCommand: Command = {
  name: 'cheat',
  summary: "Snapshot, revert, move rounds or time, impersonate, set balances, state or boxes on a devnet (this folder's by default)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts } = parseArgs(args, ['--json'], ['--network', '--data', '--node', '--node-token']);
    const [name, ...pairs] = positional;
    if (!name) throw new UsageError('give the cheat NAME');
    if (!(DEVNET_CHEATS as readonly string[]).includes(name)) throw new UsageError(`unknown cheat "${name}"; one of ${DEVNET_CHEATS.join(', ')}`);
    const body = bodyOf(pairs);
    const target = await cheatTarget(opts, io.cwd);
    const client = new DevnetCheatsClient({ url: target.url, ...(target.token ? { token: target.token } : {}), retry: false });
    try {
      let r;
      try {
        r = await client.cheat(name as DevnetCheat, body);
      } catch (e) {
        if (!(e instanceof TealworksError)) throw e;
        // What to do next, where the failure says it: a chain kept in a folder cannot be rewound;
        // a refused token or an unreachable node is about --node's target.
        const hint =
          /kept in memory/.test(e.message) && target.json.dataDir !== undefined
            ? '\n  For snapshots from the CLI: start `tealworks devnet --in-memory` and pass its node URL with --node (token: ALGOD_TOKEN or --node-token).'
            : e instanceof HttpError && e.status === 401
              ? "\n  The node refused the token: give the devnet's node token (printed by `tealworks devnet`) with --node-token or ALGOD_TOKEN."
              : e instanceof NetworkError && target.json.network === 'node'
                ? '\n  Nothing answered there: is that devnet running (`tealworks devnet --in-memory` prints its node URL)?'
                : '';
        throw new CheatFailedError(`${e.message}\n  (cheat ${name} on ${target.on})${hint}`, { cause: e });
      }
      if (opts.has('--json')) io.stdout(stringifyJson({ ...r, target: target.json }) + '\n');
      else io.stdout(`${name}: done; round ${r.round}, timestamp ${r.timestamp}${r.id !== undefined ? `, snapshot id ${r.id}` : ''}; on ${target.on}\n`);
      return 0;
    } finally {
      await client.close();
      await target.close();
    }
  },
};

/** The chain a cheat goes to: its node's URL and token, how to name it, and what to stop afterwards. */
interface CheatTarget {
  url: string;
  token: string | undefined;
  /** In words, for the output and errors. */
  on: string;
  /** The `target` field of `--json` output. */
  json: { network: string; url: string; dataDir?: string; startedForThisCommand?: boolean };
  close(): Promise<void>;
}

async function cheatTarget(opts: Map<string, string | true>, cwd: string): Promise<CheatTarget> {
  const network = opts.get('--network');
  const data = opts.get('--data');
  const node = opts.get('--node');
  const nodeToken = opts.get('--node-token');
  if (network === 'testnet' || network === 'mainnet')
    throw new UsageError(`cheats change a devnet's chain; ${network} has none: use --network devnet (the default) or localnet`);
  const given = [network !== undefined && '--network', data !== undefined && '--data', node !== undefined && '--node'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} each name the chain: give one of them`);
  if (nodeToken !== undefined && node === undefined) throw new UsageError('--node-token goes with --node URL');
  if (typeof node === 'string') {
    let url: URL;
    try {
      url = new URL(node);
    } catch {
      throw new UsageError(`--node wants the node service's URL (http://host:port, as \`tealworks devnet\` prints it), got "${node}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--node wants an http:// or https:// URL, got "${node}"`);
    const base = node.replace(/\/+$/, '');
    const token = typeof nodeToken === 'string' ? nodeToken : process.env.ALGOD_TOKEN || undefined;
    return { url: base, token, on: `the node at ${base}`, json: { network: 'node', url: base }, close: async () => {} };
  }
  const name = networkOption(network) ?? 'devnet';
  const dataDir = name === 'devnet' ? (typeof data === 'string' ? resolve(cwd, data) : join(cwd, DEFAULT_DEVNET_DATA_DIR)) : undefined;
  // A `tealworks devnet` already serving the folder is used over HTTP (found through the data
  // directory's lock file) rather than opening its files a second time.
  const one = await connectNetwork({ kind: 'named', name }, { baseDir: cwd, ...(dataDir ? { dataDir } : {}) });
  const url = one.profile.node.url;
  const started = one.devnet !== undefined;
  const on = !dataDir
    ? `${one.name} at ${url}`
    : started
      ? `the devnet of ${dataDir}, started for this command and stopped after it (no \`tealworks devnet\` was serving that folder)`
      : `the devnet at ${url} (serving ${dataDir})`;
  return {
    url,
    token: one.profile.node.token,
    on,
    json: { network: one.name, url, ...(dataDir ? { dataDir, startedForThisCommand: started } : {}) },
    close: () => one.close(),
  };
}
