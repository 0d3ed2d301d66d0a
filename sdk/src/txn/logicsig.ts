import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import { concatBytes, utf8 } from '../encoding/bytes.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { hashWithPrefix } from '../crypto/hash.js';
import { SigningError, TxnValidationError } from './errors.js';
import { addMultisigSignature, multisigAddress, multisigAddressOf, verifyMultisig, type MultisigMetadata } from './multisig.js';
import type { Ed25519Signer } from './sign.js';
import type { LogicSig, SignedTransaction, Transaction } from './types.js';

const PROGRAM = utf8('Program');
const MSIG_PROGRAM = utf8('MsigProgram');

/** The escrow account of a program: `sha512_256("Program" || program)`. */
export function logicSigAddress(program: Uint8Array): Address {
  return new Address(hashWithPrefix('Program', program));
}

/** A logic signature of a program and its arguments (not delegated). */
export function makeLogicSig(program: Uint8Array, args: readonly Uint8Array[] = []): LogicSig {
  if (!(program instanceof Uint8Array) || program.length === 0) throw new TxnValidationError('lsig.program', 'program is empty', { value: 0 });
  return { program, args: [...args] };
}

/** Delegates the program to a single account: that key signs `"Program" || program`. */
export function delegateLogicSig(lsig: LogicSig, signer: Ed25519Signer): LogicSig {
  if (lsig.msig || lsig.lmsig) throw new SigningError('logic signature is already delegated by a multisig');
  return { ...lsig, sig: signer.sign(concatBytes(PROGRAM, lsig.program)) };
}

/** Message each multisig member signs to delegate (V41+ `lmsig`). */
export function multisigProgramMessage(msigAddr: Address, program: Uint8Array): Uint8Array {
  return concatBytes(MSIG_PROGRAM, msigAddr.publicKey, program);
}

/** Adds a multisig member's delegation signature (`lmsig`), starting the structure if needed. */
export function delegateLogicSigMultisig(lsig: LogicSig, meta: MultisigMetadata, signer: Ed25519Signer): LogicSig {
  if (lsig.sig) throw new SigningError('logic signature is already delegated by a single key');
  if (lsig.msig) throw new SigningError('logic signature carries a legacy msig delegation; lmsig cannot be added to it');
  const addr = multisigAddress(meta);
  const base = lsig.lmsig ?? { version: meta.version, threshold: meta.threshold, subsigs: meta.addrs.map((a) => ({ publicKey: addressBytes(a) })) };
  if (!multisigAddressOf(base).equals(addr)) throw new SigningError('logic signature is delegated by a different multisig account');
  return { ...lsig, lmsig: addMultisigSignature(base, multisigProgramMessage(addr, lsig.program), signer) };
}

/** The account a logic signature authorizes: the delegating key/multisig, else the program's escrow. */
export function logicSigAuthorizer(lsig: LogicSig, delegator?: AddressLike): Address {
  if (lsig.lmsig) return multisigAddressOf(lsig.lmsig);
  if (lsig.msig) return multisigAddressOf(lsig.msig);
  if (lsig.sig) {
    if (delegator === undefined) throw new SigningError('a single-key delegated logic signature needs the delegating address');
    return new Address(addressBytes(delegator));
  }
  return logicSigAddress(lsig.program);
}

/** Checks the delegation signature(s) of `lsig` for the account `authorizer`. Escrow lsigs verify trivially. */
export function verifyLogicSig(lsig: LogicSig, authorizer: Address): boolean {
  if (lsig.sig) return ed25519Verify(authorizer.publicKey, concatBytes(PROGRAM, lsig.program), lsig.sig);
  if (lsig.lmsig) return verifyMultisig(lsig.lmsig, multisigProgramMessage(authorizer, lsig.program), authorizer);
  if (lsig.msig) return verifyMultisig(lsig.msig, concatBytes(PROGRAM, lsig.program), authorizer);
  return logicSigAddress(lsig.program).equals(authorizer);
}

/**
 * Attaches a logic signature. For single-key delegation the delegator defaults to the sender.
 * `sgnr` is set when the authorizing account is not the sender.
 */
export function signLogicSigTransaction(txn: Transaction, lsig: LogicSig, delegator?: AddressLike): SignedTransaction {
  const authorizer = logicSigAuthorizer(lsig, lsig.sig ? (delegator ?? txn.sender) : delegator);
  if (!verifyLogicSig(lsig, authorizer)) throw new SigningError(`logic signature does not verify for ${authorizer.toString()}`);
  const stxn: SignedTransaction = { txn, lsig };
  if (!txn.sender.equals(authorizer)) stxn.authAddress = authorizer;
  return stxn;
}

const PROG_DATA = utf8('ProgData');

function programHash(programOrAddress: Uint8Array | Address | string): Uint8Array {
  // Bytes are always a program; an escrow address is passed as an Address or its text.
  if (programOrAddress instanceof Uint8Array) return hashWithPrefix('Program', programOrAddress);
  return addressBytes(programOrAddress);
}

/**
 * Signs data for `ed25519verify`: the signature covers `"ProgData" || programHash || data`.
 * Pass the program bytes, or its escrow address (Address or its 58-character text).
 */
export function tealSign(signer: Ed25519Signer, data: Uint8Array, programOrAddress: Uint8Array | Address | string): Uint8Array {
  return signer.sign(concatBytes(PROG_DATA, programHash(programOrAddress), data));
}

/** Checks a signature made with `tealSign` for a program (or its address). */
export function tealSignVerify(publicKey: Uint8Array, data: Uint8Array, programOrAddress: Uint8Array | Address | string, signature: Uint8Array): boolean {
  return ed25519Verify(publicKey, concatBytes(PROG_DATA, programHash(programOrAddress), data), signature);
}
