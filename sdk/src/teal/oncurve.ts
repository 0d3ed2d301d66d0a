import { hashWithPrefix } from '../crypto/hash.js';
import { isEdwards25519Point } from './assembler/curve.js';

/*
 * From v13 the chain refuses escrow LogicSigs whose program hash is a valid Edwards25519 point
 * encoding (such an "address" could also be a real public key). The assembler salts programs to
 * move them off the curve; the disassembler must say `#pragma autosalt false` when it prints a
 * program that is still on it, or reassembly would add a salt. Both use the assembler's point test.
 */

/** True when sha512_256("Program" || program) decodes as an Edwards25519 point. */
export function programHashIsOnCurve(program: Uint8Array): boolean {
  return isEdwards25519Point(hashWithPrefix('Program', program));
}
