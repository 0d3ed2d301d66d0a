/*
 * Readers for the program's variable-length integers, with the reference decoder's acceptance
 * rules: up to 10 bytes, the 10th at most 1, and non-minimal encodings (e.g. 0x80 0x00) accepted,
 * because the AVM accepts them too.
 */

export type VarintFailure = 'short' | 'overflow';

export interface VarintRead {
  value: bigint;
  /** Position just after the varint. */
  next: number;
}

const MAX_VARINT_BYTES = 10;

/** Reads an unsigned LEB128 uint64 at `pos`, or says why it could not. */
export function readUvarint(bytes: Uint8Array, pos: number): VarintRead | VarintFailure {
  // Fast path: values below 2^28 fit a double without bigint work.
  let small = 0;
  let shift = 0;
  for (let i = 0; i < 4; i++) {
    const at = pos + i;
    if (at >= bytes.length) return 'short';
    const b = bytes[at]!;
    small += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return { value: BigInt(small), next: at + 1 };
    shift += 7;
  }
  let value = BigInt(small);
  let bigShift = 28n;
  for (let i = 4; ; i++) {
    if (i === MAX_VARINT_BYTES) return 'overflow';
    const at = pos + i;
    if (at >= bytes.length) return 'short';
    const b = bytes[at]!;
    if (b < 0x80) {
      if (i === MAX_VARINT_BYTES - 1 && b > 1) return 'overflow';
      return { value: value | (BigInt(b) << bigShift), next: at + 1 };
    }
    value |= BigInt(b & 0x7f) << bigShift;
    bigShift += 7n;
  }
}

/** Reads a zigzag-encoded int64 (v13 branch offsets). */
export function readVarint(bytes: Uint8Array, pos: number): VarintRead | VarintFailure {
  const r = readUvarint(bytes, pos);
  if (typeof r === 'string') return r;
  const magnitude = r.value >> 1n;
  return { value: r.value & 1n ? -magnitude - 1n : magnitude, next: r.next };
}

/** Encodes an unsigned varint (minimal form); used to size and check round trips. */
export function encodeUvarint(value: bigint | number): Uint8Array {
  let v = BigInt(value);
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** Encodes a zigzag varint (minimal form). */
export function encodeVarint(value: bigint | number): Uint8Array {
  const v = BigInt(value);
  return encodeUvarint(v < 0n ? (-v << 1n) - 1n : v << 1n);
}
