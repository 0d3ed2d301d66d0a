import { OPCODES, LANGSPEC_MAX_VERSION, NAMED_TYPES } from './opcodes.generated.js';
import type { CostSpec, FieldSpec, LinearCost, NamedTypeSpec, OpcodeSpec, OpVariant } from './types.js';

export { OPCODES, LANGSPEC_MAX_VERSION, NAMED_TYPES };
export * from './types.js';

export { MAX_AVM_VERSION } from './versions.js';

/** An opcode as it is at one version: the spec plus the variant in force. */
export interface VersionedOp extends OpVariant {
  readonly spec: OpcodeSpec;
  readonly name: string;
  readonly opcode: number;
  readonly prefix?: number;
  readonly version: number;
}

const byName = new Map<string, OpcodeSpec>();
for (const op of OPCODES) byName.set(op.name, op);

function variantAt(spec: OpcodeSpec, version: number): OpVariant | undefined {
  let found: OpVariant | undefined;
  for (const v of spec.variants) if (v.from <= version) found = v;
  return found;
}

interface VersionTable {
  byName: Map<string, VersionedOp>;
  /** Single-byte opcodes by byte value. */
  byByte: (VersionedOp | undefined)[];
  /** Two-byte opcodes by prefix, then second byte. */
  byPrefix: Map<number, (VersionedOp | undefined)[]>;
}

const tables: VersionTable[] = [];

function table(version: number): VersionTable {
  let t = tables[version];
  if (t) return t;
  t = { byName: new Map(), byByte: new Array(256), byPrefix: new Map() };
  for (const spec of OPCODES) {
    if (spec.introduced > version) continue;
    const variant = variantAt(spec, version);
    if (!variant) continue;
    const op: VersionedOp = { ...variant, spec, name: spec.name, opcode: spec.opcode, version, ...(spec.prefix !== undefined ? { prefix: spec.prefix } : {}) };
    t.byName.set(spec.name, op);
    if (spec.prefix === undefined) t.byByte[spec.opcode] = op;
    else {
      let sub = t.byPrefix.get(spec.prefix);
      if (!sub) t.byPrefix.set(spec.prefix, (sub = new Array(256)));
      sub[spec.opcode] = op;
    }
  }
  tables[version] = t;
  return t;
}

/** The op called `name` at `version`, or undefined if it does not exist yet. */
export function opByName(name: string, version: number): VersionedOp | undefined {
  return table(clampVersion(version)).byName.get(name);
}

/** The op regardless of version — to explain "introduced in vN" errors. */
export function opSpecByName(name: string): OpcodeSpec | undefined {
  return byName.get(name);
}

/** Decodes the opcode at the start of an instruction (`next` is the byte after it, for prefixed ops). */
export function opByBytes(version: number, first: number, next?: number): VersionedOp | undefined {
  const t = table(clampVersion(version));
  const single = t.byByte[first];
  if (single) return single;
  const sub = t.byPrefix.get(first);
  return sub && next !== undefined ? sub[next] : undefined;
}

/** True when `first` begins a two-byte opcode at this version. */
export function isOpcodePrefix(version: number, first: number): boolean {
  return table(clampVersion(version)).byPrefix.has(first);
}

/** The ops available at an AVM version, each in its variant for that version. */
export function opsAt(version: number): VersionedOp[] {
  return [...table(clampVersion(version)).byName.values()];
}

function clampVersion(version: number): number {
  return Math.max(1, Math.min(version, LANGSPEC_MAX_VERSION));
}

/** Fields the op accepts at `version` (an op's fields arrive over several versions). */
export function fieldsAt(op: OpcodeSpec | VersionedOp, version: number): FieldSpec[] {
  const spec = 'spec' in op ? op.spec : op;
  return (spec.fields ?? []).filter((f) => f.version <= version);
}

/** The field of an op (e.g. `txn Sender`) by name. */
export function fieldByName(op: OpcodeSpec | VersionedOp, name: string): FieldSpec | undefined {
  const spec = 'spec' in op ? op.spec : op;
  return spec.fields?.find((f) => f.name === name);
}

/** The field of an op by its numeric value. */
export function fieldByValue(op: OpcodeSpec | VersionedOp, value: number): FieldSpec | undefined {
  const spec = 'spec' in op ? op.spec : op;
  return spec.fields?.find((f) => f.value === value);
}

/** A named stack type by name. */
export function namedType(name: string): NamedTypeSpec | undefined {
  return NAMED_TYPES.find((t) => t.name === name);
}

function isLinear(cost: CostSpec): cost is LinearCost {
  return typeof cost === 'number' || 'base' in cost;
}

/** The cost table entry for an op, resolving per-field costs. */
export function costEntry(cost: CostSpec, field?: string): LinearCost | undefined {
  if (isLinear(cost)) return cost;
  return field === undefined ? undefined : (cost as { readonly [f: string]: LinearCost })[field];
}

/**
 * The cost charged for one execution. `argLength(i)` gives the byte length of stack arg i (0 =
 * deepest of the op's args) and is only consulted for length-dependent costs.
 */
export function opCost(cost: CostSpec, field: string | undefined, argLength: (i: number) => number): number {
  const entry = costEntry(cost, field);
  if (entry === undefined) return 1;
  if (typeof entry === 'number') return entry;
  return entry.base + entry.per * Math.ceil(argLength(entry.arg) / entry.chunk);
}

/** The cost counted by static (v1–v3) checking, and the figure hover shows: the fixed part. */
export function staticCost(cost: CostSpec, field?: string): number {
  const entry = costEntry(cost, field);
  if (entry === undefined) return Math.max(...Object.values(cost as Record<string, LinearCost>).map((c) => (typeof c === 'number' ? c : c.base)));
  return typeof entry === 'number' ? entry : entry.base;
}

/** True when a mode mask allows the given mode. */
export function modeAllows(modes: number, mode: number): boolean {
  return (modes & mode) !== 0;
}
