import { bn254 } from '@noble/curves/bn254.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { fault, AvmUnsupportedFault } from '../errors.js';
import { declareUnsupported, defineOp } from './registry.js';
import type { EvalContext } from '../context.js';
import type { Instr } from '../program.js';
import { bigToFixedBytes, bytesToBigUnsigned } from '../value.js';
import { bn254MapToG1, bn254MapToG2 } from './bn254-map.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyPoint = any;

interface Group {
  name: string;
  /** Bytes of one base-field element. */
  fp: number;
  /** Whether coordinates are in the quadratic extension (G2). */
  ext: boolean;
  Point: AnyPoint;
  Fp: AnyPoint;
  b: AnyPoint;
  p: bigint;
  mapToCurve: (scalars: bigint[]) => AnyPoint;
}

function group(name: string, fp: number, ext: boolean, Point: AnyPoint, Fp: AnyPoint, p: bigint, mapToCurve: (s: bigint[]) => AnyPoint): Group {
  // The curve constant b, recovered from the generator: b = y² − x³.
  const g = Point.BASE.toAffine();
  const b = Fp.sub(Fp.sqr(g.y), Fp.mul(Fp.sqr(g.x), g.x));
  return { name, fp, ext, Point, Fp, b, p, mapToCurve };
}

const bnP = bn254.fields.Fp.ORDER;
const blsP = bls12_381.fields.Fp.ORDER;
const GROUPS: Record<string, Group> = {
  BN254g1: group('BN254g1', 32, false, bn254.G1.Point, bn254.fields.Fp, bnP, (s) => bn254MapToG1(s as unknown as bigint)),
  BN254g2: group('BN254g2', 32, true, bn254.G2.Point, bn254.fields.Fp2, bnP, (s) => bn254MapToG2(s[0]!, s[1]!)),
  BLS12_381g1: group('BLS12_381g1', 48, false, bls12_381.G1.Point, bls12_381.fields.Fp, blsP, (s) => (bls12_381.G1 as AnyPoint).mapToCurve(s)),
  BLS12_381g2: group('BLS12_381g2', 48, true, bls12_381.G2.Point, bls12_381.fields.Fp2, blsP, (s) => (bls12_381.G2 as AnyPoint).mapToCurve(s)),
};

function fieldElement(g: Group, b: Uint8Array): bigint {
  const v = bytesToBigUnsigned(b);
  if (v >= g.p) fault(`field element ${v} larger than modulus ${g.p}`);
  return v;
}

function pointSize(g: Group): number {
  return g.fp * (g.ext ? 4 : 2);
}

/** Decodes an uncompressed big-endian point (x then y; G2 coordinates as c0 then c1); all zeros is infinity. */
function decodePoint(g: Group, b: Uint8Array): AnyPoint {
  const size = pointSize(g);
  if (b.length !== size) fault(`bad length ${b.length}. Expected ${size}`);
  const n = g.fp;
  const e = (i: number) => fieldElement(g, b.subarray(i * n, (i + 1) * n));
  const x = g.ext ? g.Fp.create({ c0: e(0), c1: e(1) }) : e(0);
  const y = g.ext ? g.Fp.create({ c0: e(2), c1: e(3) }) : e(1);
  if (g.Fp.is0(x) && g.Fp.is0(y)) return g.Point.ZERO;
  const onCurve = g.Fp.eql(g.Fp.sqr(y), g.Fp.add(g.Fp.mul(g.Fp.sqr(x), x), g.b));
  if (!onCurve) fault('point not on curve');
  return g.Point.fromAffine({ x, y });
}

function decodePoints(g: Group, b: Uint8Array, checkSubgroup: boolean): AnyPoint[] {
  const size = pointSize(g);
  if (b.length % size !== 0) fault(`bad length ${b.length}. Expected ${size} multiple`);
  if (b.length === 0) fault('empty input');
  const out: AnyPoint[] = [];
  for (let off = 0; off < b.length; off += size) {
    const p = decodePoint(g, b.subarray(off, off + size));
    if (checkSubgroup && !inSubgroup(p)) fault('wrong subgroup');
    out.push(p);
  }
  return out;
}

function inSubgroup(p: AnyPoint): boolean {
  return p.is0() || p.isTorsionFree();
}

function encodePoint(g: Group, p: AnyPoint): Uint8Array {
  const out = new Uint8Array(pointSize(g));
  if (p.is0()) return out;
  const a = p.toAffine();
  const n = g.fp;
  if (g.ext) {
    out.set(bigToFixedBytes(a.x.c0, n), 0);
    out.set(bigToFixedBytes(a.x.c1, n), n);
    out.set(bigToFixedBytes(a.y.c0, n), 2 * n);
    out.set(bigToFixedBytes(a.y.c1, n), 3 * n);
  } else {
    out.set(bigToFixedBytes(a.x, n), 0);
    out.set(bigToFixedBytes(a.y, n), n);
  }
  return out;
}

const OFF_SUBGROUP_NOTE = 'scalar multiplication of a point outside the prime-order subgroup (the reference uses an endomorphism valid only inside it)';

/**
 * k·P for a point of the prime-order subgroup (where every multiplication method agrees). The
 * reference multiplies with an endomorphism that is only meaningful inside the subgroup, so for
 * other points (possible on every group but BN254 G1) we refuse rather than return k·P.
 */
function mulChecked(g: Group, name: string, p: AnyPoint, k: bigint): AnyPoint {
  if (g.name !== 'BN254g1' && !inSubgroup(p)) throw new AvmUnsupportedFault(name, OFF_SUBGROUP_NOTE);
  return mul(p, k);
}

/** k·P by double-and-add (any k, including multiples of the group order). */
function mul(p: AnyPoint, k: bigint): AnyPoint {
  let r = p.constructor.ZERO ?? p.subtract(p);
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    r = r.double();
    if ((k >> i) & 1n) r = r.add(p);
  }
  return r;
}

const g = (ins: Instr): Group => GROUPS[ins.field!.name]!;

defineOp('ec_add', (cx: EvalContext, ins: Instr) => {
  const s = cx.stack;
  const G = g(ins);
  const a = decodePoint(G, s[cx.sp - 2] as Uint8Array);
  const b = decodePoint(G, s[cx.sp - 1] as Uint8Array);
  cx.sp--;
  s[cx.sp - 1] = encodePoint(G, a.add(b));
});

defineOp('ec_scalar_mul', (cx, ins) => {
  const s = cx.stack;
  const G = g(ins);
  const kb = s[cx.sp - 1] as Uint8Array;
  if (kb.length > 32) fault(`ec_scalar_mul scalar len is ${kb.length}, exceeds 32`);
  const a = decodePoint(G, s[cx.sp - 2] as Uint8Array);
  cx.sp--;
  s[cx.sp - 1] = encodePoint(G, mulChecked(G, 'ec_scalar_mul', a, bytesToBigUnsigned(kb)));
});

defineOp('ec_multi_scalar_mul', (cx, ins) => {
  const s = cx.stack;
  const G = g(ins);
  const points = decodePoints(G, s[cx.sp - 2] as Uint8Array, false);
  const sc = s[cx.sp - 1] as Uint8Array;
  if (sc.length !== 32 * points.length) fault(`bad scalars length ${sc.length}. Expected ${32 * points.length}`);
  let sum = G.Point.ZERO;
  for (let i = 0; i < points.length; i++) sum = sum.add(mulChecked(G, 'ec_multi_scalar_mul', points[i], bytesToBigUnsigned(sc.subarray(32 * i, 32 * i + 32))));
  cx.sp--;
  s[cx.sp - 1] = encodePoint(G, sum);
});

defineOp('ec_pairing_check', (cx, ins) => {
  const s = cx.stack;
  const name = ins.field!.name;
  const bls = name.startsWith('BLS');
  const G1 = GROUPS[bls ? 'BLS12_381g1' : 'BN254g1']!;
  const G2 = GROUPS[bls ? 'BLS12_381g2' : 'BN254g2']!;
  let a = s[cx.sp - 2] as Uint8Array;
  let b = s[cx.sp - 1] as Uint8Array;
  // With the G2 field the operands arrive in the opposite order.
  if (name.endsWith('g2')) [a, b] = [b, a];
  const p1 = decodePoints(G1, a, true);
  const p2 = decodePoints(G2, b, true);
  if (p1.length !== p2.length) fault('invalid inputs sizes');
  const pairs = [];
  for (let i = 0; i < p1.length; i++) if (!p1[i].is0() && !p2[i].is0()) pairs.push({ g1: p1[i], g2: p2[i] });
  const curve: AnyPoint = bls ? bls12_381 : bn254;
  const ok = pairs.length === 0 || curve.fields.Fp12.eql(curve.pairingBatch(pairs), curve.fields.Fp12.ONE);
  cx.sp--;
  s[cx.sp - 1] = ok ? 1 : 0;
});

defineOp('ec_subgroup_check', (cx, ins) => {
  const s = cx.stack;
  s[cx.sp - 1] = inSubgroup(decodePoint(g(ins), s[cx.sp - 1] as Uint8Array)) ? 1 : 0;
});

declareUnsupported('ec_scalar_mul', `${new AvmUnsupportedFault('ec_scalar_mul', OFF_SUBGROUP_NOTE).message} (subgroup points supported)`);
declareUnsupported('ec_multi_scalar_mul', `${new AvmUnsupportedFault('ec_multi_scalar_mul', OFF_SUBGROUP_NOTE).message} (subgroup points supported)`);

defineOp('ec_map_to', (cx, ins) => {
  const s = cx.stack;
  const G = g(ins);
  const b = s[cx.sp - 1] as Uint8Array;
  if (G.ext) {
    if (b.length !== 2 * G.fp) fault(`bad encoded element length: ${b.length}`);
    const pair = [fieldElement(G, b.subarray(0, G.fp)), fieldElement(G, b.subarray(G.fp))];
    s[cx.sp - 1] = encodePoint(G, G.mapToCurve(pair));
  } else {
    // single-coordinate curves take the bare field element
    s[cx.sp - 1] = encodePoint(G, G.mapToCurve(fieldElement(G, b) as unknown as bigint[]));
  }
});
