import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import algosdk from 'algosdk';
import { KeyManagerClient } from '../../../sdk/src/adapters/kmd/client.js';
import { decryptKeystore, encryptKeystore, KeystoreError, signerFromKeystoreFile, writeKeystoreFile } from '../../../sdk/src/adapters/keystore.js';
import { KeyManagerSigner, LocalSigner, SignerError, type Signer } from '../../../sdk/src/adapters/signer.js';
import { fromBase64, toBase64 } from '../../../sdk/src/encoding/base64.js';
import { decodeSignedTransaction, decodeTransaction } from '../../../sdk/src/txn/encode.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { FakeServer, json, sameBytes } from './fake-server.js';

const MNEMONIC =
  'advice pudding treat near rule blouse same whisper inner electric quit surface sunny dismiss leader blood seat clown cost exist hospital century reform able sponsor';
const SENDER = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
// Golden signed payment from the mnemonic above (protocol.md §3.7).
const STX = fromBase64(
  'gqNzaWfEQPhUAZ3xkDDcc8FvOVo6UinzmKBCqs0woYSfodlmBMfQvGbeUx3Srxy3dyJDzv7rLm26BRv9FnL2/AuT7NYfiAWjdHhui6NhbXTNA+ilY2xvc2XEIEDpNJKIJWTLzpxZpptnVCaJ6aHDoqnqW2Wm6KRCH/xXo2ZlZc0EmKJmds0wsqNnZW6sZGV2bmV0LXYzMy4womdoxCAmCyAJoJOohot5WHIvpeVG7eftF+TYXEx4r7BFJpDt0qJsds00mqRub3RlxAjqABVHQ2y/lqNyY3bEIHts4k/rW6zAsWTinCIsV/X2PcOH1DkEglhBHF/hD3wCo3NuZMQg5/D4TQaBHfnzHI2HixFV9GcdUaGFwgCQhmf0SVhwaKGkdHlwZaNwYXk=',
);
const TXN = decodeSignedTransaction(STX).txn;

describe('adapters/signer: local keys', () => {
  it('signs the golden payment to the exact golden bytes', async () => {
    const signer = LocalSigner.fromMnemonic(MNEMONIC);
    assert.deepEqual(signer.addresses, [SENDER]);
    const [signed] = await signer.sign([TXN], [0]);
    sameBytes(signed, STX);
  });

  it('matches algosdk for a group, signing only the requested indexes', async () => {
    const other = algosdk.generateAccount();
    const me = algosdk.mnemonicToSecretKey(MNEMONIC);
    const sp = {
      fee: 1000n,
      firstValid: 10n,
      lastValid: 1010n,
      genesisID: 'devnet-v1',
      genesisHash: fromBase64('JgsgCaCTqIaLeVhyL6XlRu3n7Rfk2FxMeK+wRSaQ7dI='),
      minFee: 1000n,
      flatFee: true,
    };
    const t1 = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: me.addr, receiver: other.addr, amount: 5, suggestedParams: sp });
    const t2 = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: other.addr, receiver: me.addr, amount: 7, suggestedParams: sp });
    algosdk.assignGroupID([t1, t2]);
    const ours = [decodeTransaction(algosdk.encodeUnsignedTransaction(t1)), decodeTransaction(algosdk.encodeUnsignedTransaction(t2))];
    const signer = LocalSigner.fromSeed(me.sk.slice(0, 32));
    const signed = await signer.sign(ours, [0]);
    assert.equal(signed.length, 1);
    sameBytes(signed[0], t1.signTxn(me.sk));
    await assert.rejects(signer.sign(ours, [1]), (e: unknown) => e instanceof SignerError && e.message.includes(other.addr.toString()));
    await assert.rejects(signer.sign(ours, [2]), SignerError);
  });

  it('signs for a rekeyed account with the authorising key', async () => {
    const auth = algosdk.generateAccount();
    const signer = LocalSigner.fromSeed(auth.sk.slice(0, 32)).setAuthAddress(SENDER, auth.addr.toString());
    const [signed] = await signer.sign([TXN], [0]);
    const stxn = decodeSignedTransaction(signed!);
    assert.equal(stxn.authAddress?.toString(), auth.addr.toString());
    const sdkSigned = algosdk.signTransaction(
      algosdk.decodeUnsignedTransaction(algosdk.encodeUnsignedTransaction(algosdk.decodeSignedTransaction(STX).txn)),
      auth.sk,
    ).blob;
    sameBytes(signed, sdkSigned);
  });

  it('never puts mnemonic words into errors', () => {
    const bad = MNEMONIC.replace('pudding', 'puddingx');
    const err = (() => {
      try {
        LocalSigner.fromMnemonic(bad);
      } catch (e) {
        return e as Error;
      }
    })();
    assert.ok(err instanceof SignerError);
    for (const word of bad.split(' '))
      assert.ok(!err.message.split(/\W+/).includes(word) || ['a', 'the'].includes(word), `error quotes "${word}": ${err.message}`);
    assert.throws(() => LocalSigner.fromSeed(new Uint8Array(31)), SignerError);
    assert.equal(JSON.stringify(LocalSigner.fromMnemonic(MNEMONIC)), JSON.stringify({ addresses: [SENDER] }));
  });
});

describe('adapters/signer: encrypted keystore', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-keystore-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips a mnemonic through a scrypt file and signs identically', async () => {
    const path = join(dir, 'k1.json');
    const file = await writeKeystoreFile(path, MNEMONIC, 'pw-1', { scryptN: 256 });
    assert.equal(file.address, SENDER);
    const text = readFileSync(path, 'utf8');
    for (const word of ['advice', 'pudding', 'pw-1']) assert.ok(!text.includes(word));
    const signer = await signerFromKeystoreFile(path, 'pw-1');
    sameBytes((await signer.sign([TXN], [0]))[0], STX);
  });

  it('round-trips with argon2id', async () => {
    const file = await encryptKeystore(new Uint8Array(32).fill(1), 'pw-2', { kdf: 'argon2id', argonMemoryKiB: 256, argonTime: 1 });
    assert.equal(file.kdf.name, 'argon2id');
    assert.deepEqual(await decryptKeystore(file, 'pw-2'), new Uint8Array(32).fill(1));
  });

  it('rejects a wrong password or an altered file without revealing either', async () => {
    const file = await encryptKeystore(MNEMONIC, 'right-password', { scryptN: 256 });
    await assert.rejects(
      decryptKeystore(file, 'wrong-password'),
      (e: unknown) => e instanceof KeystoreError && !e.message.includes('wrong-password') && !e.message.includes('right-password'),
    );
    await assert.rejects(decryptKeystore({ ...file, address: 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI' }, 'right-password'), KeystoreError);
    const ct = fromBase64(file.ciphertext);
    ct[0]! ^= 1;
    await assert.rejects(decryptKeystore({ ...file, ciphertext: toBase64(ct) }, 'right-password'), KeystoreError);
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{not json');
    await assert.rejects(signerFromKeystoreFile(path, 'x'), KeystoreError);
  });
});

describe('adapters/signer: key manager signer', () => {
  it('produces the same bytes as the local signer through a key-manager service', async () => {
    const local = LocalSigner.fromMnemonic(MNEMONIC);
    // A fake key manager that signs with the same key, so the two signers can be compared byte for byte.
    const server = await FakeServer.start(async (req, res) => {
      const body = req.body.length ? (req.json() as Record<string, unknown>) : {};
      if (req.path === '/v1/wallets')
        return json(res, 200, { wallets: [{ id: 'w1', name: 'dev', driver_name: 'sqlite', driver_version: 1, mnemonic_ux: false, supported_txs: [] }] });
      if (req.path === '/v1/wallet/init') return json(res, 200, { wallet_handle_token: 'h' });
      if (req.path === '/v1/transaction/sign') {
        const txn = decodeTransaction(fromBase64(body.transaction as string));
        const [signed] = await local.sign([txn], [0]);
        return json(res, 200, { signed_transaction: toBase64(signed!) });
      }
      return json(res, 200, {});
    });
    const kmd = new KeyManagerClient({ url: server.url, retry: false });
    const session = await kmd.openWallet('dev', 'pw', { renewEveryMs: 10_000 });
    const signer: Signer = new KeyManagerSigner(session);
    const viaKmd = await signer.sign([TXN, TXN], [1]);
    const direct: Signer = session;
    sameBytes((await direct.sign([TXN], [0]))[0], STX);
    await assert.rejects(direct.sign([TXN], [3]), /outside the group/);
    assert.equal(viaKmd.length, 1);
    sameBytes(viaKmd[0], STX);
    const rekeyed = new KeyManagerSigner(session).setAuthAddress(SENDER, 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI');
    await rekeyed.sign([TXN], [0]);
    const sent = server.requests
      .filter((r) => r.path === '/v1/transaction/sign')
      .pop()!
      .json() as { public_key: number[] };
    assert.deepEqual(sent.public_key, Array.from(Address.fromString('PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI').publicKey));
    await session.close();
    await kmd.close();
    await server.close();
  });
});
