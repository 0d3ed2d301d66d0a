import { strict as assert } from 'node:assert';
import {
  makeAssetConfigTxn,
  makeAssetCreateTxn,
  makeAssetDestroyTxn,
  makeAssetFreezeTxn,
  makeAssetOptInTxn,
  makeAssetTransferTxn,
  makePaymentTxn,
} from '../../../sdk/src/txn/builders.js';
import { LedgerRejection } from '../../../sdk/src/ledger/index.js';
import { devnet, type Devnet } from './fixture.js';

function rejects(fn: () => unknown, kind: string, text: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof LedgerRejection && e.kind === kind && text.test(e.message));
}

function create(d: Devnet, extra: object = {}): bigint {
  const r = d.send([
    makeAssetCreateTxn({
      sender: d.addr(0),
      total: 1000n,
      decimals: 0,
      assetName: 'Tok',
      unitName: 'TK',
      manager: d.addr(0),
      reserve: d.addr(0),
      freeze: d.addr(0),
      clawback: d.addr(0),
      suggestedParams: d.sp(),
      ...extra,
    }),
  ]);
  const id = d.ledger.transaction(r.txids[0]!)!.ad.createdAssetId!;
  assert.ok(id > 1000n);
  return id;
}

describe('ledger: assets', () => {
  it('creates an asset: params, creator holding, ids from the txn counter, min balance', () => {
    const d = devnet();
    const id = create(d);
    assert.equal(id, 1001n);
    const a = d.ledger.asset(id)!;
    assert.equal(a.total, 1000n);
    assert.equal(new TextDecoder().decode(a.name), 'Tok');
    assert.deepEqual(d.ledger.assetHolding(d.addr(0), id), { amount: 1000n, frozen: false });
    assert.equal(d.ledger.minBalance(d.addr(0)), 200_000n);
    assert.equal(create(d), 1002n);
  });

  it('requires opt-in, transfers, and enforces the holding min balance', () => {
    const d = devnet();
    const id = create(d);
    rejects(
      () => d.send([makeAssetTransferTxn({ sender: d.addr(0), receiver: d.addr(1), assetId: id, amount: 5n, suggestedParams: d.sp() })]),
      'asset',
      /receiver error: must optin, asset \d+ missing from/,
    );
    d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId: id, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.minBalance(d.addr(1)), 200_000n);
    d.send([makeAssetTransferTxn({ sender: d.addr(0), receiver: d.addr(1), assetId: id, amount: 5n, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.assetHolding(d.addr(1), id)!.amount, 5n);
    rejects(
      () => d.send([makeAssetTransferTxn({ sender: d.addr(1), receiver: d.addr(0), assetId: id, amount: 6n, suggestedParams: d.sp() })]),
      'asset',
      /underflow on subtracting 6 from sender amount 5/,
    );
    rejects(() => d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId: 999_999n, suggestedParams: d.sp() })]), 'asset', /does not exist/);
  });

  it('freezes and claws back', () => {
    const d = devnet();
    const id = create(d);
    d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId: id, suggestedParams: d.sp() })]);
    d.send([makeAssetTransferTxn({ sender: d.addr(0), receiver: d.addr(1), assetId: id, amount: 10n, suggestedParams: d.sp() })]);
    rejects(
      () => d.send([makeAssetFreezeTxn({ sender: d.addr(1), assetId: id, freezeTarget: d.addr(1), frozen: true, suggestedParams: d.sp() })]),
      'asset',
      /freeze not allowed/,
    );
    d.send([makeAssetFreezeTxn({ sender: d.addr(0), assetId: id, freezeTarget: d.addr(1), frozen: true, suggestedParams: d.sp() })]);
    rejects(
      () => d.send([makeAssetTransferTxn({ sender: d.addr(1), receiver: d.addr(0), assetId: id, amount: 1n, suggestedParams: d.sp() })]),
      'asset',
      /frozen in/,
    );
    // Clawback ignores freezing.
    d.send([makeAssetTransferTxn({ sender: d.addr(0), assetSender: d.addr(1), receiver: d.addr(0), assetId: id, amount: 4n, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.assetHolding(d.addr(1), id)!.amount, 6n);
    rejects(
      () =>
        d.send([makeAssetTransferTxn({ sender: d.addr(2), assetSender: d.addr(1), receiver: d.addr(2), assetId: id, amount: 1n, suggestedParams: d.sp() })]),
      'asset',
      /clawback not allowed/,
    );
  });

  it('closes out a holding, reconfigures and destroys', () => {
    const d = devnet();
    const id = create(d);
    d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId: id, suggestedParams: d.sp() })]);
    d.send([makeAssetTransferTxn({ sender: d.addr(0), receiver: d.addr(1), assetId: id, amount: 10n, suggestedParams: d.sp() })]);
    rejects(() => d.send([makeAssetDestroyTxn({ sender: d.addr(0), assetId: id, suggestedParams: d.sp() })]), 'asset', /creator is holding only 990\/1000/);
    const r = d.send([
      makeAssetTransferTxn({ sender: d.addr(1), receiver: d.addr(0), closeRemainderTo: d.addr(0), assetId: id, amount: 3n, suggestedParams: d.sp() }),
    ]);
    assert.equal(d.ledger.transaction(r.txids[0]!)!.ad.assetClosingAmount, 7n);
    assert.equal(d.ledger.assetHolding(d.addr(1), id), undefined);
    assert.equal(d.ledger.minBalance(d.addr(1)), 100_000n);
    rejects(
      () => d.send([makeAssetConfigTxn({ sender: d.addr(1), assetId: id, manager: d.addr(1), suggestedParams: d.sp() })]),
      'asset',
      /should be issued by the manager/,
    );
    d.send([makeAssetConfigTxn({ sender: d.addr(0), assetId: id, manager: d.addr(2), reserve: d.addr(0), suggestedParams: d.sp() })]);
    assert.deepEqual(d.ledger.asset(id)!.manager, d.addr(2).publicKey);
    assert.ok(d.ledger.asset(id)!.freeze.every((b) => b === 0));
    d.send([makeAssetDestroyTxn({ sender: d.addr(2), assetId: id, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.asset(id), undefined);
    const gone = d.ledger.delta(d.ledger.latestRound).assetParams[0]!;
    assert.equal(gone.params, undefined);
    assert.deepEqual(gone.creator, d.addr(0).publicKey);
    assert.equal(d.ledger.assetHolding(d.addr(0), id), undefined);
    assert.equal(d.ledger.minBalance(d.addr(0)), 100_000n);
  });

  it('will not close an account that still holds assets; default-frozen opt-ins start frozen', () => {
    const d = devnet();
    const id = create(d, { defaultFrozen: true });
    d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId: id, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.assetHolding(d.addr(1), id)!.frozen, true);
    assert.throws(
      () => d.send([makePaymentTxn({ sender: d.addr(1), receiver: d.addr(0), amount: 0n, closeRemainderTo: d.addr(0), suggestedParams: d.sp() })]),
      /cannot close: 1 outstanding assets/,
    );
  });

  it('keeps cleared role addresses cleared and lets zero transfers through without holdings', () => {
    const d = devnet();
    const id = create(d, { clawback: undefined });
    d.send([makeAssetConfigTxn({ sender: d.addr(0), assetId: id, manager: d.addr(0), clawback: d.addr(1), suggestedParams: d.sp() })]);
    assert.ok(d.ledger.asset(id)!.clawback.every((b) => b === 0));
    // Moving zero units needs no opt-in on either side.
    d.send([makeAssetTransferTxn({ sender: d.addr(2), receiver: d.addr(3), assetId: id, amount: 0n, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.assetHolding(d.addr(3), id), undefined);
  });
});
