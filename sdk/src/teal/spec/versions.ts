/**
 * Every AVM version fact in one place: the version range the toolchain knows and each version at
 * which a rule changed. The assembler, disassembler, interpreter and ledger read their gates from
 * here; the range itself comes from the opcode table generated from the language spec files.
 */
import { LANGSPEC_MAX_VERSION } from './opcodes.generated.js';

/** The newest AVM version the toolchain assembles and runs (consensus V42): the opcode table's. */
export const MAX_AVM_VERSION = LANGSPEC_MAX_VERSION;

/**
 * Newest version `#pragma version` accepts and the disassembler decodes: the reference node's
 * LogicVersion, one past the newest language spec (its opcodes are the newest spec's).
 */
export const ASSEMBLER_MAX_VERSION = MAX_AVM_VERSION + 1;

/** The version assumed for a program without `#pragma version`. */
export const ASSEMBLER_DEFAULT_VERSION = 1;

/** Branch targets may lie beyond the program's end (pc == length is a clean exit) from here on. */
export const BRANCH_TO_END_VERSION = 2;

/** Back branches, dynamic opcode costs and subroutines begin here. */
export const BACK_BRANCH_VERSION = 4;

/** Constant blocks are optimised by the assembler (most-used first) from here on. */
export const OPTIMIZE_CONSTANTS_VERSION = 4;

/** Accounts, assets and apps may be named directly (not only by foreign-array index) from here. */
export const DIRECT_REF_VERSION = 4;

/** Resources created earlier in the group are available from here on. */
export const CREATED_RESOURCES_VERSION = 6;

/** An app's own account address is available without being listed from here on. */
export const APP_ADDRESS_AVAILABLE_VERSION = 7;

/** Resources are shared across the group's transactions from here on. */
export const SHARED_RESOURCES_VERSION = 9;

/** Branch offsets in `switch`/`match`-style varint encodings begin here. */
export const VARINT_BRANCH_VERSION = 13;

/** First version whose logic-signature program hash must be off the Ed25519 curve. */
export const OFF_CURVE_VERSION = 13;
