import { AbiTypeError } from './errors.js';
import { Doorkeeper, fnv } from './doorkeeper.js';
import {
  AbiAddressType,
  AbiBoolType,
  AbiByteType,
  AbiDynamicArrayType,
  AbiStaticArrayType,
  AbiStringType,
  AbiTupleType,
  AbiType,
  AbiUfixedType,
  AbiUintType,
} from './types.js';

/**
 * Type strings → AbiType. Types are immutable, so parsed strings are cached: method signatures
 * and app specs name the same few types over and over. A type is cached from its second parse
 * (a doorkeeper remembers the first), so text seen once costs no Map work and no retained entry.
 */
const cache = new Map<string, AbiType>();
const CACHE_LIMIT = 4096;
const doorkeeper = new Doorkeeper(1 << 16, 4096);

/** The doorkeeper's bucket for a type text: its length and its last sixteen characters (where array lengths and tuple ends differ), and three more. */
function bucket(text: string): number {
  const n = text.length;
  let h = fnv(0x811c9dc5, n);
  for (let i = n > 16 ? n - 16 : 0; i < n; i++) h = fnv(h, text.charCodeAt(i));
  if (n > 16) {
    h = fnv(h, text.charCodeAt(0));
    h = fnv(h, text.charCodeAt(n >>> 2));
    h = fnv(h, text.charCodeAt(n >>> 1));
  }
  return h ^ (h >>> 15);
}

const UINT = /^uint([1-9][0-9]*)$/;
const UFIXED = /^ufixed([1-9][0-9]*)x([1-9][0-9]*)$/;
const ARRAY_LENGTH = /^(0|[1-9][0-9]*)$/;

/** The elementary types method signatures name most, made once. */
const UINT8 = new AbiUintType(8);
const UINT16 = new AbiUintType(16);
const UINT32 = new AbiUintType(32);
const UINT64 = new AbiUintType(64);
const UINT128 = new AbiUintType(128);
const UINT256 = new AbiUintType(256);
const BOOL = new AbiBoolType();
const BYTE = new AbiByteType();
const ADDRESS = new AbiAddressType();
const STRING = new AbiStringType();

/**
 * The common elementary types, matched by comparing the text in place: type texts cut out of a
 * signature are new strings each time, and a Map lookup would hash each one first.
 */
function common(text: string): AbiType | undefined {
  switch (text) {
    case 'uint64':
      return UINT64;
    case 'string':
      return STRING;
    case 'address':
      return ADDRESS;
    case 'bool':
      return BOOL;
    case 'byte':
      return BYTE;
    case 'uint8':
      return UINT8;
    case 'uint16':
      return UINT16;
    case 'uint32':
      return UINT32;
    case 'uint128':
      return UINT128;
    case 'uint256':
      return UINT256;
  }
  return undefined;
}

/** Parses ABI type text (`uint64`, `(address,byte[32])[]`, …) into an `AbiType`; throws `AbiTypeError` for invalid text. */
export function parseAbiType(text: string): AbiType {
  if (typeof text !== 'string') throw new AbiTypeError(`ABI type must be a string, got ${typeof text}`);
  let type = common(text);
  if (type) return type;
  if (!doorkeeper.seen(bucket(text))) return parseUncached(text, text);
  type = cache.get(text);
  if (type) return type;
  type = parseUncached(text, text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, type);
  return type;
}

function bad(whole: string, reason: string): never {
  throw new AbiTypeError(`invalid ABI type ${JSON.stringify(whole)}: ${reason}`);
}

function parseUncached(text: string, whole: string): AbiType {
  if (text.endsWith(']')) {
    const open = text.lastIndexOf('[');
    if (open <= 0) bad(whole, `unbalanced "]" in ${JSON.stringify(text)}`);
    const child = parseUncached(text.slice(0, open), whole);
    const inner = text.slice(open + 1, -1);
    if (inner === '') return new AbiDynamicArrayType(child);
    if (!ARRAY_LENGTH.test(inner)) bad(whole, `array length ${JSON.stringify(inner)} is not a non-negative integer`);
    const length = Number(inner);
    if (length > 0xffff) bad(whole, `static array length ${length} is larger than 65535`);
    return new AbiStaticArrayType(child, length);
  }
  if (text.startsWith('(')) {
    if (!text.endsWith(')')) bad(whole, `tuple ${JSON.stringify(text)} does not end with ")"`);
    return new AbiTupleType(splitTupleElements(text.slice(1, -1), whole).map((part) => parseUncached(part, whole)));
  }
  switch (text) {
    case 'bool':
      return new AbiBoolType();
    case 'byte':
      return new AbiByteType();
    case 'address':
      return new AbiAddressType();
    case 'string':
      return new AbiStringType();
  }
  let m = UINT.exec(text);
  if (m) {
    const bits = Number(m[1]);
    if (bits % 8 !== 0 || bits > 512) bad(whole, `uint size ${bits} must be a multiple of 8 between 8 and 512`);
    return new AbiUintType(bits);
  }
  m = UFIXED.exec(text);
  if (m) {
    const bits = Number(m[1]);
    const precision = Number(m[2]);
    if (bits % 8 !== 0 || bits > 512) bad(whole, `ufixed size ${bits} must be a multiple of 8 between 8 and 512`);
    if (precision > 160) bad(whole, `ufixed precision ${precision} must be between 1 and 160`);
    return new AbiUfixedType(bits, precision);
  }
  if (text === '') bad(whole, 'empty type');
  bad(whole, `unknown type ${JSON.stringify(text)}`);
}

/** Splits the inside of a tuple at its top-level commas. */
export function splitTupleElements(inner: string, whole = inner): string[] {
  if (inner === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) bad(whole, `unbalanced ")" at index ${i}`);
    } else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) bad(whole, 'unbalanced "("');
  parts.push(inner.slice(start));
  for (const p of parts) if (p === '') bad(whole, 'empty tuple element (stray comma)');
  return parts;
}
