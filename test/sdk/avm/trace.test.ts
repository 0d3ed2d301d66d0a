import assert from 'node:assert/strict';
import { APP_ID, OTHER, runApp, appCall } from './helpers/fixtures.js';
import { approves } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';
import { opsAt, MAX_AVM_VERSION } from '../../../sdk/src/teal/spec/opcodes.js';
import { writesState } from '../../../sdk/src/avm/trace-explain.js';

describe('avm traces', () => {
  it('look for a state change at exactly the ops that write or delete app state (decided once per instruction)', () => {
    const names = opsAt(MAX_AVM_VERSION)
      .map((o) => o.name)
      .filter(writesState)
      .sort();
    const expected = [
      'app_global_del',
      'app_global_put',
      'app_local_del',
      'app_local_put',
      'box_create',
      'box_del',
      'box_put',
      'box_replace',
      'box_resize',
      'box_splice',
    ];
    // The other-app box ops, where this version has them, write state too.
    const others = opsAt(MAX_AVM_VERSION)
      .map((o) => o.name)
      .filter((n) => n.startsWith('app_box_') && expected.includes(n.slice(4)));
    assert.deepEqual(names, [...expected, ...others].sort());
  });

  it('are off by default', () => {
    const r = approves(runApp('int 1', { version: 8 }));
    assert.equal(r.trace, undefined);
  });

  it('record pc, stack pops and additions, scratch and state changes (simulate exec-trace shape)', () => {
    const r = approves(runApp('int 2\nint 3\n+\ndup\nstore 4\nbyte "k"\nswap\napp_global_put\nint 1', { version: 8, options: { trace: true } }));
    const steps = r.trace!.steps;
    assert.deepEqual(
      steps.map((s) => s.pc),
      [1, 3, 5, 6, 7, 9, 12, 13, 14],
    );
    assert.deepEqual(steps[2], { pc: 5, stackPopCount: 2, stackAdditions: [5n] });
    assert.deepEqual(steps[4], { pc: 7, stackPopCount: 1, scratchChanges: [{ slot: 4, newValue: 5n }] });
    assert.deepEqual(steps[7]!.stateChanges, [{ operation: 'w', appStateType: 'g', key: new TextEncoder().encode('k'), newValue: 5n }]);
    assert.equal(steps[7]!.stackPopCount, 2);
  });

  it("converts to simulate's exec-trace JSON shape", async () => {
    const { toSimulateSteps } = await import('../../../sdk/src/avm/index.js');
    const r = approves(runApp('int 0\nbyte "k"\nbyte 0x00ff\napp_global_put\nstore 1\nint 1', { version: 8, options: { trace: true } }));
    const json = toSimulateSteps(r.trace!.steps);
    assert.deepEqual(json[0], { pc: 1, 'stack-additions': [{ type: 2 }] });
    assert.deepEqual(json[3], {
      pc: 10,
      'stack-pop-count': 2,
      'state-changes': [{ 'app-state-type': 'g', key: 'aw==', 'new-value': { type: 1, bytes: 'AP8=' }, operation: 'w' }],
    });
    assert.deepEqual(json[4], { pc: 11, 'stack-pop-count': 1, 'scratch-changes': [{ slot: 1, 'new-value': { type: 2 } }] });
  });

  it('honours the sub-options', () => {
    const r = approves(runApp('int 2\nstore 0\nint 1', { version: 8, options: { trace: { stackChange: false, scratchChange: true, stateChange: false } } }));
    assert.deepEqual(r.trace!.steps[0], { pc: 1 });
    assert.deepEqual(r.trace!.steps[1], { pc: 3, scratchChanges: [{ slot: 0, newValue: 2n }] });
  });

  it('nest the traces of inner app calls under the spawning step', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(Address.forApp(APP_ID).publicKey, 1_000_000n);
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 8) });
    const src = `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${callee}\nitxn_field ApplicationID\nitxn_submit\nint 1`;
    const r = approves(runApp(src, { ledger, version: 8, txn: appCall({ foreignApps: [callee] }), options: { trace: true } }));
    const submit = r.trace!.steps.find((s) => s.spawnedInners);
    assert.deepEqual(submit!.spawnedInners, [0]);
    assert.equal(r.trace!.inner.length, 1);
    assert.deepEqual(
      r.trace!.inner[0]!.steps.map((s) => s.pc),
      [1],
    );
  });
});
