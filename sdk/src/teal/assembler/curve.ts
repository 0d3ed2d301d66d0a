/**
 * "Does this 32-byte string decode as an Edwards25519 point?" with the same leniency as the
 * decoder the reference uses: bit 255 (the sign of x) is ignored and a non-canonical y (≥ p) is
 * reduced rather than rejected. v13 logicsig addresses must not decode, so the assembler salts
 * programs whose hash does.
 */
const P = (1n << 255n) - 19n;

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % P;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

const D = (((P - 121665n) % P) * modPow(121666n, P - 2n)) % P;
const HALF = (P - 1n) / 2n;

/** True when 32 bytes encode a point of the Edwards25519 curve. */
export function isEdwards25519Point(encoded: Uint8Array): boolean {
  if (encoded.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? encoded[i]! & 0x7f : encoded[i]!);
  y %= P;
  const y2 = (y * y) % P;
  const u = (y2 - 1n + P) % P;
  const v = (D * y2 + 1n) % P;
  // x² = u/v has a root iff u·v is a square (v is never 0 because d is not a square).
  const uv = (u * v) % P;
  if (uv === 0n) return true;
  return modPow(uv, HALF) === 1n;
}
