import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulateReport, renderSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { DebugRun, evaluateWatch, programFromTeal, typedViews, formatDebugValue, WatchError, DebugTraceError } from '../../../sdk/src/app/debug/index.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (p: string) => readFileSync(resolve(root, 'test/server/dap/fixtures', p), 'utf8');
const response = () => parseJson(fixture('recorded/debug-me-fails.trace.avm.json'));

describe('app/debug: replaying recorded runs', () => {
  it('explains a failure in the simulate report: op, operands, stack and scratch at the failing pc', () => {
    const teal = fixture('debug-me.teal');
    const a = assemble(teal);
    const report = buildSimulateReport(response(), { apps: new Map([[1001n, { approval: { bytes: a.program, pcMap: a.sourceMap, sourceName: 'debug-me.teal', sourceLines: teal.split('\n') } }]]) });
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
    assert.deepEqual(run.location(late.frame, late.pc), { file: 'debug-me.teal', line: 13, column: 0, definition: { file: 'debug-me.teal', line: 4, column: 37 } });
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
    assert.throws(() => evaluateWatch('stack[5]', s), (e: unknown) => e instanceof WatchError && /out of range: the stack has 2 items/.test(e.message));
    assert.throws(() => evaluateWatch('scratch[300]', s), /0…255/);
    assert.throws(() => evaluateWatch('frobnicate', s), /try stack\[-1\]/);
  });

  it('gives typed views of values', () => {
    assert.deepEqual(typedViews(5n).map((v) => v.label), ['uint64', 'hex']);
    const abiString = new Uint8Array([0, 2, ...utf8('hi')]);
    assert.ok(typedViews(abiString).some((v) => v.label === 'abi string' && v.text === '"hi"'));
    const addr = new Uint8Array(32);
    assert.ok(typedViews(addr).some((v) => v.label === 'address' && v.text.length === 58));
    assert.equal(formatDebugValue(utf8('count')), '"count"');
    assert.equal(formatDebugValue(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 5])), '0x0000000000000005');
  });

  it('rejects responses without a trace with a clear error', () => {
    assert.throws(() => DebugRun.fromSimulateResponse({}), (e: unknown) => e instanceof DebugTraceError && /no "txn-groups"/.test(e.message));
    assert.throws(() => DebugRun.fromSimulateResponse({ 'txn-groups': [{ 'txn-results': [{ 'txn-result': {} }] }] }), /exec-trace-config/);
  });
});
