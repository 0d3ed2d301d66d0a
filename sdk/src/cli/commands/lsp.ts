// `tealworks lsp --stdio`: runs the TEAL language server for editors other than VS Code (Neovim,
// Helix, Emacs …). The server lives outside the SDK (server/ sits above the CLI in the layering), so
// this command locates its bundle and runs it as a child process that inherits stdin/stdout — the
// editor talks to the server directly, byte for byte.
import { runChild, tsxLoader } from './child.js';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type Command } from '../command.js';

const USAGE = 'tealworks lsp [--stdio | --socket=PORT]';

interface ServerEntry {
  /** Arguments for `node` before the server's own arguments. */
  nodeArgs: string[];
  path: string;
}

/** Where the server can be: an explicit override, next to the bundled CLI, the repo build, the sources. */
export function locateServer(from: string = dirname(fileURLToPath(import.meta.url)), env: NodeJS.ProcessEnv = process.env): ServerEntry | undefined {
  const override = env.TEALWORKS_LSP_SERVER;
  if (override) return existsSync(override) ? { nodeArgs: override.endsWith('.ts') ? tsxLoader() : [], path: override } : undefined;
  const bundles = [
    resolve(from, 'server.cjs'), // sdk/dist/cli.js → sdk/dist/server.cjs (published package)
    resolve(from, '../server.cjs'), // sdk/dist/cli-chunks/*.js (the bundle's chunk holding this code) → sdk/dist/server.cjs
    resolve(from, '../../dist/server.cjs'), // sdk/dist/cli.js → dist/server.cjs (repository build)
  ];
  for (const path of bundles) if (existsSync(path)) return { nodeArgs: [], path };
  // Running the CLI from its TypeScript sources (sdk/src/cli/commands): run the server's sources too.
  const source = resolve(from, '../../../../server/src/main.ts');
  if (existsSync(source)) return { nodeArgs: tsxLoader(), path: source };
  return undefined;
}

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'Run the TEAL language server (for Neovim, Helix and other LSP editors)',
  usage: USAGE,
  async run(args) {
    const transport = args.length ? args : ['--stdio'];
    for (const a of transport) {
      if (a !== '--stdio' && !/^--socket=\d+$/.test(a)) throw new UsageError(`unknown option ${a}`);
    }
    const entry = locateServer();
    if (!entry) throw new UsageError('the language server bundle was not found; run `npm run build` or set TEALWORKS_LSP_SERVER');
    // If the editor goes away without stopping us, stop the server too (it also watches us).
    return runChild(entry, transport, { watchParent: true });
  },
};
