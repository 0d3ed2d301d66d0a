import assert from 'node:assert/strict';
import { Address, decodeAddress, encodeAddress } from '../../../sdk/src/encoding/address.js';
import { fromBase64, toBase64 } from '../../../sdk/src/encoding/base64.js';
import { concatBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { decodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { ed25519Verify, Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { deriveKey } from '../../../sdk/src/crypto/kmd-derivation.js';
import {
  bytesToSign,
  decodeSignedTransaction,
  encodeTransaction,
  makePaymentTxn,
  multisigAddress,
  multisigFromWire,
  verifyMultisig,
  verifySignedTransaction,
  type Transaction,
} from '../../../sdk/src/txn/index.js';
import { API_TOKEN, KEY1, KEY2, MDK, startKmd, type Kmd } from './kmd-helpers.js';

const PASSWORD = 'correct horse battery staple';

function payment(sender: string, receiver = KEY2): Transaction {
  return makePaymentTxn({
    sender,
    receiver,
    amount: 123_456n,
    suggestedParams: { fee: 1000, flatFee: true, firstValid: 10, lastValid: 1010, genesisId: 'tealworks-devnet', genesisHash: new Uint8Array(32).fill(7) },
  });
}

describe('services/kmd: key manager over HTTP', () => {
  let kmd: Kmd;
  let walletId: string;
  let token: string;

  async function createWallet(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const r = await kmd.call('POST', '/v1/wallet', { wallet_name: name, wallet_password: PASSWORD, wallet_driver_name: 'sqlite', ...extra });
    assert.equal(r.status, 200, r.text);
    return (r.body.wallet as { id: string }).id;
  }

  async function init(id = walletId, password = PASSWORD): Promise<string> {
    const r = await kmd.call('POST', '/v1/wallet/init', { wallet_id: id, wallet_password: password });
    assert.equal(r.status, 200, r.text);
    return r.body.wallet_handle_token as string;
  }

  function expectError(r: { status: number; body: Record<string, unknown>; text: string }, status: number, message: string | RegExp): void {
    assert.equal(r.status, status, r.text);
    assert.equal(r.body.error, true, r.text);
    if (typeof message === 'string') assert.equal(r.body.message, message);
    else assert.match(String(r.body.message), message);
  }

  beforeEach(async () => {
    kmd = await startKmd();
    walletId = await createWallet('main', { master_derivation_key: Array.from(MDK) });
    token = await init();
  });

  afterEach(async () => {
    await kmd.close();
  });

  describe('service surface', () => {
    it('serves /versions and /swagger.json without a token', async () => {
      const v = await kmd.call('GET', '/versions', undefined, null);
      assert.deepEqual([v.status, v.body], [200, { versions: ['v1'] }]);
      const s = await kmd.call('GET', '/swagger.json', undefined, null);
      assert.equal(s.status, 200);
      const paths = s.body.paths as Record<string, Record<string, unknown>>;
      for (const [method, path] of [
        ['post', '/v1/key'],
        ['delete', '/v1/key'],
        ['post', '/v1/key/export'],
        ['post', '/v1/key/import'],
        ['post', '/v1/key/list'],
        ['post', '/v1/master-key/export'],
        ['delete', '/v1/multisig'],
        ['post', '/v1/multisig/export'],
        ['post', '/v1/multisig/import'],
        ['post', '/v1/multisig/list'],
        ['post', '/v1/multisig/sign'],
        ['post', '/v1/multisig/signprogram'],
        ['post', '/v1/program/sign'],
        ['post', '/v1/transaction/sign'],
        ['post', '/v1/wallet'],
        ['post', '/v1/wallet/info'],
        ['post', '/v1/wallet/init'],
        ['post', '/v1/wallet/release'],
        ['post', '/v1/wallet/rename'],
        ['post', '/v1/wallet/renew'],
        ['get', '/v1/wallets'],
        ['get', '/versions'],
      ]) {
        assert.ok(paths[path!]?.[method!], `swagger lists ${method} ${path}`);
      }
    });

    it('rejects a missing or wrong API token with 401 "invalid API token"', async () => {
      expectError(await kmd.call('GET', '/v1/wallets', undefined, null), 401, 'invalid API token');
      expectError(await kmd.call('GET', '/v1/wallets', undefined, 'b'.repeat(64)), 401, 'invalid API token');
      expectError(await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token }, ''), 401, 'invalid API token');
    });

    it('answers malformed bodies with 400 "could not decode request body"', async () => {
      const msg = 'could not decode request body';
      expectError(await kmd.call('POST', '/v1/wallet/init', '{"wallet_id":'), 400, msg);
      expectError(await kmd.call('POST', '/v1/wallet/init', '[1,2]'), 400, msg);
      expectError(await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: PASSWORD, extra: 1 }), 400, msg);
      expectError(await kmd.call('POST', '/v1/wallet/init', { wallet_id: 5, wallet_password: PASSWORD }), 400, msg);
      expectError(await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: [1, 2, 300] }), 400, msg);
      expectError(await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: 'not base64!' }), 400, msg);
      expectError(await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 1, threshold: 256, pks: [] }), 400, msg);
    });

    it('accepts the optional empty object body on GET /versions and GET /v1/wallets', async () => {
      const { request } = await import('node:http');
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(
            kmd.service.url + path,
            { method: 'GET', headers: { 'X-KMD-API-Token': API_TOKEN, 'content-type': 'application/json', 'content-length': '2' } },
            (res) => {
              let body = '';
              res.on('data', (c) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
            },
          );
          req.on('error', reject);
          req.end('{}');
        });
      assert.deepEqual(JSON.parse((await get('/versions')).body), { versions: ['v1'] });
      const wallets = await get('/v1/wallets');
      assert.equal(wallets.status, 200);
      assert.equal((JSON.parse(wallets.body) as { wallets: unknown[] }).wallets.length, 1);
    });

    it('refuses oversized bodies and unknown routes in the error envelope', async () => {
      const huge = JSON.stringify({ wallet_handle_token: token, address: 'x'.repeat(2_000_000) });
      const r = await kmd.call('POST', '/v1/key/export', huge);
      assert.equal(r.status, 413);
      assert.equal(r.body.error, true);
      expectError(await kmd.call('POST', '/v1/nothing', {}), 404, /no such endpoint/);
      expectError(await kmd.call('PUT', '/v1/key', {}), 405, /not allowed/);
    });
  });

  describe('wallets', () => {
    it('creates and lists wallets with the full wallet object', async () => {
      const r = await kmd.call('GET', '/v1/wallets');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        wallets: [{ driver_name: 'sqlite', driver_version: 1, id: walletId, mnemonic_ux: false, name: 'main', supported_txs: ['pay', 'keyreg'] }],
      });
      assert.match(walletId, /^[0-9a-f]{32}$/);
      // Keys come out sorted and success bodies carry no error/message members.
      assert.ok(r.text.indexOf('"driver_name"') < r.text.indexOf('"id"'));
      assert.doesNotMatch(r.text, /"error"|"message"/);
    });

    it('rejects duplicate names, unknown drivers and over-long names', async () => {
      expectError(
        await kmd.call('POST', '/v1/wallet', { wallet_name: 'main', wallet_password: 'x', wallet_driver_name: 'sqlite' }),
        400,
        'wallet with same name already exists',
      );
      expectError(
        await kmd.call('POST', '/v1/wallet', { wallet_name: 'other', wallet_password: 'x', wallet_driver_name: 'ledger' }),
        400,
        'unknown wallet driver',
      );
      expectError(await kmd.call('POST', '/v1/wallet', { wallet_name: 'n'.repeat(65), wallet_password: 'x' }), 400, /too long/);
      const ok = await kmd.call('POST', '/v1/wallet', { wallet_name: 'n'.repeat(64), wallet_password: '' });
      assert.equal(ok.status, 200, 'an empty password and a 64-byte name are allowed');
    });

    it('init: wrong password → 401, unknown wallet → 400 "wallet not found"', async () => {
      expectError(await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: 'nope' }), 401, 'error decrypting. wrong password?');
      expectError(await kmd.call('POST', '/v1/wallet/init', { wallet_id: 'f'.repeat(32), wallet_password: PASSWORD }), 400, 'wallet not found');
      // A second handle on an unlocked wallet still checks the password.
      expectError(
        await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: PASSWORD + ' ' }),
        401,
        'error decrypting. wrong password?',
      );
      assert.notEqual(await init(), token);
    });

    it('renames with the password and keeps handles pointing at the renamed wallet', async () => {
      expectError(
        await kmd.call('POST', '/v1/wallet/rename', { wallet_id: walletId, wallet_name: 'renamed', wallet_password: 'bad' }),
        401,
        'error decrypting. wrong password?',
      );
      await createWallet('taken');
      expectError(
        await kmd.call('POST', '/v1/wallet/rename', { wallet_id: walletId, wallet_name: 'taken', wallet_password: PASSWORD }),
        400,
        'wallet with same name already exists',
      );
      const r = await kmd.call('POST', '/v1/wallet/rename', { wallet_id: walletId, wallet_name: 'renamed', wallet_password: PASSWORD });
      assert.equal(r.status, 200, r.text);
      assert.equal((r.body.wallet as { name: string }).name, 'renamed');
      const info = await kmd.call('POST', '/v1/wallet/info', { wallet_handle_token: token });
      assert.equal((info.body.wallet_handle as { wallet: { name: string } }).wallet.name, 'renamed');
      // Renaming a locked wallet (no handle) checks the password against the file.
      await kmd.call('POST', '/v1/wallet/release', { wallet_handle_token: token });
      const other = (await kmd.call('GET', '/v1/wallets')).body.wallets as { id: string; name: string }[];
      const takenId = other.find((w) => w.name === 'taken')!.id;
      expectError(
        await kmd.call('POST', '/v1/wallet/rename', { wallet_id: takenId, wallet_name: 'x', wallet_password: 'bad' }),
        401,
        'error decrypting. wrong password?',
      );
      assert.equal((await kmd.call('POST', '/v1/wallet/rename', { wallet_id: takenId, wallet_name: 'x', wallet_password: PASSWORD })).status, 200);
    });
  });

  describe('wallet handle tokens', () => {
    it('has the 16.64 hex shape and reports 60 s that only renew restores', async () => {
      assert.match(token, /^[0-9a-f]{16}\.[0-9a-f]{64}$/);
      const info = async () =>
        (await kmd.call('POST', '/v1/wallet/info', { wallet_handle_token: token })).body.wallet_handle as { expires_seconds: number; wallet: { id: string } };
      assert.equal((await info()).expires_seconds, 60);
      assert.equal((await info()).wallet.id, walletId);
      kmd.clock.advance(25.5);
      assert.equal((await info()).expires_seconds, 34, 'whole seconds, truncated');
      await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      assert.equal((await info()).expires_seconds, 34, 'other calls do not extend the handle');
      const renewed = await kmd.call('POST', '/v1/wallet/renew', { wallet_handle_token: token });
      assert.equal((renewed.body.wallet_handle as { expires_seconds: number }).expires_seconds, 60);
      kmd.clock.advance(60);
      assert.equal((await info()).expires_seconds, 0);
      kmd.clock.advance(1);
      expectError(await kmd.call('POST', '/v1/wallet/info', { wallet_handle_token: token }), 401, 'handle expired');
      expectError(await kmd.call('POST', '/v1/wallet/renew', { wallet_handle_token: token }), 401, 'handle does not exist');
    });

    it('release makes the token unusable', async () => {
      const r = await kmd.call('POST', '/v1/wallet/release', { wallet_handle_token: token });
      assert.deepEqual([r.status, r.body], [200, {}]);
      expectError(await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token }), 401, 'handle does not exist');
    });

    it('distinguishes malformed, unknown and forged tokens', async () => {
      const [id, secret] = token.split('.') as [string, string];
      const cases: [string, string][] = [
        ['', 'wrong number of token parts'],
        ['a.b.c', 'wrong number of token parts'],
        [`XYZ.${secret}`, 'invalid wallet handle id'],
        [`${id}.abc`, 'invalid wallet handle secret'],
        [`${'0'.repeat(16)}.${secret}`, 'handle does not exist'],
        [`${id}.${'0'.repeat(64)}`, 'invalid token'],
      ];
      for (const [t, message] of cases) expectError(await kmd.call('POST', '/v1/key/list', { wallet_handle_token: t }), 401, message);
      expectError(await kmd.call('POST', '/v1/key/list', {}), 401, 'wrong number of token parts');
    });
  });

  describe('keys', () => {
    it('generates the deterministic sequence of the master derivation key', async () => {
      const a = await kmd.call('POST', '/v1/key', { wallet_handle_token: token, display_mnemonic: false });
      const b = await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      assert.deepEqual([a.body.address, b.body.address], [KEY1, KEY2]);
      const list = await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token });
      assert.deepEqual(list.body, { addresses: [KEY1, KEY2] });
      expectError(
        await kmd.call('POST', '/v1/key', { wallet_handle_token: token, display_mnemonic: true }),
        400,
        'sqlite wallet driver cannot display mnemonics',
      );
    });

    it('concurrent generate calls hand out each index exactly once', async () => {
      const results = await Promise.all(Array.from({ length: 6 }, () => kmd.call('POST', '/v1/key', { wallet_handle_token: token })));
      const got = results.map((r) => r.body.address as string).sort();
      const want = [1, 2, 3, 4, 5, 6].map((i) => deriveKey(MDK, i).address).sort();
      assert.deepEqual(got, want);
    });

    it('an empty key list is omitted from the body', async () => {
      const list = await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token });
      assert.deepEqual([list.status, list.body], [200, {}]);
    });

    it('exports the master derivation key (array form) only with the password', async () => {
      const r = await kmd.call('POST', '/v1/master-key/export', { wallet_handle_token: token, wallet_password: PASSWORD });
      assert.deepEqual(r.body, { master_derivation_key: Array.from(MDK) });
      expectError(
        await kmd.call('POST', '/v1/master-key/export', { wallet_handle_token: token, wallet_password: 'x' }),
        400,
        'error decrypting. wrong password?',
      );
    });

    it('a wallet created without a master derivation key gets a random one', async () => {
      const id = await createWallet('random', { master_derivation_key: toBase64(new Uint8Array(32)) });
      const t = await init(id);
      const r = await kmd.call('POST', '/v1/master-key/export', { wallet_handle_token: t, wallet_password: PASSWORD });
      const mdk = r.body.master_derivation_key as number[];
      assert.equal(mdk.length, 32);
      assert.ok(mdk.some((b) => b !== 0));
      const k = await kmd.call('POST', '/v1/key', { wallet_handle_token: t });
      assert.equal(k.body.address, deriveKey(Uint8Array.from(mdk), 1).address);
    });

    it('imports (base64 or array), exports and deletes keys', async () => {
      const pair = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(9));
      const addr = encodeAddress(pair.publicKey);
      const imp = await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: toBase64(pair.secretKey) });
      assert.deepEqual(imp.body, { address: addr });
      expectError(
        await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: Array.from(pair.secretKey) }),
        400,
        'key already exists in wallet',
      );
      const bad = pair.secretKey;
      bad[40] ^= 1;
      expectError(await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: Array.from(bad) }), 400, /private key/);
      const exp = await kmd.call('POST', '/v1/key/export', { wallet_handle_token: token, wallet_password: PASSWORD, address: addr });
      assert.deepEqual(exp.body, { private_key: Array.from(pair.secretKey) });
      expectError(
        await kmd.call('POST', '/v1/key/export', { wallet_handle_token: token, wallet_password: 'x', address: addr }),
        400,
        'error decrypting. wrong password?',
      );
      expectError(
        await kmd.call('POST', '/v1/key/export', { wallet_handle_token: token, wallet_password: PASSWORD, address: 'nonsense' }),
        400,
        'could not decode address',
      );
      expectError(
        await kmd.call('POST', '/v1/key/export', { wallet_handle_token: token, wallet_password: PASSWORD, address: KEY1 }),
        400,
        'key does not exist in this wallet',
      );
      expectError(
        await kmd.call('DELETE', '/v1/key', { wallet_handle_token: token, wallet_password: 'x', address: addr }),
        400,
        'error decrypting. wrong password?',
      );
      const del = await kmd.call('DELETE', '/v1/key', { wallet_handle_token: token, wallet_password: PASSWORD, address: addr });
      assert.deepEqual([del.status, del.body], [200, {}]);
      expectError(
        await kmd.call('DELETE', '/v1/key', { wallet_handle_token: token, wallet_password: PASSWORD, address: addr }),
        400,
        'key does not exist in this wallet',
      );
      assert.deepEqual((await kmd.call('POST', '/v1/key/list', { wallet_handle_token: token })).body, {});
    });

    it('skips a derived key that was imported, and never re-derives a deleted one', async () => {
      await kmd.call('POST', '/v1/key/import', { wallet_handle_token: token, private_key: toBase64(deriveKey(MDK, 1).secretKey) });
      const a = await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      assert.equal(a.body.address, KEY2);
      await kmd.call('DELETE', '/v1/key', { wallet_handle_token: token, wallet_password: PASSWORD, address: KEY2 });
      const b = await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      assert.equal(b.body.address, deriveKey(MDK, 3).address);
    });
  });

  describe('multisig records', () => {
    it('imports, lists, exports and deletes preimages', async () => {
      const pks = [decodeAddress(KEY1), decodeAddress(KEY2)];
      const expected = multisigAddress({ version: 1, threshold: 2, addrs: pks }).toString();
      const imp = await kmd.call('POST', '/v1/multisig/import', {
        wallet_handle_token: token,
        multisig_version: 1,
        threshold: 2,
        pks: [Array.from(pks[0]!), toBase64(pks[1]!)],
      });
      assert.deepEqual(imp.body, { address: expected });
      assert.deepEqual((await kmd.call('POST', '/v1/multisig/list', { wallet_handle_token: token })).body, { addresses: [expected] });
      const exp = await kmd.call('POST', '/v1/multisig/export', { wallet_handle_token: token, address: expected });
      assert.deepEqual(exp.body, { multisig_version: 1, pks: pks.map((k) => Array.from(k)), threshold: 2 });
      expectError(
        await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 1, threshold: 3, pks: [toBase64(pks[0]!)] }),
        400,
        /threshold/,
      );
      expectError(
        await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 2, threshold: 1, pks: [toBase64(pks[0]!)] }),
        400,
        /version/,
      );
      expectError(
        await kmd.call('DELETE', '/v1/multisig', { wallet_handle_token: token, wallet_password: 'x', address: expected }),
        400,
        'error decrypting. wrong password?',
      );
      assert.equal((await kmd.call('DELETE', '/v1/multisig', { wallet_handle_token: token, wallet_password: PASSWORD, address: expected })).status, 200);
      const missing = 'multisig information (pks, threshold) for address does not exist in this wallet';
      expectError(await kmd.call('POST', '/v1/multisig/export', { wallet_handle_token: token, address: expected }), 400, missing);
      expectError(await kmd.call('DELETE', '/v1/multisig', { wallet_handle_token: token, wallet_password: PASSWORD, address: expected }), 400, missing);
    });
  });

  describe('signing', () => {
    beforeEach(async () => {
      await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
      await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
    });

    const sign = (body: Record<string, unknown>) =>
      kmd.call('POST', '/v1/transaction/sign', { wallet_handle_token: token, wallet_password: PASSWORD, ...body });

    it('signs a transaction with the sender key', async () => {
      const txn = payment(KEY1);
      const r = await sign({ transaction: toBase64(encodeTransaction(txn)) });
      assert.equal(r.status, 200, r.text);
      const stxn = decodeSignedTransaction(fromBase64(r.body.signed_transaction as string));
      assert.equal(stxn.authAddress, undefined);
      assert.ok(verifySignedTransaction(stxn));
      assert.ok(ed25519Verify(decodeAddress(KEY1), bytesToSign(txn), stxn.sig!));
    });

    it('signs with an explicit public key (rekeyed sender) and sets the authorizer', async () => {
      const outsider = encodeAddress(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(3)).publicKey);
      const txn = payment(outsider);
      const r = await sign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(decodeAddress(KEY2)) });
      assert.equal(r.status, 200, r.text);
      const stxn = decodeSignedTransaction(fromBase64(r.body.signed_transaction as string));
      assert.equal(stxn.authAddress?.toString(), KEY2);
      assert.ok(verifySignedTransaction(stxn));
      expectError(await sign({ transaction: toBase64(encodeTransaction(txn)) }), 400, 'key does not exist in this wallet');
    });

    it('rejects undecodable transactions and wrong passwords', async () => {
      expectError(await sign({ transaction: toBase64(utf8('not msgpack at all')) }), 400, 'could not decode transaction');
      expectError(await sign({ transaction: toBase64(encodeTransaction(payment(KEY1))), wallet_password: 'x' }), 400, 'error decrypting. wrong password?');
    });

    it('signs programs over "Program" || data', async () => {
      const program = new Uint8Array([0x01, 0x20, 0x01, 0x01, 0x22]);
      const r = await kmd.call('POST', '/v1/program/sign', { wallet_handle_token: token, wallet_password: PASSWORD, address: KEY1, data: toBase64(program) });
      assert.equal(r.status, 200, r.text);
      const sig = fromBase64(r.body.sig as string);
      assert.ok(ed25519Verify(decodeAddress(KEY1), concatBytes(utf8('Program'), program), sig));
      expectError(
        await kmd.call('POST', '/v1/program/sign', { wallet_handle_token: token, wallet_password: PASSWORD, address: KEY1.slice(0, 57) + 'A', data: '' }),
        400,
        'could not decode address',
      );
    });

    describe('multisig', () => {
      const outsiderPair = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(5));
      const keys = () => [decodeAddress(KEY1), decodeAddress(KEY2), outsiderPair.publicKey];
      const msigAddr = () => multisigAddress({ version: 1, threshold: 2, addrs: keys() }).toString();
      const msign = (body: Record<string, unknown>) =>
        kmd.call('POST', '/v1/multisig/sign', { wallet_handle_token: token, wallet_password: PASSWORD, ...body });

      it('starts from the stored preimage and extends a partial signature (both member namings)', async () => {
        await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 1, threshold: 2, pks: keys().map(toBase64) });
        const txn = payment(msigAddr());
        const first = await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: Array.from(decodeAddress(KEY1)) });
        assert.equal(first.status, 200, first.text);
        const m1 = multisigFromWire(decodeMsgpack(fromBase64(first.body.multisig as string)), 'multisig');
        assert.equal(m1.subsigs.filter((s) => s.signature).length, 1);
        assert.equal(verifyMultisig(m1, bytesToSign(txn)), false, 'one of two is below the threshold');
        const partial = {
          Version: m1.version,
          Threshold: m1.threshold,
          Subsigs: m1.subsigs.map((s) => (s.signature ? { Key: Array.from(s.publicKey), Sig: Array.from(s.signature) } : { Key: Array.from(s.publicKey) })),
        };
        const second = await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(decodeAddress(KEY2)), partial_multisig: partial });
        assert.equal(second.status, 200, second.text);
        const m2 = multisigFromWire(decodeMsgpack(fromBase64(second.body.multisig as string)), 'multisig');
        assert.ok(verifyMultisig(m2, bytesToSign(txn), Address.fromString(msigAddr())));
        // The codec naming (v/thr/subsig/pk/s) is accepted too.
        const codec = { v: 1, thr: 2, subsig: keys().map((k) => ({ pk: toBase64(k) })) };
        const third = await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(decodeAddress(KEY2)), partial_multisig: codec });
        assert.equal(third.status, 200, third.text);
      });

      it('checks the preimage against sender or signer and the key against the preimage', async () => {
        const partial = { v: 1, thr: 2, subsig: keys().map((k) => ({ pk: toBase64(k) })) };
        const stranger = payment(KEY1);
        expectError(
          await msign({ transaction: toBase64(encodeTransaction(stranger)), public_key: toBase64(decodeAddress(KEY1)), partial_multisig: partial }),
          400,
          'given multisig preimage hashes to neither Sender nor AuthAddr',
        );
        // A rekeyed sender: the multisig is the authorizer named in `signer`.
        const ok = await msign({
          transaction: toBase64(encodeTransaction(stranger)),
          public_key: toBase64(decodeAddress(KEY1)),
          partial_multisig: partial,
          signer: toBase64(decodeAddress(msigAddr())),
        });
        assert.equal(ok.status, 200, ok.text);
        const txn = payment(msigAddr());
        expectError(
          await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(new Uint8Array(32).fill(1)), partial_multisig: partial }),
          400,
          'given key is not a possible signer for this multisig',
        );
        expectError(
          await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(outsiderPair.publicKey), partial_multisig: partial }),
          400,
          'key does not exist in this wallet',
        );
        expectError(
          await msign({ transaction: toBase64(encodeTransaction(txn)), public_key: toBase64(decodeAddress(KEY1)) }),
          400,
          /does not exist in this wallet/,
        );
      });

      it('signs programs for a multisig ("MsigProgram" || address || program, or legacy "Program" || program)', async () => {
        const program = new Uint8Array([0x0a, 0x81, 0x01]);
        const addr = msigAddr();
        const partial = { v: 1, thr: 2, subsig: keys().map((k) => ({ pk: toBase64(k) })) };
        const body = {
          wallet_handle_token: token,
          wallet_password: PASSWORD,
          address: addr,
          data: toBase64(program),
          public_key: toBase64(decodeAddress(KEY2)),
          partial_multisig: partial,
        };
        const r = await kmd.call('POST', '/v1/multisig/signprogram', body);
        assert.equal(r.status, 200, r.text);
        const m = multisigFromWire(decodeMsgpack(fromBase64(r.body.multisig as string)), 'multisig');
        const sig = m.subsigs[1]!.signature!;
        assert.ok(ed25519Verify(decodeAddress(KEY2), concatBytes(utf8('MsigProgram'), decodeAddress(addr), program), sig));
        const legacy = await kmd.call('POST', '/v1/multisig/signprogram', { ...body, use_legacy_msig: true });
        const ml = multisigFromWire(decodeMsgpack(fromBase64(legacy.body.multisig as string)), 'multisig');
        assert.ok(ed25519Verify(decodeAddress(KEY2), concatBytes(utf8('Program'), program), ml.subsigs[1]!.signature!));
        expectError(await kmd.call('POST', '/v1/multisig/signprogram', { ...body, address: KEY1 }), 400, /does not hash to the given address/);
      });
    });
  });
});
