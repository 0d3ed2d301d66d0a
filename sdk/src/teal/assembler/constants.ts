/** Version thresholds and fixed opcode bytes the assembler's rules depend on. */

export {
  ASSEMBLER_DEFAULT_VERSION,
  ASSEMBLER_MAX_VERSION,
  BACK_BRANCH_VERSION,
  OFF_CURVE_VERSION,
  OPTIMIZE_CONSTANTS_VERSION,
  VARINT_BRANCH_VERSION,
} from '../spec/versions.js';
/** Marker for "no #pragma version seen and no statement yet". */
export const NO_VERSION = -1;
export const VARINT_PLACEHOLDER = 3;
export const SALT_SEARCH_LIMIT = 128;

export const OP_INTCBLOCK = 0x20;
export const OP_INTC = 0x21;
export const OP_INTC_0 = 0x22;
export const OP_BYTECBLOCK = 0x26;
export const OP_BYTEC = 0x27;
export const OP_BYTEC_0 = 0x28;
export const OP_PUSHBYTES = 0x80;
export const OP_PUSHINT = 0x81;
