import type { Arc56AppSpec } from '../abi/arc56.js';
import { assemble } from '../teal/assembler/assembler.js';
import { toHex } from '../encoding/hex.js';
import type { TemplateValue } from '../teal/assembler/results.js';
import { replaceTemplateVariables } from '../teal/assembler/template.js';
import type { PcMapping } from '../teal/types.js';
import { requiredExtraPages, type AppSchema, type DesiredApp } from './deploy-plan.js';
import type { DeployMetadata } from './deploy-note.js';
import { AppError } from './errors.js';
import type { AppKnowledge, ProgramKnowledge } from './simulate-report.js';
import { sourceMapKnowledge } from './debug/discover.js';

/*
 * Turning a contract (TEAL sources and/or an ARC-56 spec) into the program bytes a deploy
 * compares and sends. Deploy-time permissions follow the ecosystem convention: TEAL that
 * mentions TMPL_UPDATABLE / TMPL_DELETABLE gets 1 or 0 from the deploy's `updatable` /
 * `deletable`, so the permission recorded in the deploy note is the one the program enforces.
 */

/** A program that does not assemble, or a template variable without a value; names the program. */
export class ContractCompileError extends AppError {
  readonly program: 'approval' | 'clear';

  constructor(program: 'approval' | 'clear', message: string, options?: { cause?: unknown }) {
    super(`${program} program: ${message}`, options);
    this.program = program;
  }
}

/** What a contract is made from: TEAL sources and/or an ARC-56 spec with source or byte code. */
export interface ContractInput {
  /** TEAL text (may hold TMPL_ placeholders); wins over the spec's source and byte code. */
  approval?: string;
  clear?: string;
  approvalName?: string;
  clearName?: string;
  spec?: Arc56AppSpec;
}

/** Deploy-time values: template variables and the updatable/deletable permissions (TMPL_UPDATABLE, TMPL_DELETABLE). */
export interface CompileOptions {
  template?: Record<string, TemplateValue>;
  updatable?: boolean;
  deletable?: boolean;
}

/** One compiled program: its bytes, and the pc map and TEAL lines that locate failures. */
export interface CompiledProgram extends ProgramKnowledge {
  bytes: Uint8Array;
  /** True when the bytes came from the spec's byteCode rather than TEAL we assembled. */
  fromByteCode: boolean;
}

/** Approval and clear programs as bytes with their source maps, the state schema and the extra pages they need. */
export interface CompiledContract {
  approval: CompiledProgram;
  clear: CompiledProgram;
  /** From the spec's state schema (zeros without a spec). */
  schema: AppSchema;
  extraPages: number;
  spec?: Arc56AppSpec;
}

const PLACEHOLDER = /\bTMPL_[A-Za-z0-9_]+/g;

/** The placeholders of recent TEAL texts (a test file deploys the same contract on each fresh chain). */
const PLACEHOLDERS = new Map<string, readonly string[]>();

/** Placeholders left in TEAL outside comments and string literals. */
export function templatePlaceholders(teal: string): string[] {
  let known = PLACEHOLDERS.get(teal);
  if (!known) {
    known = scanPlaceholders(teal);
    if (PLACEHOLDERS.size >= 32) PLACEHOLDERS.delete(PLACEHOLDERS.keys().next().value!);
    PLACEHOLDERS.set(teal, known);
  }
  return [...known];
}

function scanPlaceholders(teal: string): string[] {
  const found = new Set<string>();
  for (const line of teal.split(/\r?\n/)) {
    // Drop string literals, then comments, so only code is searched.
    const code = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\/\/.*$/, '');
    for (const m of code.matchAll(PLACEHOLDER)) found.add(m[0]);
  }
  return [...found];
}

function templateTable(program: 'approval' | 'clear', teal: string, input: ContractInput, options: CompileOptions): Record<string, TemplateValue> {
  const table: Record<string, TemplateValue> = {};
  // Defaults recorded in the spec, then the caller's values.
  for (const [name, v] of input.spec?.templateVariables ?? []) if (v.value) table[name.startsWith('TMPL_') ? name : `TMPL_${name}`] = v.value;
  for (const [name, v] of Object.entries(options.template ?? {})) table[name.startsWith('TMPL_') ? name : `TMPL_${name}`] = v;
  const used = templatePlaceholders(teal);
  for (const [flag, value] of [
    ['TMPL_UPDATABLE', options.updatable],
    ['TMPL_DELETABLE', options.deletable],
  ] as const) {
    if (!used.includes(flag) || table[flag] !== undefined) continue;
    if (value === undefined)
      throw new ContractCompileError(
        program,
        `${flag} is used, so the deploy must say ${flag === 'TMPL_UPDATABLE' ? '"updatable"' : '"deletable"'} (true or false)`,
      );
    table[flag] = value ? 1n : 0n;
  }
  const missing = used.filter((n) => table[n] === undefined);
  if (missing.length)
    throw new ContractCompileError(
      program,
      `template variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} no value (give ${missing.length > 1 ? 'them' : 'it'} under "template")`,
    );
  return table;
}

/**
 * Assembled programs by TEAL text and template values: a test file deploys the same contract on
 * each fresh chain, and assembling is a pure function of these two. Callers get their own copies.
 */
const ASSEMBLED = new Map<string, { program: Uint8Array; sourceMap: PcMapping[] }>();

function templateKey(vars: Record<string, TemplateValue>): string {
  return Object.keys(vars)
    .sort()
    .map((k) => {
      const v = vars[k];
      const text = v instanceof Uint8Array ? toHex(v) : String(v);
      return `${k}=${v instanceof Uint8Array ? 'b' : typeof v}:${text}`;
    })
    .join('\u0000');
}

function assembleMemo(teal: string, vars: Record<string, TemplateValue>): { program: Uint8Array; sourceMap: PcMapping[] } {
  const key = `${templateKey(vars)}\u0001${teal}`;
  let hit = ASSEMBLED.get(key);
  if (!hit) {
    // The fresh result is nobody else's: it is kept as it is, and the caller gets a copy.
    const r = assemble(teal, { templateVars: vars });
    hit = { program: r.program, sourceMap: r.sourceMap };
    if (ASSEMBLED.size >= 32) ASSEMBLED.delete(ASSEMBLED.keys().next().value!);
    ASSEMBLED.set(key, hit);
  }
  // A plain copy: the map is numbers in two levels of objects (structuredClone costs ~100 µs here).
  const sourceMap = hit.sourceMap.map((m) => {
    const c: PcMapping = { ...m, use: { ...m.use } };
    if (m.definition) c.definition = { ...m.definition };
    return c;
  });
  return { program: hit.program.slice(), sourceMap };
}

function compileProgram(program: 'approval' | 'clear', input: ContractInput, options: CompileOptions): CompiledProgram {
  const teal = input[program] ?? input.spec?.source(program);
  const sourceName = program === 'approval' ? input.approvalName : input.clearName;
  if (teal !== undefined) {
    const vars = templateTable(program, teal, input, options);
    let result: { program: Uint8Array; sourceMap: PcMapping[] };
    try {
      result = assembleMemo(teal, vars);
    } catch (e) {
      throw new ContractCompileError(program, e instanceof Error ? e.message : String(e), { cause: e });
    }
    const substituted = Object.keys(vars).length ? replaceTemplateVariables(teal, vars) : teal;
    return {
      bytes: result.program,
      pcMap: result.sourceMap,
      sourceLines: substituted.split(/\r?\n/),
      fromByteCode: false,
      ...(sourceName !== undefined ? { sourceName } : {}),
    };
  }
  const bytes = input.spec?.byteCode(program);
  if (!bytes) throw new ContractCompileError(program, 'no TEAL source and no byte code in the app spec');
  if (options.template && Object.keys(options.template).length > 0)
    throw new ContractCompileError(program, 'template variables need TEAL source, but only byte code is available');
  return { bytes, fromByteCode: true };
}

/** Assembles a contract's approval and clear programs (template values filled in, permissions from the options) and takes the schema from the spec. */
export function compileContract(input: ContractInput, options: CompileOptions = {}): CompiledContract {
  const approval = compileProgram('approval', input, options);
  const clear = compileProgram('clear', input, options);
  const s = input.spec?.json.state.schema;
  const schema: AppSchema = {
    globalInts: s?.global.ints ?? 0,
    globalBytes: s?.global.bytes ?? 0,
    localInts: s?.local.ints ?? 0,
    localBytes: s?.local.bytes ?? 0,
  };
  return { approval, clear, schema, extraPages: requiredExtraPages(approval.bytes, clear.bytes), ...(input.spec ? { spec: input.spec } : {}) };
}

/** The deploy-plan input for a compiled contract (schema overrides win over the spec's). */
export function desiredApp(
  compiled: CompiledContract,
  metadata: DeployMetadata,
  overrides: { schema?: Partial<AppSchema>; extraPages?: number } = {},
): DesiredApp {
  return {
    ...metadata,
    approval: compiled.approval.bytes,
    clear: compiled.clear.bytes,
    schema: { ...compiled.schema, ...overrides.schema },
    ...(overrides.extraPages !== undefined ? { extraPages: overrides.extraPages } : {}),
  };
}

/** What the simulate report needs to explain failures of this contract. */
export function appKnowledge(compiled: CompiledContract, name?: string): AppKnowledge {
  return { ...(name !== undefined ? { name } : {}), ...(compiled.spec ? { spec: compiled.spec } : {}), approval: compiled.approval, clear: compiled.clear };
}

/**
 * Finds a program's source map beside its TEAL file or spec (`path`; see `findSourceMap`) and
 * attaches it, with the lines of the files it points into, so reports name user-source lines.
 * A map that reaches past the end of the program's bytes is not for it and is left out. Returns
 * whether a map was attached.
 */
export function attachSourceMap(program: ProgramKnowledge, path: string, kind: 'approval' | 'clear'): boolean {
  if (program.sourceMap) return true;
  const found = sourceMapKnowledge(path, kind);
  if (!found) return false;
  if (program.bytes) {
    const last = found.sourceMap.pcs(found.sourceMap.baseFor({ bytes: program.bytes })).pop();
    if (last !== undefined && last >= program.bytes.length) return false;
  }
  program.sourceMap = found.sourceMap;
  program.sourceFiles = found.sourceFiles;
  return true;
}

/** `attachSourceMap` for both programs of a compiled contract (paths of their TEAL files or the spec). */
export function attachSourceMaps(compiled: CompiledContract, paths: { approval?: string | undefined; clear?: string | undefined }): CompiledContract {
  for (const kind of ['approval', 'clear'] as const) {
    const path = paths[kind];
    if (path !== undefined) attachSourceMap(compiled[kind], path, kind);
  }
  return compiled;
}
