import { strict as assert } from 'node:assert';
import { makeAppCallTxn } from '../../../sdk/src/txn/builders.js';
import { simulate } from '../../../sdk/src/ledger/index.js';
import { MAX_EXEC_TRACE_BYTES } from '../../../sdk/src/ledger/simulate.js';
import { stringifyJson } from '../../../sdk/src/encoding/json.js';
import { devnet, teal } from './fixture.js';

type O = Record<string, any>;

describe('ledger: simulate exec-trace budget', function () {
  this.timeout(60_000);

  it('stops a trace that would exceed the size budget and says so in the response', () => {
    const d = devnet();
    // Every iteration puts 4,000 bytes on the stack: with the extra budget a full trace would be ~400 MB.
    const loop = '#pragma version 10\nloop:\nint 4000\nbzero\npop\nb loop\n';
    const t = makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal(loop),
      clearProgram: teal('#pragma version 10\nint 1\n'),
      suggestedParams: d.sp({ fee: 300_000n }),
    });
    const before = process.memoryUsage().heapUsed;
    const limit = 4 * 1024 * 1024; // the default is MAX_EXEC_TRACE_BYTES; a smaller one keeps the test quick
    const res = simulate(
      d.ledger,
      {
        'txn-groups': [{ txns: [d.sign(t)] }],
        'allow-empty-signatures': true,
        'extra-opcode-budget': 320_000,
        'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true },
      },
      { maxExecTraceBytes: limit },
    ) as O;
    assert.equal(res['exec-trace-truncated'], true);
    const g = res['txn-groups'][0];
    assert.match(g['failure-message'], /dynamic cost budget exceeded/, 'the program itself ran to its end');
    const json = stringifyJson(res);
    assert.ok(json.length < limit * 1.5, `response is ${json.length} bytes`);
    assert.ok(MAX_EXEC_TRACE_BYTES <= 64 * 1024 * 1024);
    assert.ok(process.memoryUsage().heapUsed - before < 200 * 1024 * 1024);
    const steps = g['txn-results'][0]['exec-trace']['approval-program-trace'];
    assert.ok(steps.length > 500, 'the beginning of the trace is kept');
  });

  it('a trace within the budget is complete and unflagged', () => {
    const d = devnet();
    const t = makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal('#pragma version 10\nint 1\n'),
      clearProgram: teal('#pragma version 10\nint 1\n'),
      suggestedParams: d.sp(),
    });
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }], 'exec-trace-config': { enable: true, 'stack-change': true } }) as O;
    assert.equal(res['exec-trace-truncated'], undefined);
  });
});
