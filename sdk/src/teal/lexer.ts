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

/** A re-lex after an edit: the lines, and which of them differ from the previous version's. */
export interface LexEdit {
  lines: LexedLine[];
  /** First line lexed again (lines before it are the previous version's objects). */
  firstLine: number;
  /** Last line of the previous version that the edit touched (inclusive). */
  oldLastLine: number;
  /** Last line of this version lexed again (inclusive); the lines after it follow the previous version's, moved by `newLastLine - oldLastLine`. */
  newLastLine: number;
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Length of the common prefix of `a` and `b`, compared a block at a time first. */
export function commonPrefix(a: string, b: string): number {
  const m = Math.min(a.length, b.length);
  let p = 0;
  for (const block of [4096, 256, 16]) {
    while (p + block <= m && a.slice(p, p + block) === b.slice(p, p + block)) p += block;
  }
  while (p < m && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
export function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  for (const block of [4096, 256, 16]) {
    while (s + block <= max && a.slice(a.length - s - block, a.length - s) === b.slice(b.length - s - block, b.length - s)) s += block;
  }
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return s;
}

/**
 * Lexes `source`, an edited version of `previousText` whose lexed lines are `previousLines`: only
 * the lines the edit touched are lexed; those before are reused as they are, those after too (or,
 * when the edit added or removed lines, copied with their new numbers). Same result as `lexTeal(source)`.
 *
 * `lineAt`, when given, returns the 0-based line (counting `\n` only) that starts at a given offset
 * of `source` (an editor's line index answers this without scanning); without it the lines before
 * the edit are counted.
 */
export function relexTeal(previousText: string, previousLines: readonly LexedLine[], source: string, lineAt?: (lineStartOffset: number) => number): LexEdit {
  if (previousText === source) {
    // Nothing changed (a version bump, or an edit undone by the next): every line is the previous one.
    const last = previousLines.length - 1;
    return { lines: previousLines.slice(), firstLine: previousLines.length, oldLastLine: last, newLastLine: last };
  }
  const p = commonPrefix(previousText, source);
  const s = commonSuffix(previousText, source, Math.min(previousText.length, source.length) - p);
  const lineStart = p === 0 ? 0 : source.lastIndexOf('\n', p - 1) + 1;
  const firstLine = lineStart === 0 ? 0 : lineAt ? lineAt(lineStart) : newlinesIn(source, 0, lineStart);
  const oldLastLine = firstLine + newlinesIn(previousText, lineStart, previousText.length - s);
  const newLastLine = firstLine + newlinesIn(source, lineStart, source.length - s);
  const edited: LexedLine[] = [];
  let start = lineStart;
  for (let ln = firstLine; ln <= newLastLine; ln++) {
    let nl = source.indexOf('\n', start);
    if (nl < 0) nl = source.length;
    const raw = source.slice(start, nl);
    edited.push(lexLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, ln));
    start = nl + 1;
  }
  const shift = newLastLine - oldLastLine;
  // Same line count: the lines on either side are the previous objects, copied in bulk.
  if (shift === 0)
    return { lines: previousLines.slice(0, firstLine).concat(edited, previousLines.slice(oldLastLine + 1)), firstLine, oldLastLine, newLastLine };
  const lines: LexedLine[] = previousLines.slice(0, firstLine);
  for (const l of edited) lines.push(l);
  for (let i = oldLastLine + 1; i < previousLines.length; i++) {
    const l = previousLines[i]!;
    const line = i + shift;
    const tokens = l.tokens.map((t) => ({ text: t.text, line, start: t.start, end: t.end }));
    lines.push(l.commentStart === undefined ? { line, text: l.text, tokens } : { line, text: l.text, tokens, commentStart: l.commentStart });
  }
  return { lines, firstLine, oldLastLine, newLastLine };
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
