import assert from 'node:assert/strict';
import { KeyManagerClient, KeyManagerError, type WalletSession } from '../../../sdk/src/adapters/kmd/client.js';
import { HttpError } from '../../../sdk/src/adapters/http/errors.js';
import { fromBase64, toBase64 } from '../../../sdk/src/encoding/base64.js';
import { encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { multisigToWire } from '../../../sdk/src/txn/wire.js';
import { decodeSignedTransaction, encodeTransaction } from '../../../sdk/src/txn/encode.js';
import { FakeServer, json, sameBytes, sleep, type RecordedRequest } from './fake-server.js';

const API_TOKEN = 'kmd-api-token-abcdef0123456789';
const HANDLE = '0123456789abcdef.' + 'ab'.repeat(32);
const PASSWORD = 'wallet-password-Zx81!';
const ADDR = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
const WALLET = { id: 'f'.repeat(32), name: 'dev', driver_name: 'sqlite', driver_version: 1, mnemonic_ux: false, supported_txs: ['pay', 'keyreg'] };
const STX = fromBase64(
  'gqNzaWfEQPhUAZ3xkDDcc8FvOVo6UinzmKBCqs0woYSfodlmBMfQvGbeUx3Srxy3dyJDzv7rLm26BRv9FnL2/AuT7NYfiAWjdHhui6NhbXTNA+ilY2xvc2XEIEDpNJKIJWTLzpxZpptnVCaJ6aHDoqnqW2Wm6KRCH/xXo2ZlZc0EmKJmds0wsqNnZW6sZGV2bmV0LXYzMy4womdoxCAmCyAJoJOohot5WHIvpeVG7eftF+TYXEx4r7BFJpDt0qJsds00mqRub3RlxAjqABVHQ2y/lqNyY3bEIHts4k/rW6zAsWTinCIsV/X2PcOH1DkEglhBHF/hD3wCo3NuZMQg5/D4TQaBHfnzHI2HixFV9GcdUaGFwgCQhmf0SVhwaKGkdHlwZaNwYXk=',
);
const PK = new Uint8Array(32).fill(7);
const PK2 = new Uint8Array(32).fill(9);
const SIG = new Uint8Array(64).fill(5);
const MDK = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('adapters/kmd: every operation of key-manager-service.md', () => {
  let server: FakeServer;
  let kmd: KeyManagerClient;
  let reply: unknown;

  before(async () => {
    server = await FakeServer.start((_r, res) => json(res, 200, reply));
    kmd = new KeyManagerClient({ url: server.url, token: API_TOKEN, retry: false });
  });
  after(async () => {
    await kmd.close();
    await server.close();
  });

  function expect(method: string, path: string, body?: unknown): RecordedRequest {
    const r = server.last;
    assert.equal(r.method, method);
    assert.equal(r.path, path);
    assert.equal(r.headers['x-kmd-api-token'], API_TOKEN);
    if (body === undefined) assert.equal(r.body.length, 0);
    else {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.deepEqual(r.json(), body);
    }
    return r;
  }

  it('GET /swagger.json and GET /versions', async () => {
    reply = { swagger: '2.0' };
    assert.deepEqual(await kmd.swagger(), { swagger: '2.0' });
    expect('GET', '/swagger.json');
    reply = { versions: ['v1'] };
    assert.deepEqual(await kmd.versions(), ['v1']);
    expect('GET', '/versions');
  });

  it('GET /v1/wallets', async () => {
    reply = { wallets: [WALLET] };
    assert.deepEqual(await kmd.listWallets(), [
      { id: WALLET.id, name: 'dev', driverName: 'sqlite', driverVersion: 1, mnemonicUx: false, supportedTxs: ['pay', 'keyreg'] },
    ]);
    expect('GET', '/v1/wallets');
    reply = {};
    assert.deepEqual(await kmd.listWallets(), []);
  });

  it('POST /v1/wallet (master derivation key as a byte array)', async () => {
    reply = { wallet: WALLET };
    const w = await kmd.createWallet('dev', PASSWORD, { masterDerivationKey: MDK });
    expect('POST', '/v1/wallet', { wallet_name: 'dev', wallet_password: PASSWORD, wallet_driver_name: 'sqlite', master_derivation_key: Array.from(MDK) });
    assert.equal(w.id, WALLET.id);
  });

  it('POST /v1/wallet/init, /info, /renew, /release, /rename', async () => {
    reply = { wallet_handle_token: HANDLE };
    assert.equal(await kmd.initWalletHandle(WALLET.id, PASSWORD), HANDLE);
    expect('POST', '/v1/wallet/init', { wallet_id: WALLET.id, wallet_password: PASSWORD });
    reply = { wallet_handle: { wallet: WALLET, expires_seconds: 59 } };
    assert.equal((await kmd.walletInfo(HANDLE)).expiresSeconds, 59);
    expect('POST', '/v1/wallet/info', { wallet_handle_token: HANDLE });
    assert.equal((await kmd.renewWalletHandle(HANDLE)).wallet.name, 'dev');
    expect('POST', '/v1/wallet/renew', { wallet_handle_token: HANDLE });
    reply = {};
    await kmd.releaseWalletHandle(HANDLE);
    expect('POST', '/v1/wallet/release', { wallet_handle_token: HANDLE });
    reply = { wallet: { ...WALLET, name: 'renamed' } };
    assert.equal((await kmd.renameWallet(WALLET.id, 'renamed', PASSWORD)).name, 'renamed');
    expect('POST', '/v1/wallet/rename', { wallet_id: WALLET.id, wallet_name: 'renamed', wallet_password: PASSWORD });
  });

  it('POST /v1/key, DELETE /v1/key, /key/export, /key/import, /key/list', async () => {
    reply = { address: ADDR };
    assert.equal(await kmd.generateKey(HANDLE), ADDR);
    expect('POST', '/v1/key', { wallet_handle_token: HANDLE, display_mnemonic: false });
    reply = {};
    await kmd.deleteKey(HANDLE, PASSWORD, ADDR);
    expect('DELETE', '/v1/key', { address: ADDR, wallet_handle_token: HANDLE, wallet_password: PASSWORD });
    const sk = new Uint8Array(64).fill(3);
    reply = { private_key: toBase64(sk) };
    assert.deepEqual(await kmd.exportKey(HANDLE, PASSWORD, ADDR), sk);
    expect('POST', '/v1/key/export', { address: ADDR, wallet_handle_token: HANDLE, wallet_password: PASSWORD });
    reply = { private_key: Array.from(sk) };
    assert.deepEqual(await kmd.exportKey(HANDLE, PASSWORD, ADDR), sk, 'number-array form accepted too');
    reply = { address: ADDR };
    assert.equal(await kmd.importKey(HANDLE, sk), ADDR);
    expect('POST', '/v1/key/import', { private_key: Array.from(sk), wallet_handle_token: HANDLE });
    reply = { addresses: [ADDR] };
    assert.deepEqual(await kmd.listKeys(HANDLE), [ADDR]);
    expect('POST', '/v1/key/list', { wallet_handle_token: HANDLE });
  });

  it('POST /v1/master-key/export', async () => {
    reply = { master_derivation_key: toBase64(MDK) };
    assert.deepEqual(await kmd.exportMasterKey(HANDLE, PASSWORD), MDK);
    expect('POST', '/v1/master-key/export', { wallet_handle_token: HANDLE, wallet_password: PASSWORD });
  });

  it('multisig records: import, export, list, delete', async () => {
    reply = { address: ADDR };
    assert.equal(await kmd.importMultisig(HANDLE, { version: 1, threshold: 2, publicKeys: [PK, PK2] }), ADDR);
    expect('POST', '/v1/multisig/import', { multisig_version: 1, threshold: 2, pks: [Array.from(PK), Array.from(PK2)], wallet_handle_token: HANDLE });
    reply = { multisig_version: 1, threshold: 2, pks: [toBase64(PK), Array.from(PK2)] };
    assert.deepEqual(await kmd.exportMultisig(HANDLE, ADDR), { version: 1, threshold: 2, publicKeys: [PK, PK2] });
    expect('POST', '/v1/multisig/export', { address: ADDR, wallet_handle_token: HANDLE });
    reply = { addresses: [ADDR] };
    assert.deepEqual(await kmd.listMultisig(HANDLE), [ADDR]);
    expect('POST', '/v1/multisig/list', { wallet_handle_token: HANDLE });
    reply = {};
    await kmd.deleteMultisig(HANDLE, PASSWORD, ADDR);
    expect('DELETE', '/v1/multisig', { address: ADDR, wallet_handle_token: HANDLE, wallet_password: PASSWORD });
  });

  it('POST /v1/transaction/sign (base64 msgpack transaction, optional public key)', async () => {
    const stxn = decodeSignedTransaction(STX);
    reply = { signed_transaction: toBase64(STX) };
    sameBytes(await kmd.signTransaction(HANDLE, PASSWORD, stxn.txn), STX);
    expect('POST', '/v1/transaction/sign', { transaction: toBase64(encodeTransaction(stxn.txn)), wallet_handle_token: HANDLE, wallet_password: PASSWORD });
    await kmd.signTransaction(HANDLE, PASSWORD, stxn.txn, PK);
    assert.deepEqual((server.last.json() as { public_key: number[] }).public_key, Array.from(PK));
    // A signed envelope is unwrapped to its inner transaction; bare transaction bytes pass through.
    await kmd.signTransaction(HANDLE, PASSWORD, STX);
    assert.equal((server.last.json() as { transaction: string }).transaction, toBase64(encodeTransaction(stxn.txn)));
    await kmd.signTransaction(HANDLE, PASSWORD, encodeTransaction(stxn.txn));
    assert.equal((server.last.json() as { transaction: string }).transaction, toBase64(encodeTransaction(stxn.txn)));
  });

  it('POST /v1/program/sign', async () => {
    reply = { sig: toBase64(SIG) };
    const program = new Uint8Array([0x01, 0x20, 0x01, 0x01, 0x22]);
    assert.deepEqual(await kmd.signProgram(HANDLE, PASSWORD, ADDR, program), SIG);
    expect('POST', '/v1/program/sign', { address: ADDR, data: toBase64(program), wallet_handle_token: HANDLE, wallet_password: PASSWORD });
  });

  it('POST /v1/multisig/sign (spec member names for partial_multisig)', async () => {
    const partial = { version: 1, threshold: 2, subsigs: [{ publicKey: PK, signature: SIG }, { publicKey: PK2 }] };
    const done = {
      version: 1,
      threshold: 2,
      subsigs: [
        { publicKey: PK, signature: SIG },
        { publicKey: PK2, signature: SIG },
      ],
    };
    reply = { multisig: toBase64(encodeMsgpack(multisigToWire(done))) };
    const txn = decodeSignedTransaction(STX).txn;
    const r = await kmd.signMultisigTransaction(HANDLE, PASSWORD, { transaction: txn, publicKey: PK2, partial, signer: PK });
    expect('POST', '/v1/multisig/sign', {
      transaction: toBase64(encodeTransaction(txn)),
      public_key: Array.from(PK2),
      wallet_handle_token: HANDLE,
      wallet_password: PASSWORD,
      partial_multisig: { Version: 1, Threshold: 2, Subsigs: [{ Key: Array.from(PK), Sig: Array.from(SIG) }, { Key: Array.from(PK2) }] },
      signer: Array.from(PK),
    });
    assert.deepEqual(r.multisig, done);
  });

  it('POST /v1/multisig/signprogram', async () => {
    const done = { version: 1, threshold: 1, subsigs: [{ publicKey: PK, signature: SIG }] };
    reply = { multisig: toBase64(encodeMsgpack(multisigToWire(done))) };
    const program = new Uint8Array([0x01, 0x20, 0x01, 0x01, 0x22]);
    const r = await kmd.signMultisigProgram(HANDLE, PASSWORD, { address: ADDR, program, publicKey: PK });
    expect('POST', '/v1/multisig/signprogram', {
      address: ADDR,
      data: toBase64(program),
      public_key: Array.from(PK),
      wallet_handle_token: HANDLE,
      wallet_password: PASSWORD,
    });
    assert.deepEqual(r.multisig, done);
  });

  it('can speak the reference daemon dialect (base64 bytes, codec multisig names)', async () => {
    const alt = new KeyManagerClient({ url: server.url, token: API_TOKEN, retry: false, byteForm: 'base64', multisigForm: 'codec' });
    reply = { multisig: toBase64(encodeMsgpack(multisigToWire({ version: 1, threshold: 1, subsigs: [{ publicKey: PK, signature: SIG }] }))) };
    await alt.signMultisigProgram(HANDLE, PASSWORD, {
      address: ADDR,
      program: new Uint8Array([1]),
      publicKey: PK,
      partial: { version: 1, threshold: 1, subsigs: [{ publicKey: PK }] },
    });
    const body = server.last.json() as Record<string, unknown>;
    assert.equal(body.public_key, toBase64(PK));
    assert.deepEqual(body.partial_multisig, { v: 1, thr: 1, subsig: [{ pk: toBase64(PK) }] });
    await alt.close();
  });

  it('reports error:true bodies as KeyManagerError without echoing secrets', async () => {
    reply = { error: true, message: `wrong password ${PASSWORD} for handle ${HANDLE}` };
    const err = await kmd.exportKey(HANDLE, PASSWORD, ADDR).catch((e: unknown) => e);
    assert.ok(err instanceof KeyManagerError);
    assert.ok(!err.message.includes(PASSWORD) && !err.message.includes(HANDLE), err.message);
    assert.ok(err.message.includes('wrong password'));
  });
});

describe('adapters/kmd: wallet sessions', () => {
  let server: FakeServer;
  let kmd: KeyManagerClient;
  let handleCounter: number;
  let expired: Set<string>;

  beforeEach(async () => {
    handleCounter = 0;
    expired = new Set();
    server = await FakeServer.start((req, res) => {
      const body = req.body.length ? (req.json() as Record<string, string>) : {};
      if (body.wallet_handle_token && expired.has(body.wallet_handle_token)) return json(res, 401, { error: true, message: 'handle expired' });
      switch (req.path) {
        case '/v1/wallets':
          return json(res, 200, { wallets: [WALLET] });
        case '/v1/wallet/init':
          return json(res, 200, { wallet_handle_token: `h${++handleCounter}` });
        case '/v1/wallet/info':
        case '/v1/wallet/renew':
          return json(res, 200, { wallet_handle: { wallet: WALLET, expires_seconds: 60 } });
        case '/v1/key/list':
          return json(res, 200, { addresses: [ADDR] });
        default:
          return json(res, 200, {});
      }
    });
    kmd = new KeyManagerClient({ url: server.url, token: API_TOKEN, retry: false });
  });
  afterEach(async () => {
    await kmd.close();
    await server.close();
  });

  const calls = (path: string) => server.requests.filter((r) => r.path === path);

  it('opens by name, renews while open, releases on close', async () => {
    const session = await kmd.openWallet('dev', PASSWORD, { renewEveryMs: 15 });
    assert.deepEqual(await session.listKeys(), [ADDR]);
    // Poll (bounded) rather than assume timer precision on a loaded machine.
    for (let i = 0; i < 200 && calls('/v1/wallet/renew').length < 2; i++) await sleep(10);
    assert.ok(calls('/v1/wallet/renew').length >= 2, `renewed ${calls('/v1/wallet/renew').length} times`);
    await session.close();
    const renewsAtClose = calls('/v1/wallet/renew').length;
    assert.deepEqual(
      calls('/v1/wallet/release').map((r) => r.json()),
      [{ wallet_handle_token: 'h1' }],
    );
    await sleep(60);
    // close() clears the timer synchronously; at most one renewal already on the wire can land later.
    assert.ok(calls('/v1/wallet/renew').length <= renewsAtClose + 1, 'no renewals after close');
    await assert.rejects(session.listKeys(), KeyManagerError);
    await session.close();
    assert.equal(calls('/v1/wallet/release').length, 1, 'close is idempotent');
  });

  it('derives the renewal interval from the handle lifetime', async () => {
    const session = await kmd.openWallet(WALLET.id, PASSWORD);
    assert.equal(calls('/v1/wallet/info').length, 1);
    await session.close();
  });

  it('releases through Symbol.asyncDispose', async () => {
    const session: WalletSession = await kmd.openWallet('dev', PASSWORD, { renewEveryMs: 1000 });
    await session[Symbol.asyncDispose]();
    assert.equal(calls('/v1/wallet/release').length, 1);
    assert.equal(session.isOpen, false);
  });

  it('re-acquires an expired handle once and carries on', async () => {
    const session = await kmd.openWallet('dev', PASSWORD, { renewEveryMs: 10_000 });
    expired.add('h1');
    assert.deepEqual(await session.listKeys(), [ADDR]);
    assert.equal(calls('/v1/wallet/init').length, 2);
    assert.deepEqual(
      calls('/v1/key/list').map((r) => (r.json() as { wallet_handle_token: string }).wallet_handle_token),
      ['h1', 'h2'],
    );
    await session.close();
  });

  it('shares one re-initialisation between concurrent calls that hit an expired handle', async () => {
    const session = await kmd.openWallet('dev', PASSWORD, { renewEveryMs: 10_000 });
    expired.add('h1');
    const results = await Promise.all([session.listKeys(), session.listKeys(), session.listKeys()]);
    assert.deepEqual(results, [[ADDR], [ADDR], [ADDR]]);
    assert.equal(calls('/v1/wallet/init').length, 2);
    await session.close();
  });

  it('never exposes the password or handle through the session object', async () => {
    const session = await kmd.openWallet('dev', PASSWORD, { renewEveryMs: 10_000 });
    const shown = JSON.stringify(session) + String(session) + (await import('node:util')).inspect(session, { depth: 5 });
    assert.ok(!shown.includes(PASSWORD) && !shown.includes('h1'), shown);
    await session.close();
  });

  it('fails clearly for an unknown wallet', async () => {
    await assert.rejects(
      kmd.openWallet('nope', PASSWORD),
      (e: unknown) => e instanceof KeyManagerError && /nope/.test(e.message) && !e.message.includes(PASSWORD),
    );
  });

  it('401 for a bad API token is an HttpError without the token', async () => {
    server.handler = (_r, res) => json(res, 401, { error: true, message: 'invalid API token' });
    await assert.rejects(
      kmd.listWallets(),
      (e: unknown) => e instanceof HttpError && e.status === 401 && e.serviceMessage === 'invalid API token' && !e.message.includes(API_TOKEN),
    );
  });
});
