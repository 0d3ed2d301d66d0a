import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { runWorkflow, type RunSummary } from '../../sdk/src/workflow/engine.js';
import { runCli } from '../../sdk/src/cli/main.js';
import type { CliIo } from '../../sdk/src/cli/command.js';

/*
 * End to end: every example workflow against one embedded devnet (in memory, shared by the
 * suite), plus the behaviours the issue asks for — a failing step's report, checkpointed reruns,
 * a no-op redeploy, an update, schema breaks per option, typed state and boxes, simulate-only.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function copyProject(rel: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tealworks-wf-'));
  cpSync(resolve(repoRoot, rel), dir, { recursive: true, filter: (src) => !src.includes('.tealworks') });
  return dir;
}

function statuses(s: RunSummary): Record<string, string> {
  return Object.fromEntries(s.steps.map((x) => [x.id, x.status]));
}

function out(s: RunSummary, id: string, field: string): unknown {
  return (s.outputs[id] as Record<string, unknown> | undefined)?.[field];
}

describe('e2e: workflows on the embedded devnet', function () {
  this.timeout(60_000);
  let devnet: RunningDevnet;
  const dirs: string[] = [];
  const project = (rel: string) => {
    const d = copyProject(rel);
    dirs.push(d);
    return d;
  };

  before(async () => {
    devnet = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
  });
  after(async () => {
    await devnet?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const example of ['examples/counter/tealworks.yaml', 'examples/abi-router/tealworks.yaml', 'examples/logicsig-escrow/tealworks.yaml']) {
    it(`runs ${example} green`, async function () {
      if (!existsSync(resolve(repoRoot, example))) {
        console.log(`    (no ${example} in this tree)`);
        this.skip();
      }
      const dir = project(dirname(example));
      const s = await runWorkflow(join(dir, 'tealworks.yaml'), { devnet });
      const failed = s.steps.find((x) => x.status === 'failed');
      assert.equal(s.error, undefined, s.error?.message);
      assert.ok(s.ok, failed ? `${failed.id}: ${failed.error?.message}\n${failed.error?.reportText ?? ''}` : 'not ok');
      assert.ok(s.steps.length > 3);
      assert.ok(s.steps.every((x) => x.status === 'done' || x.status === 'skipped'));
    });
  }

  it('runs the logicsig escrow example: a refused payment located in TEAL, then a payout signed by the program', async () => {
    const { runEscrowDemo } = await import('../../examples/logicsig-escrow/escrow.js');
    const demo = await runEscrowDemo(devnet);
    assert.equal(demo.refused.wouldSucceed, false);
    assert.equal(demo.refused.failure!.program, 'logicsig');
    assert.equal(demo.refusedLine, 17);
    assert.equal(demo.receiverGained, 750_000n);
  });

  it("locates a logic signature's refusal in its TEAL and signs with the program", async () => {
    const dir = project('examples/logicsig-escrow');
    const file = join(dir, 'tealworks.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('amount: 750_000', 'amount: 1_500_000'));
    const s = await runWorkflow(file, { devnet });
    assert.equal(s.ok, false);
    const payout = s.steps.find((x) => x.id === 'payout')!;
    assert.equal(payout.status, 'failed');
    const f = payout.error!.report!.failure!;
    assert.equal(f.program, 'logicsig');
    assert.equal(f.source!.file, 'escrow.teal');
    assert.equal(f.source!.line, 17);
    assert.match(f.source!.text!, /at most TMPL_MAX per payment/);
  });

  it('reports a failing step with the failing transaction, the TEAL line (macro use site) and the logs, and stops there', async () => {
    const dir = project('test/e2e-workflows/fixtures/failing');
    const s = await runWorkflow(join(dir, 'tealworks.yaml'), { devnet });
    assert.equal(s.ok, false);
    assert.deepEqual(statuses(s), { deploy: 'done', ok: 'done', bad: 'failed' });
    const bad = s.steps.find((x) => x.id === 'bad')!;
    assert.equal(bad.error!.position.line, 13, 'points at the step in the YAML file');
    const report = bad.error!.report!;
    assert.equal(report.wouldSucceed, false);
    assert.deepEqual(report.failedAt, [0]);
    assert.equal(report.failure!.source!.file, 'guarded.teal');
    assert.equal(report.failure!.source!.line, 11, 'the macro use site');
    assert.equal(report.failure!.source!.definition!.line, 3, 'and the macro definition');
    assert.deepEqual(
      report.txns[0]!.logs.map((l) => l.view.utf8),
      ['checking the argument'],
    );
    assert.match(bad.error!.reportText!, /would FAIL at txn 0/);

    // Fixed, the run resumes: what succeeded is reused, the failed step and the rest run.
    const file = join(dir, 'tealworks.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('app-args: [7]', 'app-args: [42]'));
    const resumed = await runWorkflow(file, { devnet });
    assert.ok(resumed.ok);
    assert.deepEqual(statuses(resumed), { deploy: 'cached', ok: 'cached', bad: 'done', never: 'done' });
  });

  it('reruns skip checkpointed steps; --fresh redeploys as a no-op; a code change updates; a schema break follows the option', async () => {
    const dir = project('examples/counter');
    const file = join(dir, 'tealworks.yaml');
    const first = await runWorkflow(file, { devnet });
    assert.ok(first.ok);
    const appId = out(first, 'deploy', 'app-id') as bigint;
    assert.equal(out(first, 'deploy', 'action'), 'create');

    const second = await runWorkflow(file, { devnet });
    assert.ok(second.ok);
    const st = statuses(second);
    for (const id of ['deploy', 'fund-app', 'inc', 'inc-alice', 'bare', 'bump']) assert.equal(st[id], 'cached', id);
    assert.equal(out(second, 'deploy', 'app-id'), appId);
    // Reads and asserts always look at the chain again; the count did not move.
    assert.equal(out(second, 'count', 'value'), 8n);

    const fresh = await runWorkflow(file, { devnet, fresh: true });
    assert.ok(fresh.ok, fresh.steps.find((x) => x.status === 'failed')?.error?.message);
    assert.equal(out(fresh, 'deploy', 'action'), 'nothing');
    assert.equal(out(fresh, 'deploy', 'app-id'), appId);
    assert.equal(out(fresh, 'count', 'value'), 16n, 'the calls ran again against the same app');

    // A code change: on-update "update" keeps the app id.
    const teal = join(dir, 'abi/counter.teal');
    writeFileSync(teal, readFileSync(teal, 'utf8').replace('int 10\n<', 'int 11\n<'));
    const updated = await runWorkflow(file, { devnet });
    assert.ok(updated.ok, updated.steps.find((x) => x.status === 'failed')?.error?.message);
    assert.equal(out(updated, 'deploy', 'action'), 'update');
    assert.equal(out(updated, 'deploy', 'app-id'), appId);

    // More global state than the app has: on-schema-break "replace" makes a new app and deletes the old.
    const specPath = join(dir, 'abi/counter.arc56.json');
    const spec = JSON.parse(readFileSync(specPath, 'utf8'));
    spec.state.schema.global.ints = 2;
    writeFileSync(specPath, JSON.stringify(spec));
    const replaced = await runWorkflow(file, { devnet });
    assert.ok(replaced.ok, replaced.steps.find((x) => x.status === 'failed')?.error?.message);
    assert.equal(out(replaced, 'deploy', 'action'), 'replace');
    assert.equal(out(replaced, 'deploy', 'deleted-app-id'), appId);
    assert.notEqual(out(replaced, 'deploy', 'app-id'), appId);

    // The same break with on-schema-break "fail" stops at the deploy step.
    spec.state.schema.global.ints = 3;
    writeFileSync(specPath, JSON.stringify(spec));
    writeFileSync(file, readFileSync(file, 'utf8').replace('on-schema-break: replace', 'on-schema-break: fail'));
    const refused = await runWorkflow(file, { devnet });
    assert.equal(refused.ok, false);
    const deploy = refused.steps.find((x) => x.id === 'deploy')!;
    assert.equal(deploy.status, 'failed');
    assert.match(deploy.error!.message, /onSchemaBreak is "fail"/);
  });

  it('reads state and boxes of an app with ARC-56 maps as typed values', async () => {
    const dir = project('examples/counter');
    const s = await runWorkflow(join(dir, 'tealworks.yaml'), { devnet });
    assert.ok(s.ok);
    const boxes = out(s, 'boxes', 'value') as Array<{ name: string; key: unknown; value: unknown }>;
    assert.equal(boxes.length, 2);
    for (const b of boxes) {
      assert.match(b.name, /^counts\[[A-Z2-7]{58}\]$/);
      assert.equal(typeof b.key, 'string', 'map keys decode as addresses');
      assert.equal(typeof b.value, 'bigint', 'values decode as uint64');
    }
    assert.deepEqual(boxes.map((b) => b.value).sort(), [3n, 5n]);
    assert.equal(out(s, 'count', 'value'), 8n);
    assert.equal(out(s, 'inc', 'return'), 5n);
    const events = out(s, 'inc', 'events') as Array<{ name: string; args: Record<string, unknown> }>;
    assert.equal(events[0]!.name, 'Incremented');
    assert.equal(events[0]!.args.amount, 5n);
  });

  it('--simulate-only changes nothing on chain and writes no checkpoint', async () => {
    const dir = project('examples/counter');
    const file = join(dir, 'tealworks.yaml');
    // Accounts must exist with funds for calls to simulate; a real run sets them up.
    assert.ok((await runWorkflow(file, { devnet })).ok);
    const stateFile = join(dir, '.tealworks/state/tealworks.devnet.json');
    const recorded = readFileSync(stateFile, 'utf8');
    const before = (await (await fetch(`${devnet.node.url}/v1/status`, { headers: { 'X-Node-API-Token': devnet.node.token } })).json()) as Record<
      string,
      unknown
    >;
    const s = await runWorkflow(file, { devnet, simulateOnly: true, fresh: true });
    const after = (await (await fetch(`${devnet.node.url}/v1/status`, { headers: { 'X-Node-API-Token': devnet.node.token } })).json()) as Record<
      string,
      unknown
    >;
    const deploy = s.steps.find((x) => x.id === 'deploy')!;
    assert.equal(deploy.status, 'simulated', deploy.error?.message);
    assert.equal(JSON.stringify(after.lastRound ?? after['last-round']), JSON.stringify(before.lastRound ?? before['last-round']), 'no block was made');
    assert.ok(s.ok, s.steps.find((x) => x.status === 'failed')?.error?.message);
    assert.ok(s.steps.filter((x) => x.kind === 'call' || x.kind === 'group').every((x) => x.status === 'simulated'));
    assert.equal(readFileSync(stateFile, 'utf8'), recorded, 'checkpoints untouched');
  });

  it('tealworks run: progress, summary table, exit codes, file:line:col of the failure', async () => {
    const lines: string[] = [];
    const io: CliIo = { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t), cwd: project('test/e2e-workflows/fixtures/failing') };
    const code = await runCli(['run', '--in-memory'], io);
    const text = lines.join('');
    assert.equal(code, 1);
    assert.match(text, /✗ {2}3\. call {5}bad/);
    assert.match(text, /at tealworks\.yaml:13:11/);
    assert.match(text, /at guarded\.teal:11:1 {2}MUST_BE_42/);
    assert.match(text, /FAILED: 2 done/);

    const ok: string[] = [];
    const code2 = await runCli(['run', 'tealworks.yaml', '--in-memory'], {
      stdout: (t) => ok.push(t),
      stderr: (t) => ok.push(t),
      cwd: project('examples/abi-router'),
    });
    assert.equal(code2, 0, ok.join(''));
    assert.match(ok.join(''), /PASSED: 14 done/);

    const bad: string[] = [];
    const dir = project('test/e2e-workflows/fixtures/failing');
    writeFileSync(join(dir, 'tealworks.yaml'), 'steps:\n  - call: { app: 1, sender: nobody }\n');
    assert.equal(await runCli(['run', '--in-memory'], { stdout: (t) => bad.push(t), stderr: (t) => bad.push(t), cwd: dir }), 1);
    assert.match(bad.join(''), /tealworks\.yaml:2:\d+: error: .*nobody/);
  });
});
