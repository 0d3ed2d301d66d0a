import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DapClient, repoRoot } from './dapClient.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { readFileSync } from 'node:fs';

const FILE = resolve(repoRoot, 'test/server/dap/fixtures/debug-me.teal');
const source = readFileSync(FILE, 'utf8');
const pcMap = assemble(source).sourceMap;
/** The first pc the assembler maps to a (1-based) line, as use site. */
const pcOfLine = (line: number) => Math.min(...pcMap.filter((m) => m.use.line === line - 1).map((m) => m.pc));

const live = (appArgs: (string | number)[], extra: Record<string, unknown> = {}) => ({ program: FILE, appArgs, cwd: repoRoot, ...extra });

describe('debug adapter over DAP (embedded AVM)', function () {
  this.timeout(60_000);
  let dap: DapClient;
  afterEach(async () => {
    await dap?.close();
  });

  it('stops at a breakpoint on a macro use site, showing the #define body as a related frame', async () => {
    dap = new DapClient();
    const { breakpoints } = await dap.start(live([5]), { [FILE]: [{ line: 9 }] });
    assert.equal(breakpoints[FILE]![0]!.verified, true);
    const stop = await dap.stopped();
    assert.equal(stop.body.reason, 'breakpoint');
    const w = await dap.where();
    assert.equal(w.line, 9);
    assert.equal(w.pc, pcOfLine(9));
    assert.match(w.name, /^pushbytes @ pc 9/);
    assert.equal(w.frames[1]!.line, 4, 'the BUMP definition line is the next frame');
    assert.match(w.frames[1]!.name, /#define body/);
    assert.ok(w.frames.some((f) => /^txn 0 \(appl\)$/.test(f.name)));
    assert.ok(w.frames.some((f) => /^group of 1 transaction$/.test(f.name)));
  });

  it('stops at a breakpoint inside a macro body (at its use site) and verifies lines without code as unverified', async () => {
    dap = new DapClient();
    const { breakpoints } = await dap.start(live([5]), { [FILE]: [{ line: 5 }, { line: 2 }] });
    assert.deepEqual(
      breakpoints[FILE]!.map((b) => b.verified),
      [true, false],
    );
    await dap.stopped();
    const w = await dap.where();
    assert.equal(w.line, 14, 'CHECK_SMALL is used on line 14');
    assert.equal(w.frames[1]!.line, 5);
    assert.equal(w.pc, pcOfLine(14));
  });

  it('honours breakpoint conditions', async () => {
    dap = new DapClient();
    await dap.start(live([5]), {
      [FILE]: [
        { line: 13, condition: 'scratch[3] > 10' },
        { line: 16, condition: 'scratch[3] == 5' },
      ],
    });
    await dap.stopped();
    assert.equal((await dap.where()).line, 16);
  });

  it('steps over, in, out and back through lines, subroutines and instructions', async () => {
    dap = new DapClient();
    await dap.start(live([5], { stopOnEntry: true }));
    assert.equal((await dap.stopped()).body.reason, 'entry');
    const step = async (command: string, args: Record<string, unknown> = {}) => {
      const stopped = dap.stopped();
      await dap.request(command, { threadId: 1, ...args });
      await stopped;
      const w = await dap.where();
      return [w.line, w.pc];
    };
    assert.deepEqual((await dap.where()).line, 7);
    assert.deepEqual(await step('next'), [8, pcOfLine(8)]);
    assert.deepEqual(await step('next'), [9, pcOfLine(9)]);
    assert.deepEqual(await step('next'), [10, pcOfLine(10)], 'over the whole macro expansion');
    assert.deepEqual(await step('stepIn', { granularity: 'instruction' }), [11, pcOfLine(11)]);
    assert.deepEqual(await step('stepBack', { granularity: 'instruction' }), [10, pcOfLine(10)]);
    assert.deepEqual(await step('stepBack'), [9, 20], 'back into the macro body: its last statement, app_global_put');
    assert.deepEqual(await step('stepBack'), [9, 19], 'statement by statement: +');
    assert.deepEqual(await step('next'), [10, pcOfLine(10)], 'step over leaves the macro use');
    assert.deepEqual(await step('stepBack'), [9, 20]);
    assert.deepEqual(await step('stepBack'), [9, 19]);
    assert.deepEqual(await step('stepBack'), [9, 18]);
    assert.deepEqual(await step('stepBack'), [9, 17]);
    assert.deepEqual(await step('stepBack'), [9, 16]);
    assert.deepEqual(await step('stepBack'), [9, pcOfLine(9)], 'the first statement of the macro use');
    assert.deepEqual(await step('stepIn'), [9, 16], 'step in walks the macro body');
    assert.deepEqual(await step('next'), [10, pcOfLine(10)]);
    assert.deepEqual(await step('stepBack'), [9, 20]);
    assert.deepEqual(await step('next'), [10, pcOfLine(10)]);
    for (let i = 0; i < 5; i++) await step('next');
    assert.deepEqual((await dap.where()).line, 15);
    assert.deepEqual(await step('stepIn'), [20, pcOfLine(20)], 'into the subroutine');
    assert.match((await dap.where()).name, /^pushbytes/);
    assert.deepEqual(await step('stepOut'), [16, pcOfLine(16)], 'back after the callsub');
    assert.deepEqual(await step('stepBack'), [24, pcOfLine(24)], 'step back lands on retsub');
    assert.deepEqual(await step('stepBack'), [23, pcOfLine(23)]);
    assert.deepEqual(await step('stepOut'), [16, pcOfLine(16)]);
    const ended = dap.event('terminated');
    await dap.request('continue', { threadId: 1 });
    await ended;
  });

  it('shows the typed stack, scratch, state before → now, logs, budget and evaluates watch expressions', async () => {
    dap = new DapClient();
    await dap.start(live([5]), { [FILE]: [{ line: 23 }] });
    await dap.stopped();
    const stack = await dap.scope(/^Stack/);
    assert.deepEqual(
      stack.map((v) => [v.name, v.value, v.type]),
      [
        ['[-1]', '0x0000000000000005', 'bytes'],
        ['[-2]', '"last"', 'bytes'],
      ],
    );
    const views = await dap.variables(stack[0]!.variablesReference);
    assert.ok(views.some((v) => v.name === 'abi uint64' && v.value === '5'));
    assert.ok(views.some((v) => v.name === 'hex' && v.value === '0x0000000000000005'));
    const scratch = await dap.scope(/^Scratch/);
    assert.deepEqual(
      scratch.map((v) => [v.name, v.value]),
      [['3', '5']],
    );
    const state = await dap.scope(/^State/);
    assert.equal(state[0]!.name, 'app 1001');
    const parts = await dap.variables(state[0]!.variablesReference);
    const global = await dap.variables(parts.find((p) => p.name === 'global')!.variablesReference);
    assert.deepEqual(
      global.map((g) => [g.name, g.value]),
      [['"count"', '(none) → 1']],
    );
    const box = await dap.variables(parts.find((p) => p.name === 'box')!.variablesReference);
    assert.deepEqual(
      box.map((g) => [g.name, g.value]),
      [],
      'box_put has not run yet',
    );
    const budget = await dap.scope(/^Budget/);
    assert.equal(budget.find((b) => b.name === 'used')!.value, '21');
    assert.equal(budget.find((b) => b.name === 'left')!.value, String(700 - 21));
    const txn = await dap.scope(/^Transaction/);
    assert.equal(txn.find((t) => t.name === 'ApplicationID')!.value, '1001');
    const ev = async (expression: string, context = 'watch') => dap.request<DebugProtocol.EvaluateResponse>('evaluate', { expression, context });
    assert.equal((await ev('stack[-1]')).body.result, '0x0000000000000005');
    assert.equal((await ev('scratch[3]')).body.result, '5');
    assert.equal((await ev('app[1001].global["count"]')).body.result, '1');
    assert.match((await ev('app[1001].box["last"]')).body.result, /has no box/);
    const bad = await ev('stack[-9]');
    assert.equal(bad.success, false);
    assert.match(bad.message ?? '', /out of range/);
    assert.equal((await ev('"count"', 'hover')).body.result, '1', 'hovering a key shows its value');
    assert.equal((await ev('KEY', 'hover')).body.result, '1', 'and so does hovering a macro that names it');
    assert.equal((await ev('nothing', 'hover')).success, false);
    // One instruction on, the box holds the value.
    const stopped = dap.stopped();
    await dap.request('next', { threadId: 1 });
    await stopped;
    assert.equal((await ev('app[1001].box["last"]')).body.result, '0x0000000000000005');
    assert.equal((await ev('app[1001].box["last"].before')).success, true);
  });

  it('stops a failing group at the failing op with its operands, and steps back to see them change', async () => {
    dap = new DapClient();
    await dap.start(live([500]));
    const stop = await dap.stopped();
    assert.equal(stop.body.reason, 'exception');
    assert.match(stop.body.text ?? '', /assert failed \(operands: 0\)/);
    const w = await dap.where();
    assert.equal(w.line, 14);
    assert.equal(w.frames[1]!.line, 5, 'the definition line is a related frame');
    const info = await dap.request<DebugProtocol.ExceptionInfoResponse>('exceptionInfo', { threadId: 1 });
    assert.equal(info.body.exceptionId, 'assert');
    assert.match(info.body.description ?? '', /assert failed: .*assert failed pc=33.*; operands 0$/);
    assert.match(info.body.details!.stackTrace!, /debug-me\.teal:14 \(macro body at line 5\) pc 33: assert 0/);
    const stack = await dap.scope(/^Stack/);
    assert.deepEqual(
      stack.map((v) => v.value),
      ['0', '500'],
    );
    const stopped = dap.stopped();
    await dap.request('stepBack', { threadId: 1, granularity: 'instruction' });
    await stopped;
    const back = await dap.where();
    assert.match(back.name, /^< @ pc 32/);
    assert.deepEqual(
      (await dap.scope(/^Stack/)).map((v) => v.value),
      ['100', '500', '500'],
    );
  });

  it('disassembles the program around the paused instruction, with source lines', async () => {
    dap = new DapClient();
    await dap.start(live([500]));
    await dap.stopped();
    const w = await dap.where();
    const ref = w.frames[0]!.instructionPointerReference!;
    const r = await dap.request<DebugProtocol.DisassembleResponse>('disassemble', { memoryReference: ref, instructionOffset: -2, instructionCount: 4 });
    assert.deepEqual(
      r.body!.instructions.map((i) => [i.instruction, i.line]),
      [
        ['pushint 100', 14],
        ['<', 14],
        ['assert', 14],
        ['callsub label2', 15],
      ],
    );
    assert.equal(r.body!.instructions[2]!.address, ref);
    const edge = await dap.request<DebugProtocol.DisassembleResponse>('disassemble', { memoryReference: '0x0', instructionOffset: -3, instructionCount: 4 });
    assert.deepEqual(
      edge.body!.instructions.map((i) => i.presentationHint ?? i.instruction),
      ['invalid', 'invalid', 'invalid', 'intcblock 1'],
    );
  });

  it('runs backwards to the previous breakpoint from the failure (reverse continue)', async () => {
    dap = new DapClient();
    await dap.start(live([500]), { [FILE]: [{ line: 9 }] });
    assert.equal((await dap.stopped()).body.reason, 'breakpoint');
    let stopped = dap.stopped();
    await dap.request('continue', { threadId: 1 });
    assert.equal((await stopped).body.reason, 'exception');
    stopped = dap.stopped();
    await dap.request('reverseContinue', { threadId: 1 });
    assert.equal((await stopped).body.reason, 'breakpoint');
    assert.equal((await dap.where()).line, 9);
    stopped = dap.stopped();
    await dap.request('reverseContinue', { threadId: 1 });
    assert.equal((await stopped).body.reason, 'entry', 'nothing before it: back at the first instruction');
    assert.equal((await dap.where()).line, 7);
  });

  it('reports a launch configuration that names nothing, or a missing file, as an error', async () => {
    dap = new DapClient();
    await dap.request('initialize', { adapterID: 'tealworks' });
    const r = await dap.request('launch', {});
    assert.equal(r.success, false);
    assert.match(r.message ?? JSON.stringify(r.body), /names nothing to debug/);
    const r2 = await dap.request('launch', { program: '/nonexistent/x.teal' });
    assert.equal(r2.success, false);
    assert.match(JSON.stringify(r2.body), /does not exist/);
  });
});

describe('debug adapter over DAP: a tealworks.yaml step', function () {
  this.timeout(120_000);
  let dap: DapClient | undefined;
  afterEach(async () => {
    await dap?.close();
    dap = undefined;
  });

  it('runs the workflow on a fresh in-memory devnet up to the step and debugs that step', async () => {
    const workflow = resolve(repoRoot, 'examples/counter/tealworks.yaml');
    const approval = resolve(repoRoot, 'examples/counter/approval.teal');
    dap = new DapClient();
    const { launch } = await dap.start({ workflow, step: 'bump', stopOnEntry: true, cwd: repoRoot }, { [approval]: [{ line: 33 }] });
    assert.ok(launch.success, launch.message);
    assert.equal((await dap.stopped()).body.reason, 'entry');
    let w = await dap.where();
    assert.equal(w.frames[0]!.source?.path, approval);
    assert.equal(w.line, 8);
    const stopped = dap.stopped();
    await dap.request('continue', { threadId: 1 });
    await stopped;
    w = await dap.where();
    assert.equal(w.line, 33, 'the breakpoint on `byte "last"`');
    const txn = await dap.scope(/^Transaction/);
    assert.ok(txn.some((t) => t.name === 'ApplicationID'));
  });

  it('a step whose program has TMPL_ placeholders stops on its source lines (the program as the run compiled it)', async () => {
    const workflow = resolve(repoRoot, 'examples/counter/tealworks.yaml');
    const counter = resolve(repoRoot, 'examples/counter/abi/counter.teal');
    const line =
      readFileSync(counter, 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('increment:')) + 2;
    dap = new DapClient();
    const { launch } = await dap.start({ workflow, step: 'inc', stopOnEntry: true, cwd: repoRoot }, { [counter]: [{ line }] });
    assert.ok(launch.success, launch.message);
    await dap.stopped();
    let w = await dap.where();
    assert.equal(w.frames[0]!.source?.path, counter, 'the step runs abi/counter.teal, which holds TMPL_UPDATABLE');
    const stopped = dap.stopped();
    await dap.request('continue', { threadId: 1 });
    await stopped;
    w = await dap.where();
    assert.equal(w.line, line, 'stopped at the breakpoint inside the increment branch');
  });

  it('says which steps exist when the step is not found', async () => {
    dap = new DapClient();
    await dap.request('initialize', { adapterID: 'tealworks' });
    const r = await dap.request('launch', { workflow: resolve(repoRoot, 'examples/counter/tealworks.yaml'), step: 'no-such-step' });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.body), /has no step \\"no-such-step\\"/);
  });
});
