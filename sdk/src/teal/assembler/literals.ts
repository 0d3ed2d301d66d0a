/**
 * Byte-literal decoding with the reference's acceptance rules and error texts: its hex, base64 and
 * base32 decoders are Go's standard-library ones, whose leniencies (newlines skipped, base32 with or
 * without padding, non-zero trailing bits) decide which programs assemble.
 */
import { goQuote, isPrintRune } from './goparse.js';

export class LiteralError extends Error {}

const utf8Encoder = new TextEncoder();

export function utf8Bytes(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}

function hexNibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return 255;
}

function goRuneU(code: number): string {
  const ch = String.fromCodePoint(code);
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return isPrintRune(ch) ? `U+${hex} '${ch}'` : `U+${hex}`;
}

/** Go's hex.DecodeString over the UTF-8 bytes of `text`. */
export function decodeHexGo(text: string): Uint8Array {
  const src = isAscii(text) ? asciiBytes(text) : utf8Bytes(text);
  const out = new Uint8Array(src.length >> 1);
  let i = 0;
  let j = 1;
  for (; j < src.length; j += 2) {
    const a = hexNibble(src[j - 1]!);
    const b = hexNibble(src[j]!);
    if (a > 15) throw new LiteralError(`encoding/hex: invalid byte: ${goRuneU(src[j - 1]!)}`);
    if (b > 15) throw new LiteralError(`encoding/hex: invalid byte: ${goRuneU(src[j]!)}`);
    out[i++] = (a << 4) | b;
  }
  if (src.length % 2 === 1) {
    if (hexNibble(src[j - 1]!) > 15) throw new LiteralError(`encoding/hex: invalid byte: ${goRuneU(src[j - 1]!)}`);
    throw new LiteralError('encoding/hex: odd length hex string');
  }
  return out;
}

const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_MAP = new Uint8Array(256).fill(255);
for (let i = 0; i < 64; i++) B64_MAP[B64_ALPHABET.charCodeAt(i)] = i;
const B32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B32_MAP = new Uint8Array(256).fill(255);
for (let i = 0; i < 32; i++) B32_MAP[B32_ALPHABET.charCodeAt(i)] = i;

class CorruptInput extends Error {
  constructor(
    readonly offset: number,
    kind: string,
  ) {
    super(`illegal ${kind} data at input byte ${offset}`);
  }
}

/** Go's base64.StdEncoding.DecodeString; `offsetBase` shifts the reported error offset. */
export function decodeBase64Go(text: string, offsetBase = 0): Uint8Array {
  try {
    return base64Std(isAscii(text) ? asciiBytes(text) : utf8Bytes(text));
  } catch (e) {
    if (e instanceof CorruptInput) throw new LiteralError(`illegal base64 data at input byte ${e.offset + offsetBase}`);
    throw e;
  }
}

function base64Std(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  let si = 0;
  const pad = 61;
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let err: CorruptInput | undefined;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        throw new CorruptInput(si - j, 'base64');
      }
      const c = src[si++]!;
      const v = B64_MAP[c]!;
      if (v !== 255) {
        dbuf[j] = v;
        continue;
      }
      if (c === 10 || c === 13) {
        j--;
        continue;
      }
      if (c !== pad) throw new CorruptInput(si - 1, 'base64');
      if (j === 0 || j === 1) throw new CorruptInput(si - 1, 'base64');
      if (j === 2) {
        while (si < src.length && (src[si] === 10 || src[si] === 13)) si++;
        if (si === src.length) throw new CorruptInput(src.length, 'base64');
        if (src[si] !== pad) throw new CorruptInput(si - 1, 'base64');
        si++;
      }
      while (si < src.length && (src[si] === 10 || src[si] === 13)) si++;
      if (si < src.length) err = new CorruptInput(si, 'base64');
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const b0 = (val >> 16) & 255;
    const b1 = (val >> 8) & 255;
    const b2 = val & 255;
    if (dlen === 4) out.push(b0, b1, b2);
    else if (dlen === 3) out.push(b0, b1);
    else if (dlen === 2) out.push(b0);
    if (err) throw err;
    if (dlen < 4) return Uint8Array.from(out);
  }
}

function base32Go(srcIn: Uint8Array, padded: boolean): Uint8Array {
  // DecodeString strips newlines first.
  const src: number[] = [];
  for (const c of srcIn) if (c !== 10 && c !== 13) src.push(c);
  const olen = src.length;
  const out: number[] = [];
  let p = 0;
  let end = false;
  while (p < src.length && !end) {
    const dbuf = [0, 0, 0, 0, 0, 0, 0, 0];
    let dlen = 8;
    for (let j = 0; j < 8;) {
      if (p === src.length) {
        if (padded) throw new CorruptInput(olen - (src.length - p) - j, 'base32');
        dlen = j;
        end = true;
        break;
      }
      const c = src[p++]!;
      const remaining = src.length - p;
      if (padded && c === 61 && j >= 2 && remaining < 8) {
        if (remaining + j < 8 - 1) throw new CorruptInput(olen, 'base32');
        for (let k = 0; k < 8 - 1 - j; k++) {
          if (remaining > k && src[p + k] !== 61) throw new CorruptInput(olen - remaining + k - 1, 'base32');
        }
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) throw new CorruptInput(olen - remaining - 1, 'base32');
        break;
      }
      const v = B32_MAP[c]!;
      if (v === 255) throw new CorruptInput(olen - remaining - 1, 'base32');
      dbuf[j] = v;
      j++;
    }
    const d = dbuf;
    const bytes = [
      ((d[0]! << 3) | (d[1]! >> 2)) & 255,
      ((d[1]! << 6) | (d[2]! << 1) | (d[3]! >> 4)) & 255,
      ((d[3]! << 4) | (d[4]! >> 1)) & 255,
      ((d[4]! << 7) | (d[5]! << 2) | (d[6]! >> 3)) & 255,
      ((d[6]! << 5) | d[7]!) & 255,
    ];
    const n = dlen === 8 ? 5 : dlen === 7 ? 4 : dlen === 5 ? 3 : dlen === 4 ? 2 : dlen === 2 ? 1 : 0;
    for (let k = 0; k < n; k++) out.push(bytes[k]!);
  }
  return Uint8Array.from(out);
}

/** Go's base32 std alphabet decode without padding, falling back to padded; the first error wins. */
export function decodeBase32AnyPadding(text: string, offsetBase = 0): Uint8Array {
  const src = isAscii(text) ? asciiBytes(text) : utf8Bytes(text);
  try {
    return base32Go(src, false);
  } catch (e) {
    if (!(e instanceof CorruptInput)) throw e;
    try {
      return base32Go(src, true);
    } catch {
      throw new LiteralError(`illegal base32 data at input byte ${e.offset + offsetBase}`);
    }
  }
}

/** Go's base32.StdEncoding.WithPadding(NoPadding), or undefined on any error. */
export function decodeBase32NoPad(text: string): Uint8Array | undefined {
  try {
    return base32Go(isAscii(text) ? asciiBytes(text) : utf8Bytes(text), false);
  } catch {
    return undefined;
  }
}

/** A `"…"` literal: escapes \n \r \t \\ \" \xHH. */
export function parseStringLiteral(input: string): Uint8Array {
  const b = isAscii(input) ? asciiBytes(input) : utf8Bytes(input);
  const end = b.length - 1;
  if (b[0] !== 34 || b[end] !== 34) throw new LiteralError('no quotes');
  const out = new Uint8Array(b.length);
  let n = 0;
  let escape = false;
  let hexSeq = false;
  let pos = 1;
  while (pos < end) {
    let c = b[pos]!;
    if (c === 92 && !escape) {
      if (hexSeq) throw new LiteralError('escape sequence inside hex number');
      escape = true;
      pos++;
      continue;
    }
    if (escape) {
      escape = false;
      switch (c) {
        case 110:
          c = 10;
          break;
        case 114:
          c = 13;
          break;
        case 116:
          c = 9;
          break;
        case 92:
        case 34:
          break;
        case 120:
          hexSeq = true;
          pos++;
          continue;
        default:
          throw new LiteralError(`invalid escape sequence \\${String.fromCodePoint(c)}`);
      }
    }
    if (hexSeq) {
      hexSeq = false;
      if (pos >= b.length - 2) throw new LiteralError('non-terminated hex sequence');
      const hi = hexNibble(b[pos]!);
      const lo = hexNibble(b[pos + 1]!);
      if (hi > 15 || lo > 15) {
        const pair = new TextDecoder().decode(b.subarray(pos, pos + 2));
        throw new LiteralError(`strconv.ParseUint: parsing ${goQuote(pair)}: invalid syntax`);
      }
      c = (hi << 4) | lo;
      pos++;
    }
    out[n++] = c;
    pos++;
  }
  if (escape || hexSeq) throw new LiteralError('non-terminated escape sequence');
  return out.slice(0, n);
}

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

export interface ParsedBytes {
  value: Uint8Array;
  consumed: number;
}

/** The error and which argument (index into args) it is blamed on. */
export class BinaryArgError extends Error {
  constructor(
    message: string,
    readonly argIndex: number,
  ) {
    super(message);
  }
}

function decodeOrBlame(kind: 'b32' | 'b64' | 'hex' | 'str', text: string, offsetBase: number, argIndex: number): Uint8Array {
  try {
    if (kind === 'b32') return decodeBase32AnyPadding(text, offsetBase);
    if (kind === 'b64') return decodeBase64Go(text, offsetBase);
    if (kind === 'hex') return decodeHexGo(text);
    return parseStringLiteral(text);
  } catch (e) {
    if (e instanceof LiteralError) throw new BinaryArgError(e.message, argIndex);
    throw e;
  }
}

/** One byte literal (one or two tokens) from the front of `args`. */
export function parseBinaryArgs(args: readonly string[]): ParsedBytes {
  const arg = args[0]!;
  const isB32 = arg.startsWith('base32(') || arg.startsWith('b32(');
  const isB64 = !isB32 && (arg.startsWith('base64(') || arg.startsWith('b64('));
  if (isB32 || isB64) {
    const open = arg.indexOf('(');
    const close = arg.indexOf(')');
    if (close === -1) throw new BinaryArgError(`argument ${arg} lacks closing parenthesis`, 0);
    if (close !== arg.length - 1) throw new BinaryArgError(`argument ${arg} must end at first closing parenthesis`, 0);
    return { value: decodeOrBlame(isB32 ? 'b32' : 'b64', arg.slice(open + 1, close), open + 1, 0), consumed: 1 };
  }
  if (arg.startsWith('0x')) return { value: decodeOrBlame('hex', arg.slice(2), 0, 0), consumed: 1 };
  if (arg === 'base32' || arg === 'b32' || arg === 'base64' || arg === 'b64') {
    if (args.length < 2) throw new BinaryArgError(`${arg} needs byte literal argument`, 0);
    return { value: decodeOrBlame(arg.endsWith('32') ? 'b32' : 'b64', args[1]!, 0, 1), consumed: 2 };
  }
  if (arg.length > 1 && arg[0] === '"' && arg[arg.length - 1] === '"') return { value: decodeOrBlame('str', arg, 0, 0), consumed: 1 };
  throw new BinaryArgError(`arg did not parse: ${arg}`, 0);
}
