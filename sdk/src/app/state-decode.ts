import type { Arc56AppSpec, Arc56Storage, Arc56StorageKey, Arc56StorageMap, Arc56ValueType } from '../abi/arc56.js';
import { decodeArc56Value, encodeArc56Value } from '../abi/arc56.js';
import type { AbiValue } from '../abi/types.js';
import { encodeAddress } from '../encoding/address.js';
import { toBase64 } from '../encoding/base64.js';
import { bytesEqual, concatBytes, tryFromUtf8, utf8 } from '../encoding/bytes.js';
import { toHex } from '../encoding/hex.js';
import { AppError } from './errors.js';

/*
 * Reading app storage for people: global and local state and boxes, decoded by the app spec's
 * named keys and maps when it has them, and always offered raw with the views people reach for
 * (text, integer, address, hex, base64). Decoding never throws: a value that does not fit its
 * declared type keeps its raw views and says why.
 */

/** The ways a byte string can be read. Views that do not apply are absent. */
export interface BytesView {
  hex: string;
  base64: string;
  /** When the bytes are valid UTF-8 without control characters (tabs/newlines allowed). */
  utf8?: string;
  /** Big-endian integer, for 1..8 bytes. */
  uint?: bigint;
  /** For exactly 32 bytes. */
  address?: string;
}

/** The ways to read bytes: hex, base64, UTF-8, integer, address, where each applies. */
export function bytesView(bytes: Uint8Array): BytesView {
  const view: BytesView = { hex: toHex(bytes), base64: toBase64(bytes) };
  const text = tryFromUtf8(bytes);

  if (text !== undefined && bytes.length > 0 && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) view.utf8 = text;
  if (bytes.length >= 1 && bytes.length <= 8) view.uint = bytes.reduce((a, b) => (a << 8n) | BigInt(b), 0n);
  if (bytes.length === 32) view.address = encodeAddress(bytes);
  return view;
}

/** A short human form: text if printable, else an address for 32 bytes, else 0x-hex. */
export function displayBytes(bytes: Uint8Array): string {
  const v = bytesView(bytes);
  if (v.utf8 !== undefined) return JSON.stringify(v.utf8);
  if (v.address !== undefined) return v.address;
  return '0x' + v.hex;
}

/** A state entry decoded by the spec: key and value views, the matching key or map, the decoded key and value. */
export interface StorageItem {
  /** Raw key (or box name) and its views. */
  key: Uint8Array;
  keyView: BytesView;
  /** Raw value: bytes, or a bigint for a uint state slot. */
  value: Uint8Array | bigint;
  /** For byte values. */
  valueView?: BytesView;
  /** Which spec entry explains the item: a named key, or a map (then `mapKey` is the decoded key). */
  match?: { kind: 'key' | 'map'; name: string; keyType: string; valueType: string; desc?: string };
  mapKey?: AbiValue;
  decoded?: AbiValue;
  /** Why decoding by the declared type failed, if it did. */
  decodeError?: string;
}

/** A raw state entry: key bytes and value (bytes, or bigint for uint slots). */
export interface StateEntry {
  key: Uint8Array;
  /** bytes for byte-slice slots, bigint for uint slots. */
  value: Uint8Array | bigint;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && bytesEqual(bytes.subarray(0, prefix.length), prefix);
}

/** The spec's key for exact bytes, or the map with the longest matching prefix. */
function lookup(spec: Arc56AppSpec | undefined, storage: Arc56Storage, key: Uint8Array): { key?: Arc56StorageKey; map?: Arc56StorageMap } {
  if (!spec) return {};
  const named = spec.keys[storage].find((k) => bytesEqual(k.key, key));
  if (named) return { key: named };
  let best: Arc56StorageMap | undefined;
  for (const m of spec.maps[storage]) if (startsWith(key, m.prefix) && (!best || m.prefix.length > best.prefix.length)) best = m;
  return best ? { map: best } : {};
}

function decodeItem(storage: Arc56Storage, key: Uint8Array, value: Uint8Array | bigint | undefined, spec: Arc56AppSpec | undefined): StorageItem {
  const item: StorageItem = { key, keyView: bytesView(key), value: value ?? new Uint8Array(0) };
  if (value instanceof Uint8Array) item.valueView = bytesView(value);
  const found = lookup(spec, storage, key);
  const entry = found.key ?? found.map;
  if (!entry) return item;
  item.match = {
    kind: found.key ? 'key' : 'map',
    name: entry.name,
    keyType: entry.keyType.text,
    valueType: entry.valueType.text,
    ...(entry.desc !== undefined ? { desc: entry.desc } : {}),
  };
  const errors: string[] = [];
  if (found.map) {
    try {
      item.mapKey = decodeArc56Value(found.map.keyType, key.subarray(found.map.prefix.length));
    } catch (e) {
      errors.push(`key does not decode as ${found.map.keyType.text}: ${message(e)}`);
    }
  }
  if (value !== undefined) {
    try {
      item.decoded = decodeArc56Value(entry.valueType, value);
    } catch (e) {
      errors.push(`value does not decode as ${entry.valueType.text}: ${message(e)}`);
    }
  }
  if (errors.length) item.decodeError = errors.join('; ');
  return item;
}

/** Global state entries decoded by the spec's global keys and maps (raw views without a spec). */
export function decodeGlobalState(entries: readonly StateEntry[], spec?: Arc56AppSpec): StorageItem[] {
  return entries.map((e) => decodeItem('global', e.key, e.value, spec));
}

/** Local state entries decoded by the spec's local keys and maps. */
export function decodeLocalState(entries: readonly StateEntry[], spec?: Arc56AppSpec): StorageItem[] {
  return entries.map((e) => decodeItem('local', e.key, e.value, spec));
}

/** Boxes with values; pass `value: undefined` for a page of names only. */
export function decodeBoxes(boxes: ReadonlyArray<{ name: Uint8Array; value?: Uint8Array }>, spec?: Arc56AppSpec): StorageItem[] {
  return boxes.map((b) => decodeItem('box', b.name, b.value, spec));
}

/**
 * The storage key a read step means by `name`: an ARC-56 key name, else `map[key]` syntax is not
 * parsed here (use storageMapKey), else the UTF-8 bytes of the text.
 */
export function storageKeyFor(spec: Arc56AppSpec | undefined, storage: Arc56Storage, name: string | Uint8Array): Uint8Array {
  if (name instanceof Uint8Array) return name;
  const named = spec?.keys[storage].find((k) => k.name === name);
  return named ? named.key : utf8(name);
}

/** The full key of an entry of a named map (prefix + encoded key). */
export function storageMapKey(spec: Arc56AppSpec, storage: Arc56Storage, mapName: string, key: AbiValue | Uint8Array): Uint8Array {
  const map = spec.maps[storage].find((m) => m.name === mapName);
  if (!map)
    throw new AppError(
      `app spec ${spec.name} has no ${storage} map ${JSON.stringify(mapName)} (it has ${spec.maps[storage].map((m) => m.name).join(', ') || 'none'})`,
    );
  return concatBytes(map.prefix, encodeArc56Value(map.keyType, key));
}

/**
 * A state entry to write, from a key name or bytes and a value: with a spec, a declared key name
 * gives its key bytes and the value is encoded by its declared type (uint64 types become uint
 * slots); without one, text keys are UTF-8, numbers become uints, text values UTF-8 bytes.
 * An undefined value means "delete".
 */
export function encodeStorageValue(
  spec: Arc56AppSpec | undefined,
  storage: Arc56Storage,
  key: string | Uint8Array,
  value: AbiValue | Uint8Array | undefined,
): { key: Uint8Array; value: Uint8Array | bigint | undefined } {
  const keyBytes = storageKeyFor(spec, storage, key);
  if (value === undefined) return { key: keyBytes, value: undefined };
  const declared = typeof key === 'string' ? spec?.keys[storage].find((k) => k.name === key) : undefined;
  if (declared) {
    const t = declared.valueType;
    const isUint = storage !== 'box' && ((t.kind === 'avm' && t.avm === 'AVMUint64') || (t.kind === 'abi' && t.text === 'uint64'));
    if (isUint) {
      if (typeof value !== 'bigint' && typeof value !== 'number') throw new AppError(`${storage} key ${key} holds a ${t.text}: give a number or bigint`);
      return { key: keyBytes, value: uintValue(value, `${storage} key ${key}`) };
    }
    return { key: keyBytes, value: encodeArc56Value(t, value) };
  }
  if (typeof value === 'bigint' || typeof value === 'number') {
    if (storage === 'box')
      throw new AppError(
        `a box holds bytes: give a Uint8Array or text for box ${typeof key === 'string' ? key : displayBytes(key)} (or an app spec declaring its type)`,
      );
    return { key: keyBytes, value: uintValue(value, `${storage} key ${typeof key === 'string' ? key : displayBytes(key)}`) };
  }
  if (typeof value === 'string') return { key: keyBytes, value: utf8(value) };
  if (value instanceof Uint8Array) return { key: keyBytes, value };
  throw new AppError(`cannot store this value under ${typeof key === 'string' ? key : displayBytes(key)} without an app spec declaring its type`);
}

/** A uint slot's value: a whole number from 0 to 2^64 - 1, else an `AppError` naming where it goes. */
function uintValue(value: bigint | number, where: string): bigint {
  if (typeof value === 'number' && !Number.isInteger(value)) throw new AppError(`${where} holds a uint64: give a whole number, got ${value}`);
  const n = BigInt(value);
  if (n < 0n || n >= 1n << 64n) throw new AppError(`${where} holds a uint64 (0 to 2^64 - 1), got ${n}`);
  return n;
}

/** Value type text of a declared key/map, for display. */
export function typeText(t: Arc56ValueType): string {
  return t.text;
}

/** Plain one-line rendering of an item, e.g. `count (uint64) = 5` or `0x0102 = "hi"`. */
export function formatStorageItem(item: StorageItem): string {
  const keyText = item.match ? (item.match.kind === 'map' ? `${item.match.name}[${formatAbi(item.mapKey)}]` : item.match.name) : displayBytes(item.key);
  const value = item.decoded !== undefined ? formatAbi(item.decoded) : typeof item.value === 'bigint' ? item.value.toString() : displayBytes(item.value);
  const type = item.match ? ` (${item.match.valueType})` : '';
  return `${keyText}${type} = ${value}${item.decodeError ? `  [${item.decodeError}]` : ''}`;
}

/** An ABI value as short readable text (strings quoted, bytes as text or hex). */
export function formatAbi(v: AbiValue | undefined): string {
  if (v === undefined) return '?';
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return displayBytes(v);
  if (Array.isArray(v)) return `[${v.map((x) => formatAbi(x)).join(', ')}]`;
  if (typeof (v as { toString?: unknown }).toString === 'function' && (v as object).constructor?.name === 'Address') return String(v);
  return `{ ${Object.entries(v as Record<string, AbiValue>)
    .map(([k, x]) => `${k}: ${formatAbi(x)}`)
    .join(', ')} }`;
}
