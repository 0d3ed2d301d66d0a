// Issue 14, item 1: a follower fed by a node that serves the node's /v2 block routes (not our /v1
// node service), and `tealworks devnet --follow URL` as a real process.
import { HANG_GUARD_MS } from '../../../helpers/hang.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { toHex } from '../../../../sdk/src/encoding/hex.js';
import { stringifyJson } from '../../../../sdk/src/encoding/json.js';
import { encodeMsgpack } from '../../../../sdk/src/encoding/msgpack.js';
import { blockToWire } from '../../../../sdk/src/ledger/block.js';
import { startDevnet, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { populatedDevnet, type PopulatedDevnet } from '../../adapters/devnet-fixture.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const TSX_LOADER = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** A node speaking only the node's /v2 routes (+ /versions, /genesis) over a leader devnet's ledger. */
async function v2Source(leader: RunningDevnet, token: string): Promise<{ url: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const l = leader.ledger;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const json = (v: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(stringifyJson(v));
    };
    if (url.pathname === '/versions') return json({ versions: ['v2'], genesis_id: l.genesisId, genesis_hash_b64: toBase64(l.genesisHash), build: {} });
    if (url.pathname === '/genesis') return json(l.genesis());
    if (req.headers['x-algo-api-token'] !== token) return json({ message: 'Invalid API Token' }, 401);
    if (url.pathname === '/v2/status') return json({ 'last-round': l.latestRound });
    let m = /^\/v2\/status\/wait-for-block-after\/(\d+)$/.exec(url.pathname);
    if (m) {
      void l.waitForRound(BigInt(m[1]!) + 1n, 2000).then(() => json({ 'last-round': l.latestRound }));
      return;
    }
    m = /^\/v2\/blocks\/(\d+)$/.exec(url.pathname);
    if (m && url.searchParams.get('format') === 'msgpack') {
      const r = BigInt(m[1]!);
      if (r > l.latestRound) return json({ message: 'ledger does not have entry' }, 404);
      res.writeHead(200, { 'content-type': 'application/msgpack' });
      res.end(encodeMsgpack({ block: blockToWire(l.block(r), true) }));
      return;
    }
    json({ message: 'Not Found' }, 404);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, server, hits };
}

describe('devnet: follower sources', function () {
  this.timeout(60000);
  let leader: PopulatedDevnet;
  before(async () => {
    leader = await populatedDevnet({}, 2);
  });
  after(async () => {
    await leader?.stop();
  });

  it('follows a node that serves /v2/blocks?format=msgpack and /v2/status (ops 22-24 over it)', async () => {
    const src = await v2Source(leader.d, 'algod-token');
    const errors: string[] = [];
    const f = await startDevnet({
      inMemory: true,
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      follow: { url: src.url, token: 'algod-token' },
      nodeConfig: { MaxAcctLookback: 3 },
      onFollowerError: (e) => errors.push(e.message),
    });
    try {
      assert.ok(await f.follower!.waitForRound(2n));
      const latest = leader.d.ledger.latestRound;
      const set = await request(`${f.node.url}/v2/ledger/sync/${latest - 1n}`, { method: 'POST', headers: { 'X-Node-API-Token': f.node.token } });
      assert.equal(set.statusCode, 200);
      await set.body.text();
      assert.ok(await f.follower!.waitForRound(latest), errors.join('; '));
      assert.equal(toHex(f.ledger.stateHash()), toHex(leader.d.ledger.stateHash()));
      assert.equal(toHex(f.ledger.latestBlock.hash), toHex(leader.d.ledger.latestBlock.hash));
      assert.ok(src.hits.includes('/v2/status') && src.hits.some((h) => h.startsWith('/v2/blocks/')));
      assert.ok(!src.hits.some((h) => h.startsWith('/v1/')), 'no /v1 route asked of a v2-only source');
      const d = await request(`${f.node.url}/v2/deltas/${latest}?format=msgpack`, { headers: { 'X-Node-API-Token': f.node.token } });
      const mine = new Uint8Array(await d.body.arrayBuffer());
      const theirs = await request(`${leader.d.node.url}/v2/deltas/${latest}?format=msgpack`, { headers: { 'X-Node-API-Token': leader.d.node.token } });
      assert.equal(toHex(mine), toHex(new Uint8Array(await theirs.body.arrayBuffer())));
      assert.deepEqual(errors, []);
    } finally {
      await f.stop();
      await new Promise((ok) => src.server.close(ok));
    }
  });

  it('a wrong source token fails the start with what to do', async () => {
    const src = await v2Source(leader.d, 'right');
    try {
      await assert.rejects(
        startDevnet({ inMemory: true, kdf: TEST_SCRYPT, follow: { url: src.url, token: 'wrong' } }),
        /refused the API token \(401\); pass its node token/,
      );
    } finally {
      await new Promise((ok) => src.server.close(ok));
    }
  });

  it('tealworks devnet --follow URL --follow-token T runs a follower process (paused at 0, refuses transactions)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tw-follow-cli-'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        TSX_LOADER,
        resolve(repoRoot, 'sdk/src/cli/main.ts'),
        'devnet',
        '--in-memory',
        '--ports',
        '0,0,0',
        '--follow',
        leader.d.node.url,
        '--follow-token',
        leader.d.node.token,
      ],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    try {
      const deadline = Date.now() + HANG_GUARD_MS;
      while (!/Press Ctrl\+C to stop\./.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) assert.fail(`no banner:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.match(out, new RegExp(`follower of ${leader.d.node.url.replace(/[.]/g, '\\.')}: takes no transactions`));
      const m = /^ {2}node\s+(http:\/\/\S+)\s+token ([0-9a-f]{64})$/m.exec(out)!;
      const sync = await request(`${m[1]}/v2/ledger/sync`, { headers: { 'X-Node-API-Token': m[2]! } });
      assert.deepEqual(await sync.body.json(), { round: 0 });
      const genesis = await request(`${m[1]}/versions`);
      assert.equal(((await genesis.body.json()) as { genesis_hash_b64: string }).genesis_hash_b64, toBase64(leader.d.ledger.genesisHash));
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exit, 0, err);
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
