import { decodeAddress } from '../../encoding/address.js';
import { fromBase64Lenient } from '../../encoding/base64.js';
import { fromBase32 } from '../../encoding/base32.js';
import { BadRequestError } from '../http/errors.js';

/** The largest id, round or amount the service searches by (the indexer stores signed 64-bit values). */
export const MAX_SEARCHABLE = (1n << 63n) - 1n;
export const TOO_LARGE_MESSAGE = `searching by round or application-id or asset-id or filter by value greater than ${MAX_SEARCHABLE} is not supported`;

/** Default and maximum `limit` per listing (protocol.md §6.2); larger values are clamped, not refused. */
export const LIMITS = {
  transactions: { default: 1000, max: 10000 },
  accounts: { default: 100, max: 1000 },
  assets: { default: 100, max: 1000 },
  balances: { default: 1000, max: 10000 },
  applications: { default: 100, max: 1000 },
  boxes: { default: 1000, max: 10000 },
  blockHeaders: { default: 100, max: 1000 },
  logs: { default: 10000, max: 10000 },
} as const;

export type LimitKind = keyof typeof LIMITS;

const invalid = (name: string, detail: string): BadRequestError => new BadRequestError(`Invalid format for parameter ${name}: ${detail}`);

/** Reads typed query parameters; a malformed value is a 400 naming the parameter. */
export class QueryParams {
  constructor(private readonly q: URLSearchParams) {}

  has(name: string): boolean {
    return this.q.has(name);
  }

  string(name: string): string | undefined {
    const v = this.q.get(name);
    return v === null ? undefined : v;
  }

  /** A uint64; above 2^63-1 the indexer refuses to search, so do we. */
  uint(name: string): bigint | undefined {
    const v = this.q.get(name);
    if (v === null) return undefined;
    if (!/^\d+$/.test(v)) throw invalid(name, `strconv.ParseUint: parsing ${JSON.stringify(v)}: invalid syntax`);
    const n = BigInt(v);
    if (n >= 1n << 64n) throw invalid(name, `strconv.ParseUint: parsing ${JSON.stringify(v)}: value out of range`);
    if (n > MAX_SEARCHABLE) throw new BadRequestError(TOO_LARGE_MESSAGE);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.q.get(name);
    if (v === null) return undefined;
    // Go's strconv.ParseBool spellings, which the reference service accepts.
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
    throw invalid(name, `strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
  }

  /** RFC 3339 date-time → seconds since the epoch (fractions kept, so bounds stay exact). */
  time(name: string): number | undefined {
    const v = this.q.get(name);
    if (v === null) return undefined;
    const ok = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v);
    const ms = ok ? Date.parse(v.replace(' ', 'T')) : NaN;
    if (Number.isNaN(ms)) throw invalid(name, `parsing time ${JSON.stringify(v)} as RFC 3339 failed`);
    return ms / 1000;
  }

  enumValue<T extends string>(name: string, values: readonly T[], error: (v: string) => string): T | undefined {
    const v = this.q.get(name);
    if (v === null) return undefined;
    if (!(values as readonly string[]).includes(v)) throw new BadRequestError(error(v));
    return v as T;
  }

  /** Array parameters arrive comma-separated, repeated, or both. */
  list(name: string): string[] | undefined {
    const all = this.q.getAll(name);
    if (all.length === 0) return undefined;
    return all
      .flatMap((v) => v.split(','))
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }

  limit(kind: LimitKind): number {
    const n = this.uint('limit');
    const { default: d, max } = LIMITS[kind];
    // An absent or zero limit means the default, as in the reference service.
    if (n === undefined || n === 0n) return d;
    return Number(n > BigInt(max) ? BigInt(max) : n);
  }
}

export function parseAddressParam(value: string, name: string): Uint8Array {
  try {
    return decodeAddress(value);
  } catch {
    throw new BadRequestError(`unable to parse address: '${name}'`);
  }
}

export function parseBase64Param(value: string, name: string): Uint8Array {
  try {
    return fromBase64Lenient(value);
  } catch {
    throw new BadRequestError(`unable to parse base64 data: '${name}'`);
  }
}

/** Transaction ids are 52 base32 characters (32 bytes, unpadded). */
export function parseTxidParam(value: string): string {
  let ok = false;
  try {
    ok = /^[A-Z2-7]{52}$/.test(value) && fromBase32(value).length === 32;
  } catch {
    ok = false;
  }
  if (!ok) throw new BadRequestError(`unable to parse base32 digest data 'txid': illegal base32 data`);
  return value;
}

export function pathUint(value: string, name: string): bigint {
  if (!/^\d+$/.test(value)) throw invalid(name, `strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n >= 1n << 64n) throw invalid(name, `strconv.ParseUint: parsing ${JSON.stringify(value)}: value out of range`);
  return n;
}
