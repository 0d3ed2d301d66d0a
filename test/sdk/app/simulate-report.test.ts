import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { encodeMethodReturnLog } from '../../../sdk/src/abi/method-call.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { SimulateFailedError } from '../../../sdk/src/app/errors.js';
import {
  assertSimulationSucceeded,
  buildSimulateReport,
  failureSummary,
  parseFailureMessage,
  renderSimulateReport,
} from '../../../sdk/src/app/simulate-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const spec = parseArc56(readFileSync(join(here, 'fixtures/sample.arc56.json'), 'utf8'));
const add = spec.getMethod('add');
const sender = Address.forApp(99n);
const b64 = (b: Uint8Array) => toBase64(b);

const TEAL = ['#pragma version 10', '#define CHECK int 10; <; assert', 'txna ApplicationArgs 1', 'btoi', 'CHECK', 'int 1', 'return'].join('\n');
const assembled = assemble(TEAL);

function appCall(appId: number, args: Uint8Array[]) {
  return { txn: { type: 'appl', snd: b64(sender.publicKey), apid: appId, apaa: args.map(b64) } };
}

const successResponse = {
  version: 2,
  'last-round': 42,
  'txn-groups': [
    {
      'app-budget-added': 1400,
      'app-budget-consumed': 57,
      'txn-results': [
        {
          'app-budget-consumed': 40,
          'fees-paid': 2000,
          'txn-result': {
            txn: appCall(1002, [add.method.selector, new Uint8Array([0, 0, 0, 0, 0, 0, 0, 2]), new Uint8Array([0, 0, 0, 0, 0, 0, 0, 3])]),
            'pool-error': '',
            logs: [b64(utf8('hello')), b64(spec.events[0]!.encodeLog([5n])), b64(encodeMethodReturnLog(add.method, 5n))],
            'global-state-delta': [
              { key: b64(utf8('count')), value: { action: 2, uint: 5 } },
              { key: b64(utf8('gone')), value: { action: 3 } },
            ],
            'local-state-delta': [{ address: sender.toString(), delta: [{ key: b64(utf8('bal')), value: { action: 2, uint: 3 } }] }],
            'inner-txns': [{ txn: { txn: { type: 'pay', snd: b64(Address.forApp(1002n).publicKey) } }, 'pool-error': '' }],
          },
          'unnamed-resources-accessed': { boxes: [{ app: 1002, name: b64(utf8('cfg')) }], accounts: [Address.forApp(5n).toString()] },
        },
        { 'txn-result': { txn: { txn: { type: 'appl', snd: b64(sender.publicKey), apan: 0 } }, 'application-index': 1010, 'pool-error': '' } },
      ],
    },
  ],
};

describe('app/simulate-report', () => {
  it('reads failure messages: innermost app and pc first', () => {
    const nested =
      'transaction ABC: logic eval error: logic eval error: assert failed pc=45. Details: app=1003, pc=45, opcodes=int 10; <; assert. Details: app=1002, pc=200, opcodes=itxn_submit';
    assert.deepEqual(parseFailureMessage(nested), { pc: 45, appId: 1003n });
    assert.deepEqual(parseFailureMessage('logic eval error: err opcode executed pc=7'), { pc: 7 });
    assert.equal(parseFailureMessage('transaction X: rejected by logic err=assert failed pc=3').program, 'logicsig');
    assert.deepEqual(parseFailureMessage('overspend'), {});
  });

  it('reports a successful group: returns, events, logs, state changes, budgets, unnamed resources', () => {
    const report = buildSimulateReport(successResponse, { apps: new Map([[1002n, { spec }]]) });
    assert.equal(report.wouldSucceed, true);
    assert.equal(report.failure, undefined);
    assert.deepEqual(report.budget, { added: 1400, consumed: 57 });
    assert.equal(report.lastRound, 42n);
    const t = report.txns[0]!;
    assert.equal(t.appId, 1002n);
    assert.equal(t.method, 'add(uint64,uint64)uint64');
    assert.equal(t.returnValue, 5n);
    assert.deepEqual(t.args, [2n, 3n]);
    assert.equal(t.feesPaid, 2000n);
    assert.deepEqual(
      t.logs.map((l) => l.kind),
      ['raw', 'event', 'return'],
    );
    assert.equal(t.logs[0]!.view.utf8, 'hello');
    assert.deepEqual(t.logs[1]!.event!.named, { total: 5n });
    assert.equal(t.globalChanges[0]!.item.match!.name, 'count');
    assert.equal(t.globalChanges[0]!.item.decoded, 5n);
    assert.equal(t.globalChanges[1]!.action, 'delete');
    assert.equal(t.localChanges[0]!.changes[0]!.item.decoded, 3n);
    assert.equal(t.appBudgetConsumed, 40);
    assert.equal(t.unnamedResources!.boxes[0]!.app, 1002n);
    assert.equal(t.unnamedResources!.accounts[0], Address.forApp(5n).toString());
    assert.equal(t.inner[0]!.type, 'pay');
    assert.deepEqual(t.inner[0]!.path, [0, 0]);
    assert.equal(report.txns[1]!.createdAppId, 1010n);
    const text = renderSimulateReport(report);
    assert.match(text, /^Simulation: would succeed/);
    assert.match(text, /add\(2, 3\) {2}fee 2000/);
    assert.match(text, /returns 5/);
    assert.match(text, /event Added\(total=5\)/);
    assert.match(text, /log "hello"/);
    assert.match(text, /global count \(AVMUint64\) = 5/);
    assert.match(text, /unnamed resources: .*boxes 1002:"cfg"/);
    assert.equal(assertSimulationSucceeded(report), report);
  });

  it('also takes an adapter SimulateResult (uses its raw body) and msgpack-style bytes', () => {
    const msgpackish = structuredClone(successResponse) as typeof successResponse & Record<string, unknown>;
    (msgpackish['txn-groups'][0]!['txn-results'][0]!['txn-result'] as { logs: unknown[] }).logs = [utf8('hello')];
    const report = buildSimulateReport({ wouldSucceed: true, failedAt: [], txns: [], raw: msgpackish });
    assert.equal(report.txns[0]!.logs[0]!.view.utf8, 'hello');
    // Without the spec the method is unknown: logs stay raw and no return is decoded.
    assert.equal(report.txns[0]!.method, undefined);
  });

  it('maps a failing pc to the macro use site, the definition, and the ARC-56 error message', () => {
    const failingPc = assembled.sourceMap.find(
      (m) => m.definition && m.use.line === 4 && m.definition.column > 0 && TEAL.split('\n')[1]!.slice(m.definition.column).startsWith('assert'),
    )!.pc;
    const response = {
      version: 2,
      'txn-groups': [
        {
          'failed-at': [0],
          'failure-message': `transaction T: logic eval error: assert failed pc=${failingPc}. Details: app=1002, pc=${failingPc}, opcodes=int 10; <; assert`,
          'txn-results': [{ 'txn-result': { txn: appCall(1002, [add.method.selector]), 'pool-error': '' } }],
        },
      ],
    };
    const specWithInfo = parseArc56({
      ...spec.json,
      sourceInfo: {
        approval: { pcOffsetMethod: 'none', sourceInfo: [{ pc: [failingPc], errorMessage: 'amount too big', teal: 5 }] },
        clear: { pcOffsetMethod: 'none', sourceInfo: [] },
      },
    });
    const report = buildSimulateReport(response, {
      apps: new Map([[1002n, { spec: specWithInfo, approval: { pcMap: assembled.sourceMap, sourceName: 'counter.teal', sourceLines: TEAL.split('\n') } }]]),
    });
    assert.equal(report.wouldSucceed, false);
    assert.deepEqual(report.failedAt, [0]);
    const f = report.failure!;
    assert.equal(f.pc, failingPc);
    assert.equal(f.pcFrom, 'message');
    assert.equal(f.appId, 1002n);
    assert.equal(f.program, 'approval');
    assert.equal(f.errorMessage, 'amount too big');
    assert.deepEqual(f.source, { file: 'counter.teal', line: 5, column: 1, definition: { line: 2, column: 26 }, text: 'CHECK' });
    assert.equal(report.txns[0]!.failed, true);
    // A failed call has no return value to decode.
    assert.equal(report.txns[0]!.returnError, undefined);
    const text = renderSimulateReport(report);
    assert.match(text, /would FAIL at txn 0/);
    assert.match(text, /error: amount too big/);
    assert.match(text, /at counter\.teal:5:1 {2}CHECK/);
    assert.match(text, /expanded from macro defined at line 2:26/);
    assert.equal(failureSummary(report), 'simulation failed at txn 0 (app 1002): amount too big [counter.teal:5:1]');
    assert.throws(
      () => assertSimulationSucceeded(report),
      (e: unknown) => e instanceof SimulateFailedError && e.report === report && /amount too big/.test(e.message),
    );
  });

  it('collects box changes from the exec trace, per transaction including inner ones', () => {
    const cfg = (n: bigint) => b64(new Uint8Array([...new Uint8Array(7), Number(n), 0x80]));
    const response = {
      'txn-groups': [
        {
          'txn-results': [
            {
              'txn-result': { txn: appCall(1002, []), 'inner-txns': [{ txn: { txn: { type: 'appl', apid: 1003 } } }] },
              'exec-trace': {
                'approval-program-trace': [
                  { pc: 1, 'state-changes': [{ operation: 'w', 'app-state-type': 'b', key: b64(utf8('cfg')), 'new-value': { type: 1, bytes: cfg(1n) } }] },
                  { pc: 5, 'state-changes': [{ operation: 'w', 'app-state-type': 'b', key: b64(utf8('cfg')), 'new-value': { type: 1, bytes: cfg(2n) } }] },
                  { pc: 6, 'state-changes': [{ operation: 'w', 'app-state-type': 'g', key: b64(utf8('count')), 'new-value': { type: 2, uint: 1 } }] },
                ],
                'inner-trace': [{ 'approval-program-trace': [{ pc: 2, 'state-changes': [{ operation: 'd', 'app-state-type': 'b', key: b64(utf8('old')) }] }] }],
              },
            },
          ],
        },
      ],
    };
    const report = buildSimulateReport(response, { apps: new Map([[1002n, { spec }]]) });
    const t = report.txns[0]!;
    assert.equal(t.boxChanges.length, 1);
    assert.deepEqual(t.boxChanges[0]!.item.decoded, [2n, true]);
    assert.equal(t.inner[0]!.boxChanges[0]!.action, 'delete');
    assert.equal(t.inner[0]!.boxChanges[0]!.item.keyView.utf8, 'old');
    const text = renderSimulateReport(report);
    assert.match(text, /box cfg \(\(uint64,bool\)\) = \[2, true\]/);
    assert.match(text, /box delete "old"/);
  });

  it('finds the pc of an inner failure from the exec trace when the message has none', () => {
    const response = {
      'txn-groups': [
        {
          'failed-at': [0, 1],
          'failure-message': 'transaction T: inner tx 1 failed: some failure without a pc',
          'txn-results': [
            {
              'txn-result': {
                txn: appCall(1002, []),
                'inner-txns': [{ txn: { txn: { type: 'pay' } } }, { txn: { txn: { type: 'appl', apid: 1003 } } }],
              },
              'exec-trace': {
                'approval-program-trace': [{ pc: 1 }, { pc: 9 }],
                'inner-trace': [{}, { 'approval-program-trace': [{ pc: 1 }, { pc: 3 }, { pc: 7 }] }],
              },
            },
          ],
        },
      ],
    };
    const report = buildSimulateReport(response, { apps: new Map([[1003n, { spec }]]) });
    const f = report.failure!;
    assert.equal(f.pc, 7);
    assert.equal(f.pcFrom, 'trace');
    assert.equal(f.appId, 1003n);
    // sample.arc56.json maps pc 7 to "amount too big" (teal line 12).
    assert.equal(f.errorMessage, 'amount too big');
    assert.deepEqual(f.source, { line: 12, column: 1 });
    assert.equal(report.txns[0]!.inner[1]!.failed, true);
    assert.equal(report.txns[0]!.inner[0]!.failed, false);
    assert.match(renderSimulateReport(report), /would FAIL at txn 0 → inner 1/);
  });

  it('locates a failing create through the transaction context', () => {
    const response = {
      'txn-groups': [
        { 'failed-at': [0], 'failure-message': 'logic eval error: assert failed pc=7', 'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl' } } } }] },
      ],
    };
    const report = buildSimulateReport(response, { txns: [{ app: { spec } }] });
    assert.equal(report.failure!.errorMessage, 'amount too big');
  });

  it('handles failures without app context, and empty responses', () => {
    const r = buildSimulateReport({
      'txn-groups': [
        {
          'failed-at': [1],
          'failure-message': 'overspend (account X, data {...})',
          'txn-results': [{ 'txn-result': {} }, { 'txn-result': { txn: { txn: { type: 'pay' } } } }],
        },
      ],
    });
    assert.equal(r.wouldSucceed, false);
    assert.equal(r.failure!.pc, undefined);
    assert.equal(r.failure!.program, 'unknown');
    assert.equal(failureSummary(r), 'simulation failed at txn 1: overspend (account X, data {...})');
    const empty = buildSimulateReport({});
    assert.equal(empty.wouldSucceed, true);
    assert.deepEqual(empty.txns, []);
  });
});
