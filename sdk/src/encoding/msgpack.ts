import { Unpackr } from 'msgpackr';
import { DecodeError, ValidationError } from '../errors.js';
import { compareBytes } from './bytes.js';
import { FALLBACK, fastDecodeMaps } from './msgpack-fast-decode.js';

/**
 * Canonical msgpack as the chain hashes it (protocol.md §3.1).
 *
 * Encoding is our own writer rather than msgpackr's packer: msgpackr writes bigints below 2^63 as
 * signed int64 (`d3`) and integral numbers above 2^32 as float64, and no option changes that, so
 * its output could never be canonical for amounts and rounds. Decoding uses msgpackr, which
 * accepts every valid encoding and is fast.
 */

/** Values the canonical encoder accepts. Plain objects and Maps are msgpack maps. */
export type MsgpackValue =
  | undefined
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly MsgpackValue[]
  | MsgpackMap
  | ReadonlyMap<MapKey, MsgpackValue>
  | MsgStr
  | MsgKeep;

/**
 * Bytes written as msgpack `str` instead of `bin`: Go `string` fields that hold arbitrary bytes
 * (TEAL keys and logs in ApplyData) are str on the wire, UTF-8 or not. Omitted like "" when empty.
 */
export class MsgStr {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * A map value written even when it is zero. Transaction and block encodings never use it; node
 * responses do, for fields the node always emits (`pool-error: ""`).
 */
export class MsgKeep {
  constructor(readonly value: MsgpackValue) {}
}

/** Map keys the encoder accepts: protocol maps use strings, uints (`ld`) and byte strings (txids). */
export type MapKey = string | number | bigint | Uint8Array | MsgStr;

/** A msgpack map with string keys. */
export interface MsgpackMap {
  readonly [key: string]: MsgpackValue;
}

/** A value that has no canonical msgpack encoding (unsupported type, unsafe number). */
export class MsgpackEncodeError extends ValidationError {}

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The encoder writes into one reusable scratch buffer (encoding is synchronous and never
 * re-entered), so a typical transaction costs a single allocation: the final copy.
 */
let buf = new Uint8Array(8192);
let view = new DataView(buf.buffer);
let pos = 0;

function ensure(extra: number): void {
  const need = pos + extra;
  if (need <= buf.length) return;
  let size = buf.length * 2;
  while (size < need) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, pos));
  buf = next;
  view = new DataView(buf.buffer);
}

function writeUint(value: number): void {
  ensure(9);
  if (value < 0x80) {
    buf[pos++] = value;
  } else if (value < 0x100) {
    buf[pos++] = 0xcc;
    buf[pos++] = value;
  } else if (value < 0x10000) {
    buf[pos++] = 0xcd;
    buf[pos++] = value >>> 8;
    buf[pos++] = value & 0xff;
  } else if (value < 0x100000000) {
    buf[pos++] = 0xce;
    view.setUint32(pos, value);
    pos += 4;
  } else {
    buf[pos++] = 0xcf;
    view.setUint32(pos, Math.floor(value / 0x100000000));
    view.setUint32(pos + 4, value >>> 0);
    pos += 8;
  }
}

function writeNegative(value: number): void {
  ensure(9);
  if (value >= -0x20) {
    buf[pos++] = value & 0xff;
  } else if (value >= -0x80) {
    buf[pos++] = 0xd0;
    view.setInt8(pos++, value);
  } else if (value >= -0x8000) {
    buf[pos++] = 0xd1;
    view.setInt16(pos, value);
    pos += 2;
  } else if (value >= -0x80000000) {
    buf[pos++] = 0xd2;
    view.setInt32(pos, value);
    pos += 4;
  } else {
    buf[pos++] = 0xd3;
    view.setBigInt64(pos, BigInt(value));
    pos += 8;
  }
}

function writeNumber(value: number): void {
  if (!Number.isInteger(value)) throw new MsgpackEncodeError(`canonical msgpack has no floats; got ${value}`);
  if (value >= 0) {
    if (value > Number.MAX_SAFE_INTEGER) throw new MsgpackEncodeError(`integer ${value} is beyond 2^53; pass it as a bigint`);
    writeUint(value);
  } else {
    if (value < Number.MIN_SAFE_INTEGER) throw new MsgpackEncodeError(`integer ${value} is beyond -2^53; pass it as a bigint`);
    writeNegative(value);
  }
}

function writeBigint(value: bigint): void {
  if (value >= 0n) {
    if (value > UINT64_MAX) throw new MsgpackEncodeError(`integer ${value} does not fit in uint64`);
    if (value < 0x100000000n) {
      writeUint(Number(value));
    } else {
      ensure(9);
      buf[pos++] = 0xcf;
      view.setBigUint64(pos, value);
      pos += 8;
    }
  } else {
    if (value < INT64_MIN) throw new MsgpackEncodeError(`integer ${value} does not fit in int64`);
    if (value >= -0x80000000n) writeNegative(Number(value));
    else {
      ensure(9);
      buf[pos++] = 0xd3;
      view.setBigInt64(pos, value);
      pos += 8;
    }
  }
}

const textEncoder = new TextEncoder();

/** The 16- and 32-bit big-endian length forms that str, bin, array and map headers share. */
function writeWideLength(code16: number, code32: number, length: number): void {
  if (length < 0x10000) {
    buf[pos++] = code16;
    buf[pos++] = length >>> 8;
    buf[pos++] = length & 0xff;
  } else {
    buf[pos++] = code32;
    view.setUint32(pos, length);
    pos += 4;
  }
}

function writeStrHeader(length: number): void {
  if (length < 32) buf[pos++] = 0xa0 | length;
  else if (length < 0x100) {
    buf[pos++] = 0xd9;
    buf[pos++] = length;
  } else writeWideLength(0xda, 0xdb, length);
}

function writeString(value: string): void {
  const n = value.length;
  // ASCII fast path: most protocol strings ("pay", genesis ids, asset names) are short ASCII.
  if (n < 32) {
    ensure(1 + n);
    const start = pos;
    pos++;
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      buf[pos++] = c;
    }
    if (ascii) {
      buf[start] = 0xa0 | n;
      return;
    }
    pos = start;
  }
  const bytes = textEncoder.encode(value);
  ensure(5 + bytes.length);
  writeStrHeader(bytes.length);
  buf.set(bytes, pos);
  pos += bytes.length;
}

function writeBin(value: Uint8Array): void {
  const n = value.length;
  ensure(5 + n);
  if (n < 0x100) {
    buf[pos++] = 0xc4;
    buf[pos++] = n;
  } else writeWideLength(0xc5, 0xc6, n);
  if (n < 32) for (let i = 0; i < n; i++) buf[pos++] = value[i]!;
  else {
    buf.set(value, pos);
    pos += n;
  }
}

function writeArrayHeader(length: number): void {
  ensure(5);
  if (length < 16) buf[pos++] = 0x90 | length;
  else writeWideLength(0xdc, 0xdd, length);
}

/** Encoded key bytes (str header + UTF-8), cached: protocol maps reuse a few hundred short keys. */
const keyCache = new Map<string, Uint8Array>();

function writeKey(key: string): void {
  let bytes = keyCache.get(key);
  if (bytes === undefined) {
    const saved = pos;
    writeString(key);
    bytes = buf.slice(saved, pos);
    pos = saved;
    if (keyCache.size < 4096) keyCache.set(key, bytes);
  }
  ensure(bytes.length);
  for (let i = 0; i < bytes.length; i++) buf[pos++] = bytes[i]!;
}

const utf8KeyOrder = (a: string, b: string): number => compareBytes(textEncoder.encode(a), textEncoder.encode(b));

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Keys in bytewise UTF-8 order. For ASCII keys JS string order already is bytewise order. */
function sortedKeys(keys: string[]): string[] {
  let sorted = true;
  let ascii = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (ascii && !isAscii(k)) ascii = false;
    if (i > 0 && keys[i - 1]! >= k) sorted = false;
  }
  if (sorted && ascii) return keys;
  return ascii ? keys.sort() : keys.sort(utf8KeyOrder);
}

/** Writes a map value, omitting empty entries; returns the number of entries written. */
function writeMapEntries(keys: readonly MapKey[], lookup: (k: MapKey) => MsgpackValue): number {
  ensure(3);
  const headerAt = pos;
  pos += 1; // assume a fixmap header, shift later if the count turns out larger
  let count = 0;
  for (const key of keys) {
    const value = lookup(key);
    if (isTriviallyEmpty(value)) continue;
    const entryStart = pos;
    if (typeof key === 'string') writeKey(key);
    else writeValue(key as MsgpackValue, false);
    if (writeValue(value, true)) count++;
    else pos = entryStart; // the value was an all-empty map: drop the whole entry
  }
  if (count < 16) {
    buf[headerAt] = 0x80 | count;
  } else {
    const extra = count < 0x10000 ? 2 : 4;
    ensure(extra);
    buf.copyWithin(headerAt + 1 + extra, headerAt + 1, pos);
    const end = pos + extra;
    pos = headerAt;
    writeWideLength(0xde, 0xdf, count);
    pos = end;
  }
  return count;
}

function isTriviallyEmpty(value: MsgpackValue): boolean {
  switch (typeof value) {
    case 'undefined':
      return true;
    case 'number':
      return value === 0;
    case 'bigint':
      return value === 0n;
    case 'string':
      return value.length === 0;
    case 'boolean':
      return !value;
    case 'object':
      if (value === null) return true;
      if (value instanceof Uint8Array || Array.isArray(value)) return (value as ArrayLike<unknown>).length === 0;
      if (value instanceof MsgStr) return value.bytes.length === 0;
      return false;
    default:
      return false;
  }
}

function keyRank(k: MapKey): number {
  return typeof k === 'number' || typeof k === 'bigint' ? 0 : typeof k === 'string' || k instanceof MsgStr ? 1 : 2;
}

const strKeyBytes = (k: MapKey): Uint8Array => (k instanceof MsgStr ? k.bytes : textEncoder.encode(k as string));

/**
 * Canonical key order: integers numerically, strings and byte strings bytewise (go-codec's
 * canonical mode). Mixed kinds never occur in protocol maps; they are ordered by kind.
 */
function compareMapKeys(a: MapKey, b: MapKey): number {
  const ra = keyRank(a);
  const rb = keyRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return a < b ? -1 : a > b ? 1 : 0;
  if (ra === 1) return typeof a === 'string' && typeof b === 'string' ? utf8KeyOrder(a, b) : compareBytes(strKeyBytes(a), strKeyBytes(b));
  return compareBytes(a as Uint8Array, b as Uint8Array);
}

/**
 * Writes one value. Returns false only when `inMap` and the value is a map that ended up with no
 * entries, so the caller can drop the key too (recursive zero omission).
 */
function writeValue(value: MsgpackValue, inMap: boolean): boolean {
  switch (typeof value) {
    case 'number':
      writeNumber(value);
      return true;
    case 'bigint':
      writeBigint(value);
      return true;
    case 'string':
      writeString(value);
      return true;
    case 'boolean':
      ensure(1);
      buf[pos++] = value ? 0xc3 : 0xc2;
      return true;
    case 'undefined':
      ensure(1);
      buf[pos++] = 0xc0;
      return true;
    case 'object': {
      if (value === null) {
        ensure(1);
        buf[pos++] = 0xc0;
        return true;
      }
      if (value instanceof Uint8Array) {
        writeBin(value);
        return true;
      }
      if (value instanceof MsgStr) {
        const n = value.bytes.length;
        ensure(5 + n);
        writeStrHeader(n);
        buf.set(value.bytes, pos);
        pos += n;
        return true;
      }
      if (value instanceof MsgKeep) {
        writeValue(value.value, false);
        return true;
      }
      if (Array.isArray(value)) {
        const arr = value as readonly MsgpackValue[];
        writeArrayHeader(arr.length);
        for (let i = 0; i < arr.length; i++) writeValue(arr[i], false);
        return true;
      }
      let count: number;
      if (value instanceof Map) {
        const map = value as ReadonlyMap<MapKey, MsgpackValue>;
        const keys = [...map.keys()].sort(compareMapKeys);
        count = writeMapEntries(keys, (k) => map.get(k));
      } else {
        const obj = value as MsgpackMap;
        const keys = sortedKeys(Object.keys(obj));
        count = writeMapEntries(keys, (k) => obj[k as string]);
      }
      return count > 0 || !inMap;
    }
    default:
      throw new MsgpackEncodeError(`cannot encode a ${typeof value} as msgpack`);
  }
}

function finish(start: number): Uint8Array {
  const out = buf.slice(start, pos);
  pos = 0;
  return out;
}

/**
 * Canonical msgpack bytes of `value`: map keys sorted bytewise, empty map values (0, false, "",
 * empty bytes/arrays, maps whose entries are all empty) omitted recursively, smallest integer
 * forms, Uint8Array as bin, strings as str. Array elements are never omitted. `MsgStr` writes bytes
 * as str and `MsgKeep` exempts a value from omission (response encodings only).
 */
export function encodeMsgpack(value: MsgpackValue): Uint8Array {
  pos = 0;
  return writeAndFinish(value);
}

/** Writes `value` after whatever the shared buffer holds from 0 to `pos`, and returns all of it. */
function writeAndFinish(value: MsgpackValue): Uint8Array {
  try {
    writeValue(value, false);
  } catch (e) {
    pos = 0;
    throw e;
  }
  return finish(0);
}

/** `prefix || encodeMsgpack(value)` in one buffer: the input to the chain's domain-separated hashes. */
export function encodeMsgpackWithPrefix(prefix: Uint8Array, value: MsgpackValue): Uint8Array {
  pos = 0;
  ensure(prefix.length);
  buf.set(prefix, 0);
  pos = prefix.length;
  return writeAndFinish(value);
}

// ---------------------------------------------------------------------------------------------
// Decoding

const objectUnpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });
const mapUnpackr = new Unpackr({ useRecords: false, mapsAsObjects: false, int64AsType: 'bigint' });

/** How msgpack decodes: maps as `Map`s (for non-string keys) or objects, and whether byte values are copied. */
export interface DecodeOptions {
  /**
   * Decode maps as `Map`, keeping non-string keys (`ld` account indices, txid-keyed deltas).
   * Default: plain objects, which need string keys.
   */
  maps?: boolean;
  /**
   * Default true: the input is copied once and bin values are views into that private copy, so
   * later changes to the input never show through. False skips the copy (bins are views into
   * the input itself; faster for large read-only responses).
   */
  copy?: boolean;
}

/** Inputs up to this size are copied into a shared slab (see {@link source}). */
const SLAB_INPUT_MAX = 1024;
/** Bytes per slab: a decoded bin kept alive holds at most this much memory besides itself. */
const SLAB_SIZE = 16 * 1024;
let slab = new Uint8Array(0);
let slabUsed = 0;

/**
 * msgpackr hands out bins as subarrays of its source; one upfront copy is cheaper than a copy per
 * bin. Small inputs (a transaction, a short response) are copied into a slab shared by later small
 * inputs, as Node's Buffer pool does: allocating an ArrayBuffer per decode cost more than decoding
 * a signed transaction. The slab is ours alone, so the caller's later writes to its input still
 * never show through a decoded bin, and no decoded bin overlaps another input's.
 */
function source(bytes: Uint8Array, options: DecodeOptions): Uint8Array {
  if (options.copy === false) return plainView(bytes);
  const n = bytes.length;
  if (n <= SLAB_INPUT_MAX) {
    if (slabUsed + n > slab.length) {
      slab = new Uint8Array(SLAB_SIZE);
      slabUsed = 0;
    }
    const copy = slab.subarray(slabUsed, slabUsed + n);
    copy.set(bytes);
    // The next input starts on an 8-byte boundary (aligned typed-array views stay possible).
    slabUsed += (n + 7) & ~7;
    return copy;
  }
  // A plain Uint8Array's slice skips the zero fill; a Node Buffer's slice is a view, not a copy.
  if (bytes.constructor === Uint8Array) return bytes.slice();
  const copy = new Uint8Array(n);
  copy.set(bytes);
  return copy;
}

function plainView(bytes: Uint8Array): Uint8Array {
  // Always a fresh view: msgpackr caches a `dataView` property on the array it is given, which
  // must not land on the caller's object; and bins come out as plain Uint8Arrays, not Buffers.
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Decodes one msgpack value. Integers come back as numbers, except 64-bit forms which come back as
 * bigint; use {@link toUint64} where a uint64 is expected. Bin values never alias the input
 * unless `copy: false` is given.
 */
export function decodeMsgpack(bytes: Uint8Array, options: DecodeOptions = {}): unknown {
  if (!(bytes instanceof Uint8Array)) throw new DecodeError(`msgpack input must be a Uint8Array, got ${typeof bytes}`);
  if (bytes.length === 0) throw new DecodeError('msgpack input is empty');
  const input = source(bytes, options);
  if (options.maps) {
    // Our own single pass for the usual input; anything unusual is msgpackr's (see the module).
    const fast = fastDecodeMaps(input);
    if (fast !== FALLBACK) return fast;
  }
  const unpackr = options.maps ? mapUnpackr : objectUnpackr;
  try {
    return unpackr.unpack(input);
  } catch (e) {
    throw new DecodeError(`invalid msgpack: ${(e as Error).message}`, { cause: e });
  }
}

/** Decodes a concatenation of msgpack values (e.g. a raw signed-transaction group). */
export function decodeMsgpackSequence(bytes: Uint8Array, options: DecodeOptions = {}): unknown[] {
  if (!(bytes instanceof Uint8Array)) throw new DecodeError(`msgpack input must be a Uint8Array, got ${typeof bytes}`);
  if (bytes.length === 0) return [];
  const unpackr = options.maps ? mapUnpackr : objectUnpackr;
  try {
    return unpackr.unpackMultiple(source(bytes, options)) as unknown[];
  } catch (e) {
    throw new DecodeError(`invalid msgpack sequence: ${(e as Error).message}`, { cause: e });
  }
}

/** Normalises a decoded integer (number or bigint) to a uint64 bigint, or throws naming `what`. */
export function toUint64(value: unknown, what: string): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n || value > UINT64_MAX) throw new DecodeError(`${what}: ${value} is not a uint64`);
    return value;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  throw new DecodeError(`${what}: expected an unsigned integer, got ${describeDecoded(value)}`);
}

/** Like {@link toUint64} but for small counts and indices that fit a JS number. */
export function toSmallUint(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n && value <= MAX_SAFE_BIGINT) return Number(value);
  throw new DecodeError(`${what}: expected an unsigned integer, got ${describeDecoded(value)}`);
}

/** A short description of a decoded msgpack value, for error messages. */
export function describeDecoded(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.length}-byte bin`;
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value === null) return 'nil';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'object') return 'map';
  return `${typeof value} ${String(value)}`;
}
