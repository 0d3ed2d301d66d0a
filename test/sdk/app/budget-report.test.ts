import assert from 'node:assert/strict';
import {
  BudgetRecorder,
  FuzzChain,
  budgetSnapshotText,
  buildSimulateReport,
  checkBudget,
  compileContract,
  formatBudgetReport,
  parseBudgetSnapshot,
  BudgetReportError,
  type BudgetAppInfo,
} from '../../../sdk/src/app/index.js';
import { parseArc56, type Arc56AppSpec } from '../../../sdk/src/abi/index.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';

// `work(uint64)uint64` loops n times; `opup()void` raises its budget with an inner create-and-delete
// call and pays the sender 1000 with an inner payment; `keep(string)void` stores a box.
function teal(extraOpcode: boolean): string {
  const opup = toBase64(assemble('#pragma version 10\nint 1\n').program);
  return `#pragma version 10
txn ApplicationID
bz ok
txna ApplicationArgs 0
method "work(uint64)uint64"
==
bnz work
txna ApplicationArgs 0
method "opup()void"
==
bnz opup
txna ApplicationArgs 0
method "keep(string)void"
==
bnz keep
err
work:
txna ApplicationArgs 1
btoi
store 0
int 0
store 1
loop:
load 1
load 0
>=
bnz done
load 1
int 1
+
store 1
b loop
done:
${extraOpcode ? 'b after\nafter:' : ''}
load 1
itob
byte 0x151f7c75
swap
concat
log
b ok
opup:
itxn_begin
int appl
itxn_field TypeEnum
int DeleteApplication
itxn_field OnCompletion
byte b64 ${opup}
itxn_field ApprovalProgram
byte b64 ${opup}
itxn_field ClearStateProgram
int 0
itxn_field Fee
itxn_next
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
int 1000
itxn_field Amount
int 0
itxn_field Fee
itxn_submit
b ok
keep:
txna ApplicationArgs 1
extract 2 0
dup
len
box_create
pop
ok:
int 1
`;
}

function spec(extraOpcode: boolean): Arc56AppSpec {
  const m = (name: string, args: { type: string; name: string }[], returns = 'void') => ({
    name,
    args,
    returns: { type: returns },
    actions: { create: [], call: ['NoOp'] },
  });
  return parseArc56({
    arcs: [4, 56],
    name: 'Costly',
    structs: {},
    methods: [m('work', [{ type: 'uint64', name: 'n' }], 'uint64'), m('opup', []), m('keep', [{ type: 'string', name: 'name' }])],
    state: {
      schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
      keys: { global: {}, local: {}, box: {} },
      maps: { global: {}, local: {}, box: {} },
    },
    bareActions: { create: ['NoOp'], call: [] },
    source: { approval: toBase64(utf8(teal(extraOpcode))), clear: toBase64(utf8('#pragma version 10\nint 1\n')) },
  });
}

/** The same session of calls against one version of the contract. */
function session(extraOpcode: boolean) {
  const s = spec(extraOpcode);
  const compiled = compileContract({ spec: s });
  const chain = new FuzzChain(s, compiled, { senders: 2 });
  const apps = new Map<bigint, BudgetAppInfo>([
    [chain.appId, { name: 'Costly', programSize: compiled.approval.bytes.length + compiled.clear.bytes.length, extraPages: compiled.extraPages }],
  ]);
  const recorder = new BudgetRecorder();
  const responses: Record<string, unknown>[] = [];
  const call = (method: string, args: unknown[], sender = 0) => {
    const outcome = chain.call(s.getMethod(method), args as never, sender);
    assert.equal(outcome.kind, 'ok', outcome.message);
    responses.push(outcome.response);
    const report = buildSimulateReport(outcome.response, { apps: new Map([[chain.appId, { spec: s }]]) });
    for (const o of recorder.addReport(report, apps)) o.minBalanceChange = outcome.minBalanceChange;
  };
  call('work', [3n]);
  call('work', [10n], 1);
  call('work', [0n]);
  call('opup', []);
  call('keep', ['alice']);
  call('keep', ['bob-the-builder'], 1);
  return { recorder, responses, report: recorder.report(), programSize: compiled.approval.bytes.length + compiled.clear.bytes.length };
}

const txnResult = (r: Record<string, unknown>) => ((r['txn-groups'] as Record<string, unknown>[])[0]!['txn-results'] as Record<string, unknown>[])[0]!;

describe('app/budget-report: budget and fee report per method', () => {
  it("the report's figures equal simulate's: budget consumed, fees paid (inner included), op-ups, min-balance change, program size", () => {
    const { report, responses, programSize } = session(false);
    assert.deepEqual(
      report.entries.map((e) => `${e.app} ${e.method} ×${e.calls}`),
      ['Costly keep(string)void ×2', 'Costly opup()void ×1', 'Costly work(uint64)uint64 ×3'],
    );
    const work = report.entries.find((e) => e.method.startsWith('work'))!;
    const budgets = responses.slice(0, 3).map((r) => Number(txnResult(r)['app-budget-consumed']));
    assert.deepEqual([work.budget.min, work.budget.max], [Math.min(...budgets), Math.max(...budgets)]);
    assert.equal(work.budget.mean, Math.round((budgets.reduce((a, b) => a + b, 0) / 3) * 100) / 100);
    assert.ok(work.budget.max > work.budget.min, 'a longer loop costs more');
    const opup = report.entries.find((e) => e.method.startsWith('opup'))!;
    const opupResult = txnResult(responses[3]!);
    assert.equal(opup.budget.max, Number(opupResult['app-budget-consumed']));
    assert.equal(opup.fees.max, Number(opupResult['fees-paid']));
    assert.equal(opup.fees.max, 4000, 'the outer fee covers both inner transactions');
    assert.equal(opup.innerFees.max, 0, 'the inner transactions paid nothing themselves');
    assert.equal(opup.opUps.max, 1, 'one inner create-and-delete');
    assert.equal(work.opUps.max, 0);
    const keep = report.entries.find((e) => e.method.startsWith('keep'))!;
    // A box costs 2500 + 400 × (name + value bytes): "alice" (5 + 5) and "bob-the-builder" (15 + 15).
    assert.deepEqual([keep.minBalanceChange!.min, keep.minBalanceChange!.max], [2500 + 400 * 10, 2500 + 400 * 30]);
    assert.equal(work.minBalanceChange!.max, 0);
    assert.equal(work.programSize, programSize);
    assert.equal(work.extraPages, 0);
    const table = formatBudgetReport(report);
    assert.match(table, /^app\s+method\s+calls\s+budget min\/mean\/max/);
    assert.match(table, /Costly\s+opup\(\)void\s+1\s+\d+\/\d+\/\d+\s+1\s+4000\/4000\/4000/);
  });

  it('--budget-check: passes when nothing changed, fails with a readable diff on a one-opcode change', () => {
    const before = session(false).report;
    const snapshot = parseBudgetSnapshot(budgetSnapshotText(before));
    assert.deepEqual(snapshot, before, 'the snapshot file reads back to the same report');
    const unchanged = checkBudget(session(false).report, snapshot);
    assert.equal(unchanged.ok, true);
    assert.equal(unchanged.text, '');
    const changed = checkBudget(session(true).report, snapshot);
    assert.equal(changed.ok, false);
    // One `b` more: every work call costs one more opcode, and every program is three bytes longer.
    const budgetMax = changed.grew.find((g) => g.method.startsWith('work') && g.figure === 'budget max')!;
    assert.equal(budgetMax.after - budgetMax.before, 1);
    assert.ok(changed.grew.some((g) => g.figure === 'program size' && g.after - g.before === 3));
    assert.ok(!changed.grew.some((g) => g.method.startsWith('opup') && g.figure.startsWith('budget')), 'opup does not run the changed path');
    assert.match(changed.text, /^\+ Costly work\(uint64\)uint64: budget max \d+ → \d+ \(\+\d+\.\d%\)$/m);
    // Figures that shrink pass.
    assert.equal(checkBudget(before, parseBudgetSnapshot(budgetSnapshotText(session(true).report))).ok, true);
  });

  it('a snapshot file that cannot be read says what to do', () => {
    assert.throws(
      () => parseBudgetSnapshot('{nope'),
      (e: unknown) => e instanceof BudgetReportError && /--budget-snapshot/.test((e as Error).message),
    );
    assert.throws(() => parseBudgetSnapshot('{"version": 7, "entries": []}'), /unsupported budget snapshot version 7/);
  });
});
