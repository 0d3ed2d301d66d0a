import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';

// The five scripts of examples/scripts, each run as its own process against one devnet that they
// find through its data directory (TEALWORKS_DEVNET_DIR), as they would a `tealworks devnet`.

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scriptsDir = join(repoRoot, 'examples/scripts');
const SCRIPTS = ['payment', 'deploy', 'state', 'multisig', 'failing-group'];
/** Added for issue 27: each at most 15 lines. */
const MORE_SCRIPTS = ['rekey', 'asset-freeze', 'find-app'];

describe('examples/scripts against the devnet', function () {
  this.timeout(120_000);
  let dir: string;
  let devnet: RunningDevnet;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-scripts-'));
    devnet = await startDevnet({ dataDir: dir, kdf: { N: 1 << 10, r: 8, p: 1 } });
  });
  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function script(name: string): Promise<string> {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(scriptsDir, `${name}.ts`)], {
      cwd: repoRoot,
      env: { ...process.env, TEALWORKS_DEVNET_DIR: dir },
      timeout: 60_000,
    });
    return stdout;
  }

  it('are at most 80 lines together and import from at most two entry points each', () => {
    let lines = 0;
    for (const s of SCRIPTS) {
      const text = readFileSync(join(scriptsDir, `${s}.ts`), 'utf8');
      lines += text.trimEnd().split('\n').length;
      const from = new Set([...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
      assert.ok(from.size <= 2, `${s}.ts imports from ${[...from].join(', ')}`);
      for (const f of from)
        assert.ok(
          f === '@tealworks/sdk' || f!.startsWith('@tealworks/sdk/') || f === './counter-client.js',
          `${s}.ts imports ${f}: scripts use the package name`,
        );
    }
    assert.ok(lines <= 80, `${lines} lines`);
  });

  it('rekey, asset-freeze and find-app are at most 15 lines each and import the package only', () => {
    for (const s of MORE_SCRIPTS) {
      const text = readFileSync(join(scriptsDir, `${s}.ts`), 'utf8');
      assert.ok(text.trimEnd().split('\n').length <= 15, `${s}.ts has ${text.trimEnd().split('\n').length} lines`);
      for (const m of text.matchAll(/from '([^']+)'/g)) assert.ok(m[1] === '@tealworks/sdk' || m[1] === './counter-client.js', `${s}.ts imports ${m[1]}`);
    }
  });

  it('rekey: a rekeyed account sends, signed by its new key', async () => {
    assert.match(await script('rekey'), /^[A-Z2-7]{58} rekeyed to [A-Z2-7]{58}; paid 1 ALGO in round \d+$/m);
  });

  it('asset-freeze: a frozen holder cannot send; clawback and unfreeze work', async () => {
    const out = await script('asset-freeze');
    assert.match(out, /^frozen holder cannot send: simulation failed at txn 0: .*frozen/m);
    assert.match(out, /^holder has 60 units, unfrozen$/m);
  });

  it('find-app: a fresh client finds the deployed app by creator and name', async () => {
    const m = /^deployed app (\d+); found app (\d+) by creator and name$/m.exec(await script('find-app'));
    assert.ok(m, 'output');
    assert.equal(m[1], m[2]);
  });

  it('payment: two fresh accounts, one funded, pays the other', async () => {
    const out = await script('payment');
    assert.match(out, /paid 2\.5 ALGO in round \d+ \(txn [A-Z2-7]{52}\)/);
    assert.match(out, /bob holds 2500000 micro-units/);
  });

  it('deploy: creates from the ARC-56 spec, a rerun changes nothing; the typed call returns the count', async () => {
    const first = await script('deploy');
    assert.match(first, /^create: app (\d+)/m);
    assert.match(first, /count is now 5/);
    const appId = /app (\d+)/.exec(first)![1];
    const second = await script('deploy');
    assert.match(second, new RegExp(`^nothing: app ${appId} `, 'm'));
    assert.match(second, /count is now 10/);
  });

  it('state: global state and every box decoded by the spec', async () => {
    const out = await script('state');
    assert.match(out, /^global count = \d+$/m);
    assert.match(out, /^global owner = [A-Z2-7]{58}$/m);
    assert.match(out, /^box counts\[[A-Z2-7]{58}\] = 3$/m);
  });

  it('multisig: a 2-of-3 account pays', async () => {
    assert.match(await script('multisig'), /multisig [A-Z2-7]{58} paid 1 ALGO in round \d+/);
  });

  it('failing-group: failed_at, the message and the logs of the group', async () => {
    const out = await script('failing-group');
    assert.match(out, /^failed_at 1: too big: one increment must be below 10$/m);
    assert.match(out, /^txn 0 log Incremented \{"caller":"[A-Z2-7]{58}","amount":"3"\}$/m);
    assert.match(out, /^txn 0 log 0x151f7c75/m);
  });
});
