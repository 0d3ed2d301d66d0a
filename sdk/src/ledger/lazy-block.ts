import { sha512, sha512_256 } from '../crypto/hash.js';
import { settleLazy } from '../lazy.js';
import { headerHash512, headerHashInput, txnCommitmentFor, type Block, type BlockHeader, type ConfirmedTxn, type HeaderScheme } from './block.js';

/*
 * Blocks whose hashes are worked out when first read. A test chain commits a block per send, and
 * its transaction commitments and header hash cost about a tenth of a small app call; most of
 * these blocks are never looked at. Every value here is a function of the block's own
 * transactions and header fields and of the previous block's, none of which change once
 * committed, so reading it later gives exactly what committing would have written.
 */

/** Header members derived from the transactions and from the previous block, by header scheme. */
const DERIVED_1 = new Set<string>(['prev', 'txnRoot', 'txnRoot256']);
const DERIVED_2 = new Set<string>([...DERIVED_1, 'prev512', 'txnRoot512']);

interface Pending {
  readonly prev: Block;
  fill(): void;
}

/** Blocks committed lazily whose derived values have not been read yet. */
const PENDING = new WeakMap<Block, Pending>();

/** `"BH" || msgpack(header)` of the latest settled header: the next block's `prev512` hashes the same bytes. */
let lastInput: { header: BlockHeader; input: Uint8Array } | undefined;

const EMPTY = new Uint8Array(0);

/** Works out the derived values of `block` and of the unsettled blocks before it, oldest first (no recursion however long the run). */
function settle(block: Block): void {
  const run: Block[] = [];
  for (let b: Block | undefined = block; b && PENDING.has(b); b = PENDING.get(b)!.prev) run.push(b);
  for (let i = run.length - 1; i >= 0; i--) {
    const b = run[i]!;
    // Pending until filled: a fill that throws leaves the block to be worked out (and throw) again.
    PENDING.get(b)!.fill();
    PENDING.delete(b);
  }
}

/**
 * The block after `prev` with `fields` (round, seed, timestamp, counters), whose `prev`,
 * transaction commitments, `prev512` and hash are worked out when any of them is first read.
 * Its header has the same members, in the same order, as one built at once.
 */
export function lazyBlock(
  prev: Block,
  fields: Pick<BlockHeader, 'round' | 'seed' | 'timestamp' | 'txnCounter' | 'feesCollected'>,
  txns: ConfirmedTxn[],
  scheme: HeaderScheme,
): Block {
  const header = {} as Record<string, unknown>;
  const before = prev.header as unknown as Record<string, unknown>;
  const lazyKeys = scheme >= 2 ? DERIVED_2 : DERIVED_1;
  for (const k of Object.keys(before)) header[k] = lazyKeys.has(k) ? EMPTY : before[k];
  Object.assign(header, { round: fields.round, seed: fields.seed });
  if (scheme >= 2) Object.assign(header, { prev512: EMPTY, txnRoot512: EMPTY });
  Object.assign(header, { timestamp: fields.timestamp, txnCounter: fields.txnCounter, feesCollected: fields.feesCollected });
  const block = { header: header as unknown as BlockHeader, txns, hash: EMPTY } as Block;
  const derived = [...lazyKeys].filter((k) => k in header);
  let filling = false;
  PENDING.set(block, {
    prev,
    fill() {
      // Nothing read while the values are worked out is one of them (a guard, not a path).
      if (filling) throw new Error(`block ${fields.round}: its hash was read while it was being worked out`);
      filling = true;
      try {
        fillNow();
      } finally {
        filling = false;
      }
    },
  });
  function fillNow(): void {
    const commit = txnCommitmentFor(txns, scheme);
    settleLazy(header, 'prev', prev.hash);
    settleLazy(header, 'txnRoot', commit.root);
    settleLazy(header, 'txnRoot256', commit.root256);
    if (scheme >= 2) {
      settleLazy(header, 'prev512', lastInput?.header === prev.header ? sha512(lastInput.input) : headerHash512(prev.header));
      settleLazy(header, 'txnRoot512', commit.root512);
    }
    const input = headerHashInput(block.header);
    settleLazy(block, 'hash', sha512_256(input));
    lastInput = { header: block.header, input };
  }
  const lazy = (target: Record<string, unknown>, key: string) =>
    Object.defineProperty(target, key, {
      get() {
        settle(block);
        return target[key];
      },
      set(v: unknown) {
        settle(block);
        settleLazy(target, key, v);
      },
      enumerable: true,
      configurable: true,
    });
  for (const k of derived) lazy(header, k);
  lazy(block as unknown as Record<string, unknown>, 'hash');
  return block;
}
