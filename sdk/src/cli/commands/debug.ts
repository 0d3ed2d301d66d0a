// `tealworks debug --dap`: runs the TEAL debug adapter over stdio for DAP clients other than VS
// Code (nvim-dap, Emacs dap-mode …). Like `tealworks lsp`, the adapter lives beside the language
// server (above the CLI in the layering), so this command locates its bundle and runs it as a child
// that inherits stdin/stdout: the client talks to the adapter directly.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type Command } from '../command.js';
import { runChild, tsxLoader } from './child.js';

const USAGE = 'tealworks debug --dap';

/** Where the adapter can be: an override, next to the bundled CLI, the repository build, the sources. */
export function locateDebugAdapter(
  from: string = dirname(fileURLToPath(import.meta.url)),
  env: NodeJS.ProcessEnv = process.env,
): { nodeArgs: string[]; path: string } | undefined {
  const override = env.TEALWORKS_DEBUG_ADAPTER;
  if (override) return existsSync(override) ? { nodeArgs: override.endsWith('.ts') ? tsxLoader() : [], path: override } : undefined;
  // Beside the bundle (sdk/dist/cli.js, or its chunk in sdk/dist/cli-chunks/), then the repository build.
  for (const path of [resolve(from, 'debug-adapter.cjs'), resolve(from, '../debug-adapter.cjs'), resolve(from, '../../dist/debug-adapter.cjs')])
    if (existsSync(path)) return { nodeArgs: [], path };
  const source = resolve(from, '../../../../server/src/debug/main.ts');
  if (existsSync(source)) return { nodeArgs: tsxLoader(), path: source };
  return undefined;
}

export const debugCommand: Command = {
  name: 'debug',
  summary: 'Run the TEAL debug adapter over stdio (Debug Adapter Protocol, for nvim-dap and other clients)',
  usage: USAGE,
  async run(args) {
    if (args.length !== 1 || args[0] !== '--dap')
      throw new UsageError(
        args.length ? `unknown option ${args.find((a) => a !== '--dap')}` : 'say --dap: the debugger speaks the Debug Adapter Protocol over stdio',
      );
    const entry = locateDebugAdapter();
    if (!entry) throw new UsageError('the debug adapter bundle was not found; run `npm run build` or set TEALWORKS_DEBUG_ADAPTER');
    return runChild(entry);
  },
};
