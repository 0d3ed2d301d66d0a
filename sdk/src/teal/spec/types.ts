/** Facts about one opcode, merged across AVM versions (see opcodes.generated.ts). */
export interface OpcodeSpec {
  readonly name: string;
  /** The opcode byte; for two-byte opcodes (`app_box_*`) the second byte, with `prefix` first. */
  readonly opcode: number;
  readonly prefix?: number;
  readonly introduced: number;
  readonly groups: readonly string[];
  /** One entry per version where anything about the op changed; `from` is inclusive. */
  readonly variants: readonly OpVariant[];
  /** Name of the field group its field immediate takes (e.g. "txn Fields"). */
  readonly fieldGroup?: string;
  /** Every field the op accepts at the newest version; filter by `version` for older ones. */
  readonly fields?: readonly FieldSpec[];
}

/** An op as it is from one version on: size, cost, stack arguments and returns, modes, immediates. */
export interface OpVariant {
  readonly from: number;
  /** Total instruction size in bytes; 0 means variable length. */
  readonly size: number;
  readonly cost: CostSpec;
  /** Stack argument types, deepest first. */
  readonly args: readonly string[];
  readonly returns: readonly string[];
  /** Bit set of modes: 1 = logicsig, 2 = application. */
  readonly modes: number;
  readonly immediates: readonly ImmediateSpec[];
}

/** How an immediate is encoded in program bytes. */
export type ImmediateEncoding =
  | 'uint8'
  | 'int8'
  | 'varuint'
  /** varuint length, then that many bytes */
  | 'bytes'
  /** varuint count, then that many varuints */
  | 'uints'
  /** varuint count, then that many (varuint length, bytes) */
  | 'bytesList'
  /** int16 big-endian branch offset */
  | 'label'
  /** zigzag varint branch offset (v13+) */
  | 'varintLabel'
  /** one count byte, then that many int16 big-endian offsets */
  | 'labels';

/** An immediate argument of an op: name, encoding, and its field group when it names a field. */
export interface ImmediateSpec {
  readonly name: string;
  readonly encoding: ImmediateEncoding;
  readonly fieldGroup?: string;
}

/** A fixed cost, or base + per × ceil(len(arg)/chunk) where arg indexes the op's stack args (0 = deepest). */
export type LinearCost = number | { readonly base: number; readonly per: number; readonly chunk: number; readonly arg: number };

/** Per-field costs (ecdsa, ec_*, mimc …) are keyed by field name. */
export type CostSpec = LinearCost | { readonly [field: string]: LinearCost };

/** A field of a field group (txn, global, asset_params_get …): name, value, type, version, modes. */
export interface FieldSpec {
  readonly name: string;
  /** The immediate byte that selects the field. */
  readonly value: number;
  /** Stack type the field produces (or, for itxn_field, accepts). */
  readonly type: string;
  readonly version: number;
  readonly modes: number;
}

/** A named stack type: abbreviation, range and AVM type. */
export interface NamedTypeSpec {
  readonly name: string;
  readonly abbreviation: string;
  readonly min: bigint;
  readonly max: bigint;
  readonly avmType: string;
}

/** Mode mask: logic signatures. */
export const MODE_LOGICSIG = 1;
/** Mode mask: applications. */
export const MODE_APP = 2;
/** Mode mask: both logic signatures and applications. */
export const MODE_ANY = 3;
