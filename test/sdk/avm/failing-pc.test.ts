import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { appCall, APP_ID, OTHER, runApp, runSig, SENDER } from './helpers/fixtures.js';
import { failsWith } from './helpers/expect.js';
import { assemble } from '../../../sdk/src/teal/assembler/assembler.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { appAddress } from '../../../sdk/src/avm/resources.js';
import { sharedData } from '../../cli/helpers.js';

/**
 * The pc a failure names is the failing instruction's own pc, for every kind of failure, as algod
 * reports it (`cx.pc` in go-algorand's `step` is the current instruction until it completes; the
 * AVM Debugger's recorded algod failures below carry the same pcs).
 */
describe('avm: the failing pc is the failing instruction', () => {
  it('an argument of the wrong type: `+` at pc 6 given bytes reports pc=6', () => {
    // 08 | 81 01 (pushint 1, pc 1) | 80 01 78 (pushbytes "x", pc 3) | 08 (+, pc 6)
    const r = failsWith(runApp('pushint 1\npushbytes "x"\n+\npop\npushint 1', { version: 8 }), '+ arg 1 wanted uint64 but got []byte');
    assert.equal(r.error!.pc, 6);
    assert.equal(r.error!.opcode, '+');
    assert.equal(
      r.error!.message,
      `logic eval error: + arg 1 wanted uint64 but got []byte. Details: app=${APP_ID}, pc=6, opcodes=pushint 1; pushbytes 0x78 // "x"; +`,
    );
  });

  it("the simulate trace has a step for an instruction that fails its checks, as algod's tracer opens it before the op runs", () => {
    const r = failsWith(runApp('pushint 1\npushbytes "x"\n+\npop\npushint 1', { version: 8, options: { trace: true } }), 'wanted uint64');
    const steps = r.trace!.steps;
    assert.deepEqual(
      steps.map((s) => s.pc),
      [1, 3, 6],
    );
    assert.deepEqual(steps[2], { pc: 6, stackPopCount: 2 });
    const b = failsWith(runApp('pushint 0\nloop:\npushint 1\n+\nb loop', { version: 8, options: { trace: true } }), 'budget exceeded');
    assert.equal(b.trace!.steps.at(-1)!.pc, 3);
    assert.equal(b.trace!.steps.length, 701);
  });

  it('a stack underflow: `+` at pc 3 with one value reports pc=3', () => {
    const r = failsWith(runSig('pushint 1\n+', { version: 8 }), 'stack underflow in +');
    assert.equal(r.error!.pc, 3);
    assert.equal(r.error!.message, 'rejected by logic err=stack underflow in +. Details: pc=3, opcodes=pushint 1; +');
  });

  it('budget exhaustion names the instruction that would exceed it', () => {
    // pushint 0 (pc 1); loop: pushint 1 (pc 3); + (pc 5); b loop (pc 6). 700 ops fit in an app's
    // budget; the 701st is op index 700, the loop's first op (pushint 1, pc 3).
    const r = failsWith(
      runApp('pushint 0\nloop:\npushint 1\n+\nb loop', { version: 8 }),
      'dynamic cost budget exceeded, executing pushint: local program cost was 700',
    );
    assert.equal(r.error!.pc, 3);
    assert.equal(r.error!.opcode, 'pushint');
    // a straight line of 700 cost-1 ops then one more: the failing op is the 701st, at pc 1 + 700 * 2
    const line = Array.from({ length: 701 }, () => 'pushint 1').join('\n');
    const s = failsWith(runApp(line, { version: 8 }), 'dynamic cost budget exceeded, executing pushint');
    assert.equal(s.error!.pc, 1 + 700 * 2);
  });

  it('`err` and `assert` report their own pc', () => {
    const e = failsWith(runApp('pushint 1\npop\nerr', { version: 8 }), 'err opcode executed');
    assert.equal(e.error!.pc, 4);
    const a = failsWith(runSig('pushint 0\nassert', { version: 8 }), 'assert failed pc=3');
    assert.equal(a.error!.pc, 3);
  });

  it('the end-of-program checks report the program length, as algod does after its loop', () => {
    const r = failsWith(runSig('pushint 1\npushint 1', { version: 8 }), 'stack len is 2 instead of 1');
    assert.equal(r.error!.pc, 5);
    // No instruction starts there: algod's opcodes= is empty.
    assert.equal(r.error!.message, 'rejected by logic err=stack len is 2 instead of 1. Details: pc=5, opcodes=');
  });

  it("the AVM Debugger's recorded algod failures: assert at pc 10, its caller's itxn_submit at pc 21", () => {
    // errors/inner-app: algod answered `… assert failed pc=10. Details: pc=10 … Details: pc=21, opcodes=…; itxn_submit; …`
    const dir = resolve(sharedData, 'fixtures/avm-debugger-traces/errors/inner-app');
    const recorded = JSON.parse(readFileSync(resolve(dir, 'app-reject-simulate-response.json'), 'utf8')) as { 'txn-groups': { 'failure-message': string }[] };
    const message = recorded['txn-groups'][0]!['failure-message'];
    const pcs = [...message.matchAll(/Details: pc=(\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(pcs, [10, 21]);
    const opcodes = [...message.matchAll(/opcodes=(.*?)(?=\. Details: |$)/g)].map((m) => m[1]);
    assert.deepEqual(opcodes, ['txna ApplicationArgs 0; btoi; assert; label1:', 'txna ApplicationArgs 0; itxn_field ApplicationArgs; itxn_submit; label1:']);
    const ledger = new InMemoryLedgerView();
    ledger.fund(SENDER.publicKey, 10_000_000n);
    const inner = assemble(readFileSync(resolve(dir, 'inner.teal'), 'utf8')).program;
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: inner });
    ledger.fund(appAddress(APP_ID), 1_000_000n);
    const outer = readFileSync(resolve(dir, 'outer.teal'), 'utf8');
    const r = failsWith(
      runApp(assemble(outer).program, { ledger, txn: appCall({ foreignApps: [callee], args: [new Uint8Array(8)] }) }),
      /^inner tx 0 failed: logic eval error: assert failed pc=10\. Details: app=\d+, pc=10, opcodes=txna ApplicationArgs 0; btoi; assert; label1:$/,
    );
    // The same disassembled lines algod printed after opcodes= (the line of the failing op, up to
    // two before it, and the label lines that follow it).
    assert.equal(r.error!.opcodes, opcodes[1]);
    assert.ok(r.error!.message.endsWith(`Details: app=${APP_ID}, pc=21, opcodes=${opcodes[1]}`), r.error!.message);
    assert.equal(r.error!.pc, pcs[1]);
    assert.equal(r.error!.opcode, 'itxn_submit');
    assert.deepEqual(r.error!.groupPath, [0, 0]);
  });
});
