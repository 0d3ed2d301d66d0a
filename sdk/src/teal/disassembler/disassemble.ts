import { programHashIsOnCurve } from '../oncurve.js';
import { decodeProgram, type DecodedInstruction, type DecodedProgram } from './decode.js';
import { describeBytes, hexLiteral } from './format.js';
import { methodSelector } from '../../abi/method.js';
import { toHex } from '../../encoding/hex.js';
import { bytesEqual } from '../../encoding/bytes.js';

export { OFF_CURVE_VERSION } from '../spec/versions.js';
import { OFF_CURVE_VERSION } from '../spec/versions.js';

/** Disassembly options: numeric branch targets instead of labels, strict target checks. */
export interface DisassembleOptions {
  /** Print absolute pcs instead of `labelN` names (not reassemblable; for reading). */
  numericTargets?: boolean;
  /**
   * Throw DisassembleError when a branch targets something other than an instruction start or the
   * program end (default true). With false such targets get a name but no `labelN:` line, as the
   * reference prints them — the text then does not reassemble.
   */
  strictTargets?: boolean;
  /**
   * ARC-4 method (or ARC-28 event) signatures known for this program, from its app spec or its
   * `method "…"` lines: a 4-byte constant equal to one's selector is commented `// method "sig"`
   * instead of with its own hex. Comments only: the text assembles to the same bytes. Without it
   * the text is the reference's.
   */
  methodSignatures?: Iterable<string>;
}

/** A disassembly: the text, version, pc-to-line map, labels, and the decoded program. */
export interface Disassembly {
  text: string;
  version: number;
  /** For every instruction, the 0-based line of `text` that shows it. */
  lines: { pc: number; line: number }[];
  /** Branch target pc → label name. */
  labels: Map<number, string>;
  /** True when `#pragma autosalt false` was printed (v13+ stateless program hashing on curve). */
  autosaltOff: boolean;
  decoded: DecodedProgram;
}

/** Bytes → TEAL text that reassembles to the same bytes. Throws DisassembleError for bad input. */
export function disassemble(program: Uint8Array, options: DisassembleOptions = {}): string {
  return disassembleDetailed(program, options).text;
}

/** Names branch targets `label1`, `label2`, … in order of first reference (a `proto` counts). */
function nameLabels(instructions: DecodedInstruction[]): Map<number, string> {
  const labels = new Map<number, string>();
  const name = (pc: number): void => {
    if (!labels.has(pc)) labels.set(pc, `label${labels.size + 1}`);
  };
  for (const ins of instructions) {
    // A subroutine entry must carry a label even when nothing calls it: the assembler only
    // accepts `proto` right after a label.
    if (ins.op.name === 'proto') name(ins.pc);
    for (const target of ins.targets) name(target);
  }
  return labels;
}

/** Disassembles program bytes and returns the text with its pc map, labels and decoded instructions. */
export function disassembleDetailed(program: Uint8Array, options: DisassembleOptions = {}): Disassembly {
  const decoded = decodeProgram(program, { checkTargets: options.strictTargets ?? true });
  const labels = nameLabels(decoded.instructions);
  const out: string[] = [`#pragma version ${decoded.version}`];
  const autosaltOff = decoded.version >= OFF_CURVE_VERSION && !decoded.hasStatefulOps && programHashIsOnCurve(program);
  if (autosaltOff) out.push('#pragma autosalt false');

  const constants: ConstantBlocks = { intc: [], bytec: [] };
  if (options.methodSignatures) constants.selectors = selectorNames(options.methodSignatures);
  const lines: { pc: number; line: number }[] = [];
  const targetName = (target: number): string => (options.numericTargets ? String(target) : labels.get(target)!);
  for (const ins of decoded.instructions) {
    const label = labels.get(ins.pc);
    if (label !== undefined && !options.numericTargets) out.push(`${label}:`);
    lines.push({ pc: ins.pc, line: out.length });
    out.push(formatInstruction(ins, constants, targetName));
  }
  const endLabel = labels.get(program.length);
  if (endLabel !== undefined && !options.numericTargets) out.push(`${endLabel}:`);
  return { text: out.join('\n') + '\n', version: decoded.version, lines, labels, autosaltOff, decoded };
}

/**
 * The disassembled lines around a failing pc as the node prints them after `opcodes=` in a logic
 * error's details: the instruction at `pc` and up to two before it, with the label lines that
 * follow each (up to the next instruction), joined by `; `. Empty when `pc` starts no instruction
 * (the program's end) or the program does not disassemble.
 */
export function failingOpcodes(program: Uint8Array, pc: number): string {
  const d = failureListing(program);
  if (!d) return '';
  const i = d.lines.findIndex((l) => l.pc === pc);
  if (i < 0) return '';
  const text = d.text;
  const from = d.lines[Math.max(0, i - 2)]!.line;
  const to = i + 1 < d.lines.length ? d.lines[i + 1]!.line : text.length;
  return text.slice(from, to).join('; ');
}

/**
 * A program's disassembly for {@link failingOpcodes}, kept per program array (a contract whose
 * calls fail again and again, as tests' expected failures do, is disassembled once). The bytes are
 * compared on each use, so an array changed in place is disassembled again.
 */
const LISTINGS = new WeakMap<Uint8Array, { bytes: Uint8Array; listing: { lines: Disassembly['lines']; text: string[] } | undefined }>();

function failureListing(program: Uint8Array): { lines: Disassembly['lines']; text: string[] } | undefined {
  const held = LISTINGS.get(program);
  if (held && bytesEqual(held.bytes, program)) return held.listing;
  let listing: { lines: Disassembly['lines']; text: string[] } | undefined;
  try {
    const d = disassembleDetailed(program);
    const text = d.text.split('\n');
    if (text[text.length - 1] === '') text.pop();
    listing = { lines: d.lines, text };
  } catch {
    listing = undefined;
  }
  LISTINGS.set(program, { bytes: program.slice(), listing });
  return listing;
}

/** The constant blocks seen so far (in byte order), for `intc`/`bytec` comments. */
export interface ConstantBlocks {
  intc: bigint[];
  bytec: Uint8Array[];
  /** Selector (hex) → method signature, for comments on 4-byte constants. */
  selectors?: ReadonlyMap<string, string>;
}

/** Selector hex → signature (the first signature wins when two share a selector). */
function selectorNames(signatures: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const sig of signatures) {
    const hex = toHex(methodSelector(sig));
    if (!out.has(hex)) out.set(hex, sig);
  }
  return out;
}

/** A byte constant's comment text: its method when it is a known selector, else the reference's. */
function bytesComment(v: Uint8Array, constants: ConstantBlocks): string {
  const sig = v.length === 4 ? constants.selectors?.get(toHex(v)) : undefined;
  return sig !== undefined ? `method ${JSON.stringify(sig)}` : describeBytes(v);
}

function constantComment(opName: string, index: number, constants: ConstantBlocks): string {
  if (opName === 'intc' || opName.startsWith('intc_')) {
    const v = constants.intc[index];
    return v === undefined ? '' : ` // ${v}`;
  }
  if (opName === 'bytec' || opName.startsWith('bytec_')) {
    const v = constants.bytec[index];
    return v === undefined ? '' : ` // ${bytesComment(v, constants)}`;
  }
  return '';
}

/** One instruction in the reference's text form. Updates `constants` on a cblock. */
export function formatInstruction(ins: DecodedInstruction, constants: ConstantBlocks, targetName: (pc: number) => string): string {
  const name = ins.op.name;
  let out = name;
  for (const imm of ins.immediates) {
    out += ' ';
    switch (imm.encoding) {
      case 'uint8':
        out += imm.field ? imm.field.name : String(imm.value);
        out += constantComment(name, imm.value, constants);
        break;
      case 'int8':
        out += String(imm.value);
        break;
      case 'varuint':
        out += imm.value.toString();
        break;
      case 'bytes':
        out += `${hexLiteral(imm.value)} // ${bytesComment(imm.value, constants)}`;
        break;
      case 'uints':
        if (name === 'intcblock') constants.intc = imm.values;
        out += imm.values.join(' ');
        break;
      case 'bytesList':
        if (name === 'bytecblock') constants.bytec = imm.values;
        out += imm.values.map(hexLiteral).join(' ');
        // A router's selectors pushed at once (`pushbytess` before `match`): name the known ones.
        if (name === 'pushbytess' && constants.selectors && imm.values.some((v) => v.length === 4 && constants.selectors!.has(toHex(v)))) {
          out += ` // ${imm.values.map((v) => bytesComment(v, constants)).join(', ')}`;
        }
        break;
      case 'label':
      case 'varintLabel':
        out += targetName(imm.target);
        break;
      case 'labels':
        out += imm.targets.map(targetName).join(' ');
        break;
    }
  }
  const shortForm = /^(intc|bytec)_(\d)$/.exec(name);
  if (shortForm) out += constantComment(name, Number(shortForm[2]), constants);
  return out;
}
