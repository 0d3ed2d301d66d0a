/**
 * The ARC-56 app description as JSON (field names and meanings from ARC-56). Types are ABI type
 * strings, AVM native types, or struct names; byte values are base64.
 */

export type Arc56AvmType = 'AVMBytes' | 'AVMString' | 'AVMUint64';
/** The AVM value types an ARC-56 spec may name instead of an ABI type. */
export const ARC56_AVM_TYPES: readonly Arc56AvmType[] = ['AVMBytes', 'AVMString', 'AVMUint64'];

/** An on-completion action allowed at app creation. */
export type Arc56CreateAction = 'NoOp' | 'OptIn' | 'DeleteApplication';
/** An on-completion action allowed on calls to an existing app. */
export type Arc56CallAction = 'NoOp' | 'OptIn' | 'CloseOut' | 'ClearState' | 'UpdateApplication' | 'DeleteApplication';
/** On-completion actions an ARC-56 method or bare call may allow at creation. */
export const ARC56_CREATE_ACTIONS: readonly Arc56CreateAction[] = ['NoOp', 'OptIn', 'DeleteApplication'];
/** On-completion actions an ARC-56 method or bare call may allow on an existing app. */
export const ARC56_CALL_ACTIONS: readonly Arc56CallAction[] = ['NoOp', 'OptIn', 'CloseOut', 'ClearState', 'UpdateApplication', 'DeleteApplication'];

/** The on-completion actions a method (or bare call) allows, at creation and on calls. */
export interface Arc56Actions {
  create: Arc56CreateAction[];
  call: Arc56CallAction[];
}

/** One field of an ARC-56 struct: name and type (an ABI type or another struct). */
export interface Arc56StructFieldJson {
  name: string;
  type: string | Arc56StructFieldJson[];
}

/** The source of an ARC-56 default argument value. */
export type Arc56DefaultValueSource = 'box' | 'global' | 'local' | 'literal' | 'method';

/** Where an ARC-56 argument takes its default from (`source`), the data to read and its type. */
export interface Arc56DefaultValue {
  /** base64 bytes, base64 ARC-4 encoded value, or (source "method") a method signature. */
  data: string;
  /** How `data` is encoded (not the argument's type). */
  type?: string;
  source: Arc56DefaultValueSource;
}

/** One argument of an ARC-56 method: ABI type, optional struct name, name, description, default. */
export interface Arc56MethodArgJson {
  type: string;
  struct?: string;
  name?: string;
  desc?: string;
  defaultValue?: Arc56DefaultValue;
}

/** An ARC-28 event as an ARC-56 spec declares it: name and typed arguments. */
export interface Arc56EventJson {
  name: string;
  desc?: string;
  args: Array<{ type: string; name?: string; desc?: string; struct?: string }>;
}

/** A box an ARC-56 method recommends referencing: app, key and read/write budget. */
export interface Arc56BoxRecommendation {
  app?: number;
  key: string;
  readBytes: number;
  writeBytes: number;
}

/** One method of an ARC-56 spec as JSON: arguments, return, allowed actions, events, read-only flag. */
export interface Arc56MethodJson {
  name: string;
  desc?: string;
  args: Arc56MethodArgJson[];
  returns: { type: string; struct?: string; desc?: string };
  actions: Arc56Actions;
  readonly?: boolean;
  events?: Arc56EventJson[];
  recommendations?: {
    innerTransactionCount?: number;
    boxes?: Arc56BoxRecommendation;
    accounts?: string[];
    apps?: number[];
    assets?: number[];
  };
}

/** A named storage key of an ARC-56 spec: key bytes (base64), key type and value type. */
export interface Arc56StorageKeyJson {
  desc?: string;
  keyType: string;
  valueType: string;
  /** base64 key bytes. */
  key: string;
}

/** A storage map of an ARC-56 spec: key prefix (base64), key type and value type. */
export interface Arc56StorageMapJson {
  desc?: string;
  keyType: string;
  valueType: string;
  /** base64 prefix of every key in the map. */
  prefix?: string;
}

/** One ARC-56 source-info entry: the program counters it covers and the error message or TEAL line there. */
export interface Arc56SourceInfoEntry {
  pc: number[];
  errorMessage?: string;
  teal?: number;
  source?: string;
}

/** ARC-56 source information of one program: error messages and TEAL locations by program counter. */
export interface Arc56ProgramSourceInfo {
  sourceInfo: Arc56SourceInfoEntry[];
  /** "cblocks": pcs are relative to the first op after the leading constant blocks. */
  pcOffsetMethod: 'none' | 'cblocks';
}

/** The `state` section of an ARC-56 spec: schema, named keys and maps. */
export interface Arc56StorageJson {
  global: Record<string, Arc56StorageKeyJson>;
  local: Record<string, Arc56StorageKeyJson>;
  box: Record<string, Arc56StorageKeyJson>;
}

/** The box, global and local maps of an ARC-56 spec (key prefix, key type, value type). */
export interface Arc56MapsJson {
  global: Record<string, Arc56StorageMapJson>;
  local: Record<string, Arc56StorageMapJson>;
  box: Record<string, Arc56StorageMapJson>;
}

/** The JSON document of an ARC-56 app spec, as written in `*.arc56.json`. */
export interface Arc56ContractJson {
  arcs: number[];
  name: string;
  desc?: string;
  networks?: Record<string, { appID: number | bigint }>;
  structs: Record<string, Arc56StructFieldJson[]>;
  methods: Arc56MethodJson[];
  state: {
    schema: { global: { ints: number; bytes: number }; local: { ints: number; bytes: number } };
    keys: Arc56StorageJson;
    maps: Arc56MapsJson;
  };
  bareActions: Arc56Actions;
  sourceInfo?: { approval: Arc56ProgramSourceInfo; clear: Arc56ProgramSourceInfo };
  /** base64 TEAL (may contain template variables). */
  source?: { approval: string; clear: string };
  /** base64 program bytes. */
  byteCode?: { approval: string; clear: string };
  compilerInfo?: {
    compiler: 'algod' | 'puya';
    compilerVersion: { major: number; minor: number; patch: number; commitHash?: string };
  };
  events?: Arc56EventJson[];
  templateVariables?: Record<string, { type: string; value?: string }>;
  scratchVariables?: Record<string, { slot: number; type: string }>;
}
