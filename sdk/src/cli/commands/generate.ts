// `tealworks generate client APP.arc56.json [-o FILE] [--class NAME]`: a typed TypeScript client.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { loadAppSpec } from '../../abi/arc56.js';
import { generateAppClient } from '../../client/codegen.js';
import { parseArgs } from './run.js';
import { UsageError, type CliIo, type Command } from '../command.js';

const USAGE = 'tealworks generate client APP.arc56.json|APP.arc32.json [-o|--out FILE.ts] [--class NAME] [--import-from MODULE]';

export const generateCommand: Command = {
  name: 'generate',
  summary: 'Generate a typed TypeScript client from an ARC-56 (or ARC-32) app spec',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const normalized = args.map((a) => (a === '-o' ? '--out' : a));
    const { positional, opts } = parseArgs(normalized, [], ['--out', '--class', '--import-from']);
    const [what, specPath, ...extra] = positional;
    if (what !== 'client')
      throw new UsageError(what === undefined ? 'say what to generate: `generate client SPEC`' : `cannot generate "${what}" (only: client)`);
    if (!specPath) throw new UsageError('give the app spec file (ARC-56 or ARC-32 JSON)');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const path = resolve(io.cwd, specPath);
    if (!existsSync(path)) throw new UsageError(`${specPath} does not exist`);
    const spec = loadAppSpec(await readFile(path, 'utf8'));
    const code = generateAppClient(spec, {
      sourceName: basename(specPath),
      ...(typeof opts.get('--class') === 'string' ? { className: opts.get('--class') as string } : {}),
      ...(typeof opts.get('--import-from') === 'string' ? { importFrom: opts.get('--import-from') as string } : {}),
    });
    const out = opts.get('--out');
    if (typeof out === 'string') {
      await writeFile(resolve(io.cwd, out), code);
      io.stdout(`wrote ${out}: ${spec.methods.length} method(s), ${spec.structs.size} struct(s), ${spec.maps.box.length} box map(s)\n`);
    } else io.stdout(code);
    return 0;
  },
};
