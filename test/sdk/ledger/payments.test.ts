import { strict as assert } from 'node:assert';
import { makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { encodeSignedTransactions } from '../../../sdk/src/txn/encode.js';
import { LedgerRejection } from '../../../sdk/src/ledger/index.js';
import { ALGO, devnet } from './fixture.js';

function rejects(fn: () => unknown, kind: string, text: RegExp): LedgerRejection {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LedgerRejection, `expected a LedgerRejection, got ${e}`);
    assert.equal(e.kind, kind, e.message);
    assert.match(e.message, text);
    return e;
  }
  assert.fail('expected a rejection');
}

describe('ledger: payments', () => {
  it('moves funds, charges the fee to the fee sink and confirms in a new round', () => {
    const d = devnet();
    const sink = d.ledger.balance(d.ledger.feeSink);
    const r = d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 5n * ALGO, suggestedParams: d.sp() })]);
    assert.equal(r.round, 1n);
    assert.equal(d.ledger.latestRound, 1n);
    assert.equal(d.ledger.balance(d.addr(0)), 95n * ALGO - 1000n);
    assert.equal(d.ledger.balance(d.addr(1)), 105n * ALGO);
    assert.equal(d.ledger.balance(d.ledger.feeSink), sink + 1000n);
    const c = d.ledger.transaction(r.txids[0]!)!;
    assert.equal(c.round, 1n);
    assert.equal(d.ledger.block(1n).txns.length, 1);
    assert.equal(d.ledger.block(1n).header.feesCollected, 1000n);
  });

  it('rejects overspending with the node wording and changes nothing', () => {
    const d = devnet();
    const before = d.ledger.stateHash();
    rejects(
      () => d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 200n * ALGO, suggestedParams: d.sp() })]),
      'overspend',
      /overspend \(account [A-Z2-7]{58}, data \{AccountBaseData:\{Status:Offline MicroAlgos:99\.999000A RewardsBase:0 RewardedMicroAlgos:0\.0A AuthAddr:A{52}Y5HFKQ IncentiveEligible:false TotalAppSchema:\{NumUint:0 NumByteSlice:0\} .* VoteKeyDilution:0\}\}, tried to spend 200A\)/,
    );
    assert.deepEqual(d.ledger.stateHash(), before);
    assert.equal(d.ledger.latestRound, 0n);
  });

  it('enforces the minimum balance of a new account and of the sender', () => {
    const d = devnet();
    const newAcct = new Uint8Array(32).fill(9);
    rejects(
      () => d.send([makePaymentTxn({ sender: d.addr(0), receiver: newAcct, amount: 99_999n, suggestedParams: d.sp() })]),
      'below-min',
      /balance 99999 below min 100000 \(0 assets\)/,
    );
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: newAcct, amount: 100_000n, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.balance(newAcct), 100_000n);
    rejects(
      () => d.send([makePaymentTxn({ sender: d.addr(1), receiver: d.addr(2), amount: 100n * ALGO - 1000n - 50_000n, suggestedParams: d.sp() })]),
      'below-min',
      /below min 100000/,
    );
  });

  it('closes an account: remainder to the close address, record deleted, closing amount recorded', () => {
    const d = devnet();
    const r = d.send([makePaymentTxn({ sender: d.addr(2), receiver: d.addr(0), amount: ALGO, closeRemainderTo: d.addr(1), suggestedParams: d.sp() })]);
    assert.equal(d.ledger.account(d.addr(2)), undefined);
    assert.equal(d.ledger.balance(d.addr(1)), 100n * ALGO + 99n * ALGO - 1000n);
    assert.equal(d.ledger.transaction(r.txids[0]!)!.ad.closingAmount, 99n * ALGO - 1000n);
  });

  it('checks validity windows, window size and genesis', () => {
    const d = devnet();
    const pay = (sp: object) => makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp(sp), validate: false });
    rejects(() => d.send([pay({ firstValid: 5n, lastValid: 10n })]), 'txn-dead', /txn dead: round 1 outside of 5--10/);
    d.send([pay({ firstValid: 0n, lastValid: 1n, note: 'a' })]);
    rejects(() => d.send([pay({ firstValid: 0n, lastValid: 1n })]), 'txn-dead', /txn dead: round 2 outside of 0--1/);
    rejects(() => d.send([pay({ firstValid: 1n, lastValid: 1002n })]), 'malformed', /transaction window size excessive/);
    rejects(() => d.send([pay({ genesisId: 'mainnet-v1.0' })]), 'genesis', /GenesisID <mainnet-v1.0> does not match expected <tealworks-devnet-v1>/);
    rejects(
      () => d.send([pay({ genesisHash: new Uint8Array(32).fill(1) })]),
      'genesis',
      /tx.GenesisHash <AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ> does not match expected/,
    );
    // The fee sink may only pay the rewards pool.
    rejects(
      () => d.ledger.submit([{ txn: makePaymentTxn({ sender: d.ledger.feeSink, receiver: d.addr(0), amount: 1n, suggestedParams: d.sp() }) }]),
      'malformed',
      /cannot spend from fee sink/,
    );
  });

  it('rejects a duplicate transaction and a reused lease', () => {
    const d = devnet();
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const r = d.send([t]);
    rejects(() => d.send([t]), 'duplicate', new RegExp(`transaction already in ledger: ${r.txids[0]}`));
    const lease = new Uint8Array(32).fill(7);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 2n, lease, suggestedParams: d.sp() })]);
    rejects(
      () => d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 3n, lease, suggestedParams: d.sp() })]),
      'lease',
      /using an overlapping lease/,
    );
    // Two transactions of one group may not share a lease either.
    const l2 = new Uint8Array(32).fill(8);
    rejects(
      () =>
        d.send([
          makePaymentTxn({ sender: d.addr(2), receiver: d.addr(1), amount: 1n, lease: l2, suggestedParams: d.sp() }),
          makePaymentTxn({ sender: d.addr(2), receiver: d.addr(1), amount: 2n, lease: l2, suggestedParams: d.sp() }),
        ]),
      'lease',
      /overlapping lease/,
    );
    // Another sender may use the same lease value.
    d.send([makePaymentTxn({ sender: d.addr(1), receiver: d.addr(0), amount: 3n, lease, suggestedParams: d.sp() })]);
  });

  it('pools fees across a group and rejects a group paying too little', () => {
    const d = devnet();
    const a = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp({ fee: 2000n }) });
    const b = makePaymentTxn({ sender: d.addr(1), receiver: d.addr(0), amount: 1n, suggestedParams: d.sp({ fee: 0n }) });
    d.send([a, b]);
    assert.equal(d.ledger.balance(d.addr(1)), 100n * ALGO);
    const c = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 2n, suggestedParams: d.sp({ fee: 1000n }) });
    const e = makePaymentTxn({ sender: d.addr(1), receiver: d.addr(0), amount: 2n, suggestedParams: d.sp({ fee: 999n }) });
    rejects(() => d.send([c, e]), 'fee', /txgroup with 1\.999mA fees is less than 2mA \(usage=2\.000000 \* base=1mA\)/);
    rejects(
      () => d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp({ fee: 0n }) })]),
      'fee',
      /txgroup with 0\.0A fees is less than 1mA \(usage=1\.000000 \* base=1mA\)/,
    );
  });

  it('applies a group atomically: a failing second transaction undoes the first', () => {
    const d = devnet();
    const before = d.ledger.stateHash();
    const ok = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: ALGO, suggestedParams: d.sp() });
    const bad = makePaymentTxn({ sender: d.addr(2), receiver: d.addr(1), amount: 1000n * ALGO, suggestedParams: d.sp() });
    const e = rejects(() => d.send([ok, bad]), 'overspend', /overspend/);
    assert.deepEqual(e.path, [1]);
    assert.deepEqual(d.ledger.stateHash(), before);
    assert.equal(d.ledger.balance(d.addr(0)), 100n * ALGO);
    // The first transaction alone is still new to the ledger.
    d.send([ok]);
  });

  it('checks group ids', () => {
    const d = devnet();
    const a = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const b = makePaymentTxn({ sender: d.addr(1), receiver: d.addr(0), amount: 1n, suggestedParams: d.sp() });
    rejects(() => d.ledger.submit([d.sign(a), d.sign(b)]), 'group', /had zero Group/);
  });

  it('rekeys, then requires the new key', () => {
    const d = devnet();
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(0), amount: 0n, rekeyTo: d.addr(3), suggestedParams: d.sp() })]);
    assert.deepEqual(d.ledger.account(d.addr(0))!.authAddr, d.addr(3).publicKey);
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    rejects(() => d.send([t]), 'signature', new RegExp(`should have been authorized by ${d.addr(3)} but was actually authorized by ${d.addr(0)}`));
    d.send([t], [d.keys[3]]);
    // Rekey back to itself clears the auth address.
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(0), amount: 0n, rekeyTo: d.addr(0), suggestedParams: d.sp() })], [d.keys[3]]);
    assert.equal(d.ledger.account(d.addr(0))!.authAddr, undefined);
  });

  it('rejects a bad signature', () => {
    const d = devnet();
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const s = d.sign(t);
    const sig = s.sig!.slice();
    sig[0]! ^= 1;
    rejects(() => d.ledger.submit([{ ...s, sig }]), 'signature', /didn't pass verification/);
    rejects(() => d.ledger.submit([{ txn: t }]), 'signature', /has no sig/);
  });

  it('accepts raw concatenated signed transactions and publishes blocks on the change feed', () => {
    const d = devnet();
    const events: bigint[] = [];
    d.ledger.onBlock((e) => events.push(e.block.header.round));
    const t = makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() });
    const r = d.ledger.submit(encodeSignedTransactions([d.sign(t)]));
    assert.equal(r.round, 1n);
    assert.deepEqual(events, [1n]);
    const delta = d.ledger.delta(1n);
    assert.equal(delta.txids[0]!.txid, r.txids[0]);
    assert.ok(delta.accounts.some((a) => a.address.every((b, i) => b === d.addr(1).publicKey[i])));
  });
});

describe('ledger: transactions built by algosdk', () => {
  it('accepts a payment group built and signed by algosdk, as raw bytes', async () => {
    const algosdk = (await import('algosdk')).default;
    const d = devnet();
    const sk = new Uint8Array(64);
    sk.set(d.keys[0]!.seed);
    sk.set(d.keys[0]!.publicKey, 32);
    const suggestedParams = {
      fee: 1000,
      flatFee: true,
      minFee: 1000,
      firstValid: 0,
      lastValid: 1000,
      genesisID: d.ledger.genesisId,
      genesisHash: d.ledger.genesisHash,
    };
    const a = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: d.addr(0).toString(),
      receiver: d.addr(1).toString(),
      amount: 12345,
      suggestedParams,
    });
    const b = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: d.addr(0).toString(),
      receiver: d.addr(2).toString(),
      amount: 54321,
      note: new TextEncoder().encode('x'),
      suggestedParams,
    });
    algosdk.assignGroupID([a, b]);
    const blobA = a.signTxn(sk);
    const blobB = b.signTxn(sk);
    const raw = new Uint8Array(blobA.length + blobB.length);
    raw.set(blobA);
    raw.set(blobB, blobA.length);
    const r = d.ledger.submit(raw);
    assert.deepEqual(r.txids, [a.txID(), b.txID()]);
    assert.equal(d.ledger.balance(d.addr(1)), 100n * ALGO + 12345n);
    assert.equal(d.ledger.balance(d.addr(2)), 100n * ALGO + 54321n);
  });
});
