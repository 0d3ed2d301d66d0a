import { Address } from '../encoding/address.js';
import { bytesEqual, isAllZero } from '../encoding/bytes.js';
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

/** `sgnr`, `sig` and `txn` as msgpack keys (fixstr), and the headers of 32- and 64-byte strings (bin 8). */
const SGNR_KEY = Uint8Array.of(0xa4, 0x73, 0x67, 0x6e, 0x72, 0xc4, 32);
const SIG_KEY = Uint8Array.of(0xa3, 0x73, 0x69, 0x67, 0xc4, 64);
const TXN_KEY = Uint8Array.of(0xa3, 0x74, 0x78, 0x6e);

/**
 * Sign and encode in one pass: the transaction is encoded once, for the signature, and those very
 * bytes (after the prefix) are the signed form's `txn` map.
 */
export function signTransactionToBytes(txn: Transaction, signer: Ed25519Signer): SignedBytes {
  const wire = transactionToWire(txn);
  const toSign = encodeMsgpackWithPrefix(TX_PREFIX, wire);
  const sgnr = bytesEqual(signer.publicKey, txn.sender.publicKey) ? undefined : signer.publicKey;
  // The canonical map {sgnr?, sig, txn} (keys in order) around the bytes already made, which are
  // copied in before the signer sees them.
  const body = toSign.subarray(TX_PREFIX.length);
  const sigAt = 1 + (sgnr ? SGNR_KEY.length + 32 : 0) + SIG_KEY.length;
  const blob = new Uint8Array(sigAt + 64 + TXN_KEY.length + body.length);
  blob[0] = sgnr ? 0x83 : 0x82;
  if (sgnr) {
    blob.set(SGNR_KEY, 1);
    if (sgnr.length === 32) blob.set(sgnr, 1 + SGNR_KEY.length);
  }
  blob.set(SIG_KEY, sigAt - SIG_KEY.length);
  blob.set(TXN_KEY, sigAt + 64);
  blob.set(body, sigAt + 64 + TXN_KEY.length);
  const sig = signer.sign(toSign);
  const txid = toBase32(sha512_256(toSign));
  if (sig.length === 64 && !isAllZero(sig) && (sgnr === undefined || (sgnr.length === 32 && !isAllZero(sgnr)))) {
    blob.set(sig, sigAt);
    return { txid, blob };
  }
  // An unusual signer (a signature of another length, all zeros): the encoder's own form.
  const stxn: SignedTransaction = { txn, sig };
  if (sgnr) stxn.authAddress = new Address(sgnr);
  return { txid, blob: encodeMsgpack(signedTransactionToWire(stxn, wire)) };
}

/** Checks `sig` against the authorizing key (sgnr, else the sender). Multisig/lsig: see their modules. */
export function verifySignedTransaction(stxn: SignedTransaction): boolean {
  if (!stxn.sig) return false;
  const key = (stxn.authAddress ?? stxn.txn.sender).publicKey;
  return ed25519Verify(key, encodeMsgpackWithPrefix(TX_PREFIX, transactionToWire(stxn.txn)), stxn.sig);
}
