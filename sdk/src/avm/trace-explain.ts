import type { EvalContext, Instr } from './context.js';
import type { TealValue } from './ledger-view.js';
import { localsReference } from './resources.js';
import type { StateChange } from './trace.js';

/**
 * How many stack values a simulate trace says an instruction removes, worked out — as algod's
 * tracer does — from the state *before* the instruction runs. Everything from the resulting
 * height to the top after the instruction is then reported as its stack additions. Most ops
 * remove their declared arguments; the ones below rearrange the stack and are reported in the
 * node's shape (e.g. `dupn n` removes 1 and adds n+1; `dig` adds 1; `frame_bury` removes from
 * the buried slot up and re-adds all but the top, so the write into the frame is visible).
 *
 * Because the count is known before running, a failing instruction still reports its pops.
 */
export function tracePops(cx: EvalContext, ins: Instr): number {
  const fixed = ins.tracePops;
  if (fixed >= 0) return fixed;
  switch (ins.name) {
    case 'return':
      return cx.sp;
    case 'retsub': {
      const f = cx.frames[cx.frames.length - 1];
      if (!f || !f.clear) return 0;
      return Math.max(0, cx.sp - (f.height - f.args));
    }
    case 'frame_bury': {
      const f = cx.frames[cx.frames.length - 1];
      if (!f) return ins.nargs;
      return Math.max(0, cx.sp - (f.height + ins.imm[0]!));
    }
    default:
      return ins.nargs;
  }
}

/**
 * The part of {@link tracePops} an instruction's immediates decide, worked out once when the
 * program is decoded (`Instr.tracePops`); -1 for the ops whose count depends on the stack or the
 * frames when they run (`return`, `retsub`, `frame_bury`).
 */
export function fixedTracePops(ins: Pick<Instr, 'name' | 'imm' | 'nargs' | 'targets'>): number {
  switch (ins.name) {
    case 'return':
    case 'retsub':
    case 'frame_bury':
      return -1;
    case 'bury':
      return ins.imm[0]! + 1;
    case 'popn':
      return ins.imm[0]!;
    case 'dupn':
      return 1;
    case 'dig':
    case 'frame_dig':
      return 0;
    case 'cover':
    case 'uncover':
      return ins.imm[0]! + 1;
    case 'match':
      return ins.targets!.length + 1;
    default:
      return ins.nargs;
  }
}

const BOX_WRITES = new Set(['box_create', 'box_replace', 'box_put', 'box_splice', 'box_resize']);

/**
 * Whether an op may write or delete app state ({@link stateIntent} has something to say about it):
 * worked out once when the program is decoded (`Instr.writesState`), so the tracer skips the rest.
 */
export function writesState(name: string): boolean {
  const base = name.startsWith('app_box_') ? name.slice(4) : name;
  return (
    base === 'app_global_put' || base === 'app_global_del' || base === 'app_local_put' || base === 'app_local_del' || BOX_WRITES.has(base) || base === 'box_del'
  );
}

/** A state change an instruction is about to make, as the tracer names it before it runs. */
export interface StateIntent {
  change: StateChange;
  /** The app whose state it is (another app for the app_box_* ops). */
  app: bigint;
}

/**
 * The state write or delete an instruction is about to make, read from the stack before it runs
 * (as algod's tracer does): reported even when the instruction then fails — without a new value —
 * and completed with the stored value (`completeIntent`) when it succeeds. Reads are not reported.
 */
export function stateIntent(cx: EvalContext, ins: Instr): StateIntent | undefined {
  // Called before every traced instruction: most are not state writes and leave at once.
  let name = ins.name;
  let foreign = false;
  if (name.startsWith('app_box_')) {
    name = name.slice(4);
    foreign = true;
  }
  const sp = cx.sp;
  switch (name) {
    case 'app_global_put':
      return globalIntent(cx, 'w', sp - 2);
    case 'app_global_del':
      return globalIntent(cx, 'd', sp - 1);
    case 'app_local_put':
      return localIntent(cx, 'w', sp - 3, sp - 2);
    case 'app_local_del':
      return localIntent(cx, 'd', sp - 2, sp - 1);
    default: {
      if (!BOX_WRITES.has(name) && name !== 'box_del') return undefined;
      const s = cx.stack;
      const base = sp - ins.nargs;
      let app = cx.appId;
      if (foreign) {
        const a = base >= 0 ? s[base] : undefined;
        if (typeof a === 'object' || a === undefined) return undefined;
        app = BigInt(a);
      }
      const key = bytesAt(cx, foreign ? base + 1 : base);
      return key ? { change: { operation: name === 'box_del' ? 'd' : 'w', appStateType: 'b', key }, app } : undefined;
    }
  }
}

/** The byte string at stack slot `i`, if there is one. */
function bytesAt(cx: EvalContext, i: number): Uint8Array | undefined {
  const v = i >= 0 && i < cx.sp ? cx.stack[i] : undefined;
  return typeof v === 'object' ? v : undefined;
}

function globalIntent(cx: EvalContext, operation: 'w' | 'd', keyAt: number): StateIntent | undefined {
  const key = bytesAt(cx, keyAt);
  return key ? { change: { operation, appStateType: 'g', key }, app: cx.appId } : undefined;
}

function localIntent(cx: EvalContext, operation: 'w' | 'd', acctAt: number, keyAt: number): StateIntent | undefined {
  const key = bytesAt(cx, keyAt);
  if (!key || acctAt < 0) return undefined;
  let account: Uint8Array | undefined;
  try {
    account = localsReference(cx, cx.stack[acctAt]!, 0n).addr;
  } catch {
    account = undefined; // the instruction itself will fail and say why
  }
  return { change: { operation, appStateType: 'l', key, ...(account ? { account } : {}) }, app: cx.appId };
}

/** After a successful write, the value now stored (algod queries the state; deletes have none). */
export function completeIntent(cx: EvalContext, intent: StateIntent): void {
  const c = intent.change;
  if (c.operation !== 'w') return;
  let v: TealValue | undefined;
  if (c.appStateType === 'g') v = cx.ledger.getGlobal(intent.app, c.key);
  else if (c.appStateType === 'l') v = c.account ? cx.ledger.getLocal(c.account, intent.app, c.key) : undefined;
  else v = cx.ledger.getBox(intent.app, c.key);
  if (v !== undefined) c.newValue = v;
}
