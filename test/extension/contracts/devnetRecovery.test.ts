// The recovery question the editor asks when the persistent devnet's chain data is damaged, for
// real damage made on a real data directory, and the recovery it leads to.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../../../sdk/src/services/devnet/index.js';
import { LedgerDamageError } from '../../../sdk/src/ledger/index.js';
import { describeRecovery, devnetRecoveryPrompt } from '../../../extension/src/contracts/devnetRecovery.js';
import { Tealworks, algos } from '../../../sdk/src/index.js';

const KDF = { N: 1 << 10, r: 8, p: 1 };

async function openError(dir: string): Promise<unknown> {
  try {
    const dn = await startDevnet({ dataDir: dir, kdf: KDF });
    await dn.stop();
  } catch (e) {
    return e;
  }
  throw new Error('the damaged data directory was opened');
}

describe('extension contracts: devnet recovery prompt', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-recover-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A chain with genesis and `n` payment rounds, then stopped. */
  async function chain(n: number): Promise<void> {
    const dn = await startDevnet({ dataDir: dir, kdf: KDF });
    const tw = await Tealworks.connect.devnet({ dataDir: dir });
    try {
      for (let i = 0; i < n; i++) await tw.send.payment({ sender: tw.account.dispenser, receiver: tw.account.random(), amount: algos(1) });
    } finally {
      await tw.close();
      await dn.stop();
    }
  }

  /** Flips a byte of the journal's last record; returns the damaged journal's path and bytes. */
  function damageLastRecord(): { journal: string; bytes: Buffer } {
    const journal = join(dir, 'ledger', 'journal.bin');
    const bytes = readFileSync(journal);
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(journal, bytes);
    return { journal, bytes };
  }

  it('a damaged last round: asks to recover, naming what is kept; recovering keeps the intact rounds', async () => {
    await chain(2);
    const { journal, bytes } = damageLastRecord();
    const error = await openError(dir);
    assert.ok(error instanceof LedgerDamageError);
    const prompt = devnetRecoveryPrompt(error, dir);
    assert.ok(prompt, 'damage past genesis is recoverable');
    assert.equal(prompt.action, 'Recover');
    assert.match(prompt.message, new RegExp(`chain data in ${dir.replace(/[/\\\\.]/g, '\\$&')} is damaged`));
    assert.match(prompt.message, /Rounds 0 to 1 are intact and kept/);
    assert.match(prompt.message, /moved aside into a separate file, not deleted/);
    assert.equal(prompt.detail, (error as Error).message, 'the SDK says which file and where');
    // What the Recover button does.
    const dn = await startDevnet({ dataDir: dir, recover: true, kdf: KDF });
    try {
      assert.equal(dn.ledger.latestRound, 1n);
      const text = describeRecovery(dn.recovered);
      assert.match(text, /^devnet: recovered: .*journal\.bin/);
    } finally {
      await dn.stop();
    }
    assert.ok(statSync(journal).size < bytes.length);
  });

  it('no question where nothing can be kept or the error is not damage', async () => {
    await chain(0);
    damageLastRecord();
    const genesisDamage = await openError(dir);
    assert.ok(genesisDamage instanceof LedgerDamageError);
    assert.equal(devnetRecoveryPrompt(genesisDamage, dir), undefined, 'a damaged genesis record cannot be recovered');
    assert.equal(devnetRecoveryPrompt(new Error('port in use'), dir), undefined);
    assert.equal(describeRecovery([]), 'devnet: recover found nothing damaged; nothing was set aside');
  });
});
