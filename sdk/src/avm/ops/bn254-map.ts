import { bn254 } from '@noble/curves/bn254.js';

/*
 * `ec_map_to` for BN254: the Shallue–van de Woestijne map of RFC 9380 (§6.6.1, straight-line
 * form of appendix F.1) with Z = 1 on both G1 (y² = x³ + 3) and the G2 twist, signs by the RFC's
 * sgn0 on canonical (non-Montgomery) values, then G2 cofactor clearing by the Fuentes-Castañeda
 * et al. endomorphism method. These are the choices of gnark-crypto (the library go-algorand
 * evaluates with, v0.18.1): its G2 map moved from Z = i to Z = 1 in 2022, and older published
 * G2 vectors still show the former. The tests pin the outputs to vectors of the Z = 1 form.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyPoint = any;
type Field<T> = {
  ZERO: T;
  ONE: T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  sqr(a: T): T;
  neg(a: T): T;
  inv(a: T): T;
  div(a: T, b: T): T;
  sqrt(a: T): T;
  is0(a: T): boolean;
};

const Fp = bn254.fields.Fp as unknown as Field<bigint> & { ORDER: bigint; pow(a: bigint, e: bigint): bigint };
const Fp2 = bn254.fields.Fp2 as unknown as Field<{ c0: bigint; c1: bigint }> & { create(v: { c0: bigint; c1: bigint }): { c0: bigint; c1: bigint } };
type E2 = { c0: bigint; c1: bigint };
const P = Fp.ORDER;

const legendreExp = (P - 1n) / 2n;
const isSquareFp = (a: bigint): boolean => a === 0n || Fp.pow(a, legendreExp) === 1n;
// Fp2 = Fp[i]/(i² + 1): a is a square iff its norm c0² + c1² is a square in Fp.
const isSquareFp2 = (a: E2): boolean => isSquareFp(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1)));
const sgn0Fp = (a: bigint): number => Number(a & 1n);
const sgn0Fp2 = (a: E2): number => Number(a.c0 & 1n) | (a.c0 === 0n ? Number(a.c1 & 1n) : 0);

interface Svdw<T> {
  map(u: T): { x: T; y: T };
}

/** Builds the map for y² = x³ + b over `F` with the given Z (curves with A = 0). */
function svdw<T>(F: Field<T>, k: (n: bigint) => T, Z: T, b: T, isSquare: (a: T) => boolean, sgn0: (a: T) => number): Svdw<T> {
  const g = (x: T): T => F.add(F.mul(F.sqr(x), x), b);
  const gZ = g(Z);
  const threeZ2 = F.mul(k(3n), F.sqr(Z));
  const c1 = gZ;
  const c2 = F.div(F.neg(Z), k(2n));
  let c3 = F.sqrt(F.neg(F.mul(gZ, threeZ2)));
  if (sgn0(c3) !== 0) c3 = F.neg(c3);
  const c4 = F.div(F.neg(F.mul(k(4n), gZ)), threeZ2);
  return {
    map(u: T) {
      let tv1 = F.mul(F.sqr(u), c1);
      const tv2 = F.add(F.ONE, tv1);
      tv1 = F.sub(F.ONE, tv1);
      const d = F.mul(tv1, tv2);
      const tv3 = F.is0(d) ? F.ZERO : F.inv(d);
      const tv4 = F.mul(F.mul(F.mul(u, tv1), tv3), c3);
      const x1 = F.sub(c2, tv4);
      const x2 = F.add(c2, tv4);
      const x3 = F.add(F.mul(F.sqr(F.mul(F.sqr(tv2), tv3)), c4), Z);
      const x = isSquare(g(x1)) ? x1 : isSquare(g(x2)) ? x2 : x3;
      let y = F.sqrt(g(x));
      if (sgn0(u) !== sgn0(y)) y = F.neg(y);
      return { x, y };
    },
  };
}

let g1Map: Svdw<bigint> | undefined;
let g2Map: Svdw<E2> | undefined;
const e2 = (c0: bigint, c1 = 0n): E2 => Fp2.create({ c0, c1 });

/** Twist coefficient b' = 3 / (9 + i), read off the generator. */
function twistB(): E2 {
  const gen = bn254.G2.Point.BASE.toAffine() as { x: E2; y: E2 };
  return Fp2.sub(Fp2.sqr(gen.y), Fp2.mul(Fp2.sqr(gen.x), gen.x));
}

/** Field element → G1 point (the cofactor is 1, so the map's output is already in the group). */
export function bn254MapToG1(u: bigint): AnyPoint {
  g1Map ??= svdw(Fp, (n) => n, 1n, 3n, isSquareFp, sgn0Fp);
  return bn254.G1.Point.fromAffine(g1Map.map(u));
}

// ψ = twist ∘ Frobenius ∘ untwist on G2: conjugate both coordinates, then scale by these.
const PSI_X = e2(
  21575463638280843010398324269430826099269044274347216827212613867836435027261n,
  10307601595873709700152284273816112264069230130616436755625194854815875713954n,
);
const PSI_Y = e2(
  2821565182194536844548159561693502659359617185244120367078079554186484126554n,
  3505843767911556378687030309984248845540243509899259641013678093033130930403n,
);
/** The BN parameter x (u = 4965661367192848881). */
const BN_X = 4965661367192848881n;

function psi(p: AnyPoint): AnyPoint {
  if (p.is0()) return p;
  const a = p.toAffine() as { x: E2; y: E2 };
  const conj = (v: E2): E2 => e2(v.c0, Fp.neg(v.c1));
  return bn254.G2.Point.fromAffine({ x: Fp2.mul(conj(a.x), PSI_X), y: Fp2.mul(conj(a.y), PSI_Y) });
}

/** [x]Q + ψ(3[x]Q) + ψ²([x]Q) + ψ³(Q): lands in the prime-order subgroup (a multiple of the plain cofactor clearing). */
function clearG2Cofactor(q: AnyPoint): AnyPoint {
  const xq = q.is0() ? q : q.multiplyUnsafe(BN_X);
  return xq
    .add(psi(xq.double().add(xq)))
    .add(psi(psi(xq)))
    .add(psi(psi(psi(q))));
}

/** Fp2 element (c0, c1) → G2 subgroup point. */
export function bn254MapToG2(c0: bigint, c1: bigint): AnyPoint {
  g2Map ??= svdw(Fp2, (n) => e2(n), e2(1n), twistB(), isSquareFp2, sgn0Fp2);
  return clearG2Cofactor(bn254.G2.Point.fromAffine(g2Map.map(e2(c0, c1))));
}
