// Issue 14, items 1 and 7: a follower devnet (node-service.md operations 21-24 and follower rules
// 1-6) following a leader devnet over HTTP, in one test process.
import { HANG_GUARD_MS } from '../../../helpers/hang.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { toHex } from '../../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, DevnetConfigError, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { NOT_A_FOLLOWER } from '../../../../sdk/src/services/node/index.js';
import { populatedDevnet, type PopulatedDevnet } from '../../adapters/devnet-fixture.js';
import { readReply, type Reply } from '../node/helpers.js';

async function call(base: string, header: string, token: string, method: string, path: string, body?: Uint8Array): Promise<Reply> {
  return readReply(
    await request(base + path, {
      method: method as 'GET',
      headers: { [header]: token, ...(body ? { 'content-type': 'application/x-binary' } : {}) },
      ...(body ? { body } : {}),
    }),
  );
}
const node = (d: RunningDevnet, method: string, path: string, body?: Uint8Array) => call(d.node.url, 'X-Node-API-Token', d.node.token, method, path, body);
const query = (d: RunningDevnet, path: string) => call(d.query.url, 'X-Indexer-API-Token', d.query.token, 'GET', path);

const LOOKBACK = 4;

describe('devnet: follower mode (node-service.md ops 21-24) with a leader and a follower devnet', function () {
  this.timeout(60000);
  let leader: PopulatedDevnet;
  let follower: RunningDevnet;
  const errors: string[] = [];

  before(async () => {
    leader = await populatedDevnet();
    follower = await startDevnet({
      inMemory: true,
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      follow: { url: leader.d.node.url, token: leader.d.node.token },
      nodeConfig: { MaxAcctLookback: LOOKBACK, CatchupParallelBlocks: 2 },
      onFollowerError: (e) => errors.push(e.message),
    });
  });
  after(async () => {
    await follower?.stop();
    await leader?.stop();
  });

  const sameDelta = async (round: bigint) => {
    const mine = await node(follower, 'GET', `/v2/deltas/${round}?format=msgpack`);
    const theirs = await node(leader.d, 'GET', `/v2/deltas/${round}?format=msgpack`);
    assert.equal(mine.status, 200, `follower delta ${round}: ${mine.text}`);
    assert.equal(theirs.status, 200, `leader delta ${round}: ${theirs.text}`);
    assert.equal(toHex(mine.bytes), toHex(theirs.bytes), `delta of round ${round}`);
    const json = await node(follower, 'GET', `/v2/deltas/${round}`);
    assert.deepEqual(json.json, (await node(leader.d, 'GET', `/v2/deltas/${round}`)).json);
  };

  it("rule 1 / op 21: starts paused at sync round 0 with the leader's genesis, holding rounds 0..MaxAcctLookback-1", async () => {
    assert.equal(follower.genesisId, leader.d.genesisId);
    assert.equal(toHex(follower.ledger.genesisHash), toHex(leader.d.ledger.genesisHash));
    assert.deepEqual(
      follower.accounts.map((a) => a.address),
      leader.d.accounts.map((a) => a.address),
    );
    assert.ok(leader.d.ledger.latestRound > 10n);
    assert.ok(await follower.follower!.waitForRound(BigInt(LOOKBACK - 1)));
    assert.deepEqual((await node(follower, 'GET', '/v2/ledger/sync')).json, { round: 0 });
    // Paused: it fetches nothing past the window although the leader is further on.
    const status = await node(follower, 'GET', '/v1/status');
    assert.equal(status.json.lastRound, LOOKBACK - 1);
    assert.equal(follower.ledger.latestRound, BigInt(LOOKBACK - 1));
    assert.deepEqual(errors, []);
  });

  it("op 24 and rule 3 with R = 0: round 0 is an empty delta, rounds 1..3 equal the leader's, round 4 is outside", async () => {
    const zero = await node(follower, 'GET', '/v2/deltas/0');
    assert.equal(zero.status, 200, zero.text);
    assert.deepEqual(zero.json.Accts.Accts, []);
    assert.equal(zero.json.Creatables, null);
    assert.equal(zero.json.Hdr.rnd ?? 0, 0, 'the genesis header');
    assert.equal(zero.json.Hdr.gen, leader.d.genesisId);
    assert.equal(zero.json.Totals.offline.mon + zero.json.Totals.online.mon + zero.json.Totals.notpart.mon > 0, true);
    assert.equal((await node(follower, 'GET', '/v2/deltas/0?format=msgpack')).status, 200);
    for (let r = 1n; r < BigInt(LOOKBACK); r++) await sameDelta(r);
    const outside = await node(follower, 'GET', `/v2/deltas/${LOOKBACK}`);
    assert.equal(outside.status, 404);
    assert.match(outside.text, /failed retrieving State Delta/);
  });

  it('op 22 / rules 3-4: moving the sync round fetches the next window; deltas, blocks and state at past rounds match the leader', async () => {
    const latest = leader.d.ledger.latestRound;
    const r = latest - 2n;
    assert.equal((await node(follower, 'POST', `/v2/ledger/sync/${r}`)).status, 200);
    assert.deepEqual((await node(follower, 'GET', '/v2/ledger/sync')).json, { round: Number(r) });
    assert.ok(await follower.follower!.waitForRound(latest), `follower reached ${follower.ledger.latestRound}, errors: ${errors.join('; ')}`);
    // Rule 4: at the network's latest round the window is the rounds that exist.
    for (let x = r; x <= latest; x++) await sameDelta(x);
    assert.equal((await node(follower, 'GET', `/v2/deltas/${r - 1n}`)).status, 404, 'before the window');
    // Every block is the leader's, byte for byte.
    for (let x = 0n; x <= latest; x++) {
      const a = await node(follower, 'GET', `/v1/block/${x}?raw=1`);
      const b = await node(leader.d, 'GET', `/v1/block/${x}?raw=1`);
      assert.equal(toHex(a.bytes), toHex(b.bytes), `block ${x}`);
    }
    const hf = (await node(follower, 'GET', '/v1/devnet/state-hash')).json;
    const hl = (await node(leader.d, 'GET', '/v1/devnet/state-hash')).json;
    assert.deepEqual(hf, hl);
    // The follower's query service indexed what it applied: state at past rounds is the leader's.
    for (const round of [1n, 5n, latest - 1n]) {
      for (const addr of [...leader.addrs, leader.appAddr]) {
        const a = await query(follower, `/v2/accounts/${addr}?round=${round}`);
        const b = await query(leader.d, `/v2/accounts/${addr}?round=${round}`);
        assert.equal(a.status, b.status, `${addr} at ${round}`);
        assert.deepEqual({ ...a.json, 'current-round': 0 }, { ...b.json, 'current-round': 0 }, `${addr} at ${round}`);
      }
    }
    const ta = await query(follower, '/v2/transactions?limit=1000');
    const tb = await query(leader.d, '/v2/transactions?limit=1000');
    assert.deepEqual(ta.json.transactions, tb.json.transactions);
    const boxes = await query(follower, `/v2/applications/${leader.appId}/boxes`);
    assert.deepEqual(boxes.json.boxes, (await query(leader.d, `/v2/applications/${leader.appId}/boxes`)).json.boxes);
  });

  it('op 15 on a follower: transactions are refused', async () => {
    const sp = await leader.sp();
    const [signed] = await leader.signer.sign(
      [makePaymentTxn({ sender: leader.addrs[0]!, receiver: leader.addrs[1]!, amount: 1n, note: utf8('to the follower'), suggestedParams: sp })],
      [0],
    );
    const r = await node(follower, 'POST', '/v1/transactions', signed!);
    assert.equal(r.status, 400);
    assert.equal(r.text, 'cannot broadcast txns in follower mode');
  });

  it('while paused the leader moves on without it; op 23 / rule 6: deleting the sync round follows the latest round', async () => {
    const pausedAt = follower.ledger.latestRound;
    const sync = BigInt((await node(follower, 'GET', '/v2/ledger/sync')).json.round);
    // Fill the window (R .. R+3), then two more rounds beyond it.
    const ids: string[] = [];
    for (let i = 0; i < LOOKBACK + 2; i++)
      ids.push(
        ...(await leader.submit([
          makePaymentTxn({
            sender: leader.addrs[1]!,
            receiver: leader.addrs[2]!,
            amount: BigInt(100 + i),
            note: utf8(`after pause ${i}`),
            suggestedParams: await leader.sp(),
          }),
        ])),
      );
    const cap = sync + BigInt(LOOKBACK) - 1n;
    assert.ok(await follower.follower!.waitForRound(cap));
    assert.ok(cap > pausedAt);
    assert.equal(follower.ledger.latestRound, cap, 'stops at the end of the window');
    assert.equal((await node(follower, 'GET', '/v1/status')).json.lastRound, Number(cap));
    // Going back before what it holds is refused (400).
    const back = await node(follower, 'POST', '/v2/ledger/sync/1');
    assert.equal(back.status, 400);
    assert.equal(back.text, 'failed to set sync round on the ledger');
    assert.equal((await node(follower, 'DELETE', '/v2/ledger/sync')).status, 200);
    assert.equal((await node(follower, 'GET', '/v2/ledger/sync')).status, 404);
    const latest = leader.d.ledger.latestRound;
    assert.ok(await follower.follower!.waitForRound(latest));
    // Following: a new leader block arrives without any call on the follower.
    await leader.submit([
      makePaymentTxn({ sender: leader.addrs[2]!, receiver: leader.addrs[0]!, amount: 5n, note: utf8('live'), suggestedParams: await leader.sp() }),
    ]);
    assert.ok(await follower.follower!.waitForRound(latest + 1n));
    await sameDelta(latest + 1n);
    const last = await query(follower, `/v2/transactions/${ids[ids.length - 1]}`);
    assert.equal(last.status, 200, last.text);
    assert.deepEqual((await node(follower, 'GET', '/v1/devnet/state-hash')).json, (await node(leader.d, 'GET', '/v1/devnet/state-hash')).json);
    assert.deepEqual(errors, []);
    assert.equal(follower.follower!.status.stopped, false);
  });

  it('ops 21-23 on a node that is not a follower: 404 with the reason (not a silent 200)', async () => {
    for (const [method, path] of [
      ['GET', '/v2/ledger/sync'],
      ['POST', '/v2/ledger/sync/5'],
      ['DELETE', '/v2/ledger/sync'],
    ] as const) {
      const r = await node(leader.d, method, path);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.text, NOT_A_FOLLOWER);
    }
    // Op 24 on a regular node still serves the deltas it holds in memory.
    assert.equal((await node(leader.d, 'GET', `/v2/deltas/${leader.d.ledger.latestRound}`)).status, 200);
  });
});

describe('devnet: follower configuration (config.json, --follow)', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-follow-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('EnableFollowMode in config.json without a source is refused with what to do', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ EnableFollowMode: true }));
    await assert.rejects(startDevnet({ dataDir: dir, kdf: TEST_SCRYPT }), (e: Error) => e instanceof DevnetConfigError && /--follow URL/.test(e.message));
  });

  it('a config.json setting of the wrong type names the key', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ MaxAcctLookback: 'lots' }));
    await assert.rejects(startDevnet({ dataDir: dir, kdf: TEST_SCRYPT }), /MaxAcctLookback must be a whole number/);
    writeFileSync(join(dir, 'config.json'), '{ nope');
    await assert.rejects(startDevnet({ dataDir: dir, kdf: TEST_SCRYPT }), /config\.json is not valid JSON/);
  });

  it('an unreachable source fails the start cleanly', async () => {
    await assert.rejects(startDevnet({ inMemory: true, kdf: TEST_SCRYPT, follow: { url: 'http://127.0.0.1:1' } }), /cannot reach the follow source/);
    await assert.rejects(startDevnet({ inMemory: true, kdf: TEST_SCRYPT, follow: { url: 'not a url' } }), /is not a URL/);
    await assert.rejects(
      startDevnet({ inMemory: true, kdf: TEST_SCRYPT, accounts: 2, follow: { url: 'http://127.0.0.1:1' } }),
      /--accounts does not apply with --follow/,
    );
    await assert.rejects(
      startDevnet({ inMemory: true, kdf: TEST_SCRYPT, blockIntervalMs: 100, follow: { url: 'http://127.0.0.1:1' } }),
      /--block-interval does not apply with --follow/,
    );
  });

  it('a follower restarted on its data directory keeps its chain and starts its window at the next round', async () => {
    const leader = await populatedDevnet({}, 3);
    try {
      const opts = {
        dataDir: dir,
        kdf: TEST_SCRYPT,
        ports: { node: 0, query: 0, keyManager: 0 },
        nodeConfig: { MaxAcctLookback: 2 },
        follow: { url: leader.d.node.url, token: leader.d.node.token },
      };
      let f = await startDevnet(opts);
      try {
        assert.ok(await f.follower!.waitForRound(1n));
        assert.equal(f.ledger.latestRound, 1n);
      } finally {
        await f.stop();
      }
      f = await startDevnet(opts);
      try {
        assert.equal(f.ledger.latestRound, 1n, 'the journal kept round 1');
        assert.deepEqual((await node(f, 'GET', '/v2/ledger/sync')).json, { round: 2 });
        assert.ok(await f.follower!.waitForRound(3n));
        assert.equal(f.ledger.latestRound, 3n);
        for (const r of [2, 3]) {
          const mine = await node(f, 'GET', `/v2/deltas/${r}?format=msgpack`);
          const theirs = await node(leader.d, 'GET', `/v2/deltas/${r}?format=msgpack`);
          assert.equal(toHex(mine.bytes), toHex(theirs.bytes), `delta ${r}`);
        }
        assert.equal((await node(f, 'GET', '/v2/deltas/1')).status, 404, 'applied before the restart');
        assert.equal(toHex(f.ledger.latestBlock.hash), toHex(leader.d.ledger.block(3n).hash));
      } finally {
        await f.stop();
      }
    } finally {
      await leader.stop();
    }
  });

  it('config.json: EndpointAddress, MaxAcctLookback, DevMode false and DisableAPIAuth are applied; unknown keys are kept', async () => {
    const leader = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 2, kdf: TEST_SCRYPT });
    try {
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ EnableFollowMode: true, MaxAcctLookback: 2, EndpointAddress: '127.0.0.1:0', DisableAPIAuth: true, SomethingElse: 1 }),
      );
      const f = await startDevnet({
        dataDir: dir,
        kdf: TEST_SCRYPT,
        ports: { query: 0, keyManager: 0 },
        follow: { url: leader.node.url, token: leader.node.token },
      });
      try {
        assert.equal(f.config.MaxAcctLookback, 2);
        assert.equal(f.config.SomethingElse, 1);
        // No token needed on its node service.
        const r = await request(`${f.node.url}/v2/ledger/sync`);
        assert.equal(r.statusCode, 200);
        assert.deepEqual(await r.body.json(), { round: 0 });
        assert.equal((await call(leader.node.url, 'X-Node-API-Token', leader.node.token, 'GET', '/v2/ledger/sync')).status, 404);
      } finally {
        await f.stop();
      }
    } finally {
      await leader.stop();
    }
    const other = mkdtempSync(join(tmpdir(), 'tw-devmode-'));
    try {
      writeFileSync(join(other, 'config.json'), JSON.stringify({ DevMode: false, MaxAcctLookback: 8 }));
      const d = await startDevnet({ dataDir: other, kdf: TEST_SCRYPT, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 1 });
      try {
        // Not dev mode: interval blocks (3 s); the first block comes without any submission.
        assert.ok(await d.ledger.waitForRound(1n, HANG_GUARD_MS));
        assert.equal(d.config.DevMode, false);
      } finally {
        await d.stop();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
