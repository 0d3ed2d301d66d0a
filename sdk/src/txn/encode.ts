import { toBase32 } from '../encoding/base32.js';
import { concatBytes, utf8 } from '../encoding/bytes.js';
import { decodeMsgpack, decodeMsgpackSequence, encodeMsgpack, encodeMsgpackWithPrefix } from '../encoding/msgpack.js';
import { sha512_256 } from '../crypto/hash.js';
import { TxnDecodeError } from './errors.js';
import type { SignedTransaction, Transaction } from './types.js';
import { signedTransactionFromWire, signedTransactionToWire, transactionFromWire, transactionToWire } from './wire.js';

/** The domain-separation prefix signed before a transaction's bytes (`TX`). */
export const TX_PREFIX = utf8('TX');

/** Canonical msgpack of the transaction (what `txn` holds inside a signed transaction). */
export function encodeTransaction(txn: Transaction): Uint8Array {
  return encodeMsgpack(transactionToWire(txn));
}

/** Decodes one msgpack transaction. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  return transactionFromWire(decodeMsgpack(bytes), 'txn');
}

/** `"TX" || msgpack(txn)`: the bytes a sender signs and the txid hashes. */
export function bytesToSign(txn: Transaction): Uint8Array {
  return encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(txn));
}

/** The 32-byte transaction id. */
export function txidBytes(txn: Transaction): Uint8Array {
  return sha512_256(bytesToSign(txn));
}

/** The transaction id as the 52-character base32 text the network shows. */
export function txid(txn: Transaction): string {
  return toBase32(txidBytes(txn));
}

/** Canonical msgpack bytes of a signed transaction. */
export function encodeSignedTransaction(stxn: SignedTransaction): Uint8Array {
  return encodeMsgpack(signedTransactionToWire(stxn));
}

function restoreStateProof(stxn: SignedTransaction, bytes: Uint8Array, index?: number): void {
  // State proofs contain uint-keyed maps that plain-object decoding would turn into string keys.
  if (stxn.txn.type !== 'stpf') return;
  const raw = index === undefined ? decodeMsgpack(bytes, { maps: true }) : decodeMsgpackSequence(bytes, { maps: true })[index];
  const txn = (raw as Map<string, unknown>).get('txn') as Map<string, unknown>;
  const sp = stxn.txn.stateProof!;
  if (txn.has('sp')) sp.stateProof = txn.get('sp') as never;
  if (txn.has('spmsg')) sp.message = txn.get('spmsg') as never;
}

/** Decodes one msgpack signed transaction. */
export function decodeSignedTransaction(bytes: Uint8Array): SignedTransaction {
  const stxn = signedTransactionFromWire(decodeMsgpack(bytes), 'stxn');
  restoreStateProof(stxn, bytes);
  return stxn;
}

/** Raw group submission form: the signed transactions' encodings concatenated in order. */
export function encodeSignedTransactions(stxns: readonly SignedTransaction[]): Uint8Array {
  return concatBytes(...stxns.map(encodeSignedTransaction));
}

/** Decodes concatenated msgpack signed transactions (a group as submitted). */
export function decodeSignedTransactions(bytes: Uint8Array): SignedTransaction[] {
  const values = decodeMsgpackSequence(bytes);
  if (values.length === 0) throw new TxnDecodeError('stxns', 'no signed transactions in input');
  return values.map((v, i) => {
    const stxn = signedTransactionFromWire(v, `stxns[${i}]`);
    restoreStateProof(stxn, bytes, i);
    return stxn;
  });
}
