import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAppCallTxn, makePaymentTxn, makeAssetCreateTxn, makeAssetOptInTxn } from '../../../sdk/src/txn/builders.js';
import { OnComplete } from '../../../sdk/src/txn/types.js';
import { uint64ToBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { decodeMsgpack, encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { Ledger, LedgerDamageError, LedgerWriteError, MemoryLedgerStore, encodeBlock, type LedgerConfig } from '../../../sdk/src/ledger/index.js';
import { FileLedgerStore, frameRecord, frameSnapshot, parseJournal, unframeSnapshot } from '../../../sdk/src/ledger/persistence.js';
import { decodeSnapshot, encodeSnapshot } from '../../../sdk/src/ledger/snapshot.js';
import { ALGO, devnet, key, addrOf, teal, type Devnet } from './fixture.js';
import { APPROVAL, CLEAR } from './programs.js';
import { appAddress } from '../../../sdk/src/avm/resources.js';

// Every cheat on a chain kept in a data directory (journal + snapshot) must survive a close and a
// reopen (and a crash, which replays the journal past the last snapshot) exactly: rounds, block
// headers and hashes (made-up rounds of a warp included), timestamps, state, seeds, impersonation.

/** Logs `block BlkSeed` and `block BlkTimestamp` of the round in its first argument. */
const PROBE = `#pragma version 10
txn ApplicationID
bz ok
txna ApplicationArgs 0
btoi
block BlkSeed
log
txna ApplicationArgs 0
btoi
block BlkTimestamp
itob
log
ok:
int 1
`;

interface Chain {
  round: bigint;
  state: string;
  blocks: string[];
  timestamps: bigint[];
  balances: bigint[];
}

function picture(d: Devnet): Chain {
  const l = d.ledger;
  const blocks: string[] = [];
  const timestamps: bigint[] = [];
  for (let r = 0n; r <= l.latestRound; r++) {
    const b = l.block(r);
    assert.equal(b.header.round, r);
    blocks.push(toHex(b.hash) + ':' + toHex(encodeBlock(b) as unknown as Uint8Array));
    timestamps.push(b.header.timestamp);
  }
  return { round: l.latestRound, state: toHex(l.stateHash()), blocks, timestamps, balances: d.keys.map((_, i) => l.balance(d.addr(i))) };
}

describe('ledger: cheats on a chain kept in a data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-cheat-persist-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (extra: Partial<LedgerConfig> = {}, recover = false): Devnet =>
    devnet(4, { store: new FileLedgerStore(dir, { recover }), snapshotInterval: 4, ...extra });
  const pay = (d: Devnet, amount: bigint, note: string) =>
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount, note, suggestedParams: d.sp() })]);

  for (const mode of ['close', 'crash'] as const) {
    for (const interval of [0, 4]) {
      it(`advanceRounds, setTime and advanceTime reopen to the same chain (${mode}, snapshot interval ${interval})`, () => {
        const d = open({ snapshotInterval: interval });
        pay(d, 1n, 'a');
        d.ledger.advanceRounds(100n);
        pay(d, 2n, 'b');
        d.ledger.advanceTime(50n);
        d.ledger.setTimestampOffset(7n);
        d.ledger.advanceRounds(5n); // made-up rounds 7 s apart
        d.ledger.setTimestampOffset(undefined);
        d.ledger.setTime(1_800_000_000n);
        pay(d, 3n, 'c');
        d.ledger.advanceRounds(1n);
        const before = picture(d);
        assert.equal(before.round, 111n);
        if (mode === 'close') d.ledger.close();

        const again = open({ snapshotInterval: interval });
        assert.deepEqual(picture(again), before);
        // It keeps growing, and duplicates are still caught after the warp.
        pay(again, 4n, 'd');
        again.ledger.advanceRounds(10n);
        pay(again, 5n, 'e');
        const grown = picture(again);
        assert.equal(grown.round, 123n);
        if (mode === 'close') again.ledger.close();

        const third = open({ snapshotInterval: interval });
        assert.deepEqual(picture(third), grown);
        third.ledger.close();
      });
    }
  }

  it('a warp at genesis and warps back to back reopen', () => {
    const d = open();
    d.ledger.advanceRounds(3n);
    d.ledger.advanceRounds(1_000_000n);
    const before = picture2(d);
    d.ledger.close();
    assert.deepEqual(picture2(open()), before);
  });

  /** Cheap picture of a chain with a long warp: a few rounds only. */
  function picture2(d: Devnet): string[] {
    const l = d.ledger;
    return [0n, 1n, 3n, 4n, 500_000n, l.latestRound].map((r) => `${r}:${toHex(l.block(r).hash)}:${l.block(r).header.timestamp}`).concat(String(l.latestRound));
  }

  for (const mode of ['close', 'crash'] as const) {
    for (const interval of [0, 3]) {
      it(`state cheats, block seeds and impersonation survive a reopen (${mode}, snapshot interval ${interval})`, () => {
        const d = open({ snapshotInterval: interval });
        const app = d.ledger.transaction(
          d.send([
            makeAppCallTxn({
              sender: d.addr(0),
              appId: 0n,
              approvalProgram: teal(APPROVAL),
              clearProgram: teal(CLEAR),
              globalSchema: { numUints: 3, numByteSlices: 1 },
              localSchema: { numUints: 1, numByteSlices: 1 },
              suggestedParams: d.sp(),
            }),
          ]).txids[0]!,
        )!.ad.createdAppId!;
        const probe = d.ledger.transaction(
          d.send([makeAppCallTxn({ sender: d.addr(0), appId: 0n, approvalProgram: teal(PROBE), clearProgram: teal(CLEAR), suggestedParams: d.sp() })])
            .txids[0]!,
        )!.ad.createdAppId!;
        const asset = d.ledger.transaction(d.send([makeAssetCreateTxn({ sender: d.addr(1), total: 10n, decimals: 0, suggestedParams: d.sp() })]).txids[0]!)!.ad
          .createdAssetId!;
        d.send([makeAssetOptInTxn({ sender: d.addr(2), assetId: asset, suggestedParams: d.sp() })]);
        d.send([makeAppCallTxn({ sender: d.addr(2), appId: app, onComplete: OnComplete.OptIn, suggestedParams: d.sp() })]);

        const stranger = addrOf(key(77));
        d.ledger.setBalance(stranger, 5n * ALGO);
        d.ledger.setBalance(d.addr(3), 0n); // an emptied account is deleted
        d.ledger.setAssetHolding(d.addr(2), asset, { amount: 1_000n, frozen: true });
        d.ledger.setAssetHolding(d.addr(2), asset, { amount: 0n });
        d.ledger.setAssetHolding(d.addr(2), asset, { amount: 9n });
        d.ledger.setGlobal(app, utf8('n'), 0n);
        d.ledger.setGlobal(app, utf8('b'), new Uint8Array(0));
        d.ledger.setGlobal(app, utf8('x'), 77n);
        d.ledger.setGlobal(app, utf8('x'), undefined);
        d.ledger.setLocal(d.addr(2), app, utf8('l'), utf8('local'));
        d.ledger.setBox(app, utf8('box1'), new Uint8Array(0));
        d.ledger.setBox(app, utf8('box2'), utf8('two'));
        d.ledger.setBox(app, utf8('box3'), utf8('three'));
        d.ledger.setBox(app, utf8('box3'), undefined);
        const seed = new Uint8Array(32).fill(0xab);
        d.ledger.setBlockSeed(seed, 2n);
        d.ledger.setBlockSeed(new Uint8Array(32), 3n); // an all-zero seed is a seed too
        d.ledger.setBlockSeed(seed, 4n);
        d.ledger.setBlockSeed(undefined, 4n);
        // The stranger has no key here: impersonation lets it spend the balance a cheat gave it.
        d.ledger.impersonate(stranger);
        d.ledger.impersonate(d.addr(1));
        d.ledger.impersonate(d.addr(1), false);
        const imp = d.ledger.submit([{ txn: makePaymentTxn({ sender: stranger, receiver: d.addr(0), amount: ALGO, note: 'imp', suggestedParams: d.sp() }) }]);
        const after = d.ledger.latestRound;
        d.ledger.advanceRounds(20n);
        // Cheats after the last block (a clean close must still keep them).
        d.ledger.setBalance(d.addr(0), 42n * ALGO);
        d.ledger.setBlockSeed(seed, d.ledger.latestRound);

        const before = picture(d);
        const seeds = (l: Ledger) => [2n, 3n, 4n, l.latestRound].map((r) => probeSeed(l, d, probe, r));
        const seedsBefore = seeds(d.ledger);
        assert.equal(seedsBefore[0], toHex(seed));
        assert.equal(seedsBefore[1], toHex(new Uint8Array(32)));
        assert.equal(seedsBefore[3], toHex(seed));
        const facts = (l: Ledger) => ({
          stranger: l.balance(stranger),
          holding: l.assetHolding(d.addr(2), asset),
          global: l
            .globalState(app)
            .map((kv) => `${toHex(kv.key)}=${String(kv.value instanceof Uint8Array ? toHex(kv.value) : kv.value)}`)
            .sort(), // a snapshot keeps keys sorted
          local: l.localState(d.addr(2), app)?.map((kv) => toHex(kv.key)),
          boxes: l.boxNames(app).map((n) => `${toHex(n)}=${toHex(l.box(app, n)!)}`),
          appAccount: l.accountTotals(appAddress(app)),
          impersonated: [l.isImpersonated(stranger), l.isImpersonated(d.addr(1))],
          imp: l.transaction(imp.txids[0]!)?.round,
        });
        const factsBefore = facts(d.ledger);
        assert.equal(factsBefore.stranger, 4n * ALGO - 1000n);
        assert.deepEqual(factsBefore.impersonated, [true, false]);
        assert.equal(factsBefore.imp, after);
        if (mode === 'close') d.ledger.close();

        const again = open({ snapshotInterval: interval });
        assert.deepEqual(picture(again), before);
        assert.deepEqual(facts(again.ledger), factsBefore);
        assert.deepEqual(seeds(again.ledger), seedsBefore);
        // It keeps going: the impersonation is still on, the cheated balances are spendable.
        again.ledger.submit([{ txn: makePaymentTxn({ sender: stranger, receiver: d.addr(0), amount: 1n, note: 'imp2', suggestedParams: again.sp() }) }]);
        again.ledger.setBalance(stranger, 3n * ALGO);
        const grown = picture(again);
        const grownFacts = facts(again.ledger);
        if (mode === 'close') again.ledger.close();
        const third = open({ snapshotInterval: interval });
        assert.deepEqual(picture(third), grown);
        assert.deepEqual(facts(third.ledger), grownFacts);
        third.ledger.close();
      });
    }
  }

  /** The seed `block BlkSeed` reads for `round`, as an app sees it (hex). */
  function probeSeed(l: Ledger, d: Devnet, app: bigint, round: bigint): string {
    const txn = makeAppCallTxn({
      sender: d.addr(0),
      appId: app,
      args: [uint64ToBytes(round)],
      suggestedParams: { ...d.sp(), firstValid: l.latestRound + 1n, lastValid: l.latestRound + 10n },
    });
    const { result } = l.dryEvaluate([{ txn }], { skipSignatures: true });
    assert.equal(result.failure, undefined, result.failure?.message);
    return toHex(result.txns[0]!.ad.logs[0]!);
  }

  it('a damaged warp record is refused with its round and offset; --recover keeps the rounds before it', () => {
    const d = open({ snapshotInterval: 0 });
    pay(d, 1n, 'a');
    const hash = toHex(d.ledger.latestBlock.hash);
    d.ledger.advanceRounds(100n);
    const journal = join(dir, 'journal.bin');
    const image = new Uint8Array(readFileSync(journal));
    const { offsets } = parseJournal(image);
    assert.equal(offsets.length, 3); // genesis, round 1, the warp
    const warpAt = offsets[2]!;
    writeFileSync(journal, image.subarray(0, image.length - 3));
    assert.throws(
      () => open(),
      (e: unknown) => e instanceof LedgerDamageError && e.offset === warpAt && e.round === 2n && /the record of round 2 at byte offset/.test(e.message),
    );
    const again = open({}, true);
    assert.equal(again.ledger.latestRound, 1n);
    assert.equal(toHex(again.ledger.latestBlock.hash), hash);
    assert.equal(readdirSync(dir).filter((f) => f.startsWith('journal.bin.damaged-')).length, 1);
  });

  it('a damaged record after a warp names the round after the warp', () => {
    const d = open({ snapshotInterval: 0 });
    d.ledger.advanceRounds(100n);
    pay(d, 1n, 'a');
    const journal = join(dir, 'journal.bin');
    const image = new Uint8Array(readFileSync(journal));
    const { offsets } = parseJournal(image);
    image[image.length - 1] ^= 0x55;
    writeFileSync(journal, image);
    assert.throws(
      () => open(),
      (e: unknown) => e instanceof LedgerDamageError && e.offset === offsets[2] && e.round === 101n && /record of round 101 /.test(e.message),
    );
  });

  it('a warp record that does not make the block it names is refused; an unknown cheat record too', () => {
    const d = open({ snapshotInterval: 0 });
    d.ledger.setTimestampOffset(5n);
    d.ledger.advanceRounds(10n);
    pay(d, 1n, 'a');
    const journal = join(dir, 'journal.bin');
    const original = new Uint8Array(readFileSync(journal));
    const { records } = parseJournal(original);
    const rec = decodeMsgpack(records[1]!) as Record<string, unknown>;
    assert.equal(rec.c, 'warp');
    assert.equal(BigInt(rec.r as number), 10n);
    assert.equal(BigInt(rec.v as number), 2n);
    const rewrite = (changed: Record<string, unknown>) =>
      writeFileSync(journal, Buffer.concat([records[0]!, encodeMsgpack(changed as never), records[2]!].map((r) => frameRecord(r))));
    // Another step makes other timestamps, hence another hash: the journal is refused, not believed.
    rewrite({ ...rec, x: { ...(rec.x as object), s: 6n } });
    assert.throws(
      () => open(),
      (e: unknown) => e instanceof LedgerDamageError && e.round === 1n && /the warp to round 10 made a different block/.test(e.message),
    );
    rewrite({ ...rec, c: 'teleport' });
    assert.throws(() => open(), /a cheat record of an unknown kind \(teleport\)/);
    rewrite({ ...rec, v: 3n });
    assert.throws(() => open(), /cheat record has version 3/);
    writeFileSync(journal, original);
    assert.equal(open().ledger.latestRound, 11n);
  });

  it('a cheat whose record cannot be written is refused and changes nothing', () => {
    const store = new MemoryLedgerStore();
    let fail = false;
    const append = store.append.bind(store);
    store.append = (r: Uint8Array) => {
      if (fail) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      append(r);
    };
    const d = devnet(4, { store, snapshotInterval: 0 });
    pay(d, 1n, 'a');
    const round = d.ledger.latestRound;
    const hash = toHex(d.ledger.latestBlock.hash);
    const state = toHex(d.ledger.stateHash());
    const records = store.journal.length;
    fail = true;
    assert.throws(
      () => d.ledger.advanceRounds(50n),
      (e: unknown) => e instanceof LedgerWriteError && e.code === 'ENOSPC' && /the warp cheat was not kept/.test(e.message),
    );
    assert.throws(() => d.ledger.setBalance(d.addr(1), 5n), LedgerWriteError);
    assert.throws(() => d.ledger.setBlockSeed(new Uint8Array(32).fill(1)), LedgerWriteError);
    assert.throws(() => d.ledger.impersonate(d.addr(2)), LedgerWriteError);
    assert.equal(d.ledger.latestRound, round);
    assert.equal(toHex(d.ledger.latestBlock.hash), hash);
    assert.equal(toHex(d.ledger.stateHash()), state);
    assert.equal(d.ledger.isImpersonated(d.addr(2)), false);
    assert.equal(store.journal.length, records);
    fail = false;
    d.ledger.advanceRounds(50n);
    pay(d, 2n, 'b');
    const again = devnet(4, { store, snapshotInterval: 0 });
    assert.equal(again.ledger.latestRound, round + 51n);
    assert.equal(toHex(again.ledger.latestBlock.hash), toHex(d.ledger.latestBlock.hash));
  });

  it('a snapshot written before cheat records existed (no record count) still opens', () => {
    const d = open({ snapshotInterval: 0 });
    pay(d, 1n, 'a');
    pay(d, 2n, 'b');
    const state = toHex(d.ledger.stateHash());
    d.ledger.close();
    const p = join(dir, 'snapshot.bin');
    const got = unframeSnapshot(new Uint8Array(readFileSync(p)));
    assert.ok('payload' in got);
    const snap = decodeSnapshot(got.payload) as Record<string, unknown>;
    assert.ok('jn' in snap, 'this version writes the record count');
    delete snap.jn;
    writeFileSync(p, frameSnapshot(encodeSnapshot(snap as never)));
    const again = open();
    assert.equal(again.ledger.latestRound, 2n);
    assert.equal(toHex(again.ledger.stateHash()), state);
    pay(again, 3n, 'c');
    again.ledger.close();
    assert.equal(open().ledger.latestRound, 3n);
  });
});
