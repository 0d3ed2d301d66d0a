// `tealworks cheat NAME [key=value …]`: one cheat on the running devnet (`/v1/devnet/NAME`).
import { DEVNET_CHEATS, DevnetCheatsClient, type DevnetCheat } from '../../adapters/node/devnet-cheats.js';
import { stringifyJson } from '../../encoding/json.js';
import { parseArgs } from './run.js';
import { NETWORK_FLAGS, openOneOff } from './call.js';
import { UsageError, type CliIo, type Command } from '../command.js';

const USAGE = `tealworks cheat NAME [field=value …] [--network devnet|localnet] [--json]
  NAME: ${DEVNET_CHEATS.join(', ')}
  e.g.  tealworks cheat advance-rounds rounds=1000
        tealworks cheat set-balance address=ABC… amount=5000000
        tealworks cheat set-box appId=1001 name=Ym94 value=AAAAAAAAAAE=   (bytes as base64)
        id=$(tealworks cheat snapshot --json | jq -r .id); …; tealworks cheat revert id=$id`;

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
  summary: 'Snapshot, revert, move rounds or time, impersonate, set balances, state or boxes on the devnet',
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
      if (opts.has('--json')) io.stdout(stringifyJson(r) + '\n');
      else io.stdout(`${name}: done; round ${r.round}, timestamp ${r.timestamp}${r.id !== undefined ? `, snapshot id ${r.id}` : ''}\n`);
      return 0;
    } finally {
      await client.close();
      await one.close();
    }
  },
};
