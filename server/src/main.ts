// Entry point of the bundled server (dist/server.cjs): `--stdio` for editors that spawn it
// (Neovim, Helix, `tealworks lsp`), `--node-ipc` for the VS Code extension.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { startServer } from './server.js';
import { watchParent } from './parentWatch.js';

const transports = ['--stdio', '--node-ipc', '--socket', '--pipe'];
if (!process.argv.some((a) => transports.some((t) => a === t || a.startsWith(`${t}=`)))) process.argv.push('--stdio');

const connection = createConnection(ProposedFeatures.all);
let clientPid: number | undefined;
// An orphaned server must not keep a core busy: leave as soon as the parent or the editor is gone.
watchParent(
  () => process.exit(0),
  () => clientPid,
);
if (process.argv.includes('--stdio')) process.stdin.once('end', () => process.exit(0));
startServer(connection, { onClientProcessId: (pid) => (clientPid = pid) });
