// Converts the assembler's diagnostics to LSP: shown at the use site, with the `#define` token that
// produced the offending code as related information.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { SourceRange, TealDiagnostic } from '../../../sdk/src/teal/types.js';
import type { DocumentModel } from '../document.js';

export function toLspRange(r: SourceRange) {
  return { start: { line: r.line, character: r.utf16Column }, end: { line: r.line, character: Math.max(r.utf16EndColumn, r.utf16Column) } };
}

export function toLspDiagnostic(uri: string, d: TealDiagnostic): Diagnostic {
  const out: Diagnostic = {
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    range: toLspRange(d.range),
    message: d.message,
    source: 'tealworks',
  };
  if (d.code) out.code = d.code;
  if (d.definition) {
    const chain = d.macros?.length ? ` (${d.macros.join(' → ')})` : '';
    out.relatedInformation = [{ location: { uri, range: toLspRange(d.definition) }, message: `expanded from this macro definition${chain}` }];
  }
  return out;
}

/** Diagnostics published per document at most; one more line says how many were left out. */
export const MAX_DIAGNOSTICS = 500;

export function diagnostics(model: DocumentModel): Diagnostic[] {
  const all = model.diagnostics;
  if (all.length <= MAX_DIAGNOSTICS) return all.map((d) => toLspDiagnostic(model.uri, d));
  // Macro limits explain everything after them: never cut those off.
  const shown = all.slice(0, MAX_DIAGNOSTICS);
  for (let i = MAX_DIAGNOSTICS; i < all.length; i++) if (all[i]!.code === 'macro') shown.push(all[i]!);
  const out = shown.map((d) => toLspDiagnostic(model.uri, d));
  out.push({
    severity: DiagnosticSeverity.Warning,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    message: `${all.length - shown.length} more problems are not shown (only the first ${MAX_DIAGNOSTICS} are listed)`,
    source: 'tealworks',
    code: 'too-many',
  });
  return out;
}
