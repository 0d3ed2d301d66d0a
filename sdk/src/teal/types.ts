import { TealworksError } from '../errors.js';

/**
 * A span on one source line. Lines and columns are 0-based; `column`/`endColumn` count UTF-8 bytes
 * (what the reference assembler reports) and `utf16Column`/`utf16EndColumn` count UTF-16 code units
 * (what editors and LSP use).
 */
export interface SourceRange {
  line: number;
  column: number;
  endColumn: number;
  utf16Column: number;
  utf16EndColumn: number;
}

/**
 * Where a token came from. Tokens produced by macro expansion carry the use site (where the macro
 * name was written) and the definition token (inside the `#define` body), plus the chain of macro
 * names that led there, outermost first.
 */
export interface Provenance {
  use: SourceRange;
  definition?: SourceRange;
  macros?: string[];
}

/** How serious a diagnostic is. */
export type Severity = 'error' | 'warning';

/** A problem in TEAL source: message, severity and range (at the use site, and at the macro definition when it came through one). */
export interface TealDiagnostic {
  severity: Severity;
  message: string;
  /** Where to show it: the use site when the offending token came from a macro. */
  range: SourceRange;
  /** The token inside the `#define` body, when the offending token came from a macro. */
  definition?: SourceRange;
  macros?: string[];
  /** Stable identifier for tools (e.g. "unknown-opcode", "type-mismatch"). */
  code?: string;
}

/** One instruction's program counter and where its source is. */
export interface PcMapping {
  pc: number;
  use: SourceRange;
  definition?: SourceRange;
}

/** Thrown when source does not assemble; carries every error collected, each with its position. */
export class AssembleError extends TealworksError {
  readonly diagnostics: TealDiagnostic[];

  constructor(diagnostics: TealDiagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    const summary = first ? `${first.range.line + 1}:${first.range.column + 1}: ${first.message}` : 'assembly failed';
    super(errors.length > 1 ? `${errors.length} errors; first: ${summary}` : summary);
    this.diagnostics = diagnostics;
  }

  get line(): number {
    return this.diagnostics[0]?.range.line ?? 0;
  }

  get column(): number {
    return this.diagnostics[0]?.range.column ?? 0;
  }
}

/** Thrown when bytes are not a well-formed program; `pc` is where decoding stopped. */
export class DisassembleError extends TealworksError {
  readonly pc: number;

  constructor(message: string, pc: number) {
    super(message);
    this.pc = pc;
  }
}
