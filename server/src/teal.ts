// The seam between the server and the SDK's TEAL toolchain (assembler diagnostics, analysis, hover
// docs). Features call these functions only, so swapping in richer SDK APIs touches this file alone.
import type { TealDiagnostic } from '@tealworks/sdk/teal';
import { renderConstantMarkdown, renderFieldMarkdown, renderOpcodeMarkdown } from '@tealworks/sdk/teal';
import { analyzeSteps, AnalysisSession, type Analysis } from '@tealworks/sdk/teal';
import type { Mode } from './language.js';
import { fieldNamesAt } from '@tealworks/sdk/teal';
import { macroNameProblem, ON_COMPLETION_CONSTANTS, PSEUDO_OP_NAMES as ASSEMBLER_PSEUDO_OPS, TXN_TYPE_CONSTANTS } from '@tealworks/sdk/teal';
import { brokenVersionPragma, withBrokenPragma } from './features/pragma.js';

export type { Analysis };
export { AnalysisSession };

/** What the assembler knows about the whole program, for the status bar and mode filtering. */
export interface ProgramFacts {
  /** Assembled size in bytes (only when the program assembles without errors). */
  size?: number;
  version?: number;
  mode?: Mode;
}

export interface Collected {
  diagnostics: TealDiagnostic[];
  program?: ProgramFacts;
  /** The macro-expanded analysis (statements with provenance, labels, macros, stack states). */
  analysis?: Analysis;
}

/**
 * Runs the SDK assembler's analysis over a whole document. An exception inside the assembler is
 * a bug there, not a problem in the user's file: it is reported once as a diagnostic on line 1 so
 * the other features keep working. `remap` maps the analysis's ranges back when `source` is a
 * template-substituted copy of the document.
 */
/**
 * The largest document the language server works on (1 MiB of TEAL is far beyond any real program,
 * generated ones included). Larger documents, and documents with a line longer than
 * {@link MAX_LINE_CHARS}, are not lexed, analysed or highlighted by the server at all (the editor's
 * grammar still colours them): they get one diagnostic saying so, and cost the server nothing
 * while other documents are served.
 */
export const MAX_ANALYSIS_CHARS = 1024 * 1024;
/** The longest line the language server works on (a TEAL line holds at most a 4 KiB constant). */
export const MAX_LINE_CHARS = 64 * 1024;

/** Why the server will not work on `text` (too large, or a line too long), or `undefined`. */
export function tooLargeReason(text: string): string | undefined {
  if (text.length > MAX_ANALYSIS_CHARS) {
    return `this file (${text.length} characters) is too large for the TEAL language server: the limit is ${MAX_ANALYSIS_CHARS} characters; it is not analysed (only the editor's own highlighting applies)`;
  }
  if (!mayHaveLongLine(text)) return undefined;
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > MAX_LINE_CHARS) {
      return `line ${line + 1} of this file (${end - start} characters) is longer than the TEAL language server's limit of ${MAX_LINE_CHARS}; the file is not analysed (only the editor's own highlighting applies)`;
    }
    start = end + 1;
    line++;
  }
  return undefined;
}

/**
 * False when no line of `text` can be longer than {@link MAX_LINE_CHARS}: a longer line covers a
 * whole aligned block of half that size, so when every such block holds a line break there is none.
 * One `indexOf` per 32 KiB block instead of one per line (this runs on every edit and keystroke).
 */
function mayHaveLongLine(text: string): boolean {
  const block = MAX_LINE_CHARS / 2;
  for (let at = 0; at + block <= text.length; at += block) {
    const nl = text.indexOf('\n', at);
    if (nl < 0 || nl >= at + block) return true;
  }
  return false;
}

/** The one diagnostic of a document the server will not work on. */
export function tooLargeDiagnostic(reason: string): TealDiagnostic {
  return { severity: 'warning', message: reason, range: { line: 0, column: 0, endColumn: 0, utf16Column: 0, utf16EndColumn: 0 }, code: 'too-large' };
}

/** Diagnostics kept per analysis (plus macro-limit ones and a count of the rest). */
export const KEEP_DIAGNOSTICS = 500;

export function collectDiagnostics(source: string, remap: <T>(value: T) => T = (v) => v): Collected {
  const steps = collectDiagnosticsSteps(source, remap);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * {@link collectDiagnostics} in steps: pauses (yields) after each bounded slice of the assembler's
 * work, so the server can answer other requests between slices; the result is the same. With a
 * `session` (the document's {@link AnalysisSession}), only the region around the edit since the
 * session's last text is analysed again; `remap` must then leave the analysis as it is (the session
 * shares its objects with the next analysis).
 */
export function* collectDiagnosticsSteps(source: string, remap: <T>(value: T) => T = (v) => v, session?: AnalysisSession): Generator<void, Collected, void> {
  const tooLarge = tooLargeReason(source);
  if (tooLarge) return { diagnostics: [tooLargeDiagnostic(tooLarge)] };
  let analysis: Analysis;
  // A broken version line: one precise diagnostic instead of v1's cascade (features/pragma.ts).
  const broken = brokenVersionPragma(source);
  try {
    // A broken pragma is analysed in full (its repaired text); the session keeps only whole-program results it can reuse.
    analysis = remap(yield* session && !broken ? session.updateSteps(source) : analyzeSteps(broken ? broken.repaired : source));
    if (broken) {
      analysis.diagnostics = withBrokenPragma(analysis.diagnostics, broken);
      delete analysis.program;
    }
  } catch (e) {
    const message = `internal assembler error: ${e instanceof Error ? e.message : String(e)}`;
    return {
      diagnostics: [{ severity: 'warning', message, range: { line: 0, column: 0, endColumn: 0, utf16Column: 0, utf16EndColumn: 0 }, code: 'internal' }],
    };
  }
  // Thousands of follow-on errors help nobody and cost time to send between threads and to the
  // editor: keep the first ones and every macro-limit diagnostic (features.diagnostics says how many were left out).
  if (analysis.diagnostics.length > KEEP_DIAGNOSTICS) {
    const all = analysis.diagnostics;
    const kept = all.slice(0, KEEP_DIAGNOSTICS);
    for (let i = KEEP_DIAGNOSTICS; i < all.length; i++) if (all[i]!.code === 'macro') kept.push(all[i]!);
    kept.push({
      severity: 'warning',
      message: `${all.length - kept.length} more problems are not shown (only the first ${KEEP_DIAGNOSTICS} are listed)`,
      range: { line: 0, column: 0, endColumn: 0, utf16Column: 0, utf16EndColumn: 0 },
      code: 'too-many',
    });
    analysis.diagnostics = kept;
  }
  const program: ProgramFacts = { version: analysis.version };
  if (analysis.program) program.size = analysis.program.length;
  if (analysis.mode !== 'any') program.mode = analysis.mode;
  return { diagnostics: analysis.diagnostics, program, analysis };
}

/** Hover Markdown for an opcode or pseudo-op as it is at `version` (the SDK's docs renderer). */
export function opcodeMarkdown(name: string, version: number): string | undefined {
  return renderOpcodeMarkdown(name, version);
}

/** Hover Markdown for a field of `group` as `opName` sees it. */
export function fieldMarkdown(group: string, field: string, version: number, opName?: string): string | undefined {
  return renderFieldMarkdown(group, field, version, opName);
}

/** Hover Markdown for a named `int` constant or a directive (`#define`, `#pragma version`). */
export function constantMarkdown(name: string): string | undefined {
  return renderConstantMarkdown(name);
}

// Name rules the rename refactoring must respect. They live inside the assembler (not its public
// barrel), so they are reached through here only.

/** The assembler's reason `name` cannot name a macro at `version` (label clashes not included). */
export function macroNameError(name: string, version: number): string | undefined {
  return macroNameProblem(name, version, new Map());
}

/** True for any field or enum name usable as an immediate at `version`. */
export function isFieldName(name: string, version: number): boolean {
  return fieldNamesAt(version).has(name);
}

/** Named `int` constants (transaction types, OnCompletion actions). */
export function isNamedConstant(name: string): boolean {
  return TXN_TYPE_CONSTANTS.has(name) || ON_COMPLETION_CONSTANTS.has(name);
}

/** Names the assembler treats as pseudo-ops (a macro may not take them). */
export function isAssemblerPseudoOp(name: string): boolean {
  return ASSEMBLER_PSEUDO_OPS.has(name);
}
