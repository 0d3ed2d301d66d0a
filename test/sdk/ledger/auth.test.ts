import { strict as assert } from 'node:assert';
import { makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { multisigAddress, signMultisigTransaction, appendSignMultisigTransaction } from '../../../sdk/src/txn/multisig.js';
import { delegateLogicSig, delegateLogicSigMultisig, logicSigAddress, makeLogicSig } from '../../../sdk/src/txn/logicsig.js';
import { programHashIsOnCurve } from '../../../sdk/src/teal/index.js';
import { LedgerRejection } from '../../../sdk/src/ledger/index.js';
import { ALGO, devnet, teal } from './fixture.js';
import { assignGroupId } from '../../../sdk/src/txn/group.js';
import { forgetMadeSignatures } from '../../../sdk/src/crypto/ed25519.js';

function rejects(fn: () => unknown, kind: string, text: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof LedgerRejection, String(e));
    assert.equal(e.kind, kind, e.message);
    assert.match(e.message, text);
    return true;
  });
}

describe('ledger: signatures checked ahead (preverify)', () => {
  it('changes nothing and decides nothing: a valid group commits, a bad signature is refused by the evaluation', async () => {
    forgetMadeSignatures(); // the verifier checks them, not the memo of signatures made here
    const d = devnet();
    const pay = (i: number, amount: bigint) => makePaymentTxn({ sender: d.addr(i), receiver: d.addr(3), amount, suggestedParams: d.sp() });
    const group = assignGroupId([pay(0, 1n), pay(1, 2n), pay(2, 3n)]).map((t) => d.sign(t));
    const before = { round: d.ledger.latestRound, hash: d.ledger.stateHash() };
    await d.ledger.preverify(group);
    assert.deepEqual({ round: d.ledger.latestRound, hash: d.ledger.stateHash() }, before, 'no state changed');
    d.ledger.submit(group);
    assert.equal(d.ledger.latestRound, before.round + 1n);
    // One forged signature among good ones: preverify resolves, the evaluation refuses the group
    // with the node's words, naming the transaction.
    const bad = assignGroupId([pay(0, 4n), pay(1, 5n), pay(2, 6n)]).map((t) => d.sign(t));
    bad[1] = { ...bad[1]!, sig: bad[1]!.sig!.slice() };
    bad[1]!.sig![0]! ^= 1;
    await d.ledger.preverify(bad);
    rejects(() => d.ledger.submit(bad), 'signature', /At least one signature didn't pass verification/);
    assert.equal(d.ledger.latestRound, before.round + 1n, 'nothing committed');
    // Signed by a key that is not the sender's: refused the same way.
    const wrongKey = assignGroupId([pay(0, 7n), pay(1, 8n)]).map((t, i) => d.sign(t, d.keys[i === 0 ? 2 : 1]));
    await d.ledger.preverify(wrongKey);
    assert.throws(() => d.ledger.submit(wrongKey), LedgerRejection);
  });
});

describe('ledger: what the verified-signature cache remembers', () => {
  const payFrom = (d: ReturnType<typeof devnet>, i: number, amount: bigint) =>
    makePaymentTxn({ sender: d.addr(i), receiver: d.addr(3), amount, suggestedParams: d.sp() });

  it('nothing about an impersonated authorizer: its unsigned transaction is refused once the cheat is off', () => {
    const d = devnet();
    const t = payFrom(d, 0, 9n);
    const unsigned = { txn: t, sig: new Uint8Array(64) };
    d.ledger.impersonate(d.addr(0));
    d.ledger.dryEvaluate([unsigned], {}); // accepted while impersonated (not committed)
    d.ledger.impersonate(d.addr(0), false);
    rejects(() => d.ledger.submit([unsigned]), 'signature', /signedtxn has no sig/);
    const forged = { txn: t, sig: d.sign(t).sig!.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    d.ledger.impersonate(d.addr(0));
    d.ledger.dryEvaluate([forged], {});
    d.ledger.impersonate(d.addr(0), false);
    rejects(() => d.ledger.submit([forged]), 'signature', /didn't pass verification/);
  });

  it('nothing about an empty signature allowed by a simulation', () => {
    const d = devnet();
    const zero = { txn: payFrom(d, 0, 10n), sig: new Uint8Array(64) };
    d.ledger.dryEvaluate([zero], { allowEmptySignatures: true });
    rejects(() => d.ledger.submit([zero]), 'signature', /signedtxn has no sig/);
  });

  it('nothing about a signature made in this process (it checks at once); a signature made elsewhere is remembered', async () => {
    const d = devnet();
    const cache = () => (d.ledger as unknown as { verified: { keys: Set<string> } }).verified.keys;
    const here = d.sign(payFrom(d, 0, 12n));
    d.ledger.dryEvaluate([here], {});
    d.ledger.submit([here]);
    assert.equal(cache().size, 0);
    // Nor when checked ahead (a group of two, as the submit routes do).
    const pair = assignGroupId([payFrom(d, 0, 15n), payFrom(d, 1, 16n)]).map((t) => d.sign(t));
    await d.ledger.preverify(pair);
    d.ledger.submit(pair);
    assert.equal(cache().size, 0);
    // The same bytes, but not in this process's memo of what it signed: checked in full, then remembered.
    const elsewhere = d.sign(payFrom(d, 1, 13n));
    forgetMadeSignatures();
    d.ledger.dryEvaluate([elsewhere], {});
    assert.equal(cache().size, 1);
    d.ledger.submit([elsewhere]);
    // A signature changed after it was made is neither made here nor valid.
    const t = payFrom(d, 2, 14n);
    const forged = { txn: t, sig: d.sign(t).sig!.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    rejects(() => d.ledger.submit([forged]), 'signature', /didn't pass verification/);
  });

  it('a good signature does not excuse a second kind of signature material', () => {
    const d = devnet();
    const signed = d.sign(payFrom(d, 0, 11n));
    d.ledger.dryEvaluate([signed], {}); // verified and remembered
    const meta = { version: 1, threshold: 1, addrs: [d.addr(0), d.addr(1)] };
    const both = { ...signed, msig: signMultisigTransaction(signed.txn, meta, d.keys[1]!).msig! };
    rejects(() => d.ledger.submit([both]), 'signature', /should only have one of Sig or Msig or LogicSig/);
    d.ledger.submit([signed]);
  });
});

describe('ledger: multisig and logic signature authorization', () => {
  it('accepts a 2-of-3 multisig payment and rejects one signature short', () => {
    const d = devnet();
    const meta = { version: 1, threshold: 2, addrs: [d.addr(0), d.addr(1), d.addr(2)] };
    const msig = multisigAddress(meta);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: msig, amount: 5n * ALGO, suggestedParams: d.sp() })]);
    const t = makePaymentTxn({ sender: msig, receiver: d.addr(3), amount: ALGO, suggestedParams: d.sp() });
    const one = signMultisigTransaction(t, meta, d.keys[0]!);
    rejects(() => d.ledger.submit([one]), 'signature', /didn't pass verification/);
    const two = appendSignMultisigTransaction(one, meta, d.keys[2]!);
    d.ledger.submit([two]);
    assert.equal(d.ledger.balance(msig), 4n * ALGO - 1000n);
  });

  it('runs an escrow logic signature (approve and reject)', () => {
    const d = devnet();
    const program = teal('#pragma version 10\narg 0\nbyte "open"\n==');
    const escrow = logicSigAddress(program);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: escrow, amount: 2n * ALGO, suggestedParams: d.sp() })]);
    const t = makePaymentTxn({ sender: escrow, receiver: d.addr(1), amount: ALGO, suggestedParams: d.sp() });
    d.ledger.submit([{ txn: t, lsig: makeLogicSig(program, [new TextEncoder().encode('open')]) }]);
    assert.equal(d.ledger.balance(escrow), ALGO - 1000n);
    const t2 = makePaymentTxn({ sender: escrow, receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    rejects(() => d.ledger.submit([{ txn: t2, lsig: makeLogicSig(program, [new TextEncoder().encode('shut')]) }]), 'logic', /rejected by logic/);
    // A program that is not the sender's escrow cannot sign for it.
    const other = teal('#pragma version 10\nint 1');
    rejects(() => d.ledger.submit([{ txn: t2, lsig: makeLogicSig(other) }]), 'signature', /LogicNot signed and not a Logic-only account/);
  });

  it('accepts delegated logic signatures (single key and lmsig)', () => {
    const d = devnet();
    const program = teal('#pragma version 10\ntxn Amount\nint 1000\n<=');
    const lsig = delegateLogicSig(makeLogicSig(program), d.keys[0]!);
    d.ledger.submit([{ txn: makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1000n, suggestedParams: d.sp() }), lsig }]);
    rejects(
      () => d.ledger.submit([{ txn: makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1001n, suggestedParams: d.sp() }), lsig }]),
      'logic',
      /rejected by logic/,
    );
    const forged = delegateLogicSig(makeLogicSig(program), d.keys[1]!);
    rejects(
      () => d.ledger.submit([{ txn: makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 5n, suggestedParams: d.sp() }), lsig: forged }]),
      'signature',
      /didn't pass verification/,
    );
    const meta = { version: 1, threshold: 2, addrs: [d.addr(1), d.addr(2)] };
    const msig = multisigAddress(meta);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: msig, amount: ALGO, suggestedParams: d.sp() })]);
    let ml = delegateLogicSigMultisig(makeLogicSig(program), meta, d.keys[1]!);
    ml = delegateLogicSigMultisig(ml, meta, d.keys[2]!);
    d.ledger.submit([{ txn: makePaymentTxn({ sender: msig, receiver: d.addr(3), amount: 500n, suggestedParams: d.sp() }), lsig: ml }]);
    assert.equal(d.ledger.balance(msig), ALGO - 1500n);
  });

  it('authorizes a rekeyed account by a multisig and by a logic signature', () => {
    const d = devnet();
    const meta = { version: 1, threshold: 1, addrs: [d.addr(2), d.addr(3)] };
    const msig = multisigAddress(meta);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(0), amount: 0n, rekeyTo: msig, suggestedParams: d.sp() })]);
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 10n, suggestedParams: d.sp() });
    const signed = signMultisigTransaction(t, meta, d.keys[3]!);
    assert.ok(signed.authAddress?.equals(msig));
    d.ledger.submit([signed]);
    // Rekey on to a program's escrow address; the program then signs with sgnr set.
    const program = teal('#pragma version 10\nint 1');
    const escrow = logicSigAddress(program);
    d.ledger.submit([
      signMultisigTransaction(
        makePaymentTxn({ sender: d.addr(0), receiver: d.addr(0), amount: 0n, rekeyTo: escrow, suggestedParams: d.sp() }),
        meta,
        d.keys[2]!,
      ),
    ]);
    const t2 = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 11n, suggestedParams: d.sp() });
    d.ledger.submit([{ txn: t2, lsig: makeLogicSig(program), authAddress: escrow }]);
    assert.equal(d.ledger.balance(d.addr(1)), 100n * ALGO + 21n);
    // Without sgnr the program claims its own escrow as sender, which is not the sender.
    const t3 = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 12n, suggestedParams: d.sp() });
    rejects(() => d.ledger.submit([{ txn: t3, lsig: makeLogicSig(program) }]), 'signature', /LogicNot signed and not a Logic-only account/);
  });

  it('rejects v13 escrow programs whose hash is on the curve unless the check is skipped', () => {
    const d = devnet();
    // Salts 0 and 1 of this program are on the curve (protocol.md §1.10 vector).
    const program = new Uint8Array([0x0d, 0x20, 0x01, 0x00, 0x22, 0x20, 0x01, 0x00]);
    assert.ok(programHashIsOnCurve(program));
    const escrow = logicSigAddress(program);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: escrow, amount: 2n * ALGO, suggestedParams: d.sp() })]);
    const t = makePaymentTxn({ sender: escrow, receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    rejects(() => d.ledger.submit([{ txn: t, lsig: makeLogicSig(program) }]), 'signature', /TEAL v13 LogicSig program hash is an Edwards25519 point/);
    // Skipping the check lets the program run (it leaves 0 on the stack, so it then rejects).
    rejects(() => d.ledger.submit([{ txn: t, lsig: makeLogicSig(program) }], { skipPqAddressCheck: true }), 'logic', /rejected by logic/);
  });
});
