import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { ed25519Verify } from '../../../sdk/src/crypto/ed25519.js';
import { decodeAddress } from '../../../sdk/src/encoding/address.js';
import { decodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { KEY1, KEY2, MDK, startKmd, API_TOKEN, type Kmd } from './kmd-helpers.js';

const PASSWORD = 'algosdk-interop';

function client(kmd: Kmd): algosdk.Kmd {
  return new algosdk.Kmd(API_TOKEN, `http://${kmd.service.host}`, kmd.service.port);
}

function pay(from: string, to: string): algosdk.Transaction {
  return algosdk.makePaymentTxnWithSuggestedParamsFromObject({
    sender: from,
    receiver: to,
    amount: 5_000_000,
    note: new Uint8Array([1, 2, 3]),
    suggestedParams: {
      fee: 1000,
      flatFee: true,
      firstValid: 100,
      lastValid: 1100,
      genesisID: 'tealworks-devnet',
      genesisHash: new Uint8Array(32).fill(9),
      minFee: 1000,
    },
  });
}

describe('services/kmd: algosdk Kmd client drives our service', () => {
  let kmd: Kmd;

  afterEach(async () => {
    await kmd?.close();
  });

  it('creates a wallet, generates keys and signs a transaction that algosdk verifies', async () => {
    kmd = await startKmd();
    const c = client(kmd);
    assert.deepEqual((await c.versions()).versions, ['v1']);
    const created = await c.createWallet('interop', PASSWORD, MDK);
    const id = created.wallet.id as string;
    assert.equal(created.wallet.name, 'interop');
    const handle = (await c.initWalletHandle(id, PASSWORD)).wallet_handle_token as string;
    assert.equal((await c.generateKey(handle)).address, KEY1);
    assert.equal((await c.generateKey(handle)).address, KEY2);
    assert.deepEqual((await c.listKeys(handle)).addresses, [KEY1, KEY2]);
    const info = await c.getWallet(handle);
    assert.equal(info.wallet_handle.wallet.id, id);
    assert.equal(info.wallet_handle.expires_seconds, 60);

    const txn = pay(KEY1, KEY2);
    const signed = await c.signTransaction(handle, PASSWORD, txn);
    const stxn = algosdk.decodeSignedTransaction(signed);
    assert.equal(stxn.txn.txID(), txn.txID());
    assert.ok(stxn.sig);
    assert.ok(ed25519Verify(decodeAddress(KEY1), txn.bytesToSign(), stxn.sig!));
    // algosdk's own verification: the blob it would produce from the same key is byte-identical.
    const sk = await kmd.keyManager.exportKey(handle, PASSWORD, KEY1);
    assert.deepEqual(signed, txn.signTxn(sk));

    // A rekeyed sender, signed by a wallet key chosen explicitly.
    const outsider = algosdk.generateAccount();
    const rekeyed = pay(outsider.addr.toString(), KEY1);
    const signed2 = await c.signTransactionWithSpecificPublicKey(handle, PASSWORD, rekeyed, decodeAddress(KEY2));
    const stxn2 = algosdk.decodeSignedTransaction(signed2);
    assert.equal(stxn2.sgnr?.toString(), KEY2);
    assert.ok(ed25519Verify(decodeAddress(KEY2), rekeyed.bytesToSign(), stxn2.sig!));

    await c.renameWallet(id, PASSWORD, 'interop-2');
    assert.deepEqual(
      (await c.listWallets()).wallets.map((w: { name: string }) => w.name),
      ['interop-2'],
    );
    await c.releaseWalletHandle(handle);
    await assert.rejects(c.listKeys(handle), /handle does not exist/);
  });

  it('multisig and key export round trip through algosdk when byte fields are served as base64', async () => {
    kmd = await startKmd({ byteForm: 'base64' });
    const c = client(kmd);
    const id = (await c.createWallet('b64', PASSWORD, MDK)).wallet.id as string;
    const handle = (await c.initWalletHandle(id, PASSWORD)).wallet_handle_token as string;
    await c.generateKey(handle);
    await c.generateKey(handle);
    assert.deepEqual((await c.exportMasterDerivationKey(handle, PASSWORD)).master_derivation_key, MDK);
    const exported = (await c.exportKey(handle, PASSWORD, KEY1)).private_key;
    assert.equal(algosdk.encodeAddress(exported.subarray(32)), KEY1);

    const params = { version: 1, threshold: 2, addrs: [KEY1, KEY2] };
    const msigAddr = algosdk.multisigAddress(params).toString();
    const imported = await c.importMultisig(handle, 1, 2, [KEY1, KEY2].map((a) => algosdk.bytesToBase64(decodeAddress(a))) as never);
    assert.equal(imported.address, msigAddr);
    assert.deepEqual((await c.listMultisig(handle)).addresses, [msigAddr]);
    const exp = await c.exportMultisig(handle, msigAddr);
    assert.deepEqual([exp.multisig_version, exp.threshold, exp.pks], [1, 2, [KEY1, KEY2].map((a) => algosdk.bytesToBase64(decodeAddress(a)))]);

    const txn = pay(msigAddr, KEY1);
    const r1 = await c.signMultisigTransaction(handle, PASSWORD, txn, decodeAddress(KEY1), undefined as never);
    const msig1 = decodeMsgpack(algosdk.base64ToBytes(r1.multisig)) as { v: number; thr: number; subsig: { pk: Uint8Array; s?: Uint8Array }[] };
    assert.equal(msig1.subsig.filter((s) => s.s).length, 1);
    const partial = {
      v: msig1.v,
      thr: msig1.thr,
      subsig: msig1.subsig.map((s) => (s.s ? { pk: algosdk.bytesToBase64(s.pk), s: algosdk.bytesToBase64(s.s) } : { pk: algosdk.bytesToBase64(s.pk) })),
    };
    const r2 = await c.signMultisigTransaction(handle, PASSWORD, txn, decodeAddress(KEY2), partial as never);
    // algosdk signing the same transaction with the same keys yields the same multisig structure.
    const own1 = algosdk.signMultisigTransaction(txn, params, await kmd.keyManager.exportKey(handle, PASSWORD, KEY1)).blob;
    const both = algosdk.appendSignMultisigTransaction(own1, params, await kmd.keyManager.exportKey(handle, PASSWORD, KEY2)).blob;
    const ours = decodeMsgpack(algosdk.base64ToBytes(r2.multisig));
    assert.deepEqual(ours, (decodeMsgpack(both) as { msig: unknown }).msig);
    assert.ok(algosdk.verifyMultisig(txn.bytesToSign(), ours as never, algosdk.decodeAddress(msigAddr).publicKey), 'algosdk verifies the multisig');

    // Program delegation: algosdk's LogicSig accepts the signature our service made.
    const program = new Uint8Array([0x01, 0x20, 0x01, 0x01, 0x22]);
    const r = await kmd.call('POST', '/v1/program/sign', {
      wallet_handle_token: handle,
      wallet_password: PASSWORD,
      address: KEY1,
      data: algosdk.bytesToBase64(program),
    });
    const lsig = new algosdk.LogicSig(program);
    lsig.sig = algosdk.base64ToBytes(r.body.sig as string);
    assert.ok(lsig.verify(decodeAddress(KEY1)));
    assert.ok(!lsig.verify(decodeAddress(KEY2)));
  });
});
