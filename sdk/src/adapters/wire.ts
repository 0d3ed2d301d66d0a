import { fromBase64 } from '../encoding/base64.js';
import { DecodeError } from '../errors.js';

/**
 * Lenient readers for decoded service bodies. Services differ in integer width (JSON number vs
 * bigint), byte form (base64 text vs number array vs msgpack bin) and key spelling; these helpers
 * fold those differences into one typed model and name the field when a value does not fit.
 */

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

export function obj(value: unknown, what: string): Obj {
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), v]));
  if (!isObj(value)) throw new DecodeError(`${what}: expected an object, got ${describe(value)}`);
  return value;
}

/** First present member among alternative spellings. */
export function pick(o: Obj, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 30 ? value.slice(0, 30) + '…' : value)}`;
  return typeof value;
}

export function u64(value: unknown, what: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new DecodeError(`${what}: expected an unsigned integer, got ${describe(value)}`);
}

export function optU64(value: unknown, what: string): bigint | undefined {
  return value === undefined || value === null ? undefined : u64(value, what);
}

/** Signed 64-bit (durations, timestamps). */
export function i64(value: unknown, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  throw new DecodeError(`${what}: expected an integer, got ${describe(value)}`);
}

export function small(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new DecodeError(`${what}: expected a small integer, got ${describe(value)}`);
}

export function str(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  throw new DecodeError(`${what}: expected a string, got ${describe(value)}`);
}

export function optStr(value: unknown, what: string): string | undefined {
  return value === undefined || value === null ? undefined : str(value, what);
}

export function bool(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new DecodeError(`${what}: expected a boolean, got ${describe(value)}`);
}

export function optBool(value: unknown, what: string): boolean | undefined {
  return value === undefined || value === null ? undefined : bool(value, what);
}

/** Bytes in any of the wire forms: base64 text, an array of 0..255 integers, or msgpack bin. */
export function bytes(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') {
    try {
      return fromBase64(value);
    } catch (e) {
      throw new DecodeError(`${what}: not valid base64 (${(e as Error).message})`);
    }
  }
  if (Array.isArray(value)) {
    const out = new Uint8Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const b = value[i];
      const n = typeof b === 'bigint' ? Number(b) : b;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 255)
        throw new DecodeError(`${what}[${i}]: expected a byte (0..255), got ${describe(b)}`);
      out[i] = n;
    }
    return out;
  }
  throw new DecodeError(`${what}: expected bytes (base64 text or a byte array), got ${describe(value)}`);
}

export function optBytes(value: unknown, what: string): Uint8Array | undefined {
  return value === undefined || value === null ? undefined : bytes(value, what);
}

export function arr(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new DecodeError(`${what}: expected an array, got ${describe(value)}`);
  return value;
}

/** Drops undefined members so typed results deep-equal hand-built expectations. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const camelCache = new Map<string, string>();

function camel(key: string): string {
  let c = camelCache.get(key);
  if (c === undefined) {
    c = key.includes('-') || key.includes('_') ? key.replace(/[-_]+([a-z0-9])/g, (_, ch: string) => ch.toUpperCase()) : key;
    // Keys come from a fixed vocabulary; the bound only guards against maps keyed by data.
    if (camelCache.size < 4096) camelCache.set(key, c);
  }
  return c;
}

/** Keys whose integer values are counts or small enums: numbers, not bigint. */
const SMALL_KEYS = new Set([
  'decimals',
  'type',
  'action',
  'num-uint',
  'num-byte-slice',
  'extra-program-pages',
  'apps-total-extra-pages',
  'threshold',
  'version',
  'state-proof-type',
  'hash-type',
  'tree-depth',
  'salt-version',
  'merkle-array-index',
  'intra-round-offset',
  'position',
]);

/**
 * Kebab-case JSON → camelCase typed records: every integer becomes bigint (uint64 by default in
 * these APIs) except the small counts and enums in SMALL_KEYS.
 */
export function camelize(value: unknown, key = ''): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && !SMALL_KEYS.has(key) ? BigInt(value) : value;
    case 'bigint':
      return SMALL_KEYS.has(key) && value <= MAX_SAFE ? Number(value) : value;
    case 'object': {
      if (value === null) return value;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = camelize(value[i], key);
        return out;
      }
      if (!isObj(value)) return value;
      const out: Obj = {};
      for (const k in value) out[camel(k)] = camelize(value[k], k);
      return out;
    }
    default:
      return value;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
