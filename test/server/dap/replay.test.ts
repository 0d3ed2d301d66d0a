import { HANG_GUARD_MS } from '../../helpers/hang.js';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DapClient, repoRoot } from './dapClient.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { formatDebugValue } from '../../../sdk/src/app/debug/index.js';
import { needShared, sharedPath } from '../../helpers/shared.js';

const FIX = resolve(repoRoot, 'test/server/dap/fixtures');

type Val = bigint | Uint8Array;
interface Expected {
  pc: number;
  stack: string[];
}

/** pcs and stacks straight from the response, independently of the adapter: a fold over every trace, inner programs after the step that spawned them. */
function expectedSteps(response: unknown): Expected[] {
  const out: Expected[] = [];
  const val = (v: { type: number; uint?: bigint | number; bytes?: string }): Val => (v.type === 1 ? fromBase64(v.bytes ?? '') : BigInt(v.uint ?? 0));
  const show = (s: Val[]) => s.map((v) => formatDebugValue(v)).reverse();
  const walk = (trace: Record<string, unknown> | undefined) => {
    if (!trace) return;
    for (const field of ['logic-sig-trace', 'approval-program-trace', 'clear-state-program-trace']) {
      const steps = (trace[field] ?? []) as Record<string, unknown>[];
      const stack: Val[] = [];
      for (const s of steps) {
        out.push({ pc: Number(s.pc), stack: show(stack) });
        const pops = Number(s['stack-pop-count'] ?? 0);
        stack.splice(stack.length - pops, pops, ...((s['stack-additions'] ?? []) as never[]).map(val));
        if (field !== 'logic-sig-trace')
          for (const k of (s['spawned-inners'] ?? []) as number[]) walk(((trace['inner-trace'] ?? []) as Record<string, unknown>[])[k]);
      }
    }
  };
  const group = (response as { 'txn-groups': { 'txn-results': { 'exec-trace'?: Record<string, unknown> }[] }[] })['txn-groups'][0]!;
  for (const r of group['txn-results']) walk(r['exec-trace']);
  return out;
}

/** Steps one instruction at a time from entry to the end, recording pc and stack at each stop. */
async function walkAll(dap: DapClient, count: number): Promise<{ steps: Expected[]; lines: number[] }> {
  const steps: Expected[] = [];
  const lines: number[] = [];
  for (let i = 0; i < count; i++) {
    const w = await dap.where();
    const stack = await dap.scope(/^Stack/);
    steps.push({ pc: w.pc, stack: stack.map((v) => v.value) });
    lines.push(w.line);
    if (i === count - 1) break;
    const stopped = dap.stopped();
    await dap.request('stepIn', { threadId: 1, granularity: 'instruction' });
    await stopped;
  }
  return { steps, lines };
}

function samplesDir(): string {
  return process.env.TEALWORKS_AVM_DEBUGGER_SAMPLES ?? sharedPath('fixtures/avm-debugger-traces');
}

/** Every (response, sources.json) pair under the samples directory. */
function samples(dir: string): { response: string; sources: string }[] {
  const out: { response: string; sources: string }[] = [];
  const visit = (d: string) => {
    const names = readdirSync(d);
    const sources = names.find((n) => n === 'sources.json' || n === 'sources.avm.json');
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) visit(p);
      else if (sources && /(response|trace\.avm)\.json$/.test(n)) out.push({ response: p, sources: join(d, sources) });
    }
  };
  visit(dir);
  return out.sort((a, b) => a.response.localeCompare(b.response));
}

describe('debug adapter over DAP: recorded traces', function () {
  this.timeout(120_000);
  let dap: DapClient | undefined;
  let dap2: DapClient | undefined;
  afterEach(async () => {
    await dap?.close();
    await dap2?.close();
    dap = dap2 = undefined;
  });

  it('replays a trace recorded on our devnet in algod format to the same pcs and stacks, and stops at its failure', async () => {
    const trace = join(FIX, 'recorded/debug-me-fails.trace.avm.json');
    const expected = expectedSteps(parseJson(readFileSync(trace, 'utf8')));
    assert.equal(expected.length, 17);
    dap = new DapClient();
    await dap.start({ trace, sources: join(FIX, 'recorded/sources.avm.json'), stopOnEntry: true, cwd: repoRoot });
    await dap.stopped();
    const got = await walkAll(dap, expected.length);
    assert.deepEqual(got.steps, expected);
    assert.equal(got.lines[0], 7);
    assert.equal(got.lines[got.lines.length - 1], 14, 'the failing assert at its macro use site');
    // From the start, continue stops at the failure.
    await dap.close();
    dap = new DapClient();
    await dap.start({ trace, sources: join(FIX, 'recorded/sources.avm.json'), cwd: repoRoot });
    assert.equal((await dap.stopped()).body.reason, 'exception');
    assert.equal((await dap.where()).pc, 33);
  });

  it('exports a live run (with an inner app call) and replays the export to the same pcs, stacks and frames', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-dap-export-'));
    try {
      dap = new DapClient();
      const inner = join(FIX, 'inner.teal');
      await dap.start({ program: join(FIX, 'spawner.teal'), programs: [inner], stopOnEntry: true, cwd: repoRoot });
      await dap.stopped();
      const exported = await dap.request('tealworks/exportTrace', { path: join(dir, 'run.trace.avm.json') });
      assert.ok(exported.success, exported.message);
      const response = parseJson(readFileSync(join(dir, 'run.trace.avm.json'), 'utf8'));
      const expected = expectedSteps(response);
      const live = await walkAll(dap, expected.length);
      assert.deepEqual(live.steps, expected);

      dap2 = new DapClient();
      await dap2.start({ trace: join(dir, 'run.trace.avm.json'), sources: join(dir, 'sources.avm.json'), stopOnEntry: true });
      await dap2.stopped();
      const replay = await walkAll(dap2, expected.length);
      assert.deepEqual(replay, live);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('steps into, out of and over an inner app call', async () => {
    dap = new DapClient();
    const inner = join(FIX, 'inner.teal');
    const spawner = join(FIX, 'spawner.teal');
    await dap.start({ program: spawner, programs: [inner], cwd: repoRoot }, { [inner]: [{ line: 2 }] });
    await dap.stopped();
    let w = await dap.where();
    assert.equal(w.frames[0]!.source?.path, inner);
    assert.match(w.frames[0]!.name, /txn 0 → inner 0 approval program/);
    assert.equal(w.frames[1]!.source?.path, spawner);
    assert.equal(w.frames[1]!.line, 12, 'the parent frame waits on itxn_submit');
    const step = async (command: string) => {
      const stopped = dap!.stopped();
      await dap!.request(command, { threadId: 1 });
      await stopped;
      return dap!.where();
    };
    w = await step('stepOut');
    assert.equal(w.frames[0]!.source?.path, spawner);
    assert.equal(w.line, 13);
    w = await step('stepBack');
    assert.equal(w.frames[0]!.source?.path, inner, 'step back re-enters the inner program');
    await dap.close();
    dap = new DapClient();
    await dap.start({ program: spawner, programs: [inner], cwd: repoRoot }, { [spawner]: [{ line: 12 }] });
    await dap.stopped();
    assert.equal((await dap.where()).line, 12);
    w = await step('next');
    assert.equal(w.line, 13, 'stepping over itxn_submit skips the inner program');
    assert.equal(w.frames[0]!.source?.path, spawner);
  });

  it('replays the AVM Debugger sample traces to the same pcs and stacks', async function () {
    // Every sample, every step, over DAP: minutes of work on a loaded 2-core machine. A hang guard only.
    this.timeout(3 * HANG_GUARD_MS);
    const dir = samplesDir();
    needShared(this, dir, 'TEALWORKS_AVM_DEBUGGER_SAMPLES names a copy of the AVM Debugger sample workspace');
    const list = samples(dir!);
    assert.ok(list.length > 0, `no simulate responses with a sources.json under ${dir}`);
    for (const s of list) {
      const response = parseJson(readFileSync(s.response, 'utf8'));
      const expected = expectedSteps(response);
      if (expected.length === 0) continue;
      dap = new DapClient();
      const started = await dap.start({ trace: s.response, sources: s.sources, stopOnEntry: true });
      assert.ok(started.launch.success, `${s.response}: ${started.launch.message}`);
      await dap.stopped();
      const got = await walkAll(dap, expected.length);
      assert.deepEqual(got.steps, expected, s.response);
      await dap.close();
      dap = undefined;
    }
  });

  it('is reachable as `tealworks debug --dap` over stdio', async () => {
    dap = new DapClient(['--import', 'tsx', resolve(repoRoot, 'sdk/src/cli/main.ts'), 'debug', '--dap']);
    const init = await dap.request<DebugProtocol.InitializeResponse>('initialize', { adapterID: 'tealworks' });
    assert.equal(init.success, true);
    assert.equal(init.body?.supportsStepBack, true);
  });
});
