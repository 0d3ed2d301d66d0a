import type { TealDiagnostic } from '../types.js';

/**
 * A diagnostic in the reference's `line:col: message` form (1-based line, 0-based byte column,
 * column omitted when 0). The reference reports expanded-macro errors at the `#define`, so that
 * position is used when the diagnostic carries one.
 */
export function formatDiagnostic(d: TealDiagnostic): string {
  const at = d.definition ?? d.range;
  return at.column !== 0 ? `${at.line + 1}:${at.column}: ${d.message}` : `${at.line + 1}: ${d.message}`;
}
