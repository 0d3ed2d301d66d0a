import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { reportView, toPlain } from '../../../extension/src/contracts/valueFormat.js';
import { failureExplanation, verdictView } from '../../../extension/src/contracts/explainView.js';
import { parseWebviewMessage } from '../../../extension/src/contracts/messages.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (p: string) => readFileSync(resolve(root, 'test/server/dap/fixtures', p), 'utf8');
const b64 = (s: string | Uint8Array) => toBase64(typeof s === 'string' ? utf8(s) : s);

/** A successful call whose trace writes one box and deletes another (as the devnet and algod report them). */
function boxResponse() {
  const unit = (pc: number, changes: unknown[]) => ({ pc, 'state-changes': changes });
  return {
    version: 2,
    'txn-groups': [
      {
        'txn-results': [
          {
            'txn-result': { txn: { txn: { type: 'appl', apid: 1001 } }, 'global-state-delta': [{ key: b64('count'), value: { action: 2, uint: 2 } }] },
            'exec-trace': {
              'approval-program-trace': [
                { pc: 1 },
                unit(9, [{ 'app-state-type': 'b', key: b64('last'), 'new-value': { type: 1, bytes: b64('first') }, operation: 'w' }]),
                unit(14, [{ 'app-state-type': 'b', key: b64('last'), 'new-value': { type: 1, bytes: b64('second') }, operation: 'w' }]),
                unit(20, [{ 'app-state-type': 'b', key: b64('old'), operation: 'd' }]),
              ],
            },
          },
        ],
      },
    ],
  };
}

describe('simulate panel: explanations', () => {
  it('lists box writes (last one wins) and deletions with the state changes', () => {
    const view = reportView(buildSimulateReport(boxResponse()));
    assert.deepEqual(view.txns[0]!.changes, [
      { scope: 'global', action: 'set', text: '"count" = 2' },
      { scope: 'box', action: 'set', text: '"last" = "second"' },
      { scope: 'box', action: 'delete', text: 'delete "old"' },
    ]);
    assert.deepEqual(view.verdict, { kind: 'ok', text: '✓ Would succeed' });
    assert.equal(view.explain, undefined);
  });

  it('shows the typed stack (top first), the failing op with its operands and scratch at the failing pc', () => {
    const teal = fixture('debug-me.teal');
    const a = assemble(teal);
    const report = buildSimulateReport(parseJson(fixture('recorded/debug-me-fails.trace.avm.json')), {
      apps: new Map([[1001n, { approval: { bytes: a.program, pcMap: a.sourceMap } }]]),
    });
    const view = reportView(report);
    assert.deepEqual(view.verdict, { kind: 'fail', text: '✗ Would fail at txn 0' });
    const x = view.explain!;
    assert.equal(x.op, 'assert');
    assert.deepEqual(
      x.operands.map((o) => [o.index, o.type, o.text]),
      [[-1, 'uint64', '0']],
    );
    assert.deepEqual(
      x.stack.map((o) => [o.index, o.type, o.text]),
      [
        [-1, 'uint64', '0'],
        [-2, 'uint64', '500'],
      ],
    );
    assert.equal(x.stackDepth, 2);
    assert.deepEqual(x.scratch, [{ slot: 3, text: '500' }]);
    assert.deepEqual(x.path, [{ label: 'txn 0', type: 'appl', appId: '1001', failed: true }]);
    assert.ok(x.stack[0]!.views.some((v) => v.label === 'hex' && v.text === '0x0000000000000000'));
    assert.doesNotThrow(() => JSON.stringify(toPlain(view)));
  });

  it('types bytes on the stack (text, ABI string, address) and caps the list at eight', () => {
    const additions = [
      ...Array.from({ length: 9 }, (_, i) => ({ type: 2, uint: i + 1 })),
      { type: 1, bytes: b64(new Uint8Array([0, 2, ...utf8('hi')])) },
      { type: 1, bytes: b64('count') },
    ];
    const response = {
      'txn-groups': [
        {
          'failed-at': [0],
          'failure-message': 'logic eval error: err opcode executed. Details: app=5, pc=30',
          'txn-results': [
            {
              'txn-result': { txn: { txn: { type: 'appl', apid: 5 } } },
              'exec-trace': { 'approval-program-trace': [{ pc: 1, 'stack-additions': additions }, { pc: 30 }] },
            },
          ],
        },
      ],
    };
    const x = failureExplanation(buildSimulateReport(response))!;
    assert.equal(x.stackDepth, 11);
    assert.equal(x.stack.length, 8);
    assert.deepEqual(
      x.stack.slice(0, 3).map((s) => [s.type, s.text]),
      [
        ['bytes', '"count"'],
        ['bytes', '0x00026869'],
        ['uint64', '9'],
      ],
    );
    assert.ok(x.stack[1]!.views.some((v) => v.label === 'abi string' && v.text === '"hi"'));
    assert.deepEqual(x.operands, [], 'err takes no operands');
  });

  it('shows the path through inner transactions to the one that failed', () => {
    const response = {
      'txn-groups': [
        {
          'failed-at': [1, 0],
          'failure-message': 'inner failed',
          'txn-results': [
            { 'txn-result': { txn: { txn: { type: 'pay' } } } },
            { 'txn-result': { txn: { txn: { type: 'appl', apid: 7 } }, 'inner-txns': [{ txn: { txn: { type: 'appl', apid: 8 } } }] } },
          ],
        },
      ],
    };
    const x = failureExplanation(buildSimulateReport(response))!;
    assert.deepEqual(x.path, [
      { label: 'txn 1', type: 'appl', appId: '7', failed: true },
      { label: 'inner 0', type: 'appl', appId: '8', failed: true },
    ]);
  });

  it('says "Confirmed in round N" with copyable txids after a send, and "not sent" when declined', () => {
    const sent = { txids: ['TXID1', 'TXID2'], confirmedRound: '42', created: ['1001', ''] };
    assert.deepEqual(verdictView({ wouldSucceed: true }, sent), {
      kind: 'confirmed',
      text: '✓ Confirmed in round 42 · created app 1001',
      txids: ['TXID1', 'TXID2'],
    });
    assert.deepEqual(verdictView({ wouldSucceed: true }, undefined, true), { kind: 'declined', text: '✓ Would succeed — not sent' });
    assert.deepEqual(verdictView({ wouldSucceed: false, failedAtLabel: 'txn 0' }, undefined, true), { kind: 'fail', text: '✗ Would fail at txn 0' });
  });

  it('accepts the Debug message from the webview, with nothing else in it', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'debug' }), { ok: true, message: { type: 'debug' } });
    assert.equal(parseWebviewMessage({ type: 'debug', trace: '/etc/passwd' }).ok, false);
  });
});
