import { DecodeError, ValidationError } from '../errors.js';
import { toBase64 } from './base64.js';

/**
 * JSON that keeps uint64 precision. The chain's JSON carries amounts, ids and rounds up to 2^64-1,
 * which `JSON.parse` would silently round; here such integers come back as `bigint`, and `bigint`
 * values are written back as bare JSON numbers.
 */

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** Which JSON integers become bigint (`auto`: those past 2^53; `always`; `never`) and keys whose values always do. */
export interface JsonParseOptions {
  /**
   * `'auto'` (default): integers outside ±(2^53-1) become bigint, everything else a number.
   * `'always'`: every integer literal becomes bigint.
   * `'never'`: plain numbers (precision may be lost, like JSON.parse).
   */
  bigint?: 'auto' | 'always' | 'never';
  /** Keys whose integer values are always bigint, whatever `bigint` says (e.g. `amount`, `round`). */
  bigintKeys?: Iterable<string>;
}

/** Indentation, how bytes are written (base64 or arrays), and whether keys are sorted. */
export interface JsonStringifyOptions {
  /** Spaces (or the string) to indent nested levels with, as in JSON.stringify. */
  indent?: number | string;
  /** How Uint8Array values are written: standard padded base64 (default, the chain's JSON form) or an array of numbers. */
  bytes?: 'base64' | 'array';
  /** Sort object keys bytewise (canonical output, as the node's strict JSON handle writes). */
  sortKeys?: boolean;
}

/** Malformed JSON text; `position` is the 0-based character offset, `line`/`column` are 1-based. */
export class JsonParseError extends DecodeError {
  readonly position: number;
  readonly line: number;
  readonly column: number;

  constructor(reason: string, text: string, position: number) {
    const { line, column } = lineAndColumn(text, position);
    super(`invalid JSON: ${reason} at position ${position} (line ${line}, column ${column})`);
    this.position = position;
    this.line = line;
    this.column = column;
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(position, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

// Any integer literal of at most 15 digits is exactly representable, so text without a run of 16
// digits can go through the native parser untouched. Runs inside strings cause a harmless detour.
const LONG_DIGIT_RUN = /\d{16}/;

/** Parses JSON without losing large integers: those past 2^53 come back as bigint. */
export function parseJson<T = JsonValue>(text: string, options: JsonParseOptions = {}): T {
  if (typeof text !== 'string') throw new ValidationError(`parseJson expects a string, got ${typeof text}`);
  const mode = options.bigint ?? 'auto';
  const keys = options.bigintKeys ? new Set(options.bigintKeys) : undefined;
  if (mode !== 'always' && !LONG_DIGIT_RUN.test(text)) {
    try {
      return (keys && keys.size > 0 ? JSON.parse(text, keyReviver(keys)) : JSON.parse(text)) as T;
    } catch {
      // Fall through: the exact parser below reports the failure with a position.
    }
  }
  return new Parser(text, mode, keys).parseDocument() as T;
}

function keyReviver(keys: Set<string>): (key: string, value: unknown) => unknown {
  return (key, value) => (keys.has(key) ? integersToBigint(value) : value);
}

/** Same reach as the exact parser: the value under a named key, and (nested) array elements. */
function integersToBigint(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = integersToBigint(value[i]);
  return value;
}

const enum Ch {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  LowerE = 101,
  OpenBrace = 123,
  CloseBrace = 125,
}

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly mode: 'auto' | 'always' | 'never',
    private readonly keys: Set<string> | undefined,
  ) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(undefined, 0);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('unexpected data after the value');
    return value;
  }

  private fail(reason: string, at = this.pos): never {
    throw new JsonParseError(reason, this.text, at);
  }

  private describeHere(): string {
    if (this.pos >= this.text.length) return 'unexpected end of input';
    return `unexpected character ${JSON.stringify(this.text[this.pos])}`;
  }

  private expected(what: string): never {
    this.fail(`expected ${what}, found ${this.describeHere().replace('unexpected ', '')}`);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === Ch.Space || c === Ch.Newline || c === Ch.Return || c === Ch.Tab) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(key: string | undefined, depth: number): JsonValue {
    if (depth > 2000) this.fail('nesting too deep');
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case Ch.OpenBrace:
        return this.parseObject(depth);
      case Ch.OpenBracket:
        return this.parseArray(key, depth);
      case Ch.Quote:
        return this.parseString();
      case 116: // t
        return this.literal('true', true);
      case 102: // f
        return this.literal('false', false);
      case 110: // n
        return this.literal('null', null);
      default:
        if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) return this.parseNumber(key);
        this.fail(this.describeHere());
    }
  }

  private literal<V extends JsonValue>(word: string, value: V): V {
    if (!this.text.startsWith(word, this.pos)) this.fail(this.describeHere());
    this.pos += word.length;
    return value;
  }

  private parseObject(depth: number): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === Ch.CloseBrace) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== Ch.Quote) this.expected('a string key');
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== Ch.Colon) this.expected("':' after object key");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(key, depth + 1);
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === Ch.CloseBrace) {
        this.pos++;
        return out;
      } else {
        this.expected("',' or '}' in object");
      }
    }
  }

  /** Arrays pass their key down so `"amounts": [..]` under bigintKeys converts its elements too. */
  private parseArray(key: string | undefined, depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === Ch.CloseBracket) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseValue(key, depth + 1));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === Ch.CloseBracket) {
        this.pos++;
        return out;
      } else {
        this.expected("',' or ']' in array");
      }
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === Ch.Quote) break;
      if (c === Ch.Backslash) {
        escaped = true;
        pos += 2;
        continue;
      }
      if (Number.isNaN(c)) this.fail('unterminated string', start);
      if (c < 0x20) this.fail('control character in string', pos);
      pos++;
    }
    if (pos > text.length) this.fail('unterminated string', start);
    this.pos = pos + 1;
    if (!escaped) return text.slice(start + 1, pos);
    // Escapes are rare in chain JSON; let the native decoder handle them, then map its failure.
    try {
      return JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      this.fail('invalid escape sequence in string', start);
    }
  }

  private parseNumber(key: string | undefined): number | bigint {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === Ch.Minus) pos++;
    const intStart = pos;
    let c = text.charCodeAt(pos);
    // Small integers are accumulated while scanning, which spares a slice and Number() call.
    let small = 0;
    if (c === Ch.Zero) {
      pos++;
    } else if (c >= Ch.Zero + 1 && c <= Ch.Nine) {
      while ((c = text.charCodeAt(pos)) >= Ch.Zero && c <= Ch.Nine) {
        small = small * 10 + (c - Ch.Zero);
        pos++;
      }
    } else {
      this.fail('expected a digit', pos);
    }
    const intDigits = pos - intStart;
    c = text.charCodeAt(pos);
    if (intDigits < 16 && c !== Ch.Dot && c !== Ch.LowerE && c !== Ch.UpperE && this.mode !== 'always' && !(key !== undefined && this.keys?.has(key))) {
      this.pos = pos;
      return intStart === start ? small : small === 0 ? -0 : -small;
    }
    let integer = true;
    if (text.charCodeAt(pos) === Ch.Dot) {
      integer = false;
      pos++;
      const fracStart = pos;
      while ((c = text.charCodeAt(pos)) >= Ch.Zero && c <= Ch.Nine) pos++;
      if (pos === fracStart) this.fail('expected a digit after the decimal point', pos);
    }
    c = text.charCodeAt(pos);
    if (c === Ch.LowerE || c === Ch.UpperE) {
      integer = false;
      pos++;
      c = text.charCodeAt(pos);
      if (c === Ch.Plus || c === Ch.Minus) pos++;
      const expStart = pos;
      while ((c = text.charCodeAt(pos)) >= Ch.Zero && c <= Ch.Nine) pos++;
      if (pos === expStart) this.fail('expected a digit in the exponent', pos);
    }
    this.pos = pos;
    const lexeme = text.slice(start, pos);
    if (integer && this.mode !== 'never') {
      if (this.mode === 'always' || (key !== undefined && this.keys?.has(key))) return BigInt(lexeme);
      if (intDigits >= 16) {
        const n = Number(lexeme);
        return Number.isSafeInteger(n) ? n : BigInt(lexeme);
      }
    } else if (integer && key !== undefined && this.keys?.has(key)) {
      return BigInt(lexeme);
    }
    return Number(lexeme);
  }
}

/** JSON text for a value that may contain bigint (written as a bare number) and Uint8Array. */
export function stringifyJson(value: unknown, options: JsonStringifyOptions = {}): string {
  const indent = typeof options.indent === 'number' ? ' '.repeat(Math.min(10, Math.max(0, options.indent))) : (options.indent ?? '').slice(0, 10);
  const writer = new Writer(indent, options.bytes ?? 'base64', options.sortKeys ?? false);
  const out = writer.write(value, '', '');
  if (out === undefined) throw new ValidationError(`cannot represent a ${typeof value} as JSON`);
  return out;
}

class Writer {
  private readonly seen = new Set<object>();

  constructor(
    private readonly indent: string,
    private readonly bytes: 'base64' | 'array',
    private readonly sortKeys: boolean,
  ) {}

  /** Returns undefined for values JSON leaves out (undefined, functions, symbols). */
  write(value: unknown, key: string, currentIndent: string): string | undefined {
    if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function' && !(value instanceof Uint8Array)) {
      value = (value as { toJSON(key: string): unknown }).toJSON(key);
    }
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null';
      case 'bigint':
        return value.toString();
      case 'boolean':
        return value ? 'true' : 'false';
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (value === null) return 'null';
    const obj = value as object;
    if (obj instanceof Uint8Array) {
      if (this.bytes === 'base64') return `"${toBase64(obj)}"`;
      return this.writeArray(Array.from(obj), currentIndent);
    }
    if (this.seen.has(obj)) throw new ValidationError('cannot write JSON for a value that contains itself (circular reference)');
    this.seen.add(obj);
    try {
      if (Array.isArray(obj)) return this.writeArray(obj, currentIndent);
      if (obj instanceof Map) return this.writeObject(Object.fromEntries(obj), currentIndent);
      return this.writeObject(obj as Record<string, unknown>, currentIndent);
    } finally {
      this.seen.delete(obj);
    }
  }

  private writeArray(items: readonly unknown[], currentIndent: string): string {
    if (items.length === 0) return '[]';
    const inner = currentIndent + this.indent;
    const parts = new Array<string>(items.length);
    for (let i = 0; i < items.length; i++) parts[i] = this.write(items[i], String(i), inner) ?? 'null';
    if (!this.indent) return `[${parts.join(',')}]`;
    return `[\n${inner}${parts.join(`,\n${inner}`)}\n${currentIndent}]`;
  }

  private writeObject(obj: Record<string, unknown>, currentIndent: string): string {
    const keys = Object.keys(obj);
    if (this.sortKeys) keys.sort(compareKeys);
    const inner = currentIndent + this.indent;
    const sep = this.indent ? ': ' : ':';
    const parts: string[] = [];
    for (const k of keys) {
      const text = this.write(obj[k], k, inner);
      if (text !== undefined) parts.push(JSON.stringify(k) + sep + text);
    }
    if (parts.length === 0) return '{}';
    if (!this.indent) return `{${parts.join(',')}}`;
    return `{\n${inner}${parts.join(`,\n${inner}`)}\n${currentIndent}}`;
  }
}

function compareKeys(a: string, b: string): number {
  // UTF-16 order equals bytewise UTF-8 order for the ASCII keys the chain uses.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether `keys` are in {@link compareKeys} order already (most answers are written so). */
function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** What `parseJson` (default options) gives for an integer literal. */
function parsedInteger(v: bigint): number | bigint {
  return v > MAX_SAFE || v < -MAX_SAFE ? v : Number(v);
}

/**
 * The value `parseJson(stringifyJson(value, options))` gives, computed without writing or reading
 * the text: bytes become base64 text (or number arrays), bigints and integers become numbers or
 * (past 2^53) bigints, undefined members are left out, `toJSON` and Maps are honoured, keys are
 * sorted when `sortKeys` says. For in-process callers of a JSON service. Throws as
 * {@link stringifyJson} does (a circular value, a value with no JSON form).
 */
export function jsonRoundTrip(value: unknown, options: Pick<JsonStringifyOptions, 'bytes' | 'sortKeys'> = {}): JsonValue {
  const out = roundTrip(value, '', options.bytes ?? 'base64', options.sortKeys ?? false, new Set(), 0);
  if (out === undefined) throw new ValidationError(`cannot represent a ${typeof value} as JSON`);
  return out;
}

/**
 * Nesting below this depth is not checked for cycles (a cycle nests without end, so it is still
 * caught, a few levels further down): answers are shallow, and most objects then skip the check.
 */
const UNCHECKED_DEPTH = 32;

/** `key` is a member name, or an array index (made text only for a `toJSON` that is given it). */
function roundTrip(
  value: unknown,
  key: string | number,
  bytes: 'base64' | 'array',
  sortKeys: boolean,
  seen: Set<object>,
  depth: number,
): JsonValue | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function' && !(value instanceof Uint8Array)) {
    value = (value as { toJSON(key: string): unknown }).toJSON(typeof key === 'number' ? String(key) : key);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number': {
      if (!Number.isFinite(value)) return null;
      // Most numbers: a safe integer reads back as itself (-0 is written as 0).
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
      const text = String(value);
      // The writer prints String(value); the reader turns long integer literals into bigint.
      return /^-?\d+$/.test(text) ? parsedInteger(BigInt(text)) : Number(text);
    }
    case 'bigint':
      return parsedInteger(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (obj instanceof Uint8Array) return bytes === 'base64' ? toBase64(obj) : Array.from(obj);
  const checked = depth >= UNCHECKED_DEPTH;
  if (checked) {
    if (seen.has(obj)) throw new ValidationError('cannot write JSON for a value that contains itself (circular reference)');
    seen.add(obj);
  }
  try {
    const next = depth + 1;
    if (Array.isArray(obj)) {
      const arr = new Array<JsonValue>(obj.length);
      for (let i = 0; i < obj.length; i++) arr[i] = roundTrip(obj[i], i, bytes, sortKeys, seen, next) ?? null;
      return arr;
    }
    const record = (obj instanceof Map ? Object.fromEntries(obj) : obj) as Record<string, unknown>;
    const keys = Object.keys(record);
    if (sortKeys && !isSorted(keys)) keys.sort();
    const result: { [key: string]: JsonValue } = {};
    for (const k of keys) {
      const v = roundTrip(record[k], k, bytes, sortKeys, seen, next);
      if (v === undefined) continue;
      // A `__proto__` member is an own property after JSON.parse, not the prototype.
      if (k === '__proto__') Object.defineProperty(result, k, { value: v, enumerable: true, writable: true, configurable: true });
      else result[k] = v;
    }
    return result;
  } finally {
    if (checked) seen.delete(obj);
  }
}
