/**
 * Node's one-shot hashing (`crypto.hash`, Node ≥ 20.12) for the small inputs the SDK hashes all
 * the time: address checksums (32 bytes), method signatures, transaction ids, program hashes.
 * For inputs that small, most of a hash costs set-up, not compression: `createHash` builds a
 * Hash object per call, and a digest returned as a Buffer costs an ArrayBuffer allocation in
 * C++. Asking for the digest as a latin1 string (one character per byte) and copying its
 * character codes into a Uint8Array measured 2–4× faster than either, and faster than the
 * single-block JavaScript SHA-512/256 in ./sha512-short.ts.
 *
 * Reached through `process.getBuiltinModule`, so this file has no Node import: in a webview, or
 * a Node/Electron without `crypto.hash`, {@link nativeDigest} returns undefined and callers take
 * their portable path. Internal (not exported from the package).
 */

/** The algorithms callers use (OpenSSL names). */
export type NativeDigestAlgorithm = 'sha512-256' | 'sha256' | 'sha512';

type OneShot = (algorithm: string, data: Uint8Array | string, outputEncoding: 'latin1') => string;

interface NodeCryptoOneShot {
  hash?: OneShot;
  createHash?(algorithm: string): { update(data: Uint8Array | string): { digest(encoding: 'latin1'): string } };
}

function load(): OneShot | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCryptoOneShot | undefined;
    const hash = mod?.hash;
    if (typeof hash !== 'function' || typeof mod?.createHash !== 'function') return undefined;
    // Checked once against the Hash-object path: the algorithms exist in this OpenSSL build, the
    // latin1 digest has one character per byte, and text is hashed as its UTF-8 bytes.
    for (const algorithm of ['sha512-256', 'sha256', 'sha512'] as const) {
      for (const probe of [new Uint8Array([0x61, 0x62, 0x63, 0xff]), 'ab\u00e9\u{1f600}']) {
        const got = hash(algorithm, probe, 'latin1');
        const want = mod.createHash(algorithm).update(probe).digest('latin1');
        if (typeof got !== 'string' || got !== want) return undefined;
      }
    }
    return hash;
  } catch {
    return undefined;
  }
}

let oneShot = load();

/** Turns native one-shot hashing on or off (tests compare it with the portable paths). */
export function setNativeOneShotHashing(enabled: boolean): void {
  oneShot = enabled ? load() : undefined;
}

/** True when {@link nativeDigest} answers (Node with `crypto.hash`, and not switched off). */
export function nativeOneShotAvailable(): boolean {
  return oneShot !== undefined;
}

/**
 * Longest input (bytes, or characters of text) hashed one-shot. Node's documentation keeps the
 * one-shot call for data of moderate size; beyond this, set-up cost is negligible anyway and
 * callers use a Hash object.
 */
export const NATIVE_ONE_SHOT_MAX = 1 << 20;

/**
 * The digest of `data` (bytes, or text hashed as its UTF-8 bytes) as a fresh Uint8Array, or
 * undefined when native one-shot hashing is unavailable or `data` is longer than
 * {@link NATIVE_ONE_SHOT_MAX}.
 */
export function nativeDigest(algorithm: NativeDigestAlgorithm, data: Uint8Array | string): Uint8Array | undefined {
  if (!oneShot || data.length > NATIVE_ONE_SHOT_MAX) return undefined;
  const text = oneShot(algorithm, data, 'latin1');
  const n = text.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * The first four bytes of the digest of `data` (bytes, or text hashed as its UTF-8 bytes) as a
 * big-endian unsigned 32-bit number, or undefined when {@link nativeDigest} would be. For method
 * selectors: no array is built for the 28 bytes nobody reads.
 */
export function nativeDigestWord(algorithm: NativeDigestAlgorithm, data: Uint8Array | string): number | undefined {
  if (!oneShot || data.length > NATIVE_ONE_SHOT_MAX) return undefined;
  const text = oneShot(algorithm, data, 'latin1');
  return ((text.charCodeAt(0) << 24) | (text.charCodeAt(1) << 16) | (text.charCodeAt(2) << 8) | text.charCodeAt(3)) >>> 0;
}
