/**
 * A fast path for decoding msgpack in Map mode (`decodeMsgpack(bytes, { maps: true })`), the
 * mode node responses (blocks, state deltas, group deltas) are read in.
 *
 * Profiling msgpackr's Map mode on recorded responses showed most time in allocation: every map
 * key is a fresh string (its key cache only serves object mode). Node responses repeat a few
 * dozen short keys, and some short values, thousands of times, so here strings of up to 31 bytes
 * are interned in a small cache keyed by their bytes, bins are views made with the Uint8Array
 * constructor (cheaper than subarray), and everything is read in one recursive pass.
 *
 * Once that was done, about half of the remaining time is `Map` creation and `set` (msgpackr and
 * algosdk pay the same), so the rest is kept lean: the interning cache is looked up by a hash of
 * a string's first and last four bytes and compared four bytes at a time; map keys that are
 * fixstr go straight to the cache; positive fixints and bin 8 are read without the full type
 * dispatch; the decoder's state lives in `var`s (module `let`s are checked for the temporal dead
 * zone on every access).
 *
 * It answers only for input it is sure about, and returns {@link FALLBACK} otherwise: extension
 * types, the never-used byte 0xc1, truncated or trailing data, implausible lengths, or anything
 * that throws. The caller then decodes the same bytes with msgpackr, so results and error messages for such input are msgpackr's exactly. For the input
 * it does accept, its value equals msgpackr's (`useRecords: false`, `mapsAsObjects: false`,
 * `int64AsType: 'bigint'`): nil → null, ints → number except the 64-bit forms → bigint, float32
 * and float64 → number, str → string, bin → a subarray of the input, array → Array, map → Map.
 */

/** Returned when the fast path declines the input; the caller decodes with msgpackr instead. */
export const FALLBACK: unique symbol = Symbol('msgpack fast path declined');

/** Thrown internally to abandon the fast path. */
class Decline {}
const DECLINE = new Decline();

// Decoder state. `var`, not `let`: module-level `let` bindings are checked for the temporal dead
// zone on every access in the hot loops below, and these are read per byte.
/* eslint-disable no-var */
var src: Uint8Array = new Uint8Array(0);
var view: DataView = new DataView(src.buffer);
var buffer: ArrayBufferLike = src.buffer;
var base = 0;
var pos = 0;
var end = 0;
/** Array and map entries still allowed: each needs at least one byte of input (as msgpackr checks). */
var budget = 0;
/* eslint-enable no-var */

// Interned short strings (at most 31 bytes): slot → (length, bytes, string).
const KEY_MAX = 31;
const SLOTS = 4096;
const SLOT_SHIFT = 20;
const slotLength = new Int8Array(SLOTS).fill(-1);
/** Each slot's bytes as 8 little-endian 32-bit words, the last partial one zero-padded. */
const slotWords = new Int32Array(SLOTS * 8);
const slotString: string[] = new Array<string>(SLOTS).fill('');
/** Masks keeping the first 0–3 bytes of a little-endian word (0: the whole word). */
const TAIL_MASK = new Int32Array([-1, 0xff, 0xffff, 0xffffff]);

/**
 * Non-ASCII str: WHATWG UTF-8 decoding, invalid sequences replaced by U+FFFD and a leading BOM
 * kept. Go `string` fields holding arbitrary bytes (TEAL keys in state deltas) are str on the
 * wire, so invalid UTF-8 is routine; this is what msgpackr's native string extraction gives under
 * Node (the tests cross-check it on random bytes).
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes exactly one value from `bytes` (which must be a plain Uint8Array: bins are its
 * subarrays), or returns {@link FALLBACK}.
 */
export function fastDecodeMaps(bytes: Uint8Array): unknown {
  src = bytes;
  view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  buffer = bytes.buffer;
  base = bytes.byteOffset;
  pos = 0;
  end = bytes.length;
  budget = end;
  try {
    const value = read();
    if (pos !== end) return FALLBACK;
    return value;
  } catch {
    return FALLBACK;
  } finally {
    // Drop the reference to the caller's bytes.
    src = EMPTY;
    view = EMPTY_VIEW;
    buffer = EMPTY.buffer;
  }
}

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer);

/** Reads one value; the commonest kinds are tested first. */
function read(): unknown {
  if (pos >= end) throw DECLINE;
  const t = src[pos++]!;
  if (t < 0x80) return t;
  if (t >= 0xa0) {
    if (t < 0xc0) return readShortStr(t & 0x1f);
    if (t >= 0xe0) return t - 0x100;
    if (t === 0xc4) {
      // bin 8: hashes, addresses, keys, signatures.
      if (pos >= end) throw DECLINE;
      const n = src[pos]!;
      if (n >= end - pos) throw DECLINE;
      pos += n + 1;
      return new Uint8Array(buffer, base + pos - n, n);
    }
    return readOther(t);
  }
  if (t < 0x90) return readMap(t & 0x0f);
  return readArray(t & 0x0f);
}

/** The remaining type bytes (0xc0–0xdf). */
function readOther(t: number): unknown {
  let n: number;
  switch (t) {
    case 0xc0:
      return null;
    case 0xc2:
      return false;
    case 0xc3:
      return true;
    case 0xc5:
      need(2);
      n = view.getUint16(pos);
      pos += 2;
      return readBin(n);
    case 0xc6:
      need(4);
      n = view.getUint32(pos);
      pos += 4;
      return readBin(n);
    case 0xca:
      need(4);
      pos += 4;
      return view.getFloat32(pos - 4);
    case 0xcb:
      need(8);
      pos += 8;
      return view.getFloat64(pos - 8);
    case 0xcc:
      need(1);
      return src[pos++]!;
    case 0xcd:
      need(2);
      pos += 2;
      return view.getUint16(pos - 2);
    case 0xce:
      need(4);
      pos += 4;
      return view.getUint32(pos - 4);
    case 0xcf:
      need(8);
      pos += 8;
      return view.getBigUint64(pos - 8);
    case 0xd0:
      need(1);
      pos += 1;
      return view.getInt8(pos - 1);
    case 0xd1:
      need(2);
      pos += 2;
      return view.getInt16(pos - 2);
    case 0xd2:
      need(4);
      pos += 4;
      return view.getInt32(pos - 4);
    case 0xd3:
      need(8);
      pos += 8;
      return view.getBigInt64(pos - 8);
    case 0xd9:
      need(1);
      n = src[pos++]!;
      return n <= KEY_MAX ? readShortStr(n) : readStr(n);
    case 0xda:
      need(2);
      n = view.getUint16(pos);
      pos += 2;
      return readStr(n);
    case 0xdb:
      need(4);
      n = view.getUint32(pos);
      pos += 4;
      return readStr(n);
    case 0xdc:
      need(2);
      n = view.getUint16(pos);
      pos += 2;
      return readArray(n);
    case 0xdd:
      need(4);
      n = view.getUint32(pos);
      pos += 4;
      return readArray(n);
    case 0xde:
      need(2);
      n = view.getUint16(pos);
      pos += 2;
      return readMap(n);
    case 0xdf:
      need(4);
      n = view.getUint32(pos);
      pos += 4;
      return readMap(n);
    default:
      // 0xc1 (never used) and the extension types: msgpackr's own handling applies.
      throw DECLINE;
  }
}

function need(n: number): void {
  if (n > end - pos) throw DECLINE;
}

function readBin(n: number): Uint8Array {
  need(n);
  pos += n;
  // What src.subarray gives for a plain Uint8Array, without the species lookup (measured ~1.6×).
  return new Uint8Array(buffer, base + pos - n, n);
}

function readArray(n: number): unknown[] {
  if (n > end - pos || (budget -= n) < 0) throw DECLINE;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const v = src[pos]!;
    if (v < 0x80) {
      pos++;
      out[i] = v;
    } else out[i] = read();
  }
  return out;
}

function readMap(n: number): Map<unknown, unknown> {
  if (n > (end - pos) / 2 || (budget -= n) < 0) throw DECLINE;
  const out = new Map<unknown, unknown>();
  for (let i = 0; i < n; i++) {
    // Keys are nearly always fixstr: straight to the interning cache, without the dispatch.
    const t = src[pos]!;
    let key: unknown;
    if ((t & 0xe0) === 0xa0) {
      pos++;
      key = readShortStr(t & 0x1f);
    } else key = read();
    // Positive fixints (flags, counts, small amounts) are the commonest values.
    const v = src[pos]!;
    if (v < 0x80) {
      pos++;
      out.set(key, v);
    } else out.set(key, read());
  }
  return out;
}

/**
 * Short strings (keys, and repeated values such as types and ids) go through the interning cache:
 * one comparison of their bytes instead of a new string.
 */
function readShortStr(n: number): string {
  const start = pos;
  if (n > end - start) throw DECLINE;
  // Slot from the length and the first and last four bytes (fewer bytes let the keys of one
  // response evict each other); the bytes are then compared.
  const slot =
    n >= 4
      ? (Math.imul(view.getInt32(start, true) ^ n, 0x9e3779b1) ^ Math.imul(view.getInt32(start + n - 4, true), 0x85ebca6b)) >>> SLOT_SHIFT
      : n === 0
        ? 0
        : (n * 0x9e5 + src[start]! * 0x3b + src[start + (n >> 1)]! * 7 + src[start + n - 1]!) & (SLOTS - 1);
  if (slotLength[slot] === n && sameBytes(start, n, slot << 3)) {
    pos = start + n;
    return slotString[slot]!;
  }
  const text = readStr(n);
  slotLength[slot] = n;
  // The words of the new entry (bytes past the string read as zero).
  for (let w = 0, at = start; w < 8; w++, at += 4) {
    let word = 0;
    for (let b = 0; b < 4; b++) if (at + b < start + n) word |= src[at + b]! << (8 * b);
    slotWords[(slot << 3) + w] = word;
  }
  slotString[slot] = text;
  return text;
}

/**
 * Whether the n bytes at `start` are those stored at word index `w`: four bytes per comparison,
 * read through the DataView (the input has no alignment). Near the end of the input, where the
 * last word would read past it, byte by byte.
 */
function sameBytes(start: number, n: number, w: number): boolean {
  const full = n >> 2;
  const tail = n & 3;
  let at = start;
  for (let k = 0; k < full; k++, at += 4, w++) if (view.getInt32(at, true) !== slotWords[w]) return false;
  if (tail === 0) return true;
  if (at + 4 <= end) return (view.getInt32(at, true) & TAIL_MASK[tail]!) === slotWords[w];
  let word = 0;
  for (let b = 0; b < tail; b++) word |= src[at + b]! << (8 * b);
  return word === slotWords[w];
}

const fromCharCode = String.fromCharCode;
const SHORT_TEXT = 32;

function readStr(n: number): string {
  need(n);
  const start = pos;
  if (n <= SHORT_TEXT) {
    // Short ASCII text: building the string directly beats a TextDecoder call's set-up.
    const codes = new Array<number>(n);
    let high = 0;
    for (let i = 0; i < n; i++) high |= codes[i] = src[start + i]!;
    if (high < 0x80) {
      pos += n;
      return fromCharCode(...codes);
    }
  }
  pos += n;
  return utf8.decode(src.subarray(start, pos));
}
