// Issue 14, item 2: `tealworks node profile list|set` (node-service.md "Configuration profiles"),
// and `tealworks devnet` acting on the written config.json.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { CliIo } from '../../sdk/src/cli/command.js';
import { runNode, type Prompter } from '../../sdk/src/cli/commands/node-profile.js';
import { parseDevnetArgs, runDevnet } from '../../sdk/src/cli/commands/devnet.js';
import { startDevnet, NODE_PROFILES } from '../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/index.js';
import { cli, cliProcess } from './helpers.js';

function io(cwd: string): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd, out: () => out, err: () => err };
}

const answering = (answer: string, asked: string[] = []): Prompter => ({
  interactive: true,
  ask: async (q) => {
    asked.push(q);
    return answer;
  },
});
const noTerminal: Prompter = { interactive: false, ask: async () => assert.fail('must not ask without a terminal') };

describe('cli: tealworks node profile', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-profile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const config = (d = dir) => JSON.parse(readFileSync(join(d, 'config.json'), 'utf8'));

  it('profile list prints the four profiles, one line each', async () => {
    const r = await cli(['node', 'profile', 'list'], dir);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[0]),
      ['participation', 'conduit', 'relay', 'development'],
    );
    assert.match(r.stdout, /conduit\s+.*EnableFollowMode/);
    assert.match(r.stdout, /development\s+.*dev mode/);
  });

  it("profile set writes the node's settings for each profile into config.json", async () => {
    const expected: Record<string, Record<string, unknown>> = {
      participation: {},
      conduit: { EnableFollowMode: true, MaxAcctLookback: 64, CatchupParallelBlocks: 64 },
      relay: {
        MaxBlockHistoryLookback: 22000,
        CatchpointFileHistoryLength: 3,
        CatchpointTracking: 2,
        EnableLedgerService: true,
        EnableBlockService: true,
        NetAddress: ':4160',
      },
      development: {
        EnableExperimentalAPI: true,
        EnableDeveloperAPI: true,
        MaxAcctLookback: 256,
        EnableTxnEvalTracer: true,
        DisableAPIAuth: true,
        DevMode: true,
      },
    };
    assert.deepEqual(
      NODE_PROFILES.map((p) => p.name),
      Object.keys(expected),
    );
    for (const [name, settings] of Object.entries(expected)) {
      const d = join(dir, name);
      const r = await cli(['node', 'profile', 'set', name, '-d', d], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(config(d), settings, name);
      assert.match(r.stdout, new RegExp(`Wrote the ${name} profile`));
    }
  });

  it('an existing config.json: no terminal and no -y refuses clearly and writes nothing; -y overwrites', async () => {
    writeFileSync(join(dir, 'config.json'), '{"MaxAcctLookback": 9}\n');
    const o = io(dir);
    assert.equal(await runNode(['profile', 'set', 'conduit', '-d', dir], o, noTerminal), 1);
    assert.match(o.err(), /already exists and there is no terminal to confirm overwriting it; rerun with -y/);
    assert.deepEqual(config(), { MaxAcctLookback: 9 });
    // The real process has no terminal either (stdin is not a TTY under the test runner).
    const p = await cliProcess(['node', 'profile', 'set', 'conduit', '-d', dir], dir);
    assert.equal(p.code, 1, p.stderr);
    assert.match(p.stderr, /rerun with -y/);
    assert.deepEqual(config(), { MaxAcctLookback: 9 });
    const y = io(dir);
    assert.equal(await runNode(['profile', 'set', 'conduit', '-d', dir, '-y'], y, noTerminal), 0);
    assert.equal(config().EnableFollowMode, true);
  });

  it('an existing config.json on a terminal: asks; "n" keeps it, Enter or "y" overwrites', async () => {
    writeFileSync(join(dir, 'config.json'), '{"MaxAcctLookback": 9}\n');
    const asked: string[] = [];
    const no = io(dir);
    assert.equal(await runNode(['profile', 'set', 'development', '-d', dir], no, answering('n', asked)), 0);
    assert.match(asked[0]!, /already exists at .*config\.json\nOverwrite it with the development profile\? \(Y\/n\)/);
    assert.match(no.out(), /Kept the existing/);
    assert.deepEqual(config(), { MaxAcctLookback: 9 });
    assert.equal(await runNode(['profile', 'set', 'development', '-d', dir], io(dir), answering('maybe')), 1);
    assert.deepEqual(config(), { MaxAcctLookback: 9 });
    assert.equal(await runNode(['profile', 'set', 'development', '-d', dir], io(dir), answering('')), 0);
    assert.equal(config().DevMode, true);
    assert.equal(await runNode(['profile', 'set', 'participation', '-d', dir], io(dir), answering('Y')), 0);
    assert.deepEqual(config(), {});
    // No existing file: no question at all.
    const fresh = join(dir, 'new');
    assert.equal(await runNode(['profile', 'set', 'relay', '-d', fresh], io(dir), noTerminal), 0);
    assert.ok(existsSync(join(fresh, 'config.json')));
  });

  it('bad input: unknown profile, missing profile, unknown action, stray option', async () => {
    const unknown = await cli(['node', 'profile', 'set', 'archival', '-d', dir], dir);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown profile "archival": the profiles are participation, conduit, relay, development/);
    for (const args of [
      ['node', 'profile', 'set'],
      ['node', 'profile', 'frob'],
      ['node'],
      ['node', 'profile', 'set', 'conduit', '--bogus'],
      ['node', 'profile', 'list', 'x'],
    ]) {
      const r = await cli(args, dir);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /Usage: tealworks node profile/);
    }
    assert.ok(!existsSync(join(dir, 'config.json')));
  });

  it('tealworks devnet reads the written profile: conduit needs --follow, development serves without a token', async () => {
    await cli(['node', 'profile', 'set', 'conduit', '-d', dir], dir);
    const o = io(dir);
    await assert.rejects(
      runDevnet(['--data', dir, '--ports', '0,0,0'], o),
      /EnableFollowMode is set in .*config\.json but no source to follow was given: start with --follow URL/,
    );
    await cli(['node', 'profile', 'set', 'development', '-d', dir, '-y'], dir);
    const d = await startDevnet({ dataDir: dir, kdf: TEST_SCRYPT, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 1 });
    try {
      assert.equal(d.config.DevMode, true);
      const r = await request(`${d.node.url}/v1/status`);
      assert.equal(r.statusCode, 200, 'DisableAPIAuth: no token needed');
      await r.body.text();
      // The public /v2 API too (a node with DisableAPIAuth serves every route without a token).
      const v2 = await request(`${d.node.url}/v2/status`);
      assert.equal(v2.statusCode, 200, 'DisableAPIAuth: no token needed on /v2');
      await v2.body.text();
    } finally {
      await d.stop();
    }
  });

  it("tealworks devnet warns when config.json's EndpointAddress leaves loopback", async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ EndpointAddress: '0.0.0.0:0' }));
    const o = io(dir);
    const code = await runDevnet(['--data', dir, '--accounts', '1'], o, () => ({ promise: Promise.resolve('test'), cancel: () => {} }));
    assert.equal(code, 0, o.err());
    assert.match(o.err(), /WARNING: config\.json's EndpointAddress binds the node service to 0\.0\.0\.0/);
    assert.match(o.out(), /node {3}http:\/\/0\.0\.0\.0:\d+/);
  });

  it('tealworks devnet --follow URL [--follow-token T] is parsed; --follow-token alone is a usage error', () => {
    const p = parseDevnetArgs(['--in-memory', '--follow', 'http://127.0.0.1:4001', '--follow-token', 'abc'], '/tmp');
    assert.deepEqual(p.options.follow, { url: 'http://127.0.0.1:4001', token: 'abc' });
    assert.throws(() => parseDevnetArgs(['--follow-token', 'abc'], '/tmp'), { name: 'UsageError' });
    assert.throws(() => parseDevnetArgs(['--follow'], '/tmp'), { name: 'UsageError' });
  });
});
