import { toBase64 } from '../../encoding/base64.js';
import { bytesEqual } from '../../encoding/bytes.js';
import type { Block, BlockHeader, ConfirmedTxn, TxnApplyData } from '../../ledger/block.js';
import type { SignedTransaction, Transaction, TransactionType } from '../../txn/types.js';
import type { TxnPosition } from './tokens.js';

/** How a transaction is signed: single, multisig or logic signature. */
export type SigType = 'sig' | 'msig' | 'lsig';
/** How an address takes part in a transaction, for filters. */
export type AddressRole = 'sender' | 'receiver' | 'freeze-target';

/**
 * One transaction row. Inner transactions are rows of their own (they match filters on their own
 * fields) but a search answers with the root they belong to, as the reference service does.
 */
export interface TxnEntry {
  seq: number;
  round: bigint;
  /** Position in the round counting inner transactions depth-first (root, its inners, next root…). */
  intra: number;
  /** seq of the root row (itself for a root). */
  root: number;
  txn: Transaction;
  ad: TxnApplyData;
  /** Root rows only. */
  confirmed?: ConfirmedTxn;
  /** Inner rows below this one, recursively. */
  innerCount: number;
  sigType?: SigType;
}

/** Transaction search filters (query-service.md): address and role, type, rounds, times, amounts, ids, note prefix. */
export interface TxnFilter {
  address?: Uint8Array;
  role?: AddressRole;
  excludeCloseTo?: boolean;
  round?: bigint;
  minRound?: bigint;
  maxRound?: bigint;
  /** Seconds since the epoch; results strictly after / before. */
  afterTime?: number;
  beforeTime?: number;
  assetId?: bigint;
  appId?: bigint;
  /** Strict bounds on the payment amount, or on the asset amount when `assetId` is set. */
  currencyGreaterThan?: bigint;
  currencyLessThan?: bigint;
  notePrefix?: Uint8Array;
  rekeyTo?: boolean;
  sigType?: SigType;
  txType?: TransactionType;
  txid?: string;
  groupId?: Uint8Array;
}

/** One page of matching transactions and the position to continue from. */
export interface TxnPage {
  roots: TxnEntry[];
  /** Where the next page continues; absent for an empty page. */
  next?: TxnPosition;
}

export function sigTypeOf(stxn: SignedTransaction): SigType | undefined {
  if (stxn.sig) return 'sig';
  if (stxn.msig) return 'msig';
  if (stxn.lsig) return 'lsig';
  return undefined;
}

export function entryAssetId(t: Transaction, ad: TxnApplyData): bigint | undefined {
  if (t.assetTransfer) return t.assetTransfer.assetId;
  if (t.assetFreeze) return t.assetFreeze.assetId;
  if (t.assetConfig) return t.assetConfig.assetId || ad.createdAssetId;
  return undefined;
}

export function entryAppId(t: Transaction, ad: TxnApplyData): bigint | undefined {
  if (t.appCall) return t.appCall.appId || ad.createdAppId;
  return undefined;
}

/**
 * Sorted seq lists per filter value. Rows arrive in seq order, so appending keeps them sorted.
 * Keys may collide (addresses are keyed by a 32-bit digest): every candidate is re-checked
 * against the full filter, so a collision costs a little time, never a wrong answer.
 */
class Postings<K> {
  readonly lists = new Map<K, number[]>();

  add(key: K, seq: number): void {
    const l = this.lists.get(key);
    if (!l) this.lists.set(key, [seq]);
    else if (l[l.length - 1] !== seq) l.push(seq);
  }

  get(key: K): number[] {
    return this.lists.get(key) ?? EMPTY;
  }
}

/** Public keys are hash outputs, so a few of their bytes spread well enough for a bucket key. */
function addressKey(b: Uint8Array): number {
  return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) ^ ((b[28]! << 24) | (b[29]! << 16) | (b[30]! << 8) | b[31]!);
}

/** Ids as numbers while exact (bigint Map keys hash slower), as text beyond. */
function idKey(id: bigint): number | string {
  return id <= 9007199254740991n ? Number(id) : id.toString();
}

const EMPTY: number[] = [];
const NOTE_KEY_BYTES = 4;
const NO_AMOUNT = -1;
const BIG_AMOUNT = -2;
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
/** Prefix length and value in one exact number (below 2^35). */
const noteKey = (length: number, value: number): number => length * 4294967296 + value;

function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function startsWith(b: Uint8Array | undefined, prefix: Uint8Array): boolean {
  if (prefix.length === 0) return true;
  if (!b || b.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

/**
 * The transaction side of the query index: rows in chain order plus a posting list per address
 * role, type, asset, application, group, signature kind and rekey flag, and a map of round starts
 * and timestamps so round and time bounds become a seq range by binary search. A search walks the
 * shortest posting list that applies (or the seq range) and checks the remaining filters per row.
 */
export class TxnIndex {
  readonly entries: TxnEntry[] = [];
  /** Block headers by round. */
  readonly headers: BlockHeader[] = [];
  readonly blocks: Block[] = [];
  /** First seq of each round (rounds are contiguous from the first block added). */
  readonly roundStart: number[] = [];
  readonly times: number[] = [];
  /** Address keyed lists per role: any, sender (incl. clawback source), receiver, receiver or close-to, freeze target. */
  readonly #any = new Postings<number>();
  readonly #sender = new Postings<number>();
  readonly #receiver = new Postings<number>();
  readonly #receiverOrClose = new Postings<number>();
  readonly #freeze = new Postings<number>();
  readonly #type = new Postings<string>();
  readonly #asset = new Postings<number | string>();
  readonly #app = new Postings<number | string>();
  readonly #group = new Postings<string>();
  readonly #misc = new Postings<string>();
  /** Notes by their first 1..4 bytes, so a prefix search walks only rows that share them. */
  readonly #note = new Postings<number>();
  readonly #byTxid = new Map<string, number>();
  /**
   * Payment or asset amount per row as an exact double (NO_AMOUNT for other types, BIG_AMOUNT
   * beyond 2^53): amount bounds reject most rows from this column without touching row objects.
   */
  #amounts = new Float64Array(1024);
  #firstRound = 0n;

  get latestRound(): bigint {
    return this.#firstRound + BigInt(this.headers.length) - 1n;
  }

  get firstRound(): bigint {
    return this.#firstRound;
  }

  get size(): number {
    return this.entries.length;
  }

  addBlock(block: Block): void {
    const round = block.header.round;
    if (this.headers.length === 0) this.#firstRound = round;
    else if (round !== this.latestRound + 1n) throw new RangeError(`query index expects round ${this.latestRound + 1n}, got ${round}`);
    this.headers.push(block.header);
    this.blocks.push(block);
    this.roundStart.push(this.entries.length);
    this.times.push(Number(block.header.timestamp));
    const start = this.entries.length;
    for (const ct of block.txns) {
      const seq = this.entries.length;
      const entry: TxnEntry = { seq, round, intra: seq - start, root: seq, txn: ct.stxn.txn, ad: ct.ad, confirmed: ct, innerCount: 0 };
      const sig = sigTypeOf(ct.stxn);
      if (sig) entry.sigType = sig;
      this.#push(entry);
      this.#byTxid.set(ct.txid, seq);
      if (ct.ad.inner.length) entry.innerCount = this.#addInner(ct.ad, round, start, seq);
    }
  }

  #addInner(ad: TxnApplyData, round: bigint, start: number, root: number): number {
    let count = 0;
    for (const it of ad.inner) {
      const seq = this.entries.length;
      const entry: TxnEntry = { seq, round, intra: seq - start, root, txn: it.txn, ad: it.ad, innerCount: 0 };
      this.#push(entry);
      count++;
      if (it.ad.inner.length) {
        entry.innerCount = this.#addInner(it.ad, round, start, root);
        count += entry.innerCount;
      }
    }
    return count;
  }

  #push(e: TxnEntry): void {
    this.entries.push(e);
    const t = e.txn;
    const seq = e.seq;
    if (seq >= this.#amounts.length) {
      const grown = new Float64Array(this.#amounts.length * 2);
      grown.set(this.#amounts);
      this.#amounts = grown;
    }
    const amount = t.payment?.amount ?? t.assetTransfer?.amount;
    this.#amounts[seq] = amount === undefined ? NO_AMOUNT : amount <= MAX_EXACT ? Number(amount) : BIG_AMOUNT;
    const s = addressKey(t.sender.publicKey);
    this.#any.add(s, seq);
    this.#sender.add(s, seq);
    if (t.payment) {
      this.#addReceiver(t.payment.receiver.publicKey, seq);
      if (t.payment.closeRemainderTo) this.#addCloseTo(t.payment.closeRemainderTo.publicKey, seq);
    }
    if (t.assetTransfer) {
      const x = t.assetTransfer;
      this.#addReceiver(x.receiver.publicKey, seq);
      if (x.closeTo) this.#addCloseTo(x.closeTo.publicKey, seq);
      if (x.assetSender) {
        const k = addressKey(x.assetSender.publicKey);
        this.#any.add(k, seq);
        this.#sender.add(k, seq);
      }
    }
    if (t.assetFreeze) {
      const k = addressKey(t.assetFreeze.account.publicKey);
      this.#any.add(k, seq);
      this.#freeze.add(k, seq);
    }
    this.#type.add(t.type, seq);
    const asset = entryAssetId(t, e.ad);
    if (asset !== undefined) this.#asset.add(idKey(asset), seq);
    const app = entryAppId(t, e.ad);
    if (app !== undefined) this.#app.add(idKey(app), seq);
    if (t.group) this.#group.add(toBase64(t.group), seq);
    if (t.note) {
      const n = t.note;
      let v = 0;
      for (let k = 1; k <= NOTE_KEY_BYTES && k <= n.length; k++) {
        v = v * 256 + n[k - 1]!;
        this.#note.add(noteKey(k, v), seq);
      }
    }
    if (t.rekeyTo) this.#misc.add('rekey', seq);
    if (e.sigType) this.#misc.add(e.sigType, seq);
    // An address filter without a role matches every account the transaction names.
    for (const a of referencedAccounts(t, e.confirmed?.stxn.authAddress)) this.#any.add(addressKey(a.publicKey), seq);
  }

  #addReceiver(b: Uint8Array, seq: number): void {
    const k = addressKey(b);
    this.#any.add(k, seq);
    this.#receiver.add(k, seq);
    this.#receiverOrClose.add(k, seq);
  }

  #addCloseTo(b: Uint8Array, seq: number): void {
    const k = addressKey(b);
    this.#any.add(k, seq);
    this.#receiverOrClose.add(k, seq);
  }

  /** Root row of a transaction id (inner transactions have no id of their own here). */
  byTxid(txid: string): TxnEntry | undefined {
    const seq = this.#byTxid.get(txid);
    return seq === undefined ? undefined : this.entries[seq];
  }

  header(round: bigint): BlockHeader | undefined {
    if (round < this.#firstRound) return undefined;
    return this.headers[Number(round - this.#firstRound)];
  }

  block(round: bigint): Block | undefined {
    if (round < this.#firstRound) return undefined;
    return this.blocks[Number(round - this.#firstRound)];
  }

  /** seq of a position; positions past the end map to the end, so old tokens stay valid. */
  seqOf(p: TxnPosition): number {
    if (p.round < this.#firstRound) return 0;
    const r = Number(p.round - this.#firstRound);
    if (r >= this.roundStart.length) return this.entries.length;
    const end = r + 1 < this.roundStart.length ? this.roundStart[r + 1]! : this.entries.length;
    return Math.min(this.roundStart[r]! + p.intra, end);
  }

  /** [lo, hi) seq bounds of the round and time filters. */
  seqRange(f: TxnFilter): [number, number] {
    let minR = this.#firstRound;
    let maxR = this.latestRound;
    if (f.round !== undefined) {
      minR = f.round;
      maxR = f.round;
    }
    if (f.minRound !== undefined && f.minRound > minR) minR = f.minRound;
    if (f.maxRound !== undefined && f.maxRound < maxR) maxR = f.maxRound;
    if (f.afterTime !== undefined) {
      const after = f.afterTime;
      // first round whose timestamp is strictly after the bound (timestamps never decrease)
      let lo = 0;
      let hi = this.times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.times[mid]! > after) hi = mid;
        else lo = mid + 1;
      }
      const r = this.#firstRound + BigInt(lo);
      if (r > minR) minR = r;
    }
    if (f.beforeTime !== undefined) {
      const before = f.beforeTime;
      let lo = 0;
      let hi = this.times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.times[mid]! < before) lo = mid + 1;
        else hi = mid;
      }
      const r = this.#firstRound + BigInt(lo) - 1n;
      if (r < maxR) maxR = r;
    }
    if (minR > maxR || this.headers.length === 0) return [0, 0];
    const lo = this.seqOf({ round: minR, intra: 0 });
    const hi = this.seqOf({ round: maxR + 1n, intra: 0 });
    return [lo, hi];
  }

  /** The smallest posting list that constrains the search, or undefined to walk the seq range. */
  #candidates(f: TxnFilter): number[] | undefined {
    const lists: number[][] = [];
    if (f.txid !== undefined) {
      const seq = this.#byTxid.get(f.txid);
      return seq === undefined ? EMPTY : [seq];
    }
    if (f.address) {
      const k = addressKey(f.address);
      if (f.role === 'sender') lists.push(this.#sender.get(k));
      else if (f.role === 'receiver') lists.push((f.excludeCloseTo ? this.#receiver : this.#receiverOrClose).get(k));
      else if (f.role === 'freeze-target') lists.push(this.#freeze.get(k));
      else lists.push(this.#any.get(k));
    }
    if (f.txType) lists.push(this.#type.get(f.txType));
    if (f.assetId !== undefined) lists.push(this.#asset.get(idKey(f.assetId)));
    if (f.appId !== undefined) lists.push(this.#app.get(idKey(f.appId)));
    if (f.groupId) lists.push(this.#group.get(toBase64(f.groupId)));
    if (f.notePrefix && f.notePrefix.length > 0) {
      const n = f.notePrefix;
      let v = 0;
      const k = Math.min(NOTE_KEY_BYTES, n.length);
      for (let i = 0; i < k; i++) v = v * 256 + n[i]!;
      lists.push(this.#note.get(noteKey(k, v)));
    }
    if (f.rekeyTo) lists.push(this.#misc.get('rekey'));
    if (f.sigType) lists.push(this.#misc.get(f.sigType));
    if (lists.length === 0) return undefined;
    return lists.reduce((a, b) => (b.length < a.length ? b : a));
  }

  /** Every filter, checked on one row. */
  matches(e: TxnEntry, f: TxnFilter): boolean {
    const t = e.txn;
    if (f.txType && t.type !== f.txType) return false;
    if (f.sigType && e.sigType !== f.sigType) return false;
    if (f.rekeyTo && !t.rekeyTo) return false;
    if (f.txid !== undefined && (e.root !== e.seq || e.confirmed?.txid !== f.txid)) return false;
    if (f.groupId && !(t.group && bytesEqual(t.group, f.groupId))) return false;
    if (f.assetId !== undefined && entryAssetId(t, e.ad) !== f.assetId) return false;
    if (f.appId !== undefined && entryAppId(t, e.ad) !== f.appId) return false;
    if (f.notePrefix && !startsWith(t.note, f.notePrefix)) return false;
    if (f.currencyGreaterThan !== undefined || f.currencyLessThan !== undefined) {
      let amount: bigint | undefined;
      if (f.assetId !== undefined) amount = t.assetTransfer?.amount;
      else amount = t.payment?.amount;
      if (amount === undefined) return false;
      if (f.currencyGreaterThan !== undefined && !(amount > f.currencyGreaterThan)) return false;
      if (f.currencyLessThan !== undefined && !(amount < f.currencyLessThan)) return false;
    }
    if (f.address && !addressMatches(t, f.address, f.role, f.excludeCloseTo ?? false, e.root === e.seq ? e.confirmed?.stxn.authAddress : undefined))
      return false;
    return true;
  }

  /**
   * One page of matching roots. Ascending pages continue after the last root's inner rows;
   * descending pages continue before the last root (the reference service's token rules).
   */
  search(f: TxnFilter, opts: { descending: boolean; limit: number; after?: TxnPosition }): TxnPage {
    let [lo, hi] = this.seqRange(f);
    if (opts.after) {
      const at = this.seqOf(opts.after);
      if (opts.descending) hi = Math.min(hi, at);
      else lo = Math.max(lo, at + 1);
    }
    const roots: TxnEntry[] = [];
    if (lo >= hi || opts.limit <= 0) return { roots };
    const list = this.#candidates(f);
    const entries = this.entries;
    let lastRoot = -1;
    const amounts = this.#amounts;
    const bounded = f.currencyGreaterThan !== undefined || f.currencyLessThan !== undefined;
    const gt = f.currencyGreaterThan === undefined ? -Infinity : f.currencyGreaterThan <= MAX_EXACT ? Number(f.currencyGreaterThan) : Infinity;
    const lt = f.currencyLessThan === undefined ? Infinity : f.currencyLessThan <= MAX_EXACT ? Number(f.currencyLessThan) : Infinity;
    const take = (seq: number): boolean => {
      if (bounded) {
        const a = amounts[seq]!;
        if (a === NO_AMOUNT || (a !== BIG_AMOUNT && !(a > gt && a < lt))) return false;
      }
      const e = entries[seq]!;
      if (e.root === lastRoot || !this.matches(e, f)) return false;
      lastRoot = e.root;
      roots.push(entries[e.root]!);
      return roots.length >= opts.limit;
    };
    if (list) {
      if (opts.descending) {
        for (let i = lowerBound(list, hi) - 1; i >= 0; i--) {
          const seq = list[i]!;
          if (seq < lo) break;
          if (take(seq)) break;
        }
      } else {
        for (let i = lowerBound(list, lo); i < list.length; i++) {
          const seq = list[i]!;
          if (seq >= hi) break;
          if (take(seq)) break;
        }
      }
    } else if (opts.descending) {
      for (let seq = hi - 1; seq >= lo; seq--) if (take(seq)) break;
    } else {
      for (let seq = lo; seq < hi; seq++) if (take(seq)) break;
    }
    if (roots.length === 0) return { roots };
    const last = roots[roots.length - 1]!;
    const next = opts.descending ? { round: last.round, intra: last.intra } : { round: last.round, intra: last.intra + last.innerCount };
    return { roots, next };
  }

  /** Rows (root or inner) of one application that logged something, in chain order. */
  logs(
    appId: bigint,
    f: { minRound?: bigint; maxRound?: bigint; sender?: Uint8Array; txid?: string },
    limit: number,
    after?: TxnPosition,
  ): { rows: TxnEntry[]; next?: TxnPosition } {
    let [lo, hi] = this.seqRange({
      ...(f.minRound !== undefined ? { minRound: f.minRound } : {}),
      ...(f.maxRound !== undefined ? { maxRound: f.maxRound } : {}),
    });
    if (after) lo = Math.max(lo, this.seqOf(after) + 1);
    const rows: TxnEntry[] = [];
    const list = this.#app.get(idKey(appId));
    for (let i = lowerBound(list, lo); i < list.length && rows.length < limit; i++) {
      const seq = list[i]!;
      if (seq >= hi) break;
      const e = this.entries[seq]!;
      if (e.ad.logs.length === 0) continue;
      if (f.sender && !bytesEqual(e.txn.sender.publicKey, f.sender)) continue;
      if (f.txid !== undefined && this.entries[e.root]!.confirmed?.txid !== f.txid) continue;
      rows.push(e);
    }
    if (rows.length === 0) return { rows };
    const last = rows[rows.length - 1]!;
    return { rows, next: { round: last.round, intra: last.intra } };
  }

  rootTxid(e: TxnEntry): string {
    return this.entries[e.root]!.confirmed!.txid;
  }
}

function addressMatches(
  t: Transaction,
  addr: Uint8Array,
  role: AddressRole | undefined,
  excludeCloseTo: boolean,
  authAddr?: { publicKey: Uint8Array },
): boolean {
  const eq = (a: { publicKey: Uint8Array } | undefined) => a !== undefined && bytesEqual(a.publicKey, addr);
  const sender = () => eq(t.sender) || eq(t.assetTransfer?.assetSender);
  const receiver = () => eq(t.payment?.receiver) || eq(t.assetTransfer?.receiver);
  const close = () => eq(t.payment?.closeRemainderTo) || eq(t.assetTransfer?.closeTo);
  const freeze = () => eq(t.assetFreeze?.account);
  switch (role) {
    case 'sender':
      return sender();
    case 'receiver':
      return receiver() || (!excludeCloseTo && close());
    case 'freeze-target':
      return freeze();
    default:
      return sender() || receiver() || close() || freeze() || referencedAccounts(t, authAddr).some(eq);
  }
}

/**
 * Accounts a transaction names beyond its sender, receiver, close-to and freeze target: the
 * rekey-to address, the authorizing address (the signer of a rekeyed sender; root transactions
 * only), the accounts an application call references (`apat` and address entries of the access
 * list) and the addresses an asset configuration sets (manager, reserve, freeze, clawback).
 */
function referencedAccounts(t: Transaction, authAddr: { publicKey: Uint8Array } | undefined): { publicKey: Uint8Array }[] {
  const out: { publicKey: Uint8Array }[] = [];
  if (t.rekeyTo) out.push(t.rekeyTo);
  if (authAddr) out.push(authAddr);
  if (t.appCall) {
    out.push(...t.appCall.accounts);
    for (const r of t.appCall.access) if (r.kind === 'address') out.push(r.address);
  }
  const p = t.assetConfig?.params;
  if (p) for (const a of [p.manager, p.reserve, p.freeze, p.clawback]) if (a) out.push(a);
  return out;
}
