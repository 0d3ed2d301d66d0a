import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import { bytesEqual, utf8 } from '../encoding/bytes.js';
import { encodeMsgpackWithPrefix } from '../encoding/msgpack.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { hashWithPrefix } from '../crypto/hash.js';
import { TX_PREFIX, txid } from './encode.js';
import { SigningError, TxnValidationError } from './errors.js';
import type { Ed25519Signer } from './sign.js';
import type { MultisigSig, SignedTransaction, Transaction } from './types.js';
import { transactionToWire } from './wire.js';

/** The account a multisig address stands for: version 1, a threshold, and the ordered keys. */
export interface MultisigMetadata {
  version: number;
  threshold: number;
  addrs: readonly AddressLike[];
}

function checkMetadata(meta: MultisigMetadata): Uint8Array[] {
  if (meta.version !== 1)
    throw new TxnValidationError('multisig.version', `unsupported multisig version ${meta.version} (only 1 exists)`, { value: meta.version, limit: 1 });
  const keys = meta.addrs.map((a, i) => {
    try {
      return addressBytes(a);
    } catch (e) {
      throw new TxnValidationError(`multisig.addrs[${i}]`, (e as Error).message, { value: a });
    }
  });
  if (keys.length === 0 || keys.length > 255)
    throw new TxnValidationError('multisig.addrs', `needs 1..255 keys, got ${keys.length}`, { value: keys.length, limit: 255 });
  if (!Number.isInteger(meta.threshold) || meta.threshold < 1 || meta.threshold > keys.length) {
    throw new TxnValidationError('multisig.threshold', `threshold ${meta.threshold} must be between 1 and the number of keys (${keys.length})`, {
      value: meta.threshold,
      limit: keys.length,
    });
  }
  return keys;
}

function addressFromKeys(version: number, threshold: number, keys: readonly Uint8Array[]): Address {
  const pre = new Uint8Array(2 + 32 * keys.length);
  pre[0] = version;
  pre[1] = threshold;
  keys.forEach((k, i) => pre.set(k, 2 + 32 * i));
  return new Address(hashWithPrefix('MultisigAddr', pre));
}

/** `sha512_256("MultisigAddr" || version || threshold || pk₁ … pkₙ)`. */
export function multisigAddress(meta: MultisigMetadata): Address {
  return addressFromKeys(meta.version, meta.threshold, checkMetadata(meta));
}

/** The multisig address a signature structure commits to. */
export function multisigAddressOf(msig: MultisigSig): Address {
  return addressFromKeys(
    msig.version,
    msig.threshold,
    msig.subsigs.map((s) => s.publicKey),
  );
}

function emptyMultisig(meta: MultisigMetadata): MultisigSig {
  const keys = checkMetadata(meta);
  return { version: meta.version, threshold: meta.threshold, subsigs: keys.map((publicKey) => ({ publicKey })) };
}

/** Adds `signer`'s signature over `message` at every position holding its key. */
export function addMultisigSignature(msig: MultisigSig, message: Uint8Array, signer: Ed25519Signer): MultisigSig {
  let found = false;
  let sig: Uint8Array | undefined;
  const subsigs = msig.subsigs.map((s) => {
    if (!bytesEqual(s.publicKey, signer.publicKey)) return s;
    found = true;
    sig ??= signer.sign(message);
    return { publicKey: s.publicKey, signature: sig };
  });
  if (!found) throw new SigningError(`key ${new Address(signer.publicKey).toString()} is not one of the multisig's keys`);
  return { ...msig, subsigs };
}

function authFor(txn: Transaction, msigAddr: Address): Address | undefined {
  return txn.sender.equals(msigAddr) ? undefined : msigAddr;
}

/** Starts a multisig-signed transaction carrying one signature. */
export function signMultisigTransaction(txn: Transaction, meta: MultisigMetadata, signer: Ed25519Signer): SignedTransaction {
  const msig = addMultisigSignature(emptyMultisig(meta), encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(txn)), signer);
  const stxn: SignedTransaction = { txn, msig };
  const auth = authFor(txn, multisigAddressOf(msig));
  if (auth) stxn.authAddress = auth;
  return stxn;
}

/** Adds another signer to a partially signed multisig transaction. */
export function appendSignMultisigTransaction(stxn: SignedTransaction, meta: MultisigMetadata, signer: Ed25519Signer): SignedTransaction {
  const expected = multisigAddress(meta);
  const current = stxn.msig ?? emptyMultisig(meta);
  if (!multisigAddressOf(current).equals(expected)) throw new SigningError('the transaction is signed for a different multisig account than the one given');
  const msig = addMultisigSignature(current, encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(stxn.txn)), signer);
  const out: SignedTransaction = { txn: stxn.txn, msig };
  const auth = authFor(stxn.txn, expected);
  if (auth) out.authAddress = auth;
  return out;
}

/** Merges the signatures of several partially signed copies of the same multisig transaction. */
export function mergeMultisigTransactions(stxns: readonly SignedTransaction[]): SignedTransaction {
  if (stxns.length < 2) throw new SigningError(`merging needs at least 2 multisig transactions, got ${stxns.length}`);
  const first = stxns[0]!;
  if (!first.msig) throw new SigningError('transaction 0 has no multisig signature');
  const id = txid(first.txn);
  const addr = multisigAddressOf(first.msig);
  const subsigs = first.msig.subsigs.map((s) => ({ ...s }));
  for (let i = 1; i < stxns.length; i++) {
    const other = stxns[i]!;
    if (!other.msig) throw new SigningError(`transaction ${i} has no multisig signature`);
    if (txid(other.txn) !== id) throw new SigningError(`transaction ${i} differs from transaction 0 (txids ${txid(other.txn)} vs ${id})`);
    if (!multisigAddressOf(other.msig).equals(addr)) throw new SigningError(`transaction ${i} is signed for a different multisig account`);
    const a = first.authAddress?.toString() ?? '';
    const b = other.authAddress?.toString() ?? '';
    if (a !== b) throw new SigningError(`transaction ${i} has a different authorizing address`);
    other.msig.subsigs.forEach((s, j) => {
      if (!s.signature) return;
      const mine = subsigs[j]!;
      if (mine.signature && !bytesEqual(mine.signature, s.signature)) throw new SigningError(`transactions disagree on the signature of key ${j}`);
      mine.signature = s.signature;
    });
  }
  const out: SignedTransaction = { txn: first.txn, msig: { version: first.msig.version, threshold: first.msig.threshold, subsigs } };
  if (first.authAddress) out.authAddress = first.authAddress;
  return out;
}

/** True when at least `threshold` subsigs carry valid signatures over `message`. */
export function verifyMultisig(msig: MultisigSig, message: Uint8Array, expectedAddress?: Address): boolean {
  if (msig.version !== 1 || msig.threshold < 1 || msig.threshold > msig.subsigs.length) return false;
  if (expectedAddress && !multisigAddressOf(msig).equals(expectedAddress)) return false;
  let valid = 0;
  for (const s of msig.subsigs) {
    if (!s.signature) continue;
    if (!ed25519Verify(s.publicKey, message, s.signature)) return false;
    valid++;
  }
  return valid >= msig.threshold;
}

/** True when a multisig-signed transaction carries enough valid signatures for its sender. */
export function verifyMultisigTransaction(stxn: SignedTransaction): boolean {
  if (!stxn.msig) return false;
  const expected = stxn.authAddress ?? stxn.txn.sender;
  return verifyMultisig(stxn.msig, encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(stxn.txn)), expected);
}

/** The prefix a multisig delegation of a program signs (`MsigProgram`). */
export const MSIG_PROGRAM_PREFIX = utf8('MsigProgram');
