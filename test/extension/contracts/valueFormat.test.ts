import assert from 'node:assert/strict';
import { buildSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { decodeBoxes, decodeGlobalState } from '../../../sdk/src/app/state-decode.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { decodeAddress } from '../../../sdk/src/encoding/address.js';
import {
  clipText,
  clipValue,
  exportAppState,
  formatValue,
  itemLabel,
  itemRow,
  minBalanceView,
  panelFailureMessage,
  reportView,
  toPlain,
  VALUE_TEXT_MAX,
} from '../../../extension/src/contracts/valueFormat.js';
import { appAddressOf } from '../../../sdk/src/app/chain.js';
import { staleProgramWarning } from '../../../extension/src/contracts/groupForm.js';

const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const b64 = (s: string | Uint8Array) => toBase64(typeof s === 'string' ? utf8(s) : s);

describe('extension contracts: value formatting and the report view', () => {
  it('shows bytes in each view and says when a view does not apply', () => {
    const eight = new Uint8Array([0, 0, 0, 0, 0, 0, 1, 0]);
    assert.equal(formatValue(eight, 'uint'), '256');
    assert.equal(formatValue(eight, 'bytes'), '0x0000000000000100');
    assert.match(formatValue(eight, 'utf8'), /^\(not text\)/);
    assert.match(formatValue(eight, 'address'), /not an address/);
    assert.equal(formatValue(decodeAddress(A), 'address'), A);
    assert.equal(formatValue(utf8('hi'), 'utf8'), '"hi"');
    assert.equal(formatValue(5n, 'auto'), '5');
    assert.equal(formatValue(5n, 'bytes'), '0x0000000000000005');
    assert.match(formatValue(new Uint8Array(9), 'uint'), /9 bytes, not a uint/);
  });

  it('labels state items and exports them as JSON with exact integers', () => {
    const global = decodeGlobalState([
      { key: utf8('count'), value: 18446744073709551615n },
      { key: utf8('owner'), value: decodeAddress(A) },
    ]);
    assert.deepEqual(itemLabel(global[0]!, 'auto'), { key: '"count"', value: '18446744073709551615', type: 'uint64' });
    assert.deepEqual(itemLabel(global[1]!, 'auto'), { key: '"owner"', value: A, type: 'bytes' });
    const boxes = decodeBoxes([{ name: utf8('last'), value: decodeAddress(A) }]);
    const json = JSON.parse(exportAppState(1001n, { global, local: [], boxes }));
    assert.equal(json.appId, '1001');
    assert.equal(json.global[0].value.uint, '18446744073709551615');
    assert.equal(json.global[0].key.utf8, 'count');
    assert.equal(json.boxes[0].value.address, A);
  });

  it('turns a failing simulate response into the panel view: path, message, pc, logs, changes', () => {
    const response = {
      'last-round': 5,
      'txn-groups': [
        {
          'failed-at': [0, 1],
          'failure-message': 'transaction X: logic eval error: assert failed pc=12. Details: app=1002, pc=12',
          'app-budget-added': 1400,
          'app-budget-consumed': 40,
          'txn-results': [
            {
              'app-budget-consumed': 40,
              'txn-result': {
                txn: { txn: { type: 'appl', apid: 1001, snd: b64(decodeAddress(A)) } },
                logs: [b64('hello'), b64(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 7]))],
                'global-state-delta': [{ key: b64('count'), value: { action: 2, uint: 3 } }],
                'inner-txns': [{ txn: { txn: { type: 'pay' } } }, { txn: { txn: { type: 'appl', apid: 1002 } } }],
              },
            },
          ],
        },
      ],
    };
    const view = reportView(buildSimulateReport(response));
    assert.equal(view.wouldSucceed, false);
    assert.deepEqual(view.failedAt, [0, 1]);
    assert.equal(view.failedAtLabel, 'txn 0 › inner 1');
    assert.equal(view.pc, 12);
    assert.match(view.message!, /assert failed/);
    assert.equal(view.budget.consumed, 40);
    const t = view.txns[0]!;
    assert.equal(t.type, 'app call');
    assert.equal(t.appId, '1001');
    assert.equal(t.failed, true);
    assert.deepEqual(
      t.logs.map((l) => l.text),
      ['"hello"', '0x0000000000000007'],
    );
    assert.deepEqual(t.changes, [{ scope: 'global', action: 'set', text: '"count" = 3' }]);
    assert.equal(t.inner[1]!.failed, true);
    assert.equal(t.inner[0]!.failed, false);
    // What is posted to the webview must survive structured cloning and JSON.
    assert.doesNotThrow(() => JSON.stringify(toPlain(view)));
  });

  it('explains a minimum-balance rejection of an app account instead of blaming a program line', () => {
    const app = appAddressOf(1001n);
    const response = {
      'last-round': 5,
      'txn-groups': [
        {
          'failed-at': [0],
          'failure-message': `transaction X: account ${app} balance 100000 below min 128500 (0 assets)`,
          'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl', apid: 1001, snd: b64(decodeAddress(A)) } } } }],
        },
      ],
    };
    const view = reportView(buildSimulateReport(response));
    assert.deepEqual(view.minBalance, {
      address: app,
      appId: '1001',
      shortBy: '28500',
      text: 'The account of app 1001 would drop below its minimum balance: it is short by 0.0285 ALGO. Not a program failure: fund the app account (boxes, assets and opt-ins raise what it must hold), then simulate again.',
    });
    // Any other failure has no such explanation.
    assert.equal(
      minBalanceView(
        buildSimulateReport({
          'txn-groups': [
            {
              'failed-at': [0],
              'failure-message': 'logic eval error: assert failed pc=3',
              'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl', apid: 1001 } } } }],
            },
          ],
        }),
      ),
      undefined,
    );
  });

  it('warns when an app runs another program than its edited source', () => {
    assert.equal(
      staleProgramWarning(12n, 'counter/approval.teal'),
      'App 12 runs the program deployed earlier, not counter/approval.teal as it is now (their program hashes differ): failures are shown by pc, not mapped onto the edited lines. Deploy again to run your edits.',
    );
  });

  it('shows each log once: no repeated kind, no raw hex that repeats the text, long values cut', () => {
    const ret = new Uint8Array([0x15, 0x1f, 0x7c, 0x75, 0, 0, 0, 0, 0, 0, 0, 9]);
    const long = new Uint8Array(500).fill(0x61);
    const response = { 'txn-groups': [{ 'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl', apid: 1001 } }, logs: [b64(ret), b64(long)] } }] }] };
    const logs = reportView(buildSimulateReport(response)).txns[0]!.logs;
    // Bytes shown as hex: the raw hex would say the same again.
    assert.deepEqual({ text: logs[0]!.text, raw: logs[0]!.raw }, { text: '0x151f7c750000000000000009', raw: undefined });
    assert.equal(logs[1]!.text, `"${'a'.repeat(159)}… (+342 characters)`);
    assert.equal(logs[1]!.raw, `0x${'61'.repeat(64)}… (+872 characters)`);
    assert.equal(clipText('short'), 'short');
  });

  it('cuts huge values in the panel and the State Inspector, keeping the whole value to expand', () => {
    assert.deepEqual(clipValue('short'), { text: 'short' });
    const long = 'x'.repeat(VALUE_TEXT_MAX + 50);
    assert.deepEqual(clipValue(long), { text: `${'x'.repeat(VALUE_TEXT_MAX)}… (+50 characters)`, full: long });
    // A 2 KB box value: one short row, the whole value behind "Show Whole Value" and the copy.
    const big = new Uint8Array(2048).fill(0xab);
    const boxes = decodeBoxes([{ name: utf8('blob'), value: big }]);
    const row = itemRow(boxes[0]!, 'bytes');
    assert.equal(row.clipped, true);
    assert.equal(row.value, `0x${'ab'.repeat(2048)}`);
    assert.equal(row.label, `"blob" = 0x${'ab'.repeat(59)}… (+3,978 characters)`);
    assert.ok(row.tooltip.length < 2200 && row.tooltip.includes('(+2,098 characters)'), row.tooltip.slice(-60));
    assert.equal(itemRow(decodeBoxes([{ name: utf8('n'), value: utf8('hi') }])[0]!, 'utf8').clipped, false);
    // The report: a long log is cut, with the whole text beside them.
    const response = {
      'txn-groups': [{ 'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl', apid: 1001 } }, logs: [b64(new Uint8Array(500).fill(0x61))] } }] }],
    };
    const t = reportView(buildSimulateReport(response)).txns[0]!;
    assert.equal(t.logs[0]!.full, `"${'a'.repeat(500)}"`);
    assert.equal(t.logs[0]!.text.length < 200, true);
  });

  it("shows the node's failure text without the txid it leads with or the pc it repeats", () => {
    const txid = 'LHQTY72SP7PFBCDIKQMTAB3O4NKEACX2WQFHV5MFVXZZEI4PUQ5Q';
    assert.equal(
      panelFailureMessage(`transaction ${txid}: logic eval error: assert failed pc=87. Details: app=1001, pc=87, opcodes=app_global_get; !; assert`),
      'logic eval error: assert failed pc=87. Details: app=1001, opcodes=app_global_get; !; assert',
    );
    // A different pc in Details, or no txid, is left as the node wrote it.
    assert.equal(
      panelFailureMessage('logic eval error: err opcode executed pc=3. Details: app=5, pc=4, opcodes=err'),
      'logic eval error: err opcode executed pc=3. Details: app=5, pc=4, opcodes=err',
    );
    assert.equal(panelFailureMessage('overspend (account X, data {...}, tried to spend {5})'), 'overspend (account X, data {...}, tried to spend {5})');
  });
});
