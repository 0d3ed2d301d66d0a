import { sha512, sha512_256 } from '../crypto/hash.js';
import { headerHash512, headerHashInput, txnCommitmentFor, type Block, type BlockHeader, type ConfirmedTxn, type HeaderScheme } from './block.js';

/*
 * Blocks whose hashes are worked out when first read. A test chain commits a block per send, and
 * its transaction commitments and header hash cost about a tenth of a small app call; most of
 * these blocks are never looked at. Every value here is a function of the block's own
 * transactions and header fields and of the previous block's, none of which change once
 * committed, so reading it later gives exactly what committing would have written.
 */

/** Header members derived from the transactions and from the previous block. */
const DERIVED = new Set<string>(['prev', 'txnRoot', 'txnRoot256', 'prev512', 'txnRoot512']);

interface Pending {
  readonly prev: Block;
  fill(): void;
}

/** Blocks committed lazily whose derived values have not been read yet. */
const PENDING = new WeakMap<Block, Pending>();

/** `"BH" || msgpack(header)` of settled lazy headers: the next block's `prev512` hashes the same bytes. */
const INPUTS = new WeakMap<BlockHeader, Uint8Array>();

const EMPTY = new Uint8Array(0);

function setValue(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Works out the derived values of `block` and of the unsettled blocks before it, oldest first (no recursion however long the run). */
function settle(block: Block): void {
  const run: Block[] = [];
  for (let b: Block | undefined = block; b && PENDING.has(b); b = PENDING.get(b)!.prev) run.push(b);
  for (let i = run.length - 1; i >= 0; i--) {
    const b = run[i]!;
    const p = PENDING.get(b)!;
    PENDING.delete(b);
    p.fill();
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
  for (const k of Object.keys(before)) header[k] = DERIVED.has(k) ? EMPTY : before[k];
  Object.assign(header, { round: fields.round, seed: fields.seed });
  if (scheme >= 2) Object.assign(header, { prev512: EMPTY, txnRoot512: EMPTY });
  Object.assign(header, { timestamp: fields.timestamp, txnCounter: fields.txnCounter, feesCollected: fields.feesCollected });
  const block = { header: header as unknown as BlockHeader, txns, hash: EMPTY } as Block;
  const derived = [...DERIVED].filter((k) => k in header);
  PENDING.set(block, {
    prev,
    fill() {
      const commit = txnCommitmentFor(txns, scheme);
      setValue(header, 'prev', prev.hash);
      setValue(header, 'txnRoot', commit.root);
      setValue(header, 'txnRoot256', commit.root256);
      if (scheme >= 2) {
        const prevInput = INPUTS.get(prev.header);
        setValue(header, 'prev512', prevInput ? sha512(prevInput) : headerHash512(prev.header));
        setValue(header, 'txnRoot512', commit.root512);
      }
      const input = headerHashInput(block.header);
      INPUTS.set(block.header, input);
      setValue(block, 'hash', sha512_256(input));
    },
  });
  const lazy = (target: object, key: string) =>
    Object.defineProperty(target, key, {
      get() {
        settle(block);
        return (target as Record<string, unknown>)[key];
      },
      set(v: unknown) {
        settle(block);
        setValue(target, key, v);
      },
      enumerable: true,
      configurable: true,
    });
  for (const k of derived) lazy(header, k);
  lazy(block, 'hash');
  return block;
}
