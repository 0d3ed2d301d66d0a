import { DisassembleError } from '../types.js';
import { MODE_APP, fieldByValue, isOpcodePrefix, opByBytes, type FieldSpec, type ImmediateSpec, type VersionedOp } from '../spec/opcodes.js';
import { readUvarint, readVarint, type VarintFailure } from './varint.js';
import { ASSEMBLER_MAX_VERSION } from '../spec/versions.js';

/** One immediate argument as it sits in the bytes. */
export type DecodedImmediate =
  | { encoding: 'uint8'; name: string; value: number; field?: FieldSpec }
  | { encoding: 'int8'; name: string; value: number }
  | { encoding: 'varuint'; name: string; value: bigint }
  | { encoding: 'bytes'; name: string; value: Uint8Array }
  | { encoding: 'uints'; name: string; values: bigint[] }
  | { encoding: 'bytesList'; name: string; values: Uint8Array[] }
  | { encoding: 'label' | 'varintLabel'; name: string; offset: number; target: number }
  | { encoding: 'labels'; name: string; offsets: number[]; targets: number[] };

/** One decoded instruction: pc, opcode, immediates and size. */
export interface DecodedInstruction {
  pc: number;
  /** Bytes taken, opcode included; `pc + size` is the next instruction. */
  size: number;
  op: VersionedOp;
  immediates: DecodedImmediate[];
  /** Absolute branch targets of the label immediates, in the order they appear. */
  targets: number[];
}

/** A decoded program: version and instructions. */
export interface DecodedProgram {
  version: number;
  /** Bytes taken by the version varint: the pc of the first instruction. */
  headerSize: number;
  instructions: DecodedInstruction[];
  /** True when an application-only opcode appears (the reference's HasStatefulOps). */
  hasStatefulOps: boolean;
  length: number;
}

/** How strictly to decode program bytes (public name `ProgramDecodeOptions`). */
export interface DecodeOptions {
  /**
   * Reject branch targets outside [first instruction, end of program] or inside an instruction.
   * Off by default: the AVM only checks a branch when it is taken.
   */
  checkTargets?: boolean;
}

/**
 * Version 0 is accepted and reads as v1, as the reference's assembler and disassembler treat it.
 * Newest version accepted: the reference's LogicVersion. v14 has no langspec of its own yet, so its
 * opcodes decode with the v13 table (as the assembler assembles them).
 */
export const DISASSEMBLER_MAX_VERSION = ASSEMBLER_MAX_VERSION;

/** Reads the version prefix; throws DisassembleError for an empty or malformed one. */
export function readProgramVersion(program: Uint8Array): { version: number; headerSize: number } {
  if (program.length === 0) throw new DisassembleError('invalid program (empty)', 0);
  const r = readUvarint(program, 0);
  if (typeof r === 'string') throw new DisassembleError('invalid version', 0);
  if (r.value > BigInt(DISASSEMBLER_MAX_VERSION)) {
    throw new DisassembleError(`unsupported version ${r.value} (this toolchain knows up to v${DISASSEMBLER_MAX_VERSION})`, 0);
  }
  return { version: Number(r.value), headerSize: r.next };
}

/** Decodes every instruction of a program. Throws DisassembleError at the first malformed one. */
export function decodeProgram(program: Uint8Array, options: DecodeOptions = {}): DecodedProgram {
  const { version, headerSize } = readProgramVersion(program);
  const instructions: DecodedInstruction[] = [];
  let hasStatefulOps = false;
  let pc = headerSize;
  while (pc < program.length) {
    const ins = decodeInstruction(program, pc, version);
    if (ins.op.modes === MODE_APP) hasStatefulOps = true;
    instructions.push(ins);
    pc += ins.size;
  }
  const decoded: DecodedProgram = { version, headerSize, instructions, hasStatefulOps, length: program.length };
  if (options.checkTargets) checkBranchTargets(decoded);
  return decoded;
}

/** Throws DisassembleError for the first branch whose target is not an instruction start or the end. */
export function checkBranchTargets(decoded: DecodedProgram): void {
  const starts = new Set<number>();
  for (const ins of decoded.instructions) starts.add(ins.pc);
  starts.add(decoded.length);
  for (const ins of decoded.instructions) {
    for (const target of ins.targets) {
      if (starts.has(target)) continue;
      const where = `${ins.op.name} at pc=${ins.pc}`;
      if (target < decoded.headerSize || target > decoded.length) {
        throw new DisassembleError(
          `branch target ${target} of ${where} is outside the program (instructions span ${decoded.headerSize}..${decoded.length})`,
          ins.pc,
        );
      }
      throw new DisassembleError(`branch target ${target} of ${where} is not the start of an instruction`, ins.pc);
    }
  }
}

function opcodeError(program: Uint8Array, pc: number, version: number): DisassembleError {
  const first = program[pc]!;
  if (isOpcodePrefix(version, first)) {
    if (pc + 1 >= program.length) return new DisassembleError(`prefix opcode 0x${hex2(first)} missing sub-opcode at pc=${pc}`, pc);
    return new DisassembleError(`prefix opcode 0x${hex2(first)} with improper sub-opcode 0x${hex2(program[pc + 1]!)} at pc=${pc}`, pc);
  }
  return new DisassembleError(`invalid opcode ${hex2(first)} at pc=${pc}`, pc);
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}

/** Decodes the instruction at `pc` of a program of the given version. */
export function decodeInstruction(program: Uint8Array, pc: number, version: number): DecodedInstruction {
  const op = opByBytes(version, program[pc]!, program[pc + 1]);
  if (!op) throw opcodeError(program, pc, version);
  let pos = pc + (op.prefix !== undefined ? 2 : 1);
  const immediates: DecodedImmediate[] = [];
  const targets: number[] = [];
  for (const imm of op.immediates) {
    const r = readImmediate(program, pc, pos, op, imm);
    immediates.push(r.imm);
    if (r.imm.encoding === 'label' || r.imm.encoding === 'varintLabel') targets.push(r.imm.target);
    else if (r.imm.encoding === 'labels') targets.push(...r.imm.targets);
    pos = r.next;
  }
  return { pc, size: pos - pc, op, immediates, targets };
}

const immNames = new WeakMap<ImmediateSpec, string>();

function immName(imm: ImmediateSpec): string {
  let name = immNames.get(imm);
  if (name === undefined) {
    // "UINT ..." → "uint": the reference's error texts name immediates in lower case.
    name = imm.name.replace(/\s*\.\.\.$/, '').toLowerCase();
    immNames.set(imm, name);
  }
  return name;
}

function fail(pc: number, message: string): never {
  throw new DisassembleError(`${message} (pc=${pc})`, pc);
}

function int16At(program: Uint8Array, pos: number): number {
  const v = (program[pos]! << 8) | program[pos + 1]!;
  return v >= 0x8000 ? v - 0x10000 : v;
}

function varintMessage(failure: VarintFailure): string {
  return failure === 'short' ? 'runs past the end of the program' : 'overflows uint64';
}

function readImmediate(program: Uint8Array, pc: number, pos: number, op: VersionedOp, imm: ImmediateSpec): { imm: DecodedImmediate; next: number } {
  const name = immName(imm);
  switch (imm.encoding) {
    case 'uint8':
    case 'int8': {
      if (pos >= program.length) fail(pc, `program end while reading immediate ${name} for ${op.name}`);
      const b = program[pos]!;
      if (imm.encoding === 'int8') return { imm: { encoding: 'int8', name, value: b >= 0x80 ? b - 0x100 : b }, next: pos + 1 };
      if (imm.fieldGroup !== undefined) {
        const field = fieldByValue(op, b);
        if (!field) fail(pc, `invalid immediate ${name} for ${op.name}: ${b}`);
        return { imm: { encoding: 'uint8', name, value: b, field: field! }, next: pos + 1 };
      }
      return { imm: { encoding: 'uint8', name, value: b }, next: pos + 1 };
    }
    case 'varuint': {
      const r = readUvarint(program, pos);
      if (typeof r === 'string') return fail(pc, `could not decode immediate ${name} for ${op.name}: varuint ${varintMessage(r)}`);
      return { imm: { encoding: 'varuint', name, value: r.value }, next: r.next };
    }
    case 'bytes': {
      const r = readUvarint(program, pos);
      if (typeof r === 'string') return fail(pc, `could not decode immediate ${name} for ${op.name}: length ${varintMessage(r)}`);
      if (r.value > BigInt(program.length - r.next)) {
        return fail(pc, `could not decode immediate ${name} for ${op.name}: ${r.value} bytes declared, ${program.length - r.next} left`);
      }
      const end = r.next + Number(r.value);
      return { imm: { encoding: 'bytes', name, value: program.slice(r.next, end) }, next: end };
    }
    case 'uints': {
      const count = readUvarint(program, pos);
      if (typeof count === 'string') return fail(pc, `could not decode length of int list for ${op.name}: ${varintMessage(count)}`);
      // Each item takes at least one byte, so a count beyond the bytes left is corrupt.
      if (count.value > BigInt(program.length - count.next)) return fail(pc, `const int list with too many items for ${op.name}: ${count.value}`);
      const values: bigint[] = [];
      let at = count.next;
      for (let i = 0; i < Number(count.value); i++) {
        const r = readUvarint(program, at);
        if (typeof r === 'string') return fail(pc, `could not decode int const[${i}] at pc=${at} for ${op.name}: ${varintMessage(r)}`);
        values.push(r.value);
        at = r.next;
      }
      return { imm: { encoding: 'uints', name, values }, next: at };
    }
    case 'bytesList': {
      const count = readUvarint(program, pos);
      if (typeof count === 'string') return fail(pc, `could not decode length of bytes list for ${op.name}: ${varintMessage(count)}`);
      if (count.value > BigInt(program.length - count.next)) return fail(pc, `const bytes list with too many items for ${op.name}: ${count.value}`);
      const values: Uint8Array[] = [];
      let at = count.next;
      for (let i = 0; i < Number(count.value); i++) {
        const len = readUvarint(program, at);
        if (typeof len === 'string') return fail(pc, `could not decode []byte const[${i}] at pc=${at} for ${op.name}: ${varintMessage(len)}`);
        if (len.value > BigInt(program.length - len.next))
          return fail(pc, `const bytes list ran past end of program for ${op.name}: item ${i} declares ${len.value} bytes`);
        const end = len.next + Number(len.value);
        values.push(program.slice(len.next, end));
        at = end;
      }
      return { imm: { encoding: 'bytesList', name, values }, next: at };
    }
    case 'label': {
      if (pos + 2 > program.length) fail(pc, `program end while reading label for ${op.name}`);
      const offset = int16At(program, pos);
      const next = pos + 2;
      return { imm: { encoding: 'label', name, offset, target: next + offset }, next };
    }
    case 'varintLabel': {
      const r = readVarint(program, pos);
      if (typeof r === 'string') return fail(pc, `could not decode label for ${op.name}: varint ${varintMessage(r)}`);
      // Negative offsets count back from the opcode byte, others forward from the instruction end.
      const base = r.value < 0n ? BigInt(pc) : BigInt(r.next);
      const target = toSafeNumber(base + r.value);
      return { imm: { encoding: 'varintLabel', name, offset: toSafeNumber(r.value), target }, next: r.next };
    }
    case 'labels': {
      if (pos >= program.length) fail(pc, `could not decode label count for ${op.name}`);
      const count = program[pos]!;
      const end = pos + 1 + 2 * count;
      if (end > program.length) fail(pc, `could not decode labels for ${op.name}: ${count} declared, ${program.length - pos - 1} bytes left`);
      const offsets: number[] = [];
      const targets: number[] = [];
      for (let i = 0; i < count; i++) {
        const offset = int16At(program, pos + 1 + 2 * i);
        offsets.push(offset);
        targets.push(end + offset);
      }
      return { imm: { encoding: 'labels', name, offsets, targets }, next: end };
    }
  }
}

function toSafeNumber(v: bigint): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (v < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(v);
}
