import { fault, AvmFault } from '../errors.js';
import { defineOp } from './registry.js';
import { MAX_BYTES, big, btoiRange, concat2, fromBig, asIndex } from '../value.js';
import type { EvalContext } from '../context.js';
import type { Instr } from '../program.js';
import { decodeGoBase64 } from './go-base64.js';
import { jsonRef } from './json-ref.js';

type U = number | bigint;

defineOp('concat', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const a = s[sp - 1] as Uint8Array;
  const b = s[sp] as Uint8Array;
  if (a.length + b.length > MAX_BYTES) fault(`concat produced a too big (${a.length + b.length}) byte-array`);
  s[sp - 1] = concat2(a, b);
});

function substring(x: Uint8Array, start: number, end: number): Uint8Array {
  if (end < start) fault('substring end before start');
  if (start > x.length || end > x.length) fault('substring range beyond length of string');
  return x.subarray(start, end);
}

defineOp('substring', (cx, ins) => {
  const s = cx.stack;
  s[cx.sp - 1] = substring(s[cx.sp - 1] as Uint8Array, ins.imm[0]!, ins.imm[1]!);
});
defineOp('substring3', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const start = asIndex(s[sp - 2] as U);
  const end = asIndex(s[sp - 1] as U);
  if (start > 0x7fffffff || end > 0x7fffffff) fault('substring range beyond length of string');
  s[sp - 3] = substring(s[sp - 3] as Uint8Array, start, end);
  cx.sp = sp - 2;
});

export function extractCarefully(x: Uint8Array, start: number | bigint, length: number | bigint): Uint8Array {
  if (start > x.length) fault(`extraction start ${start} is beyond length: ${x.length}`);
  const end = big(start) + big(length);
  if (end > 0xffffffffffffffffn) fault('extraction end exceeds uint64');
  if (end > BigInt(x.length)) fault(`extraction end ${end} is beyond length: ${x.length}`);
  return x.subarray(Number(start), Number(end));
}

defineOp('extract', (cx, ins) => {
  const s = cx.stack;
  const x = s[cx.sp - 1] as Uint8Array;
  const start = ins.imm[0]!;
  let length = ins.imm[1]!;
  if (length === 0) {
    if (start > x.length) fault(`extraction start ${start} is beyond length: ${x.length}`);
    length = x.length - start;
  }
  s[cx.sp - 1] = extractCarefully(x, start, length);
});
defineOp('extract3', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  s[sp - 3] = extractCarefully(s[sp - 3] as Uint8Array, s[sp - 2] as U, s[sp - 1] as U);
  cx.sp = sp - 2;
});
for (const [name, width] of [
  ['extract_uint16', 2],
  ['extract_uint32', 4],
  ['extract_uint64', 8],
] as const) {
  defineOp(name, (cx) => {
    const s = cx.stack;
    const sp = --cx.sp;
    const x = s[sp - 1] as Uint8Array;
    const slice = extractCarefully(x, s[sp] as U, width);
    s[sp - 1] = btoiRange(slice, 0, width);
  });
}

function replaceCarefully(original: Uint8Array, replacement: Uint8Array, start: number | bigint): Uint8Array {
  if (start > original.length) fault(`replacement start ${start} beyond length: ${original.length}`);
  const st = Number(start);
  const end = st + replacement.length;
  if (end > original.length) fault(`replacement end ${end} beyond original length: ${original.length}`);
  const out = original.slice();
  out.set(replacement, st);
  return out;
}

defineOp('replace2', (cx, ins) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = replaceCarefully(s[sp - 1] as Uint8Array, s[sp] as Uint8Array, ins.imm[0]!);
});
defineOp('replace3', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  s[sp - 3] = replaceCarefully(s[sp - 3] as Uint8Array, s[sp - 1] as Uint8Array, s[sp - 2] as U);
  cx.sp = sp - 2;
});

defineOp('getbyte', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const x = s[sp - 1] as Uint8Array;
  const i = s[sp] as U;
  if (i >= x.length) fault('getbyte index beyond array length');
  s[sp - 1] = x[Number(i)]!;
});
defineOp('setbyte', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const v = s[sp - 1] as U;
  const i = s[sp - 2] as U;
  const x = s[sp - 3] as Uint8Array;
  if (v > 255) fault('setbyte value > 255');
  if (i >= x.length) fault('setbyte index beyond array length');
  const out = x.slice();
  out[Number(i)] = Number(v);
  s[sp - 3] = out;
  cx.sp = sp - 2;
});
defineOp('getbit', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const idx = s[sp] as U;
  const t = s[sp - 1]!;
  if (typeof t === 'object') {
    const byteIdx = asIndex(idx) === Infinity ? Infinity : Math.floor(Number(idx) / 8);
    if (byteIdx >= t.length) fault('getbit index beyond byteslice');
    const bit = Number(idx) % 8;
    s[sp - 1] = (t[byteIdx]! >> (7 - bit)) & 1;
  } else {
    if (idx > 63) fault('getbit index > 63 with Uint');
    s[sp - 1] = Number((big(t) >> big(idx)) & 1n);
  }
});
defineOp('setbit', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const bit = s[sp - 1] as U;
  const idx = s[sp - 2] as U;
  const t = s[sp - 3]!;
  if (bit > 1) fault('setbit value > 1');
  if (typeof t === 'object') {
    const byteIdx = asIndex(idx) === Infinity ? Infinity : Math.floor(Number(idx) / 8);
    if (byteIdx >= t.length) fault('setbit index beyond byteslice');
    const mask = 0x80 >> (Number(idx) % 8);
    const out = t.slice();
    if (bit === 1) out[byteIdx] = out[byteIdx]! | mask;
    else out[byteIdx] = out[byteIdx]! & ~mask;
    s[sp - 3] = out;
  } else {
    if (idx > 63) fault('setbit index > 63 with Uint');
    const mask = 1n << big(idx);
    s[sp - 3] = fromBig(bit === 1 ? big(t) | mask : big(t) & ~mask);
  }
  cx.sp = sp - 2;
});

defineOp('bzero', (cx) => {
  const s = cx.stack;
  const n = s[cx.sp - 1] as U;
  if (n > MAX_BYTES) fault('bzero attempted to create a too large string');
  s[cx.sp - 1] = new Uint8Array(Number(n));
});

defineOp(
  'base64_decode',
  (cx: EvalContext, ins: Instr) => {
    const s = cx.stack;
    s[cx.sp - 1] = decodeGoBase64(s[cx.sp - 1] as Uint8Array, ins.data as boolean);
  },
  (ins) => {
    ins.data = ins.field?.name === 'URLEncoding';
  },
);

defineOp('json_ref', (cx: EvalContext, ins: Instr) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const key = s[sp] as Uint8Array;
  const text = s[sp - 1] as Uint8Array;
  try {
    s[sp - 1] = jsonRef(text, key, ins.field!.name);
  } catch (e) {
    if (e instanceof AvmFault) throw e;
    throw new AvmFault(String((e as Error).message));
  }
});
