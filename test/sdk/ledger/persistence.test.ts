import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, statSync, appendFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAppCallTxn, makePaymentTxn, makeAssetCreateTxn } from '../../../sdk/src/txn/builders.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import {
  Ledger,
  MemoryLedgerStore,
  LedgerStoreError,
  LedgerDamageError,
  headerHash512,
  encodeBlock,
  type LedgerConfig,
} from '../../../sdk/src/ledger/index.js';
import { decodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { FileLedgerStore, frameRecord, parseJournal } from '../../../sdk/src/ledger/persistence.js';
import { ALGO, devnet, teal, type Devnet } from './fixture.js';
import { APPROVAL, CLEAR } from './programs.js';

function activity(d: Devnet, rounds: number): void {
  const r = d.send([
    makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal(APPROVAL),
      clearProgram: teal(CLEAR),
      globalSchema: { numUints: 1, numByteSlices: 0 },
      suggestedParams: d.sp(),
    }),
  ]);
  const app = d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
  d.send([makeAssetCreateTxn({ sender: d.addr(1), total: 10n, decimals: 0, suggestedParams: d.sp() })]);
  for (let i = 0; i < rounds; i++) {
    if (i % 2) d.send([makePaymentTxn({ sender: d.addr(i % 3), receiver: d.addr(3), amount: BigInt(i + 1), note: `n${i}`, suggestedParams: d.sp() })]);
    else d.send([makeAppCallTxn({ sender: d.addr(2), appId: app, args: [utf8('inc')], note: `c${i}`, suggestedParams: d.sp() })]);
  }
}

describe('ledger: persistence', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const config = (store: LedgerConfig['store'], extra: Partial<LedgerConfig> = {}): LedgerConfig => ({ store, snapshotInterval: 4, ...extra });

  it('restarts with the genesis timestamp kept in the data directory', () => {
    let now = 1_800_000_000n;
    const mk = () => new Ledger({ store: new FileLedgerStore(dir), clock: () => (now += 10n) });
    const a = mk();
    const gh = toHex(a.genesisHash);
    a.close();
    const b = mk();
    assert.equal(toHex(b.genesisHash), gh);
    assert.equal(b.block(0n).header.timestamp, 1_800_000_010n);
  });

  it('restarts from a data directory to the same state hash (snapshot + journal tail)', () => {
    const d = devnet(4, config(new FileLedgerStore(dir)));
    activity(d, 9);
    const hash = toHex(d.ledger.stateHash());
    const round = d.ledger.latestRound;
    const blockHash = toHex(d.ledger.latestBlock.hash);
    const someTx = d.ledger.block(3n).txns[0]!.txid;
    // No close(): as after a kill -9, the journal tail past the last snapshot must be replayed.
    const again = devnet(4, config(new FileLedgerStore(dir)));
    assert.equal(again.ledger.latestRound, round);
    assert.equal(toHex(again.ledger.stateHash()), hash);
    assert.equal(toHex(again.ledger.latestBlock.hash), blockHash);
    assert.equal(again.ledger.transaction(someTx)!.round, 3n);
    // A snapshot write cut short by a crash leaves only its temp file, which is ignored.
    writeFileSync(join(dir, 'snapshot.bin.tmp'), new Uint8Array([0xde, 0xad]));
    assert.equal(toHex(devnet(4, config(new FileLedgerStore(dir))).ledger.stateHash()), hash);
    // Duplicate detection survives the restart.
    const t = d.ledger.block(round).txns[0]!.stxn;
    assert.throws(() => again.ledger.submit([t]), /transaction already in ledger/);
    // It keeps going.
    again.send([makePaymentTxn({ sender: again.addr(0), receiver: again.addr(1), amount: ALGO, suggestedParams: again.sp() })]);
    assert.equal(again.ledger.latestRound, round + 1n);
  });

  it('refuses a torn last journal record without touching it; --recover moves it aside', () => {
    const d = devnet(4, config(new FileLedgerStore(dir), { snapshotInterval: 0 }));
    activity(d, 3);
    const hash = toHex(d.ledger.stateHash());
    const round = d.ledger.latestRound;
    const journal = join(dir, 'journal.bin');
    const full = statSync(journal).size;
    // A record being written when the process died: header and half a payload.
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 7n, suggestedParams: d.sp() })]);
    const bytes = readFileSync(journal);
    const torn = bytes.subarray(0, full + Math.floor((bytes.length - full) / 2));
    writeFileSync(journal, torn);
    assert.throws(
      () => devnet(4, config(new FileLedgerStore(dir))),
      (e: unknown) =>
        e instanceof LedgerDamageError && e.offset === full && e.round === round + 1n && /journal\.bin/.test(e.message) && /--recover/.test(e.message),
    );
    assert.deepEqual(readFileSync(journal), torn, 'the refusal changed nothing');
    const store = new FileLedgerStore(dir, { recover: true });
    const again = devnet(4, config(store));
    assert.equal(again.ledger.latestRound, round);
    assert.equal(toHex(again.ledger.stateHash()), hash);
    assert.equal(statSync(journal).size, full);
    assert.equal(store.recovered.length, 1);
    const aside = readdirSync(dir).filter((f) => f.startsWith('journal.bin.damaged-'));
    assert.equal(aside.length, 1);
    assert.deepEqual(readFileSync(join(dir, aside[0]!)), torn.subarray(full), 'the torn bytes were kept');
    assert.equal(parseJournal(new Uint8Array(readFileSync(journal))).records.length, Number(round) + 1); // genesis record + one per round
    // Garbage after the last record is refused too.
    again.ledger.close();
    appendFileSync(journal, new Uint8Array([1, 2, 3]));
    assert.throws(() => devnet(4, config(new FileLedgerStore(dir))), LedgerDamageError);
  });

  it('a clean stop then a damaged last record: the snapshot is ahead of the journal; --recover sets both aside and rebuilds', () => {
    const d = devnet(4, config(new FileLedgerStore(dir), { snapshotInterval: 0 }));
    activity(d, 3);
    const hashBefore = toHex(d.ledger.stateHash());
    const round = d.ledger.latestRound;
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 7n, suggestedParams: d.sp() })]);
    d.ledger.close(); // a clean stop writes the snapshot at the latest round
    const journal = join(dir, 'journal.bin');
    const bytes = readFileSync(journal);
    bytes[bytes.length - 2] ^= 0x40;
    writeFileSync(journal, bytes);
    assert.throws(
      () => devnet(4, config(new FileLedgerStore(dir))),
      (e: unknown) => e instanceof LedgerDamageError && e.round === round + 1n,
    );
    const store = new FileLedgerStore(dir, { recover: true });
    const again = devnet(4, config(store));
    assert.equal(again.ledger.latestRound, round, 'every intact round is kept');
    assert.equal(toHex(again.ledger.stateHash()), hashBefore, "the state is the journal's, not the snapshot's");
    assert.equal(store.recovered.length, 2, store.recovered.join('\n'));
    assert.match(
      store.recovered[1]!,
      new RegExp(`the snapshot is at round ${round + 1n} but the journal ends at round ${round}.*moved to .*snapshot\\.bin\\.damaged-`),
    );
    assert.equal(readdirSync(dir).filter((f) => f.startsWith('snapshot.bin.damaged-')).length, 1, 'the snapshot was moved aside, not deleted');
    again.send([makePaymentTxn({ sender: again.addr(0), receiver: again.addr(1), amount: 9n, suggestedParams: again.sp() })]);
    again.ledger.close();
    assert.equal(devnet(4, config(new FileLedgerStore(dir))).ledger.latestRound, round + 1n, 'and it opens normally afterwards');
  });

  it('a journal cut short at a record boundary behind the snapshot is refused, naming the missing rounds', () => {
    const d = devnet(4, config(new FileLedgerStore(dir), { snapshotInterval: 0 }));
    activity(d, 2);
    const journal = join(dir, 'journal.bin');
    const short = readFileSync(journal);
    const round = d.ledger.latestRound;
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 7n, suggestedParams: d.sp() })]);
    d.ledger.close();
    writeFileSync(journal, short);
    assert.throws(
      () => devnet(4, config(new FileLedgerStore(dir))),
      (e: unknown) =>
        e instanceof LedgerDamageError &&
        new RegExp(
          `the snapshot is at round ${round + 1n} but the journal ends at round ${round}: the journal records of rounds ${round + 1n}..${round + 1n} are missing. Nothing was changed. Start with --recover`,
        ).test(e.message),
    );
    assert.deepEqual(readFileSync(journal), short, 'nothing was changed');
    assert.equal(devnet(4, config(new FileLedgerStore(dir, { recover: true }))).ledger.latestRound, round);
  });

  it('replays interval-mode blocks holding several groups (rejected ones left out)', () => {
    const store = new MemoryLedgerStore();
    const d = devnet(4, config(store, { snapshotInterval: 0 }));
    const good = [0, 1, 2].map((i) => d.sign(makePaymentTxn({ sender: d.addr(i), receiver: d.addr(3), amount: BigInt(i + 1), suggestedParams: d.sp() })));
    const bad = d.sign(makePaymentTxn({ sender: d.addr(2), receiver: d.addr(3), amount: 99_950_000n, note: 'late', suggestedParams: d.sp() }));
    const { block, rejected } = d.ledger.produceBlock([...good.map((g) => [g]), [bad]]);
    assert.equal(block.txns.length, 3);
    assert.equal(rejected.length, 1);
    d.ledger.produceBlock([]);
    const again = devnet(4, config(store));
    assert.equal(again.ledger.latestRound, 2n);
    assert.deepEqual(again.ledger.stateHash(), d.ledger.stateHash());
    assert.deepEqual(again.ledger.block(1n).hash, block.hash);
  });

  it('writes snapshots atomically and replays with an in-memory store too', () => {
    const store = new MemoryLedgerStore();
    const d = devnet(4, config(store));
    activity(d, 6);
    assert.ok(store.snapshotBytes);
    const again = devnet(4, config(store));
    assert.deepEqual(again.ledger.stateHash(), d.ledger.stateHash());
  });

  it('refuses a data directory of another chain and resets', () => {
    const d = devnet(4, config(new FileLedgerStore(dir)));
    activity(d, 4);
    d.ledger.close();
    assert.throws(() => devnet(4, config(new FileLedgerStore(dir), { genesisId: 'other-v1' })), LedgerStoreError);
    const again = devnet(4, config(new FileLedgerStore(dir)));
    const genesisHash = toHex(devnet(4).ledger.stateHash());
    again.ledger.reset();
    assert.equal(again.ledger.latestRound, 0n);
    assert.equal(toHex(again.ledger.stateHash()), genesisHash);
    const third = devnet(4, config(new FileLedgerStore(dir)));
    assert.equal(third.ledger.latestRound, 0n);
  });

  it('gives a different state hash for different state', () => {
    const a = devnet();
    const b = devnet();
    assert.deepEqual(a.ledger.stateHash(), b.ledger.stateHash());
    a.send([makePaymentTxn({ sender: a.addr(0), receiver: a.addr(1), amount: 1n, suggestedParams: a.sp() })]);
    assert.notDeepEqual(a.ledger.stateHash(), b.ledger.stateHash());
    void Ledger;
  });
});

describe('ledger: chains written before prev512/txn512 (header scheme 1)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-ledger-legacy-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const V42 = 'https://github.com/algorandfoundation/specs/tree/268b63433a907455d439995bf916f6b296018f4f';

  it('an old data directory still opens, keeps its hashes and protocol name, and grows in its own scheme', () => {
    // The fixture: a chain written as the previous version wrote it (genesis record without a
    // header scheme, protocol `…/tree/v42`, flat commitments; checked byte-identical to that version's journal).
    const old = devnet(4, { store: new FileLedgerStore(dir), snapshotInterval: 4, headerScheme: 1 });
    for (let i = 0; i < 6; i++)
      old.send([makePaymentTxn({ sender: old.addr(0), receiver: old.addr(1), amount: BigInt(i + 1), note: `n${i}`, suggestedParams: old.sp() })]);
    const genesis = decodeMsgpack(parseJournal(readFileSync(join(dir, 'journal.bin'))).records[0]!) as Record<string, unknown>;
    assert.equal(genesis.hs, undefined, 'old genesis records name no header scheme');
    const gh = toHex(old.ledger.genesisHash);
    const hashes = [0n, 1n, 2n, 3n, 4n, 5n, 6n].map((r) => toHex(old.ledger.block(r).hash));
    old.ledger.close();

    const again = devnet(4, { store: new FileLedgerStore(dir), snapshotInterval: 4 });
    assert.equal(again.ledger.headerScheme, 1);
    assert.equal(toHex(again.ledger.genesisHash), gh);
    assert.deepEqual(
      [0n, 1n, 2n, 3n, 4n, 5n, 6n].map((r) => toHex(again.ledger.block(r).hash)),
      hashes,
    );
    assert.equal(again.ledger.params.protocol, 'https://github.com/algorandfoundation/specs/tree/v42');
    again.send([makePaymentTxn({ sender: again.addr(1), receiver: again.addr(2), amount: 5n, suggestedParams: again.sp() })]);
    const b7 = again.ledger.block(7n);
    assert.equal(toHex(b7.header.prev), hashes[6]);
    assert.equal(b7.header.prev512, undefined);
    assert.equal(b7.header.txnRoot512, undefined);
    again.ledger.close();
    assert.equal(devnet(4, { store: new FileLedgerStore(dir), snapshotInterval: 4 }).ledger.latestRound, 7n);
  });

  it('a new chain names the v42 URL, records scheme 2, and chains prev512 over SHA-512 header hashes', () => {
    const d = devnet(4, { store: new FileLedgerStore(dir), snapshotInterval: 4 });
    // Past the snapshot interval, so reopening reads headers back from the snapshot too.
    for (let i = 0; i < 6; i++) d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: BigInt(i + 1), suggestedParams: d.sp() })]);
    assert.equal(d.ledger.params.protocol, V42);
    assert.equal(d.ledger.block(0n).header.protocol, V42);
    const genesis = decodeMsgpack(parseJournal(readFileSync(join(dir, 'journal.bin'))).records[0]!) as Record<string, unknown>;
    assert.equal(Number(genesis.hs), 2);
    for (let r = 1n; r <= 6n; r++) {
      const h = d.ledger.block(r).header;
      assert.equal(toHex(h.prev512!), toHex(headerHash512(d.ledger.block(r - 1n).header)));
      assert.equal(h.prev512!.length, 64);
      assert.equal(h.txnRoot512!.length, 64);
      // Both are in the header encoding (and so in its hash).
      const w = decodeMsgpack(encodeBlock(d.ledger.block(r))) as Record<string, unknown>;
      assert.ok(w.prev512 instanceof Uint8Array && w.txn512 instanceof Uint8Array);
    }
    d.ledger.close();
    const again = devnet(4, { store: new FileLedgerStore(dir), snapshotInterval: 4 });
    assert.equal(again.ledger.headerScheme, 2);
    assert.equal(toHex(again.ledger.latestBlock.hash), toHex(d.ledger.latestBlock.hash));
    assert.equal(toHex(again.ledger.block(4n).header.prev512!), toHex(d.ledger.block(4n).header.prev512!));
    again.send([makePaymentTxn({ sender: again.addr(1), receiver: again.addr(2), amount: 1n, suggestedParams: again.sp() })]);
    assert.equal(toHex(again.ledger.block(7n).header.prev512!), toHex(headerHash512(d.ledger.block(6n).header)));
  });
});

describe('ledger: journal checkpoint (fast open of a long journal)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-ledger-check-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (recover = false) => {
    const store = new FileLedgerStore(dir, { recover });
    return { store, d: devnet(4, { store, snapshotInterval: 4 }) };
  };
  /** A closed chain of `rounds` payments with snapshots every 4 rounds; its state hash per round. */
  function chain(rounds: number): string[] {
    const { d } = open();
    const hashes = [toHex(d.ledger.stateHash())];
    for (let i = 0; i < rounds; i++) {
      d.send([makePaymentTxn({ sender: d.addr(i % 3), receiver: d.addr(3), amount: BigInt(i + 1), note: `k${i}`, suggestedParams: d.sp() })]);
      hashes.push(toHex(d.ledger.stateHash()));
    }
    d.ledger.close();
    return hashes;
  }
  const files = () =>
    new Map(
      readdirSync(dir)
        .sort()
        .map((f) => [f, toHex(new Uint8Array(readFileSync(join(dir, f))))]),
    );
  const journal = () => new Uint8Array(readFileSync(join(dir, 'journal.bin')));

  it('a clean close leaves a checkpoint; the next open takes the whole journal on it and serves every block', () => {
    const hashes = chain(10);
    assert.ok(readdirSync(dir).includes('journal.verified'));
    const { store, d } = open();
    assert.equal(store.checkpointedBytes, journal().length, 'every record vouched for by one hash');
    assert.equal(toHex(d.ledger.stateHash()), hashes[10]);
    for (let r = 1n; r <= 10n; r++) assert.equal(d.ledger.block(r).header.round, r);
    d.ledger.close();
  });

  it('a flipped bit anywhere in a checkpointed journal is still refused, named as without a checkpoint, files unchanged; --recover keeps the rounds before it', () => {
    const hashes = chain(9);
    const image = journal();
    const { offsets } = parseJournal(image);
    for (const round of [1, 5, 9]) {
      for (const at of [offsets[round]! + 2, offsets[round]! + 9, offsets[round]! + 20]) {
        const bytes = image.slice();
        bytes[at]! ^= 0x04;
        writeFileSync(join(dir, 'journal.bin'), bytes);
        const before = files();
        assert.throws(
          () => open(),
          (e: unknown) => e instanceof LedgerDamageError && e.round === BigInt(round) && e.offset === offsets[round] && /Nothing was changed/.test(e.message),
        );
        assert.deepEqual(files(), before, 'a refusal changed the data directory');
      }
    }
    // --recover: rounds before the damage kept (the snapshot past the cut is set aside and the state rebuilt).
    const bytes = image.slice();
    bytes[offsets[5]! + 20]! ^= 0x04;
    writeFileSync(join(dir, 'journal.bin'), bytes);
    const { store, d } = open(true);
    assert.equal(d.ledger.latestRound, 4n);
    assert.equal(toHex(d.ledger.stateHash()), hashes[4]);
    assert.equal(store.checkpointedBytes, 0, 'the checkpoint no longer matches the damaged journal');
    d.ledger.close();
    // The recovered journal gets a checkpoint of its own at the close.
    const again = open();
    assert.equal(again.store.checkpointedBytes, journal().length);
    assert.equal(toHex(again.d.ledger.stateHash()), hashes[4]);
  });

  it('records written after the checkpoint are checked one by one (a flip there is refused)', () => {
    chain(6);
    const { d } = open();
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(3), amount: 7n, note: 'after', suggestedParams: d.sp() })]);
    // No close, as after a kill -9: the checkpoint covers rounds 0..6 only.
    const image = journal();
    const { offsets } = parseJournal(image);
    const bytes = image.slice();
    bytes[offsets[7]! + 30]! ^= 0x01;
    writeFileSync(join(dir, 'journal.bin'), bytes);
    assert.throws(
      () => open(),
      (e: unknown) => e instanceof LedgerDamageError && e.round === 7n,
    );
    writeFileSync(join(dir, 'journal.bin'), image);
    const ok = open();
    assert.equal(ok.store.checkpointedBytes, offsets[7]);
    assert.equal(ok.d.ledger.latestRound, 7n);
  });

  it('a damaged, short or stale checkpoint only means every record is checked: same chain, and a good checkpoint again after the close', () => {
    const hashes = chain(8);
    const good = new Uint8Array(readFileSync(join(dir, 'journal.verified')));
    const variants: Uint8Array[] = [good.subarray(0, 20), new Uint8Array(0)];
    for (const at of [0, 5, 10, 20, 47]) {
      const v = good.slice();
      v[at]! ^= 0x80;
      variants.push(v);
    }
    for (const v of variants) {
      writeFileSync(join(dir, 'journal.verified'), v);
      const { store, d } = open();
      assert.equal(store.checkpointedBytes, 0);
      assert.equal(toHex(d.ledger.stateHash()), hashes[8]);
      d.ledger.close();
      assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'journal.verified'))), good, 'the close writes the checkpoint again');
    }
    // A checkpoint of a longer journal (this one was cut back on a record boundary) is not taken.
    const image = journal();
    const { offsets } = parseJournal(image);
    rmSync(join(dir, 'snapshot.bin'));
    writeFileSync(join(dir, 'journal.bin'), image.subarray(0, offsets[6]));
    const { store, d } = open();
    assert.equal(store.checkpointedBytes, 0);
    assert.equal(d.ledger.latestRound, 5n);
    assert.equal(toHex(d.ledger.stateHash()), hashes[5]);
  });

  it('a data directory without a checkpoint (an older version wrote it) opens as before and gets one at the close', () => {
    const hashes = chain(5);
    rmSync(join(dir, 'journal.verified'));
    const { store, d } = open();
    assert.equal(store.checkpointedBytes, 0);
    assert.equal(toHex(d.ledger.stateHash()), hashes[5]);
    d.ledger.close();
    assert.equal(open().store.checkpointedBytes, journal().length);
  });

  it('rounds the snapshot holds are decoded when read: a record holding the wrong round is never served as that round', () => {
    chain(9); // snapshot at round 9 (the close); rounds 1..9 kept undecoded at the next open
    const image = journal();
    const { records } = parseJournal(image);
    // Rounds 2 and 3 swapped, each record framed with a good checksum: intact bytes, wrong places.
    const order = records.map((r, i) => (i === 2 ? records[3]! : i === 3 ? records[2]! : r));
    writeFileSync(join(dir, 'journal.bin'), Buffer.concat(order.map((r) => frameRecord(r))));
    const { d } = open();
    assert.equal(d.ledger.latestRound, 9n);
    assert.equal(d.ledger.block(4n).header.round, 4n);
    assert.throws(() => d.ledger.block(2n), /expected to hold round 2 holds round 3/);
    assert.throws(() => d.ledger.block(3n), /expected to hold round 3 holds round 2/);
    d.ledger.close();
    // The record of the snapshot's round itself is checked at the open.
    const swapped = records.map((r, i) => (i === 8 ? records[9]! : i === 9 ? records[8]! : r));
    writeFileSync(join(dir, 'journal.bin'), Buffer.concat(swapped.map((r) => frameRecord(r))));
    assert.throws(
      () => open(),
      (e: unknown) => e instanceof LedgerDamageError && e.round === 9n,
    );
  });
});

describe('ledger: persistence under kill -9', function () {
  this.timeout(20000);
  it('loses no acknowledged transaction when the process is killed mid-write', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const dir = mkdtempSync(join(tmpdir(), 'tealworks-ledger-kill-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./crash-child.ts', import.meta.url)), dir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      await new Promise<void>((resolveDone) => {
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.split('\n').length > 40 && !child.killed) child.kill('SIGKILL');
        });
        child.on('exit', () => resolveDone());
      });
      const acked = out.split('\n').filter((l) => l.length === 52);
      assert.ok(acked.length >= 40, `child acknowledged only ${acked.length} transactions`);
      const { Ledger: L } = await import('../../../sdk/src/ledger/index.js');
      const { key } = await import('./fixture.js');
      const keys = [key(1), key(2)];
      const again = new L({
        genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 1_000_000_000n })),
        genesisTimestamp: 1_700_000_000n,
        // The kill may have landed inside a write: that unacknowledged record is set aside.
        store: new FileLedgerStore(dir, { recover: true }),
      });
      for (const id of acked) assert.ok(again.transaction(id), `acknowledged ${id} was lost`);
      assert.ok(again.latestRound >= BigInt(acked.length));
      // Money is conserved across the crash.
      assert.equal(again.supply().totalMoney, 2_000_000_000n + 200_000n);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
