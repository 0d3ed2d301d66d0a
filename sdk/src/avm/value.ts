import { toHex } from '../encoding/hex.js';
import { fault } from './errors.js';

// The AVM's names for the encoding layer's helpers.
export { bytesEqual as bytesEq } from '../encoding/bytes.js';
export { toHex as hexOf } from '../encoding/hex.js';

/**
 * A value on the AVM stack. uint64s are kept in one canonical form so equality is `===`: a plain
 * number when it is a safe integer (≤ 2^53−1, the common case and the fast one) and a bigint
 * above that. Byte strings are Uint8Arrays and are never mutated once on the stack.
 */
export type StackValue = number | bigint | Uint8Array;

/** The public form of a value (results, traces, state): uint64 always as bigint. */
export type AvmValue = bigint | Uint8Array;

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);
export const MAX_UINT64 = (1n << 64n) - 1n;
export const MAX_BYTES = 4096;
export const MAX_STACK = 1000;

export const EMPTY = new Uint8Array(0);

export function isBytes(v: StackValue): v is Uint8Array {
  return typeof v === 'object';
}

/** Canonical uint from a bigint known to be in [0, 2^64). */
export function fromBig(b: bigint): number | bigint {
  return b <= MAX_SAFE_BIG ? Number(b) : b;
}

/** Canonical uint from any JS number/bigint input (public API boundary). */
export function toStackUint(v: bigint | number): number | bigint {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`not a uint64: ${v}`);
    return v;
  }
  if (v < 0n || v > MAX_UINT64) throw new RangeError(`not a uint64: ${v}`);
  return fromBig(v);
}

export function big(v: number | bigint): bigint {
  return typeof v === 'number' ? BigInt(v) : v;
}

export function toAvmValue(v: StackValue): AvmValue {
  return typeof v === 'number' ? BigInt(v) : v;
}

export function fromAvmValue(v: AvmValue | number): StackValue {
  return v instanceof Uint8Array ? v : toStackUint(v);
}

export function typeName(v: StackValue): string {
  return typeof v === 'object' ? '[]byte' : 'uint64';
}

/** Small uint as a JS number, or Infinity when beyond 2^53 (for index/length comparisons). */
export function asIndex(v: number | bigint): number {
  return typeof v === 'number' ? v : Infinity;
}

export function itob(v: number | bigint): Uint8Array {
  const out = new Uint8Array(8);
  if (typeof v === 'number') {
    const hi = Math.floor(v / 0x100000000);
    const lo = v >>> 0;
    out[0] = hi >>> 24;
    out[1] = (hi >>> 16) & 0xff;
    out[2] = (hi >>> 8) & 0xff;
    out[3] = hi & 0xff;
    out[4] = lo >>> 24;
    out[5] = (lo >>> 16) & 0xff;
    out[6] = (lo >>> 8) & 0xff;
    out[7] = lo & 0xff;
    return out;
  }
  let x = v;
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** Big-endian bytes (≤ 8) to a canonical uint. */
export function btoiRange(b: Uint8Array, start: number, len: number): number | bigint {
  if (len <= 6) {
    let n = 0;
    for (let i = 0; i < len; i++) n = n * 256 + b[start + i]!;
    return n;
  }
  let x = 0n;
  for (let i = 0; i < len; i++) x = (x << 8n) | BigInt(b[start + i]!);
  return fromBig(x);
}

export function bytesToBigUnsigned(b: Uint8Array): bigint {
  let x = 0n;
  for (let i = 0; i < b.length; i++) x = (x << 8n) | BigInt(b[i]!);
  return x;
}

/** Minimal big-endian encoding of a non-negative bigint (0 → empty), as byte math returns. */
export function bigToMinimalBytes(x: bigint): Uint8Array {
  if (x === 0n) return EMPTY;
  let hex = x.toString(16);
  if (hex.length & 1) hex = '0' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function bigToFixedBytes(x: bigint, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

export function concat2(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Go's %#x of a byte slice ("0x…", or "" for empty). */
export function goHex(b: Uint8Array): string {
  return b.length === 0 ? '' : '0x' + toHex(b);
}

export function asBool(v: number | bigint): boolean {
  if (v === 0) return false;
  if (v === 1) return true;
  return fault(`boolean is neither 1 nor 0: ${v}`);
}
