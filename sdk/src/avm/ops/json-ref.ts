import { AvmFault } from '../errors.js';
import { fromBig } from '../value.js';

const dec = new TextDecoder('utf-8', { fatal: false });
const enc = new TextEncoder();

/** A minimal strict JSON scanner: returns the end index of the value starting at i. */
class Scanner {
  constructor(readonly s: string) {}
  ws(i: number): number {
    while (i < this.s.length && ' \t\n\r'.includes(this.s[i]!)) i++;
    return i;
  }
  bad(): never {
    throw new AvmFault('error while parsing JSON text, invalid json text');
  }
  value(i: number): number {
    i = this.ws(i);
    const c = this.s[i];
    if (c === '{') return this.object(i, undefined);
    if (c === '[') {
      i = this.ws(i + 1);
      if (this.s[i] === ']') return i + 1;
      for (;;) {
        i = this.ws(this.value(i));
        if (this.s[i] === ',') i++;
        else if (this.s[i] === ']') return i + 1;
        else this.bad();
      }
    }
    if (c === '"') return this.string(i);
    if (this.s.startsWith('true', i)) return i + 4;
    if (this.s.startsWith('false', i)) return i + 5;
    if (this.s.startsWith('null', i)) return i + 4;
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(i));
    if (!m) this.bad();
    return i + m![0].length;
  }
  string(i: number): number {
    i++;
    while (i < this.s.length) {
      const c = this.s[i]!;
      if (c === '"') return i + 1;
      if (c === '\\') i += 2;
      else if (c < ' ') this.bad();
      else i++;
    }
    return this.bad();
  }
  /**
   * Parses an object; when `into` is given, records its members as raw text. A key repeated in
   * any object, nested ones included, is refused as the node refuses it.
   */
  object(i: number, into: Map<string, string> | undefined): number {
    i = this.ws(i + 1);
    if (this.s[i] === '}') return i + 1;
    const seen = new Set<string>();
    for (;;) {
      i = this.ws(i);
      if (this.s[i] !== '"') this.bad();
      const kEnd = this.string(i);
      const key = JSON.parse(this.s.slice(i, kEnd)) as string;
      i = this.ws(kEnd);
      if (this.s[i] !== ':') this.bad();
      const vStart = this.ws(i + 1);
      const vEnd = this.value(vStart);
      if (seen.has(key)) throw new AvmFault('error while parsing JSON text, invalid json text, duplicate keys not allowed');
      seen.add(key);
      into?.set(key, this.s.slice(vStart, vEnd));
      i = this.ws(vEnd);
      if (this.s[i] === ',') i++;
      else if (this.s[i] === '}') return i + 1;
      else this.bad();
    }
  }
}

/** `json_ref`: reads a top-level key of a JSON object as a string, uint64 or object. */
export function jsonRef(text: Uint8Array, keyBytes: Uint8Array, type: string): Uint8Array | number | bigint {
  const s = dec.decode(text);
  const sc = new Scanner(s);
  const members = new Map<string, string>();
  const start = sc.ws(0);
  if (s[start] !== '{') {
    throw new AvmFault('error while parsing JSON text, invalid json text, only json object is allowed');
  }
  const end = sc.ws(sc.object(start, members));
  if (end !== s.length) sc.bad();
  const key = dec.decode(keyBytes);
  const raw = members.get(key);
  if (raw === undefined) throw new AvmFault(`key ${key} not found in JSON text`);
  // The node's first decode (Algorand's codec) keeps a null member as no text at all, and the
  // second (Go's encoding/json) then fails on the empty input, whatever the type asked for.
  if (raw === 'null') throw new AvmFault('unexpected end of JSON input');
  if (type === 'JSONString') {
    if (!raw.startsWith('"')) throw new AvmFault(`json: cannot unmarshal ${kind(raw)} into Go value of type string`);
    return enc.encode(JSON.parse(raw) as string);
  }
  if (type === 'JSONUint64') {
    if (!/^\d+$/.test(raw) || BigInt(raw) > 0xffffffffffffffffn) {
      throw new AvmFault(`json: cannot unmarshal ${kind(raw)} ${kind(raw) === 'number' ? raw + ' ' : ''}into Go value of type uint64`);
    }
    return fromBig(BigInt(raw));
  }
  if (type === 'JSONObject') {
    if (!raw.startsWith('{')) throw new AvmFault(`json: cannot unmarshal ${kind(raw)} into Go value of type map[string]json.RawMessage`);
    return enc.encode(raw);
  }
  throw new AvmFault(`unsupported json_ref return type ${type}`);
}

function kind(raw: string): string {
  const c = raw[0];
  if (c === '"') return 'string';
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === 't' || c === 'f') return 'bool';
  if (c === 'n') return 'null';
  return 'number';
}
