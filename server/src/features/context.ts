// Where the cursor is, in TEAL terms: which statement, which token of it, and what precedes it.
import { lexLine, type LexToken } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';

export type CursorContext =
  | { kind: 'comment' }
  | { kind: 'string' }
  | { kind: 'directive'; tokens: LexToken[]; index: number; prefix: string }
  /** `index` counts tokens after the opcode (0 = the opcode itself); `label` is a leading `name:`. */
  | { kind: 'instruction'; tokens: LexToken[]; index: number; prefix: string; label?: LexToken; lineStart: boolean };

/** The context at (line, character); the token being typed is the one ending at the cursor. */
export function cursorContext(model: DocumentModel, line: number, character: number): CursorContext {
  const full = model.lines[line];
  const text = full?.text ?? '';
  const before = lexLine(text.slice(0, character), line);
  if (before.commentStart !== undefined) return { kind: 'comment' };
  const last = before.tokens[before.tokens.length - 1];
  const typing = last !== undefined && last.end === character && last.text !== ';';
  if (typing && last.text.startsWith('"') && !(last.text.length > 1 && last.text.endsWith('"'))) return { kind: 'string' };
  const prefix = typing ? last.text : '';
  const done = typing ? before.tokens.slice(0, -1) : before.tokens;
  if (before.tokens[0]?.text.startsWith('#')) {
    return { kind: 'directive', tokens: done, index: done.length, prefix };
  }
  // Only the statement the cursor is in matters: cut at the last `;`.
  let lastSemi = -1;
  done.forEach((t, i) => {
    if (t.text === ';') lastSemi = i;
  });
  let tokens = done.slice(lastSemi + 1);
  let label: LexToken | undefined;
  if (tokens[0] && tokens[0].text.endsWith(':') && !tokens[0].text.startsWith('"')) {
    label = tokens[0];
    tokens = tokens.slice(1);
  }
  const lineStart = done.length === 0;
  return label
    ? { kind: 'instruction', tokens, index: tokens.length, prefix, label, lineStart }
    : { kind: 'instruction', tokens, index: tokens.length, prefix, lineStart };
}
