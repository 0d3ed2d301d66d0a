import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, cliProcess } from './helpers.js';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { toHex } from '../../sdk/src/encoding/hex.js';

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

  it('says which devnet it acted on: the one serving the folder (URL), or one started for the command', async () => {
    const dataDir = join(dir, '.tealworks/devnet');
    const r = await cli(['cheat', 'advance-rounds', 'rounds=1'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`; on the devnet at ${devnet.node.url} (serving ${dataDir})`), r.stdout);
    const j = await cli(['cheat', 'advance-rounds', 'rounds=1', '--json'], dir);
    assert.deepEqual(JSON.parse(j.stdout).target, { network: 'devnet', url: devnet.node.url, dataDir, startedForThisCommand: false });
    const help = await cli(['help', 'cheat'], dir);
    assert.match(help.stdout + help.stderr, /by default the devnet of this folder \(\.tealworks\/devnet\)/);
    // No devnet serving another folder: one is started on its data directory for the command, and the output says so.
    const other = mkdtempSync(join(tmpdir(), 'tw-cheat-own-'));
    try {
      const own = await cli(['cheat', 'advance-rounds', 'rounds=3'], other);
      assert.equal(own.code, 0, own.stderr);
      assert.ok(
        own.stdout.includes(
          `; on the devnet of ${join(other, '.tealworks/devnet')}, started for this command and stopped after it (no \`tealworks devnet\` was serving that folder)`,
        ),
        own.stdout,
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses to set the time before the latest block, saying what the latest timestamp is', async () => {
    const now = devnet.ledger.latestBlock.header.timestamp;
    const round = devnet.ledger.latestRound;
    const r = await cli(['cheat', 'set-time', `timestamp=${now - 1n}`], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`setTime to ${now - 1n} would move time back: the latest block \\(round ${round}\\) is stamped ${now}`));
    assert.equal(devnet.ledger.latestRound, round);
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

  it('refuses a field given twice and a public network before sending anything', async () => {
    const round = devnet.ledger.latestRound;
    const twice = await cli(['cheat', 'advance-rounds', 'rounds=5', 'rounds=6'], dir);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /field rounds is given twice; give each field once/);
    for (const network of ['mainnet', 'testnet']) {
      const r = await cli(['cheat', 'advance-rounds', 'rounds=5', '--network', network], dir);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`cheats change a devnet's chain; ${network} has none: use --network devnet`));
    }
    assert.equal(devnet.ledger.latestRound, round);
  });

  it('as a real process: a bad value is a one-line message and a non-zero exit, no stack trace', async () => {
    const r = await cliProcess(['cheat', 'impersonate', 'address=XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA', 'on=maybe'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /"on" must be true or false/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(devnet.ledger.isImpersonated('XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA'), false);
  });
});

// Another folder's devnet (--data) and any running devnet by its URL (--node): an in-memory one
// is the only kind that can be snapshotted, so the CLI's snapshot, revert and release need --node.
describe('cli: tealworks cheat --data and --node', function () {
  this.timeout(60_000);
  let dir: string;
  let cwd: string;
  let folder: RunningDevnet;
  let memory: RunningDevnet;
  const address = 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-cheat-data-'));
    cwd = mkdtempSync(join(tmpdir(), 'tw-cheat-cwd-'));
    folder = await startDevnet({ dataDir: join(dir, 'chain'), kdf: { N: 1 << 10, r: 8, p: 1 } });
    memory = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
  });
  after(async () => {
    await folder.stop();
    await memory.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  it('--data DIR acts on the devnet serving that folder, and says so', async () => {
    const round = folder.ledger.latestRound;
    const r = await cli(['cheat', 'advance-rounds', 'rounds=10', '--data', join(dir, 'chain')], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`; on the devnet at ${folder.node.url} (serving ${join(dir, 'chain')})`), r.stdout);
    assert.equal(folder.ledger.latestRound, round + 10n);
    // The folder's chain cannot be rewound: the error names the devnet and says how to get one that can.
    const snap = await cli(['cheat', 'snapshot', '--data', join(dir, 'chain')], cwd);
    assert.equal(snap.code, 1);
    assert.match(snap.stderr, /snapshots need a chain kept in memory/);
    assert.ok(snap.stderr.includes(`(cheat snapshot on the devnet at ${folder.node.url} (serving ${join(dir, 'chain')}))`), snap.stderr);
    assert.match(snap.stderr, /start `tealworks devnet --in-memory` and pass its node URL with --node/);
  });

  it('--node URL with the token from ALGOD_TOKEN or --node-token: snapshot, change, revert, release', async () => {
    const saved = process.env.ALGOD_TOKEN;
    process.env.ALGOD_TOKEN = memory.node.token;
    try {
      const snap = await cli(['cheat', 'snapshot', '--node', memory.node.url, '--json'], cwd);
      assert.equal(snap.code, 0, snap.stderr);
      const out = JSON.parse(snap.stdout) as { id: string; target: unknown };
      assert.deepEqual(out.target, { network: 'node', url: memory.node.url });
      const set = await cli(['cheat', 'set-balance', `address=${address}`, 'amount=7000000', '--node', memory.node.url], cwd);
      assert.equal(set.code, 0, set.stderr);
      assert.ok(set.stdout.includes(`; on the node at ${memory.node.url}`), set.stdout);
      assert.equal(memory.ledger.balance(address), 7_000_000n);
      const back = await cli(['cheat', 'revert', `id=${out.id}`, '--node', memory.node.url], cwd);
      assert.equal(back.code, 0, back.stderr);
      assert.equal(memory.ledger.balance(address), 0n);
    } finally {
      if (saved === undefined) delete process.env.ALGOD_TOKEN;
      else process.env.ALGOD_TOKEN = saved;
    }
    const snap = await cli(['cheat', 'snapshot', '--node', memory.node.url, '--node-token', memory.node.token, '--json'], cwd);
    assert.equal(snap.code, 0, snap.stderr);
    const id = (JSON.parse(snap.stdout) as { id: string }).id;
    const release = await cli(['cheat', 'release', `id=${id}`, '--node', memory.node.url, '--node-token', memory.node.token], cwd);
    assert.equal(release.code, 0, release.stderr);
    // Released: a second release names the snapshot and the node it was sent to.
    const again = await cli(['cheat', 'release', `id=${id}`, '--node', memory.node.url, '--node-token', memory.node.token], cwd);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`no snapshot ${id}`));
    assert.ok(again.stderr.includes(`(cheat release on the node at ${memory.node.url})`), again.stderr);
  });

  it('a wrong token is refused, naming the node; conflicting or malformed targets are usage errors', async () => {
    const saved = process.env.ALGOD_TOKEN;
    delete process.env.ALGOD_TOKEN;
    try {
      const round = memory.ledger.latestRound;
      const r = await cli(['cheat', 'advance-rounds', 'rounds=5', '--node', memory.node.url, '--node-token', 'not-the-token'], cwd);
      assert.equal(r.code, 1, r.stdout);
      assert.ok(r.stderr.includes(`(cheat advance-rounds on the node at ${memory.node.url})`), r.stderr);
      assert.match(r.stderr, /The node refused the token: give the devnet's node token .* with --node-token or ALGOD_TOKEN/);
      assert.doesNotMatch(r.stderr, /not-the-token/);
      assert.equal(memory.ledger.latestRound, round);
    } finally {
      if (saved !== undefined) process.env.ALGOD_TOKEN = saved;
    }
    const both = await cli(['cheat', 'snapshot', '--node', memory.node.url, '--data', dir], cwd);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--data and --node each name the chain: give one of them/);
    const lone = await cli(['cheat', 'snapshot', '--node-token', 'x'], cwd);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /--node-token goes with --node URL/);
    const bad = await cli(['cheat', 'snapshot', '--node', 'localhost:4001'], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--node wants an http:\/\/ or https:\/\/ URL, got "localhost:4001"/);
  });
});

// The cheats journal what they do: a devnet on a data directory stopped after them starts again
// on the same chain (a warp's made-up rounds included) and keeps growing.
describe('cli: tealworks cheat on a devnet that restarts', function () {
  this.timeout(120_000);
  let dir: string;
  let devnet: RunningDevnet | undefined;
  const dataDir = () => join(dir, '.tealworks/devnet');
  const start = async () => (devnet = await startDevnet({ dataDir: dataDir(), kdf: { N: 1 << 10, r: 8, p: 1 } }));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-cheat-restart-'));
  });
  after(async () => {
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Hash, timestamp and header of each round as the node's `/v2/blocks/{round}` answers them. */
  async function blocks(d: RunningDevnet, rounds: bigint[]): Promise<string[]> {
    const out: string[] = [];
    for (const r of rounds) {
      const res = await fetch(`${d.node.url}/v2/blocks/${r}`, { headers: { 'X-Algo-API-Token': d.node.token } });
      assert.equal(res.status, 200, `round ${r}`);
      out.push(`${r}:${await res.text()}:${toHex(d.ledger.block(r).hash)}`);
    }
    return out;
  }

  const ok = async (args: string[]) => {
    const r = await cli(['cheat', ...args, '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as { round: string; timestamp: string };
  };

  it('advance-rounds, set-time, advance-time and set-balance survive a stop and two restarts', async () => {
    const address = 'XBYLS2E6YI6XXL5BWCAMOA4GTWHXWENZMX5UHXMRNWWUQ7BXCY5WC5TEPA';
    let d = await start();
    await ok(['advance-time', 'seconds=30']);
    assert.equal(BigInt((await ok(['advance-rounds', 'rounds=100'])).round), 101n);
    await ok(['set-balance', `address=${address}`, 'amount=4200000']);
    await ok(['set-time', 'timestamp=1900000000']);
    await ok(['advance-rounds', 'rounds=7']);
    const rounds = [0n, 1n, 2n, 50n, 101n, 102n, 105n, 109n];
    const before = await blocks(d, rounds);
    assert.equal(d.ledger.latestRound, 109n);
    await d.stop();

    d = await start();
    assert.equal(d.ledger.latestRound, 109n);
    assert.deepEqual(await blocks(d, rounds), before);
    assert.equal(d.ledger.balance(address), 4_200_000n);
    // It keeps growing after the restart, through the CLI as before.
    assert.equal(BigInt((await ok(['advance-rounds', 'rounds=1000'])).round), 1109n);
    await ok(['advance-time', 'seconds=5']);
    const grown = await blocks(d, [...rounds, 600n, 1109n, 1110n]);
    await d.stop();

    d = await start();
    assert.equal(d.ledger.latestRound, 1110n);
    assert.deepEqual(await blocks(d, [...rounds, 600n, 1109n, 1110n]), grown);
    assert.equal(d.ledger.balance(address), 4_200_000n);
  });
});
