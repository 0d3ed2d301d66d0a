import assert from 'node:assert/strict';
import { fromBase64, toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { sha512_256 } from '../../../sdk/src/crypto/hash.js';
import {
  OnComplete,
  assignGroupId,
  encodeSignedTransaction,
  makeAppCallTxn,
  makePaymentTxn,
  signTransaction,
  type SuggestedParams,
  type Transaction,
} from '../../../sdk/src/txn/index.js';
import { keyFromMnemonic, outline, readResource, requireFixtures } from './fixtures.js';

/**
 * The transaction-building half of atomic_transaction_composer.feature: the app-call arguments are
 * given pre-encoded, so what is checked here is the selector, argument layout, grouping, signing
 * (including sgnr for foreign senders) and bytes. Rows whose arguments are reference types or need
 * ARC-4 tuple packing (16+ arguments) are ABI-layer work and are not exercised here.
 */

const SENDER = 'BH55E5RMBD4GYWXGX5W5PJ5JAHPGM5OXKDQH5DC4O2MGI7NW4H6VOE4CP4';
const MNEMONIC =
  'awful drop leaf tennis indoor begin mandate discover uncle seven only coil atom any hospital uncover make any climb actor armed measure need above hundred';
const sp: SuggestedParams = {
  fee: 1234,
  flatFee: true,
  firstValid: 9000,
  lastValid: 9010,
  genesisHash: 'Mf0h6zjkEIEZPtNM3zsrg+iHQFS0fZxhgr7w35I464M=',
  genesisId: 'cucumbernet',
};
const OC: Record<string, OnComplete> = {
  noop: OnComplete.NoOp,
  optin: OnComplete.OptIn,
  closeout: OnComplete.CloseOut,
  delete: OnComplete.DeleteApplication,
  update: OnComplete.UpdateApplication,
};

function selector(signature: string): Uint8Array {
  return sha512_256(utf8(signature)).slice(0, 4);
}

function encodedArgs(cell: string): Uint8Array[] {
  return cell ? cell.split(',').map((a) => fromBase64(a)) : [];
}

function methodCall(
  appId: number,
  signature: string,
  args: Uint8Array[],
  onComplete = OnComplete.NoOp,
  extra: Partial<Parameters<typeof makeAppCallTxn>[0]> = {},
): Transaction {
  return makeAppCallTxn({ sender: SENDER, appId, onComplete, args: [selector(signature), ...args], suggestedParams: sp, ...extra });
}

function pay(sender: string, receiver: string, amount: number): Transaction {
  return makePaymentTxn({ sender, receiver, amount, suggestedParams: sp });
}

/** Groups when more than one transaction, then signs every one with the signing account. */
function signedGroup(txns: Transaction[]): string {
  const key = keyFromMnemonic(MNEMONIC);
  const grouped = txns.length > 1 ? assignGroupId(txns) : txns;
  return grouped.map((t) => toBase64(encodeSignedTransaction(signTransaction(t, key)))).join(',');
}

describe('txn: atomic_transaction_composer.feature (transaction building)', function () {
  before(function () {
    requireFixtures(this);
  });

  it('Method call construction and signing (value-type rows)', function () {
    requireFixtures(this);
    let checked = 0;
    for (const row of outline('atomic_transaction_composer.feature', 'Method call construction and signing').examples) {
      const sig = row['method-signature']!;
      if (/\b(account|application|asset)\b/.test(sig) || sig.split(',').length > 15) continue;
      assert.equal(signedGroup([methodCall(Number(row['app-id']), sig, encodedArgs(row['app-args']!))]), row['goldens'], sig);
      checked++;
    }
    assert.equal(checked, 4);
  });

  it('Method call creation construction and signing (programs, schemas, extra pages)', function () {
    requireFixtures(this);
    const rows = outline('atomic_transaction_composer.feature', 'Method call creation construction and signing').examples;
    for (const row of rows) {
      const txn = methodCall(0, 'create(uint64)uint64', encodedArgs('AAAAAAAAAAQ='), OC[row['on-complete']!]!, {
        approvalProgram: readResource('programs/zero.teal.tok'),
        clearProgram: readResource('programs/one.teal.tok'),
        globalSchema: { numByteSlices: 2, numUints: 3 },
        localSchema: { numByteSlices: 4, numUints: 5 },
        extraPages: 1,
      });
      assert.equal(signedGroup([txn]), row['goldens'], row['on-complete']);
    }
    assert.equal(rows.length, 4);
  });

  it('Method call with pay txn construction and signing (group of two)', function () {
    requireFixtures(this);
    for (const row of outline('atomic_transaction_composer.feature', 'Method call with pay txn construction and signing').examples) {
      const txns = [pay(SENDER, SENDER, 100001), methodCall(Number(row['app-id']), row['method-signature']!, encodedArgs(row['app-args']!))];
      assert.equal(signedGroup(txns), row['goldens'], row['method-signature']);
    }
  });

  it('Method call with multiple pay txns: foreign senders signed by the signing account carry sgnr', function () {
    requireFixtures(this);
    for (const row of outline('atomic_transaction_composer.feature', 'Method call with multiple pay txns construction and signing').examples) {
      const txns = [
        pay('5WSFXNXLZGIRSSY6R4UGMHJSHKKW3NDZ2WXCOXZVG5HMQ4P7HN4PGLD7LY', 'EJMBXTBD4BO27OC3OFFMX4D4WF5LMZROBE6X4QSW5I7VSM74KZHVUWKOAA', 100000),
        makePaymentTxn({
          sender: 'EJMBXTBD4BO27OC3OFFMX4D4WF5LMZROBE6X4QSW5I7VSM74KZHVUWKOAA',
          receiver: '5WSFXNXLZGIRSSY6R4UGMHJSHKKW3NDZ2WXCOXZVG5HMQ4P7HN4PGLD7LY',
          amount: 200000,
          closeRemainderTo: 'IO4SUZWSUQZBKIC4PMJJXSZS53IBD3LED75OT5W32HSHC3JASJKQNLUQDY',
          suggestedParams: sp,
        }),
        methodCall(Number(row['app-id']), row['method-signature']!, [...encodedArgs(row['app-args-part-1']!), ...encodedArgs(row['app-args-part-2']!)]),
      ];
      assert.equal(signedGroup(txns), row['goldens'], row['method-signature']);
    }
  });

  it('Multiple method calls construction and signing (group of five)', function () {
    requireFixtures(this);
    const o = outline('atomic_transaction_composer.feature', 'Multiple method calls construction and signing');
    const golden = o.steps.find((s) => s.includes('signed transactions should equal'))!.match(/"([^"]+)"/)![1]!;
    const txns = [
      methodCall(5, 'optIn(string)string', encodedArgs('AAxBbGdvcmFuZCBGYW4='), OnComplete.OptIn),
      pay(SENDER, SENDER, 1234567),
      methodCall(5, 'payment(pay,uint64)bool', encodedArgs('AAAAAAAS1oc=')),
      methodCall(5, 'add(uint64,uint64)uint64', encodedArgs('AAAAAAAAAAE=,AAAAAAAAAAI=')),
      methodCall(5, 'closeOut()string', [], OnComplete.CloseOut),
    ];
    assert.equal(signedGroup(txns), golden);
  });
});
