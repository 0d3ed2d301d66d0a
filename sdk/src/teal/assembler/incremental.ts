/**
 * Incremental analysis for editors. An {@link AnalysisSession} keeps, for the last text it
 * analysed, what the assembler's per-line pass produced (pending bytes, constant and label
 * references, statements, diagnostics, labels, macros) and the pass's state every
 * {@link CHECKPOINT_LINES} lines. After an edit it resumes the per-line pass at the last
 * checkpoint before the edit and, once past the edit, stops at the first checkpoint whose state
 * (version, macros, label names, stack and scratch types, flags) equals the one the previous pass
 * had there: everything after it is the previous pass's output, moved to the new byte positions.
 * The back end (constant blocks, branch sizes, label offsets), which is global, then runs over the
 * whole program as in a full analysis, so the result is the one {@link analyze} gives.
 *
 * An edit that adds or removes lines moves the reused part: every position in it at the
 * converging checkpoint's line or later is copied with its new line. Constant blocks and explicit
 * constant ops (`intcblock`, `intc 2`, `bytec_0`) are part of the compared state: the tables must
 * be the ones the previous pass had there (an edit to a block itself converges nowhere after it).
 * A macro defined or removed also changes the state for the rest of the program; a macro use
 * added or removed does not (the count of expanded tokens is compared with its limit only).
 * Programs with more than 256 implicit constants or lines too long to assemble, and edits after
 * which no checkpoint matches, are analysed from the checkpoint to the end (or in full), never
 * approximately. Template values are not supported: substitute them first.
 */
import type { SourceRange, TealDiagnostic } from '../types.js';
import { OPTIMIZE_CONSTANTS_VERSION } from './constants.js';
import type { ConstRef } from './context.js';
import { Assembler, analysisOf, finishSteps, MAX_EXPANDED_TOKENS, type LabelDef, type LabelRef } from './assembler.js';
import type { Analysis, AnalyzedStatement, AssembleOptions, LabelInfo, MacroInfo, TokenInfo } from './results.js';
import { sameType } from './stacktypes.js';
import type { Token } from './tokenizer.js';
import type { Knowledge } from './type-refiners.js';
import { NO_VERSION } from './constants.js';
import { commonPrefix, commonSuffix } from '../lexer.js';

/** Lines between two saved states of the per-line pass. */
export const CHECKPOINT_LINES = 32;
/** The most constants of one kind a reusable program may have (a larger index changes the errors). */
const MAX_TABLE = 256;

/** The per-line pass's state at the start of a line, and how much output it had made by then. */
interface Checkpoint {
  line: number;
  offset: number;
  pending: number;
  intcRefs: number;
  bytecRefs: number;
  labelDefs: number;
  labelRefs: number;
  statements: number;
  errors: number;
  warnings: number;
  labelInfos: number;
  labelRefTokens: number;
  macroInfos: number;
  /** Uses recorded so far for each macro info (by index). */
  macroUses: number[];
  macroCurrent: boolean[];
  /** Distinct label names defined so far. */
  labels: number;
  flags: Flags;
  known: Knowledge;
  /** Macros in force: name, body tokens, index of its info. */
  macros: [string, Token[], number | undefined][];
  /** The constant tables as they were (copies: the pass appends to its own). */
  consts: Consts;
}

/**
 * What decides the constant tables: blocks written so far, explicit constant ops, and a block's
 * values (copies; only with a block: otherwise a table is the referenced values in first-reference
 * order, rebuilt from the references).
 */
interface Consts {
  intc: bigint[] | undefined;
  bytec: Uint8Array[] | undefined;
  cntIntcBlock: number;
  cntBytecBlock: number;
  explicitConst: boolean;
}

function constsOf(a: Assembler): Consts {
  return {
    intc: a.cntIntcBlock > 0 ? a.intc.slice() : undefined,
    bytec: a.cntBytecBlock > 0 ? a.bytec.slice() : undefined,
    cntIntcBlock: a.cntIntcBlock,
    cntBytecBlock: a.cntBytecBlock,
    explicitConst: a.explicitConst,
  };
}

function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * True when the constant tables in `a` are the ones the previous pass had at `cp`. A block's table
 * must agree value by value, and so must an implicit one when explicit ops (`intc 3`) index it;
 * otherwise the back end rewrites every reference, whatever index the pass gave it.
 */
function sameConsts(a: Assembler, cp: Checkpoint, fe: FrontEnd): boolean {
  const c = cp.consts;
  if (a.cntIntcBlock !== c.cntIntcBlock || a.cntBytecBlock !== c.cntBytecBlock || a.explicitConst !== c.explicitConst) return false;
  if (c.intc) {
    if (a.intc.length !== c.intc.length) return false;
    for (let i = 0; i < c.intc.length; i++) if (a.intc[i] !== c.intc[i]) return false;
  } else if (c.explicitConst && !sameTable(tableOf(a.intcRefs), tableOf(fe.intcRefs, cp.intcRefs))) return false;
  if (c.bytec) {
    if (a.bytec.length !== c.bytec.length) return false;
    for (let i = 0; i < c.bytec.length; i++) if (!sameBytes(a.bytec[i]!, c.bytec[i]!)) return false;
  } else if (c.explicitConst && !sameTable(tableOf(a.bytecRefs), tableOf(fe.bytecRefs, cp.bytecRefs))) return false;
  return true;
}

interface Flags {
  version: number;
  typeTracking: boolean;
  autoSalt: 'default' | 'on' | 'off';
  autoSaltToken: Token | undefined;
  hasPseudoInt: boolean;
  hasPseudoByte: boolean;
  hasStatefulOps: boolean;
  fieldModes: number;
  expandedTokens: number;
  expansionExhausted: boolean;
}

/** Everything the per-line pass produced for one text (copies: the back end moves positions). */
interface FrontEnd {
  pending: Uint8Array;
  intcRefs: ConstRef[];
  bytecRefs: ConstRef[];
  labelDefs: LabelDef[];
  labelRefs: LabelRef[];
  stmtPc: number[];
  statements: AnalyzedStatement[];
  errors: TealDiagnostic[];
  warnings: TealDiagnostic[];
  labelInfos: LabelInfo[];
  labelRefTokens: Token[];
  macroInfos: MacroInfo[];
  flags: Flags;
  consts: Consts;
  sourceLine: number;
  /** Index of each label name's first definition in labelDefs (built when first needed). */
  firstDef?: Map<string, number>;
}

/** How the last {@link AnalysisSession.update} went (for tests and benchmarks). */
export interface UpdateInfo {
  /** `full`: the whole text was analysed; `resumed`: from `fromLine` to the end; `reused`: from `fromLine` to `toLine`, the rest reused. */
  kind: 'full' | 'resumed' | 'reused';
  fromLine: number;
  toLine?: number;
  /** For `reused`: lines the edit added (negative: removed); the reused part moved by as many. */
  linesAdded?: number;
}

function flagsOf(a: Assembler): Flags {
  return {
    version: a.version,
    typeTracking: a.typeTracking,
    autoSalt: a.autoSalt,
    autoSaltToken: a.autoSaltToken,
    hasPseudoInt: a.hasPseudoInt,
    hasPseudoByte: a.hasPseudoByte,
    hasStatefulOps: a.hasStatefulOps,
    fieldModes: a.fieldModes,
    expandedTokens: a.expandedTokens,
    expansionExhausted: a.expansionExhausted,
  };
}

function setFlags(a: Assembler, f: Flags): void {
  a.version = f.version;
  a.typeTracking = f.typeTracking;
  a.autoSalt = f.autoSalt;
  a.autoSaltToken = f.autoSaltToken;
  a.hasPseudoInt = f.hasPseudoInt;
  a.hasPseudoByte = f.hasPseudoByte;
  a.hasStatefulOps = f.hasStatefulOps;
  a.fieldModes = f.fieldModes;
  a.expandedTokens = f.expandedTokens;
  a.expansionExhausted = f.expansionExhausted;
}

/** True when the flags agree (`expandedTokens`, a running count, is compared by the caller). */
function sameFlags(a: Flags, b: Flags): boolean {
  return (
    a.version === b.version &&
    a.typeTracking === b.typeTracking &&
    a.autoSalt === b.autoSalt &&
    a.autoSaltToken === b.autoSaltToken &&
    a.hasPseudoInt === b.hasPseudoInt &&
    a.hasPseudoByte === b.hasPseudoByte &&
    a.hasStatefulOps === b.hasStatefulOps &&
    a.fieldModes === b.fieldModes &&
    a.expansionExhausted === b.expansionExhausted
  );
}

function cloneKnown(k: Knowledge): Knowledge {
  return { stack: k.stack.slice(), bottom: k.bottom, deadcode: k.deadcode, fp: k.fp, scratch: k.scratch.slice() };
}

function sameKnown(a: Knowledge, b: Knowledge): boolean {
  if (a.deadcode !== b.deadcode || a.fp !== b.fp || a.stack.length !== b.stack.length || !sameType(a.bottom, b.bottom)) return false;
  for (let i = 0; i < a.stack.length; i++) if (!sameType(a.stack[i]!, b.stack[i]!)) return false;
  for (let i = 0; i < a.scratch.length; i++) if (a.scratch[i] !== b.scratch[i] && !sameType(a.scratch[i]!, b.scratch[i]!)) return false;
  return true;
}

/** The distinct keys of the first `n` references, in first-reference order (the table the pass builds). */
function tableOf(refs: readonly ConstRef[], n = refs.length): (bigint | string)[] {
  const seen = new Set<bigint | string>();
  const out: (bigint | string)[] = [];
  for (let i = 0; i < n; i++) {
    const k = refs[i]!.key;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(k);
    }
  }
  return out;
}

function keyBytes(k: string): Uint8Array {
  const out = new Uint8Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = k.charCodeAt(i);
  return out;
}

/** True while the pass's output can be reused later (see the module comment). */
function reusable(a: Assembler): boolean {
  return a.tooLongLine === undefined;
}

function capture(a: Assembler, line: number, offset: number): Checkpoint {
  const index = new Map<MacroInfo, number>();
  a.macroInfos.forEach((m, i) => index.set(m, i));
  const macros: [string, Token[], number | undefined][] = [];
  for (const [name, e] of a.macros) macros.push([name, e.tokens, e.info ? index.get(e.info) : undefined]);
  return {
    line,
    offset,
    pending: a.pending.length,
    intcRefs: a.intcRefs.length,
    bytecRefs: a.bytecRefs.length,
    labelDefs: a.labelDefs.length,
    labelRefs: a.labelRefs.length,
    statements: a.statements.length,
    errors: a.errors.length,
    warnings: a.warnings.length,
    labelInfos: a.labelInfos.size,
    labelRefTokens: a.labelRefTokens.length,
    macroInfos: a.macroInfos.length,
    macroUses: a.macroInfos.map((m) => m.uses.length),
    macroCurrent: a.macroInfos.map((m) => m.current),
    labels: a.labels.size,
    flags: flagsOf(a),
    known: cloneKnown(a.known),
    macros,
    consts: constsOf(a),
  };
}

function record(a: Assembler): FrontEnd {
  return {
    pending: a.pending.view().slice(),
    intcRefs: a.intcRefs.map((r) => ({ pos: r.pos, key: r.key })),
    bytecRefs: a.bytecRefs.map((r) => ({ pos: r.pos, key: r.key })),
    labelDefs: a.labelDefs.slice(),
    labelRefs: a.labelRefs.map((r) => ({ ...r })),
    stmtPc: a.stmtPc.slice(),
    statements: a.statements.slice(),
    errors: a.errors.slice(),
    warnings: a.warnings.slice(),
    labelInfos: [...a.labelInfos.values()],
    labelRefTokens: a.labelRefTokens.slice(),
    macroInfos: a.macroInfos.slice(),
    flags: flagsOf(a),
    consts: constsOf(a),
    sourceLine: a.sourceLine,
  };
}

function freshLabelInfo(l: LabelInfo): LabelInfo {
  return { name: l.name, definition: l.definition, references: [], macroBodyMentions: [] };
}

function push<T>(to: T[], from: readonly T[], start: number, end = from.length): void {
  for (let i = start; i < end; i++) to.push(from[i]!);
}

function restoreConsts(a: Assembler, c: Consts): void {
  a.setIntc(c.intc ? c.intc.slice() : (tableOf(a.intcRefs) as bigint[]));
  a.setBytec(c.bytec ? c.bytec.slice() : (tableOf(a.bytecRefs) as string[]).map(keyBytes));
  a.cntIntcBlock = c.cntIntcBlock;
  a.cntBytecBlock = c.cntBytecBlock;
  a.explicitConst = c.explicitConst;
}

/** Puts the state of `cp` (and the output before it, from `fe`) into a fresh assembler. */
function restore(a: Assembler, cp: Checkpoint, fe: FrontEnd): void {
  setFlags(a, cp.flags);
  a.pending.bytes(fe.pending.subarray(0, cp.pending));
  a.intcRefs = fe.intcRefs.slice(0, cp.intcRefs).map((r) => ({ pos: r.pos, key: r.key }));
  a.bytecRefs = fe.bytecRefs.slice(0, cp.bytecRefs).map((r) => ({ pos: r.pos, key: r.key }));
  restoreConsts(a, cp.consts);
  a.labelDefs = fe.labelDefs.slice(0, cp.labelDefs);
  for (const d of a.labelDefs) a.labels.set(d.name, d.pos);
  a.labelRefs = fe.labelRefs.slice(0, cp.labelRefs).map((r) => ({ ...r }));
  a.statements = fe.statements.slice(0, cp.statements);
  a.stmtPc = fe.stmtPc.slice(0, cp.statements);
  push(a.errors, fe.errors, 0, cp.errors);
  push(a.warnings, fe.warnings, 0, cp.warnings);
  for (let i = 0; i < cp.labelInfos; i++) {
    const l = fe.labelInfos[i]!;
    a.labelInfos.set(l.name, freshLabelInfo(l));
  }
  a.labelRefTokens = fe.labelRefTokens.slice(0, cp.labelRefTokens);
  const infos: MacroInfo[] = [];
  for (let i = 0; i < cp.macroInfos; i++) {
    const m = fe.macroInfos[i]!;
    infos.push({ name: m.name, definition: m.definition, body: m.body, uses: m.uses.slice(0, cp.macroUses[i]), current: cp.macroCurrent[i]! });
  }
  a.macroInfos = infos;
  for (const [name, tokens, index] of cp.macros) a.setMacro(name, index === undefined ? { tokens } : { tokens, info: infos[index]! });
  a.known = cloneKnown(cp.known);
  a.sourceLine = cp.line;
}

/**
 * Analyses successive versions of one document, reusing the previous analysis around each edit.
 * Every result equals what {@link analyze} returns for the same text and options. A result's
 * statement objects may be shared with the next result (their `pc` is set again there).
 */
export class AnalysisSession {
  private text: string | undefined;
  private fe: FrontEnd | undefined;
  private checkpoints: Checkpoint[] = [];
  /** How the last update ran. */
  lastUpdate: UpdateInfo | undefined;

  private readonly every: number;

  /**
   * `options` apply to every version (template values are not supported: substitute them first).
   * `checkpointLines` (default {@link CHECKPOINT_LINES}) is how many lines apart the pass's state
   * is saved: smaller re-analyses less around an edit and keeps more.
   */
  constructor(
    private readonly options: Omit<AssembleOptions, 'templateVars'> = {},
    session: { checkpointLines?: number } = {},
  ) {
    this.every = Math.max(1, Math.floor(session.checkpointLines ?? CHECKPOINT_LINES));
  }

  /** The analysis of `text` (see {@link AnalysisSession.updateSteps}). */
  update(text: string): Analysis {
    const steps = this.updateSteps(text);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /**
   * The analysis of `text` in steps, as `analyzeSteps`: the generator pauses after each bounded
   * slice of work. The session moves on to `text` only when the generator finishes; one dropped
   * half-way leaves it where it was.
   */
  *updateSteps(text: string): Generator<void, Analysis, void> {
    const a = new Assembler(this.options, true);
    if (!a.parsable(text)) {
      this.reset();
      this.lastUpdate = { kind: 'full', fromLine: 0 };
      return analysisOf(yield* finishSteps(a));
    }
    const old = this.fe && this.text !== undefined ? { fe: this.fe, text: this.text, checkpoints: this.checkpoints } : undefined;
    const checkpoints: Checkpoint[] = [];
    let startLine = 0;
    let startOffset = 0;
    let regionEnd = 0;
    let dChars = 0;
    let dLines = 1;
    let from: Checkpoint | undefined;
    /** Index of the first old checkpoint that may still be where the pass converges. */
    let next = 0;
    if (old) {
      const prev = old.text;
      const p = commonPrefix(prev, text);
      const s = commonSuffix(prev, text, Math.min(prev.length, text.length) - p);
      regionEnd = text.length - s;
      dChars = text.length - prev.length;
      dLines = newlines(text, p, text.length - s) - newlines(prev, p, prev.length - s);
      let i = old.checkpoints.length - 1;
      while (i > 0 && old.checkpoints[i]!.offset > p) i--;
      from = old.checkpoints[i];
      next = i;
      if (from && from.offset <= p) {
        restore(a, from, old.fe);
        startLine = from.line;
        startOffset = from.offset;
        for (let j = 0; j < i; j++) checkpoints.push(old.checkpoints[j]!);
      } else from = undefined;
    }
    let converged: Checkpoint | undefined;
    let convergedAt = 0;
    const every = this.every;
    const atLine = (line: number, offset: number): boolean => {
      // Past the edit, line `line` of the new text is line `line - dLines` of the old one (old
      // checkpoints sit wherever the lines they saved have moved to since: not always every `every`).
      if (old && from && offset >= regionEnd) {
        const want = line - dLines;
        const cps = old.checkpoints;
        while (next < cps.length && cps[next]!.line < want) next++;
        const cp = cps[next];
        if (cp && cp.line === want && cp.offset === offset - dChars && this.sameState(a, cp, from, old.fe)) {
          converged = cp;
          convergedAt = next;
          return true;
        }
      }
      if (line % every === 0 && reusable(a)) checkpoints.push(capture(a, line, offset));
      return false;
    };
    yield* a.linesSteps(text, startLine, startOffset, atLine);
    if (converged && old) this.splice(a, converged, convergedAt, old.fe, old.checkpoints, checkpoints, dChars, dLines);
    const keep = reusable(a) && a.intc.length <= MAX_TABLE && a.bytec.length <= MAX_TABLE;
    if (converged && !keep) {
      // The reused output assumed small constant tables: analyse the text in full instead.
      this.reset();
      return yield* this.updateSteps(text);
    }
    const fe = keep ? record(a) : undefined;
    yield* a.backEndSteps();
    const result = analysisOf(yield* finishSteps(a));
    this.lastUpdate = converged
      ? { kind: 'reused', fromLine: startLine, toLine: converged.line + dLines, linesAdded: dLines }
      : { kind: from ? 'resumed' : 'full', fromLine: startLine };
    if (fe) {
      this.text = text;
      this.fe = fe;
      this.checkpoints = checkpoints;
    } else this.reset();
    return result;
  }

  /** Forgets the previous text: the next update analyses in full. */
  reset(): void {
    this.text = undefined;
    this.fe = undefined;
    this.checkpoints = [];
  }

  /** True when the pass in `a` is where the previous pass was at `cp` (`from`: where `a` resumed). */
  private sameState(a: Assembler, cp: Checkpoint, from: Checkpoint, fe: FrontEnd): boolean {
    if (!reusable(a) || !sameFlags(flagsOf(a), cp.flags) || !sameConsts(a, cp, fe)) return false;
    // The count of expanded tokens only matters once it passes the limit: a different count (macro
    // uses added or removed) is the same state as long as the reused part cannot reach the limit.
    if (a.expandedTokens !== cp.flags.expandedTokens) {
      if (fe.flags.expansionExhausted || a.expandedTokens + (fe.flags.expandedTokens - cp.flags.expandedTokens) > MAX_EXPANDED_TOKENS) return false;
    }
    if (a.pending.length > 0 !== cp.pending > 0) return false;
    if (a.macroInfos.length !== cp.macroInfos || a.macros.size !== cp.macros.length || a.labels.size !== cp.labels) return false;
    for (const [name, tokens] of cp.macros) if (a.macros.get(name)?.tokens !== tokens) return false;
    if (!sameKnown(a.known, cp.known)) return false;
    // Same label names: the ones defined since `from` were all defined before `cp` last time.
    const firstDef = (fe.firstDef ??= firstDefinitions(fe.labelDefs));
    for (let i = from.labelDefs; i < a.labelDefs.length; i++) {
      const at = firstDef.get(a.labelDefs[i]!.name);
      if (at === undefined || at >= cp.labelDefs) return false;
    }
    // Constant indexes only fix byte lengths that the optimisation rewrites; without it they must agree.
    const v = a.version;
    if (v !== NO_VERSION && v < OPTIMIZE_CONSTANTS_VERSION) {
      if (!sameTable(tableOf(a.intcRefs), tableOf(fe.intcRefs, cp.intcRefs))) return false;
      if (!sameTable(tableOf(a.bytecRefs), tableOf(fe.bytecRefs, cp.bytecRefs))) return false;
    }
    return true;
  }

  /** Appends the previous pass's output after `cp` to `a`, moved to `a`'s positions. */
  private splice(
    a: Assembler,
    cp: Checkpoint,
    cpIndex: number,
    fe: FrontEnd,
    oldCheckpoints: Checkpoint[],
    checkpoints: Checkpoint[],
    dChars: number,
    dLines: number,
  ): void {
    // Everything reused was read at line cp.line or later, or refers to a line before the edit
    // (a macro defined before the pass resumed): only the former moves by the lines the edit added.
    const sh = new LineShift(cp.line, dLines);
    // Macro uses added or removed before `cp` move the running count of expanded tokens.
    const dExpanded = a.expandedTokens - cp.flags.expandedTokens;
    const moveFlags = (f: Flags): Flags => {
      const g = sh.flags(f);
      return dExpanded === 0 ? g : { ...g, expandedTokens: g.expandedTokens + dExpanded };
    };
    const d = {
      pending: a.pending.length - cp.pending,
      intcRefs: a.intcRefs.length - cp.intcRefs,
      bytecRefs: a.bytecRefs.length - cp.bytecRefs,
      labelDefs: a.labelDefs.length - cp.labelDefs,
      labelRefs: a.labelRefs.length - cp.labelRefs,
      statements: a.statements.length - cp.statements,
      errors: a.errors.length - cp.errors,
      warnings: a.warnings.length - cp.warnings,
      labelRefTokens: a.labelRefTokens.length - cp.labelRefTokens,
    };
    const dUses = a.macroInfos.map((m, i) => m.uses.length - cp.macroUses[i]!);
    const dpc = d.pending;
    a.pending.bytes(fe.pending.subarray(cp.pending));
    for (let i = cp.intcRefs; i < fe.intcRefs.length; i++) a.intcRefs.push({ pos: fe.intcRefs[i]!.pos + dpc, key: fe.intcRefs[i]!.key });
    for (let i = cp.bytecRefs; i < fe.bytecRefs.length; i++) a.bytecRefs.push({ pos: fe.bytecRefs[i]!.pos + dpc, key: fe.bytecRefs[i]!.key });
    for (let i = cp.labelDefs; i < fe.labelDefs.length; i++) {
      const def = { name: fe.labelDefs[i]!.name, pos: fe.labelDefs[i]!.pos + dpc };
      a.labelDefs.push(def);
      a.labels.set(def.name, def.pos);
    }
    for (let i = cp.labelRefs; i < fe.labelRefs.length; i++) {
      const r = fe.labelRefs[i]!;
      a.labelRefs.push({ pos: r.pos + dpc, label: sh.token(r.label), offsetPos: r.offsetPos + dpc, varint: r.varint });
    }
    for (let i = cp.errors; i < fe.errors.length; i++) a.errors.push(sh.diagnostic(fe.errors[i]!));
    for (let i = cp.warnings; i < fe.warnings.length; i++) a.warnings.push(sh.diagnostic(fe.warnings[i]!));
    for (let i = cp.labelInfos; i < fe.labelInfos.length; i++) {
      const l = fe.labelInfos[i]!;
      a.labelInfos.set(l.name, { name: l.name, definition: sh.info(l.definition), references: [], macroBodyMentions: [] });
    }
    for (let i = cp.labelRefTokens; i < fe.labelRefTokens.length; i++) a.labelRefTokens.push(sh.token(fe.labelRefTokens[i]!));
    for (let i = 0; i < cp.macroInfos; i++) {
      const mine = a.macroInfos[i]!;
      const theirs = fe.macroInfos[i]!;
      for (let j = cp.macroUses[i]!; j < theirs.uses.length; j++) mine.uses.push(sh.info(theirs.uses[j]!));
      mine.current = theirs.current;
    }
    for (let i = cp.macroInfos; i < fe.macroInfos.length; i++) {
      const m = fe.macroInfos[i]!;
      const body = sh.none ? m.body : m.body.map((t) => sh.info(t));
      a.macroInfos.push({ name: m.name, definition: sh.range(m.definition), body, uses: m.uses.map((t) => sh.info(t)), current: m.current });
    }
    // Last: the tokens statements share with the lists above (label definitions, branch targets)
    // have been moved by now, and the rest belong to one statement each.
    a.statements = a.statements.concat(sh.none ? fe.statements.slice(cp.statements) : fe.statements.slice(cp.statements).map((st) => sh.statement(st)));
    const pcs = fe.stmtPc.slice(cp.statements);
    if (dpc !== 0) for (let i = 0; i < pcs.length; i++) if (pcs[i]! >= 0) pcs[i]! += dpc;
    a.stmtPc = a.stmtPc.concat(pcs);
    setFlags(a, moveFlags(fe.flags));
    a.sourceLine = fe.sourceLine >= cp.line ? fe.sourceLine + dLines : fe.sourceLine;
    // With a block the table is the block's (references only look values up in it); without one it
    // is every referenced value in first-reference order, as the pass builds it.
    const c = fe.consts;
    a.cntIntcBlock = c.cntIntcBlock;
    a.cntBytecBlock = c.cntBytecBlock;
    a.explicitConst = c.explicitConst;
    a.setIntc(c.intc ? c.intc.slice() : (tableOf(a.intcRefs) as bigint[]));
    a.setBytec(c.bytec ? c.bytec.slice() : (tableOf(a.bytecRefs) as string[]).map(keyBytes));
    for (let j = cpIndex; j < oldCheckpoints.length; j++) {
      const o = oldCheckpoints[j]!;
      // Spelled out, not spread: spreading a spread object over and over ends in slow dictionary objects.
      checkpoints.push({
        line: o.line + dLines,
        labelInfos: o.labelInfos,
        macroInfos: o.macroInfos,
        macroCurrent: o.macroCurrent,
        labels: o.labels,
        flags: moveFlags(o.flags),
        known: o.known,
        consts: o.consts,
        macros: sh.none ? o.macros : o.macros.map(([name, tokens, index]) => [name, sh.tokens(tokens), index]),
        offset: o.offset + dChars,
        pending: o.pending + d.pending,
        intcRefs: o.intcRefs + d.intcRefs,
        bytecRefs: o.bytecRefs + d.bytecRefs,
        labelDefs: o.labelDefs + d.labelDefs,
        labelRefs: o.labelRefs + d.labelRefs,
        statements: o.statements + d.statements,
        errors: o.errors + d.errors,
        warnings: o.warnings + d.warnings,
        labelRefTokens: o.labelRefTokens + d.labelRefTokens,
        macroUses: o.macroUses.map((u, i) => (i < dUses.length ? u + dUses[i]! : u)),
      });
    }
  }
}

/**
 * Moves what an earlier pass produced by the lines an edit added (or removed, `by` < 0): every
 * position at line `from` or later, copied; what lies before it is kept as it is. Each object is
 * copied once, so what was one token (a label's definition, the statement listing it, the branch
 * naming it) stays one token.
 */
class LineShift {
  /** True when nothing moves. */
  readonly none: boolean;
  private readonly infos = new Map<TokenInfo, TokenInfo>();
  private readonly toks = new Map<Token, Token>();
  private readonly lists = new Map<readonly Token[], Token[]>();
  private readonly flagSets = new Map<Flags, Flags>();

  constructor(
    private readonly from: number,
    private readonly by: number,
  ) {
    this.none = by === 0;
  }

  range(r: SourceRange): SourceRange {
    if (this.none || r.line < this.from) return r;
    return { line: r.line + this.by, column: r.column, endColumn: r.endColumn, utf16Column: r.utf16Column, utf16EndColumn: r.utf16EndColumn };
  }

  info(t: TokenInfo): TokenInfo {
    if (this.none) return t;
    let out = this.infos.get(t);
    if (!out) this.infos.set(t, (out = this.copy(t)));
    return out;
  }

  /** As {@link info}, for a token nothing else asks for after this (a statement's own). */
  private infoOnce(t: TokenInfo): TokenInfo {
    return this.infos.get(t) ?? this.copy(t);
  }

  private copy(t: TokenInfo): TokenInfo {
    let out: TokenInfo;
    const range = this.range(t.range);
    const definition = t.definition && this.range(t.definition);
    if (range === t.range && definition === t.definition) out = t;
    else {
      out = { text: t.text, range };
      if (definition) out.definition = definition;
      if (t.macros) out.macros = t.macros;
    }
    return out;
  }

  token(t: Token): Token {
    if (this.none) return t;
    let out = this.toks.get(t);
    if (out) return out;
    const use = t.use && this.token(t.use);
    const info = t.info && this.info(t.info);
    if (t.line < this.from && use === t.use && info === t.info) out = t;
    else out = { str: t.str, line: t.line < this.from ? t.line : t.line + this.by, col: t.col, ucol: t.ucol, blen: t.blen, use, macros: t.macros, info };
    this.toks.set(t, out);
    return out;
  }

  tokens(ts: Token[]): Token[] {
    if (this.none) return ts;
    let out = this.lists.get(ts);
    if (!out) {
      const moved = ts.map((t) => this.token(t));
      out = moved.every((t, i) => t === ts[i]) ? ts : moved;
      this.lists.set(ts, out);
    }
    return out;
  }

  flags(f: Flags): Flags {
    if (this.none || !f.autoSaltToken) return f;
    let out = this.flagSets.get(f);
    if (!out) {
      const token = this.token(f.autoSaltToken);
      out = token === f.autoSaltToken ? f : { ...f, autoSaltToken: token };
      this.flagSets.set(f, out);
    }
    return out;
  }

  diagnostic(d: TealDiagnostic): TealDiagnostic {
    if (this.none) return d;
    const range = this.range(d.range);
    const definition = d.definition && this.range(d.definition);
    if (range === d.range && definition === d.definition) return d;
    const out: TealDiagnostic = { ...d, range };
    if (definition) out.definition = definition;
    return out;
  }

  /** A statement with its tokens moved, with the keys (and their order) the assembler gives it. */
  statement(s: AnalyzedStatement): AnalyzedStatement {
    const tokens = s.tokens.map((t) => this.infoOnce(t));
    const { label, op, stackBefore, stackAfter, pc } = s;
    if (pc !== undefined && op !== undefined && stackBefore && stackAfter) {
      return label === undefined ? { tokens, op, stackBefore, stackAfter, pc } : { tokens, label, op, stackBefore, stackAfter, pc };
    }
    if (label !== undefined && op === undefined && !stackBefore && !stackAfter && pc === undefined) return { tokens, label };
    const out: AnalyzedStatement = { tokens };
    if (label !== undefined) out.label = label;
    if (op !== undefined) out.op = op;
    if (stackBefore) out.stackBefore = stackBefore;
    if (stackAfter) out.stackAfter = stackAfter;
    if (pc !== undefined) out.pc = pc;
    return out;
  }
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function firstDefinitions(defs: readonly LabelDef[]): Map<string, number> {
  const out = new Map<string, number>();
  defs.forEach((d, i) => {
    if (!out.has(d.name)) out.set(d.name, i);
  });
  return out;
}

function sameTable(a: readonly (bigint | string)[], b: readonly (bigint | string)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
