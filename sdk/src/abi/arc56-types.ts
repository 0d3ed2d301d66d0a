/**
 * The ARC-56 app description as JSON (field names and meanings from ARC-56). Types are ABI type
 * strings, AVM native types, or struct names; byte values are base64.
 */

export type Arc56AvmType = 'AVMBytes' | 'AVMString' | 'AVMUint64';
export const ARC56_AVM_TYPES: readonly Arc56AvmType[] = ['AVMBytes', 'AVMString', 'AVMUint64'];

export type Arc56CreateAction = 'NoOp' | 'OptIn' | 'DeleteApplication';
export type Arc56CallAction = 'NoOp' | 'OptIn' | 'CloseOut' | 'ClearState' | 'UpdateApplication' | 'DeleteApplication';
export const ARC56_CREATE_ACTIONS: readonly Arc56CreateAction[] = ['NoOp', 'OptIn', 'DeleteApplication'];
export const ARC56_CALL_ACTIONS: readonly Arc56CallAction[] = ['NoOp', 'OptIn', 'CloseOut', 'ClearState', 'UpdateApplication', 'DeleteApplication'];

export interface Arc56Actions {
  create: Arc56CreateAction[];
  call: Arc56CallAction[];
}

export interface Arc56StructFieldJson {
  name: string;
  type: string | Arc56StructFieldJson[];
}

export type Arc56DefaultValueSource = 'box' | 'global' | 'local' | 'literal' | 'method';

export interface Arc56DefaultValue {
  /** base64 bytes, base64 ARC-4 encoded value, or (source "method") a method signature. */
  data: string;
  /** How `data` is encoded (not the argument's type). */
  type?: string;
  source: Arc56DefaultValueSource;
}

export interface Arc56MethodArgJson {
  type: string;
  struct?: string;
  name?: string;
  desc?: string;
  defaultValue?: Arc56DefaultValue;
}

export interface Arc56EventJson {
  name: string;
  desc?: string;
  args: Array<{ type: string; name?: string; desc?: string; struct?: string }>;
}

export interface Arc56BoxRecommendation {
  app?: number;
  key: string;
  readBytes: number;
  writeBytes: number;
}

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

export interface Arc56StorageKeyJson {
  desc?: string;
  keyType: string;
  valueType: string;
  /** base64 key bytes. */
  key: string;
}

export interface Arc56StorageMapJson {
  desc?: string;
  keyType: string;
  valueType: string;
  /** base64 prefix of every key in the map. */
  prefix?: string;
}

export interface Arc56SourceInfoEntry {
  pc: number[];
  errorMessage?: string;
  teal?: number;
  source?: string;
}

export interface Arc56ProgramSourceInfo {
  sourceInfo: Arc56SourceInfoEntry[];
  /** "cblocks": pcs are relative to the first op after the leading constant blocks. */
  pcOffsetMethod: 'none' | 'cblocks';
}

export interface Arc56StorageJson {
  global: Record<string, Arc56StorageKeyJson>;
  local: Record<string, Arc56StorageKeyJson>;
  box: Record<string, Arc56StorageKeyJson>;
}

export interface Arc56MapsJson {
  global: Record<string, Arc56StorageMapJson>;
  local: Record<string, Arc56StorageMapJson>;
  box: Record<string, Arc56StorageMapJson>;
}

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
