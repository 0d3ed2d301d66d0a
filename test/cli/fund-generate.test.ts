import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, repoRoot } from './helpers.js';
import { commandEntries } from '../../sdk/src/cli/commands/index.js';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { generateAppClient } from '../../sdk/src/client/codegen.js';
import { loadAppSpec } from '../../sdk/src/abi/arc56.js';

const counterAbi = join(repoRoot, 'examples/counter/abi');

describe('cli: --help on every subcommand', () => {
  for (const entry of commandEntries) {
    it(`tealworks ${entry.name} --help prints its usage`, async () => {
      // Commands load on demand by the entry's name: it must be the loaded command's own name.
      const c = await entry.load();
      assert.equal(c.name, entry.name);
      const r = await cli([c.name, '--help'], repoRoot);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.startsWith(`${c.summary}\n\nUsage: tealworks ${c.name}`), r.stdout);
    });
  }
});

describe('cli: generate client', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'tw-gen-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the typed client of an ARC-56 spec', async () => {
    const r = await cli(['generate', 'client', join(counterAbi, 'counter.arc56.json'), '-o', 'client.ts'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /wrote client\.ts: 2 method\(s\), 0 struct\(s\), 1 box map\(s\)/);
    const spec = loadAppSpec(readFileSync(join(counterAbi, 'counter.arc56.json'), 'utf8'));
    assert.equal(readFileSync(join(dir, 'client.ts'), 'utf8'), generateAppClient(spec, { sourceName: 'counter.arc56.json' }));
  });

  it('usage errors: what to generate, a missing spec', async () => {
    assert.equal((await cli(['generate', 'server', 'x.json'], dir)).code, 2);
    const missing = await cli(['generate', 'client', 'nope.arc56.json'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.arc56\.json does not exist/);
  });
});

describe('cli: fund, and deploy --fund then call (the README sequence) on a running devnet', function () {
  this.timeout(60_000);
  let dir: string;
  let devnet: RunningDevnet;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-fund-'));
    devnet = await startDevnet({ dataDir: join(dir, '.tealworks/devnet'), kdf: { N: 1 << 10, r: 8, p: 1 } });
    mkdirSync(join(dir, 'abi'));
    for (const f of ['counter.teal', 'clear.teal', 'counter.arc56.json']) copyFileSync(join(counterAbi, f), join(dir, 'abi', f));
  });
  after(async () => {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fund ADDRESS AMOUNT pays from the dispenser', async () => {
    const address = 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA';
    const r = await cli(['fund', address, '2.5algo'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`funded ${address} with 2500000 micro-units in round \\d+ \\(txn [A-Z2-7]{52}\\); balance 2500000`));
    const again = await cli(['fund', address, '1_000', '--json'], dir);
    assert.equal(JSON.parse(again.stdout).balance, '2501000');
  });

  it('fund refuses a bad address, a bad amount and other networks', async () => {
    const bad = await cli(['fund', 'NOTANADDRESS', '5'], dir);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /"NOTANADDRESS" is not an address/);
    const amount = await cli(['fund', 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA', '1.5'], dir);
    assert.equal(amount.code, 2);
    assert.match(amount.stderr, /AMOUNT must be micro-units \(e\.g\. 1000000\) or have a unit \(e\.g\. 2\.5algo\)/);
    assert.equal((await cli(['fund', 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA', '5', '--network', 'mainnet'], dir)).code, 2);
  });

  it('deploy --fund, then call: the box write succeeds', async () => {
    const d = await cli(['deploy', 'abi/counter.teal', 'abi/clear.teal', '--spec', 'abi/counter.arc56.json', '--updatable', '--fund', '1algo'], dir);
    assert.equal(d.code, 0, d.stderr + d.stdout);
    assert.match(d.stdout, /funded the app account with 1100000 micro-units/);
    const appId = /app (\d+)/.exec(d.stdout)![1]!;
    const c = await cli(['call', appId, 'increment', '5', '--spec', 'abi/counter.arc56.json'], dir);
    assert.equal(c.code, 0, c.stderr + c.stdout);
    const again = await cli(['deploy', 'abi/counter.teal', 'abi/clear.teal', '--spec', 'abi/counter.arc56.json', '--updatable', '--fund', '1algo'], dir);
    assert.match(again.stdout, /the app account already had enough/);
  });
});
