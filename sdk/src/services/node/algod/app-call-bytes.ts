import { parseAbiType } from '../../../abi/parse-type.js';
import { isByteArrayType, type AbiType, type AbiValue } from '../../../abi/types.js';
import { utf8 } from '../../../encoding/bytes.js';
import { parseJson } from '../../../encoding/json.js';
import { sha512_256 } from '../../../crypto/hash.js';
import { goParseUint } from './common.js';
import { BadRequestError } from '../../http/errors.js';

/*
 * The node's reading of a box name or app argument written as `encoding:value` (goal's form), with
 * the node's own error texts. The query service has its own, friendlier parser
 * (`services/query/box-name.ts`); this one exists so the /v2 routes answer a bad `next` or `prefix`
 * with exactly the node's words, which clients may match on. Offsets in decoding errors are byte
 * offsets into the UTF-8 value, as the node counts them.
 */

/** A value the node would refuse as `encoding:value`; the message is the node's text. */
export class AppCallBytesError extends Error {}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const table = (alphabet: string): Int16Array => {
  const t = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
};
const B64_VALUE = table(B64);
const B32_VALUE = table(B32);
const PAD = 0x3d;
const isNewline = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;

/** Where standard padded base64 text stops being valid (the node's "illegal base64 data at input byte N"), or the bytes. */
function base64Bytes(src: Uint8Array): Uint8Array | number {
  const out: number[] = [];
  let at = 0;
  while (at < src.length) {
    const q = [0, 0, 0, 0];
    let got = 0;
    let trailing = -1;
    while (got < 4) {
      if (at === src.length) {
        if (got === 0) return Uint8Array.from(out);
        return at - got; // a quantum cut short: padding is required
      }
      const c = src[at++]!;
      const v = B64_VALUE[c]!;
      if (v >= 0) {
        q[got++] = v;
        continue;
      }
      if (isNewline(c)) continue;
      if (c !== PAD || got < 2) return at - 1;
      if (got === 2) {
        // A second '=' must follow (newlines aside).
        while (at < src.length && isNewline(src[at])) at++;
        if (at === src.length) return src.length;
        if (src[at] !== PAD) return at - 1;
        at++;
      }
      while (at < src.length && isNewline(src[at])) at++;
      if (at < src.length) trailing = at;
      break;
    }
    const bits = (q[0]! << 18) | (q[1]! << 12) | (q[2]! << 6) | q[3]!;
    const whole = [(bits >> 16) & 0xff, (bits >> 8) & 0xff, bits & 0xff];
    out.push(...whole.slice(0, got - 1));
    if (trailing >= 0) return trailing;
    if (got < 4) return Uint8Array.from(out);
  }
  return Uint8Array.from(out);
}

/** Where base32 text stops being valid (newlines dropped first, as the node does), or the bytes. `padded`: standard padding required. */
function base32Bytes(text: Uint8Array, padded: boolean): Uint8Array | number {
  const src = text.filter((c) => !isNewline(c));
  const out: number[] = [];
  let at = 0;
  let end = false;
  while (at < src.length && !end) {
    const q = [0, 0, 0, 0, 0, 0, 0, 0];
    let got = 0;
    while (got < 8) {
      if (at === src.length) {
        if (padded) return at - got;
        end = true;
        break;
      }
      const c = src[at++]!;
      const left = src.length - at;
      if (padded && c === PAD && got >= 2 && left < 8) {
        if (left + got < 7) return src.length; // not enough padding
        for (let k = 0; k < 7 - got; k++) if (k < left && src[at + k] !== PAD) return at + k - 1;
        if (got === 1 || got === 3 || got === 6) return at - 1;
        end = true;
        break;
      }
      const v = B32_VALUE[c]!;
      if (v < 0) return at - 1;
      q[got++] = v;
    }
    let bits = 0n;
    for (const v of q) bits = (bits << 5n) | BigInt(v);
    const bytes = Array.from({ length: 5 }, (_, i) => Number((bits >> BigInt(8 * (4 - i))) & 0xffn));
    const keep = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 }[got] ?? 0;
    out.push(...bytes.slice(0, keep));
  }
  return Uint8Array.from(out);
}

/** Go's `%v` of a byte slice: `[1 2 3]`. */
const goBytes = (b: Uint8Array): string => `[${[...b].join(' ')}]`;

function addressBytesOf(text: string): Uint8Array {
  const fail = (why: string): never => {
    throw new AppCallBytesError(
      `Could not unmarshal checksummed address from string (${text}): cannot cast encoded address string (${text}) to address: ${why}`,
    );
  };
  const decoded = base32Bytes(utf8(text), false);
  if (typeof decoded === 'number') return fail(`base32 decode error: illegal base32 data at input byte ${decoded}`);
  if (decoded.length !== 36) return fail('decoded byte length should equal 36 with address and checksum');
  const key = decoded.slice(0, 32);
  const sum = sha512_256(key).slice(28);
  if (sum.some((b, i) => b !== decoded[32 + i])) return fail(`decoded checksum mismatch, ${goBytes(sum)} != ${goBytes(decoded.slice(32))}`);
  return key;
}

/** A JSON value as the ABI encoder takes it: byte arrays may be given as base64 text, as the node accepts. */
function abiValueOf(t: AbiType, v: unknown): AbiValue {
  if (isByteArrayType(t) && typeof v === 'string') {
    const b = base64Bytes(utf8(v));
    if (typeof b === 'number') throw new Error(`illegal base64 data at input byte ${b}`);
    return b;
  }
  return v as AbiValue;
}

function abiBytes(value: string): Uint8Array {
  const colon = value.indexOf(':');
  if (colon < 0) throw new AppCallBytesError(`Could not decode abi string (${value}): should split abi-type and abi-value with colon`);
  const typeText = value.slice(0, colon);
  const valueText = value.slice(colon + 1);
  let t: AbiType;
  try {
    t = parseAbiType(typeText);
  } catch (e) {
    throw new AppCallBytesError(`Could not decode abi type string (${typeText}): ${(e as Error).message}`);
  }
  try {
    return t.encode(abiValueOf(t, parseJson(valueText, { bigint: 'always' })));
  } catch (e) {
    // The node's text ends with a space here.
    throw new AppCallBytesError(`Could not decode abi value string (${valueText}): ${(e as Error).message} `);
  }
}

/**
 * The bytes an `encoding:value` text names, read as the node reads it: `str`/`string`,
 * `int`/`integer` (8 bytes big-endian), `addr`/`address`, `b32`/`base32`/`byte base32`,
 * `b64`/`base64`/`byte base64`, `abi` (`abi:type:json`). Throws `AppCallBytesError` with the
 * node's text otherwise.
 */
export function appCallBytes(arg: string): Uint8Array {
  const colon = arg.indexOf(':');
  if (colon < 0) throw new AppCallBytesError("all arguments and box names should be of the form 'encoding:value'");
  const encoding = arg.slice(0, colon);
  const value = arg.slice(colon + 1);
  switch (encoding) {
    case 'str':
    case 'string':
      return utf8(value);
    case 'int':
    case 'integer': {
      const n = goParseUint(value);
      if (typeof n === 'string') throw new AppCallBytesError(`Could not parse uint64 from string (${value}): ${n}`);
      const out = new Uint8Array(8);
      new DataView(out.buffer).setBigUint64(0, n);
      return out;
    }
    case 'addr':
    case 'address':
      return addressBytesOf(value);
    case 'b32':
    case 'base32':
    case 'byte base32': {
      const b = base32Bytes(utf8(value), true);
      if (typeof b === 'number') throw new AppCallBytesError(`Could not decode base32-encoded string (${value}): illegal base32 data at input byte ${b}`);
      return b;
    }
    case 'b64':
    case 'base64':
    case 'byte base64': {
      const b = base64Bytes(utf8(value));
      if (typeof b === 'number') throw new AppCallBytesError(`Could not decode base64-encoded string (${value}): illegal base64 data at input byte ${b}`);
      return b;
    }
    case 'abi':
      return abiBytes(value);
    default:
      throw new AppCallBytesError(`Unknown encoding: ${encoding}`);
  }
}

/** A box name parameter in the node's `encoding:value` form, read (and refused) as the node reads it. */
export function boxNameParam(raw: string | null, what = 'name'): Uint8Array {
  if (raw === null) throw new BadRequestError(`${what} is required: use encoding:value (str:, int:, addr:, b32:, b64:, abi:)`);
  try {
    return appCallBytes(raw);
  } catch (e) {
    // The node answers with the reader's own words, as they are.
    if (e instanceof AppCallBytesError) throw new BadRequestError(e.message);
    throw e;
  }
}
