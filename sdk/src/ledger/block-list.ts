import { sha512_256 } from '../crypto/hash.js';
import { headerHash, type Block } from './block.js';
import { uint64ToBytes } from '../encoding/bytes.js';

/*
 * The chain's blocks by round. Real blocks are kept as committed; rounds skipped by a cheat
 * (`Ledger.advanceRounds`) are one "warp" record each, and their empty blocks are made up when
 * asked for, so skipping a million rounds costs the same as skipping one.
 */

/** Rounds `from..to` made up after `base`: empty blocks whose timestamps advance by `step` a round. */
interface Warp {
  from: bigint;
  to: bigint;
  base: Block;
  step: bigint;
  /** The chain's commitments of an empty block (its header scheme's). */
  root: EmptyCommitment;
  /** `prev512` of the made-up blocks (the base's SHA-512 header hash), on chains whose headers carry it. */
  prev512?: Uint8Array;
  /** The made-up block of round `to`, kept because the chain asks for its latest block often. */
  last?: Block;
}

/** The transaction commitments of a block without transactions, in the chain's header scheme. */
export interface EmptyCommitment {
  root: Uint8Array;
  root256: Uint8Array;
  root512?: Uint8Array;
}

/** Blocks by round, with cheap runs of made-up empty rounds (see `warp`). */
export class BlockList {
  readonly #real = new Map<bigint, Block>();
  /** Rounds replayed from the journal but not decoded yet: decoded on first read (see pushLazy). */
  readonly #lazy = new Map<bigint, () => Block>();
  readonly #realRounds: bigint[] = [];
  readonly #warps: Warp[] = [];
  #latest = -1n;

  /** The latest round (-1n when empty). */
  get latestRound(): bigint {
    return this.#latest;
  }

  /** The block of `round`, made up when the round was skipped by a warp; undefined past the end. */
  get(round: bigint): Block | undefined {
    if (round < 0n || round > this.#latest) return undefined;
    const real = this.#real.get(round);
    if (real) return real;
    const load = this.#lazy.get(round);
    if (load) {
      const block = load();
      this.#lazy.delete(round);
      this.#real.set(round, block);
      return block;
    }
    const w = this.#warpOf(round);
    return w ? this.#synth(w, round) : undefined;
  }

  /** The round of the latest real (committed or journal-replayed) block, or undefined before any. */
  get lastRealRound(): bigint | undefined {
    return this.#realRounds[this.#realRounds.length - 1];
  }

  get latest(): Block {
    return this.get(this.#latest)!;
  }

  push(block: Block): void {
    this.#real.set(block.header.round, block);
    this.#realRounds.push(block.header.round);
    this.#latest = block.header.round;
  }

  /**
   * Adds the block of `round` without decoding it: `load` runs on the first read. A devnet start
   * replays thousands of journal rounds the snapshot already covers; most are never read.
   */
  pushLazy(round: bigint, load: () => Block): void {
    this.#lazy.set(round, load);
    this.#realRounds.push(round);
    this.#latest = round;
  }

  /**
   * Adds `n` made-up empty rounds after the latest block (each `step` seconds after the one
   * before, committing to no transactions with `root`, and `prev512` when the chain's headers carry
   * it); returns the new latest block.
   */
  warp(n: bigint, step: bigint, root: EmptyCommitment, prev512?: (base: Block) => Uint8Array): Block {
    const base = this.latest;
    const w: Warp = { from: this.#latest + 1n, to: this.#latest + n, base, step, root, ...(prev512 ? { prev512: prev512(base) } : {}) };
    this.#warps.push(w);
    this.#latest = w.to;
    return this.latest;
  }

  /** Drops every round after `round`; returns the real blocks dropped (their transactions leave the index). */
  truncate(round: bigint): Block[] {
    const dropped: Block[] = [];
    while (this.#realRounds.length && this.#realRounds[this.#realRounds.length - 1]! > round) {
      const r = this.#realRounds.pop()!;
      dropped.push(this.get(r)!);
      this.#real.delete(r);
    }
    while (this.#warps.length) {
      const w = this.#warps[this.#warps.length - 1]!;
      if (w.from > round) this.#warps.pop();
      else {
        if (w.to > round) {
          w.to = round;
          delete w.last;
        }
        break;
      }
    }
    if (this.#latest > round) this.#latest = round;
    return dropped;
  }

  clear(): void {
    this.#real.clear();
    this.#lazy.clear();
    this.#realRounds.length = 0;
    this.#warps.length = 0;
    this.#latest = -1n;
  }

  #warpOf(round: bigint): Warp | undefined {
    const ws = this.#warps;
    let lo = 0;
    let hi = ws.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const w = ws[mid]!;
      if (round < w.from) hi = mid - 1;
      else if (round > w.to) lo = mid + 1;
      else return w;
    }
    return undefined;
  }

  #synth(w: Warp, round: bigint): Block {
    if (round === w.to && w.last) return w.last;
    const b = w.base.header;
    // The made-up blocks all point back at the last real block before the warp (chaining them
    // one by one would cost a hash per skipped round); their seeds still differ per round.
    const header = {
      ...b,
      round,
      prev: w.base.hash,
      ...(w.prev512 ? { prev512: w.prev512 } : {}),
      seed: sha512_256(new Uint8Array([...b.seed, ...uint64ToBytes(round)])),
      txnRoot: w.root.root,
      txnRoot256: w.root.root256,
      ...(w.root.root512 ? { txnRoot512: w.root.root512 } : {}),
      timestamp: b.timestamp + w.step * (round - w.from + 1n),
      feesCollected: 0n,
    };
    const block: Block = { header, txns: [], hash: headerHash(header) };
    if (round === w.to) w.last = block;
    return block;
  }
}
