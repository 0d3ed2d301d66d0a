import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DapClient, repoRoot } from './dapClient.js';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

// Debugging Algorand Python: breakpoints in the `.py` file, statement stepping by the `.puya.map`,
// call-stack frames named by subroutine — on a Puya example run live from its shipped TEAL, and on
// the AVM Debugger's recorded Puya trace.

const EXAMPLES = resolve(repoRoot, '../shared/data/fixtures/puya-examples');
const SAMPLE = resolve(repoRoot, '../shared/data/fixtures/avm-debugger-traces/puya');
const AMM = join(EXAMPLES, 'amm');

/** The distinct contract.py lines (1-based) the AVM Debugger shows for the recorded run, in order (read off the map and the trace). */
const RECORDED_LINES = [6, 22, 24, 26, 190, 192, 193, 195, 200, 199, 198, 197, 195, 194, 27, 29, 30, 32, 22];

function lineOf(file: string, pattern: RegExp, after?: RegExp): number {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const from = after ? lines.findIndex((l) => after.test(l)) : 0;
  return lines.findIndex((l, k) => k >= from && pattern.test(l)) + 1;
}

describe('debug adapter over DAP: Algorand Python sources', function () {
  this.timeout(120_000);
  let dap: DapClient | undefined;
  afterEach(async () => {
    await dap?.close();
    dap = undefined;
  });

  const step = async (command: string, args: Record<string, unknown> = {}) => {
    const stopped = dap!.stopped();
    await dap!.request(command, { threadId: 1, ...args });
    await stopped;
    return dap!.where();
  };

  it('runs contract.py live (its out/ TEAL found by the map): a .py breakpoint is hit, step in enters the subroutine, step out and back return', async function () {
    if (!existsSync(AMM)) return this.skip();
    const py = join(AMM, 'contract.py');
    const spec = parseArc56(readFileSync(join(AMM, 'out/ConstantProductAMM.arc56.json'), 'utf8'));
    const selector = toHex(spec.getMethod('set_governor').method.selector);
    const call = lineOf(py, /^\s*self\._check_is_governor\(\)$/, /def set_governor/);
    const next = call + 1;
    dap = new DapClient();
    const started = await dap.start({ program: py, appArgs: [`0x${selector}`, `0x${'00'.repeat(32)}`], cwd: AMM }, { [py]: [{ line: call }, { line: 3 }] });
    assert.ok(started.launch.success, started.launch.message);
    assert.deepEqual(
      started.breakpoints[py]!.map((b) => b.verified),
      [true, false],
      'line 3 (an import) has no code',
    );
    assert.equal((await dap.stopped()).body.reason, 'breakpoint');
    let w = await dap.where();
    assert.equal(w.frames[0]!.source?.path, py);
    assert.equal(w.line, call);
    assert.match(w.name, /^ConstantProductAMM\.set_governor\[routing\] @ pc \d+/);

    w = await step('stepIn');
    assert.equal(w.frames[0]!.source?.path, py);
    // The assert's condition is evaluated first.
    assert.equal(w.line, lineOf(py, /^\s*Txn\.sender == self\.governor$/, /def _check_is_governor/), 'into _check_is_governor');
    assert.match(w.frames[0]!.name, /^ConstantProductAMM\._check_is_governor @/);
    assert.match(w.frames[1]!.name, /^ConstantProductAMM\.set_governor\[routing\] @/);
    assert.equal(w.frames[1]!.line, call, 'the caller frame waits on the call');

    // Statement by statement: every stop inside the subroutine is a line of it.
    const inside: number[] = [];
    while (/_check_is_governor/.test(w.frames[0]!.name)) {
      inside.push(w.line);
      w = await step('stepIn');
    }
    assert.ok(
      inside.every((l) => l >= lineOf(py, /def _check_is_governor/) && l <= lineOf(py, /may call this method/)),
      `lines ${inside}`,
    );
    assert.equal(w.line, next, 'back in set_governor at the next statement');

    w = await step('stepBack');
    assert.match(w.frames[0]!.name, /_check_is_governor/, 'step back re-enters the subroutine');
    w = await step('stepOut');
    assert.equal(w.line, next);
    w = await step('stepBack');
    w = await step('stepBack');
    assert.ok(inside.includes(w.line), `stepped back to ${w.line}, ${w.frames[0]!.name}; inside ${inside}`);
  });

  it('replays the AVM Debugger recorded Puya trace to the same contract.py lines, with subroutine frames', async function () {
    if (!existsSync(SAMPLE)) return this.skip();
    const py = join(SAMPLE, 'contract.py');
    dap = new DapClient();
    const started = await dap.start({ trace: join(SAMPLE, 'simulate-response.json'), sources: join(SAMPLE, 'sources.json'), stopOnEntry: true });
    assert.ok(started.launch.success, started.launch.message);
    await dap.stopped();
    const seen: number[] = [];
    let done = false;
    const ended = dap.event('terminated').then(
      () => (done = true),
      () => undefined,
    );
    for (let i = 0; i < 400 && !done; i++) {
      const w = await dap.where().catch(() => undefined);
      if (!w) break;
      if (w.frames[0]!.source?.path === py && seen.at(-1) !== w.line) seen.push(w.line);
      if (w.line === 24 && w.frames[0]!.source?.path === py) {
        assert.match(w.frames[0]!.name, /^ProofOfAttendance\.confirm_attendance @/);
        assert.match(w.frames[1]!.name, /^ProofOfAttendance\.__puya_arc4_router__ @/);
      }
      const stopped = dap.stopped().catch(() => undefined);
      await dap.request('stepIn', { threadId: 1 });
      await Promise.race([stopped, ended]);
    }
    assert.deepEqual(seen, RECORDED_LINES);
  });

  it("a breakpoint in the recorded run's contract.py is hit", async function () {
    if (!existsSync(SAMPLE)) return this.skip();
    const py = join(SAMPLE, 'contract.py');
    dap = new DapClient();
    const started = await dap.start({ trace: join(SAMPLE, 'simulate-response.json'), sources: join(SAMPLE, 'sources.json') }, { [py]: [{ line: 192 }] });
    assert.equal(started.breakpoints[py]![0]!.verified, true);
    assert.equal((await dap.stopped()).body.reason, 'breakpoint');
    const w = await dap.where();
    assert.equal(w.line, 192);
    assert.match(w.frames[0]!.name, /^ProofOfAttendance\._mint_poa @/);
  });
});
