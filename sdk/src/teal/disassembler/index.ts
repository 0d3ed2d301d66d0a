export {
  decodeProgram,
  decodeInstruction,
  readProgramVersion,
  checkBranchTargets,
  DISASSEMBLER_MAX_VERSION,
  type DecodedImmediate,
  type DecodedInstruction,
  type DecodedProgram,
  type DecodeOptions as ProgramDecodeOptions,
} from './decode.js';
export {
  disassemble,
  disassembleDetailed,
  failingOpcodes,
  formatInstruction,
  OFF_CURVE_VERSION,
  type DisassembleOptions,
  type Disassembly,
  type ConstantBlocks,
} from './disassemble.js';
export { describeBytes } from './format.js';
export { readUvarint, readVarint, encodeUvarint, encodeVarint } from './varint.js';
