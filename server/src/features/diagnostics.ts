// Converts the assembler's diagnostics to LSP: shown at the use site, with the `#define` token that
// produced the offending code as related information.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { SourceRange, TealDiagnostic } from '@tealworks/sdk/teal';
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

/**
 * The assembler (like the reference one) warns on `method "Name(args)"` with no return type, but
 * that is exactly an ARC-28 event selector (`method "Incremented(address,uint64)"` → the 4 bytes
 * an event log starts with). The editor does not repeat that warning.
 */
const EVENT_SELECTOR = /^invalid ARC-4 ABI method signature for method op: invalid return type ""$/i;

/** The model's diagnostics in LSP form (already capped per document by `collectDiagnostics`). */
export function diagnostics(model: DocumentModel): Diagnostic[] {
  return model.diagnostics.filter((d) => !(d.severity === 'warning' && EVENT_SELECTOR.test(d.message))).map((d) => toLspDiagnostic(model.uri, d));
}
