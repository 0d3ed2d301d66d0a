import { keccak_256 } from '@noble/hashes/sha3.js';
import { AvmFault } from '../errors.js';
import { bigToFixedBytes, bytesToBigUnsigned } from '../value.js';

/**
 * Poseidon2 (width 2, 6 full + 50 partial rounds, x^5) in Merkle–Damgård mode with compression
 * `perm(h, x)[1] + x`, as gnark-crypto's default hasher that the node uses. Round keys are a
 * keccak256 chain seeded with the parameter string.
 */
const CONFIGS = {
  BN254t2: { r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n, seed: 'Poseidon2-BN254[t=2,rF=6,rP=50,d=5]' },
  BLS12_381t2: { r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n, seed: 'Poseidon2-BLS12_381[t=2,rF=6,rP=50,d=5]' },
} as const;
const FULL = 6;
const PARTIAL = 50;

type Name = keyof typeof CONFIGS;
const keyCache = new Map<Name, bigint[][]>();

function roundKeys(name: Name): bigint[][] {
  let keys = keyCache.get(name);
  if (keys) return keys;
  const { r, seed } = CONFIGS[name];
  let rnd = keccak_256(new TextEncoder().encode(seed));
  const next = () => {
    rnd = keccak_256(rnd);
    return bytesToBigUnsigned(rnd) % r;
  };
  keys = [];
  for (let i = 0; i < FULL + PARTIAL; i++) {
    const full = i < FULL / 2 || i >= FULL / 2 + PARTIAL;
    keys.push(full ? [next(), next()] : [next()]);
  }
  keyCache.set(name, keys);
  return keys;
}

function permute(name: Name, a: bigint, b: bigint): [bigint, bigint] {
  const { r } = CONFIGS[name];
  const keys = roundKeys(name);
  const sbox = (x: bigint) => {
    const x2 = (x * x) % r;
    return (((x2 * x2) % r) * x) % r;
  };
  // external matrix circ(2,1); internal matrix [[2,1],[1,3]]
  const ext = () => {
    const s = (a + b) % r;
    a = (a + s) % r;
    b = (b + s) % r;
  };
  const int = () => {
    const s = (a + b) % r;
    a = (a + s) % r;
    b = (2n * b + s) % r;
  };
  ext();
  for (let i = 0; i < FULL / 2; i++) {
    a = sbox((a + keys[i]![0]!) % r);
    b = sbox((b + keys[i]![1]!) % r);
    ext();
  }
  for (let i = FULL / 2; i < FULL / 2 + PARTIAL; i++) {
    a = sbox((a + keys[i]![0]!) % r);
    int();
  }
  for (let i = FULL / 2 + PARTIAL; i < FULL + PARTIAL; i++) {
    a = sbox((a + keys[i]![0]!) % r);
    b = sbox((b + keys[i]![1]!) % r);
    ext();
  }
  return [a, b];
}

export function poseidon2Hash(name: Name, data: Uint8Array): Uint8Array {
  const { r } = CONFIGS[name];
  let h = 0n;
  for (let off = 0; off < data.length; off += 32) {
    const x = bytesToBigUnsigned(data.subarray(off, off + 32));
    if (x >= r) throw new AvmFault('invalid poseidon2 input: not a field element (non-canonical)');
    h = (permute(name, h, x)[1] + x) % r;
  }
  return bigToFixedBytes(h, 32);
}
