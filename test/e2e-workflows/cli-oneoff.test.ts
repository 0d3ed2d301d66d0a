import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../sdk/src/cli/main.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('e2e: tealworks deploy / call / simulate / state', function () {
  this.timeout(60_000);
  let cwd: string;
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'tealworks-cli-'));
    cpSync(resolve(repoRoot, 'examples/counter/abi'), cwd, { recursive: true });
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  async function cli(...args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd });
    return { code, out };
  }

  it('deploys, calls, simulates and shows state against the devnet kept in ./.tealworks/devnet', async () => {
    const spec = ['--spec', 'counter.arc56.json'];
    const d = await cli('deploy', 'counter.teal', ...spec, '--updatable', '--deletable');
    assert.equal(d.code, 0, d.out);
    const id = /create: app (\d+)/.exec(d.out)?.[1];
    assert.ok(id, d.out);

    const again = await cli('deploy', 'counter.teal', ...spec, '--updatable', '--deletable');
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, new RegExp(`unchanged: app ${id}`));

    const call = await cli('call', id!, 'get_count', ...spec);
    assert.equal(call.code, 0, call.out);
    assert.match(call.out, /get_count is read-only, so it was simulated and not sent/);
    assert.match(call.out, /returned 0/);
    const sent = await cli('call', id!, 'get_count', ...spec, '--send');
    assert.equal(sent.code, 0, sent.out);
    assert.match(sent.out, /called app \d+ in round \d+ \(txn [A-Z2-7]{52}\)/);
    assert.match(sent.out, /returned 0/);

    const sim = await cli('simulate', id!, 'increment', '40', ...spec);
    assert.equal(sim.code, 1);
    assert.match(sim.out, /would FAIL at txn 0/);
    assert.match(sim.out, /too big: one increment must be below 10/);

    const mapped = await cli(
      'simulate',
      id!,
      'increment',
      '40',
      ...spec,
      '--source',
      'counter.teal',
      '--template',
      'UPDATABLE=1',
      '--template',
      'DELETABLE=1',
      '--extra-budget',
      '700',
      '--allow-more-logging',
    );
    assert.equal(mapped.code, 1);
    assert.match(mapped.out, /at counter\.teal:\d+:1 {2}assert \/\/ too big/);
    assert.match(mapped.out, /of 1400 available/, 'the extra budget was granted');

    const ok = await cli('simulate', id!, 'get_count', ...spec, '--json');
    assert.equal(ok.code, 0, ok.out);
    assert.equal(JSON.parse(ok.out).wouldSucceed, true);

    const state = await cli('state', id!, '--boxes', ...spec);
    assert.equal(state.code, 0, state.out);
    assert.match(state.out, /count \(uint64\) = 0/);
    assert.match(state.out, /owner \(address\) = "[A-Z2-7]{58}"/);
    assert.match(state.out, /boxes:\n {2}\(none\)/);

    const bad = await cli('state', 'abc');
    assert.equal(bad.code, 2);
  });
});
