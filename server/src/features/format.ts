// Formatting: instructions indented by a fixed amount, labels and directives flush left, one space
// between tokens (strings are single tokens, so their insides are untouched), `;` kept against the
// token before it, comments preserved and trailing comments of consecutive lines aligned. Only
// whitespace between tokens changes, so the token stream — and the assembled bytes — stay the same.
import type { TextEdit } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import type { LexedLine } from '@tealworks/sdk/teal';

export interface FormatOptions {
  /** Spaces before an instruction (default 4). */
  indent?: number;
}

type Kind = 'blank' | 'comment' | 'directive' | 'label' | 'instruction';

interface Shaped {
  kind: Kind;
  code: string;
  comment?: string;
}

function joinTokens(l: LexedLine): string {
  let out = '';
  for (const t of l.tokens) {
    if (out === '') out = t.text;
    else if (t.text === ';') out += ';';
    else out += ' ' + t.text;
  }
  return out;
}

function shape(l: LexedLine): Shaped {
  const comment = l.commentStart !== undefined ? l.text.slice(l.commentStart).trimEnd() : undefined;
  const first = l.tokens[0];
  if (!first) return comment !== undefined ? { kind: 'comment', code: '', comment } : { kind: 'blank', code: '' };
  let kind: Kind = 'instruction';
  if (first.text.startsWith('#')) kind = 'directive';
  else if (first.text.endsWith(':') && first.text.length > 1 && !first.text.startsWith('"')) kind = 'label';
  const code = joinTokens(l);
  return comment !== undefined ? { kind, code, comment } : { kind, code };
}

/** The formatted text of every line (same line count as the source). */
export function formatLines(model: DocumentModel, options: FormatOptions = {}): string[] {
  const pad = ' '.repeat(Math.max(0, Math.min(16, options.indent ?? 4)));
  const shaped = model.lines.map(shape);
  const indentOf = (s: Shaped) => (s.kind === 'instruction' ? pad : '');
  const out: string[] = shaped.map((s) => (s.kind === 'blank' ? '' : indentOf(s) + s.code));
  // A whole-line comment sits at the indentation of the code it introduces.
  for (let i = shaped.length - 1, nextIndent = ''; i >= 0; i--) {
    const s = shaped[i]!;
    if (s.kind === 'comment') out[i] = nextIndent + s.comment!;
    else if (s.kind !== 'blank') nextIndent = indentOf(s);
  }
  // Trailing comments of a run of consecutive code lines line up one space after the longest code.
  let i = 0;
  while (i < shaped.length) {
    const s = shaped[i]!;
    if (s.comment === undefined || s.kind === 'comment') {
      i++;
      continue;
    }
    let j = i;
    let width = 0;
    while (j < shaped.length && shaped[j]!.comment !== undefined && shaped[j]!.kind !== 'comment' && shaped[j]!.kind !== 'blank') {
      width = Math.max(width, out[j]!.length);
      j++;
    }
    for (let k = i; k < j; k++) out[k] = out[k]!.padEnd(width) + ' ' + shaped[k]!.comment!;
    i = j;
  }
  return out;
}

export function formatText(model: DocumentModel, options: FormatOptions = {}): string {
  const eol = model.text.includes('\r\n') ? '\r\n' : '\n';
  return formatLines(model, options).join(eol);
}

/** Line-by-line edits (only changed lines), so cursor positions and undo stay local. */
export function formatEdits(model: DocumentModel, options: FormatOptions = {}): TextEdit[] {
  const lines = formatLines(model, options);
  const edits: TextEdit[] = [];
  model.lines.forEach((l, i) => {
    const next = lines[i]!;
    if (next !== l.text) edits.push({ range: { start: { line: i, character: 0 }, end: { line: i, character: l.text.length } }, newText: next });
  });
  return edits;
}
