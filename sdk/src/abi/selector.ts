/**
 * ARC-4 selectors: the first four bytes of SHA-512/256 of a method (or event) signature, kept as
 * a big-endian uint32 until someone asks for bytes, and the cache of them.
 *
 * What the cache is for: app clients, the editor and workflows name the same few methods over
 * and over by their signature text, and hashing is most of what a selector costs. What it must
 * not do is charge code that sees each signature once (a contract's methods listed once, tools
 * walking many specs): a Map insert per signature, and entries that live long enough to be
 * promoted and then collected as old garbage. So the cache is looked at, and filled, only for a
 * signature asked for before: first requests are remembered in a fixed bit table (a
 * "doorkeeper": one bit per bucket of a cheap hash, emptied every {@link DOORKEEPER_RESET} new
 * bits), which costs a few character reads and no allocation. A cached signature whose bit was
 * emptied is hashed once more before the cache answers for it again.
 *
 * Internal: not exported from the package (`method.ts` and `events.ts` build on it).
 */
import { sha512_256Utf8 } from '../crypto/hash.js';
import { nativeDigestWord } from '../encoding/native-hash.js';
import { Doorkeeper, fnv } from './doorkeeper.js';

/** Most signatures the cache holds; a full cache starts again empty. */
export const SELECTOR_CACHE_LIMIT = 4096;
/** First misses the doorkeeper remembers before it is emptied. */
export const DOORKEEPER_RESET = 4096;
/** Buckets in the doorkeeper (bits; a power of two, 16 times {@link DOORKEEPER_RESET} so few signatures share one). */
const DOORKEEPER_BITS = 1 << 16;

const cache = new Map<string, number>();
const doorkeeper = new Doorkeeper(DOORKEEPER_BITS, DOORKEEPER_RESET);

/** sha512_256(signature)[0:4] as a big-endian uint32, never cached. */
function hashSelector(signature: string): number {
  const native = nativeDigestWord('sha512-256', signature);
  if (native !== undefined) return native;
  const d = sha512_256Utf8(signature);
  return ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
}

/**
 * The doorkeeper's bucket for `signature`: a hash of its length, the last sixteen characters of
 * the method's name (usually all of it: the name is what tells most signatures apart) and four
 * more (the middle and the end). Reading every character, as hashing the text for a Map lookup
 * does, costs more than the whole selector saves when the signature is new; signatures that
 * share a bucket only get cached a little early.
 */
function bucket(signature: string): number {
  const n = signature.length;
  const open = signature.indexOf('(');
  const nameEnd = open < 0 ? n : open;
  let h = fnv(0x811c9dc5, n);
  for (let i = nameEnd > 16 ? nameEnd - 16 : 0; i < nameEnd; i++) h = fnv(h, signature.charCodeAt(i));
  if (n >= 4) {
    h = fnv(h, signature.charCodeAt(n >>> 1));
    h = fnv(h, signature.charCodeAt((n + nameEnd) >>> 1));
    h = fnv(h, signature.charCodeAt(n - 2));
    h = fnv(h, signature.charCodeAt(n - 1));
  }
  return h ^ (h >>> 15);
}

/** The selector of `signature` as a big-endian uint32 (cached from its second request on). */
export function selectorWord(signature: string): number {
  // First request since the doorkeeper was emptied: hash, remember the bucket, cache nothing.
  if (!doorkeeper.seen(bucket(signature))) return hashSelector(signature);
  const hit = cache.get(signature);
  if (hit !== undefined) return hit;
  const selector = hashSelector(signature);
  if (cache.size >= SELECTOR_CACHE_LIMIT) cache.clear();
  cache.set(signature, selector);
  return selector;
}

/** A selector word as 4 fresh bytes (big-endian). */
export function selectorBytes(word: number): Uint8Array {
  const out = new Uint8Array(4);
  out[0] = word >>> 24;
  out[1] = word >>> 16;
  out[2] = word >>> 8;
  out[3] = word;
  return out;
}

/** A selector word as 8 lowercase hex digits. */
export function selectorHexOf(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** For tests: how many signatures the cache holds, and whether it holds `signature`. */
export function selectorCacheState(signature?: string): { size: number; has: boolean } {
  return { size: cache.size, has: signature !== undefined && cache.has(signature) };
}

/** For tests: empties the cache and the doorkeeper. */
export function resetSelectorCache(): void {
  cache.clear();
  doorkeeper.clear();
}
