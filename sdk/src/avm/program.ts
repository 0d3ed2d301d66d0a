import { opByBytes, opByName, isOpcodePrefix, fieldByValue, opCost, MODE_APP, MODE_LOGICSIG, namedType } from '../teal/spec/opcodes.js';
import { AvmFault } from './errors.js';
import type { RunMode } from './errors.js';
import { fromBig } from './value.js';
import type { CompiledProgram, Handler, Instr } from './context.js';
import { implementationFor } from './ops/registry.js';
import { fixedTracePops, writesState } from './trace-explain.js';

import { BACK_BRANCH_VERSION, BRANCH_TO_END_VERSION, MAX_AVM_VERSION } from '../teal/spec/versions.js';
export { BACK_BRANCH_VERSION, MAX_AVM_VERSION };

/** Argument kind codes used by the generic stack type check. */
export const K_ANY = 0;
export const K_UINT = 1;
export const K_BYTES = 2;

export type { Handler, Instr, CompiledProgram } from './context.js';

/** A problem found while checking the program before it runs. */
export class CheckFault extends AvmFault {
  constructor(
    readonly pc: number,
    message: string,
    readonly opcode?: string,
  ) {
    super(message);
  }
}

export function readUvarint(b: Uint8Array, pos: number): { value: number | bigint; next: number } | undefined {
  let x = 0n;
  let shift = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= b.length) return undefined;
    const byte = b[pos + i]!;
    if (i === 9 && byte > 1) return undefined; // overflows uint64
    x |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return { value: fromBig(x), next: pos + i + 1 };
    shift += 7n;
  }
  return undefined;
}

/** `ProgramVersion`: the leading uvarint. */
export function programVersion(program: Uint8Array): { version: number; length: number } {
  if (program.length === 0) throw new AvmFault('invalid program (empty)');
  const r = readUvarint(program, 0);
  if (!r || typeof r.value !== 'number') throw new AvmFault('invalid version');
  return { version: r.value, length: r.next };
}

function kindOf(type: string): number {
  if (type === 'any') return K_ANY;
  const named = namedType(type);
  if (named) return named.avmType === 'uint64' ? K_UINT : named.avmType === 'any' ? K_ANY : K_BYTES;
  return K_BYTES; // [32]byte, [64]byte and friends
}

const modeBit = (mode: RunMode) => (mode === 'app' ? MODE_APP : MODE_LOGICSIG);

/** Compiled programs by the array they were compiled from (the same app's bytes run again). */
const cache = new WeakMap<Uint8Array, Map<string, CompiledProgram>>();

/**
 * Compiled programs by content, most recently used last: the same program in another array (each
 * fresh test chain, fork or decoded transaction holds its own copy) is not decoded again. Entries
 * are compiled from a private copy of the bytes, so a caller changing its array afterwards cannot
 * change a program another caller runs. Bounded by count and by total program bytes.
 */
const byContent = new Map<string, Map<string, CompiledProgram>>();
let byContentBytes = 0;
const BY_CONTENT_MAX_ENTRIES = 256;
const BY_CONTENT_MAX_BYTES = 4 * 1024 * 1024;
const latin1 = new TextDecoder('latin1');

/**
 * Decodes and statically checks a program the way the node does before running it: every opcode
 * must exist in its version and mode, immediates must fit, branch targets must be instruction
 * starts, and for v1–v3 the summed cost must fit `staticBudget`.
 */
export function compileProgram(
  bytes: Uint8Array,
  mode: RunMode,
  maxVersion = MAX_AVM_VERSION,
  staticBudget?: number,
  options: { ignoreMode?: boolean } = {},
): CompiledProgram {
  const key = `${mode}/${maxVersion}/${staticBudget ?? ''}/${options.ignoreMode ? 'any' : ''}`;
  let perProgram = cache.get(bytes);
  const hit = perProgram?.get(key);
  if (hit) return hit;
  // The same bytes seen in another array: one decode for every copy. (A byte-for-byte string key:
  // the windows-1252 decoder TextDecoder gives for 'latin1' maps each byte to its own code point.)
  const content = latin1.decode(bytes);
  let shared = byContent.get(content);
  let compiled = shared?.get(key);
  if (shared) {
    byContent.delete(content);
    byContent.set(content, shared);
  }
  if (!compiled) {
    compiled = compileUncached(bytes.slice(), mode, maxVersion, staticBudget, options.ignoreMode ?? false);
    if (!shared) {
      byContent.set(content, (shared = new Map()));
      byContentBytes += bytes.length;
      for (const [k, v] of byContent) {
        if (byContent.size <= BY_CONTENT_MAX_ENTRIES && byContentBytes <= BY_CONTENT_MAX_BYTES) break;
        if (v === shared) break;
        byContent.delete(k);
        byContentBytes -= k.length;
      }
    }
    shared.set(key, compiled);
  }
  if (!perProgram) cache.set(bytes, (perProgram = new Map()));
  perProgram.set(key, compiled);
  return compiled;
}

function compileUncached(bytes: Uint8Array, mode: RunMode, maxVersion: number, staticBudget: number | undefined, ignoreMode: boolean): CompiledProgram {
  const { version, length } = programVersion(bytes);
  if (version > MAX_AVM_VERSION) throw new AvmFault(`program version ${version} greater than max supported version ${MAX_AVM_VERSION}`);
  if (version > maxVersion) throw new AvmFault(`program version ${version} greater than protocol supported version ${maxVersion}`);
  const code: (Instr | undefined)[] = new Array(bytes.length + 1);
  const branchTargets = new Set<number>();
  let pc = length;
  let staticCost = 0;
  while (pc < bytes.length) {
    const ins = decodeInstruction(bytes, pc, version, mode, ignoreMode);
    code[pc] = ins;
    for (const t of ins.target !== undefined ? [ins.target] : (ins.targets ?? [])) {
      if (t <= pc && !code[t]) throw new CheckFault(pc, `pc=${pad3(pc)} back branch target ${t} is not an aligned instruction`, ins.name);
      branchTargets.add(t);
    }
    for (let p = pc + 1; p < ins.next; p++) {
      if (branchTargets.has(p)) throw new CheckFault(pc, `pc=${pad3(ins.next)} branch target ${p} is not an aligned instruction`, ins.name);
    }
    const c = opCost(ins.op.cost, ins.field?.name, () => 0);
    staticCost += c;
    if (version < BACK_BRANCH_VERSION && staticBudget !== undefined && staticCost > staticBudget) {
      throw new CheckFault(pc, `pc=${pad3(ins.next)} static cost budget of ${staticBudget} exceeded`, ins.name);
    }
    pc = ins.next;
  }
  return { bytes, version, mode, code, start: length, staticCost };
}

export function pad3(n: number): string {
  return String(n).padStart(3, ' ');
}

function decodeInstruction(b: Uint8Array, pc: number, version: number, mode: RunMode, ignoreMode: boolean): Instr {
  const first = b[pc]!;
  const prefixed = isOpcodePrefix(version, first);
  const op = opByBytes(version, first, prefixed ? b[pc + 1] : undefined);
  const fail = (msg: string, name?: string): never => {
    throw new CheckFault(pc, `pc=${pad3(pc)} ${msg}`, name);
  };
  if (!op) {
    if (prefixed) {
      if (pc + 1 >= b.length) fail(`prefix opcode 0x${hex2(first)} missing sub-opcode`);
      fail(`prefix opcode 0x${hex2(first)} with improper sub-opcode 0x${hex2(b[pc + 1]!)}`);
    }
    fail(`illegal opcode 0x${hex2(first)}`);
  }
  const name = op!.name;
  if (!ignoreMode && (op!.modes & modeBit(mode)) === 0) fail(`${name} not allowed in current mode`, name);
  if (op!.size !== 0 && pc + op!.size > b.length) fail('program ends without immediate value(s)', name);
  let pos = pc + (prefixed ? 2 : 1);
  const ins: Instr = {
    pc,
    next: 0,
    name,
    op: op!,
    fn: undefined as unknown as Handler,
    cost: 0,
    nargs: op!.args.length,
    argKinds: op!.args.map(kindOf),
    checkResult: op!.returns.some((t) => kindOf(t) !== K_UINT),
    nreturns: op!.returns.length,
    imm: [],
    // Every optional member is present from the start so all instructions share one hidden
    // class: the run loop's property reads stay monomorphic whatever ops a program mixes.
    bigImm: undefined,
    bytes: undefined,
    uints: undefined,
    bytesList: undefined,
    target: undefined,
    targets: undefined,
    field: undefined,
    data: undefined,
    tracePops: -1,
    writesState: writesState(name),
  };
  let fieldRaw: number | undefined;
  for (const imm of op!.immediates) {
    switch (imm.encoding) {
      case 'uint8':
        if (pos >= b.length) fail('program ends without immediate value(s)', name);
        ins.imm.push(b[pos++]!);
        break;
      case 'int8':
        if (pos >= b.length) fail('program ends without immediate value(s)', name);
        ins.imm.push((b[pos++]! << 24) >> 24);
        break;
      case 'varuint': {
        const r = readUvarint(b, pos);
        if (!r) fail(`could not decode int at program[${pos}]`, name);
        ins.bigImm = r!.value;
        ins.imm.push(typeof r!.value === 'number' ? r!.value : Infinity);
        pos = r!.next;
        break;
      }
      case 'bytes': {
        const r = readUvarint(b, pos);
        if (!r) fail(`could not decode length at program[${pos}]`, name);
        const n = typeof r!.value === 'number' ? r!.value : Infinity;
        if (r!.next + n > b.length) fail(`${name} too long at program[${pos}]`, name);
        ins.bytes = b.slice(r!.next, r!.next + n);
        pos = r!.next + n;
        break;
      }
      case 'uints': {
        // The node's wording (its parser is shared by the check and the disassembler).
        const r = readUvarint(b, pos);
        if (!r) fail(`could not decode length of int list at pc=${pos}`, name);
        const n = typeof r!.value === 'number' ? r!.value : Infinity;
        pos = r!.next;
        if (n > b.length) fail('const int list with too many items', name);
        const list: (number | bigint)[] = [];
        for (let i = 0; i < n; i++) {
          if (pos >= b.length) fail('const int list ran past end of program', name);
          const v = readUvarint(b, pos);
          if (!v) fail(`could not decode int const[${i}] at pc=${pos}`, name);
          list.push(v!.value);
          pos = v!.next;
        }
        ins.uints = list;
        break;
      }
      case 'bytesList': {
        const r = readUvarint(b, pos);
        if (!r) fail(`could not decode length of bytes list at pc=${pos}`, name);
        const n = typeof r!.value === 'number' ? r!.value : Infinity;
        pos = r!.next;
        if (n > b.length) fail('const bytes list with too many items', name);
        const list: Uint8Array[] = [];
        for (let i = 0; i < n; i++) {
          if (pos >= b.length) fail('const bytes list ran past end of program', name);
          const l = readUvarint(b, pos);
          if (!l) fail(`could not decode []byte const[${i}] at pc=${pos}`, name);
          const len = typeof l!.value === 'number' ? l!.value : Infinity;
          if (l!.next + len > b.length) fail('const bytes list ran past end of program', name);
          list.push(b.slice(l!.next, l!.next + len));
          pos = l!.next + len;
        }
        ins.bytesList = list;
        break;
      }
      case 'label': {
        if (pos + 2 > b.length) fail('program ends without immediate value(s)', name);
        const off = ((b[pos]! << 24) >> 16) | b[pos + 1]!;
        pos += 2;
        if (off < 0 && version < BACK_BRANCH_VERSION) fail(`negative branch offset ${(off & 0xffff).toString(16)}`, name);
        const target = pos + off;
        const tooFar = version >= BRANCH_TO_END_VERSION ? target > b.length || target < 0 : target >= b.length || target < 0;
        if (tooFar) fail(`branch target ${target} outside of program`, name);
        ins.target = target;
        break;
      }
      case 'varintLabel': {
        // zigzag varint: negative offsets count back from the opcode byte, others forward from the end.
        const r = readUvarint(b, pos);
        if (!r) fail(pos >= b.length ? 'program ends without branch target' : 'branch offset varint overflows int64', name);
        const zz = BigInt(r!.value);
        const off = Number(zz & 1n ? -((zz >> 1n) + 1n) : zz >> 1n);
        pos = r!.next;
        const target = off < 0 ? pc + off : pos + off;
        if (target > b.length || target < 0) fail(`branch target ${target} outside of program`, name);
        ins.target = target;
        break;
      }
      case 'labels': {
        if (pos >= b.length) fail(`bare ${name} opcode at end of program`, name);
        const n = b[pos++]!;
        const eoi = pos + 2 * n;
        if (eoi > b.length) fail(`${name} opcode claims to extend beyond program`, name);
        const targets: number[] = [];
        for (let i = 0; i < n; i++) {
          const off = ((b[pos]! << 24) >> 16) | b[pos + 1]!;
          pos += 2;
          const t = eoi + off;
          if (t > b.length || t < 0) fail(`branch target ${t} outside of program`, name);
          targets.push(t);
        }
        ins.targets = targets;
        break;
      }
    }
    if (imm.fieldGroup) {
      fieldRaw = ins.imm[ins.imm.length - 1]!;
      ins.field = fieldByValue(op!, fieldRaw);
    }
  }
  ins.next = pos;
  ins.tracePops = fixedTracePops(ins);
  const fixed = op!.cost;
  ins.cost = typeof fixed === 'number' ? fixed : -1;
  if (ins.cost < 0 && ins.field && typeof fixed === 'object' && !('base' in fixed)) {
    const c = (fixed as Record<string, unknown>)[ins.field.name];
    if (typeof c === 'number') ins.cost = c;
  }
  const impl = implementationFor(name);
  ins.fn = impl.exec;
  if (op!.spec.fieldGroup && (!ins.field || ins.field.version > version)) {
    // The field immediate (not a later index immediate) names the problem; the node reports it
    // when the instruction runs, not when the program is checked.
    const message = invalidFieldMessage(name, fieldRaw ?? 0, ins.field, version);
    ins.fn = () => {
      throw new AvmFault(message);
    };
  } else if (impl.prepare) {
    impl.prepare(ins, version);
  }
  return ins;
}

const TXN_FAMILY = /^(g?i?txn|gtxns)/;
/** Ops of the txn family that read an array field (the rest read scalars). */
const TXN_ARRAY_OPS = new Set(['txna', 'gtxna', 'gtxnsa', 'txnas', 'gtxnas', 'gtxnsas', 'itxna', 'gitxna', 'itxnas', 'gitxnas']);
/** The node prints unknown fields of these groups by their Go enum name, e.g. `TxnField(99)`. */
/** Ops whose invalid-field message prints the raw number even for a known (too new) field. */
const NUMBERED = new Set(['asset_holding_get', 'asset_params_get', 'app_params_get', 'acct_params_get', 'voter_params_get']);
const ENUM_NAME: Record<string, string> = { txn: 'TxnField', global: 'GlobalField', block: 'BlockField' };

function txnFieldByValue(raw: number) {
  return fieldByValue(opByName('txn', MAX_AVM_VERSION)!, raw) ?? fieldByValue(opByName('txna', MAX_AVM_VERSION)!, raw);
}

/** The node's message for a field immediate this version does not have (or the op cannot read). */
function invalidFieldMessage(name: string, raw: number, field: { name: string; version: number } | undefined, version: number): string {
  if (name === 'itxn_field') {
    // The node names the field when it knows it (e.g. a txn field not settable by itxn_field).
    const known = field ?? txnFieldByValue(raw);
    return `invalid itxn_field ${known ? known.name : raw}`;
  }
  if (TXN_FAMILY.test(name)) {
    const fs = txnFieldByValue(raw);
    if (!fs || fs.version > version) return `invalid txn field ${fs ? fs.name : `TxnField(${raw})`}`;
    const isArray = fieldByValue(opByName('txna', MAX_AVM_VERSION)!, raw) !== undefined;
    if (TXN_ARRAY_OPS.has(name) && !isArray) return `unsupported array field ${fs.name}`;
    return `invalid txn field ${fs.name}`;
  }
  if (NUMBERED.has(name)) return `invalid ${name} field ${raw}`;
  if (ENUM_NAME[name]) return `invalid ${name} field ${field ? field.name : `${ENUM_NAME[name]}(${raw})`}`;
  return `invalid ${name} field ${field ? field.name : raw}`;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}
