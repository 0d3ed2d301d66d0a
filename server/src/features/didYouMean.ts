// "Did you mean …?" for an unknown opcode, field or label: the closest names the program could
// have meant (edit distance, transpositions counted as one edit), best first.
import type { Diagnostic } from 'vscode-languageserver';
import { fieldsAt, opByName, opsAt } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { PSEUDO_OP_NAMES } from '../language.js';

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 0; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/** Up to `max` candidates within a distance that grows with the word's length (1 for short words, at most 3). */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const scored: { name: string; d: number }[] = [];
  for (const c of new Set(candidates)) {
    if (c === word || Math.abs(c.length - word.length) > limit) continue;
    const d = editDistance(word, c);
    // Same letters in another case ("sender" for "Sender") always qualify.
    if (d <= limit || c.toLowerCase() === word.toLowerCase()) scored.push({ name: c, d: c.toLowerCase() === word.toLowerCase() ? 0 : d });
  }
  return scored
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, max)
    .map((x) => x.name);
}

const UNKNOWN_OPCODE = /^unknown opcode: (\S+)$/;
const UNKNOWN_FIELD = /^(\S+) unknown field: "(.*)"$/;
const UNDEFINED_LABEL = /^reference to undefined label "(.*)"$/;

export interface Suggestion {
  kind: 'opcode' | 'field' | 'label';
  word: string;
  names: string[];
}

/** The suggestions for one diagnostic, when it is about an unknown name. */
export function suggestionsFor(model: DocumentModel, d: Pick<Diagnostic, 'message'>): Suggestion | undefined {
  const version = model.analysis?.version ?? model.avmVersion;
  let m = UNKNOWN_OPCODE.exec(d.message);
  if (m) {
    const word = m[1]!;
    const names = [...opsAt(version).map((o) => o.name), ...PSEUDO_OP_NAMES, ...model.macros.keys()];
    return { kind: 'opcode', word, names: closest(word, names) };
  }
  m = UNKNOWN_FIELD.exec(d.message);
  if (m) {
    const op = opByName(m[1]!, version);
    if (!op) return undefined;
    const word = m[2]!;
    return {
      kind: 'field',
      word,
      names: closest(
        word,
        fieldsAt(op, version).map((f) => f.name),
      ),
    };
  }
  m = UNDEFINED_LABEL.exec(d.message);
  if (m) {
    const word = m[1]!;
    const labels = model.analysis?.labels.map((l) => l.name) ?? [...model.labels.keys()];
    return { kind: 'label', word, names: closest(word, labels) };
  }
  return undefined;
}
