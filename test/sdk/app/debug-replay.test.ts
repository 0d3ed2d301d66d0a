import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulateReport, renderSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { DebugRun, evaluateWatch, programFromTeal, typedViews, formatDebugValue, WatchError, DebugTraceError } from '../../../sdk/src/app/debug/index.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/index.js';
import { Address } from '../../../sdk/src/encoding/index.js';
import { stringifyJson } from '../../../sdk/src/encoding/json.js';
import { simulateResponseToWire } from '../../../sdk/src/services/index.js';
import { Ledger, simulate, type SimulateRequest } from '../../../sdk/src/ledger/index.js';
import { makeAppCallTxn, makeAppCreateTxn, signTransaction, OnComplete } from '../../../sdk/src/txn/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (p: string) => readFileSync(resolve(root, 'test/server/dap/fixtures', p), 'utf8');
const response = () => parseJson(fixture('recorded/debug-me-fails.trace.avm.json'));

describe('app/debug: replaying recorded runs', () => {
  it('explains a failure in the simulate report: op, operands, stack and scratch at the failing pc', () => {
    const teal = fixture('debug-me.teal');
    const a = assemble(teal);
    const report = buildSimulateReport(response(), {
      apps: new Map([[1001n, { approval: { bytes: a.program, pcMap: a.sourceMap, sourceName: 'debug-me.teal', sourceLines: teal.split('\n') } }]]),
    });
    const f = report.failure!;
    assert.equal(f.op, 'assert');
    assert.deepEqual(f.operands, [0n]);
    assert.deepEqual(f.stack, [500n, 0n]);
    assert.deepEqual(f.scratch, [{ slot: 3, value: 500n }]);
    assert.equal(f.source?.line, 14);
    assert.equal(f.source?.definition?.line, 5);
    const text = renderSimulateReport(report);
    assert.match(text, /failing op: assert, operands 0/);
    assert.match(text, /stack \(top first\): 0, 500/);
    assert.equal(Object.keys(report).includes('response'), false, 'the raw response rides along, not enumerable');
    assert.ok(report.response);
  });

  it('explains a failure, read late, from the programs known when the report was built', () => {
    // The replay runs when op, stack, operands or scratch is first read; apps learnt by the
    // caller's map after the report was built must not change what it says.
    const teal = fixture('debug-me.teal');
    const a = assemble(teal);
    const apps = new Map<bigint, { approval: { bytes: Uint8Array } }>();
    const report = buildSimulateReport(response(), { apps });
    apps.set(1001n, { approval: { bytes: a.program } });
    assert.equal(report.failure!.op, undefined, 'no program bytes were known');
    assert.deepEqual(report.failure!.stack, [500n, 0n]);
    assert.equal(buildSimulateReport(response(), { apps }).failure!.op, 'assert');
    // Once read, the members are plain values.
    assert.equal(typeof Object.getOwnPropertyDescriptor(report.failure!, 'stack')!.get, 'undefined');
  });

  it('knows operands without program bytes from the recorded pops, and no op name', () => {
    const report = buildSimulateReport(response());
    assert.equal(report.failure!.op, undefined);
    assert.deepEqual(report.failure!.stack, [500n, 0n]);
  });

  it('rebuilds stack, scratch and state at any position, in both directions', () => {
    const run = DebugRun.fromSimulateResponse(response(), { programs: [programFromTeal(fixture('debug-me.teal'), 'debug-me.teal')] });
    assert.equal(run.timeline.length, 17);
    assert.equal(run.failure?.position, 16);
    const late = run.snapshot(16);
    const early = run.snapshot(3);
    assert.deepEqual(early.stack, []);
    assert.equal(run.snapshot(15).op?.op.name, '<');
    assert.deepEqual(run.snapshot(15).stack, [500n, 500n, 100n]);
    assert.deepEqual(run.snapshot(16).stack, [500n, 0n], 'after visiting 15 and 16 in any order');
    assert.deepEqual([...late.scratch], [[3, 500n]]);
    assert.equal(late.apps.get(1001n)!.global.get('636f756e74')!.now, 1n);
    assert.equal(early.apps.get(1001n)?.global.get('636f756e74')?.now, undefined, 'state before the write');
    assert.equal(late.budgetUsed, 16);
    assert.equal(late.budgetTotal, 700);
    assert.deepEqual(run.location(late.frame, late.pc), {
      file: 'debug-me.teal',
      line: 13,
      column: 0,
      definition: { file: 'debug-me.teal', line: 4, column: 37 },
    });
  });

  it('a long run (a loop writing state and logging, thousands of steps): every snapshot equals the step-by-step account', () => {
    // Each iteration: count += 1 in global state and in scratch 0; every 16th count is logged (a
    // transaction may log 32 times).
    const N = 400;
    const teal = `#pragma version 10\ntxn ApplicationID\nbz ok\nint 0\nstore 0\nloop:\nload 0\nint 1\n+\ndup\nstore 0\nbyte "count"\nswap\napp_global_put\nload 0\nint 16\n%\nbnz skip\nload 0\nitob\nlog\nskip:\nload 0\nint ${N}\n<\nbnz loop\nok:\nint 1\n`;
    const approval = programFromTeal(teal, 'loop.teal');
    const clear = programFromTeal('#pragma version 10\nint 1\n');
    const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(7));
    const me = new Address(key.publicKey);
    const ledger = new Ledger({ genesisAccounts: [{ address: key.publicKey, amount: 10n ** 12n }] });
    const sp = () => ({
      fee: 2000n,
      flatFee: true,
      firstValid: ledger.latestRound,
      lastValid: ledger.latestRound + 1000n,
      genesisId: ledger.genesisId,
      genesisHash: ledger.genesisHash,
    });
    const created = ledger.submit([
      signTransaction(
        makeAppCreateTxn({
          sender: me,
          suggestedParams: sp(),
          approvalProgram: approval.bytes!,
          clearProgram: clear.bytes!,
          globalSchema: { numUints: 1, numByteSlices: 0 },
          localSchema: { numUints: 0, numByteSlices: 0 },
        }),
        key,
      ),
    ]);
    const appId = ledger.transaction(created.txids[0]!)!.ad.createdAppId!;
    const request = {
      'txn-groups': [{ txns: [{ txn: makeAppCallTxn({ sender: me, appId, onComplete: OnComplete.NoOp, suggestedParams: sp() }) }] }],
      'allow-empty-signatures': true,
      'extra-opcode-budget': 20_000,
      'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true },
    } as unknown as SimulateRequest;
    const run = DebugRun.fromSimulateResponse(parseJson(stringifyJson(simulateResponseToWire(simulate(ledger, request), request, 'json'))), {
      programs: [approval, clear],
    });
    assert.ok(run.timeline.length > 5000, `${run.timeline.length} steps`);
    // The account kept by walking the run once, step by step.
    let count: bigint | undefined;
    let logged = 0;
    let budget = 0;
    // Visit positions out of order (a breakpoint search goes forward, a step back goes backward).
    const positions = [...Array(run.timeline.length).keys()];
    const expected = positions.map((t) => {
      const here = { count, logged, budget };
      const e = run.timeline[t]!;
      const f = run.frames[e.frame]!;
      const step = f.steps[e.step]!;
      for (const c of step.state) if (c.operation !== 'd') count = c.value as bigint;
      if (f.ops[e.step]?.op.name === 'log') logged++;
      budget += f.costs[e.step] ?? 0;
      return here;
    });
    for (const t of [...positions.filter((t) => t % 7 === 0).reverse(), ...positions.filter((t) => t % 5 === 0)]) {
      const snap = run.snapshot(t);
      assert.equal(snap.apps.get(appId)?.global.get('636f756e74')?.now, expected[t]!.count, `global count at ${t}`);
      assert.equal(snap.logs.length, expected[t]!.logged, `logs at ${t}`);
      assert.equal(snap.budgetUsed, expected[t]!.budget, `budget at ${t}`);
    }
    const last = run.snapshot(run.timeline.length - 1);
    assert.equal(last.apps.get(appId)!.global.get('636f756e74')!.now, BigInt(N));
    assert.equal(last.logs.length, N / 16);
    assert.deepEqual(last.logs[N / 16 - 1], new Uint8Array([0, 0, 0, 0, 0, 0, 1, 144]));
  });

  it('evaluates watch expressions and says what is wrong with bad ones', () => {
    const run = DebugRun.fromSimulateResponse(response(), { programs: [programFromTeal(fixture('debug-me.teal'))] });
    const s = run.snapshot(16);
    assert.deepEqual(evaluateWatch('stack[-1]', s), { value: 0n });
    assert.deepEqual(evaluateWatch('stack[0]', s), { value: 500n });
    assert.deepEqual(evaluateWatch('scratch[3]', s), { value: 500n });
    assert.deepEqual(evaluateWatch('scratch[4]', s), { value: 0n });
    assert.deepEqual(evaluateWatch('app[1001].global["count"]', s), { value: 1n });
    assert.deepEqual(evaluateWatch('global[0x636f756e74]', s), { value: 1n });
    assert.match(evaluateWatch('app[1001].global["count"].before', s).absent!, /no global "count" before the group/);
    assert.match(evaluateWatch('app[1001].box["last"]', s).absent!, /has no box/);
    assert.throws(
      () => evaluateWatch('stack[5]', s),
      (e: unknown) => e instanceof WatchError && /out of range: the stack has 2 items/.test(e.message),
    );
    assert.throws(() => evaluateWatch('scratch[300]', s), /0…255/);
    assert.throws(() => evaluateWatch('frobnicate', s), /try stack\[-1\]/);
  });

  it('gives typed views of values', () => {
    assert.deepEqual(
      typedViews(5n).map((v) => v.label),
      ['uint64', 'hex'],
    );
    const abiString = new Uint8Array([0, 2, ...utf8('hi')]);
    assert.ok(typedViews(abiString).some((v) => v.label === 'abi string' && v.text === '"hi"'));
    const addr = new Uint8Array(32);
    assert.ok(typedViews(addr).some((v) => v.label === 'address' && v.text.length === 58));
    assert.equal(formatDebugValue(utf8('count')), '"count"');
    assert.equal(formatDebugValue(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 5])), '0x0000000000000005');
  });

  it('rejects responses without a trace with a clear error', () => {
    assert.throws(
      () => DebugRun.fromSimulateResponse({}),
      (e: unknown) => e instanceof DebugTraceError && /no "txn-groups"/.test(e.message),
    );
    assert.throws(() => DebugRun.fromSimulateResponse({ 'txn-groups': [{ 'txn-results': [{ 'txn-result': {} }] }] }), /exec-trace-config/);
  });
});
