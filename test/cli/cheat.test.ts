import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './helpers.js';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';

// `tealworks cheat NAME field=value…` against the devnet running on the project's data directory.
describe('cli: tealworks cheat', function () {
  this.timeout(60_000);
  let dir: string;
  let devnet: RunningDevnet;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-cheat-'));
    devnet = await startDevnet({ dataDir: join(dir, '.tealworks/devnet'), kdf: { N: 1 << 10, r: 8, p: 1 } });
  });
  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('advances rounds and sets a balance on the running devnet', async () => {
    const r = await cli(['cheat', 'advance-rounds', 'rounds=500', '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(BigInt(JSON.parse(r.stdout).round) >= 500n, r.stdout);
    const address = 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA';
    const b = await cli(['cheat', 'set-balance', `address=${address}`, 'amount=4200000'], dir);
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /set-balance: done; round \d+/);
    assert.equal(devnet.ledger.balance(address), 4_200_000n);
  });

  it('explains what is wrong: unknown cheat, bad field, a snapshot of a journaled chain', async () => {
    const unknown = await cli(['cheat', 'fly'], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown cheat "fly"/);
    const bad = await cli(['cheat', 'advance-rounds', 'rounds=many'], dir);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /"rounds" must be a uint64/);
    const snap = await cli(['cheat', 'snapshot'], dir);
    assert.notEqual(snap.code, 0);
    assert.match(snap.stderr, /snapshots need a chain kept in memory/);
  });
});
