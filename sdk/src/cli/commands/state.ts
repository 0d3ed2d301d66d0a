// `tealworks state APP_ID [--boxes] [--local ADDRESS]`: global state (and boxes, local state),
// decoded by the ARC-56 spec's keys and maps when one is given, else shown raw.
import { UsageError, type CliIo, type Command } from '../command.js';
import { parseArgs } from './run.js';
import { appIdArg, jsonText, loadSpecOption, NETWORK_FLAGS, openOneOff } from './call.js';
import { AppClient } from '../../app/client.js';
import { formatStorageItem, type StorageItem } from '../../app/state-decode.js';

const USAGE = 'tealworks state APP_ID [--boxes] [--limit N] [--local ADDRESS] [--spec FILE] [--network N] [--json]';

function plain(items: StorageItem[]): unknown[] {
  return items.map((i) => ({
    key: i.match ? (i.match.kind === 'map' ? { map: i.match.name, key: i.mapKey } : i.match.name) : (i.keyView.utf8 ?? `0x${i.keyView.hex}`),
    type: i.match?.valueType,
    value: i.decoded ?? (typeof i.value === 'bigint' ? i.value : (i.valueView?.utf8 ?? i.valueView?.address ?? (i.valueView ? `0x${i.valueView.hex}` : null))),
    raw: i.value,
    ...(i.decodeError ? { decodeError: i.decodeError } : {}),
  }));
}

export const stateCommand: Command = {
  name: 'state',
  summary: "Show an app's global state, local state of an account and boxes, decoded by its ARC-56 spec",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts } = parseArgs(args, ['--json', '--boxes'], ['--spec', '--local', '--limit', ...NETWORK_FLAGS]);
    const appId = appIdArg(positional[0]);
    if (positional.length > 1) throw new UsageError(`unexpected argument "${positional[1]}"`);
    const limit = opts.get('--limit');
    if (limit === true || (limit !== undefined && !/^[0-9]+$/.test(limit))) throw new UsageError('--limit needs a number');
    const spec = await loadSpecOption(opts, io.cwd);
    const one = await openOneOff(opts, io.cwd);
    try {
      const client = new AppClient({ chain: one.network.chain, appId, ...(spec ? { spec } : {}) });
      const global = await client.globalState();
      const local = typeof opts.get('--local') === 'string' ? await client.localState(opts.get('--local') as string) : undefined;
      let boxes: StorageItem[] | undefined;
      let more: string | undefined;
      if (opts.has('--boxes')) {
        const page = await client.boxes({ values: true, limit: limit ? Number(limit) : 100 });
        boxes = page.items;
        more = page.next;
      }
      if (opts.has('--json')) {
        io.stdout(
          jsonText({
            appId,
            address: client.appAddress,
            global: plain(global),
            ...(local ? { local: plain(local) } : {}),
            ...(boxes ? { boxes: plain(boxes), ...(more ? { next: more } : {}) } : {}),
          }),
        );
        return 0;
      }
      io.stdout(`app ${appId} (${client.appAddress})\nglobal state:\n`);
      for (const i of global) io.stdout(`  ${formatStorageItem(i)}\n`);
      if (global.length === 0) io.stdout('  (empty)\n');
      if (local) {
        io.stdout(`local state of ${opts.get('--local')}:\n`);
        for (const i of local) io.stdout(`  ${formatStorageItem(i)}\n`);
      }
      if (boxes) {
        io.stdout(`boxes${more ? ` (first ${boxes.length}; more exist)` : ''}:\n`);
        for (const i of boxes) io.stdout(`  ${formatStorageItem(i)}\n`);
        if (boxes.length === 0) io.stdout('  (none)\n');
      }
      return 0;
    } finally {
      await one.close();
    }
  },
};
