import { sha256 as nobleSha256, sha512 as nobleSha512, sha512_256 as nobleSha512_256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 as nobleSha3_256 } from '@noble/hashes/sha3.js';
import { concatBytes, utf8 } from '../encoding/bytes.js';
import { sha512_256ShortAscii } from '../encoding/sha512-short.js';
import { NATIVE_ONE_SHOT_MAX, nativeDigest, nativeOneShotAvailable, setNativeOneShotHashing } from '../encoding/native-hash.js';

/**
 * Node's hashing is several times faster than pure JS for the transaction-sized inputs we hash
 * constantly (txids, addresses, program hashes). It is reached through `process.getBuiltinModule`
 * so this file has no Node import and stays usable in a webview, where @noble is used. Where Node
 * has the one-shot `crypto.hash` (../encoding/native-hash.ts) that is used first: for small
 * inputs it is several times cheaper than a Hash object.
 */
interface NodeHash {
  update(data: Uint8Array | string): NodeHash;
  digest(): Uint8Array;
}
interface NodeCryptoHashing {
  createHash(algorithm: string): NodeHash;
}

function loadNativeHashing(): NodeCryptoHashing | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCryptoHashing | undefined;
    if (!mod || typeof mod.createHash !== 'function') return undefined;
    mod.createHash('sha512-256'); // some OpenSSL builds lack it
    return mod;
  } catch {
    return undefined;
  }
}

let native = loadNativeHashing();

/** Switches between Node's hashing and the portable one (tests compare both). */
export function setNativeHashing(enabled: boolean): void {
  native = enabled ? loadNativeHashing() : undefined;
  setNativeOneShotHashing(enabled);
}

function view(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** SHA-512/256: the chain's hash for transaction ids, addresses and programs. */
export function sha512_256(data: Uint8Array): Uint8Array {
  return nativeDigest('sha512-256', data) ?? (native ? view(native.createHash('sha512-256').update(data).digest()) : nobleSha512_256(data));
}

/**
 * SHA-512/256 of a text's UTF-8 bytes. Node's one-shot hash encodes the text itself; without it,
 * short ASCII texts (≤ 111 characters, e.g. method signatures) take a single-block path that
 * allocates only the result, and longer ones go through a Hash object or @noble.
 */
export function sha512_256Utf8(text: string): Uint8Array {
  const oneShot = nativeDigest('sha512-256', text);
  if (oneShot) return oneShot;
  const short = sha512_256ShortAscii(text);
  if (short) return short;
  return native ? view(native.createHash('sha512-256').update(text).digest()) : nobleSha512_256(utf8(text));
}

/** SHA-256. */
export function sha256(data: Uint8Array): Uint8Array {
  return nativeDigest('sha256', data) ?? (native ? view(native.createHash('sha256').update(data).digest()) : nobleSha256(data));
}

/** SHA-512. */
export function sha512(data: Uint8Array): Uint8Array {
  return nativeDigest('sha512', data) ?? (native ? view(native.createHash('sha512').update(data).digest()) : nobleSha512(data));
}

/** Keccak-256 (the pre-standard SHA-3 variant, as the `keccak256` opcode computes). */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

/** SHA3-256 (the standard). */
export function sha3_256(data: Uint8Array): Uint8Array {
  return nobleSha3_256(data);
}

const prefixCache = new Map<string, Uint8Array>();

function prefixBytes(prefix: string): Uint8Array {
  let bytes = prefixCache.get(prefix);
  if (!bytes) prefixCache.set(prefix, (bytes = utf8(prefix)));
  return bytes;
}

/**
 * Domain-separated hash: every object the chain hashes is prefixed with a short tag
 * ("TX", "TG", "Program", …) so that bytes of one kind can never be passed off as another.
 */
export function hashWithPrefix(prefix: string, data: Uint8Array): Uint8Array {
  if (data.length < NATIVE_ONE_SHOT_MAX && nativeOneShotAvailable()) {
    // Joining prefix and data costs one small copy; a Hash object with two updates costs more.
    const digest = nativeDigest('sha512-256', concatBytes(prefixBytes(prefix), data));
    if (digest) return digest;
  }
  if (native) return view(native.createHash('sha512-256').update(prefixBytes(prefix)).update(data).digest());
  return nobleSha512_256(concatBytes(prefixBytes(prefix), data));
}
