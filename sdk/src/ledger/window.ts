/** Read side of a keyed round map (txids or leases → last valid round). */
export interface RoundLookup {
  get(key: string): bigint | undefined;
  has(key: string): boolean;
}

/** Writes made while evaluating, on top of a base; kept apart until the caller merges them. */
export class RoundOverlay implements RoundLookup {
  readonly added = new Map<string, bigint>();
  constructor(private readonly base: RoundLookup) {}
  get(key: string): bigint | undefined {
    const v = this.added.get(key);
    return v !== undefined ? v : this.base.get(key);
  }
  has(key: string): boolean {
    return this.added.has(key) || this.base.has(key);
  }
  set(key: string, lastValid: bigint): void {
    this.added.set(key, lastValid);
  }
}

/**
 * Keys remembered until their last valid round passes (recent txids for duplicate detection,
 * leases). Expiry is bucketed by round, so each block only touches what expires at it.
 */
export class RoundWindow implements RoundLookup {
  private readonly values = new Map<string, bigint>();
  private readonly buckets = new Map<bigint, string[]>();
  /** No bucket's round is below this (a lower bound, not always the least round): lets expiry skip the scan. */
  private floor: bigint | undefined;
  /** When set, receives how to undo each change (the ledger's snapshots). */
  undo: ((fn: () => void) => void) | undefined;

  get(key: string): bigint | undefined {
    return this.values.get(key);
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
  get size(): number {
    return this.values.size;
  }

  set(key: string, lastValid: bigint): void {
    const old = this.values.get(key);
    this.values.set(key, lastValid);
    let b = this.buckets.get(lastValid);
    const created = !b;
    if (!b) this.buckets.set(lastValid, (b = []));
    b.push(key);
    if (this.floor === undefined || lastValid < this.floor) this.floor = lastValid;
    if (this.undo) {
      const bucket = b;
      this.undo(() => {
        if (created) this.buckets.delete(lastValid);
        else bucket.pop();
        if (old === undefined) this.values.delete(key);
        else this.values.set(key, old);
      });
    }
  }

  merge(from: RoundOverlay): void {
    for (const [k, v] of from.added) this.set(k, v);
  }

  /** Forgets everything whose last valid round is before `round`. */
  expireBefore(round: bigint): void {
    if (this.floor !== undefined && round <= this.floor) return;
    // Usually only one round's bucket expires per block: find it by round instead of scanning
    // every bucket. When more than one does, the scan below runs so that the order in which
    // buckets go (and come back on undo) is the buckets' own order, as before.
    if (this.floor !== undefined && round - this.floor <= 64n) {
      let found: bigint | undefined;
      let count = 0;
      for (let r = this.floor; r < round; r++) {
        if (this.buckets.has(r)) {
          found = r;
          count++;
        }
      }
      if (count === 0) {
        this.floor = round;
        return;
      }
      if (count === 1) {
        this.#expireBucket(found!, this.buckets.get(found!)!);
        this.floor = round;
        return;
      }
    }
    for (const [r, keys] of this.buckets) {
      if (r >= round) continue;
      this.#expireBucket(r, keys);
    }
    this.floor = round;
  }

  #expireBucket(r: bigint, keys: string[]): void {
    const gone = keys.filter((k) => this.values.get(k) === r);
    for (const k of gone) this.values.delete(k);
    this.buckets.delete(r);
    this.undo?.(() => {
      this.buckets.set(r, keys);
      if (this.floor !== undefined && r < this.floor) this.floor = r;
      for (const k of gone) this.values.set(k, r);
    });
  }

  entries(): [string, bigint][] {
    return [...this.values.entries()];
  }

  clear(): void {
    this.values.clear();
    this.buckets.clear();
    this.floor = undefined;
  }
}
