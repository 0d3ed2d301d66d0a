import { AvmFault } from '../errors.js';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function table(alphabet: string): Int16Array {
  const t = new Int16Array(256).fill(-1);
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const STD_MAP = table(STD);
const URL_MAP = table(URL);
const PAD = 0x3d;
const NL = 0x0a;
const CR = 0x0d;

const corrupt = (at: number): never => {
  throw new AvmFault(`illegal base64 data at input byte ${at}`);
};

/** Whether the text ends in padding (ignoring trailing newlines), which selects the padded alphabet. */
function padded(src: Uint8Array): boolean {
  for (let i = src.length - 1; i > 0; i--) {
    const c = src[i];
    if (c === PAD) return true;
    if (c !== NL && c !== CR) return false;
  }
  return false;
}

/**
 * Decodes like the node's `base64_decode`: Go's strict decoder, padded or unpadded depending on
 * whether the input ends in '=', newlines ignored, non-zero trailing bits rejected.
 */
export function decodeGoBase64(src: Uint8Array, url: boolean): Uint8Array {
  const map = url ? URL_MAP : STD_MAP;
  const withPad = padded(src);
  const out: number[] = [];
  let si = 0;
  const dbuf = [0, 0, 0, 0];
  for (;;) {
    let dlen = 4;
    let end = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        if (j === 1 || withPad) corrupt(si - j);
        dlen = j;
        end = true;
        break;
      }
      const c = src[si]!;
      si++;
      const v = map[c]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (c === NL || c === CR) {
        j--;
        continue;
      }
      if (!withPad || c !== PAD) corrupt(si - 1);
      if (j === 0 || j === 1) corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && (src[si] === NL || src[si] === CR)) si++;
        if (si === src.length) corrupt(src.length);
        if (src[si] !== PAD) corrupt(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === NL || src[si] === CR)) si++;
      if (si < src.length) corrupt(si);
      dlen = j;
      end = true;
      break;
    }
    const val = ((dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!) >>> 0;
    const b0 = (val >>> 16) & 0xff;
    const b1 = (val >>> 8) & 0xff;
    const b2 = val & 0xff;
    if (dlen === 4) out.push(b0, b1, b2);
    else if (dlen === 3) {
      if (b2 !== 0) corrupt(si - 1);
      out.push(b0, b1);
    } else if (dlen === 2) {
      if (b1 !== 0 || b2 !== 0) corrupt(si - 2);
      out.push(b0);
    }
    dbuf[0] = dbuf[1] = dbuf[2] = dbuf[3] = 0;
    if (end) return Uint8Array.from(out);
  }
}
