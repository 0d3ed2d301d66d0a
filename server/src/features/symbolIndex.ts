// Every place a label or macro name is written in the source, built from the assembler's expanded
// analysis. Positions are the raw source spans (inside a `#define` body when the token came from a
// macro), so definition, references, highlight and rename all edit what the user actually typed —
// including names inside macro bodies and arguments of macro uses, which a token-level index misses.
import type { Range } from 'vscode-languageserver';
import type { SourceRange } from '@tealworks/sdk/teal';
import type { AnalyzedStatement, TokenInfo } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';

export type SymbolKindName = 'label' | 'macro';

export interface Occurrence {
  kind: SymbolKindName;
  name: string;
  /** The span of the name itself (a definition's `:` excluded). */
  range: Range;
  definition: boolean;
  /** True when the text sits in a `#define` body. */
  inMacroBody: boolean;
}

export interface LabelEntry {
  name: string;
  /** Where the label is created: the definition token, or the macro use site when a body defines it. */
  site: Range;
  /** The written `name:` span (inside the `#define` when a body defines it). */
  nameRange: Range;
  fromMacro: boolean;
  pc?: number;
  /** Index of the statement that defines it. */
  statement: number;
}

export interface SymbolIndex {
  occurrences: Occurrence[];
  labels: LabelEntry[];
  /** Labels that `callsub` targets or that are followed by `proto`. */
  subroutines: Set<string>;
  /** Statements whose first token sits on each source (use-site) line. */
  statementsByLine: Map<number, number[]>;
}

export function lspRange(r: SourceRange, trimColon = false): Range {
  const end = Math.max(r.utf16EndColumn, r.utf16Column);
  return { start: { line: r.line, character: r.utf16Column }, end: { line: r.line, character: trimColon ? Math.max(r.utf16Column, end - 1) : end } };
}

/** The source span where a token's text is written. */
export function writtenRange(t: TokenInfo): SourceRange {
  return t.definition ?? t.range;
}

export function contains(r: Range, line: number, character: number): boolean {
  return r.start.line === line && r.start.character <= character && character <= r.end.character;
}

const cache = new WeakMap<DocumentModel, SymbolIndex>();

export function symbolIndex(model: DocumentModel): SymbolIndex {
  let idx = cache.get(model);
  if (!idx) cache.set(model, (idx = build(model)));
  return idx;
}

function build(model: DocumentModel): SymbolIndex {
  const a = model.analysis;
  const occurrences: Occurrence[] = [];
  const seen = new Set<string>();
  const add = (kind: SymbolKindName, name: string, r: SourceRange, definition: boolean, inMacroBody: boolean, trim = false) => {
    const key = `${r.line}:${r.utf16Column}`;
    if (seen.has(key)) return;
    seen.add(key);
    occurrences.push({ kind, name, range: lspRange(r, trim), definition, inMacroBody });
  };
  const labels: LabelEntry[] = [];
  const subroutines = new Set<string>();
  const statementsByLine = new Map<number, number[]>();
  if (!a) return { occurrences, labels, subroutines, statementsByLine };

  const labelStatement = new Map<string, number>();
  a.statements.forEach((s, i) => {
    const first = s.tokens[0];
    if (first) {
      const line = first.range.line;
      let list = statementsByLine.get(line);
      if (!list) statementsByLine.set(line, (list = []));
      list.push(i);
    }
    if (s.label && !labelStatement.has(s.label)) labelStatement.set(s.label, i);
    if (s.op === 'callsub' && s.tokens.length >= 2) subroutines.add(s.tokens[s.tokens.length - 1]!.text);
  });
  // A label directly followed by `proto` (possibly on the same statement) opens a subroutine frame.
  for (const [name, i] of labelStatement) {
    const next = nextOp(a.statements, i);
    if (next?.op === 'proto') subroutines.add(name);
  }

  for (const info of a.labels) {
    const written = writtenRange(info.definition);
    add('label', info.name, written, true, info.definition.definition !== undefined, true);
    const entry: LabelEntry = {
      name: info.name,
      site: lspRange(info.definition.range, info.definition.definition === undefined),
      nameRange: lspRange(written, true),
      fromMacro: info.definition.definition !== undefined,
      statement: labelStatement.get(info.name) ?? -1,
    };
    if (info.pc !== undefined) entry.pc = info.pc;
    labels.push(entry);
    for (const ref of info.references) add('label', info.name, writtenRange(ref), false, ref.definition !== undefined);
    for (const m of info.macroBodyMentions) add('label', info.name, m.range, false, true);
  }

  const macroNames = new Set(a.macros.map((m) => m.name));
  for (const m of a.macros) {
    add('macro', m.name, m.definition, true, false);
    for (const use of m.uses) add('macro', m.name, writtenRange(use), false, use.definition !== undefined);
  }
  // Bodies are plain tokens until used: a macro named in a body that is never expanded is still a mention.
  for (const m of a.macros) {
    for (const t of m.body) if (macroNames.has(t.text)) add('macro', t.text, t.range, false, true);
  }
  occurrences.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
  return { occurrences, labels, subroutines, statementsByLine };
}

/** The first statement at or after `i` that has an instruction. */
function nextOp(statements: readonly AnalyzedStatement[], i: number): AnalyzedStatement | undefined {
  for (let j = i; j < statements.length; j++) {
    const s = statements[j]!;
    if (s.op) return s;
    if (j > i && s.label) continue;
  }
  return undefined;
}

export function occurrenceAt(model: DocumentModel, line: number, character: number): Occurrence | undefined {
  return symbolIndex(model).occurrences.find((o) => contains(o.range, line, character));
}

export function occurrencesOf(model: DocumentModel, kind: SymbolKindName, name: string): Occurrence[] {
  return symbolIndex(model).occurrences.filter((o) => o.kind === kind && o.name === name);
}
