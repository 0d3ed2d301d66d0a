import type { Ledger, BlockEvent } from '../../ledger/ledger.js';
import type { RoundDelta } from '../../ledger/delta.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { buildStateDelta, type DeltaTree } from './state-delta.js';

/** Follower mode: whether it is on, and how many rounds of deltas to keep. */
export interface FollowerOptions {
  /** node-service.md "EnableFollowMode". */
  enabled: boolean;
  /** node-service.md "MaxAcctLookback": width of the delta window (default 64, the suggested value). */
  lookback?: number;
  /** Upper bound on deltas kept while the follower is paused far behind the devnet. */
  maxRetained?: number;
  /** Sync round at start (default 0, rule 1; a follower restarted on a kept ledger starts where it stopped). */
  initialSyncRound?: bigint;
}

/** Body of the follower operations on a node that is not a follower (the node registers them only in follower mode). */
export const NOT_A_FOLLOWER =
  'Not Found: the node is not in follower mode (start it with EnableFollowMode: true in config.json, or tealworks devnet --follow URL)';

const DEFAULT_LOOKBACK = 64;
const DEFAULT_MAX_RETAINED = 10_000;

/**
 * Sync-round bookkeeping and the ledger-delta window of node-service.md ("Follower sync round",
 * rules 1-6). The devnet's ledger plays the network: it keeps advancing while the follower is
 * paused, so the follower keeps the deltas of every round from its sync round on (the blocks it
 * would fetch later) and exposes only those inside the window.
 *
 * On a node that is not a follower the sync-round operations do not exist (404, as the node
 * registers them only in follower mode), and deltas are served for the last `lookback` rounds, as
 * a node holds them in memory.
 *
 * At sync round 0 the window starts at the genesis round, which changed nothing: its delta is
 * empty (no accounts, no creatables, the genesis header and totals), not a failure.
 */
export class FollowerState {
  readonly enabled: boolean;
  readonly lookback: bigint;
  readonly #maxRetained: number;
  readonly #ledger: Ledger;
  /** Each held round's delta, made into its tree on first read (most rounds of a devnet are never read). */
  readonly #deltas = new Map<bigint, { delta: RoundDelta; prevTimestamp: bigint; tree?: DeltaTree }>();
  /** undefined: no sync round (the node syncs to the latest round). */
  #syncRound: bigint | undefined;
  readonly #unsubscribe: () => void;
  readonly #genesisTotals: { totalMoney: bigint; onlineMoney: bigint; notParticipatingMoney: bigint } | undefined;
  /** Called after the sync round changes (waiters on the fetched round wake up). */
  onChange: (() => void) | undefined;

  constructor(ledger: Ledger, options: FollowerOptions = { enabled: false }) {
    this.#ledger = ledger;
    this.enabled = options.enabled;
    const lb = options.lookback ?? DEFAULT_LOOKBACK;
    if (!Number.isInteger(lb) || lb < 1) throw new BadRequestError(`lookback must be a positive integer, got ${lb}`);
    this.lookback = BigInt(lb);
    this.#maxRetained = options.maxRetained ?? DEFAULT_MAX_RETAINED;
    // Rule 1: a freshly started follower is paused at sync round 0.
    this.#syncRound = this.enabled ? (options.initialSyncRound ?? 0n) : undefined;
    this.#genesisTotals = ledger.latestRound === 0n ? ledger.supply() : undefined;
    // Deltas the ledger still holds for rounds committed before we started.
    const first = ledger.latestRound > this.lookback ? ledger.latestRound - this.lookback + 1n : 1n;
    for (let r = first; r <= ledger.latestRound; r++) {
      try {
        this.#remember(ledger.delta(r));
      } catch {
        // outside the ledger's own window: not available
      }
    }
    this.#unsubscribe = ledger.onBlock((e: BlockEvent) => this.#remember(e.delta));
  }

  close(): void {
    this.#unsubscribe();
  }

  get syncRound(): bigint | undefined {
    return this.#syncRound;
  }

  /** What the follower had fetched when its sync round last moved: it never un-fetches a block. */
  #fetchedFloor = 0n;

  /** The last round this node has "fetched": capped by the sync window on a paused follower. */
  get fetchedRound(): bigint {
    const latest = this.#ledger.latestRound;
    if (this.#syncRound === undefined) return latest;
    const cap = this.#syncRound + this.lookback - 1n;
    const capped = latest < cap ? latest : cap;
    return capped > this.#fetchedFloor ? capped : this.#fetchedFloor;
  }

  /** Rounds whose deltas can be read now: [first, last], or undefined when none. */
  window(): { first: bigint; last: bigint } | undefined {
    const last = this.fetchedRound;
    let first: bigint;
    if (this.#syncRound === undefined) first = last >= this.lookback ? last - this.lookback + 1n : 0n;
    else first = this.#syncRound;
    // Round 0 (genesis) has no delta.
    if (first < 1n) first = 1n;
    return first <= last ? { first, last } : undefined;
  }

  setSyncRound(round: bigint): void {
    if (!this.enabled) throw new NotFoundError(NOT_A_FOLLOWER);
    // As the node: the round where fetching stops (sync round + lookback) may not fall before the
    // last round already fetched, which it cannot un-fetch.
    const fetched = this.fetchedRound;
    if (round + this.lookback < fetched) throw new BadRequestError('failed to set sync round on the ledger');
    this.#fetchedFloor = fetched;
    this.#syncRound = round;
    this.#prune();
    this.onChange?.();
  }

  unsetSyncRound(): void {
    if (!this.enabled) throw new NotFoundError(NOT_A_FOLLOWER);
    this.#syncRound = undefined;
    this.#prune();
    this.onChange?.();
  }

  getSyncRound(): bigint {
    if (!this.enabled) throw new NotFoundError(NOT_A_FOLLOWER);
    if (this.#syncRound === undefined) throw new NotFoundError('failed retrieving sync round from ledger');
    return this.#syncRound;
  }

  delta(round: bigint): DeltaTree {
    // Rule 3 with R = 0: the window's first round is the genesis round, whose delta is empty.
    if (round === 0n && this.#syncRound === 0n) return this.#genesisDelta();
    const w = this.window();
    const held = this.#deltas.get(round);
    const d = held && (held.tree ??= buildStateDelta(held.delta, held.prevTimestamp));
    if (!w || round < w.first || round > w.last || d === undefined) {
      const why = !w
        ? `no deltas are available (latest fetched round ${this.fetchedRound})`
        : round < w.first
          ? `round ${round} before the window start ${w.first}`
          : round > w.last
            ? `round ${round} too high: the node holds rounds up to ${w.last}`
            : `round ${round} is no longer held`;
      throw new NotFoundError(`failed retrieving State Delta: ${why}`);
    }
    return d;
  }

  #genesisDelta(): DeltaTree {
    const block = this.#ledger.block(0n);
    const s = this.#genesisTotals ?? this.#ledger.supply();
    const totals = this.#genesisTotals ?? { totalMoney: s.totalMoney, onlineMoney: 0n, notParticipatingMoney: 0n };
    const empty: RoundDelta = { round: 0n, block, accounts: [], assetParams: [], appParams: [], holdings: [], locals: [], kv: [], txids: [], totals };
    return buildStateDelta(empty, block.header.timestamp);
  }

  #remember(delta: RoundDelta): void {
    const prev = delta.round > 0n ? this.#ledger.block(delta.round - 1n).header.timestamp : 0n;
    // A committed round's delta never changes (the ledger serves the same object later): the
    // tree can be built when asked for, with the previous block's time taken now.
    this.#deltas.set(delta.round, { delta, prevTimestamp: prev });
    this.#prune();
  }

  #prune(): void {
    // Kept: the rounds from the sync round on (the follower reads them next) and every round a
    // sync round may still be moved back to (round + lookback >= last fetched), whatever the sync
    // round, so a move the node accepts, or unsetting it, finds its deltas still there.
    const last = this.fetchedRound;
    const recent = last > this.lookback ? last - this.lookback : 0n;
    const keepFrom = this.#syncRound !== undefined && this.#syncRound < recent ? this.#syncRound : recent;
    for (const r of this.#deltas.keys()) if (r < keepFrom) this.#deltas.delete(r);
    // While paused the devnet may run far ahead; beyond the bound the newest are dropped, since
    // the follower reads the oldest first.
    while (this.#deltas.size > this.#maxRetained) {
      let newest = -1n;
      for (const r of this.#deltas.keys()) if (r > newest) newest = r;
      this.#deltas.delete(newest);
    }
  }
}
