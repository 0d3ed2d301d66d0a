/**
 * SHA-512/256 of a short input (at most 111 bytes: one 128-byte block with its padding),
 * without allocating anything but the result. Method selectors (signatures) and address
 * checksums (32 bytes) hash inputs like this by the thousand; for inputs that small, setting up a
 * general hasher (Node's or @noble's) costs more than the single compression itself. Written from FIPS 180-4, 64-bit words as 32-bit halves.
 */

import { writeU64HalvesBE } from './bytes.js';

// prettier-ignore
const K = [
  '428a2f98d728ae22', '7137449123ef65cd', 'b5c0fbcfec4d3b2f', 'e9b5dba58189dbbc', '3956c25bf348b538', '59f111f1b605d019', '923f82a4af194f9b', 'ab1c5ed5da6d8118',
  'd807aa98a3030242', '12835b0145706fbe', '243185be4ee4b28c', '550c7dc3d5ffb4e2', '72be5d74f27b896f', '80deb1fe3b1696b1', '9bdc06a725c71235', 'c19bf174cf692694',
  'e49b69c19ef14ad2', 'efbe4786384f25e3', '0fc19dc68b8cd5b5', '240ca1cc77ac9c65', '2de92c6f592b0275', '4a7484aa6ea6e483', '5cb0a9dcbd41fbd4', '76f988da831153b5',
  '983e5152ee66dfab', 'a831c66d2db43210', 'b00327c898fb213f', 'bf597fc7beef0ee4', 'c6e00bf33da88fc2', 'd5a79147930aa725', '06ca6351e003826f', '142929670a0e6e70',
  '27b70a8546d22ffc', '2e1b21385c26c926', '4d2c6dfc5ac42aed', '53380d139d95b3df', '650a73548baf63de', '766a0abb3c77b2a8', '81c2c92e47edaee6', '92722c851482353b',
  'a2bfe8a14cf10364', 'a81a664bbc423001', 'c24b8b70d0f89791', 'c76c51a30654be30', 'd192e819d6ef5218', 'd69906245565a910', 'f40e35855771202a', '106aa07032bbd1b8',
  '19a4c116b8d2d0c8', '1e376c085141ab53', '2748774cdf8eeb99', '34b0bcb5e19b48a8', '391c0cb3c5c95a63', '4ed8aa4ae3418acb', '5b9cca4f7763e373', '682e6ff3d6b2b8a3',
  '748f82ee5defb2fc', '78a5636f43172f60', '84c87814a1f0ab72', '8cc702081a6439ec', '90befffa23631e28', 'a4506cebde82bde9', 'bef9a3f7b2c67915', 'c67178f2e372532b',
  'ca273eceea26619c', 'd186b8c721c0c207', 'eada7dd6cde0eb1e', 'f57d4f7fee6ed178', '06f067aa72176fba', '0a637dc5a2c898a6', '113f9804bef90dae', '1b710b35131c471b',
  '28db77f523047d84', '32caab7b40c72493', '3c9ebe0a15c9bebc', '431d67c49c100d4c', '4cc5d4becb3e42b6', '597f299cfc657e2a', '5fcb6fab3ad6faec', '6c44198c4a475817',
];
const KH = Int32Array.from(K, (k) => Number.parseInt(k.slice(0, 8), 16) | 0);
const KL = Int32Array.from(K, (k) => Number.parseInt(k.slice(8), 16) | 0);
/** SHA-512/256's initial hash value (FIPS 180-4 §5.3.6.2), high and low halves. */
// prettier-ignore
const IV = Int32Array.from([
  0x22312194, 0xfc2bf72c, 0x9f555fa3, 0xc84c64c2, 0x2393b86b, 0x6f53b151, 0x96387719, 0x5940eabd,
  0x96283ee2, 0xa88effe3, 0xbe5e1e25, 0x53863992, 0x2b0199fc, 0x2c85b8aa, 0x0eb72ddc, 0x81c52ca2,
]);
const WH = new Int32Array(80);
const WL = new Int32Array(80);
const TWO_32 = 4294967296;

/** The longest text that fits one block: 128 bytes less the 0x80 marker and the 16-byte length. */
export const SHA512_SHORT_MAX = 111;

const BLOCK = new Uint8Array(128);

/**
 * SHA-512/256 of `text`'s bytes when it is ASCII of at most {@link SHA512_SHORT_MAX} characters;
 * undefined otherwise (the caller hashes it the general way).
 */
export function sha512_256ShortAscii(text: string): Uint8Array | undefined {
  const len = text.length;
  if (len > SHA512_SHORT_MAX) return undefined;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return undefined;
    BLOCK[i] = c;
  }
  return oneBlock(len);
}

/**
 * SHA-512/256 of at most {@link SHA512_SHORT_MAX} bytes (addresses' checksums hash 32); undefined
 * for longer input.
 */
export function sha512_256ShortBytes(bytes: Uint8Array): Uint8Array | undefined {
  const len = bytes.length;
  if (len > SHA512_SHORT_MAX) return undefined;
  BLOCK.set(bytes);
  return oneBlock(len);
}

/** Pads BLOCK (holding `len` message bytes) and compresses it from the SHA-512/256 initial value. */
function oneBlock(len: number): Uint8Array {
  // The block: message, 0x80, zeros, and the bit length in the last 16 bytes (fits the low word).
  BLOCK[len] = 0x80;
  BLOCK.fill(0, len + 1);
  for (let w = 0; w < 16; w++) {
    const i = w * 8;
    WH[w] = (BLOCK[i]! << 24) | (BLOCK[i + 1]! << 16) | (BLOCK[i + 2]! << 8) | BLOCK[i + 3]!;
    WL[w] = (BLOCK[i + 4]! << 24) | (BLOCK[i + 5]! << 16) | (BLOCK[i + 6]! << 8) | BLOCK[i + 7]!;
  }
  WL[15] = len * 8;
  for (let i = 16; i < 80; i++) {
    // σ0 = rotr1 ^ rotr8 ^ shr7 of w[i-15]; σ1 = rotr19 ^ rotr61 ^ shr6 of w[i-2].
    const ah = WH[i - 15]!;
    const al = WL[i - 15]!;
    const s0h = ((ah >>> 1) | (al << 31)) ^ ((ah >>> 8) | (al << 24)) ^ (ah >>> 7);
    const s0l = ((al >>> 1) | (ah << 31)) ^ ((al >>> 8) | (ah << 24)) ^ ((al >>> 7) | (ah << 25));
    const bh = WH[i - 2]!;
    const bl = WL[i - 2]!;
    const s1h = ((bh >>> 19) | (bl << 13)) ^ ((bl >>> 29) | (bh << 3)) ^ (bh >>> 6);
    const s1l = ((bl >>> 19) | (bh << 13)) ^ ((bh >>> 29) | (bl << 3)) ^ ((bl >>> 6) | (bh << 26));
    const lo = (s0l >>> 0) + (s1l >>> 0) + (WL[i - 7]! >>> 0) + (WL[i - 16]! >>> 0);
    WH[i] = (s0h + s1h + WH[i - 7]! + WH[i - 16]! + ((lo / TWO_32) | 0)) | 0;
    WL[i] = lo | 0;
  }
  let ah = IV[0]!,
    al = IV[1]!,
    bh = IV[2]!,
    bl = IV[3]!,
    ch = IV[4]!,
    cl = IV[5]!,
    dh = IV[6]!,
    dl = IV[7]!;
  let eh = IV[8]!,
    el = IV[9]!,
    fh = IV[10]!,
    fl = IV[11]!,
    gh = IV[12]!,
    gl = IV[13]!,
    hh = IV[14]!,
    hl = IV[15]!;
  for (let i = 0; i < 80; i++) {
    // Σ1(e) = rotr14 ^ rotr18 ^ rotr41; Ch(e,f,g); T1 = h + Σ1 + Ch + K[i] + W[i].
    const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const chh = (eh & fh) ^ (~eh & gh);
    const chl = (el & fl) ^ (~el & gl);
    const t1lo = (hl >>> 0) + (S1l >>> 0) + (chl >>> 0) + (KL[i]! >>> 0) + (WL[i]! >>> 0);
    const t1h = (hh + S1h + chh + KH[i]! + WH[i]! + ((t1lo / TWO_32) | 0)) | 0;
    const t1l = t1lo | 0;
    // Σ0(a) = rotr28 ^ rotr34 ^ rotr39; Maj(a,b,c); T2 = Σ0 + Maj.
    const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    const majh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
    const majl = (al & bl) ^ (al & cl) ^ (bl & cl);
    hh = gh;
    hl = gl;
    gh = fh;
    gl = fl;
    fh = eh;
    fl = el;
    const elo = (dl >>> 0) + (t1l >>> 0);
    eh = (dh + t1h + ((elo / TWO_32) | 0)) | 0;
    el = elo | 0;
    dh = ch;
    dl = cl;
    ch = bh;
    cl = bl;
    bh = ah;
    bl = al;
    const alo = (t1l >>> 0) + (S0l >>> 0) + (majl >>> 0);
    ah = (t1h + S0h + majh + ((alo / TWO_32) | 0)) | 0;
    al = alo | 0;
  }
  // Wipe the block and the schedule: they held the input.
  BLOCK.fill(0);
  WH.fill(0);
  WL.fill(0);
  const out = new Uint8Array(32);
  // Digest = IV + compressed state; SHA-512/256 keeps the first four words, big-endian.
  const words = [ah, al, bh, bl, ch, cl, dh, dl];
  for (let p = 3; p >= 0; p--) {
    const lo = (IV[2 * p + 1]! >>> 0) + (words[2 * p + 1]! >>> 0);
    const hi = (IV[2 * p]! + words[2 * p]! + ((lo / TWO_32) | 0)) | 0;
    writeU64HalvesBE(out, p * 8, hi, lo);
  }
  return out;
}
