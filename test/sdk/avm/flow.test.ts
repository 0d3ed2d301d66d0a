import assert from 'node:assert/strict';
import { runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { asm } from './helpers/asm.js';
import { LogicError } from '../../../sdk/src/avm/index.js';
import { MAX_AVM_VERSION } from '../../../sdk/src/teal/spec/versions.js';

describe('avm flow control and stack', () => {
  it('branches forward and backward (v4+), ends at the program end (v2+)', () => {
    approves(runSig('intcblock 0 1\nintc_0\nbnz skip\nintc_1\nb end\nskip:\nerr\nend:', { version: 2 }));
    approves(runSig('int 3\nstore 0\nloop:\nload 0\nint 1\n-\ndup\nstore 0\nbnz loop\nint 1', { version: 4 }));
    failsWith(runSig('intcblock 1\nintc_0\nbnz out\nerr\nout:', { version: 1 }), 'pc=  5 branch target 9 outside of program');
    // back branches before v4 are rejected by the check, before anything runs
    const r = failsWith(runSig('top:\nint 1\nbz top\nint 1', { version: 3 }), 'negative branch offset');
    assert.equal(r.error!.duringCheck, true);
  });

  it('v13 zigzag-varint branches measure back jumps from the opcode byte', () => {
    approves(runSig('int 2\nstore 0\nloop:\nload 0\nint 1\n-\ndup\nstore 0\nbnz loop\nint 1', { version: 13 }));
    // hand-encoded: b +2 skips `err; err` (v13 `42 02`)
    approves(runSig(Uint8Array.of(13, 0x42, 0x02, 0x00, 0x81, 0x01)));
    failsWith(runSig(Uint8Array.of(13, 0x42, 0x02, 0x00, 0x00, 0x81, 0x01)), 'err opcode executed');
    // callsub with a 1-byte varint offset, retsub back
    approves(runSig(Uint8Array.of(13, 0x88, 0x08, 0x81, 0x01, 0x42, 0x02, 0x89)));
    // a negative offset counts from the opcode byte: `b -3` from pc 4 lands on pc 1
    approves(runSig(Uint8Array.of(13, 0x42, 0x06, 0x81, 0x01, 0x43, 0x42, 0x05)));
  });

  it('rejects branches into the middle of an instruction', () => {
    // b +1 lands inside pushint's immediate
    failsWith(runSig(Uint8Array.of(4, 0x42, 0x00, 0x01, 0x81, 0x01)), 'branch target 5 is not an aligned instruction');
  });

  it('err, assert, return and end-of-program checks use the node wording', () => {
    failsWith(runSig('err'), 'err opcode executed');
    const a = failsWith(runSig('int 1\nint 0\nassert'), 'assert failed pc=5');
    assert.equal(a.error!.pc, 5);
    assert.equal(a.error!.opcode, 'assert');
    assert.ok(a.error!.message.startsWith('rejected by logic err=assert failed pc=5'));
    approves(runSig('int 5\nint 6\nint 1\nreturn\nerr'));
    failsWith(runSig('int 1\nint 1'), 'stack len is 2 instead of 1');
    failsWith(runSig('byte 0x01'), 'stack finished with bytes not int');
    assert.equal(runSig('int 0').approved, false);
    assert.equal(runSig('int 0').error, undefined);
  });

  it('app failures read "logic eval error: … Details: app=…, pc=…"', () => {
    const r = failsWith(runApp('int 1\nerr'), 'err opcode executed');
    assert.ok(r.error instanceof LogicError);
    assert.equal(r.error!.message, 'logic eval error: err opcode executed. Details: app=1234, pc=3, opcodes=pushint 1; err');
    assert.deepEqual(r.error!.groupPath, [0]);
  });

  it('stack limits: 1000 values, overflow is an error', () => {
    approves(runSig('int 1\ndupn 255\ndupn 255\ndupn 255\ndupn 233\npopn 255\npopn 255\npopn 255\npopn 233', { version: 8 }));
    failsWith(runSig('int 1\ndupn 255\ndupn 255\ndupn 255\ndupn 235', { version: 8 }), 'stack overflow');
  });

  it('dup, dup2, dig, swap, select, cover, uncover, bury, popn', () => {
    approves(runSig('int 1\nint 2\ndup2\n+\nint 3\n==\nassert\nswap\n-\nint 1\n==', { version: 8 }));
    approves(runSig('int 10\nint 20\nint 1\nselect\nint 20\n==', { version: 8 }));
    approves(runSig('int 1\nint 2\nint 3\ndig 2\nint 1\n==\nassert\npopn 2\npop\nint 1', { version: 8 }));
    approves(runSig('int 1\nint 2\nint 3\ncover 2\npop\npop\nint 3\n==', { version: 8 }));
    approves(runSig('int 1\nint 2\nint 3\nuncover 2\nint 1\n==\nassert\npop\npop\nint 1', { version: 8 }));
    approves(runSig('int 1\nint 2\nint 9\nbury 2\npop\nint 9\n==', { version: 8 }));
    failsWith(runSig('int 1\ndig 1', { version: 8 }), 'dig 1 with stack size = 1');
    failsWith(runSig('int 1\nbury 1', { version: 8 }), 'bury outside stack');
    failsWith(runSig('int 1\npopn 2', { version: 8 }), 'popn 2 while stack contains 1');
  });

  it('callsub/retsub with proto, frame_dig and frame_bury', () => {
    const src = `int 3
int 4
callsub add
int 7
==
return
add:
proto 2 1
frame_dig -2
frame_dig -1
+
frame_bury 0
retsub`;
    failsWith(runSig(src, { version: 8 }), 'frame_bury above stack');
    approves(runSig(src.replace('frame_bury 0', 'dup\nframe_bury 0'), { version: 8 }));
    failsWith(runSig('retsub', { version: 8 }), 'retsub with empty callstack');
    failsWith(runSig('int 1\nproto 0 0', { version: 8 }), 'proto was executed without a callsub');
    failsWith(runSig('callsub f\nint 1\nreturn\nf:\nproto 1 1\nretsub', { version: 8 }), 'callsub to proto that requires 1 args with stack height 0');
    failsWith(runSig('int 1\ncallsub f\nreturn\nf:\nproto 1 1\nretsub', { version: 8 }), 'retsub executed with no return values on stack. proto declared 1');
  });

  it('switch and match fall through when nothing matches', () => {
    approves(runSig('int 1\nswitch a b\nerr\na:\nerr\nb:\nint 1', { version: 8 }));
    approves(runSig('int 5\nswitch a\nint 1\nreturn\na:\nerr', { version: 8 }));
    approves(runSig('int 1\nint 2\nint 2\nmatch a b\nerr\na:\nerr\nb:\nint 1', { version: 8 }));
    approves(runSig('byte "x"\nbyte "y"\nmatch a\nint 1\nreturn\na:\nerr', { version: 8 }));
  });

  it('scratch space: 256 uint64 zero slots, loads/stores bounds', () => {
    approves(runSig('load 255\nint 0\n==', { version: 8 }));
    approves(runSig('int 7\nbyte "v"\nstores\nint 7\nloads\nbyte "v"\n==', { version: 8 }));
    failsWith(runSig('int 256\nloads', { version: 8 }), 'invalid Scratch index 256');
  });

  it('constants: intcblock/bytecblock and push forms', () => {
    approves(runSig('intcblock 5 18446744073709551615\nintc_1\nintc 1\n==\nassert\nintc_0\nint 5\n==', { version: 8 }));
    approves(runSig('bytecblock 0x01 "ab"\nbytec_1\nbyte "ab"\n==', { version: 8 }));
    failsWith(runSig('intcblock 1\nintc_2', { version: 8 }), 'intc 2 beyond 1 constants');
    failsWith(runSig('bytec_0', { version: 8 }), 'bytec 0 beyond 0 constants');
    approves(runSig('pushints 1 2 3\n+\n+\nint 6\n==', { version: 8 }));
    approves(runSig('pushbytess 0x01 0x02\nconcat\nbyte 0x0102\n==', { version: 8 }));
  });

  it('arguments of logic signatures', () => {
    approves(
      runSig('arg_0\nbyte "a"\n==\narg 1\nbyte "b"\n==\n&&\nint 1\nargs\nlen\nint 1\n==\n&&', {
        version: 8,
        args: [new TextEncoder().encode('a'), new TextEncoder().encode('b')],
      }),
    );
    failsWith(runSig('arg_2', { version: 8, args: [] }), 'cannot load arg[2] of 0');
  });
});

describe('avm costs and budgets', () => {
  it('v1–v3: static cost is checked before running', () => {
    const body = Array.from({ length: 6 }, () => 'byte 0x00\nkeccak256\npop').join('\n') + '\nint 1';
    const r = failsWith(runApp(body, { version: 3 }), /^pc=\s*\d+ static cost budget of 700 exceeded$/);
    assert.equal(r.error!.duringCheck, true);
    approves(runApp(Array.from({ length: 5 }, () => 'byte 0x00\nkeccak256\npop').join('\n') + '\nint 1', { version: 3 }));
  });

  it('v4+: dynamic cost, charged as executed, with length-dependent costs', () => {
    const r = failsWith(
      runApp('int 1\nloop:\nbyte 0x00\nkeccak256\npop\nb loop', { version: 8 }),
      'dynamic cost budget exceeded, executing keccak256: local program cost was 667',
    );
    assert.equal(r.error!.opcode, 'keccak256');
    // sha512 costs 15 + 2 per 32 bytes
    const s = approves(runSig('int 64\nbzero\nsha512\nlen\nint 64\n==', { version: 13 }));
    assert.equal(s.cost, 1 + 1 + (15 + 4) + 1 + 1 + 1);
  });

  it('pools the app budget across the group and reports OpcodeBudget', async () => {
    const { appCall } = await import('./helpers/fixtures.js');
    const loop = 'global OpcodeBudget\nint 1300\n>=\nassert\nint 1';
    const r = runApp(loop, { version: 8, group: [appCall(), appCall()] });
    approves(r);
    const one = runApp(loop, { version: 8 });
    failsWith(one, 'assert failed');
  });

  it('extra simulate budget is added once to the pool', () => {
    approves(runApp('global OpcodeBudget\nint 1200\n>=', { version: 8, options: { extraBudget: 1000 } }));
  });

  it('logic signatures pool 20000 per transaction', () => {
    approves(runSig('global OpcodeBudget\nint 19999\n==', { version: 8 }));
  });

  it('rejects programs the node would not load', () => {
    failsWith(
      runSig(Uint8Array.of(MAX_AVM_VERSION + 1, 0x81, 0x01)),
      `program version ${MAX_AVM_VERSION + 1} greater than max supported version ${MAX_AVM_VERSION}`,
    );
    failsWith(runSig(Uint8Array.of(8, 0x81, 0x01), { options: { maxVersion: 7 } }), 'program version 8 greater than protocol supported version 7');
    failsWith(runSig(new Uint8Array(0)), 'invalid program (empty)');
    failsWith(runSig(Uint8Array.of(8, 0xff)), 'illegal opcode 0xff');
    failsWith(runApp(Uint8Array.of(1, 0x22)), 'program version must be >= 2 for this transaction group, but have version 1');
    failsWith(runApp(asm('byte 0x\nbyte 0x\nbyte 0x\ned25519verify', 4)), 'ed25519verify not allowed in current mode');
    failsWith(runSig(asm('int 0\nbalance', 4)), 'balance not allowed in current mode');
  });
});

describe('avm ClearState and pooled logic signature budgets', () => {
  it('ClearState needs 700 left in the pool, may spend at most 700, and is rolled back on failure', async () => {
    const { appCall: call, SENDER: sender, APP_ID: app } = await import('./helpers/fixtures.js');
    const { InMemoryLedgerView: Ledger, AvmGroupEvaluator: Evaluator } = await import('../../../sdk/src/avm/index.js');
    const ledger = new Ledger();
    const clear = asm('byte "k"\nint 1\napp_global_put\nint 1\nloop:\nbyte 0x00\nkeccak256\npop\nb loop', 8);
    ledger.createApp(sender.publicKey, { approvalProgram: asm('int 1', 8), clearStateProgram: clear, globalNumUint: 1n }, app);
    const ev = new Evaluator([call({ onComplete: 3 }), call()], ledger, { extraBudget: 5000 });
    const r = ev.evalApp(0);
    assert.equal(r.approved, false);
    assert.match(r.error!.reason, /dynamic cost budget exceeded, executing keccak256: local program cost was 6\d\d/);
    assert.equal(ledger.getGlobal(app, new TextEncoder().encode('k')), undefined);
    const low = new Evaluator([call({ onComplete: 3 })], ledger, { limits: { maxAppProgramCost: 700 } });
    low.state.appPool.v = 699;
    assert.match(low.evalApp(0).error!.reason, /attempted ClearState execution with low OpcodeBudget 699/);
  });

  it('logic signatures of a group share 20000 × group size', async () => {
    const { payment: pay } = await import('./helpers/fixtures.js');
    const { InMemoryLedgerView: Ledger, AvmGroupEvaluator: Evaluator } = await import('../../../sdk/src/avm/index.js');
    const verify = 'byte 0x00\nint 64\nbzero\nint 32\nbzero\ned25519verify_bare\npop';
    const heavy = asm(Array.from({ length: 15 }, () => verify).join('\n') + '\nint 1', 8);
    const lsig = { program: heavy, args: [] };
    const alone = new Evaluator([{ txn: pay(), lsig }], new Ledger()).evalLogicSig(0);
    assert.match(alone.error!.reason, /dynamic cost budget exceeded, executing ed25519verify_bare/);
    const pair = new Evaluator(
      [
        { txn: pay(), lsig },
        { txn: pay(), lsig },
      ],
      new Ledger(),
    );
    assert.equal(pair.evalLogicSig(0).approved, true);
    assert.match(pair.evalLogicSig(1).error!.reason, /dynamic cost budget exceeded/);
  });
});
