// Folding: runs of whole-line comments (file headers, routine banners). Subroutine bodies fold once
// the analysis knows where each routine ends.
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';

export function foldingRanges(model: DocumentModel): FoldingRange[] {
  const out: FoldingRange[] = [];
  let runStart = -1;
  const close = (end: number) => {
    if (runStart >= 0 && end > runStart) out.push({ startLine: runStart, endLine: end, kind: FoldingRangeKind.Comment });
    runStart = -1;
  };
  model.lines.forEach((l, i) => {
    const commentOnly = l.commentStart !== undefined && l.tokens.length === 0;
    if (commentOnly) {
      if (runStart < 0) runStart = i;
    } else close(i - 1);
  });
  close(model.lines.length - 1);
  return out;
}
