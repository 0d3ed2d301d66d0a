// Refusals that change nothing and say what to do: a deleted journal (with or without the snapshot)
// is refused without creating anything or starting a new chain; a stale lock whose pid was reused
// by an unrelated process names that process and how to clear the lock; two one-off connections
// with no devnet running do not refuse each other.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../../sdk/src/encoding/hex.js';
import { startDevnet, DevnetConfigError } from '../../sdk/src/services/devnet/index.js';
import { DataDirInUseError, LOCK_FILE } from '../../sdk/src/services/devnet/lock.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/index.js';
import { connectNetwork } from '../../sdk/src/workflow/connect.js';

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
  this.timeout(180_000);
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
      await assert.rejects(startDevnet(opts(data)), (e: unknown) => e instanceof DataDirInUseError && new RegExp(`process ${unrelated.pid} \\(sleep\\)`).test(e.message) && /pid|process id can be reused/.test(e.message) && e.message.includes(`delete ${join(data, LOCK_FILE)}`));
      assert.deepEqual(treeDigest(data), before);
    } finally {
      unrelated.kill('SIGKILL');
    }
  });

  it('two one-off connections at once with no devnet running: neither refuses the other', async () => {
    const base = join(dir, 'project');
    const [a, b] = await Promise.all([connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: base }), connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: base })]);
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
