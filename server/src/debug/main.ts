// Entry point of the debug adapter (dist/debug-adapter.cjs): speaks the Debug Adapter Protocol
// over stdin/stdout, for VS Code and for other DAP clients (nvim-dap, `tealworks debug --dap`).
import { TealDebugSession } from './session.js';

const session = new TealDebugSession();
session.on('error', () => undefined);
session.start(process.stdin, process.stdout);
