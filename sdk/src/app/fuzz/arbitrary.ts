import { encodeAddress } from '../../encoding/address.js';
import { AbiStructType } from '../../abi/struct.js';
import {
  AbiAddressType,
  AbiBoolType,
  AbiByteType,
  AbiDynamicArrayType,
  AbiStaticArrayType,
  AbiStringType,
  AbiTupleType,
  AbiUfixedType,
  AbiUintType,
  type AbiType,
  type AbiValue,
} from '../../abi/types.js';
import type { AbiMethodArg } from '../../abi/method.js';

/*
 * Random typed ARC-4 values and their simpler neighbours. Generation leans on the values that
 * break contracts (0, 1, the type's maximum, powers of two, empty and long strings and arrays);
 * shrinking proposes smaller values first, so a greedy shrinker ends on a minimal one.
 */

/** A seeded pseudo-random source (mulberry32): the same seed gives the same values everywhere. */
export class FuzzRandom {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return n <= 0 ? 0 : Math.floor((this.uint32() / 4294967296) * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.uint32() / 4294967296 < p;
  }

  /** A uniform integer of `bits` bits. */
  bigBits(bits: number): bigint {
    let v = 0n;
    for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt(this.uint32());
    return v & ((1n << BigInt(bits)) - 1n);
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)]!;
  }
}

/** Mixes a base seed and a run number into one 32-bit seed (splitmix-style). */
export function mixSeed(base: number, run: number): number {
  let z = (Math.imul(base >>> 0, 0x9e3779b1) + Math.imul(run + 1, 0x85ebca6b)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x7feb352d) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x846ca68b) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** What generated values may refer to: the session's accounts, the app, and assets that exist. */
export interface ArbitraryContext {
  /** Addresses of the accounts that send calls (index 0 created the app). */
  accounts: readonly string[];
  appId: bigint;
  appAddress: string;
  /** Assets that exist on the chain (may be empty). */
  assets: readonly bigint[];
  /** Other apps that exist (may be empty). */
  apps?: readonly bigint[];
}

/** A length: mostly short, sometimes empty, now and then long (strings and arrays). */
function length(rng: FuzzRandom, long: number): number {
  const r = rng.below(100);
  if (r < 10) return 0;
  if (r < 60) return 1 + rng.below(8);
  if (r < 85) return 9 + rng.below(56);
  return 65 + rng.below(Math.max(1, long - 64));
}

function integer(rng: FuzzRandom, bits: number): bigint {
  const max = (1n << BigInt(bits)) - 1n;
  switch (rng.below(10)) {
    case 0:
      return 0n;
    case 1:
      return 1n;
    case 2:
      return max;
    case 3:
      return max - BigInt(rng.below(3));
    case 4:
      return 1n << BigInt(rng.below(bits));
    case 5:
    case 6:
      return BigInt(rng.below(256)) & max;
    case 7:
      return BigInt(rng.uint32()) & max;
    default:
      return rng.bigBits(bits);
  }
}

const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.';

/** A random value of an ARC-4 type (structs as objects, byte arrays as Uint8Array). */
export function arbitraryValue(type: AbiType, rng: FuzzRandom, ctx: ArbitraryContext): AbiValue {
  if (type instanceof AbiUintType || type instanceof AbiUfixedType) return integer(rng, type.bitSize);
  if (type instanceof AbiBoolType) return rng.chance(0.5);
  if (type instanceof AbiByteType) return Number(integer(rng, 8));
  if (type instanceof AbiAddressType) {
    if (rng.chance(0.8)) return rng.chance(0.1) ? ctx.appAddress : rng.pick(ctx.accounts);
    const b = new Uint8Array(32);
    for (let i = 0; i < 32; i++) b[i] = rng.below(256);
    return encodeAddress(b);
  }
  if (type instanceof AbiStringType) {
    const n = length(rng, 200);
    let s = '';
    for (let i = 0; i < n; i++) s += rng.chance(0.02) ? 'é' : CHARS[rng.below(CHARS.length)]!;
    return s;
  }
  if (type instanceof AbiStaticArrayType) {
    if (type.childType instanceof AbiByteType) return bytes(rng, type.length);
    return Array.from({ length: type.length }, () => arbitraryValue(type.childType, rng, ctx));
  }
  if (type instanceof AbiDynamicArrayType) {
    if (type.childType instanceof AbiByteType) return bytes(rng, length(rng, 200));
    const n = Math.min(length(rng, 24), 24);
    return Array.from({ length: n }, () => arbitraryValue(type.childType, rng, ctx));
  }
  if (type instanceof AbiStructType) {
    const out: { [field: string]: AbiValue } = {};
    for (const f of type.fields) out[f.name] = arbitraryValue(f.type, rng, ctx);
    return out;
  }
  if (type instanceof AbiTupleType) return type.childTypes.map((t) => arbitraryValue(t, rng, ctx));
  throw new Error(`internal: no generator for ARC-4 type ${type.toString()}`);
}

function bytes(rng: FuzzRandom, n: number): Uint8Array {
  const b = new Uint8Array(n);
  const mode = rng.below(4);
  for (let i = 0; i < n; i++) b[i] = mode === 0 ? 0 : mode === 1 ? 0xff : rng.below(256);
  return b;
}

/** A random value for one method argument: ARC-4 values by type, references from the context. */
export function arbitraryArg(arg: AbiMethodArg, rng: FuzzRandom, ctx: ArbitraryContext): AbiValue {
  if (arg.kind === 'value') return arbitraryValue(arg.abiType, rng, ctx);
  if (arg.kind === 'reference') {
    if (arg.type === 'account') return rng.chance(0.1) ? ctx.appAddress : rng.pick(ctx.accounts);
    if (arg.type === 'application') return ctx.apps?.length && rng.chance(0.5) ? rng.pick(ctx.apps) : ctx.appId;
    return ctx.assets.length && rng.chance(0.8) ? rng.pick(ctx.assets) : BigInt(1 + rng.below(1000));
  }
  throw new Error(`internal: transaction arguments are not generated (${arg.type})`);
}

/** Smaller integers toward 0: 0 itself, then steps that halve the distance (binary search for a threshold). */
function shrinkInteger(v: bigint): bigint[] {
  if (v === 0n) return [];
  const out: bigint[] = [0n];
  for (let d = v / 2n; d > 0n; d /= 2n) out.push(v - d);
  if (out[out.length - 1] !== v - 1n) out.push(v - 1n);
  return out;
}

function shrinkList<T>(items: readonly T[], shrinkItem: (x: T, i: number) => T[]): T[][] {
  const out: T[][] = [];
  if (items.length === 0) return out;
  out.push([]);
  if (items.length > 1) out.push(items.slice(0, items.length >> 1), items.slice(items.length >> 1));
  for (let i = items.length - 1; i >= 0; i--) out.push([...items.slice(0, i), ...items.slice(i + 1)]);
  for (let i = 0; i < items.length; i++) for (const s of shrinkItem(items[i]!, i)) out.push([...items.slice(0, i), s, ...items.slice(i + 1)]);
  return out;
}

function shrinkFixed<T>(items: readonly T[], shrinkItem: (x: T, i: number) => T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i++) for (const s of shrinkItem(items[i]!, i)) out.push([...items.slice(0, i), s, ...items.slice(i + 1)]);
  return out;
}

/** Simpler values of the same type, simplest first (empty for a value that is already minimal). */
export function shrinkValue(type: AbiType, value: AbiValue, ctx: ArbitraryContext): AbiValue[] {
  if (type instanceof AbiUintType || type instanceof AbiUfixedType) return shrinkInteger(BigInt(value as bigint | number));
  if (type instanceof AbiBoolType) return value === true ? [false] : [];
  if (type instanceof AbiByteType) return shrinkInteger(BigInt(value as number)).map(Number);
  if (type instanceof AbiAddressType) return value !== ctx.accounts[0] ? [ctx.accounts[0]!] : [];
  if (type instanceof AbiStringType) {
    const s = value as string;
    if (s === '') return [];
    const out = ['', s.slice(0, s.length >> 1), s.slice(0, -1)];
    if (/[^a]/.test(s)) out.push('a'.repeat(s.length));
    return [...new Set(out)].filter((x) => x !== s);
  }
  if ((type instanceof AbiDynamicArrayType || type instanceof AbiStaticArrayType) && type.childType instanceof AbiByteType) {
    const b = value as Uint8Array;
    if (type instanceof AbiStaticArrayType) return b.some((x) => x !== 0) ? [new Uint8Array(b.length)] : [];
    if (b.length === 0) return [];
    const out = [new Uint8Array(0), b.slice(0, b.length >> 1), b.slice(0, -1)];
    if (b.some((x) => x !== 0)) out.push(new Uint8Array(b.length));
    return out;
  }
  if (type instanceof AbiDynamicArrayType) return shrinkList(value as readonly AbiValue[], (x) => shrinkValue(type.childType, x, ctx));
  if (type instanceof AbiStaticArrayType) return shrinkFixed(value as readonly AbiValue[], (x) => shrinkValue(type.childType, x, ctx));
  if (type instanceof AbiStructType) {
    const rec = value as { readonly [field: string]: AbiValue };
    const out: AbiValue[] = [];
    for (const f of type.fields) for (const s of shrinkValue(f.type, rec[f.name]!, ctx)) out.push({ ...rec, [f.name]: s });
    return out;
  }
  if (type instanceof AbiTupleType) return shrinkFixed(value as readonly AbiValue[], (x, i) => shrinkValue(type.childTypes[i]!, x, ctx));
  return [];
}

/** Simpler values for one method argument (references move toward the first account, the app itself, the first asset). */
export function shrinkArg(arg: AbiMethodArg, value: AbiValue, ctx: ArbitraryContext): AbiValue[] {
  if (arg.kind === 'value') return shrinkValue(arg.abiType, value, ctx);
  if (arg.kind === 'reference') {
    if (arg.type === 'account') return value !== ctx.accounts[0] ? [ctx.accounts[0]!] : [];
    if (arg.type === 'application') return value !== ctx.appId ? [ctx.appId] : [];
    const first = ctx.assets[0];
    return first !== undefined && value !== first ? [first] : [];
  }
  return [];
}
