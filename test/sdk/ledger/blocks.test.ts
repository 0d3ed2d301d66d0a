import { strict as assert } from 'node:assert';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { encodeMsgpackWithPrefix } from '../../../sdk/src/encoding/msgpack.js';
import { sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { makeAppCallTxn, makeKeyRegTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import {
  blockToWire,
  decodeBlock,
  encodeBlock,
  headerHash,
  pendingTransactionResponse,
  LedgerRejection,
  type BlockEvent,
  MemoryLedgerStore,
  headerHash512,
} from '../../../sdk/src/ledger/index.js';
import { txnCommitmentFor } from '../../../sdk/src/ledger/block.js';
import { ALGO, devnet, teal } from './fixture.js';
import { APPROVAL, CLEAR } from './programs.js';

describe('ledger: blocks, timestamps, pool and change feed', () => {
  it('chains block headers by hash and keeps timestamps monotonic; the offset setter moves time', () => {
    const d = devnet();
    for (let i = 0; i < 3; i++) d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: BigInt(i + 1), suggestedParams: d.sp() })]);
    for (let r = 1n; r <= 3n; r++) {
      const h = d.ledger.block(r).header;
      assert.deepEqual(h.prev, d.ledger.block(r - 1n).hash);
      assert.ok(h.timestamp >= d.ledger.block(r - 1n).header.timestamp);
      assert.equal(h.genesisId, 'tealworks-devnet-v1');
      assert.deepEqual(h.genesisHash, d.ledger.genesisHash);
      assert.equal(h.txnCounter, 1000n + r);
    }
    // The header hash is "BH" || canonical msgpack of the header wire map.
    const b = d.ledger.block(2n);
    const { txns: _t, ...hdr } = blockToWire(b) as Record<string, never>;
    void _t;
    assert.deepEqual(sha512_256(encodeMsgpackWithPrefix(utf8('BH'), hdr)), b.hash);
    d.ledger.setTimestampOffset(3600n);
    const before = d.ledger.latestBlock.header.timestamp;
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 9n, suggestedParams: d.sp() })]);
    assert.equal(d.ledger.latestBlock.header.timestamp, before + 3600n);
  });

  it('a chain without a journal works block hashes out when read: the same headers and hashes as a journaled chain, whatever the order of reads', () => {
    // The same genesis, clock and signed groups, committed in memory (hashes worked out lazily)
    // and with a journal (worked out at once, to be written).
    const lazy = devnet();
    const eager = devnet(4, { store: new MemoryLedgerStore(), snapshotInterval: 0 });
    const groups = [0, 1, 2, 3, 4].map((i) => [
      lazy.sign(makePaymentTxn({ sender: lazy.addr(i % 3), receiver: lazy.addr(3), amount: BigInt(i + 1), suggestedParams: lazy.sp() })),
    ]);
    for (const g of groups) {
      lazy.ledger.submit(g);
      eager.ledger.submit(g);
    }
    lazy.ledger.produceBlock([]);
    eager.ledger.produceBlock([]);
    // Newest first: reading one block's hash works out the unread blocks before it.
    for (let r = lazy.ledger.latestRound; r >= 1n; r--) assert.deepEqual(lazy.ledger.block(r).hash, eager.ledger.block(r).hash, `round ${r}`);
    for (let r = 1n; r <= lazy.ledger.latestRound; r++) {
      const b = lazy.ledger.block(r);
      assert.deepEqual(b.header, eager.ledger.block(r).header, `round ${r}`);
      assert.deepEqual(Object.keys(b.header), Object.keys(eager.ledger.block(r).header), 'members in the same order');
      assert.deepEqual(b.header.prev, lazy.ledger.block(r - 1n).hash);
      assert.deepEqual(b.hash, headerHash(b.header));
      assert.deepEqual(b.header.prev512, headerHash512(lazy.ledger.block(r - 1n).header));
      assert.deepEqual(b.header.txnRoot, txnCommitmentFor(b.txns, 2).root);
      assert.deepEqual(encodeBlock(b), encodeBlock(eager.ledger.block(r)));
    }
  });

  it('a lazy block frozen before its hashes are read still gives them, every time', () => {
    const lazy = devnet();
    const eager = devnet(4, { store: new MemoryLedgerStore(), snapshotInterval: 0 });
    const g = [lazy.sign(makePaymentTxn({ sender: lazy.addr(0), receiver: lazy.addr(1), amount: 5n, suggestedParams: lazy.sp() }))];
    lazy.ledger.submit(g);
    eager.ledger.submit(g);
    const b = lazy.ledger.latestBlock;
    Object.freeze(b.header);
    Object.freeze(b);
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(b.hash, eager.ledger.latestBlock.hash);
      assert.deepEqual(b.header.prev, eager.ledger.latestBlock.header.prev);
      assert.deepEqual(b.header.txnRoot, eager.ledger.latestBlock.header.txnRoot);
      assert.deepEqual({ ...b.header }, { ...eager.ledger.latestBlock.header });
    }
  });

  it('a lazy block whose header was replaced, or read through an object inheriting from it, still gives its values', () => {
    const lazy = devnet();
    const eager = devnet(4, { store: new MemoryLedgerStore(), snapshotInterval: 0 });
    for (const d of [lazy, eager]) d.ledger.produceBlock([]);
    const b = lazy.ledger.latestBlock;
    const made = b.header;
    (b as { header: unknown }).header = { ...eager.ledger.latestBlock.header };
    assert.deepEqual(b.hash, eager.ledger.latestBlock.hash);
    assert.deepEqual(made.prev, eager.ledger.latestBlock.header.prev);
    for (const d of [lazy, eager]) d.ledger.produceBlock([]);
    const heir = Object.create(lazy.ledger.latestBlock) as typeof b;
    assert.deepEqual(heir.hash, eager.ledger.latestBlock.hash);
    assert.deepEqual((Object.create(lazy.ledger.latestBlock.header) as typeof made).txnRoot, eager.ledger.latestBlock.header.txnRoot);
  });

  it('a long run of unread blocks is worked out without deep recursion', () => {
    const d = devnet();
    for (let i = 0; i < 12_000; i++) d.ledger.produceBlock([]);
    const latest = d.ledger.latestBlock;
    assert.deepEqual(latest.hash, headerHash(latest.header));
    assert.deepEqual(latest.header.prev, d.ledger.block(latest.header.round - 1n).hash);
  });

  it('encodes blocks with SignedTxnInBlock and ApplyData and decodes them back', () => {
    const d = devnet();
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
    const note = 'arc2:j{"kind":"counter"}';
    d.send([makeAppCallTxn({ sender: d.addr(1), appId: app, args: [utf8('inc')], note, suggestedParams: d.sp() })]);
    const block = d.ledger.block(2n);
    const wire = blockToWire(block) as Record<string, any>;
    const stib = wire.txns[0];
    assert.equal(stib.hgi, true);
    assert.equal(stib.hgh, true);
    assert.equal(stib.txn.gen, undefined);
    assert.deepEqual(stib.dt.lg, [utf8('inc')]);
    const back = decodeBlock(encodeBlock(block));
    assert.deepEqual(back.hash, block.hash);
    assert.equal(back.txns[0]!.txid, block.txns[0]!.txid);
    assert.deepEqual(back.txns[0]!.ad.logs, [utf8('inc')]);
    // ARC-2 notes travel untouched.
    assert.deepEqual(back.txns[0]!.stxn.txn.note, utf8(note));
    assert.equal([...back.txns[0]!.ad.globalDelta.values()][0]!.delta.value, 1n);
    assert.deepEqual(headerHash(back.header), block.hash);
    const created = decodeBlock(encodeBlock(d.ledger.block(1n)));
    assert.equal(created.txns[0]!.ad.createdAppId, app);
  });

  it('renders confirmed transactions as PendingTransactionResponse', () => {
    const d = devnet();
    const r = d.send([makePaymentTxn({ sender: d.addr(2), receiver: d.addr(0), amount: 1n, closeRemainderTo: d.addr(1), suggestedParams: d.sp() })]);
    const c = d.ledger.transaction(r.txids[0]!)!;
    const p = pendingTransactionResponse(c.stxn, c.ad, c.round);
    assert.equal(p['confirmed-round'], 1n);
    assert.equal(p['pool-error'], '');
    assert.equal(p['closing-amount'], 100n * ALGO - 1000n - 1n);
  });

  it('interval mode: produceBlock commits several groups in one block, failing groups left out and reported', () => {
    const d = devnet();
    const ok = d.sign(makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 50n * ALGO, suggestedParams: d.sp() }));
    const second = d.sign(makePaymentTxn({ sender: d.addr(0), receiver: d.addr(2), amount: 49_950_000n, suggestedParams: d.sp() }));
    assert.equal(d.ledger.latestRound, 0n);
    const { block, rejected } = d.ledger.produceBlock([[ok], [second]]);
    assert.equal(block.txns.length, 1);
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0]!.index, 1);
    assert.ok(rejected[0]!.error instanceof LedgerRejection);
    assert.match(rejected[0]!.error.message, /below min|overspend/);
    assert.ok(d.ledger.transaction(block.txns[0]!.txid));
    assert.equal(d.ledger.transaction(block.txns[0]!.txid)!.round, 1n);
    const empty = d.ledger.produceBlock([]);
    assert.equal(empty.block.txns.length, 0);
    assert.equal(d.ledger.latestRound, 2n);
  });

  it('a rejection thrown by submit carries the stack of the call that submitted', () => {
    // Rejections are made without a stack (most are reported by simulate, never thrown); the
    // ledger gives the one it throws the caller's.
    const d = devnet();
    const overspend = d.sign(makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1000n * ALGO, suggestedParams: d.sp() }));
    function submitFromHere() {
      d.ledger.submit([overspend]);
    }
    assert.throws(submitFromHere, (e: unknown) => {
      assert.ok(e instanceof LedgerRejection);
      assert.match(e.stack!, /^LedgerRejection: transaction \w+: overspend/);
      assert.match(e.stack!, /submitFromHere/);
      return true;
    });
  });

  it('publishes block events with the round delta', () => {
    const d = devnet();
    const events: BlockEvent[] = [];
    const off = d.ledger.onBlock((e) => events.push(e));
    const r = d.send([
      makeAppCallTxn({
        sender: d.addr(0),
        appId: 0n,
        approvalProgram: teal(APPROVAL),
        clearProgram: teal(CLEAR),
        globalSchema: { numUints: 1, numByteSlices: 0 },
        localSchema: { numUints: 1, numByteSlices: 0 },
        suggestedParams: d.sp(),
      }),
    ]);
    const app = d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
    d.send([makeAppCallTxn({ sender: d.addr(1), appId: app, onComplete: 1, suggestedParams: d.sp() })]);
    off();
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() })]);
    assert.equal(events.length, 2);
    const [e1, e2] = events as [BlockEvent, BlockEvent];
    assert.equal(e1.delta.appParams[0]!.id, app);
    assert.equal(e1.delta.appParams[0]!.created, true);
    assert.deepEqual(e1.delta.appParams[0]!.creator, d.addr(0).publicKey);
    assert.equal(e2.delta.locals.length, 1);
    assert.deepEqual(
      e2.delta.locals[0]!.state!.map((kv) => kv.value),
      [7n],
    );
    assert.equal(e2.delta.txids[0]!.txid, e2.block.txns[0]!.txid);
    assert.ok(e2.delta.accounts.some((a) => toHex(a.address) === toHex(d.addr(1).publicKey) && a.minBalance === 228_500n));
    assert.equal(e2.delta.totals.totalMoney, d.ledger.supply().totalMoney);
    assert.throws(() => d.ledger.delta(99n), /no state delta for round 99/);
  });

  it('keeps each round delta as of its round and renders the node StateDelta shape', () => {
    const d = devnet();
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: ALGO, suggestedParams: d.sp() })]);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: ALGO, suggestedParams: d.sp() })]);
    const r1 = d.ledger.delta(1n).accounts.find((a) => toHex(a.address) === toHex(d.addr(1).publicKey))!;
    assert.equal(r1.data!.balance, 101n * ALGO);
    const sd = d.ledger.stateDelta(2n) as Record<string, any>;
    const rec = (sd.Accts.Accts as Record<string, any>[]).find((a) => toHex(a.Addr) === toHex(d.addr(1).publicKey))!;
    assert.equal(rec.MicroAlgos, 102n * ALGO);
    assert.equal(rec.Status, 0);
    assert.equal(sd.Accts.AppResources, null);
    assert.equal(sd.KvMods, null);
    assert.equal(sd.Hdr.rnd, 2n);
    assert.equal(sd.PrevTimestamp, d.ledger.block(1n).header.timestamp);
    assert.equal(sd.Txids.get(d.ledger.block(2n).txns[0]!.txid).Intra, 0n); // uint64, as every uint64 of the StateDelta shape
    assert.equal(sd.Totals.offline.mon, d.ledger.supply().totalMoney);
  });

  it('waits for a round', async () => {
    const d = devnet();
    const waiting = d.ledger.waitForRound(1n);
    assert.equal(await d.ledger.waitForRound(0n), true);
    d.send([makePaymentTxn({ sender: d.addr(0), receiver: d.addr(1), amount: 1n, suggestedParams: d.sp() })]);
    assert.equal(await waiting, true);
    assert.equal(await d.ledger.waitForRound(5n, 10), false);
  });

  it('registers participation keys and goes offline', () => {
    const d = devnet();
    d.send([
      makeKeyRegTxn({
        sender: d.addr(0),
        voteKey: new Uint8Array(32).fill(1),
        selectionKey: new Uint8Array(32).fill(2),
        stateProofKey: new Uint8Array(64).fill(3),
        voteFirst: 0n,
        voteLast: 1000n,
        voteKeyDilution: 10n,
        suggestedParams: d.sp(),
      } as never),
    ]);
    assert.equal(d.ledger.account(d.addr(0))!.status, 1);
    assert.equal(d.ledger.account(d.addr(0))!.incentiveEligible, false);
    d.send([
      makeKeyRegTxn({
        sender: d.addr(1),
        voteKey: new Uint8Array(32).fill(1),
        selectionKey: new Uint8Array(32).fill(2),
        stateProofKey: new Uint8Array(64).fill(3),
        voteFirst: 0n,
        voteLast: 1000n,
        voteKeyDilution: 10n,
        suggestedParams: d.sp({ fee: 2_000_000n }),
      } as never),
    ]);
    assert.equal(d.ledger.account(d.addr(1))!.incentiveEligible, true);
    assert.equal(d.ledger.supply().onlineMoney, d.ledger.balance(d.addr(0)) + d.ledger.balance(d.addr(1)));
    d.send([makeKeyRegTxn({ sender: d.addr(0), suggestedParams: d.sp() } as never)]);
    assert.equal(d.ledger.account(d.addr(0))!.status, 0);
  });
});
