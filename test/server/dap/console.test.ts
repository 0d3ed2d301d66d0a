// The debug console over a real DAP connection (issue 30, E21/E26): reading the other
// transactions of the group, comparisons, and frames of programs without a TEAL file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import algosdk from 'algosdk';
import { DapClient, repoRoot } from './dapClient.js';

const FIX = join(repoRoot, 'test/server/dap/fixtures');

describe('debug adapter over DAP: console expressions and source-less frames', function () {
  this.timeout(120_000);
  let dap: DapClient | undefined;
  afterEach(async () => {
    await dap?.close();
    dap = undefined;
  });

  const ev = (expression: string, context = 'repl') => dap!.request<DebugProtocol.EvaluateResponse>('evaluate', { expression, context });
  const result = async (expression: string) => {
    const r = await ev(expression);
    assert.ok(r.success, `${expression}: ${r.message}`);
    return r.body.result;
  };

  it("reads the group's transactions (gtxn[0].Amount, gtxn 0 Amount) and compares values", async () => {
    const workflow = resolve(repoRoot, 'examples/abi-router/tealworks.yaml');
    dap = new DapClient();
    const { launch } = await dap.start({ workflow, step: 'deposit', stopOnEntry: true, cwd: repoRoot });
    assert.ok(launch.success, launch.message);
    await dap.stopped();
    // The step's group: a payment (txn 0) then the deposit call (txn 1), paused in the call.
    assert.equal(await result('gtxn[0].Amount'), '2000000');
    assert.equal(await result('gtxn 0 Amount'), '2000000');
    assert.equal(await result('gtxn[0].TypeEnum'), '1');
    assert.equal(await result('txn.GroupIndex'), '1');
    assert.equal(await result('txn TypeEnum'), '6');
    assert.equal(await result('gtxn[0].Amount == 2000000'), 'true');
    assert.equal(await result('gtxn[0].Amount > 3000000'), 'false');
    assert.equal(await result('gtxn[0].Sender == txn.Sender'), 'true');
    assert.equal(await result('gtxn 0 Receiver != txn Sender'), 'true');
    const selector = '0x' + Buffer.from(algosdk.ABIMethod.fromSignature('deposit(pay)uint64').getSelector()).toString('hex');
    assert.equal(await result('txn.ApplicationArgs[0]'), selector);
    assert.equal(await result('txna ApplicationArgs 0'), selector);
    assert.equal(await result(`txn.ApplicationArgs[0] == ${selector}`), 'true');
    assert.equal(await result('txn.NumAppArgs'), '1');
    const receiver = await result('gtxn[0].Receiver');
    assert.match(receiver, /^[A-Z2-7]{58}$|^0x[0-9a-f]{64}$/);
    // Mistakes say what to write.
    const out = await ev('gtxn[5].Amount');
    assert.equal(out.success, false);
    assert.match(out.message ?? '', /gtxn 5 is out of range: the group has 2 transactions \(0…1\)/);
    const bad = await ev('txn.amount');
    assert.match(bad.message ?? '', /no transaction field "amount" \(did you mean Amount\?\)/);
    const array = await ev('txn.ApplicationArgs');
    assert.match(array.message ?? '', /ApplicationArgs is an array field: give an index/);
    const mixed = await ev('txn.Amount == "x"');
    assert.match(mixed.message ?? '', /cannot compare a uint64 with bytes/);
  });

  it('breakpoint conditions may read transaction fields', async () => {
    const file = join(FIX, 'debug-me.teal');
    dap = new DapClient();
    await dap.start(
      { program: file, appArgs: [5], cwd: repoRoot },
      {
        [file]: [
          { line: 13, condition: 'txn.NumAppArgs == 2' },
          { line: 16, condition: 'gtxn[0].ApplicationID == 1001' },
        ],
      },
    );
    await dap.stopped();
    assert.equal((await dap.where()).line, 16);
    assert.equal(await result('txn.ApplicationArgs[0] == 0x0000000000000005'), 'true');
    assert.equal(await result('scratch[3] == 5'), 'true');
  });

  it("a program with no TEAL file is shown as its disassembly, named by app and kind, at the pc's line", async () => {
    dap = new DapClient();
    await dap.start({ program: join(FIX, 'spawner.teal'), stopOnEntry: true, cwd: repoRoot });
    await dap.stopped();
    // Step into the inner app the spawner creates (its program is bytes only).
    let w = await dap.where();
    for (let i = 0; i < 40 && !/inner 0/.test(w.name); i++) {
      const s = dap.stopped();
      await dap.request('stepIn', { threadId: 1, granularity: 'instruction' });
      await s;
      w = await dap.where();
    }
    const top = w.frames[0]!;
    assert.match(top.name, /@ pc \d+ — txn 0 → inner 0 approval program \(app \d+\)/);
    assert.ok(top.source, 'the frame has a source');
    assert.match(top.source!.name ?? '', /^app \d+ approval \(disassembled\)\.teal$/);
    assert.ok((top.source!.sourceReference ?? 0) > 0);
    assert.ok(top.line > 0, 'a real line, not 0');
    const src = await dap.request<DebugProtocol.SourceResponse>('source', { source: top.source, sourceReference: top.source!.sourceReference! });
    assert.ok(src.success, src.message);
    const lines = src.body.content.split('\n');
    assert.match(lines[0]!, /no TEAL file, disassembled from the program bytes/);
    assert.equal(lines[top.line - 1], 'pushint 1', "the frame's line is the paused instruction");
    // The spawner's own frame keeps its file.
    assert.match(w.frames[1]!.source?.path ?? '', /spawner\.teal$/);
  });

  it('a trace without sources or program bytes names the program and pc instead of "Unknown Source"', async () => {
    dap = new DapClient();
    const { launch } = await dap.start({ trace: join(FIX, 'recorded/debug-me-fails.trace.avm.json'), stopOnEntry: true, cwd: repoRoot });
    assert.ok(launch.success, launch.message);
    await dap.stopped();
    const top = (await dap.where()).frames[0]!;
    assert.equal(top.name, 'pc 1 — txn 0 approval program (app 1001)');
    assert.equal(top.source?.name, 'app 1001 approval (no source or program bytes; pc 1)');
  });

  it("the debugger's disassembly comments selectors with their methods from the TEAL", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-dap-router-'));
    try {
      const router = join(dir, 'router.teal');
      writeFileSync(
        router,
        [
          '#pragma version 10',
          'txn ApplicationID',
          'bz create',
          'txna ApplicationArgs 0',
          'method "increment(uint64)uint64"',
          '==',
          'bnz done',
          'txna ApplicationArgs 0',
          'method "get_count()uint64"',
          '==',
          'assert',
          'done:',
          'int 1',
          'return',
          'create:',
          'int 1',
          'return',
          '',
        ].join('\n'),
      );
      dap = new DapClient();
      const { launch } = await dap.start({ program: router, appArgs: ['0x755f9589'], stopOnEntry: true, cwd: dir });
      assert.ok(launch.success, launch.message);
      await dap.stopped();
      const w = await dap.where();
      const r = await dap.request<DebugProtocol.DisassembleResponse>('disassemble', {
        memoryReference: w.frames[0]!.instructionPointerReference!,
        instructionOffset: 0,
        instructionCount: 20,
      });
      const text = r.body!.instructions.map((i) => i.instruction);
      assert.ok(text.includes('pushbytes 0x289e7621 // method "increment(uint64)uint64"'), text.join('\n'));
      assert.ok(text.includes('pushbytes 0x755f9589 // method "get_count()uint64"'), text.join('\n'));
    } finally {
      await dap?.close();
      dap = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
