// Fault injection against the chain store: flipped bytes in every journal region and in the
// snapshot, truncated tails, a full disk (injected ENOSPC/EIO) then space again, and a crash in
// between. Each scenario ends in one of two ways: every acknowledged transaction is present, or
// the open is refused with a message naming the damage and every file is byte-for-byte as before.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { makePaymentTxn } from '../../sdk/src/txn/builders.js';
import { encodeSignedTransaction } from '../../sdk/src/txn/encode.js';
import { toHex } from '../../sdk/src/encoding/hex.js';
import { Ledger, LedgerDamageError, LedgerWriteError, MemoryLedgerStore } from '../../sdk/src/ledger/index.js';
import { FileLedgerStore, parseJournal, type StoreFs } from '../../sdk/src/ledger/persistence.js';
import { startNodeService } from '../../sdk/src/services/node/service.js';
import { TransactionPool } from '../../sdk/src/services/node/pool.js';
import { devnet, type Devnet } from '../sdk/ledger/fixture.js';
import { prng } from '../helpers/random.js';

type Files = Map<string, string>;

/** Every file in the directory with a digest of its bytes. */
function snapshotDir(dir: string): Files {
  const out: Files = new Map();
  for (const f of readdirSync(dir).sort()) out.set(f, toHex(new Uint8Array(readFileSync(join(dir, f)))));
  return out;
}

function pay(d: Devnet, i: number) {
  return makePaymentTxn({ sender: d.addr(i % 3), receiver: d.addr(3), amount: BigInt(1000 + i), note: `p${i}`, suggestedParams: d.sp() });
}

/** A chain of `rounds` payments in `dir`; returns the txids acknowledged per round. */
function build(dir: string, rounds: number, snapshotInterval = 0): { acked: string[]; hashes: string[] } {
  const d = devnet(4, { store: new FileLedgerStore(dir), snapshotInterval });
  const acked: string[] = [];
  const hashes = [toHex(d.ledger.stateHash())];
  for (let i = 0; i < rounds; i++) {
    acked.push(d.send([pay(d, i)]).txids[0]!);
    hashes.push(toHex(d.ledger.stateHash()));
  }
  d.ledger.close();
  return { acked, hashes };
}

const open = (dir: string, recover = false) => devnet(4, { store: new FileLedgerStore(dir, { recover }), snapshotInterval: 0 });

function expectRefusal(dir: string, check: (e: LedgerDamageError) => void): void {
  const before = snapshotDir(dir);
  assert.throws(
    () => open(dir),
    (e: unknown) => {
      assert.ok(e instanceof LedgerDamageError, `expected a damage report, got ${String(e)}`);
      assert.match(e.message, /Nothing was changed/);
      check(e);
      return true;
    },
  );
  assert.deepEqual(snapshotDir(dir), before, 'a refusal modified the data directory');
}

describe('faults: chain store', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-fault-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a flipped byte in each journal region is refused untouched; --recover keeps every round before it and sets the rest aside', () => {
    const rounds = 12;
    const ref = build(join(dir, 'ref'), rounds);
    const image = new Uint8Array(readFileSync(join(dir, 'ref', 'journal.bin')));
    const { offsets } = parseJournal(image);
    assert.equal(offsets.length, rounds + 1);
    const end = (i: number) => offsets[i + 1] ?? image.length;
    // Regions: magic, length, checksum and payload of the genesis record, a middle record and the last one.
    const targets: { round: number; at: number; region: string }[] = [];
    for (const round of [0, 6, rounds]) {
      const o = offsets[round]!;
      targets.push(
        { round, at: o + 1, region: 'magic' },
        { round, at: o + 5, region: 'length' },
        { round, at: o + 9, region: 'checksum' },
        { round, at: o + 12 + Math.floor((end(round) - o - 12) / 2), region: 'payload' },
      );
    }
    for (const t of targets) {
      const case_ = join(dir, `${t.round}-${t.region}`);
      fs.mkdirSync(case_);
      const bytes = image.slice();
      bytes[t.at]! ^= 0x10;
      writeFileSync(join(case_, 'journal.bin'), bytes);
      expectRefusal(case_, (e) => {
        assert.equal(e.round, BigInt(t.round), `${t.region} of round ${t.round}: ${e.message}`);
        assert.equal(e.offset, offsets[t.round], `${t.region} of round ${t.round}`);
        assert.match(e.message, /journal\.bin/);
      });
      if (t.round === 0) {
        // The genesis record defines the chain: even --recover refuses rather than invent a new one.
        assert.throws(() => open(case_, true), /genesis record/);
        continue;
      }
      const store = new FileLedgerStore(case_, { recover: true });
      const d = devnet(4, { store, snapshotInterval: 0 });
      assert.equal(d.ledger.latestRound, BigInt(t.round - 1));
      assert.equal(toHex(d.ledger.stateHash()), ref.hashes[t.round - 1], 'the kept rounds give the state they had');
      for (const id of ref.acked.slice(0, t.round - 1)) assert.ok(d.ledger.transaction(id), `${id} kept`);
      assert.match(store.recovered.join('\n'), new RegExp(`round ${t.round}`));
      const aside = readdirSync(case_).filter((f) => f.startsWith('journal.bin.damaged-'));
      assert.equal(aside.length, 1);
      assert.deepEqual(new Uint8Array(readFileSync(join(case_, aside[0]!))), bytes.subarray(offsets[t.round]!), 'the damaged tail is kept byte for byte');
      d.ledger.close();
    }
  });

  it('200 random bit flips in the journal: every one is refused with the files unchanged (seed 12)', () => {
    build(join(dir, 'ref'), 8);
    const image = new Uint8Array(readFileSync(join(dir, 'ref', 'journal.bin')));
    const rnd = prng(12);
    const c = join(dir, 'case');
    fs.mkdirSync(c);
    for (let n = 0; n < 200; n++) {
      const bytes = image.slice();
      const at = Math.floor(rnd() * bytes.length);
      bytes[at]! ^= 1 << Math.floor(rnd() * 8);
      writeFileSync(join(c, 'journal.bin'), bytes);
      expectRefusal(c, () => undefined);
    }
  });

  it('a flipped bit in the snapshot is refused; --recover sets it aside and rebuilds the same state from the journal (100 flips, seed 7)', () => {
    const ref = join(dir, 'ref');
    const d = devnet(4, { store: new FileLedgerStore(ref), snapshotInterval: 3 });
    for (let i = 0; i < 10; i++) d.send([pay(d, i)]);
    d.ledger.close();
    const hash = toHex(d.ledger.stateHash());
    const journal = readFileSync(join(ref, 'journal.bin'));
    const snap = new Uint8Array(readFileSync(join(ref, 'snapshot.bin')));
    const rnd = prng(7);
    for (let n = 0; n < 100; n++) {
      const c = join(dir, `s${n}`);
      fs.mkdirSync(c);
      writeFileSync(join(c, 'journal.bin'), journal);
      const bytes = snap.slice();
      bytes[Math.floor(rnd() * bytes.length)]! ^= 1 << Math.floor(rnd() * 8);
      writeFileSync(join(c, 'snapshot.bin'), bytes);
      expectRefusal(c, (e) => assert.match(e.message, /snapshot\.bin is damaged/));
      const store = new FileLedgerStore(c, { recover: true });
      const again = devnet(4, { store, snapshotInterval: 0 });
      assert.equal(toHex(again.ledger.stateHash()), hash, 'no round lost');
      assert.equal(again.ledger.latestRound, 10n);
      assert.equal(readdirSync(c).filter((f) => f.startsWith('snapshot.bin.damaged-')).length, 1);
      rmSync(c, { recursive: true, force: true });
    }
  });

  it('a journal cut at any point is refused untouched; --recover keeps every complete round', () => {
    const ref = build(join(dir, 'ref'), 6);
    const image = new Uint8Array(readFileSync(join(dir, 'ref', 'journal.bin')));
    const { offsets } = parseJournal(image);
    const rnd = prng(3);
    for (let n = 0; n < 40; n++) {
      const cut = offsets[1]! + 1 + Math.floor(rnd() * (image.length - offsets[1]! - 1));
      const c = join(dir, `t${n}`);
      fs.mkdirSync(c);
      writeFileSync(join(c, 'journal.bin'), image.subarray(0, cut));
      const complete = offsets.filter((o, i) => (offsets[i + 1] ?? image.length) <= cut).length - 1;
      if (offsets.includes(cut)) {
        // A cut on a record boundary is a shorter, intact journal.
        assert.equal(open(c).ledger.latestRound, BigInt(complete));
      } else {
        expectRefusal(c, (e) => assert.equal(e.round, BigInt(complete + 1)));
        const d = open(c, true);
        assert.equal(d.ledger.latestRound, BigInt(complete));
        assert.equal(toHex(d.ledger.stateHash()), ref.hashes[complete]);
      }
      rmSync(c, { recursive: true, force: true });
    }
  });

  describe('full disk, then space again', () => {
    /** `fs` whose journal writes fail with `code` while `full` is set: half the bytes land first, as on a real full disk. */
    function faultyFs(code: string, opts: { failTruncate?: boolean } = {}) {
      const state = { full: false, failTruncate: opts.failTruncate ?? false };
      const err = () => Object.assign(new Error(`${code}: simulated ${code === 'ENOSPC' ? 'no space left on device' : 'i/o error'}, write`), { code });
      const f: StoreFs = {
        ...fs,
        writeSync: ((fd: number, buf: Uint8Array, off?: number, len?: number) => {
          if (!state.full) return (fs.writeSync as (...a: unknown[]) => number)(fd, buf, off, len);
          const half = Math.max(1, Math.floor((len ?? buf.length) / 2));
          fs.writeSync(fd, buf, off ?? 0, half);
          throw err();
        }) as StoreFs['writeSync'],
        ftruncateSync: ((fd: number, len?: number) => {
          if (state.full && state.failTruncate) throw err();
          return fs.ftruncateSync(fd, len);
        }) as StoreFs['ftruncateSync'],
      };
      return { fs: f, state };
    }

    for (const code of ['ENOSPC', 'EIO']) {
      it(`${code}: the submit fails with 503 naming the cause, state and files stay at the last durable round, reads go on, writes resume, and nothing acknowledged is lost after a crash`, async () => {
        const fault = faultyFs(code);
        const d = devnet(4, { store: new FileLedgerStore(dir, { fs: fault.fs }), snapshotInterval: 5 });
        const node = await startNodeService({ ledger: d.ledger, apiToken: 'a'.repeat(64), port: 0 });
        const headers = { 'X-Node-API-Token': 'a'.repeat(64) };
        const submit = async (i: number) => {
          const res = await request(`${node.url}/v1/transactions`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/x-binary' },
            body: encodeSignedTransaction(d.sign(pay(d, i))),
          });
          return { status: res.statusCode, text: await res.body.text() };
        };
        try {
          const acked: string[] = [];
          for (let i = 0; i < 20; i++) {
            const r = await submit(i);
            assert.equal(r.status, 200, r.text);
            acked.push(JSON.parse(r.text).txId);
          }
          const before = snapshotDir(dir);
          const hash = toHex(d.ledger.stateHash());
          const round = d.ledger.latestRound;
          fault.state.full = true;
          for (let i = 100; i < 105; i++) {
            const r = await submit(i);
            assert.equal(r.status, 503, r.text);
            assert.match(r.text, new RegExp(code));
            assert.match(r.text, /was not committed/);
          }
          assert.deepEqual(snapshotDir(dir), before, 'the failed writes left the files as they were');
          assert.equal(toHex(d.ledger.stateHash()), hash);
          assert.equal(d.ledger.latestRound, round);
          const status = await request(`${node.url}/v1/status`, { headers });
          assert.equal(status.statusCode, 200, 'reads keep being served');
          await status.body.text();
          fault.state.full = false;
          for (let i = 200; i < 250; i++) {
            const r = await submit(i);
            assert.equal(r.status, 200, r.text);
            acked.push(JSON.parse(r.text).txId);
          }
          // A crash now (no close, no final snapshot): a fresh open finds all 70.
          const again = open(dir);
          for (const id of acked) assert.ok(again.ledger.transaction(id), `acknowledged ${id} lost`);
          assert.equal(again.ledger.latestRound, round + 50n);
        } finally {
          await node.close();
        }
      });
    }

    it('a cut-back that also fails (then a crash) leaves a partial record that is refused, and --recover loses nothing acknowledged', () => {
      const fault = faultyFs('ENOSPC', { failTruncate: true });
      const d = devnet(4, { store: new FileLedgerStore(dir, { fs: fault.fs }), snapshotInterval: 0 });
      const acked: string[] = [];
      for (let i = 0; i < 5; i++) acked.push(d.send([pay(d, i)]).txids[0]!);
      fault.state.full = true;
      assert.throws(
        () => d.send([pay(d, 50)]),
        (e: unknown) => e instanceof LedgerWriteError && e.code === 'ENOSPC',
      );
      // Space comes back: the next append first cuts the partial record off.
      fault.state.full = false;
      acked.push(d.send([pay(d, 51)]).txids[0]!);
      fault.state.full = true;
      assert.throws(() => d.send([pay(d, 52)]), LedgerWriteError);
      // Crash with the partial record still there.
      expectRefusal(dir, (e) => assert.equal(e.round, 7n));
      const again = open(dir, true);
      for (const id of acked) assert.ok(again.ledger.transaction(id), `acknowledged ${id} lost`);
      assert.equal(again.ledger.latestRound, 6n);
    });

    it('interval mode: groups accepted into the pool wait out a full disk and commit once there is space', () => {
      const fault = faultyFs('ENOSPC');
      const d = devnet(4, { store: new FileLedgerStore(dir, { fs: fault.fs }), snapshotInterval: 0 });
      const pool = new TransactionPool(d.ledger, { blockIntervalMs: 1000 });
      const ids = [0, 1, 2].map((i) => pool.submit(encodeSignedTransaction(d.sign(pay(d, i))), 16));
      fault.state.full = true;
      assert.throws(
        () => pool.produceBlock(),
        (e: unknown) => e instanceof LedgerWriteError && e.code === 'ENOSPC',
      );
      assert.deepEqual(
        pool
          .pending()
          .map((e) => e.txid)
          .sort(),
        [...ids].sort(),
        'still waiting, not evicted',
      );
      assert.equal(d.ledger.latestRound, 0n);
      fault.state.full = false;
      pool.produceBlock();
      for (const id of ids) assert.ok(d.ledger.transaction(id), `${id} committed after the disk recovered`);
      assert.equal(pool.pending().length, 0);
      const again = open(dir);
      for (const id of ids) assert.ok(again.ledger.transaction(id));
    });

    it('a snapshot that cannot be written does not fail the submit whose block is already journaled', () => {
      let failSnapshots = false;
      const f: StoreFs = {
        ...fs,
        openSync: ((p: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
          if (failSnapshots && String(p).endsWith('snapshot.bin.tmp'))
            throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
          return fs.openSync(p, flags ?? 'r', mode);
        }) as StoreFs['openSync'],
      };
      const d = devnet(4, { store: new FileLedgerStore(dir, { fs: f }), snapshotInterval: 2 });
      failSnapshots = true;
      const acked: string[] = [];
      for (let i = 0; i < 6; i++) acked.push(d.send([pay(d, i)]).txids[0]!);
      assert.ok(d.ledger.snapshotError instanceof LedgerWriteError);
      d.ledger.close();
      const again = open(dir);
      for (const id of acked) assert.ok(again.ledger.transaction(id));
    });
  });

  it('the in-memory store keeps working as before (control)', () => {
    const store = new MemoryLedgerStore();
    const d = devnet(4, { store });
    d.send([pay(d, 1)]);
    const again = devnet(4, { store });
    assert.equal(again.ledger.latestRound, 1n);
    void Ledger;
  });
});
