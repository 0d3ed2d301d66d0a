// The txid/lease window: expiry by round (the fast path) leaves the same keys, in the same order,
// as scanning every bucket, and undoing brings back the same entries.
import { strict as assert } from 'node:assert';
import { RoundWindow } from '../../../sdk/src/ledger/window.js';

/** The window as it was written before expiry looked buckets up by round: the reference. */
class ScanWindow {
  readonly values = new Map<string, bigint>();
  readonly buckets = new Map<bigint, string[]>();
  undo: ((fn: () => void) => void) | undefined;
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
}

describe('RoundWindow', () => {
  it('expires, re-sets and undoes exactly as a full scan does (random runs, with rounds skipped)', () => {
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let run = 0; run < 40; run++) {
      const fast = new RoundWindow();
      const ref = new ScanWindow();
      const fastUndo: (() => void)[] = [];
      const refUndo: (() => void)[] = [];
      let round = 1n;
      for (let step = 0; step < 300; step++) {
        if (step === 100) {
          fast.undo = (fn) => fastUndo.push(fn);
          ref.undo = (fn) => refUndo.push(fn);
        }
        const op = rand(10);
        if (op < 6) {
          const key = `k${rand(40)}`;
          const lastValid = round + BigInt(rand(12));
          fast.set(key, lastValid);
          ref.set(key, lastValid);
        } else {
          // Mostly the next round; sometimes a jump (advanceRounds), sometimes the same round again.
          round += op === 9 ? BigInt(rand(200)) : op === 8 ? 0n : 1n;
          fast.expireBefore(round);
          ref.expireBefore(round);
        }
        assert.deepEqual(fast.entries(), [...ref.values.entries()], `run ${run} step ${step}`);
      }
      while (refUndo.length) {
        fastUndo.pop()!();
        refUndo.pop()!();
      }
      assert.deepEqual(fast.entries(), [...ref.values.entries()], `run ${run} after undo`);
      // Expiry after an undo still finds the restored buckets.
      fast.expireBefore(round + 20n);
      ref.expireBefore(round + 20n);
      assert.deepEqual(fast.entries(), [...ref.values.entries()], `run ${run} after undo and expiry`);
    }
  });
});
