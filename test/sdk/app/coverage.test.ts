import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CoverageCollector, coverageTotals, parseLcovLines, toCoverageHtml, toLcov, fuzz, type CoverageReport } from '../../../sdk/src/app/index.js';
import { parseArc56 } from '../../../sdk/src/abi/index.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { parseJson, stringifyJson } from '../../../sdk/src/encoding/json.js';
import { sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { simulate, type SimulateRequest } from '../../../sdk/src/ledger/index.js';
import { simulateResponseToWire } from '../../../sdk/src/services/index.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import {
  makeAppCallTxn,
  makeAppCreateTxn,
  makePaymentTxn,
  makeLogicSig,
  signLogicSigTransaction,
  OnComplete,
  type SignedTransaction,
} from '../../../sdk/src/txn/index.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { devnet, ALGO } from '../ledger/fixture.js';
import { sharedData } from '../../cli/helpers.js';

const lcovParse = createRequire(import.meta.url)('lcov-parse') as (input: string, cb: (err: unknown, data: LcovRecord[]) => void) => void;
interface LcovRecord {
  file: string;
  lines: { found: number; hit: number; details: { line: number; hit: number }[] };
  branches: { found: number; hit: number; details: { line: number; block: number; branch: number; taken: number | '-' }[] };
}
const parseWithLcovParse = (text: string): Promise<LcovRecord[]> =>
  new Promise((ok, fail) => lcovParse(text, (err, data) => (err ? fail(new Error(String(err))) : ok(data))));

// The caller: a macro on line 3, a branch whose both arms run (bnz on the argument), and one
// whose jump never runs in these tests (bz on the app id: only calls, no create).
const CALLER = `#pragma version 10
#define ARG0 txna ApplicationArgs 0 ; btoi
txn ApplicationID
bz done
ARG0
bnz call_inner
int 1
return
call_inner:
itxn_begin
int appl
itxn_field TypeEnum
txna Applications 1
itxn_field ApplicationID
int 0
itxn_field Fee
itxn_submit
int 1
return
done:
int 1
`;
const CALLEE = '#pragma version 10\nint 7\nint 7\n==\n';
const LSIG = '#pragma version 10\nint 2\nint 1\n>\n';
const CLEAR = '#pragma version 10\nint 1\n';

/** pcs of every program run in a simulate response, by program hash — walked independently of the collector. */
function tracePcs(response: unknown): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const add = (hash: unknown, steps: unknown) => {
    if (!Array.isArray(steps)) return;
    const h = hash instanceof Uint8Array ? toHex(hash) : toHex(fromBase64(String(hash)));
    const set = out.get(h) ?? new Set<number>();
    out.set(h, set);
    for (const s of steps as { pc: number }[]) set.add(Number(s.pc));
  };
  const walk = (t: Record<string, unknown>) => {
    add(t['approval-program-hash'], t['approval-program-trace']);
    add(t['clear-state-program-hash'], t['clear-state-program-trace']);
    add(t['logic-sig-hash'], t['logic-sig-trace']);
    for (const i of (t['inner-trace'] as Record<string, unknown>[] | undefined) ?? []) walk(i);
  };
  for (const r of (response as { 'txn-groups': { 'txn-results': { 'exec-trace'?: Record<string, unknown> }[] }[] })['txn-groups'][0]!['txn-results'])
    if (r['exec-trace']) walk(r['exec-trace']);
  return out;
}

function setup() {
  const d = devnet(2);
  const caller = assemble(CALLER);
  const callee = assemble(CALLEE);
  const lsig = assemble(LSIG);
  const clear = assemble(CLEAR);
  const create = (program: Uint8Array) => {
    const r = d.send([makeAppCreateTxn({ sender: d.addr(0), suggestedParams: d.sp(), approvalProgram: program, clearProgram: clear.program })]);
    return d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
  };
  const calleeId = create(callee.program);
  const callerId = create(caller.program);
  const lsigAddr = new Address(sha512_256(new Uint8Array([...new TextEncoder().encode('Program'), ...lsig.program])));
  d.send([makePaymentTxn({ sender: d.addr(0), receiver: lsigAddr, amount: ALGO, suggestedParams: d.sp() })]);
  d.send([makePaymentTxn({ sender: d.addr(0), receiver: Address.forApp(callerId), amount: ALGO, suggestedParams: d.sp() })]);
  const run = (stxn: SignedTransaction) => {
    const req = { 'txn-groups': [{ txns: [stxn] }], 'allow-empty-signatures': true, 'exec-trace-config': { enable: true } } as unknown as SimulateRequest;
    return { req, res: simulate(d.ledger, req) };
  };
  const call = (arg: bigint) =>
    run({
      txn: makeAppCallTxn({
        sender: d.addr(1),
        appId: callerId,
        onComplete: OnComplete.NoOp,
        args: [new Uint8Array([0, 0, 0, 0, 0, 0, 0, Number(arg)])],
        foreignApps: [calleeId],
        suggestedParams: d.sp({ fee: 2000n }),
      }),
    });
  const pay = () =>
    run(signLogicSigTransaction(makePaymentTxn({ sender: lsigAddr, receiver: d.addr(1), amount: 1000n, suggestedParams: d.sp() }), makeLogicSig(lsig.program)));
  return { caller, callee, lsig, clear, call, pay };
}

describe('app/coverage: coverage over exec traces', () => {
  it('covered pcs equal the pcs of the runs’ exec traces: top-level, inner and logic-signature programs, SDK and node JSON shapes', () => {
    const s = setup();
    const runs = [s.call(1n), s.call(0n), s.pay()];
    for (const r of runs) assert.equal((r.res['txn-groups'] as Record<string, unknown>[])[0]!['failure-message'] ?? '', '');
    const collector = new CoverageCollector();
    collector.addSimulateResponse(runs[0]!.res);
    // The node's JSON shape (hashes as base64 text) counts the same.
    collector.addSimulateResponse(parseJson(stringifyJson(simulateResponseToWire(runs[1]!.res, runs[1]!.req, 'json'))));
    collector.addSimulateResponse(runs[2]!.res);
    const expected = new Map<string, Set<number>>();
    for (const r of runs) for (const [h, pcs] of tracePcs(r.res)) expected.set(h, new Set([...(expected.get(h) ?? []), ...pcs]));
    assert.deepEqual(
      [...expected.keys()].sort(),
      [s.caller, s.callee, s.lsig].map((p) => toHex(sha512_256(p.program))).sort(),
      'caller, inner callee and logic sig all ran',
    );
    for (const [h, pcs] of expected)
      assert.deepEqual(
        [...collector.executedPcs(h)].sort((a, b) => a - b),
        [...pcs].sort((a, b) => a - b),
      );
    // Counts: the caller ran twice, the callee once (inner), the logic sig once.
    assert.equal(collector.programs.get(toHex(sha512_256(s.caller.program)))!.runs, 2);
    assert.equal(collector.programs.get(toHex(sha512_256(s.callee.program)))!.runs, 1);
  });

  it('maps pcs to TEAL lines through #define to the use site; branch coverage with both arms taken and one arm not; lcov that lcov-parse reads', async () => {
    const s = setup();
    const collector = new CoverageCollector();
    collector.addProgram({ bytes: s.caller.program, pcMap: s.caller.sourceMap, sourceName: 'caller.teal' });
    // Runs recorded before the program is registered count alike (branches included).
    collector.addSimulateResponse(s.call(1n).res);
    collector.addProgram({ bytes: s.callee.program, pcMap: s.callee.sourceMap, sourceName: 'callee.teal' });
    collector.addSimulateResponse(s.call(0n).res);
    const report = collector.report();
    assert.deepEqual(
      report.files.map((f) => f.file),
      ['callee.teal', 'caller.teal'],
    );
    const caller = report.files.find((f) => f.file === 'caller.teal')!;
    const line = (n: number) => caller.lines.find((l) => l.line === n);
    assert.equal(line(2), undefined, 'the #define line holds no instruction of its own');
    assert.equal(line(5)!.hits, 2, 'the macro use (line 5) ran in both calls');
    assert.deepEqual(
      line(4)!.branches.map((b) => b.taken),
      [[2, 0]],
      'bz done: fell through twice, never jumped',
    );
    assert.deepEqual(
      line(6)!.branches.map((b) => b.taken),
      [[1, 1]],
      'bnz call_inner: both arms once',
    );
    assert.equal(line(21)!.hits, 0, 'the create path never ran');
    assert.equal(line(10)!.hits, 1);
    const lcov = toLcov(report, 'unit');
    const parsed = await parseWithLcovParse(lcov);
    assert.deepEqual(
      parsed.map((r) => r.file),
      ['callee.teal', 'caller.teal'],
    );
    const rec = parsed.find((r) => r.file === 'caller.teal')!;
    const totals = coverageTotals({ files: [caller], unknownPrograms: [] });
    assert.equal(rec.lines.found, totals.lines);
    assert.equal(rec.lines.hit, totals.linesHit);
    assert.deepEqual(
      rec.lines.details.find((d) => d.line === 5),
      { line: 5, hit: 2 },
    );
    assert.equal(rec.branches.found, 4);
    assert.equal(rec.branches.hit, 3);
    assert.deepEqual(
      rec.branches.details.filter((d) => d.line === 4).map((d) => d.taken),
      [2, 0],
    );
    // The SDK's own reader (used by the editor) agrees with lcov-parse on every line.
    const mine = parseLcovLines(lcov).get('caller.teal')!;
    for (const d of rec.lines.details) assert.equal(mine.get(d.line), d.hit);
    const html = toCoverageHtml(report, (f) => (f === 'caller.teal' ? CALLER : undefined));
    assert.match(html, /<tr class="miss"[^>]*><td class="n">21<\/td>/);
    assert.match(html, /<tr class="part" title="branches: 2\/0"><td class="n">4<\/td>/);
    assert.match(html, /caller\.teal<\/a><\/td><td>\d+\/\d+/);
  });

  it('merges collectors (parallel test files) into the same counts', () => {
    const s = setup();
    const a = new CoverageCollector();
    const b = new CoverageCollector();
    a.addProgram({ bytes: s.caller.program, pcMap: s.caller.sourceMap, sourceName: 'caller.teal' });
    a.addSimulateResponse(s.call(1n).res);
    b.addSimulateResponse(s.call(0n).res);
    a.merge(b);
    const line6 = a
      .report()
      .files.find((f) => f.file === 'caller.teal')!
      .lines.find((l) => l.line === 6)!;
    assert.deepEqual(line6.branches[0]!.taken, [1, 1]);
  });

  it('a Puya contract: coverage per line of its Python source through the .puya.map', () => {
    const dir = join(sharedData, 'fixtures/puya-examples/struct_in_box');
    const specJson = JSON.parse(readFileSync(join(dir, 'out/ExampleContract.arc56.json'), 'utf8')) as Record<string, unknown>;
    const spec = parseArc56(specJson);
    const map = JSON.parse(readFileSync(join(dir, 'out/ExampleContract.approval.puya.map'), 'utf8'));
    const collector = new CoverageCollector();
    const r = fuzz(spec, ['add_user', 'get_user', 'attach_asset_to_user'], { runs: 30, calls: 3, seed: 5, coverage: collector });
    assert.ok(r.ok, r.message);
    // The programs fuzz deployed are the spec's own byte code: Puya's map fits them pc for pc.
    assert.ok(collector.programs.has(toHex(sha512_256(spec.byteCode('approval')!))));
    collector.addProgram({ bytes: spec.byteCode('approval')!, sourceName: 'ExampleContract.approval.teal', highLevel: { map, baseDir: 'struct_in_box/out' } });
    const report: CoverageReport = collector.report({ level: 'high-level' });
    assert.deepEqual(
      report.files.map((f) => f.file),
      ['struct_in_box/contract.py'],
    );
    const py = report.files[0]!;
    const source = readFileSync(join(dir, 'contract.py'), 'utf8').split('\n');
    const hitText = py.lines.filter((l) => l.hits > 0).map((l) => source[l.line - 1]!.trim());
    assert.ok(
      hitText.some((t) => t.startsWith('assert not self.box_exists(user.id)')),
      hitText.join('\n'),
    );
    assert.ok(
      hitText.some((t) => t.includes('op.Box.put(box_key, user.bytes)')),
      hitText.join('\n'),
    );
    const lcov = toLcov(report);
    assert.match(lcov, /^SF:struct_in_box\/contract\.py$/m);
  });
});
