import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { makeAppCallTxn, makePaymentTxn, makeAssetOptInTxn, makeAssetCreateTxn, makeAssetTransferTxn } from '../../../sdk/src/txn/builders.js';
import { ALGO, devnet, teal, type Devnet } from './fixture.js';

const FACTORY = `#pragma version 10
txn ApplicationID
bz ok
txna ApplicationArgs 0
byte "asset"
==
bnz asset
txna ApplicationArgs 0
byte "app"
==
bnz app
txna ApplicationArgs 0
byte "send"
==
bnz send
txna ApplicationArgs 0
byte "optin"
==
bnz optin
err
optin:
itxn_begin
int axfer
itxn_field TypeEnum
txna Assets 0
itxn_field XferAsset
global CurrentApplicationAddress
itxn_field AssetReceiver
itxn_submit
b ok
asset:
itxn_begin
int acfg
itxn_field TypeEnum
int 100
itxn_field ConfigAssetTotal
byte "FX"
itxn_field ConfigAssetUnitName
global CurrentApplicationAddress
itxn_field ConfigAssetManager
itxn_submit
itxn CreatedAssetID
itob
log
b ok
app:
itxn_begin
int appl
itxn_field TypeEnum
byte 0x0a8101
itxn_field ApprovalProgram
byte 0x0a8101
itxn_field ClearStateProgram
itxn_submit
itxn CreatedApplicationID
itob
log
b ok
send:
itxn_begin
int axfer
itxn_field TypeEnum
txna Assets 0
itxn_field XferAsset
txn Sender
itxn_field AssetReceiver
int 10
itxn_field AssetAmount
txn Sender
itxn_field AssetCloseTo
itxn_submit
ok:
int 1
`;

function setup(d: Devnet): { app: bigint; appAddr: Address } {
  const r = d.send([
    makeAppCallTxn({ sender: d.addr(0), appId: 0n, approvalProgram: teal(FACTORY), clearProgram: teal('#pragma version 10\nint 1'), suggestedParams: d.sp() }),
  ]);
  const app = d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
  return { app, appAddr: Address.forApp(app) };
}

const btoi = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);

describe('ledger: inner transactions', () => {
  it('funds the app and calls it in one group; fee credit pays for the inner transaction', () => {
    const d = devnet();
    const { app, appAddr } = setup(d);
    const fund = makePaymentTxn({ sender: d.addr(1), receiver: appAddr, amount: ALGO, suggestedParams: d.sp({ fee: 3000n }) });
    const call = makeAppCallTxn({ sender: d.addr(1), appId: app, args: [utf8('asset')], suggestedParams: d.sp({ fee: 0n }) });
    const r = d.send([fund, call]);
    const ad = d.ledger.transaction(r.txids[1]!)!.ad;
    const assetId = btoi(ad.logs[0]!);
    assert.equal(ad.inner[0]!.ad.createdAssetId, assetId);
    assert.equal(d.ledger.asset(assetId)!.total, 100n);
    assert.deepEqual(d.ledger.asset(assetId)!.creator, appAddr.publicKey);
    // The inner fee came out of the group's credit: the app account only lost nothing.
    assert.equal(d.ledger.balance(appAddr), ALGO);
    assert.equal(d.ledger.minBalance(appAddr), 200_000n);
    // Ids keep counting across inner transactions.
    assert.equal(assetId, app + 3n);
  });

  it('creates an app from an app and records the inner asset closing amount', () => {
    const d = devnet();
    const { app, appAddr } = setup(d);
    d.send([makePaymentTxn({ sender: d.addr(1), receiver: appAddr, amount: ALGO, suggestedParams: d.sp() })]);
    const r = d.send([makeAppCallTxn({ sender: d.addr(1), appId: app, args: [utf8('app')], suggestedParams: d.sp({ fee: 2000n }) })]);
    const created = btoi(d.ledger.transaction(r.txids[0]!)!.ad.logs[0]!);
    assert.deepEqual(d.ledger.app(created)!.creator, appAddr.publicKey);
    const r2 = d.send([makeAppCallTxn({ sender: d.addr(1), appId: app, args: [utf8('asset')], suggestedParams: d.sp({ fee: 2000n }) })]);
    const assetId = btoi(d.ledger.transaction(r2.txids[0]!)!.ad.logs[0]!);
    d.send([makeAssetOptInTxn({ sender: d.addr(1), assetId, suggestedParams: d.sp() })]);
    // The app sends 10 and closes its holding of the other 90 to the caller: but the creator may not close out.
    assert.throws(
      () => d.send([makeAppCallTxn({ sender: d.addr(1), appId: app, args: [utf8('send')], foreignAssets: [assetId], suggestedParams: d.sp({ fee: 2000n }) })]),
      /cannot close asset ID in allocating account/,
    );
  });

  it('records the asset closing amount of an inner asset transfer', () => {
    const d = devnet();
    const { app, appAddr } = setup(d);
    const r = d.send([makeAssetCreateTxn({ sender: d.addr(0), total: 100n, decimals: 0, suggestedParams: d.sp() })]);
    const assetId = d.ledger.transaction(r.txids[0]!)!.ad.createdAssetId!;
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: appAddr, amount: ALGO, suggestedParams: d.sp() })]);
    d.send([makeAppCallTxn({ sender: d.addr(0), appId: app, args: [utf8('optin')], foreignAssets: [assetId], suggestedParams: d.sp({ fee: 2000n }) })]);
    assert.equal(d.ledger.minBalance(appAddr), 200_000n);
    d.send([makeAssetTransferTxn({ sender: d.addr(0), receiver: appAddr, assetId, amount: 50n, suggestedParams: d.sp() })]);
    const r2 = d.send([
      makeAppCallTxn({ sender: d.addr(0), appId: app, args: [utf8('send')], foreignAssets: [assetId], suggestedParams: d.sp({ fee: 2000n }) }),
    ]);
    const inner = d.ledger.transaction(r2.txids[0]!)!.ad.inner[0]!;
    assert.equal(inner.ad.assetClosingAmount, 40n);
    assert.equal(d.ledger.assetHolding(appAddr, assetId), undefined);
    assert.equal(d.ledger.assetHolding(d.addr(0), assetId)!.amount, 100n);
    assert.equal(d.ledger.minBalance(appAddr), 100_000n);
  });
});
