import { ValidationError } from '../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const REV = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) REV[ALPHABET.charCodeAt(i)] = i;

/** RFC 4648 base32, standard alphabet. */
export function toBase32(bytes: Uint8Array, pad = false): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31]!;
    }
  }
  if (bits > 0) out += ALPHABET[(acc << (5 - bits)) & 31]!;
  if (pad) while (out.length % 8 !== 0) out += '=';
  return out;
}

/** Whether base32 padding is optional, required or forbidden. */
export interface Base32DecodeOptions {
  /** 'optional' accepts no padding or full padding (the TEAL assembler's rule); 'required' wants full padding. */
  padding?: 'optional' | 'required' | 'forbidden';
}

const VALID_TAIL = new Set([0, 2, 4, 5, 7]);

/** Decodes RFC 4648 base32 (upper case); throws `ValidationError` for other characters. */
export function fromBase32(text: string, options: Base32DecodeOptions = {}): Uint8Array {
  const mode = options.padding ?? 'optional';
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const padded = end !== text.length;
  if (padded && mode === 'forbidden') throw new ValidationError('base32: padding is not allowed here');
  if (padded && text.length % 8 !== 0) throw new ValidationError('base32: incomplete padding');
  if (!padded && mode === 'required' && text.length % 8 !== 0) throw new ValidationError('base32: missing padding');
  if (!VALID_TAIL.has(end % 8)) throw new ValidationError(`base32: invalid length ${end}`);
  const out = new Uint8Array(Math.floor((end * 5) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? REV[c]! : -1;
    if (v < 0) throw new ValidationError(`base32: illegal character ${JSON.stringify(text[i])} at index ${i}`);
    acc = ((acc << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
