/**
 * How each op's immediates become bytes: the default encoder (uint8 / int8 / named fields) and the
 * special cases (literal pseudo-ops, constant blocks, branches, switch/match, itxn_field, …), with
 * the reference's error texts and the token each error is blamed on.
 */
import type { AssemblerContext as Assembler } from './context.js';
import { ASSEMBLER_MAX_VERSION, BACK_BRANCH_VERSION, OP_PUSHBYTES, OP_PUSHINT, VARINT_BRANCH_VERSION, VARINT_PLACEHOLDER } from './constants.js';
import { sha512_256 } from '../../crypto/hash.js';
import { encodeAddress } from '../../encoding/address.js';
import { goQuote, parseInt64, parseUint, parseUintDetailed, parseUintErrorText } from './goparse.js';
import { BinaryArgError, decodeBase32NoPad, parseBinaryArgs, parseStringLiteral, LiteralError } from './literals.js';
import { checkMethodSignature } from './method-signature.js';
import { ON_COMPLETION_CONSTANTS, TXN_TYPE_CONSTANTS } from './macros.js';
import { appParamsFieldNames, asmOp, txnFieldType, type AsmOp } from './optable.js';
import { isTyped, sameType, StackAny, StackBytes, StackUint64, type StackType, typeByName } from './stacktypes.js';
import type { Token } from './tokenizer.js';

export type AsmFn = (a: Assembler, spec: AsmOp, mnemonic: Token, args: Token[]) => void;

export const PSEUDO_TABLE: Record<string, Record<number, string>> = {
  txn: { 1: 'txn', 2: 'txna' },
  gtxn: { 2: 'gtxn', 3: 'gtxna' },
  gtxns: { 1: 'gtxns', 2: 'gtxnsa' },
  extract: { 0: 'extract3', 2: 'extract' },
  replace: { 0: 'replace3', 1: 'replace2' },
};
export const LITERAL_PSEUDOS = new Set(['int', 'byte', 'addr', 'method']);

export const DEADENING = new Set(['b', 'callsub', 'retsub', 'err', 'return']);

export function joinIntsOnOr(term: string, list: number[]): string {
  if (list.length === 1) {
    const n = list[0]!;
    return n === 0 ? `no ${term}s` : n === 1 ? `1 ${term}` : `${n} ${term}s`;
  }
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.join(' or ') + ` ${term}s`;
}

/** A literal pseudo-op's spec: no opcode of its own, no stack arguments, one value pushed. */
function literalSpec(name: string, pushes: StackType): AsmOp {
  return { name, real: name, opcode: -1, prefix: undefined, size: 0, modes: 3, introduced: 0, args: [], returns: [pushes], immediates: [], spec: undefined };
}

export const PSEUDO_LITERAL_SPECS: Record<string, AsmOp> = {
  int: literalSpec('int', StackUint64),
  byte: literalSpec('byte', StackBytes),
  addr: literalSpec('addr', StackBytes),
  method: literalSpec('method', StackBytes),
};

const pseudoSpecs = new Map<string, AsmOp>();

/** The real op a pseudo-op stands for, under the pseudo-op's name (messages use it). */
export function pseudoSpec(name: string, real: string, version: number): AsmOp {
  const key = `${name} ${real} ${version}`;
  let spec = pseudoSpecs.get(key);
  if (!spec) {
    const op = asmOp(real, version) ?? asmOp(real, ASSEMBLER_MAX_VERSION)!;
    spec = { ...op, name };
    pseudoSpecs.set(key, spec);
  }
  return spec;
}

export function mergeProtos(specs: AsmOp[]): { args: StackType[]; returns: StackType[]; introduced: number } | undefined {
  let args: StackType[] = [];
  let returns: StackType[] = [];
  let introduced = 0;
  specs.forEach((s, i) => {
    if (i === 0) {
      args = [...s.args];
      returns = [...s.returns];
      introduced = s.introduced;
      return;
    }
    introduced = Math.min(introduced, s.introduced);
    if (args.length !== s.args.length || returns.length !== s.returns.length) {
      args = undefined as unknown as StackType[];
      return;
    }
    args = args.map((a, j) => (sameType(a, s.args[j]!) ? a : StackAny));
    returns = returns.map((r, j) => (sameType(r, s.returns[j]!) ? r : StackAny));
  });
  return args ? { args, returns, introduced } : undefined;
}

function checkArgCount(a: Assembler, name: string, mnemonic: Token, args: Token[], expected: number): boolean {
  const offered = args.length;
  if (offered === expected) return true;
  const msg = expected === 1 ? `${name} expects 1 immediate argument` : `${name} expects ${expected} immediate arguments`;
  if (offered > expected) a.error(args[expected], msg, 'immediates');
  else a.errorAfter(offered === 0 ? mnemonic : args[offered - 1]!, msg, 'immediates');
  return false;
}

function byteImm(value: string, label: string): number | string {
  const r = parseUintDetailed(value);
  if (typeof r !== 'bigint') return `unable to parse ${label} ${goQuote(value)} as integer`;
  if (r > 255n) return `${label} beyond 255: ${r}`;
  return Number(r);
}

function writeOpcode(a: Assembler, spec: AsmOp): void {
  if (spec.prefix !== undefined) {
    a.pending.byte(spec.prefix);
    a.pending.byte(spec.opcode);
  } else a.pending.byte(spec.opcode);
}

export const asmDefault: AsmFn = (a, spec, mnemonic, args) => {
  if (!checkArgCount(a, spec.name, mnemonic, args, spec.immediates.length)) return;
  writeOpcode(a, spec);
  const pseudo = Object.hasOwn(PSEUDO_TABLE, spec.name) ? PSEUDO_TABLE[spec.name] : undefined;
  for (let i = 0; i < spec.immediates.length; i++) {
    const imm = spec.immediates[i]!;
    const arg = args[i]!;
    if (imm.encoding === 'int8') {
      const v = parseInt64(arg.str, 10, 8);
      if (v === undefined) return a.error(arg, `${spec.name} unable to parse ${imm.name} ${goQuote(arg.str)} as int8`);
      a.pending.byte(Number(v) & 0xff);
      continue;
    }
    if (imm.fields) {
      const fs = imm.fields.get(arg.str);
      if (!fs) {
        if (typeof byteImm(arg.str, '') === 'number') {
          const correct: string[] = [];
          spec.immediates.forEach((o, j) => {
            if (o.encoding === 'uint8' && !o.fields) correct.push(String(j + 1));
          });
          if (correct.length > 0) {
            const who = pseudo ? `${spec.name} with ${joinIntsOnOr('immediate', [args.length])}` : spec.name;
            return a.error(arg, `${who} can only use ${goQuote(arg.str)} as immediate ${correct.join(' or ')}`);
          }
        }
        if (pseudo) {
          const counts: number[] = [];
          for (const [n, real] of Object.entries(pseudo)) {
            const op = asmOp(real, a.version) ?? asmOp(real, ASSEMBLER_MAX_VERSION);
            for (const pi of op?.immediates ?? []) if (pi.fields?.has(arg.str)) counts.push(Number(n));
          }
          if (counts.length > 0) return a.error(arg, `${goQuote(arg.str)} field of ${spec.name} can only be used with ${joinIntsOnOr('immediate', counts)}`);
        }
        return a.error(arg, `${spec.name} unknown field: ${goQuote(arg.str)}`);
      }
      if (fs.modes !== 3) a.fieldModes |= fs.modes;
      const ft = fieldStackType(fs.type);
      if (ft && isTyped(ft)) a.refineReturn(spec, ft);
      if (fs.version > Math.max(1, a.version))
        return a.error(arg, `${spec.name} ${arg.str} field was introduced in v${fs.version}. Missed #pragma version?`, 'version');
      a.pending.byte(fs.value);
      continue;
    }
    const v = byteImm(arg.str, imm.name);
    if (typeof v === 'string') {
      if (v.includes('unable to parse')) {
        const correct: string[] = [];
        spec.immediates.forEach((o, j) => {
          if (o.encoding === 'uint8' && o.fields?.has(arg.str)) correct.push(String(j + 1));
        });
        if (correct.length > 0) {
          const who = pseudo ? `${spec.name} with ${joinIntsOnOr('immediate', [args.length])}` : spec.name;
          return a.error(arg, `${who} can only use ${goQuote(arg.str)} as immediate ${correct.join(' or ')}`);
        }
      }
      return a.error(arg, `${spec.name} ${v}`);
    }
    a.pending.byte(v);
  }
};

let fieldTypeCache: Map<string, StackType> | undefined;
function fieldStackType(name: string): StackType | undefined {
  fieldTypeCache ??= new Map();
  let t = fieldTypeCache.get(name);
  if (!t) {
    t = name === 'any' ? StackAny : typeByName(name);
    fieldTypeCache.set(name, t);
  }
  return t;
}

function asmPushIntWith(a: Assembler, mnemonic: Token, args: Token[]): void {
  if (!checkArgCount(a, 'pushint', mnemonic, args, 1)) return;
  const v = parseUint(args[0]!.str);
  if (v === undefined) return a.error(args[0], `unable to parse ${goQuote(args[0]!.str)} as integer`);
  a.pending.byte(OP_PUSHINT);
  a.pending.uvarint(v);
}

function asmPushBytesWith(a: Assembler, mnemonic: Token, args: Token[]): void {
  if (args.length === 0) return a.errorAfter(mnemonic, `${mnemonic.str} needs byte literal argument`);
  let parsed;
  try {
    parsed = parseBinaryArgs(args.map((t) => t.str));
  } catch (e) {
    if (e instanceof BinaryArgError) return a.error(args[e.argIndex], `${mnemonic.str} ${e.message}`);
    throw e;
  }
  if (args.length !== parsed.consumed) return a.error(args[parsed.consumed], `${mnemonic.str} with extraneous argument`);
  if (parsed.value.length > 4096) return a.error(args[0], `${mnemonic.str} value is too big (${parsed.value.length} bytes, limit 4096)`);
  a.pending.byte(OP_PUSHBYTES);
  a.pending.uvarint(parsed.value.length);
  a.pending.bytes(parsed.value);
}

function intImmArgs(a: Assembler, args: Token[]): bigint[] {
  a.pending.uvarint(args.length);
  return args.map((t) => {
    const r = parseUintDetailed(t.str);
    let v = 0n;
    if (typeof r === 'bigint') v = r;
    else {
      a.error(t, parseUintErrorText(t.str, r));
      if (r === 'range') v = (1n << 64n) - 1n;
    }
    a.pending.uvarint(v);
    return v;
  });
}

function byteImmArgs(a: Assembler, name: string, args: Token[]): Uint8Array[] | undefined {
  const vals: Uint8Array[] = [];
  let rest = args;
  while (rest.length > 0) {
    let parsed;
    try {
      parsed = parseBinaryArgs(rest.map((t) => t.str));
    } catch (e) {
      if (e instanceof BinaryArgError) {
        a.error(rest[0], `${name} ${e.message}`);
        return undefined;
      }
      throw e;
    }
    if (parsed.value.length > 4096) {
      a.error(rest[0], `${name} arg ${vals.length} is too big (${parsed.value.length} bytes, limit 4096)`);
      return undefined;
    }
    vals.push(parsed.value);
    rest = rest.slice(parsed.consumed);
  }
  a.pending.uvarint(vals.length);
  for (const v of vals) {
    a.pending.uvarint(v.length);
    a.pending.bytes(v);
  }
  return vals;
}

function asmBranch(a: Assembler, spec: AsmOp, mnemonic: Token, args: Token[]): void {
  if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
  const at = a.pending.length;
  if (a.version >= VARINT_BRANCH_VERSION) {
    a.referLabel(at + 1, args[0]!, at + 1 + VARINT_PLACEHOLDER, true);
    a.pending.byte(spec.opcode);
    for (let i = 0; i < VARINT_PLACEHOLDER; i++) a.pending.byte(0);
  } else {
    a.referLabel(at + 1, args[0]!, at + 3, false);
    a.pending.byte(spec.opcode);
    a.pending.byte(0);
    a.pending.byte(0);
  }
}

export const ASM: Record<string, AsmFn> = {
  int(a, _spec, mnemonic, args) {
    if (!checkArgCount(a, 'int', mnemonic, args, 1)) return;
    const arg = args[0]!;
    if (a.cntIntcBlock > 0 && a.version >= BACK_BRANCH_VERSION) {
      a.warn(arg, `int ${arg.str} used with explicit intcblock. must pushint`);
      return asmPushIntWith(a, mnemonic, args);
    }
    if (a.cntIntcBlock > 1) {
      if (asmOp('pushint', a.version)) return asmPushIntWith(a, mnemonic, args);
      return a.error(mnemonic, `int ${arg.str} used with manual intcblocks. Use intc.`);
    }
    const v = TXN_TYPE_CONSTANTS.get(arg.str) ?? ON_COMPLETION_CONSTANTS.get(arg.str) ?? parseUint(arg.str);
    if (v === undefined) return a.error(arg, `unable to parse ${goQuote(arg.str)} as integer`);
    a.intLiteral(v, arg);
  },
  byte(a, spec, mnemonic, args) {
    if (args.length === 0) return a.errorAfter(mnemonic, `${spec.name} needs byte literal argument`);
    if (a.cntBytecBlock > 0 && a.version >= BACK_BRANCH_VERSION) {
      a.warn(args[0], `byte ${args[0]!.str} used with explicit bytecblock. must pushbytes`);
      return asmPushBytesWith(a, mnemonic, args);
    }
    if (a.cntBytecBlock > 1) {
      if (asmOp('pushbytes', a.version)) return asmPushBytesWith(a, mnemonic, args);
      return a.error(args[0], `byte ${args[0]!.str} used with manual bytecblocks. Use bytec.`);
    }
    let parsed;
    try {
      parsed = parseBinaryArgs(args.map((t) => t.str));
    } catch (e) {
      if (e instanceof BinaryArgError) return a.error(args[e.argIndex], `${spec.name} ${e.message}`);
      throw e;
    }
    if (args.length !== parsed.consumed) return a.error(args[parsed.consumed], `${spec.name} with extraneous argument`);
    if (parsed.value.length > 4096) return a.error(args[0], `${spec.name} value is too big (${parsed.value.length} bytes, limit 4096)`);
    a.byteLiteral(parsed.value, args[0]!);
  },
  addr(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const text = args[0]!.str;
    const decoded = decodeBase32NoPad(text);
    if (!decoded) return a.error(args[0], `failed to decode address ${text} from base 32`);
    if (decoded.length < 32) return a.error(args[0], `decoded bad addr: ${text}`);
    const pk = decoded.slice(0, 32);
    const sum = sha512_256(pk).subarray(28);
    const incoming = decoded.subarray(decoded.length - 4);
    if (incoming.length !== 4 || incoming.some((b, i) => b !== sum[i])) return a.error(args[0], `address ${text} is malformed, checksum verification failed`);
    if (encodeAddress(pk) !== text) return a.error(args[0], `address ${text} is non-canonical`);
    a.byteLiteral(pk, args[0]!);
  },
  method(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const arg = args[0]!.str;
    if (arg.length > 1 && arg[0] === '"' && arg[arg.length - 1] === '"') {
      let sig: Uint8Array;
      try {
        sig = parseStringLiteral(arg);
      } catch (e) {
        if (e instanceof LiteralError) return a.error(args[0], e.message);
        throw e;
      }
      const problem = checkMethodSignature(new TextDecoder().decode(sig));
      if (problem) a.warn(args[0], `invalid ARC-4 ABI method signature for method op: ${problem}`);
      a.byteLiteral(sha512_256(sig).slice(0, 4), args[0]!);
      return;
    }
    a.error(args[0], 'unable to parse method signature');
  },
  intcblock(a, spec, mnemonic, args) {
    a.pending.byte(spec.opcode);
    const vals = intImmArgs(a, args);
    if (!a.known.deadcode) {
      if (a.hasPseudoInt) return a.error(mnemonic, 'intcblock following int');
      a.intcRefs = [];
      a.setIntc(vals);
      a.cntIntcBlock++;
    }
  },
  bytecblock(a, spec, mnemonic, args) {
    a.pending.byte(spec.opcode);
    const vals = byteImmArgs(a, spec.name, args);
    if (!vals) return;
    if (!a.known.deadcode) {
      if (a.hasPseudoByte) return a.error(mnemonic, 'bytecblock following byte/addr/method');
      a.bytecRefs = [];
      a.setBytec(vals);
      a.cntBytecBlock++;
    }
  },
  intc(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const v = byteImm(args[0]!.str, 'constant');
    if (typeof v === 'string') return a.error(args[0], v);
    a.writeIntc(v, args[0]!);
  },
  bytec(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const v = byteImm(args[0]!.str, 'constant');
    if (typeof v === 'string') return a.error(args[0], v);
    a.writeBytec(v, args[0]!);
  },
  arg(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const v = byteImm(args[0]!.str, 'argument');
    if (typeof v === 'string') return a.error(args[0], v);
    if (v < 4) {
      const alt = asmOp(`arg_${v}`, a.version)!;
      return asmDefault(a, alt, mnemonic, []);
    }
    asmDefault(a, spec, mnemonic, args);
  },
  pushint(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const v = parseUint(args[0]!.str);
    if (v === undefined) return a.error(args[0], `unable to parse ${goQuote(args[0]!.str)} as integer`);
    a.pending.byte(spec.opcode);
    a.pending.uvarint(v);
  },
  pushbytes(a, _spec, mnemonic, args) {
    asmPushBytesWith(a, mnemonic, args);
  },
  pushints(a, spec, _mnemonic, args) {
    a.pending.byte(spec.opcode);
    intImmArgs(a, args);
  },
  pushbytess(a, spec, _mnemonic, args) {
    a.pending.byte(spec.opcode);
    byteImmArgs(a, spec.name, args);
  },
  bnz: asmBranch,
  bz: asmBranch,
  b: asmBranch,
  callsub: asmBranch,
  switch: asmSwitch,
  match: asmSwitch,
  substring(a, spec, mnemonic, args) {
    const before = a.errors.length;
    asmDefault(a, spec, mnemonic, args);
    if (a.errors.length !== before) return;
    const s = parseUint(args[0]!.str) ?? 0n;
    const e = parseUint(args[1]!.str) ?? 0n;
    if (e < s) a.error(args[0], 'substring end is before start');
  },
  itxn(a, spec, mnemonic, args) {
    if (args.length === 1) return asmDefault(a, spec, mnemonic, args);
    if (args.length === 2) return asmDefault(a, asmOp('itxna', a.version)!, mnemonic, args);
    a.error(mnemonic, `${spec.name} expects 1 or 2 immediate arguments`, 'immediates');
  },
  gitxn(a, spec, mnemonic, args) {
    if (args.length === 2) return asmDefault(a, spec, mnemonic, args);
    if (args.length === 3) return asmDefault(a, asmOp('gitxna', a.version)!, mnemonic, args);
    a.error(mnemonic, `${spec.name} expects 2 or 3 immediate arguments`, 'immediates');
  },
  itxn_field(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const name = args[0]!.str;
    const fs = spec.immediates[0]!.fields!.get(name);
    if (!fs) {
      if (txnFieldType(name)) return a.error(args[0], `${spec.name} ${goQuote(name)} is not allowed.`);
      return a.error(args[0], `${spec.name} unknown field: ${goQuote(name)}`);
    }
    if (fs.version > a.version) return a.error(args[0], `${spec.name} ${name} field was introduced in v${fs.version}. Missed #pragma version?`, 'version');
    a.pending.byte(spec.opcode);
    a.pending.byte(fs.value);
  },
  app_params_set(a, spec, mnemonic, args) {
    if (!checkArgCount(a, spec.name, mnemonic, args, 1)) return;
    const name = args[0]!.str;
    const fs = spec.immediates[0]!.fields!.get(name);
    if (!fs) {
      if (appParamsFieldNames().has(name)) return a.error(args[0], `${spec.name} ${goQuote(name)} is not settable.`);
      return a.error(args[0], `${spec.name} unknown field: ${goQuote(name)}`);
    }
    if (fs.version > a.version) return a.error(args[0], `${spec.name} ${name} field is settable in v${fs.version}. Missed #pragma version?`, 'version');
    a.pending.byte(spec.opcode);
    a.pending.byte(fs.value);
  },
  '(mock)'() {
    /* a pseudo-op with the wrong number of immediates: already reported, only typed */
  },
};

function asmSwitch(a: Assembler, spec: AsmOp, _mnemonic: Token, args: Token[]): void {
  if (args.length > 255) return a.error(args[255], `${spec.name} cannot take more than 255 labels`);
  a.pending.byte(spec.opcode);
  a.pending.byte(args.length);
  const end = a.pending.length + 2 * args.length;
  for (const arg of args) {
    a.referLabel(a.pending.length, arg, end, false);
    a.pending.byte(0);
    a.pending.byte(0);
  }
}
