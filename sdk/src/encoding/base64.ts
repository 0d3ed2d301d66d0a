import { ValidationError } from '../errors.js';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function reverse(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const STD_REV = reverse(STD);
const URL_REV = reverse(URL);

function encodeWith(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '');
  }
  return out;
}

/** Whether to read the URL-safe alphabet, and whether padding must be exact. */
export interface Base64DecodeOptions {
  /** Use the URL-safe alphabet (`-` and `_`). */
  url?: boolean;
  /** Require `=` padding to a multiple of 4 (Go's StdEncoding); default true. */
  strictPadding?: boolean;
}

function decodeWith(text: string, rev: Int16Array, strictPadding: boolean, what: string): Uint8Array {
  let end = text.length;
  let padding = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) {
    end--;
    padding++;
  }
  if (padding > 2) throw new ValidationError(`${what}: too much padding`);
  if (strictPadding && text.length % 4 !== 0) {
    throw new ValidationError(`${what}: length ${text.length} is not a multiple of 4`);
  }
  if (!strictPadding && padding > 0 && text.length % 4 !== 0) {
    throw new ValidationError(`${what}: padding does not complete a 4-character group`);
  }
  if (end % 4 === 1) throw new ValidationError(`${what}: truncated input`);
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? rev[c]! : -1;
    if (v < 0) throw new ValidationError(`${what}: illegal character ${JSON.stringify(text[i])} at index ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) {
    throw new ValidationError(`${what}: non-zero trailing bits`);
  }
  return out;
}

/** Standard alphabet with padding (what the chain's JSON uses for bytes). */
export function toBase64(bytes: Uint8Array): string {
  return encodeWith(bytes, STD, true);
}

/** URL-safe base64 (`-` and `_`), unpadded unless asked. */
export function toBase64Url(bytes: Uint8Array, pad = false): string {
  return encodeWith(bytes, URL, pad);
}

/** Decodes base64; throws `ValidationError` for invalid text. */
export function fromBase64(text: string, options: Base64DecodeOptions = {}): Uint8Array {
  const url = options.url ?? false;
  return decodeWith(text, url ? URL_REV : STD_REV, options.strictPadding ?? true, url ? 'base64url' : 'base64');
}

/** Accepts either alphabet, with or without padding: for input typed by people or other tools. */
export function fromBase64Lenient(text: string): Uint8Array {
  const normalized = text.replace(/-/g, '+').replace(/_/g, '/');
  return decodeWith(normalized, STD_REV, false, 'base64');
}
