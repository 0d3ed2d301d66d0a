import { AbiTypeError } from './errors.js';
import { parseAbiType } from './parse-type.js';
import { AbiTupleType, type AbiType, type AbiValue } from './types.js';

/** One field of a struct type: its name and ABI type. */
export interface AbiStructField {
  name: string;
  type: AbiType;
}

/**
 * A named tuple (ARC-56 `structs`): encodes exactly like the tuple of its field types, but takes
 * and returns objects keyed by field name. Nested structs are AbiStructTypes themselves.
 */
export class AbiStructType extends AbiTupleType {
  readonly fields: readonly AbiStructField[];

  constructor(
    readonly structName: string,
    fields: readonly AbiStructField[],
  ) {
    super(fields.map((f) => f.type));
    const seen = new Set<string>();
    for (const f of fields) {
      if (seen.has(f.name)) throw new AbiTypeError(`struct ${structName} has two fields named ${JSON.stringify(f.name)}`);
      seen.add(f.name);
    }
    this.fields = Object.freeze([...fields]);
  }

  /** The plain tuple type this struct encodes as. */
  get tupleType(): AbiTupleType {
    return new AbiTupleType(this.childTypes);
  }

  protected override elements(value: AbiValue): readonly AbiValue[] {
    if (Array.isArray(value)) return super.elements(value);
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) {
      this.fail(`expected an object with fields ${this.fields.map((f) => f.name).join(', ')} for struct ${this.structName}`);
    }
    const record = value as { readonly [field: string]: AbiValue };
    const out = new Array<AbiValue>(this.fields.length);
    for (let i = 0; i < this.fields.length; i++) {
      const name = this.fields[i]!.name;
      const v = record[name];
      if (v === undefined) this.fail(`struct ${this.structName} is missing field ${JSON.stringify(name)}`);
      out[i] = v;
    }
    for (const key of Object.keys(record)) {
      if (!this.fields.some((f) => f.name === key)) this.fail(`struct ${this.structName} has no field ${JSON.stringify(key)}`);
    }
    return out;
  }

  protected override label(i: number): string {
    return `.${this.fields[i]!.name}`;
  }

  override decodeRange(bytes: Uint8Array, start: number, end: number): { [field: string]: AbiValue } {
    const values = super.decodeRange(bytes, start, end) as AbiValue[];
    const out: { [field: string]: AbiValue } = {};
    for (let i = 0; i < this.fields.length; i++) out[this.fields[i]!.name] = values[i]!;
    return out;
  }
}

/** ARC-56 struct field: `type` is an ABI type string, another struct's name, or inline fields. */
export interface Arc56StructField {
  name: string;
  type: string | Arc56StructField[];
}

/**
 * Builds every struct of an ARC-56 `structs` table, resolving references between structs and
 * rejecting cycles and unknown types.
 */
export function buildStructTypes(structs: Readonly<Record<string, readonly Arc56StructField[]>>): Map<string, AbiStructType> {
  const built = new Map<string, AbiStructType>();
  const building = new Set<string>();

  const fieldType = (owner: string, field: Arc56StructField): AbiType => {
    if (Array.isArray(field.type)) return build(`${owner}.${field.name}`, field.type);
    if (typeof field.type !== 'string')
      throw new AbiTypeError(`struct ${owner} field ${JSON.stringify(field.name)}: type must be a string or a list of fields`);
    if (Object.prototype.hasOwnProperty.call(structs, field.type)) return resolve(field.type);
    try {
      return parseAbiType(field.type);
    } catch (e) {
      throw new AbiTypeError(`struct ${owner} field ${JSON.stringify(field.name)}: ${e instanceof Error ? e.message : String(e)} (and no struct of that name)`);
    }
  };

  const build = (name: string, fields: readonly Arc56StructField[]): AbiStructType => {
    if (!Array.isArray(fields)) throw new AbiTypeError(`struct ${name} must be a list of fields`);
    return new AbiStructType(
      name,
      fields.map((f) => {
        if (!f || typeof f.name !== 'string') throw new AbiTypeError(`struct ${name} has a field without a name`);
        return { name: f.name, type: fieldType(name, f) };
      }),
    );
  };

  const resolve = (name: string): AbiStructType => {
    const done = built.get(name);
    if (done) return done;
    if (building.has(name)) throw new AbiTypeError(`struct ${name} contains itself`);
    building.add(name);
    const type = build(name, structs[name]!);
    building.delete(name);
    built.set(name, type);
    return type;
  };

  for (const name of Object.keys(structs)) resolve(name);
  return built;
}
