import assert from 'node:assert/strict';
import { KeyManagerClient } from '../../../sdk/src/adapters/kmd/client.js';
import { decodeAddress } from '../../../sdk/src/encoding/address.js';
import { bytesToSign, decodeSignedTransaction, makePaymentTxn, multisigAddress, verifyMultisig, verifySignedTransaction } from '../../../sdk/src/txn/index.js';
import { API_TOKEN, KEY1, KEY2, MDK, startKmd, type Kmd } from './kmd-helpers.js';

const PASSWORD = 'adapter';

// Our own key-manager client (sdk/src/adapters/kmd) against our service, in every wire form.
describe('services/kmd: the SDK key-manager client drives our service', () => {
  let kmd: Kmd;

  afterEach(async () => {
    await kmd?.close();
  });

  for (const [byteForm, multisigForm] of [
    ['array', 'spec'],
    ['base64', 'codec'],
  ] as const) {
    it(`works end to end with ${byteForm} bytes and ${multisigForm} multisig members`, async () => {
      kmd = await startKmd({ byteForm });
      const client = new KeyManagerClient({ url: kmd.service.url, token: API_TOKEN, retry: false }, { byteForm, multisigForm });
      try {
        const wallet = await client.createWallet('adapter', PASSWORD, { masterDerivationKey: MDK });
        const token = await client.initWalletHandle(wallet.id, PASSWORD);
        assert.equal(await client.generateKey(token), KEY1);
        assert.equal(await client.generateKey(token), KEY2);
        assert.deepEqual(await client.exportMasterKey(token, PASSWORD), MDK);
        const txn = makePaymentTxn({
          sender: KEY1,
          receiver: KEY2,
          amount: 1n,
          suggestedParams: { fee: 1000, flatFee: true, firstValid: 1, lastValid: 100, genesisId: 'x', genesisHash: new Uint8Array(32).fill(1) },
        });
        assert.ok(verifySignedTransaction(decodeSignedTransaction(await client.signTransaction(token, PASSWORD, txn))));

        const meta = { version: 1, threshold: 2, addrs: [KEY1, KEY2] };
        const msigAddr = multisigAddress(meta).toString();
        assert.equal(await client.importMultisig(token, { version: 1, threshold: 2, publicKeys: [decodeAddress(KEY1), decodeAddress(KEY2)] }), msigAddr);
        const mtxn = makePaymentTxn({
          ...{ sender: msigAddr, receiver: KEY1, amount: 2n },
          suggestedParams: { fee: 1000, flatFee: true, firstValid: 1, lastValid: 100, genesisId: 'x', genesisHash: new Uint8Array(32).fill(1) },
        });
        const first = await client.signMultisigTransaction(token, PASSWORD, { transaction: mtxn, publicKey: decodeAddress(KEY1) });
        const second = await client.signMultisigTransaction(token, PASSWORD, { transaction: mtxn, publicKey: decodeAddress(KEY2), partial: first.multisig });
        assert.ok(verifyMultisig(second.multisig, bytesToSign(mtxn)));
        await client.releaseWalletHandle(token);
      } finally {
        await client.close();
      }
    });
  }
});
