// Document outline and workspace symbol search. Subroutines (callsub targets and labels followed
// by `proto`) hold the labels after them; macros are listed by their `#define` line. Labels a macro
// body creates are shown where the macro is used — that is where they exist — never at the
// `#define` line.
import { SymbolKind, type DocumentSymbol, type Range, type SymbolInformation } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { symbolIndex } from './symbolIndex.js';

export function documentSymbols(model: DocumentModel): DocumentSymbol[] {
  const idx = symbolIndex(model);
  const lastLine = Math.max(0, model.lines.length - 1);
  const lastChar = model.lines[lastLine]?.text.length ?? 0;
  const top: DocumentSymbol[] = [];
  const labels = [...idx.labels].sort((a, b) => a.site.start.line - b.site.start.line || a.site.start.character - b.site.start.character);
  const subStarts = labels.filter((l) => idx.subroutines.has(l.name));
  let current: DocumentSymbol | undefined;
  for (const l of labels) {
    const isSub = idx.subroutines.has(l.name);
    if (isSub) {
      const next = subStarts[subStarts.indexOf(l) + 1];
      const endLine = next ? Math.max(l.site.start.line, next.site.start.line - 1) : lastLine;
      const endChar = next ? (model.lines[endLine]?.text.length ?? 0) : lastChar;
      const range: Range = { start: { line: l.site.start.line, character: 0 }, end: { line: endLine, character: endChar } };
      current = { name: l.name, detail: 'subroutine', kind: SymbolKind.Function, range, selectionRange: l.site, children: [] };
      top.push(current);
      continue;
    }
    const sym: DocumentSymbol = {
      name: l.name,
      detail: l.fromMacro ? 'label (from macro)' : 'label',
      kind: SymbolKind.Key,
      range: l.site,
      selectionRange: l.site,
    };
    if (current && l.site.start.line <= current.range.end.line) current.children!.push(sym);
    else top.push(sym);
  }
  for (const m of model.analysis?.macros ?? []) {
    const line = m.definition.line;
    const text = model.lines[line]?.text ?? '';
    const range: Range = { start: { line, character: 0 }, end: { line, character: text.length } };
    const selectionRange: Range = { start: { line, character: m.definition.utf16Column }, end: { line, character: m.definition.utf16EndColumn } };
    top.push({
      name: m.name,
      detail: m.body
        .map((t) => t.text)
        .join(' ')
        .replace(/ ;/g, ';'),
      kind: SymbolKind.Constant,
      range,
      selectionRange,
    });
  }
  top.sort((a, b) => a.range.start.line - b.range.start.line);
  return top;
}

/** Case-insensitive subsequence match, as editors filter symbol lists. */
export function fuzzyMatch(query: string, name: string): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  let i = 0;
  for (const c of n) if (c === q[i]) i++;
  return i >= q.length;
}

export function flatSymbols(model: DocumentModel, query: string): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  const walk = (syms: DocumentSymbol[], container?: string) => {
    for (const s of syms) {
      if (fuzzyMatch(query, s.name)) {
        const info: SymbolInformation = { name: s.name, kind: s.kind, location: { uri: model.uri, range: s.selectionRange } };
        if (container) info.containerName = container;
        out.push(info);
      }
      if (s.children) walk(s.children, s.name);
    }
  };
  walk(documentSymbols(model));
  return out;
}
