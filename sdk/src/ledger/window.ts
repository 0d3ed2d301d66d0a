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
    for (const [r, keys] of this.buckets) {
      if (r >= round) continue;
      const gone = keys.filter((k) => this.values.get(k) === r);
      for (const k of gone) this.values.delete(k);
      this.buckets.delete(r);
      this.undo?.(() => {
        this.buckets.set(r, keys);
        for (const k of gone) this.values.set(k, r);
      });
    }
  }

  entries(): [string, bigint][] {
    return [...this.values.entries()];
  }

  clear(): void {
    this.values.clear();
    this.buckets.clear();
  }
}
