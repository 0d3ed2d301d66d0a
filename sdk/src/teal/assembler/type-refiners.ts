/**
 * Stack-type refinement per op: ops whose effect on the tracked stack depends on immediates or on
 * what is already known (dig, swap, frame_dig after proto, scratch slots, …), as the reference
 * assembler tracks them. A refiner may replace the op's argument and result types, mutate the
 * knowledge directly (proto, store), or return an error text.
 */
import { parseInt64, parseUint } from './goparse.js';
import { parseBinaryArgs } from './literals.js';
import { txnFieldType } from './optable.js';
import {
  Avm,
  anyTypes,
  constInt,
  MAX_BYTE_MATH_SIZE,
  MAX_STRING_SIZE,
  sameType,
  StackAny,
  StackBytes,
  StackUint64,
  stackType,
  type StackType,
  unionType,
  widened,
} from './stacktypes.js';
import type { Token } from './tokenizer.js';

export interface Knowledge {
  stack: StackType[];
  bottom: StackType;
  deadcode: boolean;
  fp: number;
  scratch: StackType[];
}

export type RefineResult = { args?: StackType[]; returns?: StackType[]; error?: string };
export type Refiner = (k: Knowledge, args: Token[]) => RefineResult;

function getImm(args: readonly Token[], i: number, signed: boolean): number | undefined {
  const t = args[i];
  if (!t) return undefined;
  const n = parseInt64(t.str, 0, 9);
  if (n === undefined) return undefined;
  const v = Number(n);
  if (signed ? v < -128 || v > 127 : v < 0 || v > 255) return undefined;
  return v;
}

function top(k: Knowledge): StackType {
  return k.stack.length ? k.stack[k.stack.length - 1]! : k.bottom;
}

export const REFINERS: Record<string, Refiner> = {
  '==': typeEquals,
  '!=': typeEquals,
  load: (k, a) => {
    const n = getImm(a, 0, false);
    return n === undefined ? {} : { returns: [k.scratch[n]!] };
  },
  store: (k, a) => {
    const n = getImm(a, 0, false);
    if (n !== undefined && k.stack.length) k.scratch[n] = k.stack[k.stack.length - 1]!;
    return {};
  },
  loads: (k) => {
    const t = k.stack.length - 1;
    if (t < 0) return {};
    const c = constInt(k.stack[t]!);
    if (c !== undefined) return c < 256n ? { returns: [k.scratch[Number(c)]!] } : {};
    const first = k.scratch[0]!;
    for (const s of k.scratch) if (!sameType(s, first)) return {};
    return { returns: [first] };
  },
  stores: (k) => {
    const t = k.stack.length - 1;
    if (t < 0) return {};
    if (t >= 1) {
      const c = constInt(k.stack[t - 1]!);
      if (c !== undefined) {
        if (c < 256n) k.scratch[Number(c)] = k.stack[t]!;
        return {};
      }
    }
    for (let i = 0; i < 256; i++) k.scratch[i] = unionType(k.scratch[i]!, k.stack[t]!);
    return {};
  },
  dup: (k) => {
    const t = k.stack.length - 1;
    return t >= 0 ? { returns: [k.stack[t]!, k.stack[t]!] } : {};
  },
  dup2: (k) => {
    const two = [StackAny, StackAny];
    const t = k.stack.length - 1;
    if (t >= 0) {
      two[1] = k.stack[t]!;
      if (t >= 1) two[0] = k.stack[t - 1]!;
    }
    return { returns: [...two, ...two] };
  },
  dig: (k, a) => {
    const n = getImm(a, 0, false);
    if (n === undefined) return {};
    const depth = n + 1;
    const returns = anyTypes(depth + 1);
    const idx = k.stack.length - depth;
    if (idx >= 0) {
      for (let i = 0; i < depth; i++) returns[i] = k.stack[idx + i]!;
      returns[depth] = k.stack[idx]!;
    }
    return { args: anyTypes(depth), returns };
  },
  swap: (k) => {
    const sw = [StackAny, StackAny];
    const t = k.stack.length - 1;
    if (t >= 0) {
      sw[0] = k.stack[t]!;
      if (t >= 1) sw[1] = k.stack[t - 1]!;
    }
    return { returns: sw };
  },
  select: (k) => {
    const t = k.stack.length - 1;
    return t >= 2 ? { returns: [unionType(k.stack[t - 1]!, k.stack[t - 2]!)] } : {};
  },
  setbit: (k) => {
    const t = k.stack.length - 1;
    return t >= 2 ? { returns: [k.stack[t - 2]!] } : {};
  },
  cover: (k, a) => {
    const n = getImm(a, 0, false);
    if (n === undefined) return {};
    const depth = n + 1;
    const returns = anyTypes(depth);
    const len = k.stack.length;
    const idx = len - depth;
    if (idx >= 0) {
      returns[0] = k.stack[len - 1]!;
      for (let i = idx; i < len - 1; i++) returns[i - idx + 1] = k.stack[i]!;
    }
    return { args: anyTypes(depth), returns };
  },
  uncover: (k, a) => {
    const n = getImm(a, 0, false);
    if (n === undefined) return {};
    const depth = n + 1;
    const returns = anyTypes(depth);
    const len = k.stack.length;
    const idx = len - depth;
    if (idx >= 0) {
      returns[depth - 1] = k.stack[idx]!;
      for (let i = idx + 1; i < len; i++) returns[i - idx - 1] = k.stack[i]!;
    }
    return { args: anyTypes(depth), returns };
  },
  bury: (k, a) => {
    const n = getImm(a, 0, false);
    if (n === undefined) return {};
    if (n === 0) return { error: 'bury 0 always fails' };
    const t = k.stack.length - 1;
    const idx = t - n;
    if (idx < 0) return k.bottom.avm === Avm.None ? { args: anyTypes(n + 1) } : {};
    const returns = k.stack.slice(idx, idx + n);
    returns[0] = top(k);
    return { args: k.stack.slice(idx), returns };
  },
  popn: (_k, a) => {
    const n = getImm(a, 0, false);
    return n === undefined ? {} : { args: anyTypes(n) };
  },
  dupn: (k, a) => {
    const n = getImm(a, 0, false);
    if (n === undefined) return {};
    const t = k.stack.length - 1;
    if (t < 0) return {};
    return { returns: new Array<StackType>(n + 1).fill(k.stack[t]!) };
  },
  proto: (k, a) => {
    const n = getImm(a, 0, false);
    const r = getImm(a, 1, false);
    if (n === undefined || r === undefined) return {};
    if (k.stack.length !== 0 || k.bottom.avm !== Avm.Any) return { error: 'proto must be unreachable from previous PC' };
    k.stack = anyTypes(n);
    k.fp = n;
    return {};
  },
  frame_dig: (k, a) => {
    const n = getImm(a, 0, true);
    if (n === undefined || k.fp === -1) return {};
    const idx = k.fp + n;
    if (idx < 0) return { error: `frame_dig ${n} in sub with ${k.fp} args` };
    if (idx >= k.stack.length) return { error: 'frame_dig above stack' };
    return { returns: [k.stack[idx]!] };
  },
  frame_bury: (k, a) => {
    const n = getImm(a, 0, true);
    if (n === undefined) return {};
    const typ = top(k);
    if (k.fp === -1) {
      for (let i = 0; i < k.stack.length; i++) if (!sameType(k.stack[i]!, typ)) k.stack[i] = StackAny;
      return {};
    }
    const idx = k.fp + n;
    if (idx < 0) return { error: `frame_bury ${n} in sub with ${k.fp} args` };
    const t = k.stack.length - 1;
    if (idx >= t) return { error: 'frame_bury above stack' };
    const depth = t - idx;
    const returns = k.stack.slice(idx, idx + depth);
    returns[0] = typ;
    return { args: k.stack.slice(idx), returns };
  },
  match: (_k, a) => ({ args: anyTypes(a.length + 1) }),
  pushbytess: (_k, a) => ({ returns: new Array<StackType>(a.length).fill(StackBytes) }),
  pushints: (_k, a) => ({ returns: new Array<StackType>(a.length).fill(StackUint64) }),
  'b+': () => ({ returns: [BYTE_SUM] }),
  'b*': () => ({ returns: [BYTE_PRODUCT] }),
  bzero: () => ({ args: [BZERO_LENGTH], returns: [StackBytes] }),
  itxn_field: (_k, a) => {
    if (a.length !== 1) return {};
    const t = txnFieldType(a[0]!.str);
    return t ? { args: [t] } : {};
  },
  int: (_k, a) => ({
    returns: a.map((t) => {
      const v = parseUint(t.str, 10, 64);
      return v === undefined ? StackUint64 : constIntType(v);
    }),
  }),
  byte: (_k, a) => {
    if (a.length === 0) return { returns: [StackBytes] };
    let len = 0;
    try {
      len = parseBinaryArgs(a.map((t) => t.str)).value.length;
    } catch {
      len = 0;
    }
    return { returns: [fixedBytesType(len)] };
  },
};

// Types are immutable values, so the common ones are made once instead of per instruction.
const BYTE_SUM = stackType(Avm.Bytes, 0n, MAX_BYTE_MATH_SIZE + 1n);
const BYTE_PRODUCT = stackType(Avm.Bytes, 0n, MAX_BYTE_MATH_SIZE * 2n);
const BZERO_LENGTH = stackType(Avm.Uint, 0n, MAX_STRING_SIZE);
const SMALL_INT_TYPES: StackType[] = [];
const FIXED_BYTES_TYPES: StackType[] = [];

/** The type of a known uint64 constant (small ones shared). */
function constIntType(v: bigint): StackType {
  if (v >= 1024n) return stackType(Avm.Uint, v, v);
  const i = Number(v);
  return (SMALL_INT_TYPES[i] ??= stackType(Avm.Uint, v, v));
}

/** `[n]byte`, as the byte pseudo-op names its result (lengths are at most a few KiB). */
function fixedBytesType(len: number): StackType {
  if (len > 8192) return stackType(Avm.Bytes, BigInt(len), BigInt(len), `[${len}]byte`);
  return (FIXED_BYTES_TYPES[len] ??= stackType(Avm.Bytes, BigInt(len), BigInt(len), `[${len}]byte`));
}

function typeEquals(k: Knowledge): RefineResult {
  const t = k.stack.length - 1;
  if (t < 0) return {};
  const w = widened(k.stack[t]!);
  return { args: [w, w] };
}
