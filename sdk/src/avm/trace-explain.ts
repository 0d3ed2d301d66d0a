import type { EvalContext, Instr } from './context.js';

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
  switch (ins.name) {
    case 'return':
      return cx.sp;
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
