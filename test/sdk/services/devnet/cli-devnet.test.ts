import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { parseDevnetArgs, runDevnet } from '../../../../sdk/src/cli/commands/devnet.js';
import type { CliIo } from '../../../../sdk/src/cli/command.js';
import { LOCK_FILE } from '../../../../sdk/src/services/devnet/index.js';
import { Tealworks, algos } from '../../../../sdk/src/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
// Absolute, because the child runs in a scratch directory where `tsx` cannot be resolved by name.
const TSX_LOADER = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

interface Launched {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function launch(args: string[], cwd: string): Launched {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, resolve(repoRoot, 'sdk/src/cli/main.ts'), 'devnet', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Resolves once the devnet printed its banner (or rejects if the process ends first). */
async function banner(l: Launched): Promise<string> {
  for (;;) {
    if (/Press Ctrl\+C to stop\./.test(l.stdout())) return l.stdout();
    const ended = await Promise.race([l.exit.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 50))]);
    if (ended) throw new Error(`devnet exited early:\n${l.stdout()}\n${l.stderr()}`);
  }
}

function service(text: string, name: string): { url: string; token: string } {
  const m = new RegExp(`^  ${name}\\s+(http://\\S+)\\s+token ([0-9a-f]{64})$`, 'm').exec(text);
  assert.ok(m, `${name} line in:\n${text}`);
  return { url: m[1]!, token: m[2]! };
}

describe('cli: tealworks devnet', function () {
  this.timeout(30_000);

  it('prints the three URLs and tokens, serves /health and exits cleanly on SIGTERM', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tealworks-cli-'));
    const l = launch(['--in-memory', '--ports', '0,0,0', '--accounts', '2'], cwd);
    try {
      const text = await banner(l);
      const node = service(text, 'node');
      const query = service(text, 'query');
      const kmd = service(text, 'kmd');
      assert.equal(new Set([node.url, query.url, kmd.url]).size, 3);
      for (const u of [node.url, query.url, kmd.url]) assert.match(u, /^http:\/\/127\.0\.0\.1:\d+$/);
      const accounts = text.match(/^ {4}[A-Z2-7]{58} {2}\d+\.\d{6}$/gm) ?? [];
      assert.equal(accounts.length, 2);
      const health = await request(`${node.url}/health`, { headers: { 'X-Node-API-Token': node.token } });
      await health.body.dump();
      assert.equal(health.statusCode, 200);
      const denied = await request(`${node.url}/health`);
      await denied.body.dump();
      assert.equal(denied.statusCode, 401);
      assert.ok(!/WARNING/.test(l.stderr()), 'no warning on loopback');
      l.child.kill('SIGTERM');
      const { code, signal } = await l.exit;
      assert.equal(signal, null, `stopped by itself, not killed: ${l.stderr()}`);
      assert.equal(code, 0, l.stderr());
      assert.match(l.stderr(), /SIGTERM received/);
      assert.match(l.stderr(), /devnet stopped/);
      assert.equal(existsSync(join(cwd, '.tealworks')), false, 'in memory: nothing written');
    } finally {
      if (l.child.exitCode === null) l.child.kill('SIGKILL');
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('persists to --data and stops cleanly on SIGINT', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tealworks-cli-'));
    const l = launch(['--data', 'chain', '--ports=0,0,0', '--json'], cwd);
    try {
      for (;;) {
        if (l.stdout().includes('\n')) break;
        const ended = await Promise.race([l.exit.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 50))]);
        if (ended) throw new Error(`devnet exited early: ${l.stderr()}`);
      }
      const info = JSON.parse(l.stdout().split('\n')[0]!);
      assert.equal(info.dataDir, join(cwd, 'chain'));
      assert.equal(info.accounts.length, 3, 'three funded accounts by default');
      // Scripts find it through its data directory: the lock file's record, and Tealworks.connect.devnet().
      const running = JSON.parse(readFileSync(join(cwd, 'chain', LOCK_FILE), 'utf8'));
      assert.equal(running.pid, l.child.pid);
      assert.equal(running.node.url, info.node.url);
      assert.equal((statSync(join(cwd, 'chain', LOCK_FILE)).mode & 0o777).toString(8), '600');
      const tw = await Tealworks.connect.devnet({ dataDir: join(cwd, 'chain') });
      try {
        assert.equal(tw.network.profile.node.url, info.node.url, 'connected to the running devnet, not a new one');
        const paid = await tw.send.payment({ sender: tw.account.dispenser, receiver: tw.account.random(), amount: algos(1) });
        assert.ok(paid.confirmedRound > 0n);
      } finally {
        await tw.close();
      }
      l.child.kill('SIGINT');
      const { code } = await l.exit;
      assert.equal(code, 0, l.stderr());
      assert.equal(existsSync(join(cwd, 'chain', LOCK_FILE)), false, 'the lock (and its record) is removed on stop');
      assert.ok(existsSync(join(cwd, 'chain', 'tokens.json')));
      assert.ok(existsSync(join(cwd, 'chain', 'genesis.json')));
      assert.ok(existsSync(join(cwd, 'chain', 'ledger', 'journal.bin')));
    } finally {
      if (l.child.exitCode === null) l.child.kill('SIGKILL');
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('parses its options and rejects bad ones', () => {
    const p = parseDevnetArgs(['--in-memory', '--ports', '1,2,3', '--block-interval', '250', '--accounts', '4', '--host', '::1'], '/tmp');
    assert.deepEqual(p.options, { inMemory: true, ports: { node: 1, query: 2, keyManager: 3 }, blockIntervalMs: 250, accounts: 4, host: '::1' });
    assert.equal(parseDevnetArgs([], '/work').options.dataDir, '/work/.tealworks/devnet');
    assert.equal(parseDevnetArgs(['--data=/x', '--reset'], '/work').options.dataDir, '/x');
    for (const bad of [['--ports', '1,2'], ['--ports', 'a,b,c'], ['--accounts', '-1'], ['--bogus'], ['--data', 'x', '--in-memory'], ['extra']]) {
      assert.throws(() => parseDevnetArgs(bad, '/tmp'), { name: 'UsageError' }, bad.join(' '));
    }
  });

  it('warns loudly when bound to a non-loopback address (in process)', async () => {
    let out = '';
    let err = '';
    const io: CliIo = { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: '/tmp' };
    // Stops as soon as the devnet is up: the trigger has already fired when it is awaited.
    const code = await runDevnet(['--in-memory', '--host', '0.0.0.0', '--ports', '0,0,0', '--accounts', '1'], io, () => ({
      promise: Promise.resolve('test'),
      cancel: () => {},
    }));
    assert.equal(code, 0);
    assert.match(err, /WARNING: binding to 0\.0\.0\.0/);
    assert.match(out, /node {3}http:\/\/0\.0\.0\.0:\d+/);
  });
});
