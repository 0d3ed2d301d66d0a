import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileForkCache, type StoreFs } from '../../../sdk/src/ledger/persistence.js';
import { ForkCacheError, ForkRemoteError, ForkState, type ForkRemote, type RemoteAccount } from '../../../sdk/src/ledger/fork.js';
import { LedgerWriteError } from '../../../sdk/src/ledger/errors.js';
import { Ledger } from '../../../sdk/src/ledger/ledger.js';
import { TEST_FORK_HEAD } from './fork-head.js';

/**
 * The fork cache file: replaced atomically (a failed write or a failed fetch never leaves a
 * half-written cache), damage refused with what to do. The remote here is a small in-memory
 * `ForkRemote`; the end-to-end behaviour against a real remote node is in
 * test/sdk/services/devnet/fork.test.ts.
 */

const HEAD = TEST_FORK_HEAD;

function account(balance: bigint): RemoteAccount {
  return {
    account: {
      balance,
      status: 0,
      holdings: new Map(),
      locals: new Map(),
      createdAssets: new Set(),
      createdApps: new Set(),
      totalBoxes: 0n,
      totalBoxBytes: 0n,
      incentiveEligible: false,
      lastProposed: 0n,
      lastHeartbeat: 0n,
    },
    createdApps: [],
    createdAssets: [],
    localSchemas: new Map(),
  };
}

function remote(failOn?: number): ForkRemote & { calls: number } {
  const r = {
    url: HEAD.url,
    calls: 0,
    head: async () => HEAD,
    latestRound: async () => 51n,
    account: async (a: Uint8Array) => {
      r.calls++;
      if (failOn !== undefined && a[0] === failOn) throw new ForkRemoteError(`cannot reach the fork remote ${HEAD.url}`);
      return { round: 51n, value: account(BigInt(a[0]!) * 1_000_000n) };
    },
    app: async () => ({ round: 51n, value: undefined }),
    asset: async () => ({ round: 51n, value: undefined }),
    box: async () => ({ round: 51n, value: undefined }),
  };
  return r;
}

const addr = (b: number) => new Uint8Array(32).fill(b);

describe('ledger fork cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-fork-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each record with its remote round, and restarts from the file without the remote', async () => {
    const f = await ForkState.open({ remote: remote(), cache: new FileForkCache(dir) });
    await f.prefetch([{ kind: 'account', address: addr(3) }]);
    assert.equal(f.recordRound({ kind: 'account', address: addr(3) }), 51n);
    assert.equal(f.status().laterRecords, 1);
    const again = await ForkState.open({ cache: new FileForkCache(dir) });
    assert.deepEqual(again.head, HEAD);
    const l = new Ledger({ fork: again });
    assert.equal(l.balance(addr(3)), 3_000_000n, 'served from the cache, no remote given');
    assert.equal(l.latestRound, 50n);
    assert.equal(again.requests.length, 0);
  });

  it('a failed write leaves the previous cache intact', async () => {
    const failing: StoreFs = {
      ...nodeFs,
      renameSync: () => {
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      },
    };
    const good = new FileForkCache(dir);
    const f = await ForkState.open({ remote: remote(), cache: good });
    await f.prefetch([{ kind: 'account', address: addr(1) }]);
    const before = good.read();
    const bad = new FileForkCache(dir, failing);
    assert.throws(() => bad.write(new Uint8Array([1, 2, 3])), LedgerWriteError);
    assert.deepEqual(good.read(), before);
    assert.ok(!nodeFs.existsSync(join(dir, 'fork-cache.bin.tmp')), 'no temp file left behind');
  });

  it('a fetch that fails part-way keeps the complete records and throws; nothing half-written', async () => {
    const r = remote(9);
    const f = await ForkState.open({ remote: r, cache: new FileForkCache(dir) });
    await assert.rejects(
      f.prefetch([
        { kind: 'account', address: addr(4) },
        { kind: 'account', address: addr(9) },
      ]),
      /cannot reach the fork remote/,
    );
    const reopened = await ForkState.open({ cache: new FileForkCache(dir) });
    assert.ok(reopened.has({ kind: 'account', address: addr(4) }));
    assert.ok(!reopened.has({ kind: 'account', address: addr(9) }));
    // Offline, the missing record is a clear error naming the remote.
    const l = new Ledger({ fork: reopened });
    await assert.rejects(
      reopened.run(() => l.balance(addr(9))),
      /not in its cache, and it was started without a remote\. Start it with --fork http:\/\/remote\.invalid/,
    );
  });

  it('concurrent runs that miss the same record fetch it once', async () => {
    const r = remote();
    const slow = { ...r, account: async (a: Uint8Array) => (await new Promise((res) => setTimeout(res, 20)), r.account(a)) };
    const f = await ForkState.open({ remote: slow, cache: new FileForkCache(dir) });
    const l = new Ledger({ fork: f });
    const got = await Promise.all([1, 2, 3].map(() => f.run(() => l.balance(addr(6)))));
    assert.deepEqual(got, [6_000_000n, 6_000_000n, 6_000_000n]);
    assert.equal(r.calls, 1);
    assert.equal(f.requests.length, 1);
  });

  it('a damaged cache file is refused with what to do; a refresh that cannot reach the remote keeps the old cache', async () => {
    await ForkState.open({ remote: remote(), cache: new FileForkCache(dir) });
    writeFileSync(join(dir, 'fork-cache.bin'), 'garbage');
    await assert.rejects(
      ForkState.open({ remote: remote(), cache: new FileForkCache(dir) }),
      (e: Error) => e instanceof ForkCacheError && /damaged .* --fork-refresh/.test(e.message),
    );
    rmSync(join(dir, 'fork-cache.bin'));
    await ForkState.open({ remote: remote(), cache: new FileForkCache(dir) });
    const unreachable = {
      ...remote(),
      head: async () => {
        throw new ForkRemoteError('cannot reach the fork remote');
      },
    };
    await assert.rejects(ForkState.open({ remote: unreachable, cache: new FileForkCache(dir), refresh: true }), /cannot reach/);
    assert.ok(new FileForkCache(dir).read(), 'the old cache is still there');
  });
});
