import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAddress, encodeAddress } from '../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { deriveKey } from '../../../sdk/src/crypto/kmd-derivation.js';
import { KeyManager, MemoryWalletStore, TEST_SCRYPT, WalletError } from '../../../sdk/src/services/kmd/index.js';
import { KEY1, KEY2, MDK, startKmd } from './kmd-helpers.js';

const PASSWORD = 'persist-me-please';

describe('services/kmd: wallets at rest', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tealworks-kmd-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('survives a restart from the data dir, with nothing secret in plaintext on disk', async () => {
    const imported = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x42));
    let kmd = await startKmd({ dataDir: dir });
    const created = await kmd.call('POST', '/v1/wallet', { wallet_name: 'durable', wallet_password: PASSWORD, master_derivation_key: toBase64(MDK) });
    const id = (created.body.wallet as { id: string }).id;
    let token = (await kmd.call('POST', '/v1/wallet/init', { wallet_id: id, wallet_password: PASSWORD })).body.wallet_handle_token as string;
    await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
    await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
    await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: toBase64(imported.secretKey) });
    const msig = (
      await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 1, threshold: 1, pks: [toBase64(decodeAddress(KEY1))] })
    ).body.address;
    await kmd.close();

    const files = await readdir(dir);
    assert.deepEqual(files, [`${id}.wallet.json`], 'one file per wallet and no temp files left');
    const text = await readFile(join(dir, files[0]!), 'utf8');
    const secrets = [MDK, deriveKey(MDK, 1).secretKey, deriveKey(MDK, 2).secretKey, imported.secretKey, imported.seed, deriveKey(MDK, 1).seed];
    for (const s of secrets) {
      assert.ok(!text.includes(toBase64(s)), 'no key in base64');
      assert.ok(!text.toLowerCase().includes(toHex(s)), 'no key in hex');
      assert.ok(!text.includes(toBase64(s.subarray(0, 24))), 'no key prefix in base64');
    }
    assert.ok(!text.includes(PASSWORD));
    assert.ok(!text.includes(KEY1) && !text.includes(KEY2), 'even addresses stay sealed');
    const header = JSON.parse(text) as Record<string, unknown>;
    assert.equal(header.format, 'tealworks-wallet');
    assert.equal(header.cipher, 'chacha20-poly1305');
    assert.equal((header.kdf as { alg: string }).alg, 'scrypt');

    kmd = await startKmd({ dataDir: dir });
    try {
      const list = await kmd.call('GET', '/v1/wallets');
      assert.deepEqual(
        (list.body.wallets as { id: string; name: string }[]).map((w) => [w.id, w.name]),
        [[id, 'durable']],
      );
      const bad = await kmd.call('POST', '/v1/wallet/init', { wallet_id: id, wallet_password: 'wrong' });
      assert.deepEqual([bad.status, bad.body.message], [401, 'error decrypting. wrong password?']);
      token = (await kmd.call('POST', '/v1/wallet/init', { wallet_id: id, wallet_password: PASSWORD })).body.wallet_handle_token as string;
      const keys = (await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token })).body.addresses;
      assert.deepEqual(keys, [KEY1, KEY2, encodeAddress(imported.publicKey)]);
      assert.deepEqual((await kmd.call('POST', '/v1/multisig/list', { wallet_handle_token: token })).body.addresses, [msig]);
      const next = await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      assert.equal(next.body.address, deriveKey(MDK, 3).address, 'the derivation index was persisted');
    } finally {
      await kmd.close();
    }
  });

  it('a renamed wallet keeps its new name after a restart', async () => {
    const km = await KeyManager.open({ dataDir: dir, kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    const w = await km.createWallet({ name: 'before', password: PASSWORD });
    await km.renameWallet(w.id, PASSWORD, 'after');
    await km.close();
    const again = await KeyManager.open({ dataDir: dir, kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    assert.deepEqual(
      again.listWallets().map((x) => x.name),
      ['after'],
    );
    await again.close();
  });

  it('detects tampering: a changed byte in the sealed data or the KDF settings fails like a wrong password', async () => {
    const km = await KeyManager.open({ dataDir: dir, kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    const w = await km.createWallet({ name: 't', password: PASSWORD });
    await km.close();
    const file = join(dir, `${w.id}.wallet.json`);
    const original = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const sealed = Buffer.from(original.sealed as string, 'base64');
    sealed[3] ^= 1;
    await writeFile(file, JSON.stringify({ ...original, sealed: sealed.toString('base64') }));
    let reopened = await KeyManager.open({ dataDir: dir, sweepIntervalMs: 0 });
    await assert.rejects(reopened.initHandle(w.id, PASSWORD), (e: WalletError) => e.status === 401 && e.message === 'error decrypting. wrong password?');
    await reopened.close();
    await writeFile(file, JSON.stringify({ ...original, kdf: { ...(original.kdf as object), N: 512 } }));
    reopened = await KeyManager.open({ dataDir: dir, sweepIntervalMs: 0 });
    await assert.rejects(reopened.initHandle(w.id, PASSWORD), (e: WalletError) => e.status === 401);
    await reopened.close();
  });

  it('skips unreadable files and stray temp files at startup', async () => {
    await writeFile(join(dir, `${'a'.repeat(32)}.wallet.json`), 'not json');
    await writeFile(join(dir, `${'b'.repeat(32)}.wallet.json.tmp-123`), 'half written');
    const km = await KeyManager.open({ dataDir: dir, sweepIntervalMs: 0 });
    assert.deepEqual(km.listWallets(), []);
    assert.ok(km.unreadable.has('a'.repeat(32)));
    assert.deepEqual((await readdir(dir)).sort(), [`${'a'.repeat(32)}.wallet.json`]);
    await km.close();
  });
});

describe('services/kmd: programmatic use (devnet)', () => {
  it('ensureWallet creates the default wallet once with funded-account keys and reopens it', async () => {
    const store = new MemoryWalletStore();
    const km = await KeyManager.open({ store, kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    const first = await km.ensureWallet({ name: 'unencrypted-default-wallet', password: '', masterDerivationKey: MDK, keyCount: 3 });
    assert.deepEqual(first.addresses, [KEY1, KEY2, deriveKey(MDK, 3).address]);
    const again = await km.ensureWallet({ name: 'unencrypted-default-wallet', password: '', keyCount: 2 });
    assert.equal(again.wallet.id, first.wallet.id);
    assert.deepEqual(again.addresses, first.addresses, 'no extra keys when enough exist');
    await assert.rejects(km.ensureWallet({ name: 'unencrypted-default-wallet', password: 'x' }), (e: WalletError) => e.status === 401);
    await km.close();
    // The same store, reopened: wallets persist in memory mode too (sealed the same way).
    const km2 = await KeyManager.open({ store, sweepIntervalMs: 0 });
    const t = await km2.initHandle(first.wallet.id, '');
    assert.deepEqual(km2.listKeys(t), first.addresses);
    await km2.close();
  });

  it('locks wallets whose handles are all gone, so secrets leave memory', async () => {
    let now = 0;
    const km = await KeyManager.open({ kdf: TEST_SCRYPT, sweepIntervalMs: 0, clock: () => now });
    const w = await km.createWallet({ name: 'w', password: 'p', masterDerivationKey: MDK });
    const t = await km.initHandle(w.id, 'p');
    const mdk = await km.exportMasterKey(t, 'p');
    assert.deepEqual(mdk, MDK);
    now += 61_000;
    await km.sweep();
    assert.throws(
      () => km.listKeys(t),
      (e: WalletError) => e.status === 401,
    );
    // Unlocking again needs the password (the cached verifier is gone with the secrets).
    await assert.rejects(km.initHandle(w.id, 'q'), (e: WalletError) => e.status === 401);
    const t2 = await km.initHandle(w.id, 'p');
    assert.deepEqual(await km.exportMasterKey(t2, 'p'), MDK);
    await km.close();
  });
});
