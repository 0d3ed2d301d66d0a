import type { Ledger } from '../../ledger/ledger.js';
import type { Block } from '../../ledger/block.js';
import { bytesEqual } from '../../encoding/bytes.js';
import type { FollowerState } from './follower.js';
import { FollowSourceError, type FollowSource } from './follower-source.js';

/** Tuning and reporting of a follower's block fetching. */
export interface FollowerSyncOptions {
  /** Blocks fetched at once while catching up (algod's `CatchupParallelBlocks`; default 16). */
  parallelBlocks?: number;
  /** Called for every failure of the loop (it retries with back-off unless the error is fatal). */
  onError?: (error: Error, fatal: boolean) => void;
  /** First retry delay after a failure (default 500 ms; doubles up to 10 s). */
  retryMs?: number;
}

/** Where a follower's block fetching stands. */
export interface FollowerSyncStatus {
  /** Last round applied from the source. */
  appliedRound: bigint;
  /** The source's latest round as last seen. */
  sourceRound: bigint | undefined;
  /** Last failure, cleared by the next success. */
  lastError: string | undefined;
  /** True once the loop gave up (the source's chain does not apply to this ledger). */
  stopped: boolean;
}

/**
 * The follower's catch-up loop: fetches blocks from the source node and applies them to the
 * follower's own ledger (`Ledger.applyBlock` evaluates every group again and checks the block
 * hash), never past the sync window: with sync round R it holds rounds up to R + MaxAcctLookback - 1
 * (node-service.md, follower rule 3); without a sync round it follows the source's latest round.
 * When it has what it may hold it waits, for the source's next block or for the sync round to move.
 */
export class FollowerSync {
  readonly #ledger: Ledger;
  readonly #follower: FollowerState;
  readonly #source: FollowSource;
  readonly #parallel: number;
  readonly #onError: ((e: Error, fatal: boolean) => void) | undefined;
  readonly #retryMs: number;
  #wait: AbortController | undefined;
  #stop = new AbortController();
  #running: Promise<void> | undefined;
  #sourceRound: bigint | undefined;
  #lastError: string | undefined;
  #stopped = false;
  readonly #waiters = new Set<() => void>();

  constructor(ledger: Ledger, follower: FollowerState, source: FollowSource, options: FollowerSyncOptions = {}) {
    this.#ledger = ledger;
    this.#follower = follower;
    this.#source = source;
    const p = options.parallelBlocks ?? 16;
    this.#parallel = Number.isInteger(p) && p >= 1 ? Math.min(p, 256) : 16;
    this.#onError = options.onError;
    this.#retryMs = options.retryMs ?? 500;
    const previous = follower.onChange;
    follower.onChange = () => {
      previous?.();
      this.#kick();
    };
  }

  get status(): FollowerSyncStatus {
    return { appliedRound: this.#ledger.latestRound, sourceRound: this.#sourceRound, lastError: this.#lastError, stopped: this.#stopped };
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  /** Stops fetching; resolves once the loop has ended (no block is half applied). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wait?.abort();
    await this.#running;
  }

  /** Resolves once the ledger holds `round` (or the loop stops or the time runs out). For tests and tools. */
  async waitForRound(round: bigint, timeoutMs = 30_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#ledger.latestRound < round) {
      if (this.#stopped || this.#stop.signal.aborted || Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(200, deadline - Date.now())));
        this.#waiters.add(done);
      });
    }
    return true;
  }

  /** The sync round moved: stop waiting and look again. */
  #kick(): void {
    this.#wait?.abort();
  }

  /** Highest round the follower may hold now. */
  #cap(): bigint | undefined {
    const r = this.#follower.syncRound;
    return r === undefined ? undefined : r + this.#follower.lookback - 1n;
  }

  #notify(): void {
    for (const w of [...this.#waiters]) w();
  }

  async #loop(): Promise<void> {
    let delay = this.#retryMs;
    while (!this.#stop.signal.aborted) {
      this.#wait = new AbortController();
      const signal = AbortSignal.any([this.#wait.signal, this.#stop.signal]);
      try {
        await this.#step(signal);
        delay = this.#retryMs;
        this.#lastError = undefined;
      } catch (e) {
        if (this.#stop.signal.aborted) break;
        if (signal.aborted) continue; // the sync round moved during a wait
        const err = e instanceof Error ? e : new Error(String(e));
        const fatal = !(err instanceof FollowSourceError);
        this.#lastError = err.message;
        this.#onError?.(err, fatal);
        if (fatal) {
          this.#stopped = true;
          this.#notify();
          return;
        }
        await sleep(delay, signal);
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }

  async #step(signal: AbortSignal): Promise<void> {
    const have = this.#ledger.latestRound;
    const cap = this.#cap();
    if (cap !== undefined && have >= cap) {
      // Paused: hold until the sync round moves (or the follower stops).
      await sleep(60_000, signal);
      return;
    }
    let source = this.#sourceRound !== undefined && this.#sourceRound > have ? this.#sourceRound : await this.#source.latestRound(signal);
    if (source <= have) source = await this.#source.waitAfter(have, signal);
    this.#sourceRound = source;
    if (source <= have) return;
    const upto = cap !== undefined && cap < source ? cap : source;
    const last = have + BigInt(this.#parallel) < upto ? have + BigInt(this.#parallel) : upto;
    const rounds: bigint[] = [];
    for (let r = have + 1n; r <= last; r++) rounds.push(r);
    // One failed fetch ends the batch: the others are cancelled rather than left running.
    const batch = new AbortController();
    const batchSignal = AbortSignal.any([signal, batch.signal]);
    let blocks: Block[];
    try {
      blocks = await Promise.all(rounds.map((r) => this.#source.block(r, batchSignal)));
    } finally {
      batch.abort();
    }
    for (const b of blocks) {
      if (this.#stop.signal.aborted) return;
      // A sync round moved below what was fetched cannot happen (setSyncRound refuses it), but
      // never apply beyond the current cap.
      const c = this.#cap();
      if (c !== undefined && b.header.round > c) return;
      if (!bytesEqual(b.header.prev, this.#ledger.latestBlock.hash)) {
        // The source's chain no longer extends ours: our last rounds differ from its (an altered
        // block taken earlier, or a source that was rolled back). Keep serving and keep asking.
        throw new FollowSourceError(
          `the source's block ${b.header.round} does not extend this follower's round ${this.#ledger.latestRound}: the follower's last rounds differ from the source's. It keeps serving what it has and retrying; restart it with --recover to set the divergent rounds aside and fetch them again`,
        );
      }
      this.#ledger.applyBlock(b);
      this.#notify();
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
