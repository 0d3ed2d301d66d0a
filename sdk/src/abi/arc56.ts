import { fromBase64 } from '../encoding/base64.js';
import { fromUtf8, nameTextProblem, utf8 } from '../encoding/bytes.js';
import { parseJson } from '../encoding/json.js';
import { AbiTypeError, AbiEncodeError, AbiDecodeError } from './errors.js';
import { cblocksOffset } from './cblocks.js';
import { AbiEvent } from './events.js';
import { decodeMethodReturn } from './method-call.js';
import { AbiContract, AbiMethod, findMethod, isReferenceArgType, isTransactionArgType } from './method.js';
import { parseAbiType } from './parse-type.js';
import { arc32ToArc56, isArc32AppSpec } from './arc32.js';
import { AbiStructType, buildStructTypes } from './struct.js';
import { AbiUintType, type AbiType, type AbiValue } from './types.js';
import {
  ARC56_AVM_TYPES,
  ARC56_CALL_ACTIONS,
  ARC56_CREATE_ACTIONS,
  type Arc56Actions,
  type Arc56AvmType,
  type Arc56ContractJson,
  type Arc56DefaultValue,
  type Arc56MethodJson,
  type Arc56ProgramSourceInfo,
  type Arc56StorageKeyJson,
  type Arc56StorageMapJson,
} from './arc56-types.js';

/** An app spec that does not follow ARC-56; `issues` lists every problem found, each with its JSON path. */
export class Arc56Error extends AbiTypeError {
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    const shown = issues.slice(0, 5).join('; ');
    super(`invalid ARC-56 app spec: ${shown}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`);
    this.issues = issues;
  }
}

/** Storage/template types: an ARC-4 type (structs included) or an AVM native type. */
export type Arc56ValueType = { kind: 'avm'; avm: Arc56AvmType; text: string } | { kind: 'abi'; abi: AbiType; text: string; struct?: string };

/** A named storage key of a parsed spec, with its key bytes and resolved key and value types. */
export interface Arc56StorageKey {
  name: string;
  desc?: string;
  key: Uint8Array;
  keyType: Arc56ValueType;
  valueType: Arc56ValueType;
}

/** A storage map of a parsed spec: key prefix and resolved key and value types. */
export interface Arc56StorageMap {
  name: string;
  desc?: string;
  prefix: Uint8Array;
  keyType: Arc56ValueType;
  valueType: Arc56ValueType;
}

/** Where app state lives: global state, an account's local state, or boxes. */
export type Arc56Storage = 'global' | 'local' | 'box';

/** An ARC-56 method: the ARC-4 method plus struct types, default values, actions and hints. */
export interface Arc56Method {
  method: AbiMethod;
  json: Arc56MethodJson;
  /** Per argument: the struct type when the argument is a struct. */
  argStructs: ReadonlyArray<AbiStructType | undefined>;
  returnStruct: AbiStructType | undefined;
  defaultValues: ReadonlyArray<Arc56DefaultValue | undefined>;
  actions: Arc56Actions;
  readonly: boolean;
  events: AbiEvent[];
}

const uint64 = new AbiUintType(64);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Collects problems instead of stopping at the first one, so an editor can show them all. */
class Checker {
  readonly issues: string[] = [];

  issue(path: string, message: string): void {
    this.issues.push(`${path}: ${message}`);
  }

  record(v: unknown, path: string, required = true): Record<string, unknown> | undefined {
    if (v === undefined && !required) return undefined;
    if (!isRecord(v)) {
      this.issue(path, v === undefined ? 'missing (object expected)' : 'must be an object');
      return undefined;
    }
    return v;
  }

  array(v: unknown, path: string, required = true): unknown[] | undefined {
    if (v === undefined && !required) return undefined;
    if (!Array.isArray(v)) {
      this.issue(path, v === undefined ? 'missing (list expected)' : 'must be a list');
      return undefined;
    }
    return v;
  }

  string(v: unknown, path: string, required = true): string | undefined {
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string') {
      this.issue(path, v === undefined ? 'missing (string expected)' : 'must be a string');
      return undefined;
    }
    return v;
  }

  /** A string that people read as a name: no control characters, bidi overrides or lone surrogates. */
  name(v: unknown, path: string, required = true): string | undefined {
    const s = this.string(v, path, required);
    const problem = s === undefined ? undefined : nameTextProblem(s);
    if (problem) this.issue(path, `${problem}; names may not`);
    return problem ? undefined : s;
  }

  count(v: unknown, path: string): number {
    if (typeof v === 'bigint' && v >= 0n) return Number(v);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      this.issue(path, 'must be a non-negative integer');
      return 0;
    }
    return v;
  }

  base64(v: unknown, path: string): Uint8Array | undefined {
    const s = this.string(v, path);
    if (s === undefined) return undefined;
    try {
      return fromBase64(s);
    } catch (e) {
      this.issue(path, `not valid base64 (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
  }
}

/** A parsed, validated ARC-56 app spec with resolved types. */
export class Arc56AppSpec {
  readonly json: Arc56ContractJson;
  readonly name: string;
  readonly structs: ReadonlyMap<string, AbiStructType>;
  readonly methods: readonly Arc56Method[];
  /** Contract-level events plus those declared on methods (deduplicated by signature). */
  readonly events: readonly AbiEvent[];
  readonly keys: Readonly<Record<Arc56Storage, readonly Arc56StorageKey[]>>;
  readonly maps: Readonly<Record<Arc56Storage, readonly Arc56StorageMap[]>>;
  readonly templateVariables: ReadonlyMap<string, { type: Arc56ValueType; value?: Uint8Array }>;
  readonly scratchVariables: ReadonlyMap<string, { slot: number; type: Arc56ValueType }>;

  /** Use Arc56AppSpec.parse / parseArc56: they validate before building. */
  constructor(parts: {
    json: Arc56ContractJson;
    structs: Map<string, AbiStructType>;
    methods: Arc56Method[];
    events: AbiEvent[];
    keys: Record<Arc56Storage, Arc56StorageKey[]>;
    maps: Record<Arc56Storage, Arc56StorageMap[]>;
    templateVariables: Map<string, { type: Arc56ValueType; value?: Uint8Array }>;
    scratchVariables: Map<string, { slot: number; type: Arc56ValueType }>;
  }) {
    this.json = parts.json;
    this.name = parts.json.name;
    this.structs = parts.structs;
    this.methods = Object.freeze(parts.methods);
    this.events = Object.freeze(parts.events);
    this.keys = parts.keys;
    this.maps = parts.maps;
    this.templateVariables = parts.templateVariables;
    this.scratchVariables = parts.scratchVariables;
  }

  /** Validates ARC-56 JSON (text or parsed object); throws Arc56Error listing every problem. */
  static parse(input: string | object): Arc56AppSpec {
    const json = (typeof input === 'string' ? parseJson(input) : input) as unknown;
    return buildSpec(json);
  }

  getMethod(nameOrSignature: string): Arc56Method {
    const m = findMethod(
      this.methods.map((x) => x.method),
      nameOrSignature,
    );
    return this.methods.find((x) => x.method === m)!;
  }

  /** The ARC-4 view of this app (name, description, networks, methods). */
  toAbiContract(): AbiContract {
    return new AbiContract({
      name: this.name,
      ...(this.json.desc !== undefined ? { desc: this.json.desc } : {}),
      ...(this.json.networks !== undefined ? { networks: this.json.networks } : {}),
      methods: this.methods.map((m) => m.method),
    });
  }

  getStruct(name: string): AbiStructType {
    const s = this.structs.get(name);
    if (!s) throw new AbiTypeError(`app spec ${this.name} has no struct ${JSON.stringify(name)}`);
    return s;
  }

  /** Program bytes from `byteCode` (undefined when the spec carries none). */
  byteCode(program: 'approval' | 'clear'): Uint8Array | undefined {
    const b = this.json.byteCode?.[program];
    return b === undefined ? undefined : fromBase64(b);
  }

  /** TEAL text from `source` (may still contain TMPL_ variables). */
  source(program: 'approval' | 'clear'): string | undefined {
    const s = this.json.source?.[program];
    return s === undefined ? undefined : fromUtf8(fromBase64(s));
  }

  /**
   * The error message the compiler recorded for a failing pc. For "cblocks" specs the lookup
   * needs the program that ran (`programBytes`), defaulting to the spec's own byteCode.
   */
  errorMessageAt(program: 'approval' | 'clear', pc: number, programBytes?: Uint8Array): string | undefined {
    const info = this.json.sourceInfo?.[program];
    if (!info) return undefined;
    const target = pc - this.pcOffset(program, programBytes);
    for (const entry of info.sourceInfo) if (entry.errorMessage !== undefined && entry.pc.includes(target)) return entry.errorMessage;
    return undefined;
  }

  /** Source info entry (TEAL line, source location) for a pc. */
  sourceInfoAt(program: 'approval' | 'clear', pc: number, programBytes?: Uint8Array): Arc56ProgramSourceInfo['sourceInfo'][number] | undefined {
    const info = this.json.sourceInfo?.[program];
    if (!info) return undefined;
    const target = pc - this.pcOffset(program, programBytes);
    return info.sourceInfo.find((e) => e.pc.includes(target));
  }

  /**
   * What to subtract from a real pc before looking it up: 0 for "none"; for "cblocks" the end of
   * the leading constant blocks of the program that ran (`programBytes`, else the spec's byteCode).
   */
  pcOffset(program: 'approval' | 'clear', programBytes?: Uint8Array): number {
    if (this.json.sourceInfo?.[program]?.pcOffsetMethod !== 'cblocks') return 0;
    const bytes = programBytes ?? this.byteCode(program);
    return bytes ? cblocksOffset(bytes) : 0;
  }

  /** The method's return value (a struct object when the method returns a struct). */
  decodeReturn(method: Arc56Method | string, logs: readonly Uint8Array[]): AbiValue | undefined {
    const m = typeof method === 'string' ? this.getMethod(method) : method;
    return decodeMethodReturn(m.method, logs);
  }

  /** Finds the event a log emits (by ARC-28 selector) and decodes it. */
  decodeEvent(log: Uint8Array): ReturnType<AbiEvent['decodeLog']> | undefined {
    const event = this.events.find((e) => e.matches(log));
    return event?.decodeLog(log);
  }

  /** Resolves an ARC-56 type string (ABI type, AVM type or struct name). */
  resolveType(text: string): Arc56ValueType {
    return resolveValueType(text, this.structs);
  }
}

/** Validates ARC-56 JSON (text or object) and returns the parsed spec; throws `Arc56Error` listing every problem. */
export function parseArc56(input: string | object): Arc56AppSpec {
  return Arc56AppSpec.parse(input);
}

/** Reads an app spec in either format: ARC-32 files are converted (arc32ToArc56) first. */
export function loadAppSpec(input: string | object): Arc56AppSpec {
  const json = (typeof input === 'string' ? parseJson(input) : input) as unknown;
  return Arc56AppSpec.parse(isArc32AppSpec(json) ? arc32ToArc56(json) : (json as object));
}

/**
 * The value of a `literal` default argument, decoded with the default's own `type` when given
 * (else the argument's type). Other sources (box, global, local, method) need chain state, so
 * they return undefined here.
 */
export function literalDefaultValue(method: Arc56Method, argIndex: number): AbiValue | undefined {
  const def = method.defaultValues[argIndex];
  if (!def || def.source !== 'literal') return undefined;
  const arg = method.method.args[argIndex];
  if (!arg || arg.kind === 'transaction') return undefined;
  const bytes = fromBase64(def.data);
  const declared = def.type;
  if (declared !== undefined && (ARC56_AVM_TYPES as readonly string[]).includes(declared)) {
    return decodeArc56Value({ kind: 'avm', avm: declared as Arc56AvmType, text: declared }, bytes);
  }
  const type = declared !== undefined ? parseAbiType(declared) : arg.kind === 'value' ? arg.abiType : uint64;
  const value = type.decode(bytes);
  // A struct argument takes its literal as an object, like any other struct value.
  const struct = method.argStructs[argIndex];
  return struct && struct.toString() === type.toString() ? struct.decode(bytes) : value;
}

function resolveValueType(text: string, structs: ReadonlyMap<string, AbiStructType>): Arc56ValueType {
  if ((ARC56_AVM_TYPES as readonly string[]).includes(text)) return { kind: 'avm', avm: text as Arc56AvmType, text };
  const struct = structs.get(text);
  if (struct) return { kind: 'abi', abi: struct, text, struct: text };
  return { kind: 'abi', abi: parseAbiType(text), text };
}

/** Encodes a value for storage under an ARC-56 key/value type. */
export function encodeArc56Value(type: Arc56ValueType, value: AbiValue | Uint8Array): Uint8Array {
  if (type.kind === 'abi') return type.abi.encode(value);
  switch (type.avm) {
    case 'AVMBytes':
      if (value instanceof Uint8Array) return value;
      if (typeof value === 'string') return utf8(value);
      throw new AbiEncodeError('AVMBytes', 'expected bytes');
    case 'AVMString':
      if (typeof value === 'string') return utf8(value);
      if (value instanceof Uint8Array) return value;
      throw new AbiEncodeError('AVMString', 'expected a string');
    case 'AVMUint64':
      return uint64.encode(value);
  }
}

/**
 * Decodes a stored value. `raw` is the bytes from state or a box, or a bigint for a uint slot of
 * global/local state.
 */
export function decodeArc56Value(type: Arc56ValueType, raw: Uint8Array | bigint | number): AbiValue {
  if (typeof raw !== 'object') {
    const n = BigInt(raw);
    if (type.kind === 'avm' && type.avm === 'AVMUint64') return n;
    if (type.kind === 'abi' && type.abi instanceof AbiUintType) return n;
    return type.kind === 'abi' ? type.abi.decode(uint64.encode(n)) : uint64.encode(n);
  }
  if (type.kind === 'abi') return type.abi.decode(raw);
  switch (type.avm) {
    case 'AVMBytes':
      return raw;
    case 'AVMString':
      return fromUtf8(raw);
    case 'AVMUint64':
      if (raw.length > 8) throw new AbiDecodeError('AVMUint64', `expected at most 8 bytes, got ${raw.length}`);
      return raw.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  }
}

function buildSpec(input: unknown): Arc56AppSpec {
  const c = new Checker();
  const root = c.record(input, '$');
  if (!root) throw new Arc56Error(c.issues);

  c.name(root.name, 'name');
  c.string(root.desc, 'desc', false);
  const arcs = c.array(root.arcs, 'arcs', false) ?? [];
  arcs.forEach((a, i) => c.count(a, `arcs[${i}]`));

  // Structs first: methods, state and events refer to them by name.
  let structs = new Map<string, AbiStructType>();
  const structsJson = c.record(root.structs ?? {}, 'structs');
  if (structsJson) {
    try {
      structs = buildStructTypes(structsJson as Record<string, never>);
    } catch (e) {
      c.issue('structs', e instanceof Error ? e.message : String(e));
    }
  }

  const typeAt = (text: unknown, path: string, allowAvm: boolean): Arc56ValueType | undefined => {
    const s = c.string(text, path);
    if (s === undefined) return undefined;
    if (!allowAvm && (ARC56_AVM_TYPES as readonly string[]).includes(s)) {
      c.issue(path, `${s} is not allowed here (ABI type expected)`);
      return undefined;
    }
    try {
      return resolveValueType(s, structs);
    } catch (e) {
      c.issue(path, `${e instanceof Error ? e.message : String(e)} (and no struct of that name)`);
      return undefined;
    }
  };

  const structRef = (value: unknown, path: string, abiText: string | undefined): AbiStructType | undefined => {
    const s = c.string(value, path, false);
    if (s === undefined) return undefined;
    const struct = structs.get(s);
    if (!struct) {
      c.issue(path, `unknown struct ${JSON.stringify(s)}`);
      return undefined;
    }
    if (abiText !== undefined) {
      try {
        if (parseAbiType(abiText).toString() !== struct.toString()) c.issue(path, `struct ${s} encodes as ${struct.toString()}, but the type says ${abiText}`);
      } catch (e) {
        c.issue(path.replace(/\.struct$/, '.type'), e instanceof Error ? e.message : String(e));
      }
    }
    return struct;
  };

  const eventsOf = (list: unknown, path: string): AbiEvent[] => {
    const arr = c.array(list, path, false) ?? [];
    const out: AbiEvent[] = [];
    arr.forEach((ev, i) => {
      const p = `${path}[${i}]`;
      const rec = c.record(ev, p);
      if (!rec) return;
      try {
        out.push(new AbiEvent(rec as never, (t, struct) => (struct ? (structRef(struct, `${p}.struct`, t) ?? parseAbiType(t)) : parseAbiType(t))));
      } catch (e) {
        c.issue(p, e instanceof Error ? e.message : String(e));
      }
    });
    return out;
  };

  const actionsAt = (value: unknown, path: string): Arc56Actions => {
    const rec = c.record(value, path);
    const out: Arc56Actions = { create: [], call: [] };
    if (!rec) return out;
    for (const kind of ['create', 'call'] as const) {
      const allowed: readonly string[] = kind === 'create' ? ARC56_CREATE_ACTIONS : ARC56_CALL_ACTIONS;
      (c.array(rec[kind], `${path}.${kind}`) ?? []).forEach((a, i) => {
        if (typeof a !== 'string' || !allowed.includes(a)) c.issue(`${path}.${kind}[${i}]`, `${JSON.stringify(a)} is not one of ${allowed.join(', ')}`);
        else (out[kind] as string[]).push(a);
      });
    }
    return out;
  };

  const methods: Arc56Method[] = [];
  (c.array(root.methods, 'methods') ?? []).forEach((m, i) => {
    const p = `methods[${i}]`;
    const rec = c.record(m, p);
    if (!rec) return;
    const mname = c.name(rec.name, `${p}.name`);
    const args = c.array(rec.args, `${p}.args`) ?? [];
    const returns = c.record(rec.returns, `${p}.returns`);
    const argStructs: Array<AbiStructType | undefined> = [];
    const defaults: Array<Arc56DefaultValue | undefined> = [];
    args.forEach((a, j) => {
      const ap = `${p}.args[${j}]`;
      const arg = c.record(a, ap);
      if (!arg) return;
      const type = c.string(arg.type, `${ap}.type`);
      argStructs.push(structRef(arg.struct, `${ap}.struct`, type));
      if (type !== undefined && arg.struct !== undefined && (isReferenceArgType(type) || isTransactionArgType(type)))
        c.issue(`${ap}.struct`, `a ${type} argument cannot be a struct`);
      defaults.push(defaultValueAt(c, arg.defaultValue, `${ap}.defaultValue`));
    });
    const returnStruct = returns ? structRef(returns.struct, `${p}.returns.struct`, typeof returns.type === 'string' ? returns.type : undefined) : undefined;
    // Struct arguments and returns carry their struct type, so they take and give objects; the
    // signature (and selector) is unchanged because a struct prints as its tuple.
    let method: AbiMethod | undefined;
    try {
      if (mname !== undefined && returns && argStructs.length === args.length) {
        const json = rec as unknown as Arc56MethodJson;
        method = new AbiMethod({
          name: mname,
          ...(json.desc !== undefined ? { desc: json.desc } : {}),
          args: json.args.map((a, j) => ({
            type: argStructs[j] ?? a.type,
            ...(a.name !== undefined ? { name: a.name } : {}),
            ...(a.desc !== undefined ? { desc: a.desc } : {}),
          })),
          returns: { type: returnStruct ?? json.returns.type, ...(json.returns.desc !== undefined ? { desc: json.returns.desc } : {}) },
        });
      }
    } catch (e) {
      c.issue(p, e instanceof Error ? e.message : String(e));
    }
    const actions = actionsAt(rec.actions, `${p}.actions`);
    if (rec.readonly !== undefined && typeof rec.readonly !== 'boolean') c.issue(`${p}.readonly`, 'must be a boolean');
    const events = eventsOf(rec.events, `${p}.events`);
    checkRecommendations(c, rec.recommendations, `${p}.recommendations`);
    if (method) {
      methods.push({ method, json: rec as never, argStructs, returnStruct, defaultValues: defaults, actions, readonly: rec.readonly === true, events });
    }
  });
  const seenSignatures = new Set<string>();
  for (const m of methods) {
    if (seenSignatures.has(m.method.signature)) c.issue('methods', `method ${m.method.signature} is listed twice`);
    seenSignatures.add(m.method.signature);
  }

  // State: schema, named keys and maps.
  const keys: Record<Arc56Storage, Arc56StorageKey[]> = { global: [], local: [], box: [] };
  const maps: Record<Arc56Storage, Arc56StorageMap[]> = { global: [], local: [], box: [] };
  const state = c.record(root.state ?? { schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } }, keys: {}, maps: {} }, 'state');
  if (state) {
    const schema = c.record(state.schema, 'state.schema');
    if (schema) {
      for (const scope of ['global', 'local'] as const) {
        const s = c.record(schema[scope], `state.schema.${scope}`);
        if (s) {
          c.count(s.ints, `state.schema.${scope}.ints`);
          c.count(s.bytes, `state.schema.${scope}.bytes`);
        }
      }
    }
    const keysJson = c.record(state.keys ?? {}, 'state.keys');
    const mapsJson = c.record(state.maps ?? {}, 'state.maps');
    for (const scope of ['global', 'local', 'box'] as const) {
      const kj = keysJson ? c.record(keysJson[scope] ?? {}, `state.keys.${scope}`) : undefined;
      for (const [kname, kv] of Object.entries(kj ?? {})) {
        const p = `state.keys.${scope}.${kname}`;
        const rec = c.record(kv, p) as Partial<Arc56StorageKeyJson> | undefined;
        if (!rec) continue;
        const key = c.base64(rec.key, `${p}.key`);
        const keyType = typeAt(rec.keyType, `${p}.keyType`, true);
        const valueType = typeAt(rec.valueType, `${p}.valueType`, true);
        if (key && keyType && valueType) keys[scope].push({ name: kname, ...(rec.desc !== undefined ? { desc: rec.desc } : {}), key, keyType, valueType });
      }
      const mj = mapsJson ? c.record(mapsJson[scope] ?? {}, `state.maps.${scope}`) : undefined;
      for (const [mname, mv] of Object.entries(mj ?? {})) {
        const p = `state.maps.${scope}.${mname}`;
        const rec = c.record(mv, p) as Partial<Arc56StorageMapJson> | undefined;
        if (!rec) continue;
        const prefix = rec.prefix === undefined ? new Uint8Array(0) : c.base64(rec.prefix, `${p}.prefix`);
        const keyType = typeAt(rec.keyType, `${p}.keyType`, true);
        const valueType = typeAt(rec.valueType, `${p}.valueType`, true);
        if (prefix && keyType && valueType)
          maps[scope].push({ name: mname, ...(rec.desc !== undefined ? { desc: rec.desc } : {}), prefix, keyType, valueType });
      }
    }
  }

  actionsAt(root.bareActions ?? { create: [], call: [] }, 'bareActions');

  const sourceInfo = c.record(root.sourceInfo, 'sourceInfo', false);
  if (sourceInfo) {
    for (const program of ['approval', 'clear'] as const) {
      const p = `sourceInfo.${program}`;
      const info = c.record(sourceInfo[program], p);
      if (!info) continue;
      if (info.pcOffsetMethod !== 'none' && info.pcOffsetMethod !== 'cblocks') c.issue(`${p}.pcOffsetMethod`, 'must be "none" or "cblocks"');
      (c.array(info.sourceInfo, `${p}.sourceInfo`) ?? []).forEach((e, i) => {
        const ep = `${p}.sourceInfo[${i}]`;
        const entry = c.record(e, ep);
        if (!entry) return;
        (c.array(entry.pc, `${ep}.pc`) ?? []).forEach((pc, j) => c.count(pc, `${ep}.pc[${j}]`));
        c.string(entry.errorMessage, `${ep}.errorMessage`, false);
        c.string(entry.source, `${ep}.source`, false);
        if (entry.teal !== undefined) c.count(entry.teal, `${ep}.teal`);
      });
    }
  }
  for (const field of ['source', 'byteCode'] as const) {
    const rec = c.record(root[field], field, false);
    if (rec) for (const program of ['approval', 'clear'] as const) c.base64(rec[program], `${field}.${program}`);
  }
  const compiler = c.record(root.compilerInfo, 'compilerInfo', false);
  if (compiler) {
    if (compiler.compiler !== 'algod' && compiler.compiler !== 'puya') c.issue('compilerInfo.compiler', 'must be "algod" or "puya"');
    const v = c.record(compiler.compilerVersion, 'compilerInfo.compilerVersion');
    if (v) for (const part of ['major', 'minor', 'patch'] as const) c.count(v[part], `compilerInfo.compilerVersion.${part}`);
  }
  const networks = c.record(root.networks, 'networks', false);
  for (const [net, info] of Object.entries(networks ?? {})) {
    const rec = c.record(info, `networks.${net}`);
    if (rec) c.count(rec.appID, `networks.${net}.appID`);
  }

  const contractEvents = eventsOf(root.events, 'events');
  const events: AbiEvent[] = [];
  for (const e of [...contractEvents, ...methods.flatMap((m) => m.events)]) {
    if (!events.some((x) => x.signature === e.signature)) events.push(e);
  }

  const templateVariables = new Map<string, { type: Arc56ValueType; value?: Uint8Array }>();
  for (const [tname, tv] of Object.entries(c.record(root.templateVariables, 'templateVariables', false) ?? {})) {
    const p = `templateVariables.${tname}`;
    const rec = c.record(tv, p);
    if (!rec) continue;
    const type = typeAt(rec.type, `${p}.type`, true);
    const value = rec.value === undefined ? undefined : c.base64(rec.value, `${p}.value`);
    if (type) templateVariables.set(tname, { type, ...(value ? { value } : {}) });
  }
  const scratchVariables = new Map<string, { slot: number; type: Arc56ValueType }>();
  for (const [sname, sv] of Object.entries(c.record(root.scratchVariables, 'scratchVariables', false) ?? {})) {
    const p = `scratchVariables.${sname}`;
    const rec = c.record(sv, p);
    if (!rec) continue;
    const slot = c.count(rec.slot, `${p}.slot`);
    if (slot > 255) c.issue(`${p}.slot`, 'scratch slots are 0..255');
    const type = typeAt(rec.type, `${p}.type`, true);
    if (type) scratchVariables.set(sname, { slot, type });
  }

  if (c.issues.length > 0) throw new Arc56Error(c.issues);
  const json = {
    ...root,
    arcs: root.arcs ?? [],
    structs: root.structs ?? {},
    bareActions: root.bareActions ?? { create: [], call: [] },
    state: root.state ?? {
      schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
      keys: { global: {}, local: {}, box: {} },
      maps: { global: {}, local: {}, box: {} },
    },
  } as unknown as Arc56ContractJson;
  return new Arc56AppSpec({ json, structs, methods, events, keys, maps, templateVariables, scratchVariables });
}

const DEFAULT_SOURCES = ['box', 'global', 'local', 'literal', 'method'];

function defaultValueAt(c: Checker, value: unknown, path: string): Arc56DefaultValue | undefined {
  const rec = c.record(value, path, false);
  if (!rec) return undefined;
  const source = c.string(rec.source, `${path}.source`);
  if (source !== undefined && !DEFAULT_SOURCES.includes(source)) c.issue(`${path}.source`, `must be one of ${DEFAULT_SOURCES.join(', ')}`);
  const data = c.string(rec.data, `${path}.data`);
  if (data !== undefined && source !== undefined && source !== 'method') c.base64(data, `${path}.data`);
  const type = c.string(rec.type, `${path}.type`, false);
  if (type !== undefined && !(ARC56_AVM_TYPES as readonly string[]).includes(type)) {
    try {
      parseAbiType(type);
    } catch (e) {
      c.issue(`${path}.type`, e instanceof Error ? e.message : String(e));
    }
  }
  if (source === undefined || data === undefined) return undefined;
  return { source: source as Arc56DefaultValue['source'], data, ...(type !== undefined ? { type } : {}) };
}

function checkRecommendations(c: Checker, value: unknown, path: string): void {
  const rec = c.record(value, path, false);
  if (!rec) return;
  if (rec.innerTransactionCount !== undefined) c.count(rec.innerTransactionCount, `${path}.innerTransactionCount`);
  const boxes = c.record(rec.boxes, `${path}.boxes`, false);
  if (boxes) {
    c.base64(boxes.key, `${path}.boxes.key`);
    c.count(boxes.readBytes, `${path}.boxes.readBytes`);
    c.count(boxes.writeBytes, `${path}.boxes.writeBytes`);
    if (boxes.app !== undefined) c.count(boxes.app, `${path}.boxes.app`);
  }
  (c.array(rec.accounts, `${path}.accounts`, false) ?? []).forEach((a, i) => c.string(a, `${path}.accounts[${i}]`));
  for (const k of ['apps', 'assets'] as const) (c.array(rec[k], `${path}.${k}`, false) ?? []).forEach((a, i) => c.count(a, `${path}.${k}[${i}]`));
}
