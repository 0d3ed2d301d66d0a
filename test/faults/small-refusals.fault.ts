// Small refusals from the red-team's list: mnemonic errors never echo a secret word, wallet and
// ARC-56 names refuse NUL, bidi overrides and lone surrogates, the README's follower example keeps
// its token out of `ps`, and interval mode reports when blocks cannot be written.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { keyFromMnemonic, mnemonicFromKey } from '../../sdk/src/crypto/mnemonic.js';
import { parseArc56 } from '../../sdk/src/abi/arc56.js';
import { KeyManager } from '../../sdk/src/services/kmd/key-manager.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/wallet-crypto.js';
import { TransactionPool } from '../../sdk/src/services/node/pool.js';
import { LedgerWriteError } from '../../sdk/src/ledger/errors.js';
import type { Ledger } from '../../sdk/src/ledger/ledger.js';
import { repoRoot } from '../cli/helpers.js';

const HOSTILE: Array<[string, string]> = [
  ['NUL', 'wal\u0000let'],
  ['RTL override', 'pay\u202Egnp.exe'],
  ['isolate', 'a\u2067b'],
  ['lone high surrogate', 'x\uD800y'],
  ['lone low surrogate', 'x\uDC00'],
  ['control', 'bell\u0007'],
];

describe('fault: small refusals', function () {
  this.timeout(3 * HANG_GUARD_MS);

  it('a misspelled mnemonic word is named by position only, never echoed', () => {
    const words = mnemonicFromKey(new Uint8Array(32).fill(9)).split(' ');
    words[6] = 'zebrafishy';
    assert.throws(
      () => keyFromMnemonic(words.join(' ')),
      (e: Error) =>
        /word 7 of the mnemonic is not in the words list/.test(e.message) &&
        !e.message.includes('zebrafish') &&
        !words.some((w) => w.length > 3 && e.message.includes(` ${w} `)),
    );
  });

  it('wallet names refuse NUL, bidi controls, lone surrogates and control characters; nothing is created', async () => {
    const km = await KeyManager.open({ kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    try {
      for (const [what, name] of HOSTILE) {
        await assert.rejects(
          km.createWallet({ name, password: 'p' }),
          (e: Error & { status?: number }) => e.status === 400 && /wallet name contains/.test(e.message),
          what,
        );
      }
      assert.deepEqual(km.listWallets(), []);
      const ok = await km.createWallet({ name: 'ok — ünïcode 名前 😀', password: 'p' });
      for (const [what, name] of HOSTILE) await assert.rejects(km.renameWallet(ok.id, 'p', name), /wallet name contains/, what);
      assert.equal(km.listWallets()[0]!.name, 'ok — ünïcode 名前 😀');
    } finally {
      await km.close();
    }
  });

  it('ARC-56 app and method names refuse the same', () => {
    const spec = (name: string, method = 'm') => ({
      name,
      arcs: [],
      structs: {},
      methods: [{ name: method, args: [], returns: { type: 'void' }, actions: { create: [], call: ['NoOp'] } }],
      state: {
        keys: { global: {}, local: {}, box: {} },
        maps: { global: {}, local: {}, box: {} },
        schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
      },
      bareActions: { create: ['NoOp'], call: [] },
    });
    assert.equal(parseArc56(spec('Fine 😀')).name, 'Fine 😀');
    for (const [what, name] of HOSTILE) {
      assert.throws(() => parseArc56(spec(name)), /name: contains/, `app name: ${what}`);
      assert.throws(() => parseArc56(spec('App', name)), /methods\[0\]\.name: contains/, `method name: ${what}`);
    }
  });

  it("the README's follower example passes the token through the environment, not --follow-token", () => {
    const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /--follow-token\s+["$\x27]/, 'no token value on a command line');
    assert.match(readme, /TEALWORKS_FOLLOW_TOKEN=/);
  });

  it('interval mode reports once when blocks cannot be written, and once when they are written again', async () => {
    let failing = true;
    let produced = 0;
    const ledger = {
      produceBlock: () => {
        if (failing) throw new LedgerWriteError('no space left on device (ENOSPC)', 'ENOSPC');
        produced++;
        return { rejected: [] };
      },
    } as unknown as Ledger;
    const reports: Array<string | undefined> = [];
    const pool = new TransactionPool(ledger, { blockIntervalMs: 1, onBlockError: (e) => reports.push(e?.message) });
    pool.start();
    try {
      for (let i = 0; i < 2000 && pool.failingBlocks < 5; i++) await new Promise((r) => setTimeout(r, 2));
      assert.ok(pool.failingBlocks >= 5);
      assert.equal(reports.length, 1, 'one report for a run of failing blocks');
      assert.match(reports[0]!, /ENOSPC/);
      failing = false;
      for (let i = 0; i < 2000 && produced === 0; i++) await new Promise((r) => setTimeout(r, 2));
      assert.equal(pool.failingBlocks, 0);
      assert.deepEqual(reports.slice(1), [undefined], 'and one when blocks are written again');
    } finally {
      pool.stop();
    }
  });
});
