import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import algosdk from 'algosdk';
import { request } from 'undici';
import { toBase64, fromBase64 } from '../../../../sdk/src/encoding/base64.js';
import { encodeTransaction, txid } from '../../../../sdk/src/txn/encode.js';
import { makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, DevnetConfigError, isLoopback, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';

async function call(
  base: string,
  header: string,
  token: string | null,
  method: string,
  path: string,
  body?: Uint8Array | string,
): Promise<{ status: number; json: any; text: string }> {
  const headers: Record<string, string> = {};
  if (token !== null) headers[header] = token;
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  else if (body) headers['content-type'] = 'application/x-binary';
  const res = await request(base + path, { method: method as 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, text };
}

const nodeCall = (d: RunningDevnet, method: string, path: string, body?: Uint8Array) => call(d.node.url, 'X-Node-API-Token', d.node.token, method, path, body);
const kmdCall = (d: RunningDevnet, method: string, path: string, body?: unknown) =>
  call(d.keyManager.url, 'X-KMD-API-Token', d.keyManager.token, method, path, body === undefined ? undefined : JSON.stringify(body));

/** kmd's byte fields come as base64 text or as an array of byte values, depending on the configured form. */
function bytesOf(v: unknown): Uint8Array {
  return typeof v === 'string' ? fromBase64(v) : Uint8Array.from(v as number[]);
}

describe('devnet: startDevnet composition', function () {
  describe('in memory, ephemeral ports', () => {
    let d: RunningDevnet;
    before(async () => {
      d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 2, kdf: TEST_SCRYPT });
    });
    after(async () => {
      await d.stop();
    });

    it('runs three services on separate loopback ports with distinct tokens', async () => {
      const urls = [d.node.url, d.query.url, d.keyManager.url];
      assert.equal(new Set(urls).size, 3);
      for (const u of urls) assert.match(u, /^http:\/\/127\.0\.0\.1:\d+$/);
      const tokens = [d.node.token, d.query.token, d.keyManager.token];
      assert.equal(new Set(tokens).size, 3);
      for (const t of tokens) assert.match(t, /^[0-9a-f]{64}$/);
      assert.equal((await nodeCall(d, 'GET', '/health')).status, 200);
      assert.equal((await call(d.node.url, 'X-Node-API-Token', d.keyManager.token, 'GET', '/health')).status, 401, "another service's token is refused");
      assert.equal((await call(d.query.url, 'X-Indexer-API-Token', d.query.token, 'GET', '/health')).status, 200);
      assert.equal((await call(d.query.url, 'X-Indexer-API-Token', 'nope', 'GET', '/v2/accounts')).status, 401);
      assert.equal(d.dataDir, undefined);
    });

    it('funds the default wallet keys at genesis', async () => {
      assert.equal(d.accounts.length, 2);
      assert.deepEqual(d.wallet, { name: 'unencrypted-default-wallet', password: '' });
      const wallets = (await kmdCall(d, 'GET', '/v1/wallets')).json.wallets as any[];
      const w = wallets.find((x) => x.name === d.wallet.name);
      assert.ok(w, 'the default wallet is listed');
      const handle = (await kmdCall(d, 'POST', '/v1/wallet/init', { wallet_id: w.id, wallet_password: '' })).json.wallet_handle_token;
      const keys = (await kmdCall(d, 'POST', '/v1/key/list', { wallet_handle_token: handle })).json.addresses as string[];
      assert.deepEqual([...keys].sort(), d.accounts.map((a) => a.address).sort());
      for (const a of d.accounts) {
        const info = (await nodeCall(d, 'GET', `/v1/account/${a.address}`)).json;
        assert.equal(BigInt(info.amount), a.genesisAmount);
      }
    });

    it('pays end to end over HTTP: sign with the key manager, submit to the node, look it up on node and query', async () => {
      const [from, to] = d.accounts.map((a) => a.address) as [string, string];
      const params = (await nodeCall(d, 'GET', '/v1/transactions/params')).json;
      const txn = makePaymentTxn({
        suggestedParams: {
          fee: BigInt(params.minFee),
          flatFee: true,
          firstValid: BigInt(params.lastRound),
          lastValid: BigInt(params.lastRound) + 1000n,
          genesisId: params.genesisID,
          genesisHash: params.genesishashb64,
        },
        sender: from,
        receiver: to,
        amount: 2_500_000n,
        note: 'devnet e2e',
      });
      const wallets = (await kmdCall(d, 'GET', '/v1/wallets')).json.wallets as any[];
      const id = wallets.find((x) => x.name === d.wallet.name).id;
      const handle = (await kmdCall(d, 'POST', '/v1/wallet/init', { wallet_id: id, wallet_password: '' })).json.wallet_handle_token;
      const signed = await kmdCall(d, 'POST', '/v1/transaction/sign', {
        wallet_handle_token: handle,
        wallet_password: '',
        transaction: toBase64(encodeTransaction(txn)),
      });
      assert.equal(signed.status, 200, signed.text);
      const stx = bytesOf(signed.json.signed_transaction);

      const before = d.ledger.balance(to);
      const sent = await nodeCall(d, 'POST', '/v1/transactions', stx);
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.json.txId, txid(txn));
      const pending = (await nodeCall(d, 'GET', `/v1/transactions/pending/${sent.json.txId}`)).json;
      assert.ok(pending.round > 0, 'confirmed');
      assert.equal(pending.payment.amount, 2_500_000);
      const acct = (await nodeCall(d, 'GET', `/v1/account/${to}`)).json;
      assert.equal(BigInt(acct.amount), before + 2_500_000n);

      const q = await call(d.query.url, 'X-Indexer-API-Token', d.query.token, 'GET', `/v2/transactions/${sent.json.txId}`);
      assert.equal(q.status, 200, q.text);
      assert.equal(q.json.transaction.id, sent.json.txId);
      assert.equal(q.json.transaction['confirmed-round'], pending.round);
    });

    it('interop: algosdk Kmd signs and algosdk-encoded bytes are accepted by the node', async () => {
      const url = new URL(d.keyManager.url);
      const kmd = new algosdk.Kmd(d.keyManager.token, `${url.protocol}//${url.hostname}`, url.port);
      const { wallets } = await kmd.listWallets();
      const id = wallets.find((w: any) => w.name === d.wallet.name).id;
      const handle = (await kmd.initWalletHandle(id, '')).wallet_handle_token;
      const [from, to] = d.accounts.map((a) => a.address) as [string, string];
      const round = Number(d.ledger.latestRound);
      const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
        sender: from,
        receiver: to,
        amount: 1234,
        suggestedParams: {
          fee: 1000,
          flatFee: true,
          minFee: 1000,
          firstValid: round,
          lastValid: round + 100,
          genesisID: d.genesisId,
          genesisHash: d.ledger.genesisHash,
        },
      });
      const blob = await kmd.signTransaction(handle, '', txn);
      await kmd.releaseWalletHandle(handle);
      const sent = await nodeCall(d, 'POST', '/v1/transactions', blob);
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.json.txId, txn.txID());
    });
  });

  describe('with a data directory', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tealworks-devnet-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps the chain, the wallet and the tokens across a restart; --reset starts a new chain', async () => {
      const first = await startDevnet({ dataDir: dir, accounts: 2, kdf: TEST_SCRYPT });
      let sentId: string;
      try {
        const [from, to] = first.accounts.map((a) => a.address) as [string, string];
        const handle = await first.wallets.initHandle(first.wallets.findWallet(first.wallet.name)!.id, '');
        const txn = makePaymentTxn({
          suggestedParams: { fee: 1000n, flatFee: true, firstValid: 0n, lastValid: 1000n, genesisId: first.genesisId, genesisHash: first.ledger.genesisHash },
          sender: from,
          receiver: to,
          amount: 77n,
        });
        const stx = await first.wallets.signTransaction(handle, '', encodeTransaction(txn));
        const sent = await nodeCall(first, 'POST', '/v1/transactions', stx);
        assert.equal(sent.status, 200, sent.text);
        sentId = sent.json.txId;
      } finally {
        await first.stop();
      }
      const tokens = JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8'));
      assert.equal(tokens.node, first.node.token);
      if (process.platform !== 'win32') assert.equal(statSync(join(dir, 'tokens.json')).mode & 0o077, 0, 'tokens are private to the owner');

      const second = await startDevnet({ dataDir: dir, kdf: TEST_SCRYPT });
      try {
        assert.equal(second.node.token, first.node.token);
        assert.equal(second.keyManager.token, first.keyManager.token);
        assert.deepEqual(second.accounts, first.accounts);
        assert.equal(second.ledger.latestRound, 1n);
        assert.equal((await nodeCall(second, 'GET', `/v1/transaction/${sentId}`)).status, 200);
      } finally {
        await second.stop();
      }

      await assert.rejects(startDevnet({ dataDir: dir, accounts: 5, kdf: TEST_SCRYPT }), DevnetConfigError);

      const third = await startDevnet({ dataDir: dir, reset: true, accounts: 3, kdf: TEST_SCRYPT });
      try {
        assert.equal(third.ledger.latestRound, 0n);
        assert.equal(third.accounts.length, 3);
        // Issue 22 item 11: as LocalNet's reset, a brand-new wallet too (new funded accounts).
        assert.equal(
          third.accounts.some((a) => first.accounts.some((f) => f.address === a.address)),
          false,
          'new wallet keys',
        );
        assert.equal((await nodeCall(third, 'GET', `/v1/transaction/${sentId}`)).status, 404);
      } finally {
        await third.stop();
      }
    });
  });

  it('with a block interval, a payment waits in the pool and confirms in a later block', async () => {
    const d = await startDevnet({ inMemory: true, accounts: 2, blockIntervalMs: 25 });
    try {
      const [from, to] = d.accounts.map((a) => a.address) as [string, string];
      const handle = await d.wallets.initHandle(d.wallets.findWallet(d.wallet.name)!.id, '');
      const round = d.ledger.latestRound;
      const txn = makePaymentTxn({
        suggestedParams: { fee: 1000n, flatFee: true, firstValid: round, lastValid: round + 1000n, genesisId: d.genesisId, genesisHash: d.ledger.genesisHash },
        sender: from,
        receiver: to,
        amount: 5n,
      });
      const sent = await nodeCall(d, 'POST', '/v1/transactions', await d.wallets.signTransaction(handle, '', encodeTransaction(txn)));
      assert.equal(sent.status, 200, sent.text);
      // Follow the chain block by block (event-driven, no sleeps) until the payment is in.
      let info = (await nodeCall(d, 'GET', `/v1/transactions/pending/${sent.json.txId}`)).json;
      for (let i = 0; i < 200 && info.round === 0; i++) {
        const s = (await nodeCall(d, 'GET', '/v1/status')).json;
        await nodeCall(d, 'GET', `/v1/status/wait-for-block-after/${s.lastRound}/`);
        info = (await nodeCall(d, 'GET', `/v1/transactions/pending/${sent.json.txId}`)).json;
      }
      assert.ok(info.round > Number(round), 'confirmed by the block producer');
      assert.equal(info.poolerror, undefined);
    } finally {
      await d.stop();
    }
  });

  it('stopOnSignals: a SIGTERM stops the services and the handlers go away', async () => {
    const baseline = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    const d = await startDevnet({ inMemory: true, accounts: 1, stopOnSignals: true });
    assert.equal(process.listenerCount('SIGINT'), baseline.int + 1);
    assert.equal(process.listenerCount('SIGTERM'), baseline.term + 1);
    if (baseline.term === 0) {
      // Only our handler listens, so emitting the event runs nothing else in the test process.
      process.emit('SIGTERM');
    }
    await d.stop();
    assert.equal(process.listenerCount('SIGINT'), baseline.int);
    assert.equal(process.listenerCount('SIGTERM'), baseline.term);
    await assert.rejects(request(`${d.node.url}/health`, { headers: { 'X-Node-API-Token': d.node.token } }));
  });

  it('refuses bad ports and knows loopback addresses', async () => {
    await assert.rejects(startDevnet({ inMemory: true, ports: { node: 70000 } }), /node port must be an integer/);
    assert.ok(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost'));
    assert.ok(!isLoopback('0.0.0.0') && !isLoopback('192.168.1.4'));
  });
});
