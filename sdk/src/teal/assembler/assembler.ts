/**
 * The TEAL assembler: one pass over the source that expands macros, tracks stack types, emits
 * bytes with placeholder branch offsets and constant references, then optimises constant blocks,
 * shrinks v13 varint branches, resolves labels and (for v13 logicsigs) salts the program so its
 * address is off the ed25519 curve. Behaviour and error texts follow the reference node's
 * assembler, so that the same source gives the same bytes and the same verdicts.
 */
import { AssembleError, type PcMapping, type SourceRange, type TealDiagnostic } from '../types.js';
import { MODE_APP } from '../spec/types.js';
import { hashWithPrefix } from '../../crypto/hash.js';
import { encodeAddress } from '../../encoding/address.js';
import { ByteBuffer, putVarint, varintLength } from './bytes-buffer.js';
import {
  ASSEMBLER_DEFAULT_VERSION,
  ASSEMBLER_MAX_VERSION,
  BACK_BRANCH_VERSION,
  NO_VERSION,
  OFF_CURVE_VERSION,
  OPTIMIZE_CONSTANTS_VERSION,
  OP_BYTEC,
  OP_BYTEC_0,
  OP_BYTECBLOCK,
  OP_INTC,
  OP_INTC_0,
  OP_INTCBLOCK,
  OP_PUSHBYTES,
  OP_PUSHINT,
  SALT_SEARCH_LIMIT,
} from './constants.js';
import type { AssemblerContext, ConstRef } from './context.js';
import { isEdwards25519Point } from './curve.js';
import { goQuote, isGoBlank, parseBool, parseUint } from './goparse.js';
import { DEFAULT_LIMITS } from '../../txn/limits.js';
import { macroNameProblem } from './macros.js';
import {
  ASM,
  asmDefault,
  type AsmFn,
  DEADENING,
  joinIntsOnOr,
  LITERAL_PSEUDOS,
  mergeProtos,
  PSEUDO_LITERAL_SPECS,
  PSEUDO_TABLE,
  pseudoSpec,
} from './op-assemblers.js';
import { asmOp, firstVersionOf, type AsmOp } from './optable.js';
import type {
  AnalyzedStatement,
  Analysis,
  AssembledProgram,
  AssembleOptions,
  InferredMode,
  LabelInfo,
  MacroInfo,
  StackSnapshot,
  TokenInfo,
} from './results.js';
import { Avm, overlaps, StackAny, StackNone, StackZeroUint64, type StackType } from './stacktypes.js';
import { replaceTemplateVariables } from './template.js';
import { REFINERS, type Knowledge, type Refiner } from './type-refiners.js';
import { isTooLong, rangeAfter, tokenizeLine, tokenRange, type Token } from './tokenizer.js';

export { ASSEMBLER_DEFAULT_VERSION, ASSEMBLER_MAX_VERSION } from './constants.js';
export type * from './results.js';

export interface LabelRef {
  pos: number;
  label: Token;
  offsetPos: number;
  varint: boolean;
}

/** A label definition in the per-line pass: its name and position in the pending bytes. */
export interface LabelDef {
  readonly name: string;
  readonly pos: number;
}

interface Edit {
  pos: number;
  oldLen: number;
  bytes: Uint8Array;
}

/** How many of the first `n` (ascending) values of `sorted` are at most `x`. */
function countAtMost(sorted: Int32Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hexOf(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += (x < 16 ? '0' : '') + x.toString(16);
  return s;
}

function bytesKey(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

function keyBytes(k: string): Uint8Array {
  const out = new Uint8Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = k.charCodeAt(i);
  return out;
}

function reJoin(instruction: string, args: readonly Token[]): string {
  let s = instruction;
  for (const t of args) s += ' ' + t.str;
  return s;
}

// Own-property lookups only (an op named like an Object.prototype member must not find it).
const REFINER_MAP: ReadonlyMap<string, Refiner> = new Map(Object.entries(REFINERS));
const ASM_MAP: ReadonlyMap<string, AsmFn> = new Map(Object.entries(ASM));
const PSEUDO_MAP: ReadonlyMap<string, Record<number, string>> = new Map(Object.entries(PSEUDO_TABLE));
const LITERAL_MAP: ReadonlyMap<string, AsmOp> = new Map([...LITERAL_PSEUDOS].map((n) => [n, PSEUDO_LITERAL_SPECS[n]!]));

/** A trie over tracked stacks (by type name), holding the one snapshot of each. */
interface SnapNode {
  next: Map<string, SnapNode> | undefined;
  exact: StackSnapshot | undefined;
  inexact: StackSnapshot | undefined;
}

function newSnapNode(): SnapNode {
  return { next: undefined, exact: undefined, inexact: undefined };
}

/** The largest program any transaction may carry: an approval program with every extra page. */
export const MAX_PROGRAM_BYTES = DEFAULT_LIMITS.programPageSize * (1 + DEFAULT_LIMITS.maxAbsoluteExtraProgramPages);

/** Macros nested deeper than this in one use are refused at the use (real programs nest a handful). */
export const MAX_MACRO_DEPTH = 256;
/**
 * Tokens macro expansion may produce in one program. The largest programs in our corpora expand to
 * under 10,000 statements; this is far above that and far below what exhausts memory.
 */
export const MAX_EXPANDED_TOKENS = 100_000;
/** Source lines plus expanded tokens handled between two pauses of `analyzeSteps`. */
const WORK_PER_STEP = 1000;

/** A cheap hash of a name (length and first character) for the macro filter. */
function macroFilterSlot(name: string): number {
  return ((name.length & 31) << 5) | (name.charCodeAt(0) & 31);
}

function typeName(t: StackType): string {
  return t.name;
}

/** Go's getImm: an immediate read for type refinement, tolerant of anything -256..255. */

export interface MacroEntry {
  tokens: Token[];
  info?: MacroInfo;
}

export class Assembler implements AssemblerContext {
  version: number;
  readonly forcedVersion: boolean;
  readonly errors: TealDiagnostic[] = [];
  readonly warnings: TealDiagnostic[] = [];
  pending = new ByteBuffer(4096);

  intc: bigint[] = [];
  intcIndex = new Map<bigint, number>();
  intcRefs: ConstRef[] = [];
  cntIntcBlock = 0;
  hasPseudoInt = false;

  bytec: Uint8Array[] = [];
  bytecIndex = new Map<string, number>();
  bytecRefs: ConstRef[] = [];
  cntBytecBlock = 0;
  hasPseudoByte = false;

  known: Knowledge = { stack: [], bottom: StackNone, deadcode: false, fp: -1, scratch: new Array<StackType>(256).fill(StackZeroUint64) };
  typeTracking: boolean;

  sourceLine = 0;
  labels = new Map<string, number>();
  labelRefs: LabelRef[] = [];
  srcPc: number[] = [];
  /**
   * Where each srcPc entry's instruction was written, as numbers (SRC_FIELDS per entry): the
   * source map is only built on request, and keeping the tokens alive until then costs more.
   */
  private srcPos = new Int32Array(1024 * SRC_FIELDS);

  hasStatefulOps = false;
  /** Mode bits of fields used that are restricted to one mode (for the analysis view's mode guess). */
  fieldModes = 0;
  autoSalt: 'default' | 'on' | 'off' = 'default';
  autoSaltToken: Token | undefined;
  macros = new Map<string, MacroEntry>();
  /** Slots (see macroFilterSlot) of the current macro names: most tokens skip the map lookup. */
  macroFilter = new Uint32Array(1024);
  /** Tokens produced by macro expansion so far (bounded by MAX_EXPANDED_TOKENS). */
  expandedTokens = 0;
  /** Lines and tokens handled since `parseSteps` last paused. */
  private work = 0;
  expansionExhausted = false;

  /** How many times each token text occurs in current macro bodies (cycle checks start only from mentioned names). */
  private mentions = new Map<string, number>();

  private countMentions(entry: MacroEntry, delta: number): void {
    const t = entry.tokens;
    for (let i = 1; i < t.length; i++) {
      const k = t[i]!.str;
      const n = (this.mentions.get(k) ?? 0) + delta;
      if (n === 0) this.mentions.delete(k);
      else this.mentions.set(k, n);
    }
  }

  setMacro(name: string, entry: MacroEntry): void {
    const old = this.macros.get(name);
    if (old) this.countMentions(old, -1);
    else this.macroFilter[macroFilterSlot(name)]!++;
    this.macros.set(name, entry);
    this.countMentions(entry, 1);
  }

  private deleteMacro(name: string): void {
    const old = this.macros.get(name);
    if (!old) return;
    this.countMentions(old, -1);
    this.macros.delete(name);
    this.macroFilter[macroFilterSlot(name)]!--;
  }

  /** Analysis bookkeeping (only when requested). */
  readonly analysis: boolean;
  statements: AnalyzedStatement[] = [];
  /** Each statement's pc in the pending bytes (-1: emitted nothing); moved by applyEdits, made final by analyze. */
  stmtPc: number[] = [];
  labelInfos = new Map<string, LabelInfo>();
  /** Every label definition in order, with its position in the pending bytes (analysis only). */
  labelDefs: LabelDef[] = [];
  /** Set once an explicit constant op or block (intc, bytec, intcblock, …) was assembled. */
  explicitConst = false;
  labelRefTokens: Token[] = [];
  macroInfos: MacroInfo[] = [];

  constructor(options: AssembleOptions, analysis: boolean) {
    this.version = options.version ?? NO_VERSION;
    this.forcedVersion = options.version !== undefined;
    this.typeTracking = options.typetrack ?? true;
    if (options.autosalt !== undefined) this.autoSalt = options.autosalt ? 'on' : 'off';
    this.analysis = analysis;
  }

  // ---- diagnostics -------------------------------------------------------------------------

  private diag(list: TealDiagnostic[], severity: 'error' | 'warning', tok: Token | undefined, message: string, after = false, code?: string): void {
    const d: TealDiagnostic = { severity, message, range: zeroRange(0) };
    if (tok) {
      const own = after ? rangeAfter(tok) : tokenRange(tok);
      if (tok.use) {
        d.range = tokenRange(tok.use);
        d.definition = own;
        if (tok.macros) d.macros = [...tok.macros];
      } else d.range = own;
    }
    if (code) d.code = code;
    list.push(d);
  }

  error(tok: Token | undefined, message: string, code?: string): void {
    this.diag(this.errors, 'error', tok, message, false, code);
  }

  errorAfter(tok: Token, message: string, code?: string): void {
    this.diag(this.errors, 'error', tok, message, true, code);
  }

  errorAtLine(line: number, message: string): void {
    this.errors.push({ severity: 'error', message, range: zeroRange(line) });
  }

  warn(tok: Token | undefined, message: string): void {
    this.diag(this.warnings, 'warning', tok, message);
  }

  typeError(tok: Token, message: string): void {
    if (this.typeTracking) this.error(tok, message, 'type');
  }

  // ---- driver --------------------------------------------------------------------------------

  parse(text: string): void {
    const steps = this.parseSteps(text);
    while (!steps.next().done);
  }

  /**
   * `parse` as a generator that pauses (yields) after about every {@link WORK_PER_STEP} statements
   * or expanded tokens, so a caller can interleave other work (analysis off an editor's message
   * loop). Running it to the end does exactly what `parse` does.
   */
  *parseSteps(text: string): Generator<void, void, void> {
    if (!this.parsable(text)) return;
    yield* this.linesSteps(text, 0, 0);
    yield* this.backEndSteps();
  }

  /** False (with the reference's error) when `text` cannot be assembled at all. */
  parsable(text: string): boolean {
    if (this.version > ASSEMBLER_MAX_VERSION) {
      this.errorAtLine(0, `Can not assemble version ${this.version}`);
      return false;
    }
    if (isGoBlank(text)) {
      this.errorAtLine(0, 'Cannot assemble empty program text');
      return false;
    }
    return true;
  }

  /** Set when a line was too long to assemble (the lines after it were not read). */
  tooLongLine: number | undefined;

  /**
   * The per-line pass, from line `line` (starting at `offset` in `text`) to the end. `atLine` is
   * asked before each line is read and ends the pass when it answers true (incremental analysis
   * stops there to reuse what an earlier pass produced for the rest); the result says whether it did.
   */
  *linesSteps(text: string, line: number, offset: number, atLine?: (line: number, offset: number) => boolean): Generator<void, boolean, void> {
    // Lines are cut as splitLines cuts them, one at a time, so none outlives its tokens.
    let tooLong: number | undefined;
    const n = text.length;
    let start = offset;
    for (let ln = line; start < n; ln++) {
      if (atLine?.(ln, start)) return true;
      if (++this.work >= WORK_PER_STEP) {
        this.work = 0;
        yield;
      }
      let nl = text.indexOf('\n', start);
      if (nl === -1) nl = n;
      if (isTooLong(text, start, nl)) {
        tooLong = ln;
        break;
      }
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const lineText = text.slice(start, end);
      start = nl + 1;
      this.sourceLine = ln;
      const tokens = tokenizeLine(lineText, ln);
      if (tokens.length > 0 && tokens[0]!.str.charCodeAt(0) === 35) {
        const first = tokens[0]!;
        const directive = first.str.slice(1);
        if (directive === 'pragma') this.pragma(tokens);
        else if (directive === 'define') this.define(tokens);
        else this.error(first, `unknown directive: ${directive}`, 'directive');
        continue;
      }
      yield* this.statements_(tokens);
    }
    if (tooLong !== undefined) {
      this.tooLongLine = tooLong;
      this.errorAtLine(tooLong, 'line too long');
    }
    return false;
  }

  /** What follows the per-line pass: constant blocks, branch sizes, label offsets. */
  *backEndSteps(): Generator<void, void, void> {
    yield;
    let constants: Edit[] = [];
    if (this.version >= OPTIMIZE_CONSTANTS_VERSION || this.version === NO_VERSION) {
      // Both tables' rewrites touch different bytes; they are spliced with the branch sizes, in one pass.
      constants = this.optimizeInts();
      for (const e of this.optimizeBytes()) constants.push(e);
      constants.sort((a, b) => a.pos - b.pos);
    }
    yield;
    this.findBranchSizes(constants);
    this.resolveLabels();
  }

  /**
   * Runs the statements of one line. Macros are expanded lazily, left to right, and `;` cuts
   * statements only after expansion (so one use can end or start statements). Lazily matters:
   * settling the version at a line's first statement can delete macros used later on the line.
   */
  private *statements_(tokens: Token[]): Generator<void, void, void> {
    // Iterative: a stack of token lists (the line, then each macro body being expanded), so the
    // nesting depth of user macros never reaches the JavaScript stack, and each expanded token is
    // handled once (linear in the expanded size).
    const lists: Token[][] = [tokens];
    const next: number[] = [0];
    let current: Token[] = [];
    while (lists.length > 0) {
      const top = lists.length - 1;
      const list = lists[top]!;
      const i = next[top]!;
      if (i >= list.length) {
        lists.pop();
        next.pop();
        continue;
      }
      next[top] = i + 1;
      if (++this.work >= WORK_PER_STEP) {
        this.work = 0;
        yield;
      }
      const tok = list[i]!;
      const macro = this.macros.size > 0 && this.macroFilter[macroFilterSlot(tok.str)] !== 0 ? this.macros.get(tok.str) : undefined;
      if (macro) {
        const use = tok.use ?? tok;
        const depth = tok.macros ? tok.macros.length : 0;
        if (depth >= MAX_MACRO_DEPTH) {
          // The rest of the line would only add errors caused by this one.
          this.error(tok, `macro expansion too deep: more than ${MAX_MACRO_DEPTH} nested macros (${tok.macros![0]} -> … -> ${tok.str})`, 'macro');
          return;
        }
        const body = macro.tokens;
        this.expandedTokens += body.length - 1;
        if (this.expandedTokens > MAX_EXPANDED_TOKENS) {
          if (!this.expansionExhausted) this.error(tok, `macro expansion too large: the program expands to more than ${MAX_EXPANDED_TOKENS} tokens`, 'macro');
          this.expansionExhausted = true;
          return;
        }
        const chain = tok.macros ? [...tok.macros, tok.str] : [tok.str];
        const expanded: Token[] = new Array(body.length - 1);
        for (let j = 1; j < body.length; j++) {
          const b = body[j]!;
          expanded[j - 1] = { str: b.str, line: b.line, col: b.col, ucol: b.ucol, blen: b.blen, use, macros: chain, info: undefined };
        }
        lists.push(expanded);
        next.push(0);
        if (this.analysis && macro.info) macro.info.uses.push(tokenInfo(tok));
        continue;
      }
      if (tok.str === ';') {
        if (current.length > 0) this.statement(current);
        current = [];
        continue;
      }
      current.push(tok);
    }
    if (current.length > 0) this.statement(current);
  }

  private statement(tokens: Token[]): void {
    if (this.version === NO_VERSION) {
      this.version = ASSEMBLER_DEFAULT_VERSION;
      this.recheckMacroNames();
    }
    const analysis = this.analysis;
    let infos: TokenInfo[] | undefined;
    if (analysis) {
      infos = new Array(tokens.length);
      for (let i = 0; i < tokens.length; i++) infos[i] = tokenInfo(tokens[i]!);
    }
    let head = 0;
    let label: string | undefined;
    const opstring = tokens[0]!.str;
    if (opstring.charCodeAt(opstring.length - 1) === 58) {
      const name = opstring.slice(0, -1);
      if (this.macros.has(name)) this.error(tokens[0], `Cannot create label with same name as macro: ${name}`, 'label');
      else this.createLabel(tokens[0]!, name);
      label = name;
      if (tokens.length === 1) {
        if (infos) this.addStatement(infos, label, undefined, undefined, undefined, -1);
        return;
      }
      head = 1;
    }
    const mnemonic = tokens[head]!;
    const args = tokens.slice(head + 1);
    const stackBefore = analysis && !this.known.deadcode ? this.snapshot() : undefined;
    const spec = this.getSpec(mnemonic, args.length);
    if (!spec) {
      if (infos) this.addStatement(infos, label, mnemonic.str, stackBefore, undefined, -1);
      return;
    }
    const expandedName = this.expandedName;
    // Explicit constant ops and blocks make the constant tables order-dependent: no incremental reuse.
    if (spec.real.startsWith('intc') || spec.real.startsWith('bytec')) this.explicitConst = true;
    this.recordSource(mnemonic);
    const pc = this.pending.length;
    if (spec.modes === MODE_APP) this.hasStatefulOps = true;
    let opArgs = spec.args;
    let opReturns = spec.returns;
    const refine = REFINER_MAP.get(spec.real);
    if (refine) {
      const r = refine(this.known, args);
      if (r.error) this.typeError(mnemonic, r.error);
      if (r.args) opArgs = r.args;
      if (r.returns) opReturns = r.returns;
    }
    this.trackStack(opArgs, opReturns, expandedName, mnemonic, args);
    const asm = ASM_MAP.get(spec.real) ?? asmDefault;
    asm(this, spec, mnemonic, args);
    if (DEADENING.has(spec.name)) {
      this.known.stack = [];
      this.known.deadcode = true;
    }
    if (spec.name === 'callsub') this.labelKnowledge();
    // The table's own string when it is the one written: editor features look ops up by name on every edit.
    const op = spec.name === mnemonic.str ? spec.name : mnemonic.str;
    if (infos) this.addStatement(infos, label, op, stackBefore, this.known.deadcode ? undefined : this.snapshot(), pc);
  }

  /**
   * Records a statement for the analysis view. Keys keep the order callers have always seen
   * (tokens, label, op, stackBefore, stackAfter, pc); the common shapes are single literals, so
   * each statement is one allocation with no property-store growth. `pc` is final only in analyze.
   */
  private addStatement(
    tokens: TokenInfo[],
    label: string | undefined,
    op: string | undefined,
    stackBefore: StackSnapshot | undefined,
    stackAfter: StackSnapshot | undefined,
    pc: number,
  ): void {
    let s: AnalyzedStatement;
    if (pc >= 0 && op !== undefined && stackBefore && stackAfter) {
      s = label === undefined ? { tokens, op, stackBefore, stackAfter, pc } : { tokens, label, op, stackBefore, stackAfter, pc };
    } else if (label !== undefined && op === undefined) {
      s = { tokens, label };
    } else {
      s = { tokens };
      if (label !== undefined) s.label = label;
      if (op !== undefined) s.op = op;
      if (stackBefore) s.stackBefore = stackBefore;
      if (stackAfter) s.stackAfter = stackAfter;
      if (pc >= 0) s.pc = pc;
    }
    this.statements.push(s);
    this.stmtPc.push(pc);
  }

  private snapRoot: SnapNode = newSnapNode();

  /**
   * The tracked stack as names. Equal stacks (same names in the same order) share one snapshot:
   * programs revisit the same few stack shapes over and over, and the analysis keeps every one.
   */
  private snapshot(): StackSnapshot {
    const stack = this.known.stack;
    const exact = this.known.bottom.avm === Avm.None;
    // The stack before an instruction is usually the one after the previous: same types, same objects.
    const last = this.lastSnap;
    const seen = this.lastSnapStack;
    if (last && last.exact === exact && this.lastSnapLen === stack.length) {
      let same = true;
      for (let i = 0; i < stack.length; i++) {
        if (seen[i] !== stack[i]) {
          same = false;
          break;
        }
      }
      if (same) return last;
    }
    const snap = this.internSnapshot(stack, exact);
    this.lastSnap = snap;
    // Only the first lastSnapLen entries count (cheaper than truncating the array each time).
    this.lastSnapLen = stack.length;
    for (let i = 0; i < stack.length; i++) seen[i] = stack[i]!;
    return snap;
  }

  private lastSnap: StackSnapshot | undefined;
  /** The types behind lastSnap (copied: the tracked stack is changed in place). */
  private readonly lastSnapStack: StackType[] = [];
  private lastSnapLen = 0;

  private internSnapshot(stack: StackType[], exact: boolean): StackSnapshot {
    let node = this.snapRoot;
    for (let i = 0; i < stack.length; i++) {
      const t = stack[i]!.name;
      let next = node.next?.get(t);
      if (!next) {
        next = newSnapNode();
        (node.next ??= new Map()).set(t, next);
      }
      node = next;
    }
    if (exact) return (node.exact ??= { types: stack.map(typeName), exact: true });
    return (node.inexact ??= { types: stack.map(typeName), exact: false });
  }

  private recordSource(tok: Token): void {
    const pc = this.pending.length;
    let n = this.srcPc.length;
    if (n > 0 && this.srcPc[n - 1] === pc) n--;
    else {
      this.srcPc.push(pc);
      if ((n + 1) * SRC_FIELDS > this.srcPos.length) {
        const grown = new Int32Array(this.srcPos.length * 2);
        grown.set(this.srcPos);
        this.srcPos = grown;
      }
    }
    const at = n * SRC_FIELDS;
    const pos = this.srcPos;
    const use = tok.use ?? tok;
    pos[at] = use.line;
    pos[at + 1] = use.col;
    pos[at + 2] = use.blen;
    pos[at + 3] = use.ucol;
    pos[at + 4] = use.str.length;
    pos[at + 5] = tok.use ? tok.line : -1;
    pos[at + 6] = tok.col;
    pos[at + 7] = tok.blen;
    pos[at + 8] = tok.ucol;
    pos[at + 9] = tok.str.length;
  }

  /** The instruction's name as stack-type messages spell it, set by getSpec. */
  private expandedName = '';

  private getSpec(mnemonic: Token, argCount: number): AsmOp | undefined {
    const name = mnemonic.str;
    const pseudo = PSEUDO_MAP.get(name);
    const literal = pseudo ? undefined : LITERAL_MAP.get(name);
    if (pseudo || literal) {
      let spec: AsmOp | undefined;
      if (literal) spec = literal;
      else {
        const real = pseudo![argCount];
        if (real !== undefined) {
          spec = pseudoSpec(name, real, this.version);
        } else {
          const counts = Object.keys(pseudo!).map(Number);
          this.error(mnemonic, `${name} expects ${joinIntsOnOr('immediate argument', counts)}`, 'immediates');
          const merged = mergeProtos(Object.values(pseudo!).map((r) => asmOp(r, this.version) ?? asmOp(r, ASSEMBLER_MAX_VERSION)!));
          if (!merged) return undefined;
          spec = {
            name,
            real: '(mock)',
            opcode: -1,
            prefix: undefined,
            size: 0,
            modes: 0,
            introduced: merged.introduced,
            args: merged.args,
            returns: merged.returns,
            immediates: [],
            spec: undefined,
          };
        }
      }
      if (spec.introduced > Math.max(1, this.version)) {
        this.error(mnemonic, `${name} opcode with ${joinIntsOnOr('immediate', [argCount])} was introduced in v${spec.introduced}`, 'version');
      }
      this.expandedName = argCount === 0 ? `${name} without immediates` : name;
      return spec;
    }
    const spec = asmOp(name, this.version);
    if (!spec) {
      const first = firstVersionOf(name);
      if (first !== undefined && first > this.version) this.error(mnemonic, `${name} opcode was introduced in v${first}`, 'version');
      else this.error(mnemonic, `unknown opcode: ${name}`, 'unknown-opcode');
      return undefined;
    }
    this.expandedName = spec.name;
    return spec;
  }

  private trackStack(args: StackType[], returns: StackType[], instruction: string, mnemonic: Token, immArgs: Token[]): void {
    const k = this.known;
    if (k.deadcode) return;
    const argcount = args.length;
    if (argcount > k.stack.length && k.bottom.avm === Avm.None) {
      this.typeError(mnemonic, `${reJoin(instruction, immArgs)} expects ${argcount} stack arguments but stack height is ${k.stack.length}`);
    } else {
      for (let i = argcount - 1; i >= 0; i--) {
        const want = args[i]!;
        const got = k.stack.length ? k.stack.pop()! : k.bottom;
        if (!overlaps(got, want)) this.typeError(mnemonic, `${reJoin(instruction, immArgs)} arg ${i} wanted type ${want.name} got ${got.name}`);
      }
    }
    for (const r of returns) k.stack.push(r);
  }

  /** Narrows the first `any` among the just-pushed results to a field's type. */
  refineReturn(spec: AsmOp, t: StackType): void {
    const k = this.known;
    if (k.deadcode) return;
    const end = k.stack.length;
    for (let i = Math.max(0, end - spec.returns.length); i < end; i++) {
      if (k.stack[i]!.avm === Avm.Any) {
        k.stack[i] = t;
        return;
      }
    }
  }

  private labelKnowledge(): void {
    if (this.known.deadcode) this.resetKnowledge();
  }

  private resetKnowledge(): void {
    const k = this.known;
    k.stack = [];
    k.bottom = StackAny;
    k.fp = -1;
    k.deadcode = false;
    k.scratch.fill(StackAny);
  }

  private createLabel(tok: Token, name: string): void {
    if (this.labels.has(name)) this.error(tok, `duplicate label ${goQuote(name)}`, 'label');
    this.labels.set(name, this.pending.length);
    this.labelKnowledge();
    if (this.analysis) {
      this.labelDefs.push({ name, pos: this.pending.length });
      const existing = this.labelInfos.get(name);
      if (!existing) this.labelInfos.set(name, { name, definition: tokenInfo(tok), references: [], macroBodyMentions: [] });
    }
  }

  referLabel(pos: number, label: Token, offsetPos: number, varint: boolean): void {
    this.labelRefs.push({ pos, label, offsetPos, varint });
    if (this.analysis) this.labelRefTokens.push(label);
  }

  // ---- directives ----------------------------------------------------------------------------

  private pragma(tokens: Token[]): void {
    if (tokens[0]!.str !== '#pragma') return this.error(tokens[0], `invalid syntax: ${tokens[0]!.str}`);
    if (tokens.length < 2) return this.error(tokens[0], 'empty pragma', 'pragma');
    const key = tokens[1]!.str;
    const extra = () => this.error(tokens[3], `unexpected extra tokens:${reJoin('', tokens.slice(3))}`, 'pragma');
    switch (key) {
      case 'version': {
        if (tokens.length < 3) return this.error(tokens[1], 'no version value', 'pragma');
        if (tokens.length > 3) return extra();
        if (this.pending.length > 0) return this.error(tokens[0], '#pragma version is only allowed before instructions', 'pragma');
        const value = tokens[2]!.str;
        const ver = parseUint(value);
        if (ver === undefined) return this.error(tokens[2], `bad #pragma version: ${goQuote(value)}`, 'pragma');
        if (ver > BigInt(ASSEMBLER_MAX_VERSION)) return this.error(tokens[2], `unsupported version: ${ver}`, 'pragma');
        const v = Number(ver);
        if (this.version === NO_VERSION) {
          this.version = v;
          if (!this.recheckMacroNames()) this.error(tokens[2], 'version is incompatible with defined macros', 'pragma');
          return;
        }
        if (this.version !== v) this.error(tokens[2], `version mismatch: assembling v${v} with v${this.version} assembler`, 'pragma');
        return;
      }
      case 'typetrack': {
        if (tokens.length < 3) return this.error(tokens[1], 'no typetrack value', 'pragma');
        if (tokens.length > 3) return extra();
        const value = tokens[2]!.str;
        const on = parseBool(value);
        if (on === undefined) return this.error(tokens[2], `bad #pragma typetrack: ${goQuote(value)}`, 'pragma');
        if (!this.typeTracking && on) this.resetKnowledge();
        this.typeTracking = on;
        return;
      }
      case 'autosalt': {
        if (tokens.length < 3) return this.error(tokens[1], 'no autosalt value', 'pragma');
        if (tokens.length > 3) return extra();
        if (this.pending.length > 0) return this.error(tokens[0], '#pragma autosalt is only allowed before instructions', 'pragma');
        const value = tokens[2]!.str;
        const on = parseBool(value);
        if (on === undefined) return this.error(tokens[2], `bad #pragma autosalt: ${goQuote(value)}`, 'pragma');
        this.autoSalt = on ? 'on' : 'off';
        this.autoSaltToken = tokens[0];
        return;
      }
      default:
        return this.error(tokens[0], `unsupported pragma directive: ${goQuote(key)}`, 'pragma');
    }
  }

  private define(tokens: Token[]): void {
    if (tokens[0]!.str !== '#define') return this.error(tokens[0], `invalid syntax: ${tokens[0]!.str}`);
    if (tokens.length < 3) return this.error(tokens[tokens.length - 1], 'define directive requires a name and body', 'macro');
    const nameTok = tokens[1]!;
    const name = nameTok.str;
    const problem = macroNameProblem(name, this.version === NO_VERSION ? undefined : this.version, this.labels);
    if (problem) return this.error(nameTok, problem, 'macro');
    const saved = this.macros.get(name);
    const entry: MacroEntry = { tokens: tokens.slice(1) };
    this.setMacro(name, entry);
    const cycle = this.findCycle(name);
    if (cycle) {
      if (saved) this.setMacro(name, saved);
      else this.deleteMacro(name);
      return this.error(nameTok, `macro expansion cycle discovered: ${cycle.join(' -> ')}`, 'macro');
    }
    if (this.analysis) {
      if (saved?.info) saved.info.current = false;
      entry.info = { name, definition: tokenRange(nameTok), body: tokens.slice(2).map(tokenInfo), uses: [], current: true };
      this.macroInfos.push(entry.info);
    }
  }

  /**
   * A path from the new macro back to itself through body tokens, depth first as the reference
   * searches. Iterative (an explicit stack), so a chain of any length cannot overflow the stack;
   * and only a macro some body mentions can close a cycle, which skips the walk for the common
   * case of a name nothing refers to yet.
   */
  private findCycle(start: string): string[] | undefined {
    if (!this.mentioned(start)) return undefined;
    const dead = new Set<string>();
    const path: string[] = [start];
    const pos: number[] = [1];
    while (path.length > 0) {
      const top = path.length - 1;
      const m = this.macros.get(path[top]!)!;
      const i = pos[top]!;
      if (i >= m.tokens.length) {
        const done = path.pop()!;
        pos.pop();
        if (path.length > 0) dead.add(done);
        continue;
      }
      pos[top] = i + 1;
      const name = m.tokens[i]!.str;
      if (!this.macros.has(name)) continue;
      if (name === start) return [...path, name];
      if (dead.has(name)) continue;
      path.push(name);
      pos.push(1);
    }
    return undefined;
  }

  /** True when some current macro body holds `name` (so it could be part of a cycle). */
  private mentioned(name: string): boolean {
    return this.mentions.has(name);
  }

  /** Re-applies the version-dependent name rules once the version is known; returns false if any macro was dropped. */
  private recheckMacroNames(): boolean {
    let ok = true;
    for (const [name, entry] of [...this.macros]) {
      const problem = macroNameProblem(name, this.version, this.labels);
      if (problem) {
        this.error(entry.tokens[0], problem, 'macro');
        this.deleteMacro(name);
        if (entry.info) entry.info.current = false;
        ok = false;
      }
    }
    return ok;
  }

  // ---- constants -----------------------------------------------------------------------------

  writeIntc(index: number, tok: Token): void {
    if (index <= 3) this.pending.byte(OP_INTC_0 + index);
    else {
      if (index > 0xff) return this.error(tok, 'cannot have more than 256 int constants');
      this.pending.byte(OP_INTC);
      this.pending.byte(index);
    }
    if (index >= this.intc.length) this.error(tok, `intc ${index} is not defined`);
  }

  writeBytec(index: number, tok: Token): void {
    if (index <= 3) this.pending.byte(OP_BYTEC_0 + index);
    else {
      if (index > 0xff) return this.error(tok, 'cannot have more than 256 byte constants');
      this.pending.byte(OP_BYTEC);
      this.pending.byte(index);
    }
    if (index >= this.bytec.length) this.error(tok, `bytec ${index} is not defined`);
  }

  intLiteral(value: bigint, tok: Token): void {
    this.hasPseudoInt = true;
    let index = this.intcIndex.get(value);
    if (index === undefined) {
      if (this.cntIntcBlock > 0) return this.error(tok, `value ${value} does not appear in existing intcblock`);
      index = this.intc.length;
      this.intc.push(value);
      this.intcIndex.set(value, index);
    }
    this.intcRefs.push({ pos: this.pending.length, key: value });
    this.writeIntc(index, tok);
  }

  byteLiteral(value: Uint8Array, tok: Token): void {
    this.hasPseudoByte = true;
    const key = bytesKey(value);
    let index = this.bytecIndex.get(key);
    if (index === undefined) {
      if (this.cntBytecBlock > 0) return this.error(tok, `value 0x${hexOf(value)} does not appear in existing bytecblock`);
      index = this.bytec.length;
      this.bytec.push(value);
      this.bytecIndex.set(key, index);
    }
    this.bytecRefs.push({ pos: this.pending.length, key });
    this.writeBytec(index, tok);
  }

  setIntc(values: bigint[]): void {
    this.intc = values;
    this.intcIndex = new Map();
    values.forEach((v, i) => {
      if (!this.intcIndex.has(v)) this.intcIndex.set(v, i);
    });
  }

  setBytec(values: Uint8Array[]): void {
    this.bytec = values;
    this.bytecIndex = new Map();
    values.forEach((v, i) => {
      const k = bytesKey(v);
      if (!this.bytecIndex.has(k)) this.bytecIndex.set(k, i);
    });
  }

  /** The rewrites of the integer constant references (applied by the caller), once the new table is set. */
  private optimizeInts(): Edit[] {
    if (this.cntIntcBlock > 0) return [];
    const refs = this.intcRefs;
    this.intcRefs = [];
    const block = this.optimizeConstants(
      refs,
      this.intc,
      (v, single, idx) => (single ? pushIntBytes(v as bigint) : constRefBytes(OP_INTC_0, OP_INTC, idx)),
      (op) => (op >= OP_INTC_0 && op <= OP_INTC_0 + 3 ? 1 : op === OP_INTC ? 2 : 0),
      'intReference',
    );
    if (!block) return [];
    this.setIntc(block.table as bigint[]);
    return block.edits;
  }

  /** As {@link optimizeInts}, for the byte constants. */
  private optimizeBytes(): Edit[] {
    if (this.cntBytecBlock > 0) return [];
    const refs = this.bytecRefs;
    this.bytecRefs = [];
    const keys = this.bytec.map(bytesKey);
    const block = this.optimizeConstants(
      refs,
      keys,
      (k, single, idx) => (single ? pushBytesBytes(keyBytes(k as string)) : constRefBytes(OP_BYTEC_0, OP_BYTEC, idx)),
      (op) => (op >= OP_BYTEC_0 && op <= OP_BYTEC_0 + 3 ? 1 : op === OP_BYTEC ? 2 : 0),
      'byteReference',
    );
    if (!block) return [];
    this.setBytec((block.table as string[]).map(keyBytes));
    return block.edits;
  }

  /**
   * Most-referenced constants first (stable), singletons become push ops; returns the new block
   * and the rewrites of the references (by position), which the caller splices in.
   */
  private optimizeConstants(
    refs: ConstRef[],
    block: readonly (bigint | string)[],
    encode: (key: bigint | string, singleton: boolean, index: number) => Uint8Array,
    lengthOf: (op: number) => number,
    refKind: string,
  ): { table: (bigint | string)[]; edits: Edit[] } | undefined {
    // Each distinct value gets a slot; every reference is looked up once and then works by slot.
    const slot = new Map<bigint | string, number>();
    const order: (bigint | string)[] = [];
    for (const v of block) {
      if (!slot.has(v)) {
        slot.set(v, order.length);
        order.push(v);
      }
    }
    const counts = new Array<number>(order.length).fill(0);
    const refSlot = new Int32Array(refs.length);
    for (let k = 0; k < refs.length; k++) {
      const r = refs[k]!;
      const at = slot.get(r.key);
      if (at === undefined) {
        this.errorAtLine(this.sourceLine, `value not found in constant block: ${String(r.key)}`);
        return undefined;
      }
      counts[at]!++;
      refSlot[k] = at;
    }
    for (let i = 0; i < order.length; i++) {
      if (counts[i] === 0) {
        this.errorAtLine(this.sourceLine, `member of constant block is not used: ${String(order[i])}`);
        return undefined;
      }
    }
    const sorted = order.map((v, i) => ({ v, f: counts[i]!, i })).sort((a, b) => b.f - a.f || a.i - b.i);
    const rank = new Int32Array(order.length);
    sorted.forEach((e, idx) => {
      rank[e.i] = idx;
    });
    const raw = this.pending.data;
    const edits: Edit[] = [];
    // Every reference to one value becomes the same bytes; the edits only read them.
    const encoded: (Uint8Array | undefined)[] = new Array(order.length);
    for (let k = 0; k < refs.length; k++) {
      const r = refs[k]!;
      const oldLen = lengthOf(raw[r.pos]!);
      if (oldLen === 0) {
        this.errorAtLine(this.sourceLine, `unexpected op at ${refKind}: ${raw[r.pos] ?? 0}`);
        return undefined;
      }
      const at = refSlot[k]!;
      const bytes = (encoded[at] ??= encode(r.key, counts[at] === 1, rank[at]!));
      edits.push({ pos: r.pos, oldLen, bytes });
    }
    const out: (bigint | string)[] = [];
    for (const e of sorted) {
      if (e.f === 1) break;
      out.push(e.v);
    }
    return { table: out, edits };
  }

  /** Splices edits into the pending bytes and moves every recorded position accordingly. */
  private applyEdits(edits: Edit[]): void {
    if (edits.length === 0) return;
    const raw = this.pending.view();
    let total = 0;
    for (const e of edits) total += e.bytes.length - e.oldLen;
    const out = new Uint8Array(raw.length + total);
    const cum = new Int32Array(raw.length + 1);
    let running = 0;
    let prev = 0;
    let w = 0;
    for (const e of edits) {
      for (let p = prev; p < e.pos + e.oldLen; p++) cum[p] = running;
      // Byte loops, not set(subarray): thousands of edits a few bytes apart, each a view to allocate.
      for (let p = prev; p < e.pos; p++) out[w++] = raw[p]!;
      const bytes = e.bytes;
      for (let i = 0; i < bytes.length; i++) out[w++] = bytes[i]!;
      running += bytes.length - e.oldLen;
      prev = e.pos + e.oldLen;
    }
    for (let p = prev; p <= raw.length; p++) cum[p] = running;
    out.set(raw.subarray(prev), w);
    for (const r of this.intcRefs) r.pos += cum[r.pos]!;
    for (const r of this.bytecRefs) r.pos += cum[r.pos]!;
    // forEach rather than entries(): no [name, pos] pair per label per edit round.
    const labels = this.labels;
    labels.forEach((pos, name) => labels.set(name, pos + cum[pos]!));
    for (const r of this.labelRefs) {
      r.pos += cum[r.pos]!;
      r.offsetPos += cum[r.offsetPos]!;
    }
    for (let i = 0; i < this.srcPc.length; i++) this.srcPc[i]! += cum[this.srcPc[i]!]!;
    for (let i = 0; i < this.stmtPc.length; i++) if (this.stmtPc[i]! >= 0) this.stmtPc[i]! += cum[this.stmtPc[i]!]!;
    this.pending.replace(out);
  }

  // ---- branches --------------------------------------------------------------------------------

  /**
   * Splices `constants` (the constant references' rewrites, by position) and shrinks each varint
   * branch offset to the length its jump needs, round after round (a shorter offset brings other
   * targets nearer) until none shrinks. The rounds work on the positions the rewrites and the
   * shrinking would give, and the bytes are spliced once at the end: the same result as splicing
   * the constants, then after every round.
   */
  private findBranchSizes(constants: Edit[]): void {
    const refs: LabelRef[] = [];
    for (const r of this.labelRefs) {
      if (!r.varint) continue;
      // Each offset lies after its op byte and before the next branch's op byte (or the general way).
      if (refs.length > 0 && r.pos - 1 < refs[refs.length - 1]!.offsetPos) {
        this.applyEdits(constants);
        return this.findBranchSizesBySplicing();
      }
      refs.push(r);
    }
    const n = refs.length;
    if (n === 0) return this.applyEdits(constants);
    // Where a position of the pending bytes is once the constants are rewritten.
    const m = constants.length;
    const constEnds = new Int32Array(m);
    const constShift = new Int32Array(m + 1);
    for (let j = 0; j < m; j++) {
      const e = constants[j]!;
      constEnds[j] = e.pos + e.oldLen;
      constShift[j + 1] = constShift[j]! + e.bytes.length - e.oldLen;
    }
    const afterConstants = (x: number): number => x + constShift[countAtMost(constEnds, m, x)]!;
    const start = new Int32Array(n);
    const ends = new Int32Array(n);
    const size = new Int32Array(n);
    const dest = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const r = refs[k]!;
      start[k] = afterConstants(r.pos);
      size[k] = r.offsetPos - r.pos;
      ends[k] = start[k]! + size[k]!;
      const to = this.labels.get(r.label.str);
      dest[k] = to === undefined ? -1 : afterConstants(to);
    }
    const original = size.slice();
    // shift[k]: how far the shrinking so far moves a position after the first k offsets.
    const shift = new Int32Array(n + 1);
    for (;;) {
      for (let k = 0; k < n; k++) shift[k + 1] = shift[k]! + size[k]! - original[k]!;
      let changed = false;
      for (let k = 0; k < n; k++) {
        const to = dest[k]!;
        if (to < 0) continue;
        const opPos = start[k]! - 1 + shift[k]!;
        // Offsets that end at or before the target move it.
        const at = to + shift[countAtMost(ends, n, to)]!;
        if (at === opPos) continue;
        const jump = at < opPos ? at - opPos : at - (ends[k]! + shift[k + 1]!);
        const needed = varintLength(jump);
        if (needed < size[k]!) {
          size[k] = needed;
          changed = true;
        }
      }
      if (!changed) break;
    }
    const branches: Edit[] = [];
    for (let k = 0; k < n; k++) if (size[k] !== original[k]) branches.push({ pos: refs[k]!.pos, oldLen: original[k]!, bytes: new Uint8Array(size[k]!) });
    // Both lists are in position order, and their spans are apart: merged in order.
    const edits: Edit[] = [];
    let i = 0;
    let j = 0;
    while (i < m || j < branches.length) {
      if (j >= branches.length || (i < m && constants[i]!.pos < branches[j]!.pos)) edits.push(constants[i++]!);
      else edits.push(branches[j++]!);
    }
    this.applyEdits(edits);
  }

  /** {@link findBranchSizes} splicing the bytes after every round. */
  private findBranchSizesBySplicing(): void {
    for (;;) {
      const edits: Edit[] = [];
      for (const r of this.labelRefs) {
        if (!r.varint) continue;
        const dest = this.labels.get(r.label.str);
        if (dest === undefined) continue;
        const opPos = r.pos - 1;
        if (dest === opPos) continue;
        const jump = dest < opPos ? dest - opPos : dest - r.offsetPos;
        const needed = varintLength(jump);
        const oldLen = r.offsetPos - r.pos;
        if (needed < oldLen) edits.push({ pos: r.pos, oldLen, bytes: new Uint8Array(needed) });
      }
      if (edits.length === 0) return;
      edits.sort((a, b) => a.pos - b.pos);
      this.applyEdits(edits);
    }
  }

  private resolveLabels(): void {
    const raw = this.pending.data;
    const len = this.pending.length;
    const reported = new Set<string>();
    for (const r of this.labelRefs) {
      const name = r.label.str;
      const dest = this.labels.get(name);
      if (dest === undefined) {
        if (!reported.has(name)) this.error(r.label, `reference to undefined label ${goQuote(name)}`, 'label');
        reported.add(name);
        continue;
      }
      if (this.version <= 1 && dest === len) this.error(r.label, `label ${goQuote(name)} is too far away`, 'label');
      if (this.version < BACK_BRANCH_VERSION && dest < r.offsetPos) {
        this.error(r.label, `label ${goQuote(name)} is a back reference, back jump support was introduced in v4`, 'label');
        continue;
      }
      let jump = dest - r.offsetPos;
      if (r.varint) {
        const opPos = r.pos - 1;
        if (dest === opPos) {
          this.error(r.label, `branch to start of same instruction: ${goQuote(name)} `, 'label');
          continue;
        }
        if (dest < opPos) jump = dest - opPos;
        const size = r.offsetPos - r.pos;
        const limit = 2 ** (7 * size - 1);
        if (jump < -limit || jump >= limit) {
          this.error(r.label, `label ${goQuote(name)} is too far away`, 'label');
          continue;
        }
        putVarint(raw, r.pos, jump);
      } else {
        if (jump > 0x7fff || jump < -0x8000) {
          this.error(r.label, `label ${goQuote(name)} is too far away`, 'label');
          continue;
        }
        raw[r.pos] = (jump >> 8) & 0xff;
        raw[r.pos + 1] = jump & 0xff;
      }
    }
  }

  // ---- finalisation ------------------------------------------------------------------------------

  private prependCBlocks(intc: readonly bigint[]): [Uint8Array, number] {
    const pre = new ByteBuffer(64);
    pre.uvarint(this.version === NO_VERSION ? (1n << 64n) - 1n : this.version);
    if (intc.length > 0 && this.cntIntcBlock === 0) {
      pre.byte(OP_INTCBLOCK);
      pre.uvarint(intc.length);
      for (const v of intc) pre.uvarint(v);
    }
    if (this.bytec.length > 0 && this.cntBytecBlock === 0) {
      pre.byte(OP_BYTECBLOCK);
      pre.uvarint(this.bytec.length);
      for (const b of this.bytec) {
        pre.uvarint(b.length);
        pre.bytes(b);
      }
    }
    const prefix = pre.view();
    const out = new Uint8Array(prefix.length + this.pending.length);
    out.set(prefix);
    out.set(this.pending.view(), prefix.length);
    return [out, prefix.length];
  }

  /** Size of the version and automatic constant blocks that will precede the code. */
  prefixLength(): number {
    const saved = this.pending;
    this.pending = new ByteBuffer(1);
    const [, len] = this.prependCBlocks(this.intc);
    this.pending = saved;
    return len;
  }

  finalize(): [Uint8Array, number] | undefined {
    const [program, prefixLen] = this.prependCBlocks(this.intc);
    if (!this.shouldAutoSalt(program)) return [program, prefixLen];
    if (this.intc.length > 0 && this.cntIntcBlock === 0) {
      const salted = [...this.intc, 0n];
      for (let s = 0; s < SALT_SEARCH_LIMIT; s++) {
        salted[salted.length - 1] = BigInt(s);
        const [candidate, pl] = this.prependCBlocks(salted);
        if (!hashOnCurve(candidate)) return [candidate, pl];
      }
      this.errorAtLine(this.sourceLine, 'could not find an automatic intcblock salt that yields an off-curve program');
      return undefined;
    }
    const candidate = new Uint8Array(program.length + 3);
    candidate.set(program);
    candidate[program.length] = OP_INTCBLOCK;
    candidate[program.length + 1] = 1;
    for (let s = 0; s < SALT_SEARCH_LIMIT; s++) {
      candidate[program.length + 2] = s;
      if (!hashOnCurve(candidate)) return [candidate, prefixLen];
    }
    this.errorAtLine(this.sourceLine, 'could not find a trailing intcblock salt that yields an off-curve program');
    return undefined;
  }

  private shouldAutoSalt(program: Uint8Array): boolean {
    if (this.autoSalt === 'off') {
      if (!this.hasStatefulOps && hashOnCurve(program)) this.warn(this.autoSaltToken, '#pragma autosalt false leaves program hash on curve');
      return false;
    }
    if (this.autoSalt === 'on') {
      if (this.hasStatefulOps) this.warn(this.autoSaltToken, '#pragma autosalt true used with stateful opcodes');
      return hashOnCurve(program);
    }
    const v = this.version === NO_VERSION ? Number.MAX_SAFE_INTEGER : this.version;
    return v >= OFF_CURVE_VERSION && !this.hasStatefulOps && hashOnCurve(program);
  }

  sourceMap(prefixLen: number): PcMapping[] {
    const out: PcMapping[] = new Array(this.srcPc.length);
    const pos = this.srcPos;
    for (let i = 0; i < this.srcPc.length; i++) {
      const at = i * SRC_FIELDS;
      const m: PcMapping = { pc: this.srcPc[i]! + prefixLen, use: storedRange(pos, at) };
      if (pos[at + 5]! >= 0) m.definition = storedRange(pos, at + 5);
      out[i] = m;
    }
    return out;
  }
}

function hashOnCurve(program: Uint8Array): boolean {
  return isEdwards25519Point(programHash(program));
}

/** The logicsig account hash: sha512_256("Program" || program). */
export function programHash(program: Uint8Array): Uint8Array {
  return hashWithPrefix('Program', program);
}

/** Per source-map entry: line, byte column, byte length, UTF-16 column, UTF-16 length of the use, then of the definition (line -1: none). */
const SRC_FIELDS = 10;

function storedRange(pos: Int32Array, at: number): SourceRange {
  const col = pos[at + 1]!;
  const ucol = pos[at + 3]!;
  return { line: pos[at]!, column: col, endColumn: col + pos[at + 2]!, utf16Column: ucol, utf16EndColumn: ucol + pos[at + 4]! };
}

function zeroRange(line: number): SourceRange {
  return { line, column: 0, endColumn: 0, utf16Column: 0, utf16EndColumn: 0 };
}

/** Built once per token: a label's definition and references are the same objects as in its statement. */
function tokenInfo(t: Token): TokenInfo {
  let info = t.info;
  if (info) return info;
  info = { text: t.str, range: tokenRange(t.use ?? t) };
  if (t.use) {
    info.definition = tokenRange(t);
    if (t.macros) info.macros = t.macros;
  }
  t.info = info;
  return info;
}

function constRefBytes(op0: number, opN: number, index: number): Uint8Array {
  return index <= 3 ? Uint8Array.of(op0 + index) : Uint8Array.of(opN, index & 0xff);
}

function pushIntBytes(v: bigint): Uint8Array {
  const b = new ByteBuffer(11);
  b.byte(OP_PUSHINT);
  b.uvarint(v);
  return b.view().slice();
}

function pushBytesBytes(v: Uint8Array): Uint8Array {
  const b = new ByteBuffer(v.length + 6);
  b.byte(OP_PUSHBYTES);
  b.uvarint(v.length);
  b.bytes(v);
  return b.view().slice();
}

// ---- public entry points ------------------------------------------------------------------------

/** A finished run: the assembler, and the program when it assembled. */
export type Run = { asm: Assembler; program?: Uint8Array; prefixLen: number };

function run(source: string, options: AssembleOptions, analysis: boolean): Run {
  const steps = runSteps(source, options, analysis);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

function* runSteps(source: string, options: AssembleOptions, analysis: boolean): Generator<void, Run, void> {
  const text = options.templateVars ? replaceTemplateVariables(source, options.templateVars) : source;
  const asm = new Assembler(options, analysis);
  yield* asm.parseSteps(text);
  return yield* finishSteps(asm);
}

/** After the back end: the final bytes (automatic constant blocks, salt) when nothing failed. */
export function* finishSteps(asm: Assembler): Generator<void, Run, void> {
  if (asm.errors.length === 0) {
    yield;
    const done = asm.finalize();
    if (done && asm.errors.length === 0) {
      // No transaction can carry more (the node's check reads "approval program too long. (n > max)").
      if (done[0].length <= MAX_PROGRAM_BYTES) return { asm, program: done[0], prefixLen: done[1] };
      asm.errorAtLine(0, `program too long. (${done[0].length} > ${MAX_PROGRAM_BYTES})`);
    }
  }
  return { asm, prefixLen: asm.prefixLength() };
}

function resultOf(asm: Assembler, program: Uint8Array, prefixLen: number): AssembledProgram {
  let map: PcMapping[] | undefined;
  return {
    program,
    version: asm.version === NO_VERSION ? ASSEMBLER_DEFAULT_VERSION : asm.version,
    address: encodeAddress(programHash(program)),
    // Built on first use: most callers only want the bytes.
    get sourceMap(): PcMapping[] {
      return (map ??= asm.sourceMap(prefixLen));
    },
    warnings: asm.warnings,
    stateful: asm.hasStatefulOps,
  };
}

/** Assembles TEAL source; throws AssembleError carrying every diagnostic if it does not assemble. */
export function assemble(source: string, options: AssembleOptions = {}): AssembledProgram {
  const { asm, program, prefixLen } = run(source, options, false);
  if (!program) throw new AssembleError([...asm.errors, ...asm.warnings]);
  return resultOf(asm, program, prefixLen);
}

/** Like assemble, but never throws: the result when it assembled, and all diagnostics either way. */
export function assembleCollect(source: string, options: AssembleOptions = {}): { result?: AssembledProgram; diagnostics: TealDiagnostic[] } {
  const { asm, program, prefixLen } = run(source, options, false);
  const diagnostics = [...asm.errors, ...asm.warnings];
  return program ? { result: resultOf(asm, program, prefixLen), diagnostics } : { diagnostics };
}

/** The expanded program as an editor needs it: statements with pcs and stack states, labels, macros, diagnostics. */
export function analyze(source: string, options: AssembleOptions = {}): Analysis {
  const steps = analyzeSteps(source, options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * {@link analyze} in steps: the generator pauses (yields) after every bounded slice of work and
 * returns the same {@link Analysis} when run to the end, so an editor can analyse a large program
 * without holding up its other requests (resume it from a later event-loop turn, or drop it).
 */
export function* analyzeSteps(source: string, options: AssembleOptions = {}): Generator<void, Analysis, void> {
  const run = yield* runSteps(source, options, true);
  yield;
  return analysisOf(run);
}

/** The editor's view of a finished analysis run. */
export function analysisOf({ asm, program, prefixLen }: Run): Analysis {
  const statements = asm.statements;
  for (let i = 0; i < statements.length; i++) {
    const rel = asm.stmtPc[i]!;
    if (rel >= 0) statements[i]!.pc = rel + prefixLen;
  }
  for (const tok of asm.labelRefTokens) asm.labelInfos.get(tok.str)?.references.push(tokenInfo(tok));
  for (const m of asm.macroInfos) {
    for (const t of m.body) asm.labelInfos.get(t.text)?.macroBodyMentions.push(t);
  }
  for (const info of asm.labelInfos.values()) {
    const pos = asm.labels.get(info.name);
    if (pos !== undefined) info.pc = pos + prefixLen;
  }
  const mode: InferredMode = asm.hasStatefulOps || asm.fieldModes & MODE_APP ? 'application' : asm.fieldModes & 1 || usesLogicSigOnly(asm) ? 'logicsig' : 'any';
  const result: Analysis = {
    version: asm.version === NO_VERSION ? ASSEMBLER_DEFAULT_VERSION : asm.version,
    mode,
    statements,
    labels: [...asm.labelInfos.values()],
    macros: asm.macroInfos,
    diagnostics: [...asm.errors, ...asm.warnings],
  };
  if (program) result.program = program;
  return result;
}

function usesLogicSigOnly(asm: Assembler): boolean {
  const v = asm.version === NO_VERSION ? 1 : asm.version;
  for (const s of asm.statements) {
    if (s.op && asmOp(s.op, v)?.modes === 1) return true;
  }
  return false;
}
