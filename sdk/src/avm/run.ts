import { opCost } from '../teal/spec/opcodes.js';
import { failingOpcodes } from '../teal/disassembler/disassemble.js';
import { AvmFault, LogicError } from './errors.js';
import type { EvalContext } from './context.js';
import { K_BYTES, K_UINT } from './program.js';
import type { Instr } from './program.js';
import { MAX_BYTES, MAX_STACK, typeName } from './value.js';
import type { StackValue } from './value.js';
import { completeIntent, stateIntent, tracePops } from './trace-explain.js';

function argLengthOf(stack: StackValue[], sp: number, ins: Instr) {
  return (i: number) => {
    const v = stack[sp - ins.nargs + i];
    return typeof v === 'object' ? v.length : 8;
  };
}

function failArgs(cx: EvalContext, ins: Instr): never {
  const n = ins.nargs;
  if (cx.sp < n) throw new AvmFault(`stack underflow in ${ins.name}`);
  for (let i = 0; i < n; i++) {
    const k = ins.argKinds[i];
    const v = cx.stack[cx.sp - n + i]!;
    if ((k === K_UINT && typeof v === 'object') || (k === K_BYTES && typeof v !== 'object')) {
      throw new AvmFault(`${ins.name} arg ${i} wanted ${ins.op.args[i]} but got ${typeName(v)}`);
    }
  }
  throw new AvmFault(`${ins.name} arguments rejected`);
}

/**
 * Executes a compiled program to completion. Returns whether it approved; throws `LogicError`
 * for every failure (with the failing pc and opcode).
 */
export function runProgram(cx: EvalContext): boolean {
  const prog = cx.program;
  const code = prog.code;
  const end = prog.bytes.length;
  const pool = cx.pool;
  const limited = cx.clearState;
  const trace = cx.trace;
  let pc = prog.start;
  let ins: Instr | undefined;
  try {
    while (pc < end) {
      ins = code[pc]!;
      // The pc names this instruction before any check, so argument, underflow and budget
      // failures report the failing instruction's pc, as the node does.
      cx.pc = pc;
      // Like the node's simulate trace, the step (and the state operation it intends) opens before
      // the checks, so an instruction that fails them still has its own step.
      let intent: ReturnType<typeof stateIntent>;
      if (trace !== undefined) {
        intent = ins.writesState && trace.options.stateChange ? stateIntent(cx, ins) : undefined;
        trace.before(pc, cx.sp, tracePops(cx, ins));
        if (intent) trace.state(intent.change);
      }
      const stack = cx.stack;
      const n = ins.nargs;
      if (n !== 0) {
        const sp = cx.sp;
        if (sp < n) failArgs(cx, ins);
        const kinds = ins.argKinds;
        for (let i = 0; i < n; i++) {
          const k = kinds[i];
          if (k !== 0 && (typeof stack[sp - n + i] === 'object') !== (k === K_BYTES)) failArgs(cx, ins);
        }
      }
      let c = ins.cost;
      if (c < 0) c = opCost(ins.op.cost, ins.field?.name, argLengthOf(stack, cx.sp, ins));
      if (c > (limited ? cx.remainingBudget() : pool.v)) {
        throw new AvmFault(`dynamic cost budget exceeded, executing ${ins.name}: local program cost was ${cx.cost}`);
      }
      cx.cost += c;
      pool.v -= c;
      cx.nextPc = ins.next;
      if (trace === undefined) {
        ins.fn(cx, ins);
      } else {
        ins.fn(cx, ins);
        trace.after(cx.stack, cx.sp);
        if (intent) completeIntent(cx, intent);
      }
      if (cx.sp > MAX_STACK) throw new AvmFault('stack overflow');
      if (ins.checkResult) {
        for (let i = cx.sp - ins.nreturns; i < cx.sp; i++) {
          const v = cx.stack[i];
          if (typeof v === 'object' && v.length > MAX_BYTES) {
            throw new AvmFault(`${ins.name} produced a too big (${v.length}) byte-array`);
          }
        }
      }
      pc = cx.nextPc;
    }
  } catch (e) {
    throw asLogicError(cx, e, ins);
  }
  cx.pc = pc;
  if (cx.sp !== 1) throw asLogicError(cx, new AvmFault(`stack len is ${cx.sp} instead of 1`), undefined);
  const top = cx.stack[0]!;
  if (typeof top === 'object') throw asLogicError(cx, new AvmFault('stack finished with bytes not int'), undefined);
  return top !== 0;
}

export function asLogicError(cx: EvalContext, e: unknown, ins: Instr | undefined): LogicError {
  if (e instanceof LogicError) return e;
  const innerPath = (e as { path?: readonly number[] } | undefined)?.path;
  const reason = e instanceof AvmFault ? e.message : e instanceof Error ? `internal error: ${e.message}` : String(e);
  return new LogicError(
    {
      reason,
      pc: cx.pc,
      opcodes: failingOpcodes(cx.program.bytes, cx.pc),
      ...(ins ? { opcode: ins.name } : {}),
      mode: cx.mode,
      ...(cx.mode === 'app' ? { appId: cx.appId } : {}),
      groupPath: innerPath ?? cx.path,
    },
    { cause: e },
  );
}
