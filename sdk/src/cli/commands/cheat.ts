// `tealworks cheat NAME [key=value …]`: one cheat on this folder's devnet (`/v1/devnet/NAME`).
import { join } from 'node:path';
import { DEVNET_CHEATS, DevnetCheatsClient, type DevnetCheat } from '../../adapters/node/devnet-cheats.js';
import { stringifyJson } from '../../encoding/json.js';
import { parseArgs } from './run.js';
import { NETWORK_FLAGS, openOneOff } from './call.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { DEFAULT_DEVNET_DATA_DIR } from '../../services/devnet/lock.js';

const USAGE = `tealworks cheat NAME [field=value …] [--network devnet|localnet] [--json]
  NAME: ${DEVNET_CHEATS.join(', ')}
  e.g.  tealworks cheat advance-rounds rounds=1000
        tealworks cheat set-balance address=ABC… amount=5000000
        tealworks cheat set-box appId=1001 name=Ym94 value=AAAAAAAAAAE=   (bytes as base64)
        id=$(tealworks cheat snapshot --json | jq -r .id); …; tealworks cheat revert id=$id
  Which chain: by default the devnet of this folder (${DEFAULT_DEVNET_DATA_DIR}): the \`tealworks devnet\`
  serving it when one runs (found through its lock file), else a devnet started on that folder for
  this one command and stopped after it (the change is kept in the folder's chain). A devnet
  started with --in-memory or on another --data folder is not found this way. --network localnet
  acts on the local network's node instead. The output names the chain acted on
  (JSON: "target").`;

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
  summary: "Snapshot, revert, move rounds or time, impersonate, set balances, state or boxes on this folder's devnet",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts } = parseArgs(args, ['--json'], [...NETWORK_FLAGS]);
    const [name, ...pairs] = positional;
    if (!name) throw new UsageError('give the cheat NAME');
    if (!(DEVNET_CHEATS as readonly string[]).includes(name)) throw new UsageError(`unknown cheat "${name}"; one of ${DEVNET_CHEATS.join(', ')}`);
    const body = bodyOf(pairs);
    const network = opts.get('--network');
    if (network === 'testnet' || network === 'mainnet')
      throw new UsageError(`cheats change a devnet's chain; ${network} has none: use --network devnet (the default) or localnet`);
    const one = await openOneOff(opts, io.cwd);
    const node = one.network.profile.node;
    const client = new DevnetCheatsClient({ url: node.url, ...(node.token ? { token: node.token } : {}), retry: false });
    try {
      const r = await client.cheat(name as DevnetCheat, body);
      const dataDir = one.network.name === 'devnet' ? join(io.cwd, DEFAULT_DEVNET_DATA_DIR) : undefined;
      const started = one.network.devnet !== undefined;
      const target = { network: one.network.name, url: node.url, ...(dataDir ? { dataDir } : {}), ...(dataDir ? { startedForThisCommand: started } : {}) };
      const on = !dataDir
        ? `${one.network.name} at ${node.url}`
        : started
          ? `the devnet of ${dataDir}, started for this command and stopped after it (no \`tealworks devnet\` was serving that folder)`
          : `the devnet at ${node.url} (serving ${dataDir})`;
      if (opts.has('--json')) io.stdout(stringifyJson({ ...r, target }) + '\n');
      else io.stdout(`${name}: done; round ${r.round}, timestamp ${r.timestamp}${r.id !== undefined ? `, snapshot id ${r.id}` : ''}; on ${on}\n`);
      return 0;
    } finally {
      await client.close();
      await one.close();
    }
  },
};
