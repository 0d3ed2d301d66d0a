import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { ValidationError } from '../../errors.js';

/**
 * Wallet files are sealed with a key stretched from the wallet password by scrypt (memory-hard,
 * so a stolen file resists offline guessing) and encrypted with ChaCha20-Poly1305, whose tag also
 * authenticates the file's header so its KDF parameters and id cannot be swapped.
 */

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** 32 MiB, a few tens of milliseconds natively: strong enough for a local wallet, quick to unlock. */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 1 << 15, r: 8, p: 1 });
/** Far too weak for real secrets; only for test suites that create many wallets. */
export const TEST_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 1 << 10, r: 8, p: 1 });

const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
/** Bytes in a wallet encryption key. */
export const KEY_LENGTH = 32;
/** Bytes in a sealing nonce. */
export const NONCE_LENGTH = 12;
/** Bytes in the authentication tag. */
export const TAG_LENGTH = 16;
/** Bytes in a key-derivation salt. */
export const SALT_LENGTH = 16;
/** The AEAD cipher that seals wallet files. */
export const CIPHER = 'chacha20-poly1305';

/** Throws when scrypt parameters are out of the accepted range. */
export function checkScryptParams(params: ScryptParams): void {
  const { N, r, p } = params;
  const ok =
    Number.isInteger(N) &&
    N >= 2 &&
    (N & (N - 1)) === 0 &&
    N <= 1 << 22 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= 64 &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= 64 &&
    128 * N * r <= MAX_SCRYPT_MEMORY;
  if (!ok)
    throw new ValidationError(
      `scrypt parameters out of range (N a power of two ≤ 2^22, r and p in 1..64, at most ${MAX_SCRYPT_MEMORY} bytes): N=${N} r=${r} p=${p}`,
    );
}

/** The wallet encryption key from a password and salt (scrypt). */
export function deriveWalletKey(password: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  checkScryptParams(params);
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * 2 + (1 << 20) },
      (err, key) => {
        if (err) reject(err);
        else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
      },
    );
  });
}

/** A fresh random key-derivation salt. */
export function randomSalt(): Uint8Array {
  return new Uint8Array(randomBytes(SALT_LENGTH));
}

/** Sealed bytes: the nonce and the ciphertext with its tag. */
export interface Sealed {
  nonce: Uint8Array;
  /** Ciphertext followed by the 16-byte tag. */
  sealed: Uint8Array;
}

/** Encrypts and authenticates bytes with additional data under a wallet key. */
export function sealBytes(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Sealed {
  const nonce = new Uint8Array(randomBytes(NONCE_LENGTH));
  const cipher = createCipheriv(CIPHER, key, nonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(aad, { plaintextLength: plaintext.length });
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { nonce, sealed: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
}

/** Returns undefined when the key is wrong or the file was altered (the tag does not verify). */
export function openSealed(key: Uint8Array, box: Sealed, aad: Uint8Array): Uint8Array | undefined {
  if (box.nonce.length !== NONCE_LENGTH || box.sealed.length < TAG_LENGTH) return undefined;
  const body = box.sealed.subarray(0, box.sealed.length - TAG_LENGTH);
  const tag = box.sealed.subarray(box.sealed.length - TAG_LENGTH);
  try {
    const decipher = createDecipheriv(CIPHER, key, box.nonce, { authTagLength: TAG_LENGTH });
    decipher.setAAD(aad, { plaintextLength: body.length });
    decipher.setAuthTag(tag);
    const out = Buffer.concat([decipher.update(body), decipher.final()]);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch {
    return undefined;
  }
}
