/**
 * The assembler's view of the opcode table: per version, each op with its stack prototype as
 * tracked types, lower-cased immediate names (the reference uses them in error texts) and fields
 * looked up by name.
 */
import { OPCODES, opByName, opSpecByName, MAX_AVM_VERSION, type VersionedOp, type FieldSpec, type OpcodeSpec, type ImmediateSpec } from '../spec/opcodes.js';
import { type StackType, typeByName } from './stacktypes.js';

export interface AsmImmediate {
  name: string;
  encoding: ImmediateSpec['encoding'];
  fields: Map<string, FieldSpec> | undefined;
}

export interface AsmOp {
  name: string;
  /** The real op's name (pseudo-ops keep their own name in `name`). */
  real: string;
  opcode: number;
  prefix: number | undefined;
  size: number;
  modes: number;
  /** The version the op (this byte) first existed. */
  introduced: number;
  args: StackType[];
  returns: StackType[];
  immediates: AsmImmediate[];
  spec: OpcodeSpec | undefined;
}

const fieldMaps = new Map<OpcodeSpec, Map<string, FieldSpec>>();

function fieldsOf(spec: OpcodeSpec): Map<string, FieldSpec> {
  let m = fieldMaps.get(spec);
  if (!m) {
    m = new Map((spec.fields ?? []).map((f) => [f.name, f]));
    fieldMaps.set(spec, m);
  }
  return m;
}

function toAsmOp(op: VersionedOp): AsmOp {
  return {
    name: op.name,
    real: op.name,
    opcode: op.opcode,
    prefix: op.prefix,
    size: op.size,
    modes: op.modes,
    introduced: op.spec.introduced,
    args: op.args.map(typeByName),
    returns: op.returns.map(typeByName),
    immediates: op.immediates.map((imm) => ({
      name: imm.name.toLowerCase(),
      encoding: imm.encoding,
      fields: imm.fieldGroup ? fieldsOf(op.spec) : undefined,
    })),
    spec: op.spec,
  };
}

const byVersion: Map<string, AsmOp>[] = [];

/** Version 0 programs use the v1 table; versions past the table use the newest. */
export function tableVersion(version: number): number {
  return Math.max(1, Math.min(version, MAX_AVM_VERSION));
}

export function asmOp(name: string, version: number): AsmOp | undefined {
  const v = tableVersion(version);
  let table = byVersion[v];
  if (!table) byVersion[v] = table = new Map();
  let op = table.get(name);
  if (op === undefined) {
    const vop = opByName(name, v);
    if (!vop) return undefined;
    op = toAsmOp(vop);
    table.set(name, op);
  }
  return op;
}

/** First version where an op of this name exists, for "introduced in vN". */
export function firstVersionOf(name: string): number | undefined {
  return opSpecByName(name)?.introduced;
}

const fieldNameSets: Set<string>[] = [];

/** Every field/enum name usable as an immediate by some op of this version (not version-filtered per field, as the reference). */
export function fieldNamesAt(version: number): Set<string> {
  const v = tableVersion(version);
  let s = fieldNameSets[v];
  if (!s) {
    s = new Set();
    for (const spec of OPCODES) {
      if (spec.introduced > v || !spec.fields) continue;
      for (const f of spec.fields) s.add(f.name);
    }
    fieldNameSets[v] = s;
  }
  return s;
}

let txnFieldTypes: Map<string, StackType> | undefined;

/** Type of any transaction field by name (scalar or array), for itxn_field's argument. */
export function txnFieldType(name: string): StackType | undefined {
  if (!txnFieldTypes) {
    txnFieldTypes = new Map();
    for (const opName of ['txn', 'txna', 'itxn_field']) {
      for (const f of opSpecByName(opName)?.fields ?? []) if (!txnFieldTypes.has(f.name)) txnFieldTypes.set(f.name, typeByName(f.type));
    }
  }
  return txnFieldTypes.get(name);
}

export function isTxnFieldName(name: string): boolean {
  return txnFieldType(name) !== undefined;
}

export function appParamsFieldNames(): Set<string> {
  return new Set((opSpecByName('app_params_get')?.fields ?? []).map((f) => f.name));
}
