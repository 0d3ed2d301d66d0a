// Readers for loosely typed simulate responses (JSON or msgpack decoded): the simulate report and
// the debugger's replay both walk the same shapes, where a field may be absent, a bigint, a number
// or a decimal string, and bytes may be a Uint8Array or base64 text.
import { fromBase64 } from '../encoding/base64.js';

/** A plain object of a decoded response. */
export type Obj = Record<string, unknown>;
/** True for a plain object (not an array, not bytes). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
/** `v` when it is a plain object, else an empty one. */
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
/** The node's response itself, also when given a simulate report (which carries it as `raw`). */
export function rawResponse(input: unknown): Obj {
  const o = obj(input);
  if ('raw' in o && 'wouldSucceed' in o) return obj(o.raw);
  return o;
}
/** `v` when it is an array, else an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Bytes from a Uint8Array or base64 text; undefined otherwise. */
export function bytesOf(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') {
    try {
      return fromBase64(v);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A uint64 from a bigint, an integral number or a decimal string; undefined otherwise. */
export function bigOf(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) return BigInt(v);
  return undefined;
}

/** A uint64 member as a number (undefined when absent or not a number). */
export function numOf(v: unknown): number | undefined {
  const b = bigOf(v);
  return b === undefined ? undefined : Number(b);
}
