import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { OnComplete } from '../../../sdk/src/txn/types.js';
import { LedgerRejection } from '../../../sdk/src/ledger/index.js';
import { ALGO, devnet, teal, type Devnet } from './fixture.js';

import { APPROVAL, CLEAR } from './programs.js';

function rejects(fn: () => unknown, kind: string, text: RegExp): LedgerRejection {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LedgerRejection, String(e));
    assert.equal(e.kind, kind, e.message);
    assert.match(e.message, text);
    return e;
  }
  assert.fail('expected a rejection');
}

export function createApp(d: Devnet, extra: Record<string, unknown> = {}): bigint {
  const r = d.send([
    makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal(APPROVAL),
      clearProgram: teal(CLEAR),
      globalSchema: { numUints: 1, numByteSlices: 0 },
      localSchema: { numUints: 1, numByteSlices: 0 },
      suggestedParams: d.sp(),
      ...extra,
    }),
  ]);
  return d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
}

const call = (d: Devnet, appId: bigint, sender: number, args: (string | Uint8Array)[], extra: Record<string, unknown> = {}) =>
  makeAppCallTxn({ sender: d.addr(sender), appId, args: args.map((a) => (typeof a === 'string' ? utf8(a) : a)), suggestedParams: d.sp(), ...extra });

const itob = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};

describe('ledger: applications', () => {
  it('creates an app with global state and charges the creator schema min balance', () => {
    const d = devnet();
    const id = createApp(d);
    assert.equal(id, 1001n);
    const app = d.ledger.app(id)!;
    assert.deepEqual(
      d.ledger.globalState(id).map((kv) => [new TextDecoder().decode(kv.key), kv.value]),
      [['count', 0n]],
    );
    assert.equal(app.globalNumUint, 1n);
    // 100000 base + 100000 app + 28500 per uint
    assert.equal(d.ledger.minBalance(d.addr(0)), 228_500n);
    const ad = d.ledger.transaction(d.ledger.block(1n).txns[0]!.txid)!.ad;
    assert.equal(ad.createdAppId, id);
    assert.equal([...ad.globalDelta.values()][0]!.delta.value, 0n);
  });

  it('calls with logs and state deltas; a rejecting call changes nothing', () => {
    const d = devnet();
    const id = createApp(d);
    const r = d.send([call(d, id, 1, ['inc'])]);
    const ad = d.ledger.transaction(r.txids[0]!)!.ad;
    assert.deepEqual(ad.logs, [utf8('inc')]);
    assert.equal([...ad.globalDelta.values()][0]!.delta.value, 1n);
    assert.equal(d.ledger.globalState(id)[0]!.value, 1n);
    const before = d.ledger.stateHash();
    const e = rejects(() => d.send([call(d, id, 1, ['nope'])]), 'logic', /logic eval error: err opcode executed.*app=1001/);
    assert.deepEqual(e.path, [0]);
    assert.deepEqual(d.ledger.stateHash(), before);
    // The interpreter may catch this at the put; the ledger checks again after the program.
    assert.throws(() => d.send([call(d, id, 1, ['toomany'])]), /store integer count \d exceeds schema integer count 1/);
    rejects(() => d.send([call(d, 424242n, 1, ['inc'])]), 'app', /only ClearState is supported for an application \(424242\) that does not exist/);
  });

  it('opts in with local state, closes out and clears', () => {
    const d = devnet();
    const id = createApp(d);
    d.send([call(d, id, 1, [], { onComplete: OnComplete.OptIn })]);
    assert.deepEqual(
      d.ledger.localState(d.addr(1), id)!.map((kv) => kv.value),
      [7n],
    );
    // 100000 + 100000 opt-in + 28500 local uint
    assert.equal(d.ledger.minBalance(d.addr(1)), 228_500n);
    rejects(() => d.send([call(d, id, 1, ['x'], { onComplete: OnComplete.OptIn })]), 'app', /has already opted in/);
    d.send([call(d, id, 1, [], { onComplete: OnComplete.CloseOut })]);
    assert.equal(d.ledger.localState(d.addr(1), id), undefined);
    rejects(() => d.send([call(d, id, 1, ['y'], { onComplete: OnComplete.CloseOut })]), 'app', /is not opted in/);
    d.send([call(d, id, 2, [], { onComplete: OnComplete.OptIn })]);
    d.send([call(d, id, 2, [], { onComplete: OnComplete.ClearState })]);
    assert.equal(d.ledger.localState(d.addr(2), id), undefined);
    rejects(
      () => d.send([call(d, id, 2, ['z'], { onComplete: OnComplete.ClearState })]),
      'app',
      /cannot clear state: [A-Z2-7]{58} is not currently opted in to app/,
    );
    assert.equal(d.ledger.minBalance(d.addr(2)), 100_000n);
  });

  it('clear state succeeds even when the clear program fails, discarding only its changes', () => {
    const d = devnet();
    const r = d.send([
      makeAppCallTxn({
        sender: d.addr(0),
        appId: 0n,
        approvalProgram: teal('#pragma version 10\nint 1'),
        clearProgram: teal('#pragma version 10\nbyte "g"\nint 5\napp_global_put\nint 0'),
        globalSchema: { numUints: 1, numByteSlices: 0 },
        suggestedParams: d.sp(),
      }),
    ]);
    const id = d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
    d.send([call(d, id, 1, [], { onComplete: OnComplete.OptIn })]);
    d.send([call(d, id, 1, [], { onComplete: OnComplete.ClearState })]);
    assert.equal(d.ledger.localState(d.addr(1), id), undefined);
    assert.deepEqual(d.ledger.globalState(id), []);
  });

  it('updates (creator only) and deletes', () => {
    const d = devnet();
    const id = createApp(d);
    const newApproval = teal('#pragma version 10\nint 1');
    rejects(
      () => d.send([call(d, id, 1, [], { onComplete: OnComplete.UpdateApplication, approvalProgram: newApproval, clearProgram: teal(CLEAR) })]),
      'logic',
      /rejected by ApprovalProgram/,
    );
    d.send([call(d, id, 0, [], { onComplete: OnComplete.UpdateApplication, approvalProgram: newApproval, clearProgram: teal(CLEAR) })]);
    assert.deepEqual(d.ledger.app(id)!.approvalProgram, newApproval);
    assert.equal(d.ledger.app(id)!.version, 1n);
    rejects(() => d.send([call(d, id, 0, [], { rejectVersion: 1n })]), 'app', /app version \(1\) >= reject version \(1\)/);
    d.send([call(d, id, 0, [], { rejectVersion: 2n })]);
    d.send([call(d, id, 1, [], { onComplete: OnComplete.DeleteApplication })]);
    assert.equal(d.ledger.app(id), undefined);
    assert.equal(d.ledger.minBalance(d.addr(0)), 100_000n);
  });

  it('checks programs at creation: they must decode and share their version', () => {
    const d = devnet();
    // A well-formedness rule at the node: rejected before evaluation, as malformed.
    rejects(() => createApp(d, { clearProgram: teal('#pragma version 9\nint 1') }), 'malformed', /program version mismatch: 10 != 9/);
    rejects(() => createApp(d, { clearProgram: new Uint8Array([0x0a, 0xff]) }), 'app', /check failed on ClearStateProgram/);
  });

  it('charges extra pages to the creator', () => {
    const d = devnet();
    createApp(d, { extraPages: 2 });
    assert.equal(d.ledger.minBalance(d.addr(0)), 228_500n + 200_000n);
  });

  it('stores boxes, charging the app account 2500 + 400 per byte', () => {
    const d = devnet();
    const id = createApp(d);
    const appAddr = Address.forApp(id);
    const boxes = [{ appId: id, name: utf8('b1') }];
    rejects(() => d.send([call(d, id, 1, ['box', new Uint8Array(10)], { boxes })]), 'below-min', /below min/);
    const mbr = 100_000n + 2500n + 400n * 12n;
    d.send([makePaymentTxn({ sender: d.addr(1), receiver: appAddr, amount: mbr, suggestedParams: d.sp() })]);
    d.send([call(d, id, 1, ['box', utf8('0123456789')], { boxes })]);
    assert.deepEqual(d.ledger.box(id, utf8('b1')), utf8('0123456789'));
    assert.equal(d.ledger.minBalance(appAddr), mbr);
    assert.deepEqual(d.ledger.boxNames(id), [utf8('b1')]);
    const kv = d.ledger.delta(d.ledger.latestRound).kv;
    assert.equal(kv.length, 1);
    assert.equal(kv[0]!.oldData, undefined);
    rejects(() => d.send([call(d, id, 1, ['box', utf8('x')])]), 'logic', /invalid Box reference/);
    d.send([call(d, id, 1, ['delbox'], { boxes })]);
    assert.equal(d.ledger.box(id, utf8('b1')), undefined);
    assert.equal(d.ledger.minBalance(appAddr), 100_000n);
  });

  it('runs inner transactions: a payment from the app account and an inner app call', () => {
    const d = devnet();
    const id = createApp(d);
    const other = createApp(d);
    const appAddr = Address.forApp(id);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: appAddr, amount: ALGO, suggestedParams: d.sp() })]);
    const before1 = d.ledger.balance(d.addr(1));
    const r = d.send([call(d, id, 1, ['pay', itob(250_000n)], { suggestedParams: d.sp({ fee: 2000n }) })]);
    assert.equal(d.ledger.balance(d.addr(1)), before1 - 2000n + 250_000n);
    assert.equal(d.ledger.balance(appAddr), ALGO - 250_000n);
    const ad = d.ledger.transaction(r.txids[0]!)!.ad;
    assert.equal(ad.inner.length, 1);
    assert.equal(ad.inner[0]!.txn.type, 'pay');
    assert.equal(ad.inner[0]!.txn.fee, 0n);
    // Without fee credit the inner pays its own fee from the app account.
    d.send([call(d, id, 1, ['pay', itob(1000n)])]);
    assert.equal(d.ledger.balance(appAddr), ALGO - 250_000n - 1000n - 1000n);
    // Overspending inside an inner transaction fails the whole group.
    const e = rejects(() => d.send([call(d, id, 1, ['pay', itob(10n * ALGO)])]), 'logic', /inner tx 0 failed: overspend/);
    // The path leads into the failing inner transaction, as simulate's failed-at does.
    assert.deepEqual(e.path, [0, 0]);
    // Inner app call increments the other app's counter.
    const r2 = d.send([call(d, id, 1, ['call'], { foreignApps: [other], suggestedParams: d.sp({ fee: 2000n }) })]);
    assert.equal(d.ledger.globalState(other)[0]!.value, 1n);
    const inner = d.ledger.transaction(r2.txids[0]!)!.ad.inner[0]!;
    assert.equal(inner.txn.type, 'appl');
    assert.deepEqual(inner.ad.logs, [utf8('inc')]);
    // Going below the app account's minimum through an inner payment is caught after the txn.
    rejects(
      () => d.send([call(d, id, 1, ['pay', itob(d.ledger.balance(appAddr) - 50_000n)], { suggestedParams: d.sp({ fee: 2000n }) })]),
      'below-min',
      /below min 100000/,
    );
  });
});
