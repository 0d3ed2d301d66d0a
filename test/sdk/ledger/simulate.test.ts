import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../sdk/src/txn/group.js';
import { logicSigAddress, makeLogicSig } from '../../../sdk/src/txn/logicsig.js';
import { simulate, SimulateRequestError } from '../../../sdk/src/ledger/index.js';
import { ALGO, devnet, teal, type Devnet } from './fixture.js';
import { APPROVAL, CLEAR } from './programs.js';

type O = Record<string, any>;

function app(d: Devnet): bigint {
  const r = d.send([
    makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal(APPROVAL),
      clearProgram: teal(CLEAR),
      globalSchema: { numUints: 1, numByteSlices: 0 },
      suggestedParams: d.sp(),
    }),
  ]);
  return d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
}

const itob = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};

describe('ledger: simulate', () => {
  it('reports a successful app call without committing it', () => {
    const d = devnet();
    const id = app(d);
    const before = d.ledger.stateHash();
    const t = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('inc')], suggestedParams: d.sp() });
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }] }) as O;
    assert.equal(res.version, 2);
    assert.equal(res['last-round'], 1n);
    assert.equal(res['eval-overrides'], undefined);
    const g = res['txn-groups'][0];
    assert.equal(g['failure-message'], undefined);
    assert.equal(g['app-budget-added'], 700);
    assert.ok(g['app-budget-consumed'] > 0);
    const tr = g['txn-results'][0];
    assert.equal(tr['app-budget-consumed'], g['app-budget-consumed']);
    assert.equal(tr['txn-result']['pool-error'], '');
    assert.deepEqual(tr['txn-result'].logs, [utf8('inc')]);
    assert.deepEqual(tr['txn-result']['global-state-delta'], [{ key: 'Y291bnQ=', value: { action: 2, uint: 1n } }]);
    assert.deepEqual(d.ledger.stateHash(), before);
    assert.equal(d.ledger.latestRound, 1n);
    // The same transaction still submits afterwards.
    d.ledger.submit([d.sign(t)]);
  });

  it('reports failures with failed-at, also inside inner transactions', () => {
    const d = devnet();
    const id = app(d);
    const t = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('nope')], suggestedParams: d.sp() });
    const pay = makePaymentTxn({ sender: d.addr(1), receiver: d.addr(2), amount: 1n, suggestedParams: d.sp() });
    const grouped = assignGroupId([pay, t]);
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: grouped.map((x) => d.sign(x)) }] }) as O;
    const g = res['txn-groups'][0];
    assert.deepEqual(g['failed-at'], [1]);
    assert.match(g['failure-message'], /logic eval error: err opcode executed/);
    assert.equal(g['txn-results'].length, 2);
    // Inner failure: the app has no funds to pay.
    const inner = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('pay'), itob(5n * ALGO)], suggestedParams: d.sp({ fee: 2000n }) });
    const r2 = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(inner)] }] }) as O;
    assert.deepEqual(r2['txn-groups'][0]['failed-at'], [0, 0]);
    assert.match(r2['txn-groups'][0]['failure-message'], /inner tx 0 failed: overspend/);
  });

  it('evaluates unsigned transactions with allow-empty-signatures and reports signers with fix-signers', () => {
    const d = devnet();
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const strict = simulate(d.ledger, { 'txn-groups': [{ txns: [{ txn: t }] }] }) as O;
    assert.match(strict['txn-groups'][0]['failure-message'], /has no sig/);
    const lax = simulate(d.ledger, { 'txn-groups': [{ txns: [{ txn: t }] }], 'allow-empty-signatures': true }) as O;
    assert.equal(lax['txn-groups'][0]['failure-message'], undefined);
    assert.deepEqual(lax['eval-overrides'], { 'allow-empty-signatures': true });
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(0), amount: 0n, rekeyTo: d.addr(2), suggestedParams: d.sp() })]);
    const t2 = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 2n, suggestedParams: d.sp() });
    const fixed = simulate(d.ledger, { 'txn-groups': [{ txns: [{ txn: t2 }] }], 'allow-empty-signatures': true, 'fix-signers': true }) as O;
    assert.equal(fixed['txn-groups'][0]['txn-results'][0]['fixed-signer'], d.addr(2).toString());
    assert.equal(fixed['txn-groups'][0]['failure-message'], undefined);
    const unfixed = simulate(d.ledger, { 'txn-groups': [{ txns: [{ txn: t2 }] }], 'allow-empty-signatures': true }) as O;
    assert.match(unfixed['txn-groups'][0]['failure-message'], new RegExp(`should have been authorized by ${d.addr(2)}`));
  });

  it('adds extra opcode budget', () => {
    const d = devnet();
    const heavy = teal('#pragma version 10\nint 0\nloop:\nint 1\n+\ndup\nint 400\n<\nbnz loop\nreturn');
    const t = makeAppCallTxn({ sender: d.addr(0), appId: 0n, approvalProgram: heavy, clearProgram: teal(CLEAR), suggestedParams: d.sp() });
    const plain = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }] }) as O;
    assert.match(plain['txn-groups'][0]['failure-message'], /dynamic cost budget exceeded/);
    const extra = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }], 'extra-opcode-budget': 2000 }) as O;
    const g = extra['txn-groups'][0];
    assert.equal(g['failure-message'], undefined);
    assert.equal(g['app-budget-added'], 2700);
    assert.ok(g['app-budget-consumed'] > 700);
    assert.deepEqual(extra['eval-overrides'], { 'extra-opcode-budget': 2000 });
    assert.ok(extra['txn-groups'][0]['txn-results'][0]['txn-result']['application-index'] > 1000n);
  });

  it('records execution traces with stack, scratch and state changes, and initial states', () => {
    const d = devnet();
    const id = app(d);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: Address.forApp(id), amount: ALGO, suggestedParams: d.sp() })]);
    d.send([makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('inc')], suggestedParams: d.sp() })]);
    const t = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('inc')], suggestedParams: d.sp() });
    const cfg = { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true };
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }], 'exec-trace-config': cfg }) as O;
    assert.deepEqual(res['exec-trace-config'], cfg);
    const trace = res['txn-groups'][0]['txn-results'][0]['exec-trace'];
    assert.deepEqual(trace['approval-program-hash'], sha512_256(teal(APPROVAL)));
    const units = trace['approval-program-trace'] as O[];
    assert.equal(units[0].pc, 1);
    assert.ok(units.some((u) => u['stack-additions']));
    const write = units.find((u) => u['state-changes'])!;
    assert.deepEqual(write['state-changes'][0], { operation: 'w', 'app-state-type': 'g', key: utf8('count'), 'new-value': { type: 2, uint: 2n } });
    assert.deepEqual(res['initial-states'], { 'app-initial-states': [{ id, 'app-globals': { kvs: [{ key: utf8('count'), value: { type: 2, uint: 1n } }] } }] });
    // Inner transactions get their own trace entries.
    const p = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('pay'), itob(1000n)], suggestedParams: d.sp({ fee: 2000n }) });
    const r2 = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(p)] }], 'exec-trace-config': { enable: true } }) as O;
    const t2 = r2['txn-groups'][0]['txn-results'][0];
    assert.deepEqual(t2['exec-trace']['inner-trace'], [{}]);
    assert.ok((t2['exec-trace']['approval-program-trace'] as O[]).some((u) => u['spawned-inners']));
    assert.equal(t2['txn-result']['inner-txns'][0].txn.txn.type, 'pay');
    assert.equal(t2['fees-paid'], 2000n);
  });

  it('pools the app budget of a 16-call group and reports a failing clear-state program', () => {
    const d = devnet();
    const id = app(d);
    const calls = Array.from({ length: 16 }, (_, i) =>
      makeAppCallTxn({ sender: d.addr(i % 4), appId: id, args: [utf8('inc')], note: `g${i}`, suggestedParams: d.sp() }),
    );
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: assignGroupId(calls).map((t) => d.sign(t)) }] }) as O;
    const g = res['txn-groups'][0];
    assert.equal(g['failure-message'], undefined);
    assert.equal(g['app-budget-added'], 16 * 700);
    assert.equal(g['txn-results'].length, 16);
    assert.deepEqual(g['txn-results'][15]['txn-result']['global-state-delta'], [{ key: 'Y291bnQ=', value: { action: 2, uint: 16n } }]);
    // A clear-state program that fails: the opt-out still happens and the trace says it rolled back.
    const r = d.send([
      makeAppCallTxn({
        sender: d.addr(0),
        appId: 0n,
        approvalProgram: teal('#pragma version 10\nint 1'),
        clearProgram: teal('#pragma version 10\nerr'),
        suggestedParams: d.sp(),
      }),
    ]);
    const bad = d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
    d.send([makeAppCallTxn({ sender: d.addr(1), appId: bad, onComplete: 1, suggestedParams: d.sp() })]);
    const clear = makeAppCallTxn({ sender: d.addr(1), appId: bad, onComplete: 3, suggestedParams: d.sp() });
    const cr = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(clear)] }], 'exec-trace-config': { enable: true } }) as O;
    const t = cr['txn-groups'][0]['txn-results'][0]['exec-trace'];
    assert.equal(cr['txn-groups'][0]['failure-message'], undefined);
    assert.equal(t['clear-state-rollback'], true);
    assert.match(t['clear-state-rollback-error'], /err opcode executed/);
    assert.ok(t['clear-state-program-trace'].length > 0);
  });

  it('reports resources reached through allow-unnamed-resources', () => {
    const d = devnet();
    const id = app(d);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: Address.forApp(id), amount: ALGO, suggestedParams: d.sp() })]);
    // The box is not referenced: refused normally, reported when unnamed access is allowed.
    const t = makeAppCallTxn({ sender: d.addr(1), appId: id, args: [utf8('delbox')], suggestedParams: d.sp() });
    const strict = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }] }) as O;
    assert.match(strict['txn-groups'][0]['failure-message'], /invalid Box reference/);
    const lax = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }], 'allow-unnamed-resources': true }) as O;
    const g = lax['txn-groups'][0];
    assert.equal(g['failure-message'], undefined);
    assert.deepEqual(g['unnamed-resources-accessed'], { boxes: [{ app: id, name: utf8('b1') }] });
    assert.deepEqual(lax['eval-overrides'], { 'allow-unnamed-resources': true });
  });

  it('traces logic signatures', () => {
    const d = devnet();
    const program = teal('#pragma version 10\nint 1');
    const escrow = logicSigAddress(program);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: escrow, amount: ALGO, suggestedParams: d.sp() })]);
    const t = makePaymentTxn({ sender: escrow, receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const res = simulate(d.ledger, { 'txn-groups': [{ txns: [{ txn: t, lsig: makeLogicSig(program) }] }], 'exec-trace-config': { enable: true } }) as O;
    const tr = res['txn-groups'][0]['txn-results'][0];
    assert.equal(tr['logic-sig-budget-consumed'], 1);
    assert.equal(tr['exec-trace']['logic-sig-trace'].length, 1);
  });

  it('validates the request like the node', () => {
    const d = devnet();
    const t = { txn: makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() }) };
    const bad = (req: object, text: RegExp) =>
      assert.throws(
        () => simulate(d.ledger, req as never),
        (e: unknown) => e instanceof SimulateRequestError && text.test(e.message),
      );
    bad({ 'txn-groups': [] }, /expected 1 transaction group, got 0/);
    bad({ 'txn-groups': [{ txns: [] }] }, /empty txgroup/);
    bad({ 'txn-groups': [{ txns: [t] }], 'extra-opcode-budget': 320001 }, /extra budget 320001 > simulation extra budget limit 320000/);
    bad({ 'txn-groups': [{ txns: [t] }], 'exec-trace-config': { 'stack-change': true } }, /basic trace must be enabled when enabling stack tracing/);
    bad({ 'txn-groups': [{ txns: [t] }], 'exec-trace-config': { 'state-change': true } }, /app state change tracing/);
    bad({ 'txn-groups': [{ txns: [t] }], 'fix-signers': true }, /FixSigners requires AllowEmptySignatures to be enabled/);
    const more = simulate(d.ledger, { 'txn-groups': [{ txns: [t] }], 'allow-more-logging': true, 'allow-empty-signatures': true }) as O;
    assert.deepEqual(more['eval-overrides'], { 'allow-empty-signatures': true, 'max-log-calls': 2048, 'max-log-size': 65536 });
  });
});
