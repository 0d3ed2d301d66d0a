// `tealworks devnet --detach | status | logs | stop` (issue 22 item 11), with the real CLI started
// as users start it (node + tsx) in a temporary working directory. Every devnet a test starts is
// stopped in `after`, by its pid if the CLI's own stop failed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliProcess, tempDir } from '../../../cli/helpers.js';
import { runDevnet, type StopTrigger } from '../../../../sdk/src/cli/commands/devnet.js';
import type { CliIo } from '../../../../sdk/src/cli/command.js';
import { LOCK_FILE, processAlive } from '../../../../sdk/src/services/devnet/lock.js';
import { settles, until } from '../../../helpers/hang.js';

interface Detached {
  pid: number;
  dataDir: string;
  log: string;
  node: { url: string; token: string };
  query: { url: string; token: string };
  kmd: { url: string; token: string };
}

describe('cli: tealworks devnet --detach, status, logs, stop', function () {
  this.timeout(180_000);
  const tmp = tempDir('detach');
  const started: number[] = [];
  let d: Detached;

  before(async () => {
    const r = await cliProcess(['devnet', '--detach', '--ports', '0,0,0', '--accounts', '2', '--json'], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    d = JSON.parse(r.stdout) as Detached;
    started.push(d.pid);
  });

  after(async () => {
    for (const pid of started) {
      if (!processAlive(pid)) continue;
      process.kill(pid, 'SIGTERM');
      await until(`devnet ${pid} exits`, () => !processAlive(pid)).catch(() => process.kill(pid, 'SIGKILL'));
    }
    tmp.cleanup();
  });

  it('--detach returns once the services listen, in the default data directory, with a log beside the state file', async () => {
    assert.equal(d.dataDir, join(tmp.path, '.tealworks/devnet'));
    assert.ok(existsSync(join(d.dataDir, LOCK_FILE)));
    assert.equal(d.log, join(d.dataDir, 'devnet.log'));
    assert.ok(processAlive(d.pid));
    const r = await fetch(`${d.node.url}/v2/status`, { headers: { 'X-Algo-API-Token': d.node.token } });
    assert.equal(r.status, 200);
    assert.equal(typeof ((await r.json()) as { 'last-round': number })['last-round'], 'number');
  });

  it('status reports the URLs, tokens and health of each service', async () => {
    const r = await cli(['devnet', 'status'], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`running \\(process ${d.pid}; data: ${d.dataDir.replace(/[.]/g, '\\.')}`));
    assert.ok(r.stdout.includes(`node   ${d.node.url}  token ${d.node.token}  healthy (round `), r.stdout);
    assert.ok(r.stdout.includes(`query  ${d.query.url}  token ${d.query.token}  healthy`), r.stdout);
    assert.ok(r.stdout.includes(`kmd    ${d.kmd.url}  token ${d.kmd.token}  healthy`), r.stdout);
    const j = await cli(['devnet', 'status', '--json', '--data', '.tealworks/devnet'], tmp.path);
    assert.equal(j.code, 0);
    const parsed = JSON.parse(j.stdout) as { running: boolean; devnets: Array<{ pid: number; node: { healthy: boolean } }> };
    assert.equal(parsed.running, true);
    assert.equal(parsed.devnets[0]!.pid, d.pid);
    assert.equal(parsed.devnets[0]!.node.healthy, true);
  });

  it('a second --detach on the same data directory is refused, naming the running one', async () => {
    const r = await cliProcess(['devnet', '--detach', '--ports', '0,0,0'], tmp.path);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`a devnet is already running on .* \\(process ${d.pid}, node ${d.node.url}\\): \`tealworks devnet status\``));
  });

  it('a background devnet that fails at start is reported with its last output and the log path', async () => {
    const port = new URL(d.node.url).port;
    const r = await cliProcess(['devnet', '--detach', '--data', 'other', '--ports', `${port},0,0`], tmp.path);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /the background devnet exited before it was ready \(exit code 1\)/);
    assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
    assert.ok(r.stderr.includes(join(tmp.path, 'other', 'devnet.log')));
    assert.equal(existsSync(join(tmp.path, 'other', LOCK_FILE)), false);
  });

  it('--detach with --in-memory is a usage error (its state lives in the data directory)', async () => {
    const r = await cli(['devnet', '--detach', '--in-memory'], tmp.path);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--detach keeps its state and log in a data directory: drop --in-memory/);
  });

  it('logs prints the devnet output; --tail keeps the last lines', async () => {
    const r = await cli(['devnet', 'logs'], tmp.path);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /tealworks devnet running/);
    assert.match(r.stdout, /Press Ctrl\+C to stop\.\n$/);
    const t = await cli(['devnet', 'logs', '--tail', '1'], tmp.path);
    assert.equal(t.stdout, 'Press Ctrl+C to stop.\n');
  });

  it('stop shuts it down cleanly (logs --follow sees the shutdown and ends); then nothing is running', async () => {
    let followed = '';
    const io: CliIo = { stdout: (t) => void (followed += t), stderr: () => {}, cwd: tmp.path };
    const never: () => StopTrigger = () => ({ promise: new Promise(() => {}), cancel: () => {} });
    const follow = runDevnet(['logs', '--follow', '--data', d.dataDir], io, never);
    await until('logs --follow printed the log', () => followed.includes('Press Ctrl+C'));

    const r = await cli(['devnet', 'stop'], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `devnet on ${d.dataDir} (process ${d.pid}) stopped; chain and wallets flushed\n`);
    assert.equal(processAlive(d.pid), false);
    assert.equal(existsSync(join(d.dataDir, LOCK_FILE)), false);
    assert.equal(await settles('logs --follow ends once the devnet stopped', follow), 0);
    assert.match(followed, /SIGTERM received: stopping the devnet…\ndevnet stopped; chain and wallets flushed\.\n/);

    const again = await cli(['devnet', 'stop'], tmp.path);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no devnet is running on .*\.tealworks\/devnet.*; nothing to stop/);
    const st = await cli(['devnet', 'status', '--localnet'], tmp.path);
    assert.equal(st.code, 1);
    assert.equal(st.stderr, `no devnet is running on ${join(tmp.path, '.tealworks/localnet')}; start one with \`tealworks devnet --detach\`\n`);
  });

  it('a state file left by a process that is gone is called stale by status and removed by stop', async () => {
    const dir = join(tmp.path, 'crashed');
    mkdirSync(dir);
    // The pid of a process that has exited.
    const gone = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ version: 1, pid: gone, node: { url: 'http://127.0.0.1:1', token: 'x' } }));
    const st = await cli(['devnet', 'status', '--data', 'crashed'], tmp.path);
    assert.equal(st.code, 1);
    assert.match(
      st.stderr,
      new RegExp(`the devnet that ran on ${dir} \\(process ${gone}\\) is gone without stopping cleanly: its state file devnet.lock is stale`),
    );
    const sp = await cli(['devnet', 'stop', '--data', 'crashed'], tmp.path);
    assert.equal(sp.code, 1);
    assert.match(sp.stderr, new RegExp(`the state file left by process ${gone} \\(gone without stopping cleanly\\) was stale and is removed`));
    assert.equal(existsSync(join(dir, LOCK_FILE)), false);
    assert.equal(readFileSync(join(d.dataDir, 'devnet.log'), 'utf8').includes('tealworks devnet'), true);
  });
});
