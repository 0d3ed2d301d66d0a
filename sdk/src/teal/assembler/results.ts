/** The public shapes of assembly results and of the analysis view. */
import type { PcMapping, SourceRange, TealDiagnostic } from '../types.js';

/** Assembler options: default version, type tracking, template values, autosalt. */
export interface AssembleOptions {
  /** Assemble at this version, as the reference's assemble-with-version (a differing pragma is an error). */
  version?: number;
  /** Initial state of stack-type checking (default on, as the reference). */
  typetrack?: boolean;
  /** Values substituted for `TMPL_*` placeholders before assembly. */
  templateVars?: Record<string, TemplateValue>;
  /** Default auto-salt behaviour when the source has no `#pragma autosalt` (default: the v13 rule). */
  autosalt?: boolean;
}

/** A template variable's value: an integer, text or bytes. */
export type TemplateValue = bigint | number | string | Uint8Array;

/** Where the outermost macro name was written and where the token sits in the `#define`. */
export interface TokenInfo {
  text: string;
  range: SourceRange;
  definition?: SourceRange;
  macros?: readonly string[];
}

/** The stack's types at a point, and whether the analysis knows it exactly. */
export interface StackSnapshot {
  /** Entries tracked above the unknown part of the stack. */
  types: string[];
  /** True when nothing lies below `types` (known from program start). */
  exact: boolean;
}

/** One statement of an analysis: its tokens, label, op, pc, and the stack before and after. */
export interface AnalyzedStatement {
  tokens: TokenInfo[];
  /** The label defined by this statement, if any. */
  label?: string;
  /** The instruction name as written (after macro expansion), if any. */
  op?: string;
  /** Program counter of the instruction in the final program (undefined when it emitted nothing). */
  pc?: number;
  /** Stack before the instruction, when the code is live. */
  stackBefore?: StackSnapshot;
  /** Stack after the instruction, when the code is live. */
  stackAfter?: StackSnapshot;
}

/** A label: its definition, pc, references, and mentions inside macro bodies. */
export interface LabelInfo {
  name: string;
  definition: TokenInfo;
  pc?: number;
  references: TokenInfo[];
  /** Mentions of the name inside `#define` bodies (bodies are only tokens until used). */
  macroBodyMentions: TokenInfo[];
}

/** A `#define` macro: its definition, body, uses, and whether it is in force at the end. */
export interface MacroInfo {
  name: string;
  /** The name token on the `#define` line. */
  definition: SourceRange;
  body: TokenInfo[];
  uses: TokenInfo[];
  /** False once a later `#define` of the same name replaced it or the version check deleted it. */
  current: boolean;
}

/** The mode a program's ops allow: logic signature, application, or either. */
export type InferredMode = 'logicsig' | 'application' | 'any';

/** A program analysed for the editor: version, inferred mode, statements with stack types, labels, macros, diagnostics, and bytes when it assembles. */
export interface Analysis {
  version: number;
  mode: InferredMode;
  statements: AnalyzedStatement[];
  labels: LabelInfo[];
  macros: MacroInfo[];
  diagnostics: TealDiagnostic[];
  /** Set when the source assembled. */
  program?: Uint8Array;
}

/** An assembled program: bytes, version, its address, the pc-to-line source map, warnings, whether it is stateful. */
export interface AssembledProgram {
  program: Uint8Array;
  version: number;
  /** The logicsig (contract) address: sha512_256("Program" || program) in address form. */
  address: string;
  sourceMap: PcMapping[];
  warnings: TealDiagnostic[];
  /** True when the program uses application-only opcodes. */
  stateful: boolean;
}
