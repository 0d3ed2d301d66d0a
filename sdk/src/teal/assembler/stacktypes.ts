/**
 * The static stack types the assembler tracks: an AVM type (uint64 / []byte / any / none) with
 * bounds (value range for ints, length range for bytes) and the display name the reference uses in
 * its "wanted type X got Y" messages.
 */

export const Avm = { None: 0, Any: 1, Uint: 2, Bytes: 3 } as const;
export type Avm = (typeof Avm)[keyof typeof Avm];

export interface StackType {
  readonly name: string;
  readonly avm: Avm;
  readonly lo: bigint;
  readonly hi: bigint;
}

export const MAX_STRING_SIZE = 4096n;
const U64_MAX = (1n << 64n) - 1n;
export const MAX_BYTE_MATH_SIZE = 64n;

export function stackType(avm: Avm, lo: bigint, hi: bigint, name?: string): StackType {
  if (name === undefined) {
    name = avm === Avm.Uint ? 'uint64' : avm === Avm.Bytes ? '[]byte' : avm === Avm.Any ? 'any' : 'none';
    if (lo === hi) {
      if (avm === Avm.Bytes) name = `[${lo}]byte`;
      else if (avm === Avm.Uint) name = `${lo}`;
    } else if (lo === 0n && hi !== 0n) {
      if (avm === Avm.Bytes && hi !== MAX_STRING_SIZE) name = `[<=${hi}]byte`;
      else if (avm === Avm.Uint && hi !== U64_MAX) name += ` (<= ${hi})`;
    } else if (lo !== 0n && hi !== 0n) {
      if (avm === Avm.Bytes) name = `[${lo}-${hi}]byte`;
      else if (avm === Avm.Uint) name += ` (${lo}-${hi})`;
    }
  }
  return { name, avm, lo, hi };
}

export const StackUint64 = stackType(Avm.Uint, 0n, U64_MAX);
export const StackBytes = stackType(Avm.Bytes, 0n, MAX_STRING_SIZE);
export const StackAny: StackType = { name: 'any', avm: Avm.Any, lo: 0n, hi: 0n };
export const StackNone: StackType = { name: 'none', avm: Avm.None, lo: 0n, hi: 0n };
export const StackBoolean = stackType(Avm.Uint, 0n, 1n, 'bool');
export const StackAddress = stackType(Avm.Bytes, 32n, 32n, 'address');
export const StackBigInt = stackType(Avm.Bytes, 0n, MAX_BYTE_MATH_SIZE, 'bigint');
export const StackMethod = stackType(Avm.Bytes, 4n, 4n, 'method');
export const StackStateKey = stackType(Avm.Bytes, 0n, 64n, 'stateKey');
export const StackBoxName = stackType(Avm.Bytes, 1n, 64n, 'boxName');
export const StackZeroUint64 = stackType(Avm.Uint, 0n, 0n, '0');

const named = new Map<string, StackType>([
  ['uint64', StackUint64],
  ['[]byte', StackBytes],
  ['any', StackAny],
  ['none', StackNone],
  ['bool', StackBoolean],
  ['address', StackAddress],
  ['bigint', StackBigInt],
  ['method', StackMethod],
  ['stateKey', StackStateKey],
  ['boxName', StackBoxName],
]);

/** The stack type a langspec type name denotes (`[32]byte` is a fixed-length byte string). */
export function typeByName(name: string): StackType {
  const known = named.get(name);
  if (known) return known;
  const m = /^\[(\d+)\]byte$/.exec(name);
  if (m) {
    const t = stackType(Avm.Bytes, BigInt(m[1]!), BigInt(m[1]!), name);
    named.set(name, t);
    return t;
  }
  return StackAny;
}

export function sameType(a: StackType, b: StackType): boolean {
  return a === b || (a.avm === b.avm && a.lo === b.lo && a.hi === b.hi && a.name === b.name);
}

export function unionType(a: StackType, b: StackType): StackType {
  if (a.avm !== b.avm) return StackAny;
  return stackType(a.avm, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

export function widened(t: StackType): StackType {
  if (t.avm === Avm.Bytes) return StackBytes;
  if (t.avm === Avm.Uint) return StackUint64;
  return StackAny;
}

export function constInt(t: StackType): bigint | undefined {
  return t.avm === Avm.Uint && t.lo === t.hi ? t.lo : undefined;
}

/** Whether a value of type `got` could satisfy `wanted`. */
export function overlaps(got: StackType, wanted: StackType): boolean {
  if (got.avm === Avm.None || wanted.avm === Avm.None) return false;
  if (got.avm === Avm.Any || wanted.avm === Avm.Any) return true;
  if (got.avm !== wanted.avm) return false;
  return got.lo <= wanted.hi && got.hi >= wanted.lo;
}

export function isTyped(t: StackType): boolean {
  return t.avm === Avm.Uint || t.avm === Avm.Bytes;
}

export function anyTypes(n: number): StackType[] {
  return new Array<StackType>(n).fill(StackAny);
}
