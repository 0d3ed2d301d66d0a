import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import { MAX_SAFE, MAX_UINT64, big, fromBig, itob, btoiRange, bytesEq } from '../value.js';
import type { StackValue } from '../value.js';
import type { EvalContext } from '../context.js';

type U = number | bigint;
const TWO64 = 1n << 64n;

function binary(name: string, f: (a: U, b: U) => StackValue): void {
  defineOp(name, (cx: EvalContext) => {
    const s = cx.stack;
    const sp = --cx.sp;
    s[sp - 1] = f(s[sp - 1] as U, s[sp] as U);
  });
}

// The hottest ops get their own function bodies (not the shared `binary` wrapper) so each call
// site keeps its own type feedback.
defineOp('+', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const a = s[sp - 1] as U;
  const b = s[sp] as U;
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (r <= MAX_SAFE) {
      s[sp - 1] = r;
      return;
    }
  }
  const x = big(a) + big(b);
  if (x > MAX_UINT64) fault('+ overflowed');
  s[sp - 1] = fromBig(x);
});

defineOp('-', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const a = s[sp - 1] as U;
  const b = s[sp] as U;
  if (typeof a === 'number' && typeof b === 'number') {
    if (b > a) fault('- would result negative');
    s[sp - 1] = a - b;
    return;
  }
  const x = big(a) - big(b);
  if (x < 0n) fault('- would result negative');
  s[sp - 1] = fromBig(x);
});

defineOp('*', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const a = s[sp - 1] as U;
  const b = s[sp] as U;
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    // A product at most 2^53−1 is computed exactly; anything larger rounds to ≥ 2^53.
    if (r <= MAX_SAFE) {
      s[sp - 1] = r;
      return;
    }
  }
  const x = big(a) * big(b);
  if (x > MAX_UINT64) fault('* overflowed');
  s[sp - 1] = fromBig(x);
});

binary('/', (a, b) => {
  if (b === 0) fault('/ 0');
  if (typeof a === 'number' && typeof b === 'number') return (a - (a % b)) / b;
  return fromBig(big(a) / big(b));
});

binary('%', (a, b) => {
  if (b === 0) fault('% 0');
  if (typeof a === 'number' && typeof b === 'number') return a % b;
  return fromBig(big(a) % big(b));
});

// Canonical uints compare correctly with JS operators across number/bigint.
defineOp('<', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = (s[sp - 1] as U) < (s[sp] as U) ? 1 : 0;
});
defineOp('>', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = (s[sp - 1] as U) > (s[sp] as U) ? 1 : 0;
});
defineOp('<=', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = (s[sp - 1] as U) <= (s[sp] as U) ? 1 : 0;
});
defineOp('>=', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = (s[sp - 1] as U) >= (s[sp] as U) ? 1 : 0;
});
binary('&&', (a, b) => (a !== 0 && b !== 0 ? 1 : 0));
binary('||', (a, b) => (a !== 0 || b !== 0 ? 1 : 0));

function equal(a: StackValue, b: StackValue): boolean {
  const ab = typeof a === 'object';
  if (ab !== (typeof b === 'object')) {
    fault(`cannot compare (${ab ? '[]byte' : 'uint64'} to ${ab ? 'uint64' : '[]byte'})`);
  }
  return ab ? bytesEq(a as Uint8Array, b as Uint8Array) : a === b;
}

defineOp('==', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = equal(s[sp - 1]!, s[sp]!) ? 1 : 0;
});
defineOp('!=', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = equal(s[sp - 1]!, s[sp]!) ? 0 : 1;
});
defineOp('!', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = s[cx.sp - 1] === 0 ? 1 : 0;
});

const SMALL = 0x7fffffff;
binary('|', (a, b) => (typeof a === 'number' && typeof b === 'number' && a <= SMALL && b <= SMALL ? a | b : fromBig(big(a) | big(b))));
binary('&', (a, b) => (typeof a === 'number' && typeof b === 'number' && a <= SMALL && b <= SMALL ? a & b : fromBig(big(a) & big(b))));
binary('^', (a, b) => (typeof a === 'number' && typeof b === 'number' && a <= SMALL && b <= SMALL ? a ^ b : fromBig(big(a) ^ big(b))));
defineOp('~', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = fromBig(MAX_UINT64 ^ big(s[cx.sp - 1] as U));
});

defineOp('len', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = (s[cx.sp - 1] as Uint8Array).length;
});
defineOp('itob', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = itob(s[cx.sp - 1] as U);
});
defineOp('btoi', (cx) => {
  const s = cx.stack;
  const b = s[cx.sp - 1] as Uint8Array;
  if (b.length > 8) fault(`btoi arg too long, got ${b.length} bytes`);
  s[cx.sp - 1] = btoiRange(b, 0, b.length);
});

function pushPair(cx: EvalContext, hi: bigint, lo: bigint): void {
  const s = cx.stack;
  s[cx.sp - 2] = fromBig(hi);
  s[cx.sp - 1] = fromBig(lo);
}

defineOp('mulw', (cx) => {
  const s = cx.stack;
  const p = big(s[cx.sp - 2] as U) * big(s[cx.sp - 1] as U);
  pushPair(cx, p >> 64n, p & MAX_UINT64);
});
defineOp('addw', (cx) => {
  const s = cx.stack;
  const p = big(s[cx.sp - 2] as U) + big(s[cx.sp - 1] as U);
  pushPair(cx, p >> 64n, p & MAX_UINT64);
});
defineOp('divmodw', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const n = (big(s[sp - 4] as U) << 64n) | big(s[sp - 3] as U);
  const d = (big(s[sp - 2] as U) << 64n) | big(s[sp - 1] as U);
  if (d === 0n) fault('/ 0');
  const q = n / d;
  const r = n % d;
  s[sp - 4] = fromBig(q >> 64n);
  s[sp - 3] = fromBig(q & MAX_UINT64);
  s[sp - 2] = fromBig(r >> 64n);
  s[sp - 1] = fromBig(r & MAX_UINT64);
});
defineOp('divw', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const hi = big(s[sp - 3] as U);
  const lo = big(s[sp - 2] as U);
  const y = big(s[sp - 1] as U);
  if (y === 0n) fault('divw 0');
  if (y <= hi) fault(`divw overflow: ${y} <= ${hi}`);
  s[sp - 3] = fromBig(((hi << 64n) | lo) / y);
  cx.sp = sp - 2;
});

function power(base: bigint, exp: bigint, limit: bigint): bigint {
  if (base === 0n && exp === 0n) fault('0^0 is undefined');
  if (exp === 0n || base === 1n) return 1n;
  if (base === 0n) return 0n;
  // base ≥ 2, so an exponent ≥ 128 always overflows even the 128-bit limit.
  if (exp >= 128n) fault(`${base}^${exp} overflow`);
  const r = base ** exp;
  if (r > limit) fault(`${base}^${exp} overflow`);
  return r;
}

defineOp('exp', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = fromBig(power(big(s[sp - 1] as U), big(s[sp] as U), MAX_UINT64));
});
defineOp('expw', (cx) => {
  const s = cx.stack;
  const r = power(big(s[cx.sp - 2] as U), big(s[cx.sp - 1] as U), TWO64 * TWO64 - 1n);
  pushPair(cx, r >> 64n, r & MAX_UINT64);
});

export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's iteration from an over-estimate converges downward to floor(sqrt(n)).
  let x = 1n << (BigInt(n.toString(2).length + 1) >> 1n);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

defineOp('sqrt', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = fromBig(isqrt(big(s[cx.sp - 1] as U)));
});

defineOp('bitlen', (cx) => {
  const s = cx.stack;
  const v = s[cx.sp - 1]!;
  if (typeof v === 'object') {
    let i = 0;
    while (i < v.length && v[i] === 0) i++;
    s[cx.sp - 1] = i === v.length ? 0 : (v.length - i - 1) * 8 + (32 - Math.clz32(v[i]!));
  } else {
    s[cx.sp - 1] = v === 0 || v === 0n ? 0 : big(v).toString(2).length;
  }
});

defineOp('shl', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const n = s[sp] as U;
  if (n > 63) fault(`shl arg too big, (${n})`);
  s[sp - 1] = fromBig((big(s[sp - 1] as U) << big(n)) & MAX_UINT64);
});
defineOp('shr', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const n = s[sp] as U;
  if (n > 63) fault(`shr arg too big, (${n})`);
  s[sp - 1] = fromBig(big(s[sp - 1] as U) >> big(n));
});
