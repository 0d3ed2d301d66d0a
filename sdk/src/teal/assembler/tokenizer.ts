/**
 * Lines and tokens exactly as the reference assembler reads them. Column arithmetic is kept in
 * both UTF-8 bytes (what the reference reports) and UTF-16 units (what editors want).
 */
import type { SourceRange } from '../types.js';
import { utf8Length } from './literals.js';
import type { TokenInfo } from './results.js';

/** The reference reads with a 64 KiB line buffer; a longer line stops reading. */
export const MAX_LINE_BYTES = 64 * 1024;

/** A token of TEAL source with its position, and the use site and macros it came through after expansion. */
export interface Token {
  str: string;
  /** 0-based line of the token's text (for expanded tokens: inside the `#define`). */
  line: number;
  /** Byte column of the token's first character. */
  col: number;
  /** UTF-16 column of the token's first character. */
  ucol: number;
  /** Byte length of `str`. */
  blen: number;
  /** Set on tokens produced by macro expansion: where the outermost macro name was written. */
  use: Token | undefined;
  /** Macro names that led to this token, outermost first. */
  macros: readonly string[] | undefined;
  /** The analysis view of this token, built once and shared by every place the analysis lists it. */
  info: TokenInfo | undefined;
}

export interface SourceLine {
  text: string;
  /** Byte offset of each UTF-16 index, only for lines with non-ASCII text. */
  ascii: boolean;
}

export interface SplitLines {
  lines: string[];
  /** Index of a line too long to read; lines from it on are not assembled. */
  tooLong?: number;
}

/** Whether the line text[start, nl) (raw, with any trailing `\r`) exceeds the reference's line buffer. */
export function isTooLong(text: string, start: number, nl: number): boolean {
  return nl - start >= MAX_LINE_BYTES / 3 && utf8Length(text.slice(start, nl)) >= MAX_LINE_BYTES;
}

/** Splits on `\n`, strips one trailing `\r` per line (a lone `\r` elsewhere is text). */
export function splitLines(text: string): SplitLines {
  const lines: string[] = [];
  let start = 0;
  const n = text.length;
  while (start < n) {
    let nl = text.indexOf('\n', start);
    const atEof = nl === -1;
    if (atEof) nl = n;
    let end = nl;
    if (isTooLong(text, start, nl)) return { lines, tooLong: lines.length };
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    lines.push(text.slice(start, end));
    start = nl + 1;
  }
  return { lines };
}

const SEP = new Uint8Array(128);
SEP[9] = 1;
SEP[32] = 1;
SEP[59] = 1;

function isSep(c: number): boolean {
  return c < 128 && SEP[c] === 1;
}

/** Tokens of one line: separators split, `;` is also a token, strings and base64 payloads are kept whole. */
export function tokenizeLine(line: string, lineNo: number): Token[] {
  const tokens: Token[] = [];
  const ascii = isAsciiLine(line);
  const n = line.length;
  let i = 0;
  while (i < n && isSep(line.charCodeAt(i))) {
    if (line.charCodeAt(i) === 59) pushToken(tokens, line, i, i + 1, lineNo, ascii);
    i++;
  }
  let start = i;
  let inString = false;
  let inBase64 = false;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (!isSep(c)) {
      if (c === 34) {
        if (!inString) {
          if (i === 0 || isSep(line.charCodeAt(i - 1))) inString = true;
        } else if (line.charCodeAt(i - 1) !== 92) {
          inString = false;
        }
      } else if (c === 47) {
        if (i < n - 1 && line.charCodeAt(i + 1) === 47 && !inBase64 && !inString) {
          if (start !== i) pushToken(tokens, line, start, i, lineNo, ascii);
          return tokens;
        }
      } else if (c === 40) {
        if (isBase64Word(line, start, i)) inBase64 = true;
      } else if (c === 41) {
        inBase64 = false;
      }
      i++;
      continue;
    }
    if (!inString) {
      const wasB64 = isBase64Word(line, start, i);
      pushToken(tokens, line, start, i, lineNo, ascii);
      if (c === 59) pushToken(tokens, line, i, i + 1, lineNo, ascii);
      if (inBase64) inBase64 = false;
      else if (wasB64) inBase64 = true;
    }
    i++;
    if (!inString) {
      while (i < n && isSep(line.charCodeAt(i))) {
        if (line.charCodeAt(i) === 59) pushToken(tokens, line, i, i + 1, lineNo, ascii);
        i++;
      }
      start = i;
    }
  }
  if (start < n) pushToken(tokens, line, start, n, lineNo, ascii);
  return tokens;
}

function isBase64Word(line: string, s: number, e: number): boolean {
  const len = e - s;
  return (len === 6 && line.startsWith('base64', s)) || (len === 3 && line.startsWith('b64', s));
}

function pushToken(tokens: Token[], line: string, s: number, e: number, lineNo: number, ascii: boolean): void {
  const str = line.slice(s, e);
  // Every token has the same shape (use/macros present) so the hot paths stay monomorphic.
  if (ascii) tokens.push({ str, line: lineNo, col: s, ucol: s, blen: e - s, use: undefined, macros: undefined, info: undefined });
  else
    tokens.push({ str, line: lineNo, col: utf8Length(line.slice(0, s)), ucol: s, blen: utf8Length(str), use: undefined, macros: undefined, info: undefined });
}

function isAsciiLine(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** The span a token occupies in the text it was written in. */
export function tokenRange(t: Token): SourceRange {
  return { line: t.line, column: t.col, endColumn: t.col + t.blen, utf16Column: t.ucol, utf16EndColumn: t.ucol + t.str.length };
}

/** A zero-width span just after a token. */
export function rangeAfter(t: Token): SourceRange {
  const e = t.col + t.blen;
  const ue = t.ucol + t.str.length;
  return { line: t.line, column: e, endColumn: e, utf16Column: ue, utf16EndColumn: ue };
}
