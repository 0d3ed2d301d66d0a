import { Address, decodeAddress, encodeAddress } from '../encoding/address.js';
import { fromBase32 } from '../encoding/base32.js';
import { fromUtf8, utf8, writeU64HalvesBE } from '../encoding/bytes.js';
import { sha512_256 } from '../crypto/hash.js';
import { AbiDecodeError, AbiEncodeError } from './errors.js';

/**
 * ARC-4 value types. Every type knows whether it is dynamic, its fixed size when static, and
 * encodes/decodes values. Decoding works on ranges of one buffer (no intermediate copies) and is
 * strict: offsets, lengths and bool bytes must be canonical, so two different byte strings never
 * decode to the same value.
 *
 * JS value conventions: uintN/ufixedNxM → bigint (number accepted on input), bool → boolean,
 * byte → number, address → 58-char string (Address or 32 bytes accepted), string → string,
 * byte[]/byte[N] → Uint8Array (number arrays accepted), other arrays and tuples → arrays,
 * structs → objects.
 */
export type AbiValue = bigint | number | boolean | string | Uint8Array | Address | readonly AbiValue[] | { readonly [field: string]: AbiValue };

const MAX_UINT16 = 0xffff;

/** Base of every ABI type: encodes and decodes values, knows its text, static size and whether it is dynamic. */
export abstract class AbiType {
  /** True when the encoding length depends on the value (string, T[], or containing one). */
  abstract readonly dynamic: boolean;
  /** Encoded length in bytes of a static type; -1 for dynamic types. */
  abstract readonly staticSize: number;

  abstract toString(): string;

  /** ARC-4 encoding of `value`; throws AbiEncodeError naming the type, the reason and the path. */
  encode(value: AbiValue): Uint8Array {
    if (this.dynamic) return this.encodeDynamic(value);
    const out = new Uint8Array(this.staticSize);
    this.writeStatic(value, out, 0);
    return out;
  }

  /** Decodes exactly `bytes` (no trailing data allowed). */
  decode(bytes: Uint8Array): AbiValue {
    return this.decodeRange(bytes, 0, bytes.length);
  }

  equals(other: AbiType): boolean {
    return this.toString() === other.toString();
  }

  /** Static types write in place; only they are ever asked to. */
  abstract writeStatic(value: AbiValue, out: Uint8Array, at: number): void;
  /** Dynamic types return fresh bytes. */
  protected encodeDynamic(_value: AbiValue): Uint8Array {
    throw new Error(`internal: ${this.toString()} is static`);
  }
  abstract decodeRange(bytes: Uint8Array, start: number, end: number): AbiValue;

  protected fail(reason: string): never {
    throw new AbiEncodeError(this.toString(), reason);
  }

  protected decodeFail(reason: string): never {
    throw new AbiDecodeError(this.toString(), reason);
  }

  protected expectLength(start: number, end: number): void {
    if (end - start !== this.staticSize) this.decodeFail(`expected ${this.staticSize} bytes, got ${end - start}`);
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `${value.length}-byte array`;
  if (Array.isArray(value)) return `array of length ${value.length}`;
  if (typeof value === 'string') return value.length > 40 ? `string ${JSON.stringify(value.slice(0, 40))}…` : `string ${JSON.stringify(value)}`;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

// ─── integers ────────────────────────────────────────────────────────────────────────────────

const TWO_32 = 4294967296;

/** Writes a non-negative bigint/number big-endian into `size` bytes (caller checked the range). */
function writeUint(value: bigint | number, out: Uint8Array, at: number, size: number): void {
  if (typeof value === 'number') {
    // Safe integers fit in 53 bits: two 32-bit halves, no bigint arithmetic.
    const lo = value >>> 0;
    const hi = Math.floor(value / TWO_32);
    const end = at + size;
    out[end - 1] = lo & 0xff;
    if (size > 1) out[end - 2] = (lo >>> 8) & 0xff;
    if (size > 2) out[end - 3] = (lo >>> 16) & 0xff;
    if (size > 3) out[end - 4] = lo >>> 24;
    if (size > 4) out[end - 5] = hi & 0xff;
    if (size > 5) out[end - 6] = (hi >>> 8) & 0xff;
    if (size > 6) out[end - 7] = (hi >>> 16) & 0xff;
    return;
  }
  if (size === 8) {
    const hi = Number(value >> 32n);
    const lo = Number(value & 0xffffffffn);
    writeU64HalvesBE(out, at, hi, lo);
    return;
  }
  let v = value;
  for (let i = at + size - 1; i >= at; i--) {
    if (v === 0n) break;
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function readUint(bytes: Uint8Array, start: number, size: number): bigint {
  if (size <= 6) {
    let n = 0;
    for (let i = start; i < start + size; i++) n = n * 256 + bytes[i]!;
    return BigInt(n);
  }
  if (size === 8) {
    const hi = ((bytes[start]! << 24) | (bytes[start + 1]! << 16) | (bytes[start + 2]! << 8) | bytes[start + 3]!) >>> 0;
    const lo = ((bytes[start + 4]! << 24) | (bytes[start + 5]! << 16) | (bytes[start + 6]! << 8) | bytes[start + 7]!) >>> 0;
    return hi < 0x200000 ? BigInt(hi * TWO_32 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
  }
  let v = 0n;
  let i = start;
  const end = start + size;
  // Six bytes at a time keep most of the work in plain numbers.
  for (; i + 6 <= end; i += 6) {
    let chunk = 0;
    for (let j = i; j < i + 6; j++) chunk = chunk * 256 + bytes[j]!;
    v = (v << 48n) | BigInt(chunk);
  }
  for (; i < end; i++) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}

abstract class AbiIntegerLike extends AbiType {
  readonly dynamic = false;
  readonly staticSize: number;
  readonly max: bigint;

  constructor(readonly bitSize: number) {
    super();
    this.staticSize = bitSize / 8;
    this.max = (1n << BigInt(bitSize)) - 1n;
  }

  protected checkedInteger(value: AbiValue): bigint | number {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) {
        this.fail(Number.isInteger(value) ? `number ${value} is beyond 2^53; pass a bigint` : `${value} is not an integer`);
      }
      if (value < 0) this.fail(`value ${value} is negative`);
      if (this.bitSize < 53 && value > Number(this.max)) this.fail(`value ${value} is out of range (max ${this.max})`);
      return value;
    }
    if (typeof value === 'bigint') {
      if (value < 0n) this.fail(`value ${value} is negative`);
      if (value > this.max) this.fail(`value ${value} is out of range (max 2^${this.bitSize}-1 = ${this.max})`);
      return value;
    }
    this.fail(`expected a bigint or number, got ${describeValue(value)}`);
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    writeUint(this.checkedInteger(value), out, at, this.staticSize);
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): bigint {
    this.expectLength(start, end);
    return readUint(bytes, start, this.staticSize);
  }
}

/** The ABI `uintN` types (N a multiple of 8 up to 512): big-endian, decoded as bigint. */
export class AbiUintType extends AbiIntegerLike {
  private text: string | undefined;

  toString(): string {
    return (this.text ??= `uint${this.bitSize}`);
  }
}

/** ufixed<N>x<M>: the value is the integer `scaled = real × 10^M`, handled as a bigint. */
export class AbiUfixedType extends AbiIntegerLike {
  constructor(
    bitSize: number,
    readonly precision: number,
  ) {
    super(bitSize);
  }

  toString(): string {
    return `ufixed${this.bitSize}x${this.precision}`;
  }
}

// ─── scalars ─────────────────────────────────────────────────────────────────────────────────

/** The ABI `bool` type; consecutive bools in a tuple share bytes. */
export class AbiBoolType extends AbiType {
  readonly dynamic = false;
  readonly staticSize = 1;

  toString(): string {
    return 'bool';
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    if (typeof value !== 'boolean') this.fail(`expected a boolean, got ${describeValue(value)}`);
    out[at] = value ? 0x80 : 0;
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): boolean {
    this.expectLength(start, end);
    const b = bytes[start];
    if (b === 0x80) return true;
    if (b === 0) return false;
    this.decodeFail(`byte 0x${b!.toString(16).padStart(2, '0')} is neither 0x00 nor 0x80`);
  }
}

/** The ABI `byte` type: one byte, as a number 0–255. */
export class AbiByteType extends AbiType {
  readonly dynamic = false;
  readonly staticSize = 1;

  toString(): string {
    return 'byte';
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    const n = typeof value === 'bigint' && value >= 0n && value <= 255n ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 255) this.fail(`expected an integer 0..255, got ${describeValue(value)}`);
    out[at] = n;
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): number {
    this.expectLength(start, end);
    return bytes[start]!;
  }
}

/**
 * decodeAddress with a single hash: a canonical 58-character address has its two trailing bits
 * clear, so the canonical-form check needs no re-encoding. Anything unusual goes to
 * decodeAddress, which produces the precise error.
 */
function addressKey(text: string): Uint8Array {
  if (text.length === 58) {
    const last = BASE32_ALPHABET.indexOf(text[57]!);
    if (last >= 0 && (last & 3) === 0) {
      let raw: Uint8Array | undefined;
      try {
        raw = fromBase32(text, { padding: 'forbidden' });
      } catch {
        raw = undefined;
      }
      if (raw && raw.length === 36) {
        const key = raw.subarray(0, 32);
        const sum = sha512_256(key);
        if (sum[28] === raw[32] && sum[29] === raw[33] && sum[30] === raw[34] && sum[31] === raw[35]) return key;
      }
    }
  }
  return decodeAddress(text);
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The ABI `address` type: 32 bytes, read and written as a 58-character address. */
export class AbiAddressType extends AbiType {
  readonly dynamic = false;
  readonly staticSize = 32;

  toString(): string {
    return 'address';
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    let key: Uint8Array;
    if (typeof value === 'string') {
      try {
        key = addressKey(value);
      } catch (e) {
        this.fail(e instanceof Error ? e.message : String(e));
      }
    } else if (value instanceof Address) {
      key = value.publicKey;
    } else if (value instanceof Uint8Array && value.length === 32) {
      key = value;
    } else {
      this.fail(`expected an address string, Address or 32 bytes, got ${describeValue(value)}`);
    }
    out.set(key, at);
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): string {
    this.expectLength(start, end);
    return encodeAddress(bytes.slice(start, end));
  }
}

function readLength(type: AbiType, bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 2) throw new AbiDecodeError(type.toString(), `need a 2-byte length prefix, got ${end - start} bytes`);
  return (bytes[start]! << 8) | bytes[start + 1]!;
}

/** The ABI `string` type: UTF-8 bytes with a 2-byte length prefix. */
export class AbiStringType extends AbiType {
  readonly dynamic = true;
  readonly staticSize = -1;

  toString(): string {
    return 'string';
  }

  writeStatic(): void {
    this.fail('internal: string is dynamic');
  }

  protected override encodeDynamic(value: AbiValue): Uint8Array {
    let body: Uint8Array;
    if (typeof value === 'string') body = utf8(value);
    else if (value instanceof Uint8Array) body = value;
    else this.fail(`expected a string, got ${describeValue(value)}`);
    if (body.length > MAX_UINT16) this.fail(`${body.length} bytes exceed the 65535-byte limit of the length prefix`);
    const out = new Uint8Array(2 + body.length);
    out[0] = body.length >> 8;
    out[1] = body.length & 0xff;
    out.set(body, 2);
    return out;
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): string {
    const n = readLength(this, bytes, start, end);
    if (n !== end - start - 2) this.decodeFail(`length prefix says ${n} bytes but ${end - start - 2} follow`);
    return fromUtf8(bytes.subarray(start + 2, end));
  }
}

// ─── sequences (tuples and arrays share one layout) ──────────────────────────────────────────

/**
 * The ARC-4 layout of a sequence of element types: heads (static encodings, packed bool bits or
 * 2-byte offsets) followed by the tails of dynamic elements, offsets counted from the start.
 */
interface Slot {
  /** Byte offset of the element's head. */
  head: number;
  /** Bit index within the head byte for packed bools (0 = most significant), else -1. */
  bit: number;
}

function layout(types: readonly AbiType[]): { slots: Slot[]; headSize: number } {
  const slots: Slot[] = [];
  let head = 0;
  let bit = -1;
  for (const t of types) {
    if (t instanceof AbiBoolType) {
      if (bit === -1 || bit === 7) {
        bit = 0;
        slots.push({ head, bit });
        head += 1;
      } else {
        bit++;
        slots.push({ head: head - 1, bit });
      }
      continue;
    }
    bit = -1;
    slots.push({ head, bit: -1 });
    head += t.dynamic ? 2 : t.staticSize;
  }
  return { slots, headSize: head };
}

function encodeSequence(
  owner: AbiType,
  types: readonly AbiType[],
  values: readonly AbiValue[],
  slots: readonly Slot[],
  headSize: number,
  label: (i: number) => string,
): Uint8Array {
  const n = types.length;
  let tails: Uint8Array[] | undefined;
  let total = headSize;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (!t.dynamic) continue;
    tails ??= new Array<Uint8Array>(n);
    try {
      const enc = t.encode(values[i]!);
      tails[i] = enc;
      total += enc.length;
    } catch (e) {
      throw e instanceof AbiEncodeError ? e.within(label(i)) : e;
    }
  }
  if (tails && total > MAX_UINT16 + 1) {
    // The last tail may start at 65535 at most; anything beyond cannot be addressed.
    let offset = headSize;
    for (let i = 0; i < n; i++) {
      if (!types[i]!.dynamic) continue;
      if (offset > MAX_UINT16)
        throw new AbiEncodeError(owner.toString(), `encoding is ${total} bytes; element ${label(i)} would start beyond the 2-byte offset limit`);
      offset += tails[i]!.length;
    }
  }
  const out = new Uint8Array(total);
  let offset = headSize;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    const slot = slots[i]!;
    if (t.dynamic) {
      out[slot.head] = offset >> 8;
      out[slot.head + 1] = offset & 0xff;
      const tail = tails![i]!;
      out.set(tail, offset);
      offset += tail.length;
      continue;
    }
    const v = values[i]!;
    if (slot.bit >= 0) {
      if (typeof v !== 'boolean') throw new AbiEncodeError('bool', `expected a boolean, got ${describeValue(v)}`, label(i));
      if (v) out[slot.head]! |= 0x80 >> slot.bit;
      continue;
    }
    try {
      t.writeStatic(v, out, slot.head);
    } catch (e) {
      throw e instanceof AbiEncodeError ? e.within(label(i)) : e;
    }
  }
  return out;
}

/** Static sequences write straight into the caller's buffer. */
function writeStaticSequence(
  types: readonly AbiType[],
  values: readonly AbiValue[],
  slots: readonly Slot[],
  out: Uint8Array,
  at: number,
  label: (i: number) => string,
): void {
  for (let i = 0; i < types.length; i++) {
    const slot = slots[i]!;
    const v = values[i]!;
    if (slot.bit >= 0) {
      if (typeof v !== 'boolean') throw new AbiEncodeError('bool', `expected a boolean, got ${describeValue(v)}`, label(i));
      if (v) out[at + slot.head]! |= 0x80 >> slot.bit;
      else out[at + slot.head]! &= ~(0x80 >> slot.bit);
      continue;
    }
    try {
      types[i]!.writeStatic(v, out, at + slot.head);
    } catch (e) {
      throw e instanceof AbiEncodeError ? e.within(label(i)) : e;
    }
  }
}

function decodeSequence(
  owner: AbiType,
  types: readonly AbiType[],
  slots: readonly Slot[],
  headSize: number,
  bytes: Uint8Array,
  start: number,
  end: number,
): AbiValue[] {
  const n = types.length;
  const fail = (reason: string): never => {
    throw new AbiDecodeError(owner.toString(), reason);
  };
  if (end - start < headSize) fail(`need at least ${headSize} bytes, got ${end - start}`);
  const out = new Array<AbiValue>(n);
  let prevDynamic = -1;
  let prevOffset = headSize;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    const slot = slots[i]!;
    const at = start + slot.head;
    if (slot.bit >= 0) {
      out[i] = (bytes[at]! & (0x80 >> slot.bit)) !== 0;
      // The unused low bits of the last byte of a bool run must be zero.
      const lastInByte = i + 1 >= n || slots[i + 1]!.head !== slot.head || slots[i + 1]!.bit < 0;
      if (lastInByte && (bytes[at]! & (0xff >> (slot.bit + 1))) !== 0) fail(`non-zero padding bits in packed bool byte at offset ${slot.head}`);
      continue;
    }
    if (!t.dynamic) {
      out[i] = t.decodeRange(bytes, at, at + t.staticSize);
      continue;
    }
    const offset = (bytes[at]! << 8) | bytes[at + 1]!;
    if (start + offset > end) fail(`offset ${offset} of element ${i} is beyond the ${end - start} available bytes`);
    if (prevDynamic < 0) {
      if (offset !== headSize) fail(`first dynamic element should start right after the ${headSize}-byte head, offset says ${offset}`);
    } else {
      if (offset < prevOffset) fail(`offset ${offset} of element ${i} goes backwards (previous ${prevOffset})`);
      out[prevDynamic] = types[prevDynamic]!.decodeRange(bytes, start + prevOffset, start + offset);
    }
    prevDynamic = i;
    prevOffset = offset;
  }
  if (prevDynamic >= 0) out[prevDynamic] = types[prevDynamic]!.decodeRange(bytes, start + prevOffset, end);
  else if (end - start !== headSize) fail(`expected ${headSize} bytes, got ${end - start}`);
  return out;
}

/** An ABI tuple `(T1,T2,…)`: heads for static elements, offsets for dynamic ones. */
export class AbiTupleType extends AbiType {
  readonly dynamic: boolean;
  readonly staticSize: number;
  readonly childTypes: readonly AbiType[];
  private readonly slots: Slot[];
  private readonly headSize: number;
  private text: string | undefined;

  constructor(childTypes: readonly AbiType[]) {
    super();
    this.childTypes = Object.freeze([...childTypes]);
    this.dynamic = childTypes.some((t) => t.dynamic);
    const { slots, headSize } = layout(childTypes);
    this.slots = slots;
    this.headSize = headSize;
    this.staticSize = this.dynamic ? -1 : headSize;
  }

  toString(): string {
    return (this.text ??= `(${this.childTypes.map((t) => t.toString()).join(',')})`);
  }

  protected elements(value: AbiValue): readonly AbiValue[] {
    if (!Array.isArray(value)) this.fail(`expected an array of ${this.childTypes.length} elements, got ${describeValue(value)}`);
    if (value.length !== this.childTypes.length) this.fail(`expected ${this.childTypes.length} elements, got ${value.length}`);
    return value as readonly AbiValue[];
  }

  protected label(i: number): string {
    return `[${i}]`;
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    writeStaticSequence(this.childTypes, this.elements(value), this.slots, out, at, (i) => this.label(i));
  }

  protected override encodeDynamic(value: AbiValue): Uint8Array {
    return encodeSequence(this, this.childTypes, this.elements(value), this.slots, this.headSize, (i) => this.label(i));
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): AbiValue {
    return decodeSequence(this, this.childTypes, this.slots, this.headSize, bytes, start, end);
  }
}

function isByte(t: AbiType): boolean {
  return t instanceof AbiByteType;
}

function arrayElements(owner: AbiType, child: AbiType, value: AbiValue): readonly AbiValue[] {
  if (Array.isArray(value)) return value as readonly AbiValue[];
  if (value instanceof Uint8Array && isByte(child)) return Array.from(value);
  if (typeof value === 'string' && isByte(child)) {
    throw new AbiEncodeError(owner.toString(), 'expected bytes (Uint8Array) or an array of numbers; encode text with utf8() first or use type string');
  }
  throw new AbiEncodeError(owner.toString(), `expected an array, got ${describeValue(value)}`);
}

const indexLabel = (i: number): string => `[${i}]`;

/** Encodes elements of one repeated type; fast paths for byte and bool runs. */
function encodeRepeated(owner: AbiType, child: AbiType, values: readonly AbiValue[]): Uint8Array {
  const n = values.length;
  if (isByte(child) && values instanceof Uint8Array) return (values as Uint8Array).slice();
  if (!child.dynamic && !(child instanceof AbiBoolType)) {
    const size = child.staticSize;
    const out = new Uint8Array(size * n);
    for (let i = 0; i < n; i++) {
      try {
        child.writeStatic(values[i]!, out, i * size);
      } catch (e) {
        throw e instanceof AbiEncodeError ? e.within(indexLabel(i)) : e;
      }
    }
    return out;
  }
  const types = new Array<AbiType>(n).fill(child);
  const { slots, headSize } = layout(types);
  return encodeSequence(owner, types, values, slots, headSize, indexLabel);
}

function decodeRepeated(owner: AbiType, child: AbiType, n: number, bytes: Uint8Array, start: number, end: number): AbiValue {
  if (isByte(child)) {
    if (end - start !== n) throw new AbiDecodeError(owner.toString(), `expected ${n} bytes, got ${end - start}`);
    return bytes.slice(start, end);
  }
  if (!child.dynamic && !(child instanceof AbiBoolType)) {
    const size = child.staticSize;
    if (end - start !== size * n) throw new AbiDecodeError(owner.toString(), `expected ${size * n} bytes, got ${end - start}`);
    const out = new Array<AbiValue>(n);
    for (let i = 0; i < n; i++) out[i] = child.decodeRange(bytes, start + i * size, start + (i + 1) * size);
    return out;
  }
  const types = new Array<AbiType>(n).fill(child);
  const { slots, headSize } = layout(types);
  return decodeSequence(owner, types, slots, headSize, bytes, start, end);
}

/** T[N]: N elements with no length prefix (a tuple of N T's). */
export class AbiStaticArrayType extends AbiType {
  readonly dynamic: boolean;
  readonly staticSize: number;
  private text: string | undefined;

  constructor(
    readonly childType: AbiType,
    readonly length: number,
  ) {
    super();
    this.dynamic = childType.dynamic;
    this.staticSize = this.dynamic ? -1 : childType instanceof AbiBoolType ? Math.ceil(length / 8) : childType.staticSize * length;
  }

  toString(): string {
    return (this.text ??= `${this.childType.toString()}[${this.length}]`);
  }

  private elements(value: AbiValue): readonly AbiValue[] {
    const items = arrayElements(this, this.childType, value);
    if (items.length !== this.length) this.fail(`expected ${this.length} elements, got ${items.length}`);
    return items;
  }

  writeStatic(value: AbiValue, out: Uint8Array, at: number): void {
    if (value instanceof Uint8Array && isByte(this.childType)) {
      if (value.length !== this.length) this.fail(`expected ${this.length} bytes, got ${value.length}`);
      out.set(value, at);
      return;
    }
    out.set(encodeRepeated(this, this.childType, this.elements(value)), at);
  }

  protected override encodeDynamic(value: AbiValue): Uint8Array {
    return encodeRepeated(this, this.childType, this.elements(value));
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): AbiValue {
    return decodeRepeated(this, this.childType, this.length, bytes, start, end);
  }
}

/** T[]: a 2-byte element count, then the elements as in T[N]. */
export class AbiDynamicArrayType extends AbiType {
  readonly dynamic = true;
  readonly staticSize = -1;
  private text: string | undefined;

  constructor(readonly childType: AbiType) {
    super();
  }

  toString(): string {
    return (this.text ??= `${this.childType.toString()}[]`);
  }

  writeStatic(): void {
    this.fail('internal: dynamic array is dynamic');
  }

  protected override encodeDynamic(value: AbiValue): Uint8Array {
    const items = value instanceof Uint8Array && isByte(this.childType) ? value : arrayElements(this, this.childType, value);
    const n = items.length;
    if (n > MAX_UINT16) this.fail(`${n} elements exceed the 65535-element limit of the length prefix`);
    const body = items instanceof Uint8Array ? items : encodeRepeated(this, this.childType, items);
    const out = new Uint8Array(2 + body.length);
    out[0] = n >> 8;
    out[1] = n & 0xff;
    out.set(body, 2);
    return out;
  }

  decodeRange(bytes: Uint8Array, start: number, end: number): AbiValue {
    const n = readLength(this, bytes, start, end);
    return decodeRepeated(this, this.childType, n, bytes, start + 2, end);
  }
}

/** byte[] / byte[N]: true when values of this type are handled as Uint8Array. */
export function isByteArrayType(t: AbiType): boolean {
  return (t instanceof AbiDynamicArrayType || t instanceof AbiStaticArrayType) && isByte(t.childType);
}
