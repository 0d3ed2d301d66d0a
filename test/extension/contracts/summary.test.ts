import assert from 'node:assert/strict';
import { confirmationText, formatAmount, formatBalance, summarizeGroup, walletDescription } from '../../../extension/src/contracts/summary.js';
import { makeAppCallTxn, makeAssetTransferTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { OnComplete } from '../../../sdk/src/txn/types.js';

const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const B = 'OKSDOCOXVGMBXQ5TP5YA4VWTZWZJLJP3OMIILPHMHGHURUFE2Q3JP62QNU';
const suggestedParams = { fee: 1000n, flatFee: true, firstValid: 1n, lastValid: 100n, genesisHash: new Uint8Array(32) };

describe('extension contracts: confirmation summary', () => {
  it('formats micro-units as whole units', () => {
    assert.equal(formatAmount(0n), '0');
    assert.equal(formatAmount(1_500_000n), '1.5');
    assert.equal(formatAmount(1n), '0.000001');
    assert.equal(formatAmount(18_446_744_073_709_551_615n), '18446744073709.551615');
  });

  it('lists amounts, receivers, fees, app ids and totals per sender', () => {
    const txns = [
      makePaymentTxn({ sender: A, receiver: B, amount: 2_000_000n, suggestedParams }),
      makeAppCallTxn({ sender: A, appId: 1001n, onComplete: OnComplete.DeleteApplication, suggestedParams: { ...suggestedParams, fee: 3000n } }),
      makeAssetTransferTxn({ sender: B, receiver: A, assetId: 77n, amount: 5n, suggestedParams }),
    ];
    const s = summarizeGroup(txns);
    assert.equal(s.totalFees, 5000n);
    assert.deepEqual(s.appIds, [1001n]);
    assert.equal(s.spentBySender.get(A), 2_004_000n);
    assert.equal(s.spentBySender.get(B), 1000n);
    assert.match(s.lines[0]!, /pay 2 ALGO to OKSDOC…2QNU; fee 0\.001 ALGO/);
    assert.match(s.lines[1]!, /call app 1001 \(DeleteApplication\); fee 0\.003/);
    assert.match(s.lines[2]!, /transfer 5 of asset 77 to CUD246…YB4M/);
    const text = confirmationText('testnet', txns);
    assert.match(text, /^Send 3 transactions to testnet\?/);
    assert.match(text, /Total fees: 0\.005 ALGO/);
  });

  it('writes balances with thousands separators and the unit', () => {
    assert.equal(formatBalance(1_234_567_890_000n), '1,234,567.89 ALGO');
    assert.equal(formatBalance(0n), '0 ALGO');
    assert.equal(formatBalance(999_999n), '0.999999 ALGO');
    assert.equal(formatBalance(1_000_000_000_000_000n), '1,000,000,000 ALGO');
  });

  it('says what a wallet is and what expanding it does (never "locked" for the devnet wallet that opens by itself)', () => {
    assert.deepEqual(walletDescription({ open: false, noPassword: true }).description, 'expand to open (no password to type)');
    assert.equal(walletDescription({ open: false, noPassword: false }).description, 'closed · expand to enter its password');
    assert.equal(walletDescription({ open: true, accounts: 4, noPassword: true }).description, 'open · 4 accounts');
    assert.equal(walletDescription({ open: true, accounts: 1, noPassword: false }).description, 'open · 1 account');
  });
});
