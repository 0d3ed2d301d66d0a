// A follower against a hostile or broken source: an oversized block is refused unread, a dripping
// body is cut off, and the follower keeps running and catches up once the source behaves; a
// source whose chain differs from what the follower journaled is refused at restart with nothing
// changed, and `recover` sets the divergent rounds aside and fetches them again. No
// MaxListenersExceededWarning on the way. Assertions are on outcomes and counts, never durations.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBase64 } from '../../sdk/src/encoding/base64.js';
import { toHex } from '../../sdk/src/encoding/hex.js';
import { stringifyJson } from '../../sdk/src/encoding/json.js';
import { encodeMsgpack } from '../../sdk/src/encoding/msgpack.js';
import { blockToWire } from '../../sdk/src/ledger/block.js';
import { Ledger } from '../../sdk/src/ledger/index.js';
import { startDevnet, DevnetConfigError } from '../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/index.js';
import { key } from '../sdk/services/node/helpers.js';

type Mode = 'oversized' | 'chunked-oversized' | 'drip';

/** A source chain: the same genesis every time; `seed` changes the block timestamps (so the hashes). */
function chain(rounds: number, seed: bigint): Ledger {
  let t = 1_700_000_000n + seed;
  const l = new Ledger({
    genesisAccounts: [1, 2].map((i) => ({ address: key(i).publicKey, amount: 10n ** 12n })),
    genesisTimestamp: 1_700_000_000n,
    clock: () => (t += 7n + seed),
  });
  for (let i = 0; i < rounds; i++) l.produceBlock([]);
  return l;
}

/** A node speaking the /v2 routes over `state.ledger`, misbehaving on the block requests listed in `state.faults`. */
async function hostileSource(state: { ledger: Ledger; faults: Mode[]; served: Mode[] }): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const l = state.ledger;
    const json = (v: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(stringifyJson(v));
    };
    if (url.pathname === '/versions') return json({ versions: ['v2'], genesis_id: l.genesisId, genesis_hash_b64: toBase64(l.genesisHash), build: {} });
    if (url.pathname === '/genesis') return json(l.genesis());
    if (url.pathname === '/v2/status') return json({ 'last-round': l.latestRound });
    let m = /^\/v2\/status\/wait-for-block-after\/(\d+)$/.exec(url.pathname);
    if (m) {
      void l.waitForRound(BigInt(m[1]!) + 1n, 500).then(() => json({ 'last-round': l.latestRound }));
      return;
    }
    m = /^\/v2\/blocks\/(\d+)$/.exec(url.pathname);
    if (m) {
      const r = BigInt(m[1]!);
      if (r > l.latestRound) return json({ message: 'ledger does not have entry' }, 404);
      const fault = r === 1n ? state.faults.shift() : undefined; // one fault per attempt at round 1
      if (fault) state.served.push(fault);
      if (fault === 'oversized') {
        res.writeHead(200, { 'content-type': 'application/msgpack', 'content-length': String(1536 * 1024 * 1024) });
        res.write(Buffer.alloc(1024));
        return; // never ends: the follower must not wait for 1.5 GB
      }
      if (fault === 'chunked-oversized') {
        res.writeHead(200, { 'content-type': 'application/msgpack' });
        const chunk = Buffer.alloc(1 << 20, 0x90);
        let sent = 0;
        const pump = () => {
          while (!res.destroyed && sent < 64) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      if (fault === 'drip') {
        res.writeHead(200, { 'content-type': 'application/msgpack' });
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(Buffer.from([0x81]))), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/msgpack' });
      res.end(encodeMsgpack({ block: blockToWire(l.block(r), true) }));
      return;
    }
    json({ message: 'Not Found' }, 404);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

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

describe('fault: a follower against a hostile source', function () {
  this.timeout(3 * HANG_GUARD_MS);
  let dir: string;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-follow-hostile-'));
    process.on('warning', onWarning);
  });
  after(() => {
    process.off('warning', onWarning);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an oversized block, an endless one and a dripping body are cut off; the follower keeps running and catches up', async () => {
    const state = { ledger: chain(20, 0n), faults: ['oversized', 'chunked-oversized', 'drip'] as Mode[], served: [] as Mode[] };
    const src = await hostileSource(state);
    const errors: string[] = [];
    const f = await startDevnet({
      dataDir: join(dir, 'f1'),
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      follow: { url: src.url, timeoutMs: 2000, maxBlockBytes: 4 * 1024 * 1024 },
      nodeConfig: { MaxAcctLookback: 32, CatchupParallelBlocks: 16 },
      onFollowerError: (e, fatal) => errors.push(`${fatal ? 'FATAL ' : ''}${e.message}`),
    });
    try {
      assert.ok(await f.follower!.waitForRound(20n, HANG_GUARD_MS), errors.join('\n'));
      assert.deepEqual(state.served, ['oversized', 'chunked-oversized', 'drip']);
      assert.ok(
        errors.some((e) => /over the 4194304-byte limit; it was not read/.test(e)),
        errors.join('\n'),
      );
      assert.ok(
        errors.some((e) => /exceeded the 4194304-byte limit/.test(e)),
        errors.join('\n'),
      );
      assert.ok(
        errors.some((e) => /did not answer GET \/v2\/blocks\/\d+\?format=msgpack in full within 2000 ms/.test(e)),
        errors.join('\n'),
      );
      assert.ok(!errors.some((e) => e.startsWith('FATAL')), 'never gave up');
      assert.equal(f.follower!.status.stopped, false);
      assert.equal(toHex(f.ledger.latestBlock.hash), toHex(state.ledger.block(20n).hash));
      assert.deepEqual(
        warnings.filter((w) => w === 'MaxListenersExceededWarning'),
        [],
      );
    } finally {
      await f.stop();
      src.server.closeAllConnections();
      src.server.close();
    }
  });

  it('rounds that differ from the source are refused at restart with nothing changed; recover sets them aside and refetches', async () => {
    const data = join(dir, 'f2');
    const state = { ledger: chain(6, 0n), faults: [] as Mode[], served: [] as Mode[] };
    const src = await hostileSource(state);
    const opts = {
      dataDir: data,
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      follow: { url: src.url },
      nodeConfig: { MaxAcctLookback: 16 },
    };
    try {
      const f = await startDevnet(opts);
      assert.ok(await f.follower!.waitForRound(6n));
      await f.stop();
      // The source now serves another history from round 1 on (same genesis): the follower's
      // journaled rounds are an altered chain as far as it is concerned.
      state.ledger = chain(8, 3n);
      const before = treeDigest(data);
      await assert.rejects(
        startDevnet(opts),
        (e: unknown) =>
          e instanceof DevnetConfigError &&
          /rounds 1\.\.6 of this follower differ from its source's/.test(e.message) &&
          /Nothing was changed/.test(e.message) &&
          /--recover/.test(e.message),
      );
      assert.deepEqual(treeDigest(data), before, 'the refused start changed nothing');
      const errors: string[] = [];
      const r = await startDevnet({ ...opts, recover: true, onFollowerError: (e) => errors.push(e.message) });
      try {
        assert.ok(
          r.recovered.some((s) => /rounds 1\.\.6 of this follower differ/.test(s) && /moved to/.test(s)),
          r.recovered.join('\n'),
        );
        assert.ok(
          readdirSync(join(data, 'ledger')).some((n) => n.startsWith('journal.bin.damaged-')),
          'the divergent rounds were kept aside',
        );
        assert.ok(await r.follower!.waitForRound(8n), errors.join('\n'));
        assert.equal(toHex(r.ledger.latestBlock.hash), toHex(state.ledger.block(8n).hash));
      } finally {
        await r.stop();
      }
    } finally {
      src.server.closeAllConnections();
      src.server.close();
    }
  });
});
