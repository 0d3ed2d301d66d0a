// Selection ranges (expand selection): token → statement → line → subroutine → document.
import { SymbolKind, type Position, type Range, type SelectionRange } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { documentSymbols } from './symbols.js';

function chain(ranges: Range[]): SelectionRange {
  let parent: SelectionRange | undefined;
  for (let i = ranges.length - 1; i >= 0; i--) parent = parent ? { range: ranges[i]!, parent } : { range: ranges[i]! };
  return parent!;
}

const same = (a: Range, b: Range) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

export function selectionRanges(model: DocumentModel, positions: readonly Position[]): SelectionRange[] {
  const lastLine = Math.max(0, model.lines.length - 1);
  const whole: Range = { start: { line: 0, character: 0 }, end: { line: lastLine, character: model.lines[lastLine]?.text.length ?? 0 } };
  const subs = documentSymbols(model).filter((s) => s.kind === SymbolKind.Function);
  return positions.map((p) => {
    const ranges: Range[] = [];
    const push = (r: Range) => {
      const last = ranges[ranges.length - 1];
      if (!last || !same(last, r)) ranges.push(r);
    };
    const line = model.lines[p.line];
    if (line) {
      const tokens = line.tokens;
      const at = tokens.findIndex((t) => t.start <= p.character && p.character <= t.end && t.text !== ';');
      if (at >= 0) {
        const t = tokens[at]!;
        push({ start: { line: p.line, character: t.start }, end: { line: p.line, character: t.end } });
        // The statement: the tokens between the surrounding `;` tokens (directives are one statement).
        let a = at;
        let b = at;
        const directive = tokens[0]?.text.startsWith('#');
        while (a > 0 && (directive || tokens[a - 1]!.text !== ';')) a--;
        while (b < tokens.length - 1 && (directive || tokens[b + 1]!.text !== ';')) b++;
        push({ start: { line: p.line, character: tokens[a]!.start }, end: { line: p.line, character: tokens[b]!.end } });
      }
      const first = tokens[0]?.start ?? line.commentStart ?? 0;
      push({ start: { line: p.line, character: first }, end: { line: p.line, character: line.text.trimEnd().length } });
    }
    const sub = subs.find((s) => s.range.start.line <= p.line && p.line <= s.range.end.line);
    if (sub) push(sub.range);
    push(whole);
    return chain(ranges);
  });
}
