import { ValidationError } from '../errors.js';

const HEX = '0123456789abcdef';
const byteToHex: string[] = [];
for (let i = 0; i < 256; i++) byteToHex.push(HEX[i >> 4]! + HEX[i & 15]!);

/** Lower-case hex of the bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += byteToHex[bytes[i]!];
  return out;
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Parses hex digits (either case, no prefix). */
export function fromHex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw new ValidationError(`hex string has odd length ${text.length}`);
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(text.charCodeAt(2 * i));
    const lo = nibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      const at = hi < 0 ? 2 * i : 2 * i + 1;
      throw new ValidationError(`invalid hex character ${JSON.stringify(text[at])} at index ${at}`);
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}
