import { toBase64 } from '../encoding/base64.js';
import { utf8 } from '../encoding/bytes.js';
import { AbiTypeError } from './errors.js';
import { AbiUintType } from './types.js';
import type { Arc56Actions, Arc56CallAction, Arc56ContractJson, Arc56DefaultValue, Arc56MethodJson, Arc56StorageKeyJson } from './arc56-types.js';

/** ARC-32 application spec (the older app description), as far as the conversion reads it. */
export type Arc32CallConfigValue = 'NEVER' | 'CALL' | 'CREATE' | 'ALL';
/** ARC-32 `bare_call_config` / per-method `call_config`: which on-completion actions allow a call or a create. */
export interface Arc32CallConfig {
  no_op?: Arc32CallConfigValue;
  opt_in?: Arc32CallConfigValue;
  close_out?: Arc32CallConfigValue;
  update_application?: Arc32CallConfigValue;
  delete_application?: Arc32CallConfigValue;
}
/** An ARC-32 struct declaration: its name and ordered `[field, type]` elements. */
export interface Arc32Struct {
  name: string;
  elements: Array<[string, string]>;
}
/** Where an ARC-32 method argument takes its default from: a constant, state, or another method. */
export type Arc32DefaultArgument =
  | { source: 'abi-method'; data: { name: string; args?: unknown[]; returns?: unknown } }
  | { source: 'global-state' | 'local-state'; data: string }
  | { source: 'constant'; data: string | number };
/** ARC-32 per-method hints: call config, structs, default arguments, read-only flag. */
export interface Arc32Hint {
  structs?: Record<string, Arc32Struct>;
  read_only?: boolean;
  default_arguments?: Record<string, Arc32DefaultArgument>;
  call_config?: Arc32CallConfig;
}
/** An ARC-32 declared global or local state value: its key and type. */
export interface Arc32DeclaredValue {
  type: 'uint64' | 'bytes';
  key: string;
  descr?: string;
  static?: boolean;
}
/** An ARC-32 application spec (the older JSON format); `arc32ToArc56` converts it. */
export interface Arc32AppSpec {
  hints?: Record<string, Arc32Hint>;
  source?: { approval: string; clear: string };
  contract: {
    name: string;
    desc?: string;
    networks?: Record<string, { appID: number }>;
    methods: Array<{
      name: string;
      desc?: string;
      args: Array<{ type: string; name?: string; desc?: string }>;
      returns: { type: string; desc?: string };
      readonly?: boolean;
      events?: unknown[];
    }>;
    events?: unknown[];
  };
  schema?: {
    global?: { declared?: Record<string, Arc32DeclaredValue>; reserved?: Record<string, unknown> };
    local?: { declared?: Record<string, Arc32DeclaredValue>; reserved?: Record<string, unknown> };
  };
  state?: { global?: { num_uints?: number; num_byte_slices?: number }; local?: { num_uints?: number; num_byte_slices?: number } };
  bare_call_config?: Arc32CallConfig;
}

/** Heuristic used when a loader receives either format: ARC-32 wraps an ARC-4 `contract` with `hints`. */
export function isArc32AppSpec(json: unknown): json is Arc32AppSpec {
  return typeof json === 'object' && json !== null && 'contract' in json && ('hints' in json || 'bare_call_config' in json) && !('arcs' in json);
}

// The order ARC-32 tooling lists actions in (and the conversion keeps).
const ACTION_ORDER: Array<[keyof Arc32CallConfig, Arc56CallAction]> = [
  ['close_out', 'CloseOut'],
  ['delete_application', 'DeleteApplication'],
  ['no_op', 'NoOp'],
  ['opt_in', 'OptIn'],
  ['update_application', 'UpdateApplication'],
];

function actionsFor(config: Arc32CallConfig | undefined, when: 'CREATE' | 'CALL'): Arc56CallAction[] {
  if (!config) return [];
  const out: Arc56CallAction[] = [];
  for (const [key, action] of ACTION_ORDER) {
    const v = config[key];
    if (v === 'ALL' || v === when) out.push(action);
  }
  return out;
}

function toActions(config: Arc32CallConfig | undefined): Arc56Actions {
  return {
    // ARC-56 has no create-time CloseOut/UpdateApplication; a config claiming them is dropped.
    create: actionsFor(config, 'CREATE').filter((a): a is Arc56Actions['create'][number] => a === 'NoOp' || a === 'OptIn' || a === 'DeleteApplication'),
    call: actionsFor(config, 'CALL'),
  };
}

const uint64 = new AbiUintType(64);

function convertDefault(arg: Arc32DefaultArgument | undefined): Arc56DefaultValue | undefined {
  if (!arg) return undefined;
  if (arg.source === 'abi-method') return { source: 'method', data: arg.data.name };
  const source = arg.source === 'constant' ? 'literal' : arg.source === 'global-state' ? 'global' : 'local';
  const data = typeof arg.data === 'number' ? uint64.encode(arg.data) : utf8(arg.data);
  const out: Arc56DefaultValue = { source, data: toBase64(data) };
  if (source === 'literal') out.type = typeof arg.data === 'number' ? 'uint64' : 'AVMString';
  return out;
}

function signatureOf(m: Arc32AppSpec['contract']['methods'][number]): string {
  return `${m.name}(${m.args.map((a) => a.type).join(',')})${m.returns.type}`;
}

function declaredKeys(declared: Record<string, Arc32DeclaredValue> | undefined): Record<string, Arc56StorageKeyJson> {
  const out: Record<string, Arc56StorageKeyJson> = {};
  for (const [name, d] of Object.entries(declared ?? {})) {
    out[name] = {
      key: toBase64(utf8(d.key)),
      keyType: 'AVMString',
      valueType: d.type === 'uint64' ? 'AVMUint64' : 'AVMBytes',
      ...(d.descr !== undefined ? { desc: d.descr } : {}),
    };
  }
  return out;
}

/**
 * ARC-32 → ARC-56, following the mapping AlgoKit's converter uses: structs collected from every
 * method hint, per-method actions from hint call configs, `read_only` → `readonly`, default
 * arguments re-expressed (constant → base64 literal, state → key, abi-method → method name),
 * declared global/local state → keys with AVM types, and the TEAL source carried over.
 * Reserved (dynamic) state has no ARC-56 counterpart there and is left out; so are byte code and
 * source info, which ARC-32 does not have.
 */
export function arc32ToArc56(spec: Arc32AppSpec): Arc56ContractJson {
  if (!spec || typeof spec !== 'object' || !spec.contract || !Array.isArray(spec.contract.methods)) {
    throw new AbiTypeError('not an ARC-32 app spec: "contract.methods" is missing');
  }
  const hints = spec.hints ?? {};
  const structs: Record<string, Array<{ name: string; type: string }>> = {};
  for (const hint of Object.values(hints)) {
    for (const s of Object.values(hint.structs ?? {})) structs[s.name] = s.elements.map(([name, type]) => ({ name, type }));
  }
  const methods: Arc56MethodJson[] = spec.contract.methods.map((m) => {
    const hint = hints[signatureOf(m)];
    return {
      name: m.name,
      ...(m.desc !== undefined ? { desc: m.desc } : {}),
      args: m.args.map((a) => {
        const struct = a.name !== undefined ? hint?.structs?.[a.name]?.name : undefined;
        const def = a.name !== undefined ? convertDefault(hint?.default_arguments?.[a.name]) : undefined;
        return {
          type: a.type,
          ...(a.name !== undefined ? { name: a.name } : {}),
          ...(a.desc !== undefined ? { desc: a.desc } : {}),
          ...(struct !== undefined ? { struct } : {}),
          ...(def !== undefined ? { defaultValue: def } : {}),
        };
      }),
      returns: {
        type: m.returns.type,
        ...(m.returns.desc !== undefined ? { desc: m.returns.desc } : {}),
        ...(hint?.structs?.output?.name !== undefined ? { struct: hint.structs.output.name } : {}),
      },
      actions: toActions(hint?.call_config),
      ...(hint?.read_only !== undefined ? { readonly: hint.read_only } : {}),
      events: [],
    };
  });
  const state = spec.state ?? {};
  return {
    arcs: [],
    name: spec.contract.name,
    ...(spec.contract.desc !== undefined ? { desc: spec.contract.desc } : {}),
    ...(spec.contract.networks !== undefined ? { networks: spec.contract.networks } : {}),
    structs,
    methods,
    state: {
      schema: {
        global: { ints: state.global?.num_uints ?? 0, bytes: state.global?.num_byte_slices ?? 0 },
        local: { ints: state.local?.num_uints ?? 0, bytes: state.local?.num_byte_slices ?? 0 },
      },
      keys: { global: declaredKeys(spec.schema?.global?.declared), local: declaredKeys(spec.schema?.local?.declared), box: {} },
      maps: { global: {}, local: {}, box: {} },
    },
    ...(spec.source !== undefined ? { source: spec.source } : {}),
    bareActions: toActions(spec.bare_call_config),
  };
}
