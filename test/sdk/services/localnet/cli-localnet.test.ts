import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { until } from '../../../helpers/hang.js';
import { parseDevnetArgs } from '../../../../sdk/src/cli/commands/devnet.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const TSX_LOADER = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
const TOKEN = 'a'.repeat(64);

describe('cli: tealworks devnet --localnet', function () {
  this.timeout(30_000);

  it('parses --localnet and --token', () => {
    const p = parseDevnetArgs(['--localnet'], '/work');
    assert.equal(p.options.localnet, true);
    assert.equal(p.options.dataDir, '/work/.tealworks/localnet');
    assert.equal(p.options.ports, undefined, 'LocalNet ports come from startDevnet');
    assert.equal(parseDevnetArgs(['--token', 'secret'], '/w').options.token, 'secret');
    assert.throws(() => parseDevnetArgs(['--token', 'has space'], '/w'), /--token/);
    assert.throws(() => parseDevnetArgs(['--token'], '/w'));
  });

  it('serves the public node API with the LocalNet token, genesis id and env hints', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tealworks-localnet-'));
    const child = spawn(
      process.execPath,
      ['--import', TSX_LOADER, resolve(repoRoot, 'sdk/src/cli/main.ts'), 'devnet', '--localnet', '--in-memory', '--ports', '0,0,0'],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    try {
      // A hang guard, not a speed check: on a loaded machine the CLI may take many seconds to start.
      await until('the devnet says it is ready', () => /Press Ctrl\+C/.test(out) || child.exitCode !== null);
      assert.match(out, /genesis dockernet-v1/);
      assert.match(out, /LocalNet-compatible/);
      const node = /^ {2}node\s+(http:\/\/\S+)\s+token (\S+)$/m.exec(out);
      assert.ok(node, out);
      assert.equal(node[2], TOKEN);
      const port = /ALGOD_PORT=(\d+)/.exec(out)![1];
      // The environment line carries the tokens too (issue 22 item 11).
      for (const k of ['ALGOD_TOKEN', 'INDEXER_TOKEN', 'KMD_TOKEN']) assert.match(out, new RegExp(`${k}=${TOKEN}`));
      assert.equal(new URL(node[1]!).port, port);
      const health = await request(`${node[1]}/health`);
      assert.equal(health.statusCode, 200, 'health is public');
      await health.body.dump();
      const status = await request(`${node[1]}/v2/status`, { headers: { 'x-algo-api-token': TOKEN } });
      assert.equal(status.statusCode, 200);
      const body = (await status.body.json()) as Record<string, unknown>;
      assert.ok('last-round' in body);
      const denied = await request(`${node[1]}/v2/status`, { headers: { 'x-algo-api-token': 'b'.repeat(64) } });
      assert.equal(denied.statusCode, 401);
      await denied.body.dump();
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
    } finally {
      child.kill('SIGKILL');
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
