import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import { bigToMinimalBytes, bytesToBigUnsigned } from '../value.js';
import { isqrt } from './arith.js';

const MAX_MATH = 64;

function operand(b: Uint8Array): bigint {
  if (b.length > MAX_MATH) fault('math attempted on large byte-array');
  return bytesToBigUnsigned(b);
}

function arith(name: string, f: (a: bigint, b: bigint) => bigint): void {
  defineOp(name, (cx) => {
    const s = cx.stack;
    const sp = --cx.sp;
    const b = s[sp] as Uint8Array;
    const a = s[sp - 1] as Uint8Array;
    if (a.length > MAX_MATH || b.length > MAX_MATH) fault('math attempted on large byte-array');
    const r = f(bytesToBigUnsigned(a), bytesToBigUnsigned(b));
    if (r < 0n) fault('byte math would have negative result');
    s[sp - 1] = bigToMinimalBytes(r);
  });
}

arith('b+', (a, b) => a + b);
arith('b-', (a, b) => a - b);
arith('b*', (a, b) => a * b);
arith('b/', (a, b) => (b === 0n ? fault('division by zero') : a / b));
arith('b%', (a, b) => (b === 0n ? fault('modulo by zero') : a % b));

function compare(name: string, f: (c: number) => boolean): void {
  defineOp(name, (cx) => {
    const s = cx.stack;
    const sp = --cx.sp;
    const b = operand(s[sp] as Uint8Array);
    const a = operand(s[sp - 1] as Uint8Array);
    s[sp - 1] = f(a < b ? -1 : a > b ? 1 : 0) ? 1 : 0;
  });
}
compare('b<', (c) => c < 0);
compare('b>', (c) => c > 0);
compare('b<=', (c) => c <= 0);
compare('b>=', (c) => c >= 0);
compare('b==', (c) => c === 0);
compare('b!=', (c) => c !== 0);

function logic(name: string, f: (x: number, y: number) => number): void {
  defineOp(name, (cx) => {
    const s = cx.stack;
    const sp = --cx.sp;
    const b = s[sp] as Uint8Array;
    const a = s[sp - 1] as Uint8Array;
    // The shorter operand is zero-padded on the left; the result has the longer length.
    const n = Math.max(a.length, b.length);
    const out = new Uint8Array(n);
    const da = n - a.length;
    const db = n - b.length;
    for (let i = 0; i < n; i++) out[i] = f(i >= da ? a[i - da]! : 0, i >= db ? b[i - db]! : 0) & 0xff;
    s[sp - 1] = out;
  });
}
logic('b|', (x, y) => x | y);
logic('b&', (x, y) => x & y);
logic('b^', (x, y) => x ^ y);
defineOp('b~', (cx) => {
  const s = cx.stack;
  const a = s[cx.sp - 1] as Uint8Array;
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = ~a[i]! & 0xff;
  s[cx.sp - 1] = out;
});
defineOp('bsqrt', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = bigToMinimalBytes(isqrt(operand(s[cx.sp - 1] as Uint8Array)));
});
