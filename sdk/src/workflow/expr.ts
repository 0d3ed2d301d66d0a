import { Address, decodeAddress, encodeAddress } from '../encoding/address.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import { bytesEqual, bytesToUint64, compareBytes, concatBytes, tryFromUtf8, uint64ToBytes, utf8 } from '../encoding/bytes.js';
import { fromHex, toHex } from '../encoding/hex.js';
import { sha256, sha512_256 } from '../crypto/hash.js';
import { methodSelector } from '../abi/method.js';
import { ExprError } from './errors.js';

/*
 * The `${{ … }}` expression language of workflow files. It is a small, closed language — our own
 * tokenizer, parser and tree-walking evaluator; nothing reaches eval/Function or the host — so a
 * workflow file can read earlier results but never run code. Integers are bigint throughout.
 */

/** A value of a workflow expression. */
export type ExprValue = null | boolean | bigint | string | Uint8Array | ExprValue[] | { [key: string]: ExprValue };

/** Roots an expression may name (`steps`, `accounts`, `env`, …) and their values. */
export type ExprScope = Readonly<Record<string, ExprValue | undefined>>;

/** A parsed `${{ … }}` expression. */
export type ExprNode =
  | { kind: 'literal'; value: ExprValue; start: number; end: number }
  | { kind: 'root'; name: string; start: number; end: number }
  | { kind: 'member'; object: ExprNode; name: string; start: number; end: number }
  | { kind: 'index'; object: ExprNode; index: ExprNode; start: number; end: number }
  | { kind: 'call'; fn: string; args: ExprNode[]; start: number; end: number }
  | { kind: 'list'; items: ExprNode[]; start: number; end: number }
  | { kind: 'not'; operand: ExprNode; start: number; end: number }
  | { kind: 'binary'; op: BinaryOp; left: ExprNode; right: ExprNode; start: number; end: number };

/** Comparison and logic operators of workflow expressions. */
export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

type Token =
  | { t: 'num'; v: bigint; s: number; e: number }
  | { t: 'str'; v: string; s: number; e: number }
  | { t: 'id'; v: string; s: number; e: number }
  | { t: 'op'; v: string; s: number; e: number }
  | { t: 'end'; s: number; e: number };

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '.', ',', '(', ')', '[', ']'];

function tokenize(src: string, base: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const s = i;
    if (c >= '0' && c <= '9') {
      let text: string;
      if (c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X')) {
        i += 2;
        while (i < src.length && /[0-9a-fA-F_]/.test(src[i]!)) i++;
        text = src.slice(s, i);
      } else {
        while (i < src.length && /[0-9_]/.test(src[i]!)) i++;
        text = src.slice(s, i);
      }
      if (i < src.length && /[A-Za-z]/.test(src[i]!)) throw new ExprError(`malformed number ${JSON.stringify(src.slice(s, i + 1))}`, base + s, i + 1 - s);
      const clean = text.replace(/_/g, '');
      if (text.endsWith('_') || clean === '0x') throw new ExprError(`malformed number ${JSON.stringify(text)}`, base + s, i - s);
      out.push({ t: 'num', v: BigInt(clean), s: base + s, e: base + i });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let v = '';
      for (;;) {
        if (i >= src.length) throw new ExprError('unterminated string', base + s, src.length - s);
        const ch = src[i]!;
        if (ch === c) {
          // Doubling the quote escapes it in single-quoted strings (as in YAML).
          if (c === "'" && src[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (ch === '\\' && c === '"') {
          const n = src[i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '0': '\0' };
          if (n === undefined || map[n] === undefined) throw new ExprError(`unknown escape \\${n ?? ''}`, base + i, 2);
          v += map[n];
          i += 2;
          continue;
        }
        v += ch;
        i++;
      }
      out.push({ t: 'str', v, s: base + s, e: base + i });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      i++;
      // Dashes belong to names (`app-id`, `mnemonic-env`); the language has no subtraction.
      while (i < src.length && /[A-Za-z0-9_-]/.test(src[i]!)) i++;
      out.push({ t: 'id', v: src.slice(s, i), s: base + s, e: base + i });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`unexpected character ${JSON.stringify(c)}`, base + s);
    i += op.length;
    out.push({ t: 'op', v: op, s: base + s, e: base + i });
  }
  out.push({ t: 'end', s: base + src.length, e: base + src.length });
  return out;
}

class Parser {
  private k = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(): Token {
    return this.toks[this.k]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private expectOp(v: string): Token {
    const t = this.peek();
    if (t.t !== 'op' || t.v !== v) throw new ExprError(`expected "${v}" but found ${describe(t)}`, t.s, Math.max(1, t.e - t.s));
    this.k++;
    return t;
  }

  parseAll(): ExprNode {
    const n = this.or();
    const t = this.peek();
    if (t.t !== 'end') throw new ExprError(`unexpected ${describe(t)} after the expression`, t.s, Math.max(1, t.e - t.s));
    return n;
  }

  private or(): ExprNode {
    let left = this.and();
    while (this.isOp('||')) {
      this.k++;
      const right = this.and();
      left = { kind: 'binary', op: '||', left, right, start: left.start, end: right.end };
    }
    return left;
  }
  private and(): ExprNode {
    let left = this.cmp();
    while (this.isOp('&&')) {
      this.k++;
      const right = this.cmp();
      left = { kind: 'binary', op: '&&', left, right, start: left.start, end: right.end };
    }
    return left;
  }
  private cmp(): ExprNode {
    const left = this.unary();
    const t = this.peek();
    if (t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.k++;
      const right = this.unary();
      const next = this.peek();
      if (next.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(next.v))
        throw new ExprError('comparisons do not chain; use && between them', next.s, next.e - next.s);
      return { kind: 'binary', op: t.v as BinaryOp, left, right, start: left.start, end: right.end };
    }
    return left;
  }
  private unary(): ExprNode {
    const t = this.peek();
    if (t.t === 'op' && t.v === '!') {
      this.k++;
      const operand = this.unary();
      return { kind: 'not', operand, start: t.s, end: operand.end };
    }
    return this.postfix();
  }
  private postfix(): ExprNode {
    let n = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        this.k++;
        const t = this.peek();
        // Numeric members (`steps.grp.txns.0`) read as indexes.
        if (t.t === 'num') {
          this.k++;
          n = { kind: 'index', object: n, index: { kind: 'literal', value: t.v, start: t.s, end: t.e }, start: n.start, end: t.e };
          continue;
        }
        if (t.t !== 'id') throw new ExprError(`expected a property name after "." but found ${describe(t)}`, t.s, Math.max(1, t.e - t.s));
        this.k++;
        n = { kind: 'member', object: n, name: t.v, start: n.start, end: t.e };
      } else if (this.isOp('[')) {
        this.k++;
        const index = this.or();
        const close = this.expectOp(']');
        n = { kind: 'index', object: n, index, start: n.start, end: close.e };
      } else return n;
    }
  }
  private primary(): ExprNode {
    const t = this.peek();
    switch (t.t) {
      case 'num':
        this.k++;
        return { kind: 'literal', value: t.v, start: t.s, end: t.e };
      case 'str':
        this.k++;
        return { kind: 'literal', value: t.v, start: t.s, end: t.e };
      case 'id': {
        this.k++;
        if (t.v === 'true' || t.v === 'false') return { kind: 'literal', value: t.v === 'true', start: t.s, end: t.e };
        if (t.v === 'null') return { kind: 'literal', value: null, start: t.s, end: t.e };
        if (this.isOp('(')) {
          if (!FUNCTIONS[t.v]) throw new ExprError(`unknown function ${t.v}(); known: ${Object.keys(FUNCTIONS).join(', ')}`, t.s, t.e - t.s);
          this.k++;
          const args = this.listUntil(')');
          const close = this.expectOp(')');
          return { kind: 'call', fn: t.v, args, start: t.s, end: close.e };
        }
        return { kind: 'root', name: t.v, start: t.s, end: t.e };
      }
      case 'op':
        if (t.v === '(') {
          this.k++;
          const inner = this.or();
          this.expectOp(')');
          return inner;
        }
        if (t.v === '[') {
          this.k++;
          const items = this.listUntil(']');
          const close = this.expectOp(']');
          return { kind: 'list', items, start: t.s, end: close.e };
        }
        break;
      case 'end':
        throw new ExprError('expression ends too early', t.s, 1);
    }
    throw new ExprError(`unexpected ${describe(t)}`, t.s, Math.max(1, t.e - t.s));
  }
  private listUntil(close: string): ExprNode[] {
    const items: ExprNode[] = [];
    if (this.isOp(close)) return items;
    for (;;) {
      items.push(this.or());
      if (!this.isOp(',')) return items;
      this.k++;
    }
  }
}

function describe(t: Token): string {
  switch (t.t) {
    case 'end':
      return 'the end of the expression';
    case 'num':
      return `number ${t.v}`;
    case 'str':
      return `string ${JSON.stringify(t.v)}`;
    default:
      return `"${t.v}"`;
  }
}

/** Parses one expression (the text between `${{` and `}}`); `base` shifts reported offsets. */
export function parseExpression(src: string, base = 0): ExprNode {
  return new Parser(tokenize(src, base)).parseAll();
}

// ---------------------------------------------------------------------------------------------
// Values

/** The type of a value, for messages. */
export function typeName(v: ExprValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  return 'object';
}

/** Whether a value counts as true in conditions. */
export function truthy(v: ExprValue): boolean {
  if (v === null || v === false || v === 0n || v === '') return false;
  if (v instanceof Uint8Array) return v.length > 0;
  return true;
}

/** Deep equality of expression values (bytes by content, bigints by value). */
export function valuesEqual(a: ExprValue, b: ExprValue): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && bytesEqual(a, b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]!));
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b as object);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && valuesEqual((a as Record<string, ExprValue>)[k]!, (b as Record<string, ExprValue>)[k]!))
    );
  }
  return false;
}

/** Sets an own property even for names like `__proto__` (which plain assignment would treat specially). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Converts host values (numbers, Address objects, nested records) to expression values. */
export function toExprValue(v: unknown): ExprValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new ExprError(`value ${v} is not an integer`, 0);
    return BigInt(v);
  }
  if (typeof v === 'bigint' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Uint8Array) return v;
  if (v instanceof Address) return v.toString();
  if (Array.isArray(v)) return v.map(toExprValue);
  if (typeof v === 'object') {
    const out: Record<string, ExprValue> = {};
    for (const [k, x] of Object.entries(v as object)) if (x !== undefined) setOwn(out, k, toExprValue(x));
    return out;
  }
  throw new ExprError(`cannot use a ${typeof v} in an expression`, 0);
}

/** How a value reads when spliced into a longer string: bytes as 0x-hex, lists/objects as JSON. */
export function renderValue(v: ExprValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return '0x' + toHex(v);
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? '0x' + toHex(x) : x));
}

// ---------------------------------------------------------------------------------------------
// Functions

type Fn = { arity: [number, number]; doc: string; run: (args: ExprValue[], node: ExprNode & { kind: 'call' }) => ExprValue };

function fail(node: ExprNode, message: string): never {
  throw new ExprError(message, node.start, Math.max(1, node.end - node.start));
}

function asBytes(v: ExprValue, node: ExprNode, fn: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return utf8(v);
  return fail(node, `${fn}() needs bytes or a string, got ${typeName(v)}${typeof v === 'bigint' ? ' (use itob() for the 8-byte form)' : ''}`);
}
function asInt(v: ExprValue, node: ExprNode, fn: string): bigint {
  if (typeof v === 'bigint') return v;
  return fail(node, `${fn}() needs an integer, got ${typeName(v)}`);
}
function asString(v: ExprValue, node: ExprNode, fn: string): string {
  if (typeof v === 'string') return v;
  return fail(node, `${fn}() needs a string, got ${typeName(v)}`);
}
const U64_MAX = (1n << 64n) - 1n;

/** The functions workflow expressions can call (`concat`, `address_bytes`, …). */
export const FUNCTIONS: Readonly<Record<string, Fn>> = {
  len: {
    arity: [1, 1],
    doc: 'Length: bytes (a string counts its UTF-8 bytes), list items, or object keys.',
    run: ([v], n) => {
      if (v instanceof Uint8Array) return BigInt(v.length);
      if (typeof v === 'string') return BigInt(utf8(v).length);
      if (Array.isArray(v)) return BigInt(v.length);
      if (v !== null && typeof v === 'object') return BigInt(Object.keys(v).length);
      return fail(n.args[0]!, `len() needs bytes, a string, a list or an object, got ${typeName(v!)}`);
    },
  },
  concat: {
    arity: [1, 64],
    doc: 'Joins strings into a string; if any argument is bytes, joins everything as bytes.',
    run: (args, n) => {
      if (args.every((a) => typeof a === 'string')) return (args as string[]).join('');
      return concatBytes(...args.map((a, i) => asBytes(a, n.args[i]!, 'concat')));
    },
  },
  itob: {
    arity: [1, 1],
    doc: 'Integer to 8 big-endian bytes (as the AVM itob).',
    run: ([v], n) => {
      const x = asInt(v!, n.args[0]!, 'itob');
      if (x < 0n || x > U64_MAX) fail(n.args[0]!, `itob() needs a uint64, got ${x}`);
      return uint64ToBytes(x);
    },
  },
  btoi: {
    arity: [1, 1],
    doc: 'Big-endian bytes (at most 8) to an integer.',
    run: ([v], n) => {
      const b = v instanceof Uint8Array ? v : fail(n.args[0]!, `btoi() needs bytes, got ${typeName(v!)}`);
      if (b.length > 8) fail(n.args[0]!, `btoi() takes at most 8 bytes, got ${b.length}`);
      return b.reduce((acc, x) => (acc << 8n) | BigInt(x), 0n);
    },
  },
  int: {
    arity: [1, 1],
    doc: 'A decimal string or up to 8 bytes as an integer; integers pass through.',
    run: ([v], n) => {
      if (typeof v === 'bigint') return v;
      if (typeof v === 'string' && /^[0-9][0-9_]*$/.test(v.trim())) return BigInt(v.trim().replace(/_/g, ''));
      if (v instanceof Uint8Array && v.length <= 8) return bytesToUint64(new Uint8Array([...new Uint8Array(8 - v.length), ...v]));
      return fail(n.args[0]!, `int() cannot read ${typeName(v!)} ${renderValue(v!).slice(0, 40)} as an integer`);
    },
  },
  str: {
    arity: [1, 1],
    doc: 'Text form: UTF-8 bytes decoded, integers in decimal.',
    run: ([v], n) => {
      if (v instanceof Uint8Array) {
        const s = tryFromUtf8(v);
        return s ?? fail(n.args[0]!, 'str() got bytes that are not UTF-8 (use to_hex() or to_b64())');
      }
      return renderValue(v!);
    },
  },
  bytes: { arity: [1, 1], doc: 'The UTF-8 bytes of a string (bytes pass through).', run: ([v], n) => asBytes(v!, n.args[0]!, 'bytes') },
  hex: {
    arity: [1, 1],
    doc: 'Bytes from hex text (an optional 0x prefix is allowed).',
    run: ([v], n) => {
      const s = asString(v!, n.args[0]!, 'hex').replace(/^0x/i, '');
      try {
        return fromHex(s);
      } catch (e) {
        return fail(n.args[0]!, `hex(): ${(e as Error).message}`);
      }
    },
  },
  to_hex: { arity: [1, 1], doc: 'Hex text of bytes (no prefix).', run: ([v], n) => toHex(asBytes(v!, n.args[0]!, 'to_hex')) },
  b64: {
    arity: [1, 1],
    doc: 'Bytes from base64 text.',
    run: ([v], n) => {
      try {
        return fromBase64(asString(v!, n.args[0]!, 'b64'));
      } catch (e) {
        return fail(n.args[0]!, `b64(): ${(e as Error).message}`);
      }
    },
  },
  to_b64: { arity: [1, 1], doc: 'Base64 text of bytes.', run: ([v], n) => toBase64(asBytes(v!, n.args[0]!, 'to_b64')) },
  address: {
    arity: [1, 1],
    doc: 'An address: 32 bytes to their 58-character form, or a 58-character address checked and returned.',
    run: ([v], n) => {
      try {
        if (v instanceof Uint8Array) return encodeAddress(v);
        if (typeof v === 'string') return encodeAddress(decodeAddress(v));
      } catch (e) {
        return fail(n.args[0]!, `address(): ${(e as Error).message}`);
      }
      return fail(n.args[0]!, `address() needs 32 bytes or an address string, got ${typeName(v!)}`);
    },
  },
  address_bytes: {
    arity: [1, 1],
    doc: 'The 32 public-key bytes of an address.',
    run: ([v], n) => {
      try {
        return decodeAddress(asString(v!, n.args[0]!, 'address_bytes'));
      } catch (e) {
        return fail(n.args[0]!, `address_bytes(): ${(e as Error).message}`);
      }
    },
  },
  app_address: {
    arity: [1, 1],
    doc: "The address of an application's account.",
    run: ([v], n) => Address.forApp(asInt(v!, n.args[0]!, 'app_address')).toString(),
  },
  method: {
    arity: [1, 1],
    doc: 'The 4-byte ARC-4 selector of a method signature.',
    run: ([v], n) => {
      try {
        return methodSelector(asString(v!, n.args[0]!, 'method'));
      } catch (e) {
        return fail(n.args[0]!, `method(): ${(e as Error).message}`);
      }
    },
  },
  sha256: { arity: [1, 1], doc: 'SHA-256 of bytes.', run: ([v], n) => sha256(asBytes(v!, n.args[0]!, 'sha256')) },
  sha512_256: { arity: [1, 1], doc: 'SHA-512/256 of bytes.', run: ([v], n) => sha512_256(asBytes(v!, n.args[0]!, 'sha512_256')) },
  contains: {
    arity: [2, 2],
    doc: 'Whether a string holds a substring, bytes hold a byte run, or a list holds an item.',
    run: ([a, b], n) => {
      if (Array.isArray(a)) return a.some((x) => valuesEqual(x, b!));
      if (typeof a === 'string' && typeof b === 'string') return a.includes(b);
      const hay = asBytes(a!, n.args[0]!, 'contains');
      const needle = asBytes(b!, n.args[1]!, 'contains');
      for (let i = 0; i + needle.length <= hay.length; i++) if (bytesEqual(hay.subarray(i, i + needle.length), needle)) return true;
      return false;
    },
  },
  starts_with: {
    arity: [2, 2],
    doc: 'Whether a string or bytes begin with a prefix.',
    run: ([a, b], n) => {
      if (typeof a === 'string' && typeof b === 'string') return a.startsWith(b);
      const x = asBytes(a!, n.args[0]!, 'starts_with');
      const p = asBytes(b!, n.args[1]!, 'starts_with');
      return x.length >= p.length && bytesEqual(x.subarray(0, p.length), p);
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Evaluation

function keysOf(v: ExprValue): string {
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && !Array.isArray(v)) {
    const keys = Object.keys(v);
    return keys.length ? `; it has ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}` : '; it is empty';
  }
  return '';
}

/** The dotted path an expression reads, for messages. */
export function pathText(node: ExprNode): string {
  switch (node.kind) {
    case 'root':
      return node.name;
    case 'member':
      return `${pathText(node.object)}.${node.name}`;
    case 'index':
      return `${pathText(node.object)}[${node.index.kind === 'literal' ? renderValue(node.index.value) : '…'}]`;
    default:
      return '(…)';
  }
}

function order(a: ExprValue, b: ExprValue, node: ExprNode & { kind: 'binary' }): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  return fail(node, `cannot order ${typeName(a)} against ${typeName(b)} with ${node.op}`);
}

/** Evaluates an expression in a scope (steps, accounts, env). */
export function evaluate(node: ExprNode, scope: ExprScope): ExprValue {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'root': {
      const v = Object.prototype.hasOwnProperty.call(scope, node.name) ? scope[node.name] : undefined;
      if (v === undefined) fail(node, `unknown name "${node.name}"; expressions can use ${Object.keys(scope).join(', ')}`);
      return v;
    }
    case 'member': {
      const obj = evaluate(node.object, scope);
      if (obj === null || typeof obj !== 'object' || obj instanceof Uint8Array || Array.isArray(obj))
        fail(node, `${pathText(node.object)} is ${typeName(obj)}, which has no property "${node.name}"`);
      if (!Object.prototype.hasOwnProperty.call(obj, node.name)) fail(node, `${pathText(node.object)} has no "${node.name}"${keysOf(obj)}`);
      return (obj as Record<string, ExprValue>)[node.name]!;
    }
    case 'index': {
      const obj = evaluate(node.object, scope);
      const idx = evaluate(node.index, scope);
      if (typeof idx === 'string') {
        if (obj === null || typeof obj !== 'object' || obj instanceof Uint8Array || Array.isArray(obj))
          fail(node, `${pathText(node.object)} is ${typeName(obj)}, which has no property "${idx}"`);
        if (!Object.prototype.hasOwnProperty.call(obj, idx)) fail(node, `${pathText(node.object)} has no "${idx}"${keysOf(obj)}`);
        return (obj as Record<string, ExprValue>)[idx]!;
      }
      if (typeof idx !== 'bigint') fail(node.index, `an index must be an integer or a string, got ${typeName(idx)}`);
      const len = Array.isArray(obj) ? obj.length : obj instanceof Uint8Array ? obj.length : -1;
      if (len < 0) fail(node, `${pathText(node.object)} is ${typeName(obj)} and cannot be indexed by number`);
      if (idx < 0n || idx >= BigInt(len)) fail(node.index, `index ${idx} is out of range (length ${len})`);
      return Array.isArray(obj) ? obj[Number(idx)]! : BigInt((obj as Uint8Array)[Number(idx)]!);
    }
    case 'list':
      return node.items.map((i) => evaluate(i, scope));
    case 'not':
      return !truthy(evaluate(node.operand, scope));
    case 'call': {
      const fn = FUNCTIONS[node.fn]!;
      const [lo, hi] = fn.arity;
      if (node.args.length < lo || node.args.length > hi)
        fail(node, `${node.fn}() takes ${lo === hi ? lo : `${lo} to ${hi}`} argument${hi === 1 ? '' : 's'}, got ${node.args.length}`);
      return fn.run(
        node.args.map((a) => evaluate(a, scope)),
        node,
      );
    }
    case 'binary': {
      if (node.op === '&&') {
        const l = evaluate(node.left, scope);
        return truthy(l) ? evaluate(node.right, scope) : l;
      }
      if (node.op === '||') {
        const l = evaluate(node.left, scope);
        return truthy(l) ? l : evaluate(node.right, scope);
      }
      const l = evaluate(node.left, scope);
      const r = evaluate(node.right, scope);
      switch (node.op) {
        case '==':
          return valuesEqual(l, r);
        case '!=':
          return !valuesEqual(l, r);
        case '<':
          return order(l, r, node) < 0;
        case '<=':
          return order(l, r, node) <= 0;
        case '>':
          return order(l, r, node) > 0;
        case '>=':
          return order(l, r, node) >= 0;
      }
    }
  }
}

/** Root-anchored paths an expression reads (`steps.deploy.app-id` → ['steps','deploy','app-id']), for checking references before running. */
export function references(node: ExprNode): string[][] {
  const out: string[][] = [];
  const pathOf = (n: ExprNode): string[] | undefined => {
    if (n.kind === 'root') return [n.name];
    if (n.kind === 'member') {
      const p = pathOf(n.object);
      return p ? [...p, n.name] : undefined;
    }
    if (n.kind === 'index' && n.index.kind === 'literal' && typeof n.index.value === 'string') {
      const p = pathOf(n.object);
      return p ? [...p, n.index.value] : undefined;
    }
    return undefined;
  };
  const walk = (n: ExprNode): void => {
    const p = pathOf(n);
    if (p) {
      out.push(p);
      return;
    }
    switch (n.kind) {
      case 'member':
        walk(n.object);
        break;
      case 'index':
        walk(n.object);
        walk(n.index);
        break;
      case 'call':
        n.args.forEach(walk);
        break;
      case 'list':
        n.items.forEach(walk);
        break;
      case 'not':
        walk(n.operand);
        break;
      case 'binary':
        walk(n.left);
        walk(n.right);
        break;
      default:
        break;
    }
  };
  walk(node);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Templates: strings with `${{ … }}` parts

/** A string with `${{ … }}` expressions, parsed; `whole` when it is a single expression. */
export interface Template {
  /** Literal text and parsed expressions, in order. */
  parts: Array<string | { node: ExprNode; source: string }>;
  /** The whole string is one expression: its value keeps its type instead of becoming text. */
  whole: boolean;
}

const OPEN = '${{';

/** Whether a string contains `${{`. */
export function hasTemplate(text: string): boolean {
  return text.includes(OPEN);
}

/** Finds the `}}` closing an expression, skipping quoted strings inside it. */
function findClose(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

/** Parses a string with `${{ … }}` expressions. */
export function parseTemplate(text: string): Template {
  const parts: Template['parts'] = [];
  let i = 0;
  for (;;) {
    const open = text.indexOf(OPEN, i);
    if (open < 0) {
      if (i < text.length) parts.push(text.slice(i));
      break;
    }
    if (open > i) parts.push(text.slice(i, open));
    const start = open + OPEN.length;
    const close = findClose(text, start);
    if (close < 0) throw new ExprError('"${{" is never closed with "}}"', open, OPEN.length);
    const source = text.slice(start, close);
    if (source.trim() === '') throw new ExprError('empty expression', open, close + 2 - open);
    parts.push({ node: parseExpression(source, start), source: source.trim() });
    i = close + 2;
  }
  const exprs = parts.filter((p) => typeof p !== 'string');
  const whole = exprs.length === 1 && parts.every((p) => typeof p !== 'string' || p.trim() === '');
  return { parts, whole };
}

/** Evaluates a template: a whole-expression template keeps the value's type; otherwise text. */
export function evaluateTemplate(t: Template, scope: ExprScope): ExprValue {
  if (t.whole) return evaluate((t.parts.find((p) => typeof p !== 'string') as { node: ExprNode }).node, scope);
  return t.parts.map((p) => (typeof p === 'string' ? p : renderValue(evaluate(p.node, scope)))).join('');
}

/** Convenience: parse and evaluate a string that may contain `${{ … }}`. */
export function interpolate(text: string, scope: ExprScope): ExprValue {
  return hasTemplate(text) ? evaluateTemplate(parseTemplate(text), scope) : text;
}
