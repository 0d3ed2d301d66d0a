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

/** What a block committed lazily needs to work its derived values out. */
interface Pending {
  readonly block: Block;
  /** The header the block was made with (its derived values are written there). */
  readonly header: Record<string, unknown>;
  readonly prev: Block;
  readonly txns: ConfirmedTxn[];
  readonly scheme: HeaderScheme;
  /** Set while its values are worked out (a read from inside is refused rather than recursing). */
  filling: boolean;
}

/**
 * Blocks committed lazily whose derived values have not been read yet, by block and by header
 * (the shared accessors get one or the other as `this`; replacing a block's header later changes
 * neither).
 */
const PENDING = new WeakMap<object, Pending>();
/**
 * Values of objects frozen or sealed before their lazy members were read: the accessor could not be
 * replaced by the value, so it reads the value from here.
 */
const STUCK = new WeakMap<object, Map<string, unknown>>();

/** `"BH" || msgpack(header)` of the latest settled header: the next block's `prev512` hashes the same bytes. */
let lastInput: { header: BlockHeader; input: Uint8Array } | undefined;

/** Works out the derived values of a pending block and of the unsettled blocks before it, oldest first (no recursion however long the run). */
function settle(pending: Pending): void {
  const run: Pending[] = [];
  for (let p: Pending | undefined = pending; p && PENDING.has(p.block); p = PENDING.get(p.prev)) run.push(p);
  for (let i = run.length - 1; i >= 0; i--) {
    const p = run[i]!;
    // Pending until filled: a fill that throws leaves the block to be worked out (and throw) again.
    fill(p);
    PENDING.delete(p.block);
    PENDING.delete(p.header);
  }
}

function fill(p: Pending): void {
  // Nothing read while the values are worked out is one of them (a guard, not a path).
  if (p.filling) throw new Error(`block ${String(p.header.round)}: its hash was read while it was being worked out`);
  p.filling = true;
  try {
    const header = p.header;
    const commit = txnCommitmentFor(p.txns, p.scheme);
    put(header, 'prev', p.prev.hash);
    put(header, 'txnRoot', commit.root);
    put(header, 'txnRoot256', commit.root256);
    if (p.scheme >= 2) {
      put(header, 'prev512', lastInput?.header === p.prev.header ? sha512(lastInput.input) : headerHash512(p.prev.header));
      put(header, 'txnRoot512', commit.root512);
    }
    const input = headerHashInput(header as unknown as BlockHeader);
    put(p.block as unknown as Record<string, unknown>, 'hash', sha512_256(input));
    lastInput = { header: header as unknown as BlockHeader, input };
  } finally {
    p.filling = false;
  }
}

/** Makes `target[key]` the plain member `value`; kept aside when `target` was frozen or sealed first. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  settleLazy(target, key, value);
  if (!Object.prototype.hasOwnProperty.call(Object.getOwnPropertyDescriptor(target, key), 'value')) {
    let m = STUCK.get(target);
    if (!m) STUCK.set(target, (m = new Map()));
    m.set(key, value);
  }
}

/**
 * A settled lazy member of the object that holds it (`target` or one it inherits from): the plain
 * value, or the one kept aside for a frozen object.
 */
function settled(target: object, key: string): unknown {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return 'value' in d ? d.value : STUCK.get(o)?.get(key);
  }
  return undefined;
}

/**
 * One accessor pair per member, shared by every lazy block (they find their block from `this`):
 * objects given the same accessors in the same order share one shape, and a block holds no
 * closures of its own.
 */
function accessor(key: string): PropertyDescriptor {
  return {
    get(this: Record<string, unknown>) {
      const p = pendingOf(this);
      // A frozen block's value already worked out is read while the rest is (its hash input).
      if (p && !(p.filling && (STUCK.get(p.header)?.has(key) || STUCK.get(p.block)?.has(key)))) settle(p);
      return settled(this, key);
    },
    set(this: Record<string, unknown>, v: unknown) {
      const p = pendingOf(this);
      if (p) settle(p);
      settleLazy(this, key, v);
    },
    enumerable: true,
    configurable: true,
  };
}

/** The pending block `self` (a header or a block, or an object inheriting from one) belongs to. */
function pendingOf(self: object): Pending | undefined {
  for (let o: object | null = self; o; o = Object.getPrototypeOf(o) as object | null) {
    const p = PENDING.get(o);
    if (p) return p;
  }
  return undefined;
}

const HEADER_ACCESSORS = new Map([...DERIVED_2].map((k) => [k, accessor(k)]));
const HASH_ACCESSOR = accessor('hash');

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
  // Members are added in the previous header's order, the derived ones as accessors (added, not
  // redefined, so headers keep one shape); members the previous header lacks go last.
  const header = {} as Record<string, unknown>;
  const before = prev.header as unknown as Record<string, unknown>;
  const lazyKeys = scheme >= 2 ? DERIVED_2 : DERIVED_1;
  for (const k of Object.keys(before)) {
    if (lazyKeys.has(k)) Object.defineProperty(header, k, HEADER_ACCESSORS.get(k)!);
    else header[k] = before[k];
  }
  header.round = fields.round;
  header.seed = fields.seed;
  if (scheme >= 2) for (const k of ['prev512', 'txnRoot512']) if (!(k in header)) Object.defineProperty(header, k, HEADER_ACCESSORS.get(k)!);
  header.timestamp = fields.timestamp;
  header.txnCounter = fields.txnCounter;
  header.feesCollected = fields.feesCollected;
  const block = { header: header as unknown as BlockHeader, txns } as Block;
  Object.defineProperty(block, 'hash', HASH_ACCESSOR);
  const pending: Pending = { block, header, prev, txns, scheme, filling: false };
  PENDING.set(block, pending);
  PENDING.set(header, pending);
  return block;
}
