import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { ValidationError } from '../errors.js';
import { toBase64Url } from '../encoding/base64.js';
import { toHex } from '../encoding/hex.js';
import { bytesEqual, copyBytes } from '../encoding/bytes.js';

ed.hashes.sha512 = sha512;

/** Bytes in an ed25519 seed (the private key). */
export const SEED_LENGTH = 32;
/** Bytes in an ed25519 signature. */
export const SIGNATURE_LENGTH = 64;

/**
 * The slice of Node's crypto module we use. Reached through `process.getBuiltinModule` so this
 * file has no Node import and still runs unchanged in a browser or webview (where the pure
 * `@noble` path is used).
 */
interface NodeKeyObject {
  readonly type: string;
  export(options: { format: 'der'; type: 'spki' }): Uint8Array;
}
interface NodeCrypto {
  createPrivateKey(key: { key: Uint8Array; format: 'der'; type: 'pkcs8' }): NodeKeyObject;
  createPublicKey(key: { key: object; format: 'jwk' } | NodeKeyObject): NodeKeyObject;
  sign(algorithm: null, data: Uint8Array, key: NodeKeyObject): Uint8Array;
  verify(algorithm: null, data: Uint8Array, key: NodeKeyObject, signature: Uint8Array): boolean;
  verify(algorithm: null, data: Uint8Array, key: NodeKeyObject, signature: Uint8Array, callback: (error: Error | null, ok: boolean) => void): void;
}

function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    return mod && typeof mod.sign === 'function' ? mod : undefined;
  } catch {
    return undefined;
  }
}

let nodeCrypto: NodeCrypto | undefined = loadNodeCrypto();

/** Forces the pure-JS implementation (tests compare both paths; benchmarks pick between them). */
export function setNativeEd25519(enabled: boolean): void {
  nodeCrypto = enabled ? loadNodeCrypto() : undefined;
}

/** True when Node's native ed25519 is in use (faster than the portable implementation). */
export function nativeEd25519Available(): boolean {
  return nodeCrypto !== undefined;
}

/** DER of a PKCS#8 ed25519 private key up to its 32-byte seed (RFC 8410), and of an SPKI public key up to its 32 bytes. */
const PKCS8_SEED_PREFIX = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);
const SPKI_PREFIX_LENGTH = 12;

function asView(bytes: Uint8Array): Uint8Array {
  // Node returns a Buffer; callers get a plain Uint8Array over the same memory.
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * An ed25519 key pair made from a 32-byte seed. Keeps the native key object (when available) so
 * repeated signing does not re-import the key.
 */
export class Ed25519KeyPair {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  #native: NodeKeyObject | undefined;

  private constructor(seed: Uint8Array, publicKey: Uint8Array) {
    this.seed = seed;
    this.publicKey = publicKey;
  }

  static fromSeed(seed: Uint8Array): Ed25519KeyPair {
    if (!(seed instanceof Uint8Array) || seed.length !== SEED_LENGTH) {
      throw new ValidationError(`ed25519 seed must be ${SEED_LENGTH} bytes, got ${seed instanceof Uint8Array ? seed.length : typeof seed}`);
    }
    const copy = seed.slice();
    if (nodeCrypto) {
      // Native: about a millisecond, where the portable path's first call builds its tables (tens
      // of ms, paid by every process that derives a key, such as a starting devnet). The key
      // object is kept for signing.
      const der = new Uint8Array(PKCS8_SEED_PREFIX.length + SEED_LENGTH);
      der.set(PKCS8_SEED_PREFIX);
      der.set(copy, PKCS8_SEED_PREFIX.length);
      const key = nodeCrypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      der.fill(0);
      const spki = nodeCrypto.createPublicKey(key).export({ format: 'der', type: 'spki' });
      const pair = new Ed25519KeyPair(copy, new Uint8Array(spki.subarray(SPKI_PREFIX_LENGTH, SPKI_PREFIX_LENGTH + 32)));
      pair.#native = key;
      return pair;
    }
    return new Ed25519KeyPair(copy, ed.getPublicKey(copy));
  }

  /** Accepts the 64-byte "secret key" form (seed ‖ public key) that other SDKs use. */
  static fromSecretKey(secretKey: Uint8Array): Ed25519KeyPair {
    if (!(secretKey instanceof Uint8Array) || secretKey.length !== 64) {
      throw new ValidationError(
        `ed25519 secret key must be 64 bytes (seed ‖ public key), got ${secretKey instanceof Uint8Array ? secretKey.length : typeof secretKey}`,
      );
    }
    const pair = Ed25519KeyPair.fromSeed(secretKey.subarray(0, 32));
    if (toHex(pair.publicKey) !== toHex(secretKey.subarray(32))) {
      throw new ValidationError('ed25519 secret key: the public half does not belong to the seed');
    }
    return pair;
  }

  static generate(): Ed25519KeyPair {
    return Ed25519KeyPair.fromSeed(ed.utils.randomSecretKey());
  }

  /** seed ‖ public key, the 64-byte form other SDKs call the secret key. */
  get secretKey(): Uint8Array {
    const out = new Uint8Array(64);
    out.set(this.seed, 0);
    out.set(this.publicKey, 32);
    return out;
  }

  sign(message: Uint8Array): Uint8Array {
    // `fromSeed` imported the native key whenever native crypto is there; otherwise the portable path.
    const signature = this.#native ? asView(nodeCrypto!.sign(null, message, this.#native)) : ed.sign(message, this.seed);
    rememberSigned(this.publicKey, message, signature);
    return signature;
  }
}

/**
 * Signatures this process made lately, by signature: a test signs a transaction and its own
 * in-process chain verifies it a moment later. A signature made with a key's seed over a message
 * verifies under that key (both rules, strict and not), so checking one found here against its
 * key and message (copied when signed) gives the verifier's answer without its curve arithmetic,
 * which costs about as much as the rest of a small app call. Bounded; anything else is verified.
 */
const SIGNED = new Map<number, { signature: Uint8Array; publicKey: Uint8Array; message: Uint8Array }>();
const SIGNED_MAX = 1024;

/**
 * A signature's memo key: its first six bytes as a number (no text to build and hash per lookup).
 * Two signatures sharing them is a clash of 48 random bits: the later one replaces the earlier,
 * which is then checked in full, and a lookup compares the whole signature.
 */
function signatureKey(signature: Uint8Array): number {
  return signature[0]! * 2 ** 40 + signature[1]! * 2 ** 32 + (((signature[2]! << 24) | (signature[3]! << 16) | (signature[4]! << 8) | signature[5]!) >>> 0);
}

function rememberSigned(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): void {
  if (SIGNED.size >= SIGNED_MAX) SIGNED.delete(SIGNED.keys().next().value!);
  SIGNED.set(signatureKey(signature), { signature: copyBytes(signature), publicKey, message: copyBytes(message) });
}

/** Forgets the signatures made so far (tests that compare the verifiers themselves). @internal */
export function forgetMadeSignatures(): void {
  SIGNED.clear();
}

/** How many signatures are remembered (tests). @internal */
export function madeSignatureCount(): number {
  return SIGNED.size;
}

/**
 * Whether this process made `signature` over `message` with the key of `publicKey` lately (it then
 * verifies, and {@link ed25519Verify} answers without the curve arithmetic). False says nothing.
 * @internal
 */
export function signedHere(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return publicKey.length === 32 && signature.length === SIGNATURE_LENGTH && madeHere(publicKey, message, signature);
}

function madeHere(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const made = SIGNED.get(signatureKey(signature));
  return made !== undefined && bytesEqual(made.signature, signature) && bytesEqual(made.publicKey, publicKey) && bytesEqual(made.message, message);
}

const publicKeyCache = new Map<string, NodeKeyObject>();

/** Node's key object for a 32-byte public key (cached), or undefined when it is not a valid key. */
function nativePublicKey(crypto: NodeCrypto, publicKey: Uint8Array): NodeKeyObject | undefined {
  const id = toHex(publicKey);
  let key = publicKeyCache.get(id);
  if (!key) {
    try {
      key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(publicKey) }, format: 'jwk' });
    } catch {
      return undefined;
    }
    if (publicKeyCache.size > 4096) publicKeyCache.clear();
    publicKeyCache.set(id, key);
  }
  return key;
}

/** Verifies with the strict (RFC 8032, non-ZIP-215) rules, so both paths accept the same signatures. */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== SIGNATURE_LENGTH) return false;
  if (madeHere(publicKey, message, signature)) return true;
  if (nodeCrypto) {
    const key = nativePublicKey(nodeCrypto, publicKey);
    if (!key) return false;
    try {
      return nodeCrypto.verify(null, message, key, signature);
    } catch {
      return false;
    }
  }
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/**
 * {@link ed25519Verify}, off the calling thread where the platform can: Node's native verifier runs
 * on its worker pool, so the signatures of a group are checked in parallel while the caller waits.
 * Elsewhere it is the same check, done at once. Same rules, same answers.
 */
export function ed25519VerifyAsync(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const crypto = nodeCrypto;
  if (!crypto || publicKey.length !== 32 || signature.length !== SIGNATURE_LENGTH || madeHere(publicKey, message, signature)) {
    return Promise.resolve(ed25519Verify(publicKey, message, signature));
  }
  const key = nativePublicKey(crypto, publicKey);
  if (!key) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      crypto.verify(null, message, key, signature, (error, ok) => resolve(!error && ok === true));
    } catch {
      resolve(false);
    }
  });
}

/** The public key of a 32-byte seed. */
export function ed25519PublicKeyFromSeed(seed: Uint8Array): Uint8Array {
  return Ed25519KeyPair.fromSeed(seed).publicKey;
}
