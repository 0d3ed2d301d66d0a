/** Version thresholds and fixed opcode bytes the assembler's rules depend on. */

/** Newest version `#pragma version` accepts (the reference's LogicVersion; v14 assembles with the v13 table). */
export const ASSEMBLER_MAX_VERSION = 14;
/** The version assumed for a program without `#pragma version`. */
export const ASSEMBLER_DEFAULT_VERSION = 1;
/** Marker for "no #pragma version seen and no statement yet". */
export const NO_VERSION = -1;
export const OPTIMIZE_CONSTANTS_VERSION = 4;
export const BACK_BRANCH_VERSION = 4;
export const VARINT_BRANCH_VERSION = 13;
export const OFF_CURVE_VERSION = 13;
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
