import { AbiDecodeError } from './errors.js';

const INTCBLOCK = 0x20;
const BYTECBLOCK = 0x26;

/** Reads a Go-style uvarint; returns [value, next offset]. */
function uvarint(program: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < program.length && i < at + 10; i++) {
    const b = program[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, i + 1];
    scale *= 128;
  }
  throw new AbiDecodeError('program', `truncated varint at byte ${at}`);
}

/**
 * The pc of the first instruction after the constant blocks at the top of a program: the base
 * ARC-56 "cblocks" source maps count from, so they stay valid when template values change the
 * length of the constant blocks.
 */
export function cblocksOffset(program: Uint8Array): number {
  let [, pc] = uvarint(program, 0); // version
  for (;;) {
    const op = program[pc];
    if (op === INTCBLOCK) {
      let [count, next] = uvarint(program, pc + 1);
      for (let i = 0; i < count; i++) [, next] = uvarint(program, next);
      pc = next;
    } else if (op === BYTECBLOCK) {
      let [count, next] = uvarint(program, pc + 1);
      for (let i = 0; i < count; i++) {
        const [len, after] = uvarint(program, next);
        next = after + len;
      }
      if (next > program.length) throw new AbiDecodeError('program', 'bytecblock runs past the end of the program');
      pc = next;
    } else {
      return pc;
    }
  }
}
