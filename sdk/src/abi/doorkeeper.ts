/**
 * A "doorkeeper" in front of a cache: a fixed bit table that remembers which keys were asked for
 * once, so a cache is filled only from a key's second request. Code that sees each key once then
 * costs no Map insert and leaves no cached entries to be promoted and collected as old garbage.
 * Keys are bucketed by a cheap hash the caller picks; keys sharing a bucket are only cached a
 * request early, never answered wrongly. The table empties itself every `reset` new bits.
 *
 * Internal to the ABI layer (the selector and type caches).
 */
export class Doorkeeper {
  readonly #bits: Int32Array;
  readonly #mask: number;
  readonly #reset: number;
  #remembered = 0;

  /** `bits`: buckets, a power of two; `reset`: first sightings remembered before the table is emptied. */
  constructor(bits: number, reset: number) {
    this.#bits = new Int32Array(bits >>> 5);
    this.#mask = bits - 1;
    this.#reset = reset;
  }

  /** Whether `hash`'s bucket was seen before (since the last emptying); it is remembered either way. */
  seen(hash: number): boolean {
    const b = hash & this.#mask;
    const word = b >>> 5;
    const bit = 1 << (b & 31);
    const bits = this.#bits[word]!;
    if ((bits & bit) !== 0) return true;
    this.#bits[word] = bits | bit;
    if (++this.#remembered >= this.#reset) this.clear();
    return false;
  }

  /** Forgets every sighting. */
  clear(): void {
    this.#bits.fill(0);
    this.#remembered = 0;
  }
}

/** FNV-1a step over one character code. */
export function fnv(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}
