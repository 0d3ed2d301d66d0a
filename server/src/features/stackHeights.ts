// Stack heights through the whole program for the inlay hints. The assembler's type tracking (as
// the reference assembler's) forgets the stack at a label reached by a jump, so its snapshots stop
// being exact after the first `b`. Heights, unlike types, follow from the opcode table alone: this
// walks every path (fall-through, branches, `switch`/`match` arms, subroutine calls through their
// net effect) and keeps a statement's height when every path that reaches it agrees.
import type { Analysis } from '@tealworks/sdk/teal';
import { opEffect } from './macroInfo.js';

/** Height before and after each statement of the analysis (undefined: unreachable, unknown or disputed). */
export interface StackHeights {
  before: (number | undefined)[];
  after: (number | undefined)[];
  /** True where paths reach the statement with different heights. */
  disputed: boolean[];
}

const CONFLICT = -1_000_000;
/** Bounds the work on pathological programs (each statement is settled at most twice). */
const MAX_VISITS_PER_STATEMENT = 4;

/** The source tokens of a statement without its label definition. */
function instruction(tokens: readonly { text: string }[]): string[] {
  const texts = tokens.map((t) => t.text);
  return texts[0]?.endsWith(':') && !texts[0].startsWith('"') ? texts.slice(1) : texts;
}

const cache = new WeakMap<Analysis, StackHeights>();

/** Heights for the analysed program (0 at pc 0), computed once per analysis (inlay requests come per visible range). */
export function stackHeights(analysis: Analysis): StackHeights {
  let found = cache.get(analysis);
  if (!found) cache.set(analysis, (found = computeHeights(analysis)));
  return found;
}

function computeHeights(analysis: Analysis): StackHeights {
  const stmts = analysis.statements;
  const version = analysis.version;
  const labelAt = new Map<string, number>();
  stmts.forEach((s, i) => {
    if (s.label !== undefined && !labelAt.has(s.label)) labelAt.set(s.label, i);
  });
  const instrs = stmts.map((s) => instruction(s.tokens));

  /** Net effect of the subroutine at `label` (retsub height minus entry height), memoised. */
  const subEffects = new Map<string, number | undefined>();
  const subEffect = (label: string): number | undefined => {
    if (subEffects.has(label)) return subEffects.get(label);
    subEffects.set(label, undefined); // recursion: unknown
    const start = labelAt.get(label);
    let d: number | undefined;
    if (start !== undefined) {
      // `proto A R` states it; otherwise every retsub must agree.
      const first = stmts.slice(start).findIndex((s) => s.op !== undefined);
      const head = first >= 0 ? instrs[start + first]! : [];
      if (head[0] === 'proto' && /^\d+$/.test(head[1] ?? '') && /^\d+$/.test(head[2] ?? '')) d = Number(head[2]) - Number(head[1]);
      else d = walk(start, 0, true).retsub;
    }
    subEffects.set(label, d);
    return d;
  };

  /** Walks from statement `from` at height `h`; `relative` allows heights below 0 (inside a subroutine). */
  function walk(from: number, h: number, relative: boolean): { before: number[]; retsub?: number } {
    const before: number[] = new Array(stmts.length).fill(NaN);
    const visits = new Uint8Array(stmts.length);
    let retsub: number | undefined;
    let retsubConflict = false;
    const work: [number, number][] = [[from, h]];
    const reach = (i: number, height: number) => {
      if (i >= stmts.length) return;
      if (Number.isNaN(before[i]!)) {
        before[i] = height;
        work.push([i, height]);
      } else if (before[i] !== height && before[i] !== CONFLICT) {
        before[i] = CONFLICT;
        if (visits[i]! < MAX_VISITS_PER_STATEMENT) work.push([i, CONFLICT]);
      }
    };
    before[from] = h;
    while (work.length) {
      const [i, height] = work.pop()!;
      if (visits[i]! >= MAX_VISITS_PER_STATEMENT) continue;
      visits[i]!++;
      const s = stmts[i]!;
      const st = instrs[i]!;
      if (s.op === undefined || st.length === 0) {
        reach(i + 1, height);
        continue;
      }
      const known = height !== CONFLICT;
      if (st[0] === 'callsub') {
        const d = st[1] !== undefined ? subEffect(st[1]) : undefined;
        if (d === undefined) continue;
        reach(i + 1, known ? height + d : CONFLICT);
        continue;
      }
      if (st[0] === 'retsub') {
        if (!known) retsubConflict = true;
        else if (retsub === undefined) retsub = height;
        else if (retsub !== height) retsubConflict = true;
        continue;
      }
      const e = st[0] === 'proto' ? { args: [], returns: [] } : opEffect(st, version);
      if ('unknown' in e && e.unknown) continue;
      if (known && !relative && height < e.args.length) continue; // underflow: the assembler reports it
      const after = known ? height - e.args.length + e.returns.length : CONFLICT;
      const name = st[0]!;
      const targets = name === 'b' || name === 'bz' || name === 'bnz' ? st.slice(1, 2) : name === 'switch' || name === 'match' ? st.slice(1) : [];
      for (const t of targets) {
        const at = labelAt.get(t);
        if (at !== undefined) reach(at, after);
      }
      if (!('stop' in e && e.stop)) reach(i + 1, after);
    }
    const out: { before: number[]; retsub?: number } = { before };
    if (retsub !== undefined && !retsubConflict) out.retsub = retsub;
    return out;
  }

  const main = stmts.length ? walk(0, 0, false).before : [];
  const result: StackHeights = { before: [], after: [], disputed: [] };
  for (let i = 0; i < stmts.length; i++) {
    const b = main[i]!;
    const known = !Number.isNaN(b) && b !== CONFLICT;
    result.before.push(known ? b : undefined);
    result.disputed.push(b === CONFLICT);
    const st = instrs[i]!;
    let after: number | undefined;
    if (known) {
      if (stmts[i]!.op === undefined || st.length === 0) after = b;
      else if (st[0] === 'callsub') {
        const d = st[1] !== undefined ? subEffect(st[1]) : undefined;
        after = d === undefined ? undefined : b + d;
      } else if (st[0] === 'proto') after = b;
      else {
        const e = opEffect(st, version);
        after = e.unknown || e.stop ? undefined : b - e.args.length + e.returns.length;
      }
    }
    result.after.push(after);
  }
  return result;
}
