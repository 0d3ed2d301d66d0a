import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { HttpError } from '../../../sdk/src/adapters/http/errors.js';
import { KeyManagerClient, KeyManagerError, type WalletSession } from '../../../sdk/src/adapters/kmd/client.js';
import { KeyManagerSigner } from '../../../sdk/src/adapters/signer.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { decodeSignedTransaction, encodeSignedTransaction, txid } from '../../../sdk/src/txn/encode.js';
import { makeLogicSig, signLogicSigTransaction } from '../../../sdk/src/txn/logicsig.js';
import { multisigAddress, verifyMultisigTransaction } from '../../../sdk/src/txn/multisig.js';
import { populatedDevnet, type PopulatedDevnet } from './devnet-fixture.js';

async function rejected(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HttpError || e instanceof KeyManagerError, `unexpected ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

/** Every key-manager operation through KeyManagerClient / WalletSession against the devnet, signatures checked by the ledger. */
describe('adapters: key manager client against the embedded devnet', function () {
  this.timeout(20_000);
  let p: PopulatedDevnet;
  let kmd: KeyManagerClient;
  const PASSWORD = 'correct horse';

  before(async () => {
    p = await populatedDevnet({}, 1);
    kmd = new KeyManagerClient({ url: p.d.keyManager.url, token: p.d.keyManager.token, retry: false });
  });
  after(async () => {
    await kmd?.close();
    await p?.stop();
  });

  /** Submits over the node client and checks the ledger committed it. */
  async function commit(signed: Uint8Array): Promise<void> {
    const { txid: id } = await p.node.submit(signed);
    assert.equal((await p.node.pending(id)).state, 'committed');
  }

  it('versions, swagger, wallet listing; the default wallet signs through KeyManagerSigner', async () => {
    assert.ok((await kmd.versions()).includes('v1'));
    const sw = (await kmd.swagger()) as { paths?: Record<string, unknown> };
    assert.ok(sw.paths && '/v1/key' in sw.paths);
    const wallets = await kmd.listWallets();
    assert.ok(wallets.some((w) => w.name === p.d.wallet.name));
    const wrongToken = new KeyManagerClient({ url: p.d.keyManager.url, token: 'b'.repeat(64), retry: false });
    try {
      const e = await rejected(wrongToken.listWallets());
      assert.ok(e instanceof HttpError && e.status === 401, e.message);
    } finally {
      await wrongToken.close();
    }
    await using session = await kmd.openWallet(p.d.wallet.name, p.d.wallet.password);
    assert.deepEqual((await session.listKeys()).sort(), [...p.addrs].sort());
    const txn = makePaymentTxn({ sender: p.addrs[0]!, receiver: p.addrs[1]!, amount: 42n, note: utf8('kmd signer'), suggestedParams: await p.sp() });
    const [signed] = await new KeyManagerSigner(session).sign([txn], [0]);
    assert.equal(txid(decodeSignedTransaction(signed!).txn), txid(txn));
    await commit(signed!);
  });

  it('wallet lifecycle: create, handle init/info/renew/release, rename, wrong password, closed session', async () => {
    const w = await kmd.createWallet('lifecycle', PASSWORD);
    assert.equal(w.name, 'lifecycle');
    assert.ok((await kmd.listWallets()).some((x) => x.id === w.id));
    const token = await kmd.initWalletHandle(w.id, PASSWORD);
    const info = await kmd.walletInfo(token);
    assert.equal(info.wallet.id, w.id);
    assert.ok(info.expiresSeconds > 0);
    assert.ok((await kmd.renewWalletHandle(token)).expiresSeconds > 0);
    await kmd.releaseWalletHandle(token);
    await rejected(kmd.walletInfo(token));
    await rejected(kmd.initWalletHandle(w.id, 'wrong password'));
    await rejected(kmd.createWallet('lifecycle', PASSWORD));

    const session = await kmd.openWallet(w.id, PASSWORD, { renewEveryMs: 60_000 });
    assert.equal(session.isOpen, true);
    assert.equal((await session.info()).wallet.name, 'lifecycle');
    assert.ok((await session.renew()).expiresSeconds > 0);
    const renamed = await session.rename('lifecycle-2');
    assert.equal(renamed.name, 'lifecycle-2');
    assert.ok((await kmd.listWallets()).some((x) => x.id === w.id && x.name === 'lifecycle-2'));
    assert.ok(!JSON.stringify(session).includes(PASSWORD));
    await session.close();
    await session.close();
    assert.equal(session.isOpen, false);
    await assert.rejects(session.listKeys(), KeyManagerError);
  });

  it('keys: generate, list, export (seed matches the address), delete, import; master key restores a wallet', async () => {
    const w = await kmd.createWallet('keys', PASSWORD);
    let session: WalletSession | undefined = await kmd.openWallet('keys', PASSWORD);
    try {
      const k1 = await session.generateKey();
      // The wallet driver refuses to show mnemonics, as the reference driver does.
      const refusal = await rejected(session.generateKey(true));
      assert.match(refusal.message, /mnemonic/);
      const k2 = await session.generateKey();
      assert.deepEqual((await session.listKeys()).sort(), [k1, k2].sort());
      const sk = await session.exportKey(k1);
      assert.equal(sk.length, 64);
      assert.equal(new Address(Ed25519KeyPair.fromSeed(sk.subarray(0, 32)).publicKey).toString(), k1);
      await session.deleteKey(k2);
      assert.deepEqual(await session.listKeys(), [k1]);
      await rejected(session.exportKey(k2));

      const imported = Ed25519KeyPair.fromSeed(new Uint8Array(randomBytes(32)));
      const importedAddr = new Address(imported.publicKey).toString();
      assert.equal(await session.importKey(imported.secretKey), importedAddr);
      assert.ok((await session.listKeys()).includes(importedAddr));
      assert.deepEqual((await session.exportKey(importedAddr)).subarray(0, 32), imported.seed);

      // The master derivation key regenerates the same (derived) keys in a new wallet.
      const mdk = await session.exportMasterKey();
      assert.equal(mdk.length, 32);
      await session.close();
      session = undefined;
      const restoredWallet = await kmd.createWallet('restored', 'other', { masterDerivationKey: mdk });
      assert.notEqual(restoredWallet.id, w.id);
      await using restored = await kmd.openWallet('restored', 'other');
      const again = [await restored.generateKey(), await restored.generateKey()];
      assert.equal(again[0], k1);
      assert.equal(again[1], k2);
    } finally {
      await session?.close();
    }
  });

  it('program signing: a delegated logic signature from the key manager is accepted by the ledger', async () => {
    await using session = await kmd.openWallet(p.d.wallet.name, p.d.wallet.password);
    const program = assemble('#pragma version 10\nint 1').program;
    const sig = await session.signProgram(p.addrs[2]!, program);
    assert.equal(sig.length, 64);
    const lsig = { ...makeLogicSig(program), sig };
    const txn = makePaymentTxn({ sender: p.addrs[2]!, receiver: p.addrs[0]!, amount: 7n, note: utf8('delegated'), suggestedParams: await p.sp() });
    await commit(encodeSignedTransaction(signLogicSigTransaction(txn, lsig)));
  });

  it('multisig: import/list/export/delete, transaction and program signing by two of three keys, committed by the ledger', async () => {
    await using session = await kmd.openWallet(p.d.wallet.name, p.d.wallet.password);
    const pks = p.addrs.map((a) => Address.fromString(a).publicKey);
    const meta = { version: 1, threshold: 2, addrs: p.addrs };
    const msigAddr = multisigAddress(meta).toString();
    assert.equal(await session.importMultisig({ version: 1, threshold: 2, publicKeys: pks }), msigAddr);
    assert.deepEqual(await session.listMultisig(), [msigAddr]);
    const pre = await session.exportMultisig(msigAddr);
    assert.deepEqual(pre, { version: 1, threshold: 2, publicKeys: pks });

    // Fund the multisig account, then spend from it with signatures by keys 0 and 2.
    await p.submit([makePaymentTxn({ sender: p.addrs[0]!, receiver: msigAddr, amount: 1_000_000n, suggestedParams: await p.sp() })]);
    const spend = makePaymentTxn({ sender: msigAddr, receiver: p.addrs[1]!, amount: 1000n, note: utf8('msig'), suggestedParams: await p.sp() });
    const first = await session.signMultisigTransaction({ transaction: spend, publicKey: pks[0]! });
    assert.equal(first.multisig.subsigs.filter((s) => s.signature).length, 1);
    const both = await session.signMultisigTransaction({ transaction: spend, publicKey: pks[2]!, partial: first.multisig });
    assert.equal(both.multisig.subsigs.filter((s) => s.signature).length, 2);
    const stxn = { txn: spend, msig: both.multisig };
    assert.equal(verifyMultisigTransaction(stxn), true);
    await commit(encodeSignedTransaction(stxn));

    // Multisig delegation of a program ("MsigProgram" || address || program).
    const program = assemble('#pragma version 10\nint 2\npop\nint 1').program;
    const p1 = await session.signMultisigProgram({ address: msigAddr, program, publicKey: pks[1]! });
    const p2 = await session.signMultisigProgram({ address: msigAddr, program, publicKey: pks[0]!, partial: p1.multisig });
    assert.equal(p2.multisig.subsigs.filter((s) => s.signature).length, 2);
    const lsig = { ...makeLogicSig(program), lmsig: p2.multisig };
    const viaLsig = makePaymentTxn({ sender: msigAddr, receiver: p.addrs[1]!, amount: 2000n, note: utf8('msig lsig'), suggestedParams: await p.sp() });
    await commit(encodeSignedTransaction(signLogicSigTransaction(viaLsig, lsig, msigAddr)));

    await session.deleteMultisig(msigAddr);
    assert.deepEqual(await session.listMultisig(), []);
    await rejected(session.exportMultisig(msigAddr));
  });
});
