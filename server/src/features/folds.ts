// Folding beyond comment blocks: subroutine bodies (as the outline sees them) and runs of
// consecutive `#define` lines.
import { FoldingRangeKind, SymbolKind, type FoldingRange } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { foldingRanges } from './folding.js';
import { documentSymbols } from './symbols.js';

export function allFoldingRanges(model: DocumentModel): FoldingRange[] {
  const out = foldingRanges(model);
  for (const s of documentSymbols(model)) {
    if (s.kind !== SymbolKind.Function) continue;
    // Trailing blank lines belong to the gap, not the routine.
    let end = s.range.end.line;
    while (end > s.range.start.line && (model.lines[end]?.tokens.length ?? 0) === 0 && model.lines[end]?.commentStart === undefined) end--;
    if (end > s.range.start.line) out.push({ startLine: s.range.start.line, endLine: end, kind: FoldingRangeKind.Region });
  }
  let runStart = -1;
  const isDefine = (i: number) => model.lines[i]?.tokens[0]?.text === '#define';
  for (let i = 0; i <= model.lines.length; i++) {
    if (i < model.lines.length && isDefine(i)) {
      if (runStart < 0) runStart = i;
    } else {
      if (runStart >= 0 && i - 1 > runStart) out.push({ startLine: runStart, endLine: i - 1, kind: FoldingRangeKind.Region });
      runStart = -1;
    }
  }
  return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}
