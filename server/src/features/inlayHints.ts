// Inlay hints at the end of code lines: the stack height after the line (when the assembler knows
// the whole stack), the line's program counter, and the name of a number compared with TypeEnum or
// OnCompletion. Each kind has its own setting; hints are short and padded so they stay quiet.
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { namedNumbers } from './namedConstants.js';
import type { FeatureSettings } from './settings.js';
import { symbolIndex } from './symbolIndex.js';
import { stackHeights } from './stackHeights.js';

export function inlayHints(model: DocumentModel, range: Range, settings: FeatureSettings['inlayHints']): InlayHint[] {
  const a = model.analysis;
  if (!a) return [];
  const out: InlayHint[] = [];
  const inRange = (line: number) => line >= range.start.line && line <= range.end.line;
  if (settings.constants) {
    for (const n of namedNumbers(model)) {
      const r = n.token.range;
      if (!inRange(r.line)) continue;
      out.push({
        position: { line: r.line, character: r.utf16EndColumn },
        label: `= ${n.name}`,
        kind: InlayHintKind.Parameter,
        paddingLeft: true,
        tooltip: `${n.field} ${n.value} is \`${n.name}\``,
      });
    }
  }
  if (settings.stackDepth || settings.pc) {
    // Heights past labels and branches, where the assembler's snapshots stop being exact.
    const heights = settings.stackDepth ? stackHeights(a) : undefined;
    for (const [line, indices] of symbolIndex(model).statementsByLine) {
      if (!inRange(line)) continue;
      const text = model.lines[line];
      if (!text || text.tokens[0]?.text.startsWith('#')) continue;
      const withOpIndices = indices.filter((i) => a.statements[i]!.op);
      const withOp = withOpIndices.map((i) => a.statements[i]!);
      if (!withOp.length) continue;
      const end = text.tokens[text.tokens.length - 1]!.end;
      const parts: string[] = [];
      const firstPc = withOp.find((s) => s.pc !== undefined)?.pc;
      if (settings.pc && firstPc !== undefined) parts.push(`pc ${firstPc}`);
      const after = withOp[withOp.length - 1]!.stackAfter;
      const last = withOpIndices[withOpIndices.length - 1]!;
      // The walk over every path wins; the assembler's snapshot follows only the fall-through, so
      // it counts only where the walk knows nothing (an op whose effect is not static).
      const walked = heights?.after[last];
      const disputed = heights?.disputed[last] === true;
      const height = walked ?? (disputed ? undefined : after?.exact ? after.types.length : undefined);
      if (settings.stackDepth && height !== undefined) parts.push(`stack ${height}`);
      if (!parts.length) continue;
      const hint: InlayHint = { position: { line, character: end }, label: parts.join(' · '), paddingLeft: true };
      if (settings.stackDepth && after?.exact && after.types.length === height)
        hint.tooltip = after.types.length ? `stack after this line (top last): ${after.types.join(', ')}` : 'stack empty after this line';
      else if (settings.stackDepth && height !== undefined)
        hint.tooltip = `stack height after this line: ${height}, the same on every path that reaches it (types are not tracked past a label)`;
      out.push(hint);
    }
  }
  return out.sort((x, y) => x.position.line - y.position.line || x.position.character - y.position.character);
}
