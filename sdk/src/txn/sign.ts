import { Address } from '../encoding/address.js';
import { bytesEqual } from '../encoding/bytes.js';
import { encodeMsgpack, encodeMsgpackWithPrefix } from '../encoding/msgpack.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { sha512_256 } from '../crypto/hash.js';
import { toBase32 } from '../encoding/base32.js';
import { TX_PREFIX } from './encode.js';
import type { SignedTransaction, Transaction } from './types.js';
import { signedTransactionToWire, transactionToWire } from './wire.js';

/** Anything that can produce an ed25519 signature for a public key (Ed25519KeyPair fits). */
export interface Ed25519Signer {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * Signs with a single key. When the key is not the sender's (a rekeyed account), the signer's
 * address goes into `sgnr` so the network checks the signature against the right key.
 */
export function signTransaction(txn: Transaction, signer: Ed25519Signer): SignedTransaction {
  const sig = signer.sign(encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(txn)));
  const stxn: SignedTransaction = { txn, sig };
  if (!bytesEqual(signer.publicKey, txn.sender.publicKey)) stxn.authAddress = new Address(signer.publicKey);
  return stxn;
}

/** A signed transaction as bytes, with its id. */
export interface SignedBytes {
  txid: string;
  blob: Uint8Array;
}

/** Sign and encode in one pass: the wire map is built once and reused for both. */
export function signTransactionToBytes(txn: Transaction, signer: Ed25519Signer): SignedBytes {
  const wire = transactionToWire(txn);
  const toSign = encodeMsgpackWithPrefix(TX_PREFIX, wire);
  const sig = signer.sign(toSign);
  const stxn: SignedTransaction = { txn, sig };
  if (!bytesEqual(signer.publicKey, txn.sender.publicKey)) stxn.authAddress = new Address(signer.publicKey);
  return { txid: toBase32(sha512_256(toSign)), blob: encodeMsgpack(signedTransactionToWire(stxn, wire)) };
}

/** Checks `sig` against the authorizing key (sgnr, else the sender). Multisig/lsig: see their modules. */
export function verifySignedTransaction(stxn: SignedTransaction): boolean {
  if (!stxn.sig) return false;
  const key = (stxn.authAddress ?? stxn.txn.sender).publicKey;
  return ed25519Verify(key, encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(stxn.txn)), stxn.sig);
}
