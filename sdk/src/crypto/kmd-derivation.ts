import { hmac } from '@noble/hashes/hmac.js';
import { sha512_256 } from '@noble/hashes/sha2.js';
import { ValidationError } from '../errors.js';
import { encodeAddress } from '../encoding/address.js';
import { utf8 } from '../encoding/bytes.js';
import { Ed25519KeyPair } from './ed25519.js';

/**
 * Deterministic key generation of the key manager's sqlite wallet driver (protocol.md §5.4):
 * key i's seed is HKDF-Expand(SHA-512/256, PRK = master derivation key,
 * info = "AlgorandDeterministicKey-" + decimal(i), L = 32). With L equal to the hash size the
 * expansion is a single HMAC block: HMAC(MDK, info ‖ 0x01).
 */

export const MASTER_DERIVATION_KEY_LENGTH = 32;
/** The driver counts keys from 1; its stored "highest index" starts at 0. */
export const FIRST_KEY_INDEX = 1n;
/** One past the largest key index a master derivation key derives. */
export const MAX_KEY_INDEX = 1n << 63n;
const INFO_PREFIX = 'AlgorandDeterministicKey-';

/** A key derived from a wallet's master key: index, seed, public and secret key, address. */
export interface DerivedKey {
  index: bigint;
  seed: Uint8Array;
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key. */
  secretKey: Uint8Array;
  address: string;
}

function checkMdk(mdk: Uint8Array): void {
  if (!(mdk instanceof Uint8Array) || mdk.length !== MASTER_DERIVATION_KEY_LENGTH) {
    throw new ValidationError(
      `master derivation key must be ${MASTER_DERIVATION_KEY_LENGTH} bytes, got ${mdk instanceof Uint8Array ? mdk.length : typeof mdk}`,
    );
  }
}

function checkIndex(index: bigint | number): bigint {
  const i = typeof index === 'bigint' ? index : Number.isSafeInteger(index) ? BigInt(index) : -1n;
  if (i < 0n || i > MAX_KEY_INDEX) throw new ValidationError(`key index must be an integer in 0..2^63, got ${String(index)}`);
  return i;
}

/** The 32-byte ed25519 seed of key `index`. */
export function deriveKeySeed(mdk: Uint8Array, index: bigint | number): Uint8Array {
  checkMdk(mdk);
  const i = checkIndex(index);
  const info = utf8(INFO_PREFIX + i.toString());
  const block = new Uint8Array(info.length + 1);
  block.set(info);
  block[info.length] = 1;
  return hmac(sha512_256, mdk, block);
}

/** Derives the key at `index` from a master derivation key, as the key manager does. */
export function deriveKey(mdk: Uint8Array, index: bigint | number): DerivedKey {
  const seed = deriveKeySeed(mdk, index);
  const pair = Ed25519KeyPair.fromSeed(seed);
  return { index: checkIndex(index), seed, publicKey: pair.publicKey, secretKey: pair.secretKey, address: encodeAddress(pair.publicKey) };
}

/**
 * The key the driver's "generate key" produces next: starting after `lastIndex`, skipping any
 * index whose address the wallet already holds (an imported key), as the driver does.
 */
export function nextDerivedKey(mdk: Uint8Array, lastIndex: bigint | number, isTaken: (address: string) => boolean = () => false): DerivedKey {
  let i = checkIndex(lastIndex);
  for (;;) {
    i++;
    if (i > MAX_KEY_INDEX) throw new ValidationError('key index exceeds 2^63; the wallet cannot derive more keys');
    const key = deriveKey(mdk, i);
    if (!isTaken(key.address)) return key;
  }
}

/** Keys 1..count as a fresh wallet with this master derivation key would generate them. */
export function deriveKeys(mdk: Uint8Array, count: number): DerivedKey[] {
  const out: DerivedKey[] = [];
  for (let i = 1; i <= count; i++) out.push(deriveKey(mdk, i));
  return out;
}
