/**
 * The editor's TEAL lexer: a light, position-exact tokenizer for editor features that do not need
 * the assembler (completion context, semantic tokens, folding, mode/version sniffing). It follows the reference line and
// token rules (separators, `;` tokens, string and base64 quirks, `//` comments) so its token spans
// agree with the assembler's; columns are UTF-16 code units because that is what LSP speaks.
 */
import { parseUint } from './assembler/goparse.js';

/** A token as the editor lexer sees it: its text and UTF-16 span on one line. */
export interface LexToken {
  text: string;
  line: number;
  start: number;
  end: number;
}

/** One line of TEAL lexed for the editor. */
export interface LexedLine {
  line: number;
  /** The line without its trailing `\r`. */
  text: string;
  tokens: LexToken[];
  /** Start column of a `//` comment, if the line has one. */
  commentStart?: number;
}

/** Splits like Go's line scanner: on `\n` only, with one trailing `\r` stripped. */
export function splitSourceLines(source: string): string[] {
  const lines = source.split('\n');
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

const isSeparator = (c: string): boolean => c === ' ' || c === '\t' || c === ';';

function isBase64Marker(text: string): boolean {
  return text === 'base64' || text === 'b64';
}

/** Lexes one line (0-based `line`). */
export function lexLine(text: string, line: number): LexedLine {
  const tokens: LexToken[] = [];
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

/**
 * Lexes a whole TEAL source, line by line. With `previous` (the lexed lines of an earlier version
 * of the same document), lines whose text is unchanged are taken from it instead of lexed again:
 * the same objects where the line kept its number, copies with the new number where lines were
 * inserted or deleted above it. The result is the same as without `previous`.
 */
export function lexTeal(source: string, previous?: readonly LexedLine[]): LexedLine[] {
  const texts = splitSourceLines(source);
  if (!previous) return texts.map((text, line) => lexLine(text, line));
  const shift = texts.length - previous.length;
  return texts.map((text, line) => {
    const same = previous[line];
    if (same !== undefined && same.text === text) return same;
    const moved = shift !== 0 ? previous[line - shift] : undefined;
    if (moved !== undefined && moved.text === text) {
      const tokens = moved.tokens.map((t) => ({ text: t.text, line, start: t.start, end: t.end }));
      return moved.commentStart === undefined ? { line, text, tokens } : { line, text, tokens, commentStart: moved.commentStart };
    }
    return lexLine(text, line);
  });
}

/** The instruction statements of a non-directive line, split at `;` tokens (no macro expansion). */
export function statementsOf(tokens: readonly LexToken[]): LexToken[][] {
  const out: LexToken[][] = [];
  let current: LexToken[] = [];
  for (const t of tokens) {
    if (t.text === ';') {
      if (current.length) out.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * Parses an unsigned 64-bit integer as the assembler does (Go's `ParseUint(s, 0, 64)`: `0x`, `0o`,
 * `0b`, leading-0 octal, `_` only between digits after a base prefix); undefined when it is not one.
 */
export function parseTealUint(text: string): bigint | undefined {
  return parseUint(text, 0, 64);
}
