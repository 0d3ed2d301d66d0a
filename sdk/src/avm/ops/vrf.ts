import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../../encoding/bytes.js';
import { bigToFixedBytes } from '../value.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const Point: any = ed25519.Point;
const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const A = 486662n;
const SUITE = 0x04;

const mod = (a: bigint) => ((a % P) + P) % P;
function pow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b = mod(b);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}
const inv = (a: bigint) => pow(a, P - 2n);
const leBytesToBig = (b: Uint8Array) => {
  let x = 0n;
  for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]!);
  return x;
};
const bigToLe = (x: bigint, n: number) => bigToFixedBytes(x, n).reverse();

function decode(b: Uint8Array): any | undefined {
  try {
    // Strict decoding: canonical y (< p), on the curve.
    return Point.fromBytes(b, false);
  } catch {
    return undefined;
  }
}

/** Elligator 2 onto edwards25519 with cofactor clearing, as libsodium's from_uniform does it. */
function fromUniform(r: Uint8Array): any {
  const s = Uint8Array.from(r);
  const xSign = s[31]! & 0x80;
  s[31]! &= 0x7f;
  const rr = mod(leBytesToBig(s));
  let x = mod(-A * inv(mod(2n * rr * rr + 1n)));
  const e = pow(mod(x * x * x + A * x * x + x), (P - 1n) / 2n);
  if (e === P - 1n) x = mod(-x - A);
  const y = mod((x - 1n) * inv(x + 1n));
  const enc = bigToLe(y, 32);
  enc[31]! |= xSign;
  const pt = Point.fromBytes(enc, false);
  return pt.multiplyUnsafe(8n);
}

/**
 * ECVRF-ED25519-SHA512-Elligator2 verification (draft-irtf-cfrg-vrf-03, the variant the
 * node's libsodium fork implements). Returns the 64-byte output and validity; the output is
 * all zeros when the proof does not verify.
 */
export function vrfVerify(pk: Uint8Array, proof: Uint8Array, alpha: Uint8Array): { ok: boolean; output: Uint8Array } {
  const fail = { ok: false, output: new Uint8Array(64) };
  const Y = decode(pk);
  if (!Y || Y.isSmallOrder()) return fail;
  const Gamma = decode(proof.subarray(0, 32));
  if (!Gamma) return fail;
  const c = leBytesToBig(proof.subarray(32, 48));
  const s = leBytesToBig(proof.subarray(48, 80));
  if (s >= L) return fail;
  const hash = sha512(concatBytes(Uint8Array.of(SUITE, 0x01), pk, alpha));
  const H = fromUniform(hash.subarray(0, 32).map((b, i) => (i === 31 ? b & 0x7f : b)));
  const U = Point.BASE.multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
  const V = H.multiplyUnsafe(s).subtract(Gamma.multiplyUnsafe(c));
  const cPrime = sha512(concatBytes(Uint8Array.of(SUITE, 0x02), H.toBytes(), Gamma.toBytes(), U.toBytes(), V.toBytes())).subarray(0, 16);
  for (let i = 0; i < 16; i++) if (cPrime[i] !== proof[32 + i]) return fail;
  const output = sha512(concatBytes(Uint8Array.of(SUITE, 0x03), Gamma.multiplyUnsafe(8n).toBytes()));
  return { ok: true, output };
}
