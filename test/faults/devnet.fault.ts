// Fault injection against the whole devnet: damaged wallet files, two processes on one data
// directory, kill -9 during bursts, and (where a tmpfs can be mounted) a really full disk.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { toHex } from '../../sdk/src/encoding/hex.js';
import { fromBase64 } from '../../sdk/src/encoding/base64.js';
import { startDevnet, DevnetConfigError } from '../../sdk/src/services/devnet/index.js';
import { DataDirInUseError } from '../../sdk/src/services/devnet/lock.js';
import { connectNetwork } from '../../sdk/src/workflow/connect.js';
import { makePaymentTxn } from '../../sdk/src/txn/builders.js';
import { signTransaction } from '../../sdk/src/txn/sign.js';
import { encodeSignedTransaction } from '../../sdk/src/txn/encode.js';
import { Ed25519KeyPair } from '../../sdk/src/crypto/ed25519.js';
import { Address } from '../../sdk/src/encoding/address.js';
import { Ledger } from '../../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../../sdk/src/ledger/persistence.js';
import { prng } from '../helpers/random.js';
import { HANG_GUARD_MS } from '../helpers/hang.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX_LOADER = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

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

interface Cli {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  node: { url: string; token: string };
  exit: Promise<number | null>;
}

async function launch(dataDir: string, extra: string[] = []): Promise<Cli> {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, resolve(repoRoot, 'sdk/src/cli/main.ts'), 'devnet', '--data', dataDir, '--ports', '0,0,0', '--accounts', '2', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!/Press Ctrl\+C to stop\./.test(out)) {
    const ended = await Promise.race([exit.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 25))]);
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw Object.assign(new Error(`devnet did not start:\n${out}\n${err}`), { stderr: err });
    }
  }
  const m = /^ {2}node\s+(http:\/\/\S+)\s+token ([0-9a-f]{64})$/m.exec(out)!;
  return { child, out: () => out, err: () => err, node: { url: m[1]!, token: m[2]! }, exit };
}

/** Runs the CLI to completion (for refusals). */
function runCli(args: string[]): { code: number; stderr: string } {
  try {
    execFileSync(process.execPath, ['--import', TSX_LOADER, resolve(repoRoot, 'sdk/src/cli/main.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    return { code: 0, stderr: '' };
  } catch (e) {
    const x = e as { status: number; stderr: Buffer };
    return { code: x.status, stderr: x.stderr.toString() };
  }
}

async function nodeJson(c: { url: string; token: string }, path: string): Promise<any> {
  const res = await request(c.url + path, { headers: { 'X-Node-API-Token': c.token } });
  return JSON.parse(await res.body.text());
}

describe('faults: devnet', function () {
  this.timeout(3 * HANG_GUARD_MS);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-devfault-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a damaged default wallet file is never replaced: the start is refused, naming the file, with nothing changed', async () => {
    const d = await startDevnet({ dataDir: dir, accounts: 2, kdf: { N: 1 << 10, r: 8, p: 1 } });
    await d.stop();
    const walletDir = join(dir, 'kmd');
    const file = readdirSync(walletDir).find((f) => f.endsWith('.wallet.json'))!;
    const original = readFileSync(join(walletDir, file), 'utf8');
    const damages: [string, (t: string) => string][] = [
      ['truncated', (t) => t.slice(0, Math.floor(t.length / 2))],
      ['name changed', (t) => t.replace('unencrypted-default-wallet', 'unencrypted-default-wallez')],
      ['sealed bytes flipped', (t) => t.replace(/"sealed":\s*"(.)/, (_m, c: string) => `"sealed": "${c === 'A' ? 'B' : 'A'}`)],
      ['file removed', () => ''],
    ];
    for (const [what, damage] of damages) {
      const text = damage(original);
      if (text === '') rmSync(join(walletDir, file));
      else writeFileSync(join(walletDir, file), text);
      const before = treeDigest(dir);
      await assert.rejects(startDevnet({ dataDir: dir }), (e: unknown) => {
        assert.ok(e instanceof DevnetConfigError, `${what}: ${String(e)}`);
        assert.match(e.message, /Nothing was changed|Restore the wallet/, what);
        assert.match(e.message, /kmd/, what);
        return true;
      });
      assert.deepEqual(treeDigest(dir), before, `${what}: the refusal changed files`);
      writeFileSync(join(walletDir, file), original);
    }
    // Restored: the same chain and keys come back.
    const again = await startDevnet({ dataDir: dir });
    assert.equal(again.accounts.length, 2);
    await again.stop();
  });

  it('two processes on one data directory: a second devnet is refused; one-off commands use the running devnet; the chain stays consistent', async () => {
    const first = await launch(dir);
    try {
      // Another devnet on the same directory, in this process.
      await assert.rejects(startDevnet({ dataDir: dir }), (e: unknown) => e instanceof DataDirInUseError && /in use by process \d+/.test(e.message));
      // And as a CLI: refused with the holder named, exit code non-zero, nothing touched.
      const before = treeDigest(join(dir, 'ledger'));
      const second = runCli(['devnet', '--data', dir, '--ports', '0,0,0']);
      assert.notEqual(second.code, 0);
      assert.match(second.stderr, /in use by process/);
      // A workflow connection in a folder whose .tealworks/devnet is that directory uses the running devnet.
      const base = join(dir, 'project');
      mkdirSync(join(base, '.tealworks'), { recursive: true });
      execFileSync('ln', ['-s', dir, join(base, '.tealworks', 'devnet')]);
      const net = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: base });
      assert.equal(net.profile.node.url, first.node.url, 'connected to the running devnet');
      assert.equal(net.devnet, undefined, 'did not start its own');
      const sp = await net.chain.node.suggestedParams();
      const to = net.dispenser!.address;
      const txn = makePaymentTxn({
        sender: net.dispenser!.address,
        receiver: to,
        amount: 1n,
        note: 'shared',
        suggestedParams: {
          fee: sp.minFee,
          flatFee: true,
          firstValid: sp.lastRound,
          lastValid: sp.lastRound + 1000n,
          genesisId: sp.genesisId,
          genesisHash: sp.genesisHash,
        },
      });
      const [signed] = await net.dispenser!.signer.sign([txn], [0]);
      await net.chain.node.submit(signed!);
      await net.close();
      assert.notDeepEqual(treeDigest(join(dir, 'ledger')), before, 'the running devnet wrote the payment');
      const status = await nodeJson(first.node, '/v1/status');
      first.child.kill('SIGTERM');
      assert.equal(await first.exit, 0, first.err());
      // A clean restart replays everything.
      const again = await launch(dir);
      try {
        const s2 = await nodeJson(again.node, '/v1/status');
        assert.equal(s2.lastRound, status.lastRound);
        assert.doesNotMatch(again.err(), /skips/);
      } finally {
        again.child.kill('SIGTERM');
        await again.exit;
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  });

  it('a stale lock taken over by 6 processes at the same instant (8 trials): exactly one holds it each time', async () => {
    // Each process says it is loaded, spins until the common go file appears, then takes the lock
    // and holds it until the parent has heard from all six.
    const taker = `
      import { existsSync } from 'node:fs';
      import { lockDataDir } from ${JSON.stringify(pathToFileURL(resolve(repoRoot, 'sdk/src/services/devnet/lock.ts')).href)};
      const [dir, go] = process.argv.slice(-2);
      process.stderr.write('R');
      while (!existsSync(go)) {}
      try { const l = lockDataDir(dir); process.stdout.write('got'); process.stdin.once('data', () => { l.release(); process.exit(0); }); }
      catch (e) { process.stdout.write(e.constructor.name); process.exit(0); }`;
    const takerFile = join(dir, 'taker.mts');
    writeFileSync(takerFile, taker);
    for (let trial = 0; trial < 8; trial++) {
      const data = join(dir, `d${trial}`);
      mkdirSync(data);
      // A lock left by a process that no longer exists.
      const gone = spawn(process.execPath, ['-e', '0']);
      await new Promise((r) => gone.once('exit', r));
      writeFileSync(join(data, 'devnet.lock'), JSON.stringify({ pid: gone.pid }) + '\n');
      const go = join(dir, `go${trial}`);
      let ready = 0;
      let answered = 0;
      const children = Array.from({ length: 6 }, () =>
        spawn(process.execPath, ['--import', TSX_LOADER, takerFile, data, go], { stdio: ['pipe', 'pipe', 'pipe'] }),
      );
      const outs = await new Promise<string[]>((done) => {
        const out = children.map(() => '');
        children.forEach((c, i) => {
          // The refused ones exit at once: writing to their closed stdin is EPIPE, not a failure.
          c.stdin!.on('error', () => undefined);
          c.stderr!.on('data', (b: Buffer) => {
            if (b.toString().includes('R') && ++ready === 6) writeFileSync(go, '');
          });
          c.stdout!.on('data', (b: Buffer) => {
            out[i] += b.toString();
            // Everyone has tried: let the holder release and exit.
            if (++answered === 6) for (const k of children) k.stdin!.end('x');
          });
        });
        void Promise.all(children.map((c) => new Promise((r) => c.once('exit', r)))).then(() => done(out));
      });
      rmSync(go, { force: true });
      assert.equal(outs.filter((o) => o === 'got').length, 1, `trial ${trial}: ${outs.join(', ')}`);
      assert.deepEqual(
        outs.filter((o) => o !== 'got'),
        Array(5).fill('DataDirInUseError'),
        `trial ${trial}: the others are refused, naming the holder`,
      );
      assert.deepEqual(readdirSync(data), [], 'nothing left behind once the holder released it');
    }
  });

  it('kill -9 at random moments of a burst (5 trials, seed 5): a refusal that changes nothing, then --recover with every acknowledged transaction', async () => {
    const rnd = prng(5);
    const child = resolve(repoRoot, 'test/sdk/ledger/crash-child.ts');
    for (let trial = 0; trial < 5; trial++) {
      const d = join(dir, `k${trial}`);
      mkdirSync(d);
      const proc = spawn(process.execPath, ['--import', TSX_LOADER, child, d], { stdio: ['ignore', 'pipe', 'inherit'] });
      const killAfter = 20 + Math.floor(rnd() * 60);
      let out = '';
      await new Promise<void>((done) => {
        proc.stdout!.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.split('\n').length > killAfter && !proc.killed) proc.kill('SIGKILL');
        });
        proc.on('exit', () => done());
      });
      const acked = out.split('\n').filter((l) => l.length === 52);
      const keys = [1, 2].map((n) => {
        const seed = new Uint8Array(32);
        seed[0] = n;
        seed[31] = 0x5a;
        return Ed25519KeyPair.fromSeed(seed);
      });
      const config = { genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 1_000_000_000n })), genesisTimestamp: 1_700_000_000n };
      let ledger: Ledger;
      try {
        ledger = new Ledger({ ...config, store: new FileLedgerStore(d) });
      } catch (e) {
        assert.match((e as Error).message, /journal\.bin: the record of round \d+ at byte offset \d+ is incomplete/);
        ledger = new Ledger({ ...config, store: new FileLedgerStore(d, { recover: true }) });
      }
      for (const id of acked) assert.ok(ledger.transaction(id), `trial ${trial}: acknowledged ${id} lost`);
      assert.equal(ledger.supply().totalMoney, 2_000_000_000n + 200_000n);
      ledger.close();
      void Address;
    }
  });

  it('kill -9 of a whole devnet (node, query and key-manager services) under concurrent load (2 trials, seed 29): every acknowledged transaction is in the chain and in the query index after the restart', async () => {
    const rnd = prng(29);
    for (let trial = 0; trial < 2; trial++) {
      const data = join(dir, `svc${trial}`);
      const cli = await launch(data);
      const acked: string[] = [];
      let queried = 0;
      try {
        const tokens = JSON.parse(readFileSync(join(data, 'tokens.json'), 'utf8')) as { query: string };
        const queryUrl = /^ {2}query\s+(http:\/\/\S+)/m.exec(cli.out())![1]!;
        const genesis = JSON.parse(readFileSync(join(data, 'genesis.json'), 'utf8')) as { accounts: { address: string }[] };
        const d = await startDevnetKeys(cli, data);
        const sender = genesis.accounts[0]!.address;
        const params = await nodeJson(cli.node, '/v1/transactions/params');
        const killAt = 30 + Math.floor(rnd() * 50);
        let n = 0;
        let dead = false;
        // 8 clients submit payments and read them back from the query index, until the kill.
        const client = async (c: number) => {
          while (!dead) {
            const i = n++;
            const txn = makePaymentTxn({
              sender,
              receiver: genesis.accounts[1]!.address,
              amount: BigInt(1 + i),
              note: `kill${trial}-${c}-${i}`,
              suggestedParams: {
                fee: 1000n,
                flatFee: true,
                firstValid: BigInt(params.lastRound),
                lastValid: BigInt(params.lastRound) + 1000n,
                genesisId: params.genesisID,
                genesisHash: fromBase64(params.genesishashb64),
              },
            });
            try {
              const res = await request(`${cli.node.url}/v1/transactions`, {
                method: 'POST',
                headers: { 'X-Node-API-Token': cli.node.token, 'content-type': 'application/x-binary' },
                body: encodeSignedTransaction(signTransaction(txn, d)),
              });
              const body = await res.body.text();
              if (res.statusCode !== 200) continue;
              const id = (JSON.parse(body) as { txId: string }).txId;
              acked.push(id);
              if (acked.length >= killAt && !dead) {
                dead = true;
                cli.child.kill('SIGKILL');
              }
              const q = await request(`${queryUrl}/v2/transactions/${id}`, { headers: { 'X-Indexer-API-Token': tokens.query } });
              await q.body.text();
              if (q.statusCode === 200) queried++;
            } catch {
              // The kill cuts requests off: only acknowledged ones count.
            }
          }
        };
        await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
        await cli.exit;
      } finally {
        if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
      }
      assert.ok(acked.length >= 30, `trial ${trial}: ${acked.length} acknowledged before the kill`);
      assert.ok(queried > 0, 'the query index served reads under the load');
      // Restart: a torn last record is refused with nothing changed, then --recover.
      let again: Cli;
      try {
        again = await launch(data);
      } catch (e) {
        assert.match((e as { stderr?: string }).stderr ?? '', /incomplete|damaged|--recover/);
        again = await launch(data, ['--recover']);
      }
      try {
        const tokens = JSON.parse(readFileSync(join(data, 'tokens.json'), 'utf8')) as { query: string };
        const queryUrl = /^ {2}query\s+(http:\/\/\S+)/m.exec(again.out())![1]!;
        for (const id of acked) {
          const t = await nodeJson(again.node, `/v1/transaction/${id}`);
          assert.ok(t.round > 0, `trial ${trial}: acknowledged ${id} lost by the node`);
          const q = await request(`${queryUrl}/v2/transactions/${id}`, { headers: { 'X-Indexer-API-Token': tokens.query } });
          const qt = JSON.parse(await q.body.text()) as { transaction?: { 'confirmed-round'?: number } };
          assert.equal(q.statusCode, 200, `trial ${trial}: acknowledged ${id} missing from the query index`);
          assert.equal(qt.transaction?.['confirmed-round'], t.round, 'node and query index agree');
        }
      } finally {
        again.child.kill('SIGTERM');
        await again.exit;
      }
    }
  });

  it('a really full disk (tmpfs): 503 naming the cause, writes resume when space returns, nothing acknowledged lost after kill -9', async function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) this.skip();
    const mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    try {
      const data = join(mnt, 'devnet');
      const cli = await launch(data, []);
      try {
        const tokens = JSON.parse(readFileSync(join(data, 'tokens.json'), 'utf8')) as { kmd: string };
        void tokens;
        const genesis = JSON.parse(readFileSync(join(data, 'genesis.json'), 'utf8')) as { accounts: { address: string }[] };
        // Sign with the devnet's own wallet key through the key manager's export.
        const d = await startDevnetKeys(cli, data);
        const sender = genesis.accounts[0]!.address;
        const params = await nodeJson(cli.node, '/v1/transactions/params');
        const submit = async (i: number) => {
          const txn = makePaymentTxn({
            sender,
            receiver: genesis.accounts[1]!.address,
            amount: BigInt(1000 + i),
            note: `disk${i}`,
            suggestedParams: {
              fee: 1000n,
              flatFee: true,
              firstValid: BigInt(params.lastRound),
              lastValid: BigInt(params.lastRound) + 1000n,
              genesisId: params.genesisID,
              genesisHash: fromBase64(params.genesishashb64),
            },
          });
          const res = await request(`${cli.node.url}/v1/transactions`, {
            method: 'POST',
            headers: { 'X-Node-API-Token': cli.node.token, 'content-type': 'application/x-binary' },
            body: encodeSignedTransaction(signTransaction(txn, d)),
          });
          return { status: res.statusCode, text: await res.body.text() };
        };
        const acked: string[] = [];
        for (let i = 0; i < 10; i++) {
          const r = await submit(i);
          assert.equal(r.status, 200, r.text);
          acked.push(JSON.parse(r.text).txId);
        }
        // Fill the disk.
        const filler = join(mnt, 'filler');
        try {
          execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });
        } catch {
          // dd stops with an error at ENOSPC, which is the point.
        }
        let refused = 0;
        for (let i = 100; i < 110; i++) {
          const r = await submit(i);
          if (r.status === 200) {
            acked.push(JSON.parse(r.text).txId); // a record that still fitted in the last free block
            continue;
          }
          assert.equal(r.status, 503, r.text);
          assert.match(r.text, /ENOSPC|no space/);
          refused++;
        }
        assert.ok(refused > 0, 'the full disk refused writes');
        const status = await nodeJson(cli.node, '/v1/status');
        assert.ok(status.lastRound >= 10);
        rmSync(filler);
        for (let i = 200; i < 250; i++) {
          const r = await submit(i);
          assert.equal(r.status, 200, r.text);
          acked.push(JSON.parse(r.text).txId);
        }
        cli.child.kill('SIGKILL');
        await cli.exit;
        const again = await launch(data);
        try {
          for (const id of acked) {
            const t = await nodeJson(again.node, `/v1/transaction/${id}`);
            assert.ok(t.round > 0, `acknowledged ${id} lost after the disk recovered`);
          }
        } finally {
          again.child.kill('SIGTERM');
          await again.exit;
        }
      } finally {
        if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
      }
    } finally {
      execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
      if (existsSync(mnt)) rmSync(mnt, { recursive: true, force: true });
    }
  });
});

/** The first funded account's key, exported through the devnet's key manager. */
async function startDevnetKeys(cli: Cli, data: string): Promise<Ed25519KeyPair> {
  const { keyManagerFor, profileFromDevnet } = await import('../../sdk/src/adapters/profiles.js');
  const tokens = JSON.parse(readFileSync(join(data, 'tokens.json'), 'utf8')) as { node: string; query: string; kmd: string };
  const kmdUrl = /^ {2}kmd\s+(http:\/\/\S+)/m.exec(cli.out())![1]!;
  const queryUrl = /^ {2}query\s+(http:\/\/\S+)/m.exec(cli.out())![1]!;
  const kmd = keyManagerFor(
    profileFromDevnet({ node: cli.node, query: { url: queryUrl, token: tokens.query }, keyManager: { url: kmdUrl, token: tokens.kmd } }),
  );
  const session = await kmd.openWallet('unencrypted-default-wallet', '');
  const [first] = await session.listKeys();
  const secret = await session.exportKey(first!);
  await session.close();
  await kmd.close();
  return Ed25519KeyPair.fromSeed(secret.slice(0, 32));
}
