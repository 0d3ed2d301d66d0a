// Entry point of the bundled server (dist/server.cjs): `--stdio` for editors that spawn it
// (Neovim, Helix, `tealworks lsp`), `--node-ipc` for the VS Code extension.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { startServer } from './server.js';

const transports = ['--stdio', '--node-ipc', '--socket', '--pipe'];
if (!process.argv.some((a) => transports.some((t) => a === t || a.startsWith(`${t}=`)))) process.argv.push('--stdio');

startServer(createConnection(ProposedFeatures.all));
