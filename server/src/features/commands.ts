// Custom requests behind the extension's commands: the macro-free program, the assembled bytes
// with a disassembly, and the source location of a program counter.
import type { AssembledResult, PcLocation } from '../protocol.js';
import { disassembleDetailed, tealMethodLines } from '@tealworks/sdk/teal';
import { toHex } from '@tealworks/sdk/encoding';
import type { DocumentModel } from '../document.js';
import { lspRange } from './symbolIndex.js';
import { PAGE_SIZE } from './codeLens.js';

/**
 * The program with every macro expanded: one statement per line, labels flush left, `#pragma`
 * lines kept where they were relative to the code (typetrack and autosalt matter there).
 */
export function expandedText(model: DocumentModel): string {
  const a = model.analysis;
  const pragmas = model.lines.filter((l) => l.tokens[0]?.text === '#pragma');
  const out: string[] = [];
  let p = 0;
  const pragmasBefore = (line: number) => {
    while (p < pragmas.length && pragmas[p]!.line < line) out.push(pragmas[p++]!.tokens.map((t) => t.text).join(' '));
  };
  for (const s of a?.statements ?? []) {
    pragmasBefore(s.tokens[0]?.range.line ?? 0);
    const toks = s.label ? s.tokens.slice(1) : s.tokens;
    if (s.label) out.push(`${s.label}:`);
    if (toks.length) out.push('    ' + toks.map((t) => t.text).join(' '));
  }
  pragmasBefore(Number.MAX_SAFE_INTEGER);
  return out.join('\n') + '\n';
}

export function assembled(model: DocumentModel): AssembledResult {
  const program = model.analysis?.program;
  const errors = model.diagnostics.filter((d) => d.severity === 'error').length;
  if (!program) return { errors: Math.max(1, errors) };
  const out: AssembledResult = { hex: toHex(program), size: program.length, pages: Math.max(1, Math.ceil(program.length / PAGE_SIZE)), errors: 0 };
  try {
    // Selectors commented with the methods the source's `method "…"` lines name.
    const d = disassembleDetailed(program, { methodSignatures: tealMethodLines(model.text).map((m) => m.signature) });
    out.disassembly = d.text;
    out.lines = d.lines;
  } catch (e) {
    out.disassembly = `// disassembly failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  return out;
}

export function pcLocation(model: DocumentModel, pc: number): PcLocation | null {
  let best: { pc: number; s: NonNullable<DocumentModel['analysis']>['statements'][number] } | undefined;
  for (const s of model.analysis?.statements ?? []) {
    if (s.pc === undefined || s.pc > pc) continue;
    if (!best || s.pc >= best.pc) best = { pc: s.pc, s };
  }
  if (!best) return null;
  const toks = best.s.label ? best.s.tokens.slice(1) : best.s.tokens;
  const op = toks[0]!;
  const out: PcLocation = { location: { uri: model.uri, range: lspRange(op.range) }, pc: best.pc };
  if (op.definition) out.definition = { uri: model.uri, range: lspRange(op.definition) };
  return out;
}
