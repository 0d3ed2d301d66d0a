// Refusals that change nothing and say what to do: a deleted journal (with or without the snapshot)
// is refused without creating anything or starting a new chain; a stale lock whose pid was reused
// by an unrelated process names that process and how to clear the lock; two one-off connections
// with no devnet running do not refuse each other.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../../sdk/src/encoding/hex.js';
import { startDevnet, DevnetConfigError } from '../../sdk/src/services/devnet/index.js';
import { DataDirInUseError, LOCK_FILE } from '../../sdk/src/services/devnet/lock.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/index.js';
import { connectNetwork } from '../../sdk/src/workflow/connect.js';
import { makePaymentTxn } from '../../sdk/src/txn/builders.js';
import { encodeTransaction } from '../../sdk/src/txn/encode.js';

function treeDigest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(p, toHex(new Uint8Array(readFileSync(p))));
    }
  };
  walk(dir);
  return out;
}

describe('fault: refusals that change nothing', function () {
  this.timeout(3 * HANG_GUARD_MS);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tw-refusals-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const opts = (data: string) => ({ dataDir: data, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT, accounts: 2 });

  for (const keepSnapshot of [true, false]) {
    it(`a deleted journal ${keepSnapshot ? 'with the snapshot kept' : 'and snapshot'} is refused: no file created, no new chain`, async () => {
      const data = join(dir, 'd');
      const d = await startDevnet(opts(data));
      for (let i = 0; i < 3; i++) d.ledger.produceBlock([]);
      await d.stop();
      const ledgerDir = join(data, 'ledger');
      assert.ok(existsSync(join(ledgerDir, 'snapshot.bin')), 'the stop wrote a snapshot');
      rmSync(join(ledgerDir, 'journal.bin'));
      if (!keepSnapshot) rmSync(join(ledgerDir, 'snapshot.bin'));
      const before = treeDigest(data);
      await assert.rejects(
        startDevnet(opts(data)),
        (e: unknown) =>
          e instanceof DevnetConfigError &&
          /journal\.bin is missing, but .*genesis\.json shows a chain was created/.test(e.message) &&
          /Nothing was changed and no new chain was started/.test(e.message) &&
          /--reset/.test(e.message) &&
          (keepSnapshot ? /snapshot alone cannot rebuild/.test(e.message) : !/snapshot\.bin/.test(e.message)),
      );
      assert.deepEqual(treeDigest(data), before, 'the refused start changed nothing');
      assert.ok(!existsSync(join(ledgerDir, 'journal.bin')), 'no journal was created');
    });
  }

  it('a stale lock whose pid now belongs to an unrelated process names it and says how to clear the lock', async () => {
    const data = join(dir, 'd');
    const d = await startDevnet(opts(data));
    await d.stop();
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(join(data, LOCK_FILE), JSON.stringify({ pid: unrelated.pid }) + '\n', { mode: 0o600 });
      const before = treeDigest(data);
      await assert.rejects(
        startDevnet(opts(data)),
        (e: unknown) =>
          e instanceof DataDirInUseError &&
          new RegExp(`process ${unrelated.pid} \\(sleep\\)`).test(e.message) &&
          /pid|process id can be reused/.test(e.message) &&
          e.message.includes(`delete ${join(data, LOCK_FILE)}`),
      );
      assert.deepEqual(treeDigest(data), before);
    } finally {
      unrelated.kill('SIGKILL');
    }
  });

  it('a devnet on a full disk (tmpfs) starts to serve reads; writes answer 503 naming the cause; no lock or temporary file is left', async function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) this.skip();
    const mnt = join(dir, 'mnt');
    execFileSync('mkdir', ['-p', mnt]);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    try {
      const data = join(mnt, 'd');
      const d = await startDevnet(opts(data));
      for (let i = 0; i < 3; i++) d.ledger.produceBlock([]);
      await d.stop();
      // Fill the disk to the last byte.
      try {
        for (let i = 0; ; i++) writeFileSync(join(mnt, `fill${i}`), Buffer.alloc(64 * 1024));
      } catch {
        /* full */
      }
      for (const size of [4096, 512, 1]) {
        try {
          for (let i = 0; ; i++) writeFileSync(join(mnt, `fill-${size}-${i}`), Buffer.alloc(size));
        } catch {
          /* full */
        }
      }
      const before = treeDigest(data);
      const full = await startDevnet(opts(data));
      try {
        const status = await fetch(`${full.node.url}/v1/status`, { headers: { 'X-Node-API-Token': full.node.token } });
        assert.equal(status.status, 200);
        assert.equal(((await status.json()) as { lastRound: number }).lastRound, 3);
        const q = await fetch(`${full.query.url}/health`, { headers: { 'X-Indexer-API-Token': full.query.token } });
        assert.equal(q.status, 200);
        await q.text();
        const wallet = full.wallets.findWallet(full.wallet.name)!;
        const handle = await full.wallets.initHandle(wallet.id, full.wallet.password);
        const [from, to] = full.accounts.map((a) => a.address) as [string, string];
        // The journal's last page may still take a record or two; then the disk is really full.
        let refused: { status: number; text: string } | undefined;
        for (let i = 0; i < 40 && !refused; i++) {
          const txn = makePaymentTxn({
            sender: from,
            receiver: to,
            amount: BigInt(1 + i),
            note: new Uint8Array(1000).fill(i),
            suggestedParams: { fee: 1000n, flatFee: true, firstValid: 1n, lastValid: 1000n, genesisId: full.genesisId, genesisHash: full.ledger.genesisHash },
          });
          const stx = await full.wallets.signTransaction(handle, full.wallet.password, encodeTransaction(txn));
          const sent = await fetch(`${full.node.url}/v1/transactions`, {
            method: 'POST',
            headers: { 'X-Node-API-Token': full.node.token, 'content-type': 'application/x-binary' },
            body: Buffer.from(stx),
          });
          const text = await sent.text();
          if (sent.status !== 200) refused = { status: sent.status, text };
        }
        assert.equal(refused?.status, 503);
        assert.match(refused!.text, /ENOSPC|disk is full|no space/i);
        // Reads go on after the refused write.
        const again = await fetch(`${full.node.url}/v1/status`, { headers: { 'X-Node-API-Token': full.node.token } });
        assert.equal(again.status, 200);
        await again.text();
        await full.wallets.releaseHandle(handle);
      } finally {
        await full.stop();
      }
      assert.deepEqual(
        [...treeDigest(data).keys()].filter((f) => !f.includes(join('ledger', 'journal.bin')) && !f.includes('snapshot.bin')),
        [...before.keys()].filter((f) => !f.includes(join('ledger', 'journal.bin')) && !f.includes('snapshot.bin')),
        'no lock or temporary file left behind',
      );
    } finally {
      execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
    }
  });

  it('two one-off connections at once with no devnet running: neither refuses the other', async () => {
    const base = join(dir, 'project');
    const [a, b] = await Promise.all([
      connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: base }),
      connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: base }),
    ]);
    try {
      const owners = [a, b].filter((n) => n.devnet !== undefined);
      assert.equal(owners.length, 1, 'one started the devnet, the other used it');
      assert.equal(a.profile.node.url, b.profile.node.url);
      const [sa, sb] = await Promise.all([a.chain.node.suggestedParams(), b.chain.node.suggestedParams()]);
      assert.equal(sa.genesisId, sb.genesisId);
    } finally {
      const [owner, user] = a.devnet ? [a, b] : [b, a];
      await user.close();
      await owner.close();
    }
  });
});
