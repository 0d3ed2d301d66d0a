import { fromBase64, toBase64, toBase64Url } from '../../encoding/base64.js';
import { BadRequestError } from '../http/errors.js';

/**
 * Page tokens name a position in the chain (round and offset), never a count of rows already
 * returned, so blocks committed between two pages cannot shift or repeat results.
 */
export interface TxnPosition {
  round: bigint;
  intra: number;
}

/** base64url(LE uint64 round ‖ LE uint32 intra), padded: the reference service's format. */
export function encodeTxnToken(p: TxnPosition): string {
  const b = new Uint8Array(12);
  const v = new DataView(b.buffer);
  v.setBigUint64(0, p.round, true);
  v.setUint32(8, p.intra, true);
  return toBase64Url(b, true);
}

/** The transaction position a listing's next-token stands for; throws for a malformed token. */
export function decodeTxnToken(token: string): TxnPosition {
  let b: Uint8Array;
  try {
    b = fromBase64(token, { url: true, strictPadding: false });
  } catch {
    throw new BadRequestError('unable to parse next token');
  }
  if (b.length !== 12) throw new BadRequestError('unable to parse next token');
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { round: v.getBigUint64(0, true), intra: v.getUint32(8, true) };
}

/** A next-token for a round. */
export function encodeRoundToken(round: bigint): string {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, round, true);
  return toBase64Url(b, true);
}

/** The round a listing's next-token stands for; throws for a malformed token. */
export function decodeRoundToken(token: string): bigint {
  let b: Uint8Array;
  try {
    b = fromBase64(token, { url: true, strictPadding: false });
  } catch {
    throw new BadRequestError('unable to parse next token: DecodeBlockRowNext() decode err');
  }
  if (b.length !== 8) throw new BadRequestError('unable to parse next token: DecodeBlockRowNext() bad length');
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(0, true);
}

/** Asset, application and holding listings page by the last id returned. */
export function decodeIdToken(token: string): bigint {
  if (!/^\d+$/.test(token) || BigInt(token) >= 1n << 64n) throw new BadRequestError(`unable to parse next token: ${JSON.stringify(token)} is not an integer`);
  return BigInt(token);
}

export function boxToken(name: Uint8Array): string {
  return `b64:${toBase64(name)}`;
}
