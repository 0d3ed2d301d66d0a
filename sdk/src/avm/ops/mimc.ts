import { keccak_256 } from '@noble/hashes/sha3.js';
import { AvmFault } from '../errors.js';
import { bigToFixedBytes, bytesToBigUnsigned } from '../value.js';

/** Scalar-field moduli of the two curves and the round counts of gnark-crypto's MiMC. */
const CONFIGS = {
  BN254Mp110: { r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n, rounds: 110 },
  BLS12_381Mp111: { r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n, rounds: 111 },
} as const;

const constantCache = new Map<string, bigint[]>();

/** Round constants: keccak256 chained from the seed "seed", each reduced into the field. */
function constants(name: keyof typeof CONFIGS): bigint[] {
  let c = constantCache.get(name);
  if (c) return c;
  const { r, rounds } = CONFIGS[name];
  c = [];
  let rnd = keccak_256(new TextEncoder().encode('seed'));
  for (let i = 0; i < rounds; i++) {
    rnd = keccak_256(rnd);
    c.push(bytesToBigUnsigned(rnd) % r);
  }
  constantCache.set(name, c);
  return c;
}

/** MiMC in Miyaguchi–Preneel mode over 32-byte big-endian field elements (x^5 rounds). */
export function mimcHash(name: keyof typeof CONFIGS, data: Uint8Array): Uint8Array {
  const { r } = CONFIGS[name];
  const c = constants(name);
  let h = 0n;
  for (let off = 0; off < data.length; off += 32) {
    const x = bytesToBigUnsigned(data.subarray(off, off + 32));
    if (x >= r) throw new AvmFault('invalid mimc input: not a field element (non-canonical)');
    let m = x;
    for (let i = 0; i < c.length; i++) {
      const t = (m + h + c[i]!) % r;
      const t2 = (t * t) % r;
      m = (((t2 * t2) % r) * t) % r;
    }
    m = (m + h) % r;
    h = (m + h + x) % r;
  }
  return bigToFixedBytes(h, 32);
}
