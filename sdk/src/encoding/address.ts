import { sha512_256 } from '@noble/hashes/sha2.js';
import { ValidationError } from '../errors.js';
import { bytesEqual, concatBytes, copyBytes, uint64ToBytes, utf8 } from './bytes.js';
import { fromBase32, toBase32 } from './base32.js';
import { nativeDigest } from './native-hash.js';
import { sha512_256ShortBytes } from './sha512-short.js';

/** Bytes in a public key (and in the address's key part). */
export const PUBLIC_KEY_LENGTH = 32;
/** Bytes of the address checksum (the last 4 bytes of the key's SHA-512/256). */
export const CHECKSUM_LENGTH = 4;
/** Characters in an address (base32 of key and checksum). */
export const ADDRESS_LENGTH = 58;

/** The all-zero address, which the chain treats as "not set". */
export const ZERO_ADDRESS_STRING = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const REV_LAST: Record<number, number> = {};
for (let i = 0; i < 32; i++) REV_LAST[BASE32_ALPHABET.charCodeAt(i)] = i;

function checksum(publicKey: Uint8Array): Uint8Array {
  // Node's one-shot hash where there is one; else 32 bytes are one SHA-512 block, hashed without
  // a general hasher's set-up (twice @noble's speed).
  const sum = nativeDigest('sha512-256', publicKey) ?? sha512_256ShortBytes(publicKey) ?? sha512_256(publicKey);
  return sum.subarray(32 - CHECKSUM_LENGTH);
}

/** App id → its account's public key (a bounded cache: hashing per box write was measurable). */
const APP_ADDRESSES = new Map<bigint, Uint8Array>();

/** A 32-byte account key with its 58-character text form. Immutable. */
export class Address {
  readonly publicKey: Uint8Array;

  constructor(publicKey: Uint8Array) {
    if (!(publicKey instanceof Uint8Array) || publicKey.length !== PUBLIC_KEY_LENGTH) {
      throw new ValidationError(
        `address public key must be ${PUBLIC_KEY_LENGTH} bytes, got ${publicKey instanceof Uint8Array ? publicKey.length : typeof publicKey}`,
      );
    }
    this.publicKey = publicKey;
  }

  static fromString(text: string): Address {
    return new Address(decodeAddress(text));
  }

  static zero(): Address {
    return new Address(new Uint8Array(PUBLIC_KEY_LENGTH));
  }

  /** The address an application's account lives at. */
  static forApp(appId: bigint | number): Address {
    const id = BigInt(appId);
    let key = APP_ADDRESSES.get(id);
    if (!key) {
      key = sha512_256(concatBytes(utf8('appID'), uint64ToBytes(id)));
      // A few apps are asked for again and again (every box write names its app's account).
      if (APP_ADDRESSES.size >= 1024) APP_ADDRESSES.clear();
      APP_ADDRESSES.set(id, key);
    }
    return new Address(key.slice());
  }

  isZero(): boolean {
    return this.publicKey.every((b) => b === 0);
  }

  equals(other: Address | string): boolean {
    const otherKey = typeof other === 'string' ? decodeAddress(other) : other.publicKey;
    return bytesEqual(this.publicKey, otherKey);
  }

  /** The text form once worked out, and the key bytes it was worked out from. */
  #text: { key: Uint8Array; text: string } | undefined;

  toString(): string {
    // Worked out once per object (a checksum is a hash), and again should the key's bytes change.
    const t = this.#text;
    if (t !== undefined && bytesEqual(t.key, this.publicKey)) return t.text;
    const text = encodeAddress(this.publicKey);
    this.#text = { key: this.publicKey.slice(), text };
    return text;
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * Addresses parsed lately → their keys: a bounded cache (a script names the same few accounts over
 * and over, and each parse hashes the key for its checksum). A miss costs one map lookup.
 */
const DECODED = new Map<string, Uint8Array>();
const DECODED_MAX = 1024;

/**
 * The last few keys given a text form, and their texts: a test chain names the same sender and
 * app account in every call, and each text costs a hash. Compared byte by byte (keys that differ
 * usually do in their first byte), so a miss costs a few comparisons, not a lookup by a key made
 * of the bytes: decoding thousands of different addresses stays as fast as without it.
 */
const RECENT_KEYS: Uint8Array[] = [];
const RECENT_TEXTS: string[] = [];
const RECENT_MAX = 8;
let recentNext = 0;

/** The 58-character address of a 32-byte public key. */
export function encodeAddress(publicKey: Uint8Array): string {
  if (publicKey.length !== PUBLIC_KEY_LENGTH) {
    throw new ValidationError(`address public key must be ${PUBLIC_KEY_LENGTH} bytes, got ${publicKey.length}`);
  }
  // Other typed arrays of 32 elements are not bytes: they neither hit nor fill the cache.
  const bytes = publicKey instanceof Uint8Array;
  for (let i = 0; bytes && i < RECENT_KEYS.length; i++) {
    const k = RECENT_KEYS[i]!;
    if (k[0] === publicKey[0] && bytesEqual(k, publicKey)) return RECENT_TEXTS[i]!;
  }
  const text = toBase32(concatBytes(publicKey, checksum(publicKey)));
  if (!bytes) return text;
  RECENT_KEYS[recentNext] = copyBytes(publicKey);
  RECENT_TEXTS[recentNext] = text;
  recentNext = (recentNext + 1) % RECENT_MAX;
  return text;
}

/** Parses a 58-character address, verifying its checksum; returns the 32-byte public key (the caller's own copy). */
export function decodeAddress(text: string): Uint8Array {
  const known = DECODED.get(text);
  if (known !== undefined) return known.slice();
  const publicKey = parseAddress(text);
  if (DECODED.size >= DECODED_MAX) DECODED.clear();
  DECODED.set(text, publicKey.slice());
  return publicKey;
}

function parseAddress(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ValidationError(`address must be a string, got ${typeof text}`);
  if (text.length !== ADDRESS_LENGTH) {
    throw new ValidationError(`address must be ${ADDRESS_LENGTH} characters, got ${text.length}: ${JSON.stringify(text)}`);
  }
  let raw: Uint8Array;
  try {
    raw = fromBase32(text, { padding: 'forbidden' });
  } catch (e) {
    throw new ValidationError(`address is not valid base32: ${JSON.stringify(text)}`, { cause: e });
  }
  const publicKey = raw.slice(0, PUBLIC_KEY_LENGTH);
  if (!bytesEqual(raw.slice(PUBLIC_KEY_LENGTH), checksum(publicKey))) {
    throw new ValidationError(`address checksum does not match: ${JSON.stringify(text)}`);
  }
  // 58 base32 characters carry 290 bits for 288 of data: the last character's two spare bits must
  // be zero, so that one key has exactly one text form.
  if ((REV_LAST[text.charCodeAt(ADDRESS_LENGTH - 1)] ?? 1) & 3) {
    throw new ValidationError(`address is not in canonical form: ${JSON.stringify(text)}`);
  }
  return publicKey;
}

/** True for a 58-character address with a valid checksum. */
export function isValidAddress(text: string): boolean {
  try {
    decodeAddress(text);
    return true;
  } catch {
    return false;
  }
}

/** An address as an `Address`, its 58-character text, or the 32 public-key bytes. */
export type AddressLike = Address | string | Uint8Array;

/** Accepts the forms users pass around and returns the 32-byte key. */
export function addressBytes(value: AddressLike): Uint8Array {
  if (value instanceof Address) return value.publicKey;
  if (typeof value === 'string') return decodeAddress(value);
  if (value instanceof Uint8Array && value.length === PUBLIC_KEY_LENGTH) return value;
  throw new ValidationError(`not an address: ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.length}-byte array`;
  return typeof value;
}
