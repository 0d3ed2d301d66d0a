import { decodeSignedTransactions, encodeSignedTransaction, txid as txidOf } from '../../txn/encode.js';
import type { SignedTransaction } from '../../txn/types.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { GroupEvalResult } from '../../ledger/eval.js';
import { simulateAndCommit, type SimulateRequest } from '../../ledger/simulate.js';
import { ForkStateMissing, LedgerRejection, LedgerWriteError } from '../../ledger/errors.js';
import { BadRequestError } from '../http/errors.js';

/** A group the ledger refused at submission: HTTP 400 with the ledger's text; `rejection` says why. */
export class PoolRejectionError extends BadRequestError {
  constructor(readonly rejection: LedgerRejection) {
    super(rejection.message);
  }
}

/** A transaction the node holds in its pool (waiting for a block) or remembers as evicted. */
export interface PoolEntry {
  txid: string;
  stxn: SignedTransaction;
  /** Encoded size, for fee-per-byte priority. */
  size: number;
  /** Non-empty when the transaction was removed from the pool because it failed. */
  poolError: string;
  /** Order of arrival, to keep equal-priority transactions stable. */
  seq: number;
}

/** Pending-pool options: block interval, how many evicted groups to remember, pool size. */
export interface PoolOptions {
  /**
   * 0 or absent: dev mode, every submitted group is committed at once in its own block.
   * Otherwise: groups wait in the pool and a block is made every this many milliseconds.
   */
  blockIntervalMs?: number;
  /** How many evicted transactions are remembered for lookups (oldest forgotten first). */
  rememberEvicted?: number;
  /** Refuse new groups once this many transactions wait. */
  maxPoolSize?: number;
  /**
   * Interval mode: called with the error when blocks start failing to be written (a full disk:
   * the groups keep waiting), and with `undefined` once a block is written again. Called on each
   * change only, not on every tick.
   */
  onBlockError?: (error: Error | undefined) => void;
}

/** Transactions the pool took and rejected. */
export interface PoolStats {
  submittedTxns: number;
  rejectedTxns: number;
}

const DEFAULT_REMEMBER = 1000;
const DEFAULT_MAX_POOL = 15_000;

/**
 * The node's pending pool. In dev mode it is a pass-through (the ledger commits each group in its
 * own block before the submission returns) and only remembers what it refused, so a client that
 * polls the pending lookup learns why. In interval mode it holds checked groups until the next
 * block; groups that fail there are evicted with the ledger's reason as their pool error.
 */
export class TransactionPool {
  readonly #ledger: Ledger;
  readonly #intervalMs: number;
  readonly #remember: number;
  readonly #maxPool: number;
  readonly #groups: PoolEntry[][] = [];
  readonly #waiting = new Map<string, PoolEntry>();
  readonly #evicted = new Map<string, PoolEntry>();
  #timer: NodeJS.Timeout | undefined;
  #seq = 0;
  readonly #onBlockError: ((error: Error | undefined) => void) | undefined;
  /** Blocks the interval could not write since the last one it did. */
  #failingTicks = 0;
  readonly stats: PoolStats = { submittedTxns: 0, rejectedTxns: 0 };

  constructor(ledger: Ledger, options: PoolOptions = {}) {
    this.#ledger = ledger;
    this.#intervalMs = options.blockIntervalMs ?? 0;
    if (!Number.isFinite(this.#intervalMs) || this.#intervalMs < 0)
      throw new BadRequestError(`block interval must be a non-negative number of milliseconds, got ${options.blockIntervalMs}`);
    this.#remember = options.rememberEvicted ?? DEFAULT_REMEMBER;
    this.#maxPool = options.maxPoolSize ?? DEFAULT_MAX_POOL;
    this.#onBlockError = options.onBlockError;
  }

  /** Interval ticks in a row whose block could not be written (0 while blocks are written). */
  get failingBlocks(): number {
    return this.#failingTicks;
  }

  get devMode(): boolean {
    return this.#intervalMs === 0;
  }

  /** Starts making blocks on the interval (no-op in dev mode). */
  start(): void {
    if (this.devMode || this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
    this.#timer.unref();
  }

  #tick(): void {
    try {
      this.produceBlock();
      if (this.#failingTicks > 0) {
        this.#failingTicks = 0;
        this.#report(undefined);
      }
    } catch (e) {
      // produceBlock already evicted (or kept, for a write failure) the groups; the next tick tries again.
      if (this.#failingTicks++ === 0) this.#report(e instanceof Error ? e : new Error(String(e)));
    }
  }

  #report(error: Error | undefined): void {
    try {
      this.#onBlockError?.(error);
    } catch {
      // A reporting hook may not stop block production.
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Checks a group's signatures ahead of its simulation or `submit`, in parallel
   * (`Ledger.preverify`). A group larger than `maxGroupSize` is left for the evaluation to refuse
   * cheaply. A fork is left alone: its routes run again when they missed state, and a wait inside
   * one would let another request's miss make it run twice (a submit would then find its own
   * transactions already committed).
   */
  async preverifyGroup(stxns: readonly SignedTransaction[], maxGroupSize: number): Promise<void> {
    if (this.#ledger.fork || stxns.length > maxGroupSize) return;
    await this.#ledger.preverify(stxns);
  }

  /** {@link preverifyGroup} for raw bytes; bytes that do not decode are left for `submit` to refuse. */
  async preverify(raw: Uint8Array, maxGroupSize: number): Promise<void> {
    let stxns: SignedTransaction[];
    try {
      stxns = decodeSignedTransactions(raw);
    } catch {
      return;
    }
    await this.preverifyGroup(stxns, maxGroupSize);
  }

  /**
   * Accepts one group (raw concatenated signed transactions). Returns the first transaction's id.
   * Throws BadRequestError with the ledger's reason when the group cannot be accepted.
   */
  submit(raw: Uint8Array, maxGroupSize: number): string {
    if (raw.length === 0) throw new BadRequestError('empty txgroup');
    const stxns = decodeSignedTransactions(raw);
    if (stxns.length === 0) throw new BadRequestError('empty txgroup');
    if (stxns.length > maxGroupSize) throw new BadRequestError(`max group size is ${maxGroupSize}`);
    const entries = stxns.map((stxn) => this.#entry(stxn));
    const first = entries[0]!.txid;
    if (this.devMode) {
      try {
        this.#ledger.submit(stxns);
      } catch (e) {
        // A fork's group that needs state not fetched yet is retried by the fork's run, not refused.
        if (e instanceof LedgerRejection && !(e instanceof ForkStateMissing)) {
          this.#evict(entries, e.message);
          throw new PoolRejectionError(e);
        }
        throw e;
      }
      this.stats.submittedTxns += entries.length;
      return first;
    }
    if (this.#waiting.size + entries.length > this.#maxPool) throw new BadRequestError(`transaction pool is full (${this.#maxPool} transactions)`);
    for (const e of entries) if (this.#waiting.has(e.txid)) throw new BadRequestError(`transaction ${e.txid}: transaction already in the pool`);
    // The same checks a node runs before pooling: signatures, fees, validity window, balances now.
    const { result } = this.#ledger.dryEvaluate(stxns, {});
    if (result.failure) {
      this.#evict(entries, result.failure.message);
      throw new PoolRejectionError(result.failure);
    }
    this.#groups.push(entries);
    for (const e of entries) {
      this.#waiting.set(e.txid, e);
      this.#evicted.delete(e.txid);
    }
    this.stats.submittedTxns += entries.length;
    return first;
  }

  /**
   * Dev mode: simulates a signed group and commits it when it succeeds and `accept` approves the
   * evaluation, from one evaluation (see `simulateAndCommit`). A group not committed leaves no
   * trace in the pool: like a simulation, it was never submitted.
   */
  simulateAndSubmit(
    request: SimulateRequest,
    accept: (result: GroupEvalResult) => boolean,
    limits: { maxExecTraceBytes?: number } = {},
  ): ReturnType<typeof simulateAndCommit> {
    if (!this.devMode) throw new BadRequestError('a simulation that commits needs a dev-mode node (blocks made on each submit)');
    const out = simulateAndCommit(this.#ledger, request, accept, limits);
    if (out.committed) this.stats.submittedTxns += out.committed.txids.length;
    return out;
  }

  /** Commits every waiting group that still applies in one block (interval mode). */
  produceBlock(): void {
    const groups = this.#groups.splice(0);
    for (const g of groups) for (const e of g) this.#waiting.delete(e.txid);
    let rejected: { index: number; error: Error }[];
    try {
      rejected = this.#ledger.produceBlock(groups.map((g) => g.map((e) => e.stxn))).rejected;
    } catch (e) {
      // The block could not be committed: nothing of it applies. A write failure (full disk) is
      // temporary, so the groups wait in the pool for the next block, as on a node; anything
      // else evicts them with the reason.
      if (e instanceof LedgerWriteError) {
        this.#groups.unshift(...groups);
        for (const g of groups) for (const x of g) this.#waiting.set(x.txid, x);
        throw e;
      }
      const reason = `could not commit the block: ${e instanceof Error ? e.message : String(e)}`;
      for (const g of groups) this.#evict(g, reason);
      throw e;
    }
    for (const r of rejected) this.#evict(groups[r.index]!, r.error.message);
  }

  /** Waiting transactions, highest fee per byte first (ties: arrival order). */
  pending(): PoolEntry[] {
    return [...this.#waiting.values()].sort((a, b) => {
      const pa = Number(a.stxn.txn.fee) / a.size;
      const pb = Number(b.stxn.txn.fee) / b.size;
      return pa !== pb ? pb - pa : a.seq - b.seq;
    });
  }

  /** A waiting or evicted transaction, or undefined when the pool does not know (or forgot) it. */
  lookup(txid: string): PoolEntry | undefined {
    return this.#waiting.get(txid) ?? this.#evicted.get(txid);
  }

  #entry(stxn: SignedTransaction): PoolEntry {
    return { txid: txidOf(stxn.txn), stxn, size: encodeSignedTransaction(stxn).length, poolError: '', seq: this.#seq++ };
  }

  #evict(entries: PoolEntry[], reason: string): void {
    this.stats.rejectedTxns += entries.length;
    for (const e of entries) {
      this.#evicted.delete(e.txid);
      this.#evicted.set(e.txid, { ...e, poolError: reason });
    }
    while (this.#evicted.size > this.#remember) this.#evicted.delete(this.#evicted.keys().next().value!);
  }
}
