import { ValidationError } from '../errors.js';
import { encodeAddress } from '../encoding/address.js';
import { Ed25519KeyPair } from './ed25519.js';
import { sha512_256 } from './hash.js';
import { ENGLISH_WORDS } from './wordlist.js';

/**
 * 25-word mnemonics (protocol.md §3.6, §5.5): 32 key bytes as 24 eleven-bit words, packed
 * least-significant bit first, plus one checksum word taken from sha512_256 of the key. The same
 * encoding serves account seeds and a key manager's master derivation key.
 */

export const MNEMONIC_WORD_COUNT = 25;
const KEY_LENGTH = 32;
const DATA_WORDS = 24;

/** A mnemonic that cannot be decoded. Messages name the offending word, never the whole phrase. */
export class MnemonicError extends ValidationError {}

let wordIndex: Map<string, number> | undefined;
function indexOfWord(word: string): number | undefined {
  if (!wordIndex) {
    wordIndex = new Map();
    ENGLISH_WORDS.forEach((w, i) => wordIndex!.set(w, i));
  }
  return wordIndex.get(word);
}

function checksumWord(key: Uint8Array): string {
  const h = sha512_256(key);
  return ENGLISH_WORDS[(h[0]! | (h[1]! << 8)) & 0x7ff]!;
}

/** Encodes exactly 32 bytes (a seed or a master derivation key) as 25 words. */
export function mnemonicFromKey(key: Uint8Array): string {
  if (!(key instanceof Uint8Array) || key.length !== KEY_LENGTH) {
    throw new MnemonicError(`a mnemonic encodes exactly ${KEY_LENGTH} bytes, got ${key instanceof Uint8Array ? key.length : typeof key}`);
  }
  const words: string[] = [];
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < key.length; i++) {
    buffer |= key[i]! << bits;
    bits += 8;
    if (bits >= 11) {
      words.push(ENGLISH_WORDS[buffer & 0x7ff]!);
      buffer >>>= 11;
      bits -= 11;
    }
  }
  if (bits > 0) words.push(ENGLISH_WORDS[buffer & 0x7ff]!);
  words.push(checksumWord(key));
  return words.join(' ');
}

/** Decodes 25 words back to the 32 bytes they encode, checking every word and the checksum. */
export function keyFromMnemonic(mnemonic: string): Uint8Array {
  if (typeof mnemonic !== 'string') throw new MnemonicError(`mnemonic must be a string, got ${typeof mnemonic}`);
  // Any run of whitespace separates words; people paste phrases with newlines and double spaces.
  const words = mnemonic
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length !== MNEMONIC_WORD_COUNT) {
    throw new MnemonicError(`mnemonic must be ${MNEMONIC_WORD_COUNT} words, got ${words.length}`);
  }
  const indexes: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const idx = indexOfWord(words[i]!);
    if (idx === undefined)
      throw new MnemonicError(
        `word ${i + 1} of the mnemonic is not in the words list; check its spelling (the word itself is not shown: it is part of a secret)`,
      );
    indexes.push(idx);
  }
  // 24 words carry 264 bits: 256 key bits and 8 bits that must be zero.
  const out = new Uint8Array(KEY_LENGTH + 1);
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < DATA_WORDS; i++) {
    buffer |= indexes[i]! << bits;
    bits += 11;
    while (bits >= 8) {
      out[o++] = buffer & 0xff;
      buffer >>>= 8;
      bits -= 8;
    }
  }
  if (out[KEY_LENGTH] !== 0) throw new MnemonicError('mnemonic checksum failed to validate (the words do not encode a 32-byte key)');
  const key = out.slice(0, KEY_LENGTH);
  if (checksumWord(key) !== words[DATA_WORDS]) throw new MnemonicError('mnemonic checksum failed to validate (last word does not match)');
  return key;
}

/** 32-byte ed25519 seed → 25 words. */
export function mnemonicFromSeed(seed: Uint8Array): string {
  return mnemonicFromKey(seed);
}

/** 25 words → 32-byte ed25519 seed. */
export function seedFromMnemonic(mnemonic: string): Uint8Array {
  return keyFromMnemonic(mnemonic);
}

/** 64-byte secret key (seed ‖ public key) → 25 words (only the seed half is encoded). */
export function secretKeyToMnemonic(secretKey: Uint8Array): string {
  if (!(secretKey instanceof Uint8Array) || (secretKey.length !== 64 && secretKey.length !== 32)) {
    throw new MnemonicError(`secret key must be 64 bytes (seed ‖ public key), got ${secretKey instanceof Uint8Array ? secretKey.length : typeof secretKey}`);
  }
  return mnemonicFromKey(secretKey.subarray(0, KEY_LENGTH));
}

/** An account restored from a mnemonic: address and key pair. */
export interface MnemonicAccount {
  /** 58-character address. */
  address: string;
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key. */
  secretKey: Uint8Array;
  seed: Uint8Array;
}

/** 25 words → the account they control. */
export function accountFromMnemonic(mnemonic: string): MnemonicAccount {
  const pair = Ed25519KeyPair.fromSeed(keyFromMnemonic(mnemonic));
  return { address: encodeAddress(pair.publicKey), publicKey: pair.publicKey, secretKey: pair.secretKey, seed: pair.seed };
}

/** 25 words → 64-byte secret key (seed ‖ public key). */
export function secretKeyFromMnemonic(mnemonic: string): Uint8Array {
  return Ed25519KeyPair.fromSeed(keyFromMnemonic(mnemonic)).secretKey;
}

/** A wallet's master derivation key as 25 words (its backup phrase). */
export function masterDerivationKeyToMnemonic(mdk: Uint8Array): string {
  return mnemonicFromKey(mdk);
}

/** The master derivation key of a wallet backup phrase. */
export function mnemonicToMasterDerivationKey(mnemonic: string): Uint8Array {
  return keyFromMnemonic(mnemonic);
}

/** True when the 25 words are from the word list and the checksum matches. */
export function isValidMnemonic(mnemonic: string): boolean {
  try {
    keyFromMnemonic(mnemonic);
    return true;
  } catch {
    return false;
  }
}
