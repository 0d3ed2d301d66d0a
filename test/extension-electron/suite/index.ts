// Runs inside the VS Code extension host (bundled to .e2e/electron/suite.cjs by ../run.ts).
import Mocha from 'mocha';
import { registerSuite } from './teal.electron.js';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false });
  mocha.suite.emit('pre-require', globalThis, 'teal.electron', mocha);
  registerSuite();
  return new Promise((res, rej) => mocha.run((failures) => (failures ? rej(new Error(`${failures} test(s) failed`)) : res())));
}
