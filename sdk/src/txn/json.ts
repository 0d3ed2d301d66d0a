import { decodeAddress, encodeAddress } from '../encoding/address.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import type { MsgpackValue } from '../encoding/msgpack.js';
import { stringifyJson, type JsonValue } from '../encoding/json.js';
import { TxnDecodeError } from './errors.js';
import type { SignedTransaction, Transaction } from './types.js';
import { signedTransactionFromWire, signedTransactionToWire, transactionFromWire, transactionToWire } from './wire.js';

/**
 * The node's "msgpack as JSON" view (protocol.md §3.5): the same short keys and omissions as the
 * wire form, addresses as 58-character strings, other bytes as padded base64, integers exact.
 * Integers above 2^53 stay bigint in the object form; {@link stringifyNodeJson} prints them exactly,
 * and `parseJson` from encoding/json.ts reads them back as bigint.
 */

/** Which keys hold addresses, per map kind. `*` marks an array of addresses. */
const TXN_ADDRESS_KEYS = new Set(['snd', 'rcv', 'close', 'rekey', 'asnd', 'arcv', 'aclose', 'fadd']);
const STRING_KEYS = new Set(['type', 'gen', 'un', 'an', 'au']);

type Ctx = 'txn' | 'apar' | 'al' | 'hb' | 'stxn' | 'other';

function childCtx(ctx: Ctx, key: string): Ctx {
  if (ctx === 'txn') {
    if (key === 'apar') return 'apar';
    if (key === 'al') return 'al';
    if (key === 'hb') return 'hb';
    return 'other';
  }
  if (ctx === 'stxn' && key === 'txn') return 'txn';
  return 'other';
}

function isAddressKey(ctx: Ctx, key: string): boolean {
  switch (ctx) {
    case 'txn':
      return TXN_ADDRESS_KEYS.has(key) || key === 'apat';
    case 'apar':
      return key === 'm' || key === 'r' || key === 'f' || key === 'c';
    case 'al':
      return key === 'd';
    case 'hb':
      return key === 'a';
    case 'stxn':
      return key === 'sgnr';
    default:
      return false;
  }
}

function toJson(value: MsgpackValue, ctx: Ctx, asAddress: boolean): JsonValue {
  if (value instanceof Uint8Array) return asAddress && value.length === 32 ? encodeAddress(value) : toBase64(value);
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => toJson(v, ctx, asAddress));
  const out: { [k: string]: JsonValue } = {};
  const entries: [string, MsgpackValue][] = value instanceof Map ? [...value].map(([k, v]) => [String(k), v as MsgpackValue]) : Object.entries(value);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of entries) {
    // Access list entries are maps themselves: their `d` is an address, nested h/l/b hold indices.
    const inner = ctx === 'al' && (k === 'h' || k === 'l' || k === 'b') ? 'other' : ctx === 'al' ? 'al' : childCtx(ctx, k);
    out[k] = toJson(v, inner, isAddressKey(ctx, k));
  }
  return out;
}

/** A transaction in the node's JSON form. */
export function transactionToNodeJson(txn: Transaction): { [key: string]: JsonValue } {
  return toJson(transactionToWire(txn), 'txn', false) as { [key: string]: JsonValue };
}

/** A signed transaction in the node's JSON form. */
export function signedTransactionToNodeJson(stxn: SignedTransaction): { [key: string]: JsonValue } {
  return toJson(signedTransactionToWire(stxn), 'stxn', false) as { [key: string]: JsonValue };
}

function fromJson(value: unknown, ctx: Ctx, key: string, asAddress: boolean, path: string): unknown {
  if (typeof value === 'string') {
    if (asAddress) {
      try {
        return decodeAddress(value);
      } catch (e) {
        throw new TxnDecodeError(path, `not an address: ${(e as Error).message}`);
      }
    }
    if (STRING_KEYS.has(key)) return value;
    try {
      return fromBase64(value);
    } catch {
      throw new TxnDecodeError(path, 'expected base64 bytes');
    }
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TxnDecodeError(path, `integer ${value} lost precision; parse the JSON with bigint support`);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => fromJson(v, ctx, key, asAddress, `${path}[${i}]`));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const inner = ctx === 'al' && (k === 'h' || k === 'l' || k === 'b') ? 'other' : ctx === 'al' ? 'al' : childCtx(ctx, k);
    out[k] = fromJson(v, inner, k, isAddressKey(ctx, k), `${path}.${k}`);
  }
  return out;
}

/** A transaction from the node's JSON form. */
export function transactionFromNodeJson(json: unknown): Transaction {
  return transactionFromWire(fromJson(json, 'txn', '', false, 'txn'), 'txn');
}

/** A signed transaction from the node's JSON form (base64 bytes, kebab-case keys). */
export function signedTransactionFromNodeJson(json: unknown): SignedTransaction {
  return signedTransactionFromWire(fromJson(json, 'stxn', '', false, 'stxn'), 'stxn');
}

/** JSON text with bigints printed as exact integers, 2-space indent, keys in canonical order (like the node). */
export function stringifyNodeJson(value: JsonValue, indent = 2): string {
  return stringifyJson(value, { indent, sortKeys: true });
}
