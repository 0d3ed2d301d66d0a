/**
 * Number and boolean parsing with the exact acceptance rules of the reference assembler (which
 * uses Go's strconv): base prefixes, leading-zero octal, digit-separating underscores. Accepting
 * one string more or less than the reference changes which programs assemble, so these are strict.
 */

const U64_MAX = (1n << 64n) - 1n;

function digitValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 122) return lower - 97 + 10;
  return 99;
}

/** Underscores may only separate digits (a base prefix counts as a digit). */
function underscoresOk(s: string): boolean {
  let saw = '^';
  let i = 0;
  let hex = false;
  if (s.length >= 2 && s[0] === '0') {
    const l = s[1]!.toLowerCase();
    if (l === 'b' || l === 'o' || l === 'x') {
      i = 2;
      saw = '0';
      hex = l === 'x';
    }
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 0x20;
    if ((c >= 48 && c <= 57) || (hex && lower >= 97 && lower <= 102)) {
      saw = '0';
      continue;
    }
    if (c === 95) {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * Unsigned parse with base detection (`0x`, `0o`, `0b`, leading `0` = octal), or an explicit base
 * (no prefixes, no underscores). Returns the value, or which of Go's two errors it would raise.
 */
export function parseUintDetailed(text: string, base = 0, bits = 64): bigint | 'syntax' | 'range' {
  if (text.length === 0) return 'syntax';
  let s = text;
  const base0 = base === 0;
  if (base0) {
    base = 10;
    if (s[0] === '0') {
      const l = s.length >= 3 ? s[1]!.toLowerCase() : '';
      if (l === 'b') {
        base = 2;
        s = s.slice(2);
      } else if (l === 'o') {
        base = 8;
        s = s.slice(2);
      } else if (l === 'x') {
        base = 16;
        s = s.slice(2);
      } else {
        base = 8;
        s = s.slice(1);
      }
    }
  }
  const max = bits === 64 ? U64_MAX : (1n << BigInt(bits)) - 1n;
  // Fast path: short decimal strings fit a double exactly.
  if (base === 10 && s.length > 0 && s.length <= 15) {
    let n = 0;
    let ok = true;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) {
        ok = false;
        break;
      }
      n = n * 10 + (c - 48);
    }
    if (ok) {
      const v = BigInt(n);
      return v > max ? 'range' : v;
    }
  }
  let n = 0n;
  let underscores = false;
  const b = BigInt(base);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 95 && base0) {
      underscores = true;
      continue;
    }
    const d = digitValue(c);
    if (d >= base) return 'syntax';
    n = n * b + BigInt(d);
    if (n > max) return 'range';
  }
  if (underscores && !underscoresOk(text)) return 'syntax';
  return n;
}

export function parseUint(text: string, base = 0, bits = 64): bigint | undefined {
  const r = parseUintDetailed(text, base, bits);
  return typeof r === 'bigint' ? r : undefined;
}

/** The message Go's strconv.ParseUint error carries. */
export function parseUintErrorText(text: string, kind: 'syntax' | 'range'): string {
  return `strconv.ParseUint: parsing ${goQuote(text)}: ${kind === 'syntax' ? 'invalid syntax' : 'value out of range'}`;
}

/** Signed parse (optional `+`/`-`), same base rules as parseUint; range is that of a `bits`-bit int. */
export function parseInt64(text: string, base: number, bits: number): bigint | undefined {
  if (text.length === 0) return undefined;
  let s = text;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  const u = parseUint(s, base, 64);
  if (u === undefined) return undefined;
  const cutoff = 1n << BigInt(bits - 1);
  if (!neg && u >= cutoff) return undefined;
  if (neg && u > cutoff) return undefined;
  return neg ? -u : u;
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseBool(text: string): boolean | undefined {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return undefined;
}

/** Go's `%#v` for a string: a double-quoted literal with Go escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0x80 && !isPrintRune(ch)) {
      out += c <= 0xffff ? '\\u' + c.toString(16).padStart(4, '0') : '\\U' + c.toString(16).padStart(8, '0');
    } else out += ch;
  }
  return out + '"';
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function isPrintRune(ch: string): boolean {
  return PRINTABLE.test(ch);
}

/** Go's unicode.IsSpace set, for "is the program blank". */
export function isGoBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || c === 0x85 || c === 0xa0) continue;
    if (c < 0x1680) return false;
    if (c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000) continue;
    return false;
  }
  return true;
}
