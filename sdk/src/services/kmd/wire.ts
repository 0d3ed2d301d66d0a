import { decodeAddress, isValidAddress } from '../../encoding/address.js';
import { fromBase64, fromBase64Lenient, toBase64 } from '../../encoding/base64.js';
import type { MultisigSig } from '../../txn/types.js';
import { badRequest, MSG } from './errors.js';

/**
 * Request/response field forms. key-manager-service.md gives byte types (keys, signatures,
 * digests, the master derivation key) as arrays of uint8, while the reference daemon and
 * algosdk use base64 strings: requests may use either, responses use the configured form.
 */

export type ByteForm = 'array' | 'base64';

export type FieldKind = 'string' | 'bool' | 'uint8' | 'bytes' | 'bytesList' | 'multisig';

export type Schema = Readonly<Record<string, FieldKind>>;

export type Parsed = {
  strings: Record<string, string>;
  bools: Record<string, boolean>;
  ints: Record<string, number>;
  bytes: Record<string, Uint8Array>;
  lists: Record<string, Uint8Array[]>;
  multisig: MultisigSig | undefined;
};

const decodeFail = () => badRequest(MSG.decodeBody);

/** Any byte field: base64 text, an array of 0..255, or (for 32-byte keys) a 58-character address. */
export function parseBytes(value: unknown): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(0);
  if (typeof value === 'string') {
    if (value.length === 58 && isValidAddress(value)) return decodeAddress(value);
    try {
      return fromBase64(value);
    } catch {
      try {
        return fromBase64Lenient(value);
      } catch {
        throw decodeFail();
      }
    }
  }
  if (Array.isArray(value)) {
    const out = new Uint8Array(value.length);
    value.forEach((v, i) => {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 255) throw decodeFail();
      out[i] = n;
    });
    return out;
  }
  throw decodeFail();
}

function parseUint8(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 255) throw decodeFail();
  return n;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function pick(o: Record<string, unknown>, names: readonly string[], allowed: ReadonlySet<string>): unknown {
  for (const k of Object.keys(o)) if (!allowed.has(k)) throw decodeFail();
  for (const n of names) if (n in o) return o[n];
  return undefined;
}

const MSIG_KEYS = new Set(['v', 'thr', 'subsig', 'Version', 'Threshold', 'Subsigs']);
const SUBSIG_KEYS = new Set(['pk', 's', 'Key', 'Sig']);

/** `partial_multisig` in either member naming: the spec's (`Version`, `Subsigs`, `Key`…) or the codec's (`v`, `subsig`, `pk`…). */
export function parseMultisig(value: unknown): MultisigSig | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw decodeFail();
  const version = pick(value, ['v', 'Version'], MSIG_KEYS);
  const threshold = pick(value, ['thr', 'Threshold'], MSIG_KEYS);
  const subsigs = pick(value, ['subsig', 'Subsigs'], MSIG_KEYS);
  if (subsigs !== undefined && subsigs !== null && !Array.isArray(subsigs)) throw decodeFail();
  return {
    version: version === undefined || version === null ? 0 : parseUint8(version),
    threshold: threshold === undefined || threshold === null ? 0 : parseUint8(threshold),
    subsigs: ((subsigs as unknown[] | null | undefined) ?? []).map((s) => {
      if (!isObject(s)) throw decodeFail();
      const publicKey = parseBytes(pick(s, ['pk', 'Key'], SUBSIG_KEYS));
      if (publicKey.length !== 32) throw decodeFail();
      const signature = parseBytes(pick(s, ['s', 'Sig'], SUBSIG_KEYS));
      return signature.length > 0 && signature.some((b) => b !== 0) ? { publicKey, signature } : { publicKey };
    }),
  };
}

/** Checks a request object against its schema; any unknown member or wrong type → 400 "could not decode request body". */
export function parseRequest(body: unknown, schema: Schema): Parsed {
  const out: Parsed = { strings: {}, bools: {}, ints: {}, bytes: {}, lists: {}, multisig: undefined };
  if (body === undefined || body === null) body = {};
  if (!isObject(body)) throw decodeFail();
  for (const [key, value] of Object.entries(body)) {
    const kind = schema[key];
    if (!kind) throw decodeFail();
    switch (kind) {
      case 'string':
        if (value !== null && typeof value !== 'string') throw decodeFail();
        out.strings[key] = value ?? '';
        break;
      case 'bool':
        if (value !== null && typeof value !== 'boolean') throw decodeFail();
        out.bools[key] = value === true;
        break;
      case 'uint8':
        out.ints[key] = value === null ? 0 : parseUint8(value);
        break;
      case 'bytes':
        out.bytes[key] = parseBytes(value);
        break;
      case 'bytesList':
        if (value !== null && !Array.isArray(value)) throw decodeFail();
        out.lists[key] = ((value as unknown[] | null) ?? []).map(parseBytes);
        break;
      case 'multisig':
        out.multisig = parseMultisig(value);
        break;
    }
  }
  return out;
}

export function wireBytes(bytes: Uint8Array, form: ByteForm): string | number[] {
  return form === 'base64' ? toBase64(bytes) : Array.from(bytes);
}

/**
 * Success bodies leave out empty members (the reference daemon's encoder does, and clients rely
 * on it), while nested objects are written whole.
 */
export function omitEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === '' || v === false || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (v instanceof Uint8Array && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}
