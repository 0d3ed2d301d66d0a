// A light, position-exact tokenizer for editor features that do not need the assembler: completion
// context, semantic tokens, folding, and mode/version sniffing. It follows the reference line and
// token rules (separators, `;` tokens, string and base64 quirks, `//` comments) so its token spans
// agree with the assembler's; columns are UTF-16 code units because that is what LSP speaks.

export interface Token {
  text: string;
  line: number;
  start: number;
  end: number;
}

export interface LexedLine {
  line: number;
  /** The line without its trailing `\r`. */
  text: string;
  tokens: Token[];
  /** Start column of a `//` comment, if the line has one. */
  commentStart?: number;
}

/** Splits like Go's line scanner: on `\n` only, with one trailing `\r` stripped. */
export function splitLines(source: string): string[] {
  const lines = source.split('\n');
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

const isSeparator = (c: string): boolean => c === ' ' || c === '\t' || c === ';';

function isBase64Marker(text: string): boolean {
  return text === 'base64' || text === 'b64';
}

export function lexLine(text: string, line: number): LexedLine {
  const tokens: Token[] = [];
  let commentStart: number | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === ';') {
      tokens.push({ text: ';', line, start: i, end: i + 1 });
      i++;
      continue;
    }
    const previous = tokens[tokens.length - 1];
    const base64Payload = previous !== undefined && isBase64Marker(previous.text);
    if (!base64Payload && c === '/' && text[i + 1] === '/') {
      commentStart = i;
      break;
    }
    const start = i;
    if (c === '"') {
      // The string ends at the next quote not preceded by a backslash (the reference quirk).
      i++;
      while (i < n && !(text[i] === '"' && text[i - 1] !== '\\')) i++;
      if (i < n) i++;
      while (i < n && !isSeparator(text[i]!)) i++;
    } else {
      let inParens = false;
      while (i < n) {
        const d = text[i]!;
        if (!inParens && isSeparator(d)) break;
        if (d === '(') inParens = /^(base64|b64)\($/.test(text.slice(start, i + 1));
        else if (d === ')') inParens = false;
        if (!base64Payload && !inParens && d === '/' && text[i + 1] === '/') break;
        i++;
      }
    }
    tokens.push({ text: text.slice(start, i), line, start, end: i });
    if (i < n && text[i] === '/' && text[i + 1] === '/' && !base64Payload) {
      commentStart = i;
      break;
    }
  }
  return commentStart === undefined ? { line, text, tokens } : { line, text, tokens, commentStart };
}

export function lex(source: string): LexedLine[] {
  return splitLines(source).map((text, line) => lexLine(text, line));
}

/** The instruction statements of a non-directive line, split at `;` tokens (no macro expansion). */
export function statementsOf(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [];
  let current: Token[] = [];
  for (const t of tokens) {
    if (t.text === ';') {
      if (current.length) out.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length) out.push(current);
  return out;
}

/** Parses an unsigned integer the way Go's ParseUint(s, 0, 64) does (0x, 0o, 0b, leading-0 octal). */
export function parseGoUint(text: string): bigint | undefined {
  const s = text.replace(/_/g, (m, at: number) => (at > 0 ? '' : m));
  let digits = s;
  let radix = 10;
  if (/^0[xX]/.test(s)) [digits, radix] = [s.slice(2), 16];
  else if (/^0[oO]/.test(s)) [digits, radix] = [s.slice(2), 8];
  else if (/^0[bB]/.test(s)) [digits, radix] = [s.slice(2), 2];
  else if (/^0\d/.test(s)) [digits, radix] = [s.slice(1), 8];
  const alphabet = '0123456789abcdef'.slice(0, radix);
  if (!digits.length || [...digits.toLowerCase()].some((d) => !alphabet.includes(d))) return undefined;
  let v = 0n;
  for (const d of digits.toLowerCase()) v = v * BigInt(radix) + BigInt(alphabet.indexOf(d));
  return v < 1n << 64n ? v : undefined;
}
