import type { Arc56AppSpec, Arc56Method, Arc56ValueType } from '../abi/arc56.js';
import { AbiStructType } from '../abi/struct.js';
import { AbiAddressType, AbiBoolType, AbiByteType, AbiDynamicArrayType, AbiStaticArrayType, AbiStringType, AbiTupleType, AbiUfixedType, AbiUintType, isByteArrayType, type AbiType } from '../abi/types.js';

/*
 * `tealworks generate client app.arc56.json -o app-client.ts`: a TypeScript client typed from the
 * spec. Methods take an object of named arguments and resolve to the decoded return; structs become
 * interfaces; global/local state and box maps get typed readers; template variables are typed
 * deploy parameters. The generated file imports only `@tealworks/sdk`, so it compiles wherever the
 * package is installed, and a wrong argument type is a compile error.
 */

/** Options of {@link generateAppClient}. */
export interface GenerateClientOptions {
  /** Class name (default: the spec's name in PascalCase + `Client`). */
  className?: string;
  /** Module the generated code imports from (default `@tealworks/sdk`). */
  importFrom?: string;
  /** What the header says the file was generated from. */
  sourceName?: string;
}

const RESERVED = new Set(['app', 'appId', 'address', 'appAddress', 'deployment', 'state', 'spec', 'deploy', 'fromId', 'constructor', 'call', 'simulate']);

function pascal(s: string): string {
  return s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, _sep, c: string) => c.toUpperCase()).replace(/^[0-9]/, (d) => `_${d}`);
}

function camel(s: string): string {
  const p = pascal(s);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

function ident(s: string): string {
  const c = camel(s);
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(c) ? c : `_${c.replace(/[^A-Za-z0-9_$]/g, '_')}`;
}

function doc(lines: Array<string | undefined>, indent: string): string {
  const text = lines.filter((l): l is string => !!l && l.trim() !== '').map((l) => l.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return '';
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

/** The TypeScript type of an ABI type, as an argument (`in`: what the encoder accepts) or as a decoded value (`out`). */
export function tsTypeOf(t: AbiType, dir: 'in' | 'out'): string {
  if (t instanceof AbiStructType) return pascal(t.structName);
  if (t instanceof AbiUintType || t instanceof AbiUfixedType) return dir === 'in' ? 'bigint | number' : 'bigint';
  if (t instanceof AbiBoolType) return 'boolean';
  if (t instanceof AbiByteType) return 'number';
  if (t instanceof AbiAddressType) return 'string';
  if (t instanceof AbiStringType) return 'string';
  if (isByteArrayType(t)) return dir === 'in' ? 'Uint8Array | string' : 'Uint8Array';
  if (t instanceof AbiStaticArrayType || t instanceof AbiDynamicArrayType) {
    const child = tsTypeOf(t.childType, dir);
    return dir === 'in' ? `ReadonlyArray<${child}>` : `Array<${child}>`;
  }
  if (t instanceof AbiTupleType) return `${dir === 'in' ? 'readonly ' : ''}[${t.childTypes.map((c) => tsTypeOf(c, dir)).join(', ')}]`;
  return 'unknown';
}

function valueTypeTs(v: Arc56ValueType, dir: 'in' | 'out'): string {
  if (v.kind === 'avm') return v.avm === 'AVMUint64' ? (dir === 'in' ? 'bigint | number' : 'bigint') : v.avm === 'AVMString' ? 'string' : dir === 'in' ? 'Uint8Array | string' : 'Uint8Array';
  return tsTypeOf(v.abi, dir);
}

function methodMemberNames(spec: Arc56AppSpec): string[] {
  const byName = new Map<string, number>();
  for (const m of spec.methods) byName.set(m.method.name, (byName.get(m.method.name) ?? 0) + 1);
  const used = new Set<string>();
  return spec.methods.map((m) => {
    let n = ident(m.method.name);
    if ((byName.get(m.method.name) ?? 0) > 1) n = `${n}_${m.method.args.map((a) => a.type.replace(/[^A-Za-z0-9]+/g, '_')).join('_') || 'noArgs'}`;
    if (RESERVED.has(n)) n = `${n}Method`;
    while (used.has(n)) n = `${n}_`;
    used.add(n);
    return n;
  });
}

function argsType(m: Arc56Method): { fields: string[]; names: string[] } {
  const fields: string[] = [];
  const names: string[] = [];
  m.method.args.forEach((a, i) => {
    if (a.kind === 'transaction') return;
    const name = a.name && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(a.name) ? a.name : `arg${i}`;
    let type: string;
    if (a.kind === 'reference') type = a.type === 'account' ? 'string' : 'bigint | number';
    else type = tsTypeOf(m.argStructs[i] ?? a.abiType, 'in');
    const optional = m.defaultValues[i] !== undefined ? '?' : '';
    fields.push(`${doc([a.desc, optional ? 'Optional: the spec gives a default.' : undefined], '    ')}    ${name}${optional}: ${type};`);
    names.push(name);
  });
  return { fields, names };
}

/** Generates the source of a typed client for an app spec (see {@link GenerateClientOptions}). */
export function generateAppClient(spec: Arc56AppSpec, options: GenerateClientOptions = {}): string {
  const cls = options.className ?? `${pascal(spec.name)}Client`;
  const from = options.importFrom ?? '@tealworks/sdk';
  const specConst = `${spec.name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_SPEC`;
  const out: string[] = [];
  out.push(`// Generated by \`tealworks generate client${options.sourceName ? ` ${options.sourceName}` : ''}\`. Do not edit: regenerate when the spec changes.`);
  out.push('/* eslint-disable */');
  out.push(`import { AppClient, loadAppSpec, readBoxMapValue, readGlobalState, readLocalState, type AppCallOptions, type AppCallResult, type AppDeployInput, type AppDeployment, type SenderLike, type Tealworks } from '${from}';`);
  out.push('');
  out.push(`/** The app spec ${JSON.stringify(spec.name)} this client was generated from. */`);
  out.push(`export const ${specConst} = ${JSON.stringify(spec.json, null, 2)} as const;`);
  out.push('');

  // Structs
  for (const [name, struct] of spec.structs) {
    out.push(`/** Struct ${name} of ${spec.name}. */`);
    out.push(`export interface ${pascal(name)} {`);
    for (const f of struct.fields) out.push(`  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f.name) ? f.name : JSON.stringify(f.name)}: ${tsTypeOf(f.type, 'out')};`);
    out.push('}', '');
  }

  // State shapes
  const stateIface = (storage: 'global' | 'local', suffix: string): string | undefined => {
    const keys = spec.keys[storage];
    if (keys.length === 0) return undefined;
    const n = `${pascal(spec.name)}${suffix}`;
    out.push(`/** ${storage === 'global' ? 'Global' : 'Local'} state of ${spec.name}, decoded by the spec (a key that is not set is absent). */`);
    out.push(`export interface ${n} {`);
    for (const k of keys) out.push(`${doc([k.desc], '  ')}  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k.name) ? k.name : JSON.stringify(k.name)}?: ${valueTypeTs(k.valueType, 'out')};`);
    out.push('}', '');
    return n;
  };
  const globalIface = stateIface('global', 'GlobalState');
  const localIface = stateIface('local', 'LocalState');

  // Template variables
  const tmpl = [...spec.templateVariables.entries()].filter(([, v]) => v.value === undefined);
  const paramsName = `${pascal(spec.name)}DeployParams`;
  out.push(`/** Deploy parameters of ${spec.name}: the creator, programs when the spec has no source, and its template variables. */`);
  out.push(`export interface ${paramsName} extends Omit<AppDeployInput, 'spec' | 'template'> {`);
  if (tmpl.length) {
    out.push('  /** Deploy-time template variables (TMPL_*). */');
    out.push(`  template: { ${tmpl.map(([k, v]) => `${k.replace(/^TMPL_/, '')}: ${valueTypeTs(v.type, 'in')}`).join('; ')} };`);
  } else out.push('  /** Deploy-time template variables (TMPL_*), when the TEAL uses any beyond TMPL_UPDATABLE/TMPL_DELETABLE. */', '  template?: Record<string, bigint | number | string | Uint8Array>;');
  out.push('}', '');

  // The class
  out.push(doc([`Typed client of ${spec.name}${spec.json.desc ? `: ${spec.json.desc.replace(/\.\s*$/, '')}` : ''}.`, `Make one with \`${cls}.deploy(tw, params)\` or \`${cls}.fromId(tw, appId)\`.`], '').trimEnd());
  out.push(`export class ${cls} {`);
  out.push(`  /** The parsed app spec. */`);
  out.push(`  static readonly spec = loadAppSpec(${specConst});`, '');
  out.push('  /** Wraps an untyped client; prefer deploy / fromId. */');
  out.push('  constructor(');
  out.push('    /** The untyped client underneath (any call by name, simulate, raw state). */');
  out.push('    readonly app: AppClient,');
  out.push('    /** What the deploy did, when this client came from deploy(). */');
  out.push('    readonly deployment?: AppDeployment,');
  out.push('  ) {}', '');
  out.push('  /** The app id. */');
  out.push('  get appId(): bigint {', '    return this.app.appId;', '  }', '');
  out.push("  /** The app's account address. */");
  out.push('  get appAddress(): string {', '    return this.app.appAddress;', '  }', '');
  out.push(`  /** Deploys idempotently (create, update, replace, append or nothing, simulated first) and returns a client for the app. */`);
  out.push(`  static async deploy(tw: Tealworks, params: ${paramsName}): Promise<${cls}> {`);
  out.push(`    const deployment = await tw.app.deploy({ ...params, spec: ${cls}.spec });`);
  out.push(`    return new ${cls}(deployment.client, deployment);`);
  out.push('  }', '');
  out.push('  /** A client for an app already deployed. */');
  out.push(`  static fromId(tw: Tealworks, appId: bigint | number, options: { sender?: SenderLike } = {}): ${cls} {`);
  out.push(`    return new ${cls}(tw.app.client(${cls}.spec, appId, options));`);
  out.push('  }', '');

  const members = methodMemberNames(spec);
  spec.methods.forEach((m, i) => {
    const { fields, names } = argsType(m);
    const ret = m.method.returns.abiType ? tsTypeOf(m.returnStruct ?? m.method.returns.abiType, 'out') : 'void';
    const txnArgs = m.method.args.filter((a) => a.kind === 'transaction').map((a) => a.type);
    out.push(
      doc(
        [
          `\`${m.method.signature}\`${m.json.desc ? `: ${m.json.desc}` : ''}`,
          m.method.returns.desc ? `Returns ${m.method.returns.desc}.` : undefined,
          m.json.readonly ? 'Read-only: answered by simulate, not sent (no fee, no signature); `options.sendReadonly` sends it.' : undefined,
          txnArgs.length ? `Transaction arguments (${txnArgs.join(', ')}) go in \`options.txnArgs\`, in order.` : undefined,
        ],
        '  ',
      ).trimEnd(),
    );
    const call = `this.app.call<${ret}>(${JSON.stringify(m.method.signature)}, [${names.map((n) => `args.${n}`).join(', ')}], options)`;
    if (fields.length) {
      const allOptional = fields.every((f) => /\?: /.test(f));
      out.push(`  ${members[i]}(args: {\n${fields.join('\n')}\n  }${allOptional ? ' = {}' : ''}, options?: AppCallOptions): Promise<AppCallResult<${ret}>> {`);
    } else out.push(`  ${members[i]}(options?: AppCallOptions): Promise<AppCallResult<${ret}>> {`);
    out.push(`    return ${call};`);
    out.push('  }', '');
  });

  // State readers
  out.push('  /** State read from the chain and decoded by the spec. */');
  out.push('  readonly state = {');
  if (globalIface) out.push(`    /** Global state. */`, `    global: async (): Promise<${globalIface}> => (await readGlobalState(this.app)) as ${globalIface},`);
  if (localIface) out.push(`    /** Local state of an account that opted in. */`, `    local: async (address: string): Promise<${localIface}> => (await readLocalState(this.app, address)) as ${localIface},`);
  const boxMaps = spec.maps.box;
  if (boxMaps.length) {
    out.push('    /** Box maps: one reader per map, by key. */');
    out.push('    box: {');
    for (const m of boxMaps) {
      out.push(doc([m.desc ?? `Box map ${m.name}: the value under a key, or undefined when there is no such box.`], '      ').trimEnd());
      out.push(`      ${ident(m.name)}: async (key: ${valueTypeTs(m.keyType, 'in')}): Promise<${valueTypeTs(m.valueType, 'out')} | undefined> => (await readBoxMapValue(this.app, ${JSON.stringify(m.name)}, key)) as ${valueTypeTs(m.valueType, 'out')} | undefined,`);
    }
    out.push('    },');
  }
  out.push('  };');
  out.push('}', '');
  return out.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n');
}
