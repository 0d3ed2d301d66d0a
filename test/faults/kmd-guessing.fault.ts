// Password guessing against the key-manager service over HTTP: every route that checks a password
// is slowed by the same back-off; abandoned guesses are not processed; a cap on waiting attempts
// answers 429; the owner's correct unlock still succeeds while an attacker keeps guessing.
// Assertions are on counts and statuses, never on durations.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { until } from '../helpers/hang.js';
import { encodeTransaction } from '../../sdk/src/txn/encode.js';
import { makePaymentTxn } from '../../sdk/src/txn/builders.js';
import { TOO_MANY_PASSWORD_ATTEMPTS } from '../../sdk/src/services/kmd/index.js';
import { toBase64 } from '../../sdk/src/encoding/base64.js';
import { API_TOKEN, KEY1, MDK, startKmd, type Kmd } from '../sdk/services/kmd-helpers.js';

const PASSWORD = 'correct horse';

async function setUp(kmd: Kmd): Promise<{ walletId: string; token: string }> {
  const created = await kmd.call('POST', '/v1/wallet', {
    wallet_name: 'w',
    wallet_password: PASSWORD,
    wallet_driver_name: 'sqlite',
    master_derivation_key: Array.from(MDK),
  });
  const walletId = (created.body.wallet as { id: string }).id;
  const init = await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: PASSWORD });
  const token = init.body.wallet_handle_token as string;
  await kmd.call('POST', '/v1/key', { wallet_handle_token: token });
  await kmd.call('POST', '/v1/multisig/import', { wallet_handle_token: token, multisig_version: 1, threshold: 1, pks: [toBase64(new Uint8Array(32).fill(7))] });
  return { walletId, token };
}

function txnBytes(): string {
  const txn = makePaymentTxn({
    sender: KEY1,
    receiver: KEY1,
    amount: 1n,
    suggestedParams: { fee: 1000n, flatFee: true, firstValid: 1n, lastValid: 100n, genesisId: 'x', genesisHash: new Uint8Array(32) },
  });
  return toBase64(encodeTransaction(txn));
}

/** Each password-checking route, as a body builder for a given password. */
function routes(walletId: string, token: string): Array<[string, string, (pw: string) => Record<string, unknown>]> {
  const t = { wallet_handle_token: token };
  return [
    ['POST', '/v1/wallet/init', (pw) => ({ wallet_id: walletId, wallet_password: pw })],
    ['POST', '/v1/wallet/rename', (pw) => ({ wallet_id: walletId, wallet_name: 'w', wallet_password: pw })],
    ['POST', '/v1/master-key/export', (pw) => ({ ...t, wallet_password: pw })],
    ['POST', '/v1/key/export', (pw) => ({ ...t, wallet_password: pw, address: KEY1 })],
    ['DELETE', '/v1/key', (pw) => ({ ...t, wallet_password: pw, address: KEY1 })],
    ['DELETE', '/v1/multisig', (pw) => ({ ...t, wallet_password: pw, address: KEY1 })],
    ['POST', '/v1/transaction/sign', (pw) => ({ ...t, wallet_password: pw, transaction: txnBytes() })],
    ['POST', '/v1/program/sign', (pw) => ({ ...t, wallet_password: pw, address: KEY1, data: toBase64(new Uint8Array([1])) })],
    ['POST', '/v1/multisig/sign', (pw) => ({ ...t, wallet_password: pw, transaction: txnBytes(), public_key: toBase64(new Uint8Array(32)) })],
    [
      'POST',
      '/v1/multisig/signprogram',
      (pw) => ({ ...t, wallet_password: pw, address: KEY1, data: toBase64(new Uint8Array([1])), public_key: toBase64(new Uint8Array(32)) }),
    ],
  ];
}

describe('fault: password guessing on the key manager', function () {
  this.timeout(3 * HANG_GUARD_MS);

  it('every password-checking route counts wrong guesses and makes further attempts wait', async () => {
    const kmd = await startKmd({ passwordBackoff: { freeAttempts: 3, baseMs: 1, maxMs: 4 } });
    try {
      const { walletId, token } = await setUp(kmd);
      for (const [method, path, body] of routes(walletId, token)) {
        const before = kmd.keyManager.passwordStats;
        for (let i = 0; i < 5; i++) {
          const r = await kmd.call(method, path, body(`guess-${i}`));
          assert.ok(r.status === 400 || r.status === 401, `${method} ${path}: ${r.status} ${r.text}`);
          assert.equal(r.body.message, 'error decrypting. wrong password?');
        }
        const after = kmd.keyManager.passwordStats;
        assert.equal(after.checked - before.checked, 5, `${method} ${path}: every guess went through the one check`);
        assert.equal(after.delayed - before.delayed, 2, `${method} ${path}: guesses past the free ones waited`);
        assert.ok(kmd.keyManager.backoffMs(walletId) > 0, `${method} ${path}: the next attempt waits`);
        // The right password is still accepted (after its wait) and resets the count.
        const ok = await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: PASSWORD });
        assert.equal(ok.status, 200);
        assert.equal(kmd.keyManager.backoffMs(walletId), 0);
      }
    } finally {
      await kmd.close();
    }
  });

  it('abandoned guesses are dropped unchecked, over-cap attempts get 429, and the owner unlocks while an attacker guesses', async () => {
    // A long back-off so that waiting attempts stay waiting until their clients leave.
    const kmd = await startKmd({ passwordBackoff: { freeAttempts: 2, baseMs: 60_000, maxMs: 60_000, maxWaiting: 4 } });
    try {
      const { walletId } = await setUp(kmd);
      for (let i = 0; i < 2; i++) assert.equal((await kmd.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: `g${i}` })).status, 401);
      // 25 guesses sent and abandoned: 4 wait, the rest are refused with 429 without any check.
      const checkedBefore = kmd.keyManager.passwordStats.checked;
      const aborts: AbortController[] = [];
      const sent = Array.from({ length: 25 }, (_, i) => {
        const c = new AbortController();
        aborts.push(c);
        return fetch(`${kmd.service.url}/v1/wallet/init`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-KMD-API-Token': API_TOKEN },
          body: JSON.stringify({ wallet_id: walletId, wallet_password: `abandoned-${i}` }),
          signal: c.signal,
        }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as { message: string } }),
          () => ({ status: 0, body: { message: 'aborted' } }),
        );
      });
      await until('four attempts wait', () => kmd.keyManager.passwordAttemptsWaiting(walletId) === 4);
      await until('the rest were refused', () => kmd.keyManager.passwordStats.refused === 21);
      for (const c of aborts) c.abort();
      const outcomes = await Promise.all(sent);
      const refused = outcomes.filter((o) => o.status === 429);
      assert.ok(refused.every((o) => o.body.message === TOO_MANY_PASSWORD_ATTEMPTS));
      await until('abandoned attempts leave the queue', () => kmd.keyManager.passwordAttemptsWaiting(walletId) === 0);
      assert.equal(kmd.keyManager.passwordStats.abandoned, 4);
      assert.equal(kmd.keyManager.passwordStats.checked, checkedBefore, 'no abandoned or refused guess was checked');
    } finally {
      await kmd.close();
    }

    // Now a short back-off: 12 attacker clients guess in a loop while the owner unlocks.
    const live = await startKmd({ passwordBackoff: { freeAttempts: 2, baseMs: 2, maxMs: 20, maxWaiting: 4 } });
    try {
      const { walletId } = await setUp(live);
      let stop = false;
      let guesses = 0;
      const statuses = new Map<number, number>();
      const attacker = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const r = await live.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: `attack-${n}-${i}` });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          guesses++;
        }
      };
      const attackers = Array.from({ length: 12 }, (_, n) => attacker(n));
      await until('the attacker has started guessing', () => guesses >= 20);
      let owner: { status: number; body: Record<string, unknown> } | undefined;
      let tries = 0;
      for (; tries < 200; tries++) {
        owner = await live.call('POST', '/v1/wallet/init', { wallet_id: walletId, wallet_password: PASSWORD });
        if (owner.status !== 429) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      stop = true;
      await Promise.all(attackers);
      assert.equal(owner?.status, 200, `the owner's unlock: ${JSON.stringify(owner?.body)}`);
      assert.match(String(owner?.body.wallet_handle_token), /^[0-9a-f]{16}\.[0-9a-f]{64}$/);
      assert.ok((statuses.get(429) ?? 0) > 0, 'attempts over the cap were answered 429');
      assert.ok((statuses.get(401) ?? 0) > 0);
      assert.equal(statuses.get(200) ?? 0, 0, 'no guess got in');
      const stats = live.keyManager.passwordStats;
      assert.ok(stats.delayed > 0 && stats.checked < guesses + tries + 5, 'refused attempts cost no check');
    } finally {
      await live.close();
    }
  });
});
