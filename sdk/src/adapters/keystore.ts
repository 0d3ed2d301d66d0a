import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { argon2idAsync } from '@noble/hashes/argon2.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { encodeAddress } from '../encoding/address.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import { Ed25519KeyPair } from '../crypto/ed25519.js';
import { keyFromMnemonic } from '../crypto/mnemonic.js';
import { LocalSigner, SignerError } from './signer.js';

/**
 * Encrypted single-key file: the 32-byte seed sealed with AES-256-GCM (Node's crypto; this layer
 * is not portable) under a key stretched from the password by scrypt or argon2id. The address and
 * KDF settings are authenticated as associated data, so a file cannot be re-labelled.
 */

export type KdfParams = { name: 'scrypt'; N: number; r: number; p: number; salt: string } | { name: 'argon2id'; t: number; m: number; p: number; salt: string };

/** An encrypted keystore file: KDF parameters, salt, nonce and sealed key (never the key itself). */
export interface KeystoreFile {
  format: 'tealworks-keystore';
  version: 1;
  address: string;
  kdf: KdfParams;
  cipher: { name: 'aes-256-gcm'; iv: string };
  /** base64(ciphertext ‖ 16-byte tag). */
  ciphertext: string;
}

/** A keystore file that cannot be read, decrypted or written. */
export class KeystoreError extends SignerError {}

/** Key derivation for a new keystore file: scrypt or argon2id, and its cost. */
export interface KeystoreOptions {
  kdf?: 'scrypt' | 'argon2id';
  /** scrypt cost (power of two). Default 2^15. */
  scryptN?: number;
  /** argon2id memory in KiB. Default 64 MiB. */
  argonMemoryKiB?: number;
  argonTime?: number;
}

async function deriveKey(password: string, kdf: KdfParams): Promise<Uint8Array> {
  const salt = fromBase64(kdf.salt);
  if (kdf.name === 'scrypt') return scryptAsync(password, salt, { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: 32, maxmem: 2 ** 31 });
  return argon2idAsync(password, salt, { t: kdf.t, m: kdf.m, p: kdf.p, dkLen: 32 });
}

function associatedData(file: Pick<KeystoreFile, 'address' | 'kdf'>): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ address: file.address, kdf: file.kdf }));
}

function seedFrom(secret: Uint8Array | string): Uint8Array {
  if (typeof secret === 'string') {
    try {
      return keyFromMnemonic(secret);
    } catch {
      throw new KeystoreError('the mnemonic is not a valid 25-word key phrase');
    }
  }
  if (secret.length === 64) return secret.subarray(0, 32);
  if (secret.length !== 32) throw new KeystoreError(`a key must be a 32-byte seed or 64-byte secret key, got ${secret.length} bytes`);
  return secret;
}

/** Encrypts a seed (or mnemonic) with a password into a keystore file object. */
export async function encryptKeystore(secret: Uint8Array | string, password: string, options: KeystoreOptions = {}): Promise<KeystoreFile> {
  const seed = seedFrom(secret);
  const address = encodeAddress(Ed25519KeyPair.fromSeed(seed).publicKey);
  const salt = toBase64(randomBytes(16));
  const kdf: KdfParams =
    options.kdf === 'argon2id'
      ? { name: 'argon2id', t: options.argonTime ?? 3, m: options.argonMemoryKiB ?? 65536, p: 1, salt }
      : { name: 'scrypt', N: options.scryptN ?? 2 ** 15, r: 8, p: 1, salt };
  const key = await deriveKey(password, kdf);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData({ address, kdf }));
  const body = Buffer.concat([cipher.update(seed), cipher.final(), cipher.getAuthTag()]);
  key.fill(0);
  return { format: 'tealworks-keystore', version: 1, address, kdf, cipher: { name: 'aes-256-gcm', iv: toBase64(iv) }, ciphertext: toBase64(body) };
}

/** Returns the 32-byte seed; a wrong password and a tampered file fail the same way. */
export async function decryptKeystore(file: KeystoreFile, password: string): Promise<Uint8Array> {
  if (file?.format !== 'tealworks-keystore' || file.version !== 1) throw new KeystoreError('not a tealworks keystore (format/version 1 expected)');
  if (file.cipher?.name !== 'aes-256-gcm') throw new KeystoreError(`unsupported keystore cipher ${String(file.cipher?.name)}`);
  if (file.kdf?.name !== 'scrypt' && file.kdf?.name !== 'argon2id')
    throw new KeystoreError(`unsupported keystore KDF ${String((file.kdf as { name?: unknown })?.name)}`);
  const key = await deriveKey(password, file.kdf);
  const sealed = fromBase64(file.ciphertext);
  if (sealed.length !== 32 + 16) throw new KeystoreError('keystore ciphertext has the wrong length');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, fromBase64(file.cipher.iv));
    decipher.setAAD(associatedData(file));
    decipher.setAuthTag(sealed.subarray(32));
    const seed = new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(0, 32)), decipher.final()]));
    if (encodeAddress(Ed25519KeyPair.fromSeed(seed).publicKey) !== file.address) throw new Error('address mismatch');
    return seed;
  } catch {
    throw new KeystoreError(`cannot open the keystore for ${file.address}: wrong password or the file was altered`);
  } finally {
    key.fill(0);
  }
}

/** Encrypts a seed (or mnemonic) and writes it as a keystore file (owner-only permissions). */
export async function writeKeystoreFile(path: string, secret: Uint8Array | string, password: string, options: KeystoreOptions = {}): Promise<KeystoreFile> {
  const file = await encryptKeystore(secret, password, options);
  await writeFile(path, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  return file;
}

/** Reads and decrypts a keystore file into a `LocalSigner`. */
export async function signerFromKeystoreFile(path: string, password: string): Promise<LocalSigner> {
  let file: KeystoreFile;
  try {
    file = JSON.parse(await readFile(path, 'utf8')) as KeystoreFile;
  } catch (e) {
    throw new KeystoreError(`cannot read keystore file ${path}: ${(e as Error).message}`);
  }
  return LocalSigner.fromSeed(await decryptKeystore(file, password));
}
