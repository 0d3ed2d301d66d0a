// What both editor e2e drivers share: where code-server and the artifacts live, a free port, and
// waiting for code-server to answer.
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const e2eDir = resolve(process.env.E2E_DIR ?? join(root, '.e2e'));
export const csDir = join(e2eDir, 'code-server');
export const node = join(csDir, 'node/bin/node');
export const entry = join(csDir, 'node_modules/code-server/out/node/entry.js');
export const artifacts = join(e2eDir, 'artifacts');
export const vsix = join(root, 'dist/tealworks.vsix');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export async function waitForHttp(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url}`);
}
