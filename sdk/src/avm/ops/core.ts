import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import type { EvalContext } from '../context.js';
import type { Instr } from '../program.js';
import { asIndex, bytesEq } from '../value.js';
import type { StackValue } from '../value.js';

type U = number | bigint;

// ---- constants ----
defineOp('intcblock', (cx, ins) => {
  cx.intc = ins.uints!;
});
defineOp('bytecblock', (cx, ins) => {
  cx.bytec = ins.bytesList!;
});
function intc(cx: EvalContext, n: number): void {
  if (n >= cx.intc.length) fault(`intc ${n} beyond ${cx.intc.length} constants`);
  cx.stack[cx.sp++] = cx.intc[n]!;
}
function bytec(cx: EvalContext, n: number): void {
  if (n >= cx.bytec.length) fault(`bytec ${n} beyond ${cx.bytec.length} constants`);
  cx.stack[cx.sp++] = cx.bytec[n]!;
}
defineOp('intc', (cx, ins) => intc(cx, ins.imm[0]!));
defineOp('bytec', (cx, ins) => bytec(cx, ins.imm[0]!));
for (let i = 0; i < 4; i++) {
  defineOp(`intc_${i}`, (cx) => intc(cx, i));
  defineOp(`bytec_${i}`, (cx) => bytec(cx, i));
}
defineOp('pushint', (cx, ins) => {
  cx.stack[cx.sp++] = ins.bigImm!;
});
defineOp('pushbytes', (cx, ins) => {
  cx.stack[cx.sp++] = ins.bytes!;
});
defineOp('pushints', (cx, ins) => {
  for (const v of ins.uints!) cx.stack[cx.sp++] = v;
});
defineOp('pushbytess', (cx, ins) => {
  for (const v of ins.bytesList!) cx.stack[cx.sp++] = v;
});

// ---- logic signature arguments ----
function arg(cx: EvalContext, n: number): void {
  const args = cx.lsigArgs ?? [];
  if (n >= args.length) fault(`cannot load arg[${n}] of ${args.length}`);
  cx.stack[cx.sp++] = args[n]!;
}
defineOp('arg', (cx, ins) => arg(cx, ins.imm[0]!));
for (let i = 0; i < 4; i++) defineOp(`arg_${i}`, (cx) => arg(cx, i));
defineOp('args', (cx) => {
  const n = cx.stack[--cx.sp] as U;
  arg(cx, asIndex(n) === Infinity ? Number.MAX_SAFE_INTEGER : Number(n));
});

// ---- stack ----
defineOp('pop', (cx) => {
  cx.sp--;
});
defineOp('dup', (cx) => {
  const s = cx.stack;
  s[cx.sp] = s[cx.sp - 1]!;
  cx.sp++;
});
defineOp('dup2', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  s[sp] = s[sp - 2]!;
  s[sp + 1] = s[sp - 1]!;
  cx.sp = sp + 2;
});
defineOp('swap', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const t = s[sp - 1]!;
  s[sp - 1] = s[sp - 2]!;
  s[sp - 2] = t;
});
defineOp('select', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  if (s[sp - 1] !== 0) s[sp - 3] = s[sp - 2]!;
  cx.sp = sp - 2;
});
defineOp('dig', (cx, ins) => {
  const depth = ins.imm[0]!;
  const idx = cx.sp - 1 - depth;
  if (idx < 0) fault(`dig ${depth} with stack size = ${cx.sp}`);
  cx.stack[cx.sp++] = cx.stack[idx]!;
});
defineOp('cover', (cx, ins) => {
  const depth = ins.imm[0]!;
  const s = cx.stack;
  const top = cx.sp - 1;
  const idx = top - depth;
  if (idx < 0) fault(`cover ${depth} with stack size = ${cx.sp}`);
  const v = s[top]!;
  for (let i = top; i > idx; i--) s[i] = s[i - 1]!;
  s[idx] = v;
});
defineOp('uncover', (cx, ins) => {
  const depth = ins.imm[0]!;
  const s = cx.stack;
  const top = cx.sp - 1;
  const idx = top - depth;
  if (idx < 0) fault(`uncover ${depth} with stack size = ${cx.sp}`);
  const v = s[idx]!;
  for (let i = idx; i < top; i++) s[i] = s[i + 1]!;
  s[top] = v;
});
defineOp('bury', (cx, ins) => {
  const last = cx.sp - 1;
  const idx = last - ins.imm[0]!;
  if (idx < 0 || idx === last) fault('bury outside stack');
  cx.stack[idx] = cx.stack[last]!;
  cx.sp = last;
});
defineOp('popn', (cx, ins) => {
  const n = ins.imm[0]!;
  if (cx.sp - n < 0) fault(`popn ${n} while stack contains ${cx.sp}`);
  cx.sp -= n;
});
defineOp('dupn', (cx, ins) => {
  const n = ins.imm[0]!;
  if (cx.sp + n > 1000) fault('stack overflow');
  const v = cx.stack[cx.sp - 1]!;
  for (let i = 0; i < n; i++) cx.stack[cx.sp++] = v;
});

// ---- flow ----
defineOp('err', () => fault('err opcode executed'));
defineOp('return', (cx) => {
  const v = cx.stack[cx.sp - 1]!;
  cx.stack[0] = v;
  cx.sp = 1;
  cx.nextPc = cx.program.bytes.length;
});
defineOp('assert', (cx) => {
  if (cx.stack[--cx.sp] === 0) fault(`assert failed pc=${cx.pc}`);
});
defineOp('bnz', (cx, ins) => {
  if (cx.stack[--cx.sp] !== 0) cx.nextPc = ins.target!;
});
defineOp('bz', (cx, ins) => {
  if (cx.stack[--cx.sp] === 0) cx.nextPc = ins.target!;
});
defineOp('b', (cx, ins) => {
  cx.nextPc = ins.target!;
});
defineOp('callsub', (cx: EvalContext, ins: Instr) => {
  if (cx.frames.length >= 1024) fault('too many nested callsubs');
  cx.frames.push({ retPc: ins.next, height: cx.sp, clear: false, args: 0, returns: 0 });
  cx.nextPc = ins.target!;
  const t = cx.program.code[ins.target!];
  if (t && t.name === 'proto') cx.fromCallsub = true;
});
defineOp('retsub', (cx) => {
  const top = cx.frames.pop();
  if (!top) fault('retsub with empty callstack');
  if (top!.clear) {
    const expect = top!.height + top!.returns;
    if (cx.sp < expect) {
      cx.frames.push(top!);
      if (cx.sp < top!.height) fault('retsub executed with stack below frame. Did you pop args?');
      if (cx.sp === top!.height) fault(`retsub executed with no return values on stack. proto declared ${top!.returns}`);
      fault(`retsub executed with ${cx.sp - top!.height} return values on stack. proto declared ${top!.returns}`);
    }
    const argStart = top!.height - top!.args;
    const s = cx.stack;
    for (let i = 0; i < top!.returns; i++) s[argStart + i] = s[top!.height + i]!;
    cx.sp = argStart + top!.returns;
  }
  cx.nextPc = top!.retPc;
});
defineOp('proto', (cx, ins) => {
  if (!cx.fromCallsub) fault('proto was executed without a callsub');
  cx.fromCallsub = false;
  const nargs = ins.imm[0]!;
  if (nargs > cx.sp) fault(`callsub to proto that requires ${nargs} args with stack height ${cx.sp}`);
  const f = cx.frames[cx.frames.length - 1]!;
  f.clear = true;
  f.args = nargs;
  f.returns = ins.imm[1]!;
});
defineOp('frame_dig', (cx, ins) => {
  const i = ins.imm[0]!;
  const f = cx.frames[cx.frames.length - 1];
  if (!f) fault('frame_dig with empty callstack');
  if (f!.clear && -i > f!.args) fault(`frame_dig ${i} in sub with ${f!.args} args`);
  const idx = f!.height + i;
  if (idx >= cx.sp) fault('frame_dig above stack');
  if (idx < 0) fault('frame_dig below stack');
  cx.stack[cx.sp++] = cx.stack[idx]!;
});
defineOp('frame_bury', (cx, ins) => {
  const i = ins.imm[0]!;
  const f = cx.frames[cx.frames.length - 1];
  if (!f) fault('frame_bury with empty callstack');
  if (f!.clear && -i > f!.args) fault(`frame_bury ${i} in sub with ${f!.args} args`);
  const idx = f!.height + i;
  const last = cx.sp - 1;
  if (idx >= last) fault('frame_bury above stack');
  if (idx < 0) fault('frame_bury below stack');
  cx.stack[idx] = cx.stack[last]!;
  cx.sp = last;
});

function switchTo(cx: EvalContext, ins: Instr, idx: number): void {
  const targets = ins.targets!;
  if (idx < targets.length) cx.nextPc = targets[idx]!;
}
defineOp('switch', (cx, ins) => {
  const v = cx.stack[--cx.sp] as U;
  switchTo(cx, ins, asIndex(v));
});
defineOp('match', (cx, ins) => {
  const n = ins.targets!.length;
  if (n + 1 > cx.sp) fault(`match expects ${n + 1} stack args while stack only contains ${cx.sp}`);
  const s = cx.stack;
  const v = s[--cx.sp]!;
  const base = cx.sp - n;
  let matched = n;
  for (let i = 0; i < n; i++) {
    const a: StackValue = s[base + i]!;
    if (typeof a === 'object' ? typeof v === 'object' && bytesEq(a, v) : a === v) {
      matched = i;
      break;
    }
  }
  cx.sp = base;
  switchTo(cx, ins, matched);
});

// ---- scratch ----
function scratchIndex(n: U): number {
  if (n >= 256) fault(`invalid Scratch index ${n}`);
  return Number(n);
}
defineOp('load', (cx, ins) => {
  cx.stack[cx.sp++] = cx.scratch[ins.imm[0]!]!;
});
defineOp('store', (cx, ins) => {
  const v = cx.stack[--cx.sp]!;
  cx.scratch[ins.imm[0]!] = v;
  if (cx.trace) cx.trace.scratch(ins.imm[0]!, v);
});
defineOp('loads', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = cx.scratch[scratchIndex(s[cx.sp - 1] as U)]!;
});
defineOp('stores', (cx) => {
  const s = cx.stack;
  const v = s[cx.sp - 1]!;
  const i = scratchIndex(s[cx.sp - 2] as U);
  cx.sp -= 2;
  cx.scratch[i] = v;
  if (cx.trace) cx.trace.scratch(i, v);
});
