import type { Arc56AppSpec, Arc56Method, Arc56ValueType } from '../abi/arc56.js';
import { AbiStructType } from '../abi/struct.js';
import {
  AbiAddressType,
  AbiBoolType,
  AbiByteType,
  AbiDynamicArrayType,
  AbiStaticArrayType,
  AbiStringType,
  AbiTupleType,
  AbiUfixedType,
  AbiUintType,
  isByteArrayType,
  type AbiType,
} from '../abi/types.js';

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

const RESERVED = new Set([
  'app',
  'appId',
  'address',
  'appAddress',
  'deployment',
  'state',
  'spec',
  'deploy',
  'fromId',
  'fromCreatorAndName',
  'params',
  'transactions',
  'constructor',
  'call',
  'simulate',
]);

/** Static arrays up to this length are typed as tuples of exactly that length. */
const MAX_TUPLE_LENGTH = 16;

/** Template variables the deploy sets from `updatable` / `deletable`, never by hand. */
const LIFECYCLE_TEMPLATE = new Set(['TMPL_UPDATABLE', 'TMPL_DELETABLE', 'UPDATABLE', 'DELETABLE']);

/** How a method may be called: as a create, as an ordinary call, as an update (only through deploy). */
function roles(m: Arc56Method): { create: boolean; call: boolean; update: boolean } {
  const call = (m.actions.call ?? []).map(String);
  return { create: (m.actions.create ?? []).length > 0, call: call.some((a) => a !== 'UpdateApplication'), update: call.includes('UpdateApplication') };
}

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
  if (t instanceof AbiStaticArrayType && isByteArrayType(t)) return dir === 'in' ? `FixedBytes<${t.length}>` : 'Uint8Array';
  if (isByteArrayType(t)) return dir === 'in' ? 'Uint8Array | string' : 'Uint8Array';
  if (t instanceof AbiStaticArrayType && t.length <= MAX_TUPLE_LENGTH) {
    const child = tsTypeOf(t.childType, dir);
    return `${dir === 'in' ? 'readonly ' : ''}[${Array.from({ length: t.length }, () => child).join(', ')}]`;
  }
  if (t instanceof AbiStaticArrayType || t instanceof AbiDynamicArrayType) {
    const child = tsTypeOf(t.childType, dir);
    return dir === 'in' ? `ReadonlyArray<${child}>` : `Array<${child}>`;
  }
  if (t instanceof AbiTupleType) return `${dir === 'in' ? 'readonly ' : ''}[${t.childTypes.map((c) => tsTypeOf(c, dir)).join(', ')}]`;
  return 'unknown';
}

function valueTypeTs(v: Arc56ValueType, dir: 'in' | 'out'): string {
  if (v.kind === 'avm')
    return v.avm === 'AVMUint64'
      ? dir === 'in'
        ? 'bigint | number'
        : 'bigint'
      : v.avm === 'AVMString'
        ? 'string'
        : dir === 'in'
          ? 'Uint8Array | string'
          : 'Uint8Array';
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

function argsType(m: Arc56Method): { fields: string[]; names: string[]; txnNames: string[] } {
  const fields: string[] = [];
  const names: string[] = [];
  const txnNames: string[] = [];
  m.method.args.forEach((a, i) => {
    const name = a.name && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(a.name) ? a.name : `arg${i}`;
    let type: string;
    if (a.kind === 'transaction') {
      type = a.type === 'txn' ? 'TxnArg' : `TxnArg<'${a.type}'>`;
      fields.push(`${doc([a.desc, `A \`${a.type}\` transaction (e.g. from \`tw.build\`), placed before the call.`], '  ')}  ${name}: ${type};`);
      txnNames.push(name);
      return;
    }
    if (a.kind === 'reference') type = a.type === 'account' ? 'string' : 'bigint | number';
    else type = tsTypeOf(m.argStructs[i] ?? a.abiType, 'in');
    const optional = m.defaultValues[i] !== undefined ? '?' : '';
    fields.push(`${doc([a.desc, optional ? 'Optional: the spec gives a default.' : undefined], '  ')}  ${name}${optional}: ${type};`);
    names.push(name);
  });
  return { fields, names, txnNames };
}

/** Generates the source of a typed client for an app spec (see {@link GenerateClientOptions}). */
export function generateAppClient(spec: Arc56AppSpec, options: GenerateClientOptions = {}): string {
  const cls = options.className ?? `${pascal(spec.name)}Client`;
  const from = options.importFrom ?? '@tealworks/sdk';
  const base = pascal(spec.name);
  const specConst = `${spec.name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_SPEC`;
  const callsConst = `${spec.name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_CALLS`;
  const out: string[] = [];
  out.push(
    `// Generated by \`tealworks generate client${options.sourceName ? ` ${options.sourceName}` : ''}\`. Do not edit: regenerate when the spec changes.`,
  );
  out.push('/* eslint-disable */');
  const importAt = out.length;
  out.push('');
  out.push(`/** The app spec ${JSON.stringify(spec.name)} this client was generated from. */`);
  out.push(`export const ${specConst} = ${JSON.stringify(spec.json, null, 2)} as const;`);
  out.push('');

  // Structs
  // Top-level structs, then the nested ones the spec declares inline within their fields.
  const queue: AbiStructType[] = [...spec.structs.values()];
  const emitted = new Set<string>();
  const nested = (t: AbiType): AbiStructType[] =>
    t instanceof AbiStructType
      ? [t]
      : t instanceof AbiStaticArrayType || t instanceof AbiDynamicArrayType
        ? nested(t.childType)
        : t instanceof AbiTupleType
          ? t.childTypes.flatMap(nested)
          : [];
  while (queue.length) {
    const struct = queue.shift()!;
    const name = pascal(struct.structName);
    if (emitted.has(name)) continue;
    emitted.add(name);
    out.push(`/** Struct ${struct.structName} of ${spec.name}. */`);
    out.push(`export interface ${name} {`);
    for (const f of struct.fields) {
      out.push(`  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f.name) ? f.name : JSON.stringify(f.name)}: ${tsTypeOf(f.type, 'out')};`);
      queue.push(...nested(f.type));
    }
    out.push('}', '');
  }

  // State shapes
  const stateIface = (storage: 'global' | 'local', suffix: string): string | undefined => {
    const keys = spec.keys[storage];
    if (keys.length === 0) return undefined;
    const n = `${base}${suffix}`;
    out.push(`/** ${storage === 'global' ? 'Global' : 'Local'} state of ${spec.name}, decoded by the spec (a key that is not set is absent). */`);
    out.push(`export interface ${n} {`);
    for (const k of keys)
      out.push(`${doc([k.desc], '  ')}  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k.name) ? k.name : JSON.stringify(k.name)}?: ${valueTypeTs(k.valueType, 'out')};`);
    out.push('}', '');
    return n;
  };
  const globalIface = stateIface('global', 'GlobalState');
  const localIface = stateIface('local', 'LocalState');

  // Method argument shapes and how each becomes a call
  const members = methodMemberNames(spec);
  const info = spec.methods.map((m, i) => {
    const a = argsType(m);
    const argsName = `${base}${pascal(members[i]!)}Args`;
    const ret = m.method.returns.abiType ? tsTypeOf(m.returnStruct ?? m.method.returns.abiType, 'out') : 'void';
    const allOptional = a.fields.every((f) => /\?: /.test(f));
    return { m, member: members[i]!, ...a, argsName, ret, allOptional, roles: roles(m) };
  });
  for (const x of info) {
    out.push(`/** Arguments of \`${x.m.method.signature}\`. */`);
    if (x.fields.length) out.push(`export interface ${x.argsName} {`, ...x.fields, '}', '');
    else out.push(`export type ${x.argsName} = Record<string, never>;`, '');
  }
  out.push(`/** Each method's arguments in order, its transaction arguments and its signature, from the named arguments. */`);
  out.push(`const ${callsConst} = {`);
  for (const x of info) {
    const txn = x.txnNames.length ? `, txnArgs: [${x.txnNames.map((n) => `args.${n}`).join(', ')}]` : '';
    out.push(
      `  ${x.member}: (${x.fields.length ? 'args' : '_args'}: ${x.argsName}, options: AppCallOptions = {}) => ({ method: ${JSON.stringify(x.m.method.signature)}, args: [${x.names.map((n) => `args.${n}`).join(', ')}] as unknown[], options: { ...options${txn} } }),`,
    );
  }
  out.push('};', '');

  // Lifecycle calls through deploy
  const bare = spec.json.bareActions ?? { create: [], call: [] };
  const creates = info.filter((x) => x.roles.create);
  const updates = info.filter((x) => x.roles.update);
  const union = (list: typeof info) => list.map((x) => `{ method: ${JSON.stringify(x.member)}; args${x.allOptional ? '?' : ''}: ${x.argsName} }`).join(' | ');
  if (creates.length)
    out.push(
      `/** The ABI methods that can create ${spec.name}, with their arguments (deploy's \`create\`). */`,
      `export type ${base}CreateCall = ${union(creates)};`,
      '',
    );
  if (updates.length)
    out.push(
      `/** The ABI methods that update ${spec.name}, with their arguments (deploy's \`update\`). */`,
      `export type ${base}UpdateCall = ${union(updates)};`,
      '',
    );

  if (creates.length || updates.length) {
    out.push('/** A create or update method with named arguments, as deploy takes it (signature and arguments in order). */');
    out.push(`function lifecycleCall(call: { method: keyof typeof ${callsConst}; args?: unknown }): { method: string; args: unknown[] } {`);
    out.push(`  const c = (${callsConst}[call.method] as (args: unknown) => { method: string; args: unknown[] })(call.args ?? {});`);
    out.push('  return { method: c.method, args: c.args };');
    out.push('}', '');
  }

  // Template variables
  const tmpl = [...spec.templateVariables.entries()].filter(([k, v]) => v.value === undefined && !LIFECYCLE_TEMPLATE.has(k));
  const paramsName = `${base}DeployParams`;
  const createRequired = creates.length > 0 && (bare.create ?? []).length === 0;
  out.push(
    `/** Deploy parameters of ${spec.name}: the creator, programs when the spec has no source, its template variables${creates.length ? ', the create method' : ''}${updates.length ? ', the update method' : ''}. */`,
  );
  out.push(`export interface ${paramsName} extends Omit<AppDeployInput, 'spec' | 'template' | 'create' | 'update'> {`);
  if (tmpl.length) {
    out.push('  /** Deploy-time template variables (TMPL_*); TMPL_UPDATABLE and TMPL_DELETABLE come from `updatable` and `deletable`. */');
    out.push(`  template: { ${tmpl.map(([k, v]) => `${k.replace(/^TMPL_/, '')}: ${valueTypeTs(v.type, 'in')}`).join('; ')} };`);
  } else
    out.push(
      '  /** The spec declares no template variables (TMPL_UPDATABLE and TMPL_DELETABLE come from `updatable` and `deletable`). */',
      '  template?: Record<string, never>;',
    );
  if (creates.length)
    out.push(
      `  /** The ABI method that creates the app${createRequired ? ' (required: the app has no bare create)' : ' (default: a bare create)'}. */`,
      `  create${createRequired ? '' : '?'}: ${base}CreateCall;`,
    );
  if (updates.length) out.push('  /** The ABI method that updates the app, when the deploy updates it. */', `  update?: ${base}UpdateCall;`);
  out.push('}', '');

  // The class
  out.push(
    doc(
      [
        `Typed client of ${spec.name}${spec.json.desc ? `: ${spec.json.desc.replace(/\.\s*$/, '')}` : ''}.`,
        `Make one with \`${cls}.deploy(tw, params)\`, \`${cls}.fromId(tw, appId)\` or \`${cls}.fromCreatorAndName(tw, creator)\`.`,
      ],
      '',
    ).trimEnd(),
  );
  out.push(`export class ${cls} {`);
  out.push(`  /** The parsed app spec. */`);
  out.push(`  static readonly spec = loadAppSpec(${specConst});`, '');
  out.push('  /** Wraps an untyped client; prefer deploy / fromId / fromCreatorAndName. */');
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
  const lifecycle = (v: string) => `lifecycleCall(${v})`;
  if (creates.length || updates.length) {
    out.push(`    const { ${creates.length ? 'create, ' : ''}${updates.length ? 'update, ' : ''}...rest } = params;`);
    out.push(
      `    const deployment = await tw.app.deploy({ ...rest, spec: ${cls}.spec${creates.length ? `, ...(create ? { create: ${lifecycle('create')} } : {})` : ''}${updates.length ? `, ...(update ? { update: ${lifecycle('update')} } : {})` : ''} });`,
    );
  } else out.push(`    const deployment = await tw.app.deploy({ ...params, spec: ${cls}.spec });`);
  out.push(`    return new ${cls}(deployment.client, deployment);`);
  out.push('  }', '');
  out.push('  /** A client for an app already deployed. */');
  out.push(`  static fromId(tw: Tealworks, appId: bigint | number, options: { sender?: SenderLike } = {}): ${cls} {`);
  out.push(`    return new ${cls}(tw.app.client(${cls}.spec, appId, options));`);
  out.push('  }', '');
  out.push(
    `  /** The app \`creator\` deployed under \`name\` (default ${JSON.stringify(spec.name)}), found through its deploy notes; throws when there is none. */`,
  );
  out.push(
    `  static async fromCreatorAndName(tw: Tealworks, creator: SenderLike, name: string = ${JSON.stringify(spec.name)}, options: { sender?: SenderLike } = {}): Promise<${cls}> {`,
  );
  out.push(`    return new ${cls}(await tw.app.fromCreatorAndName(${cls}.spec, creator, name, options));`);
  out.push('  }', '');

  for (const x of info) {
    if (!x.roles.call) continue;
    const txnArgs = x.m.method.args.filter((a) => a.kind === 'transaction').map((a) => a.type);
    out.push(
      doc(
        [
          `\`${x.m.method.signature}\`${x.m.json.desc ? `: ${x.m.json.desc}` : ''}`,
          x.m.method.returns.desc ? `Returns ${x.m.method.returns.desc}.` : undefined,
          x.m.json.readonly ? 'Read-only: answered by simulate, not sent (no fee, no signature); `options.sendReadonly` sends it.' : undefined,
          txnArgs.length ? `Transaction arguments (${txnArgs.join(', ')}) are named in \`args\`.` : undefined,
        ],
        '  ',
      ).trimEnd(),
    );
    const sig = x.fields.length ? `args: ${x.argsName}${x.allOptional ? ' = {}' : ''}, options?: AppCallOptions` : 'options?: AppCallOptions';
    out.push(`  ${x.member}(${sig}): Promise<AppCallResult<${x.ret}>> {`);
    out.push(`    const c = ${callsConst}.${x.member}(${x.fields.length ? 'args' : '{}'}, options);`);
    out.push(`    return this.app.call<${x.ret}>(c.method, c.args, c.options);`);
    out.push('  }', '');
  }

  const callable = info.filter((x) => x.roles.call);
  out.push('  /** Method calls for a group, typed: `tw.newGroup().method(client.params.name(args))`. */');
  out.push('  readonly params = {');
  for (const x of callable) {
    const sig = x.fields.length ? `args: ${x.argsName}${x.allOptional ? ' = {}' : ''}, options?: AppCallOptions` : 'options?: AppCallOptions';
    out.push(`    /** \`${x.m.method.signature}\` as a group member. */`);
    out.push(`    ${x.member}: (${sig}): MethodCallParams => ({ app: this.app, ...${callsConst}.${x.member}(${x.fields.length ? 'args' : '{}'}, options) }),`);
  }
  out.push('  };', '');
  out.push('  /** The transactions of a method call (its transaction arguments first), built but not signed or sent. */');
  out.push('  readonly transactions = {');
  for (const x of callable) {
    const sig = x.fields.length ? `args: ${x.argsName}${x.allOptional ? ' = {}' : ''}, options?: AppCallOptions` : 'options?: AppCallOptions';
    out.push(`    /** \`${x.m.method.signature}\`, unsent. */`);
    out.push(`    ${x.member}: async (${sig}): Promise<Transaction[]> => {`);
    out.push(`      const c = ${callsConst}.${x.member}(${x.fields.length ? 'args' : '{}'}, options);`);
    out.push('      return (await this.app.buildCall(c.method, c.args, c.options)).entries.map((e) => e.txn);');
    out.push('    },');
  }
  out.push('  };', '');

  // State readers
  out.push('  /** State read from the chain and decoded by the spec. */');
  out.push('  readonly state = {');
  if (globalIface)
    out.push(`    /** Global state. */`, `    global: async (): Promise<${globalIface}> => (await readGlobalState(this.app)) as ${globalIface},`);
  if (localIface)
    out.push(
      `    /** Local state of an account that opted in. */`,
      `    local: async (address: string): Promise<${localIface}> => (await readLocalState(this.app, address)) as ${localIface},`,
    );
  const boxMaps = spec.maps.box;
  if (boxMaps.length) {
    out.push('    /** Box maps: one reader per map, by key. */');
    out.push('    box: {');
    for (const m of boxMaps) {
      out.push(doc([m.desc ?? `Box map ${m.name}: the value under a key (${m.keyType.text}), or undefined when there is no such box.`], '      ').trimEnd());
      out.push(
        `      ${ident(m.name)}: async (key: ${valueTypeTs(m.keyType, 'in')}): Promise<${valueTypeTs(m.valueType, 'out')} | undefined> => (await readBoxMapValue(this.app, ${JSON.stringify(m.name)}, key as never)) as ${valueTypeTs(m.valueType, 'out')} | undefined,`,
      );
    }
    out.push('    },');
  }
  out.push('  };');
  out.push('}', '');
  const body = out.join('\n');
  const values = ['AppClient', 'loadAppSpec', 'readBoxMapValue', 'readGlobalState', 'readLocalState'];
  const types = [
    'AppCallOptions',
    'AppCallResult',
    'AppDeployInput',
    'AppDeployment',
    'FixedBytes',
    'MethodCallParams',
    'SenderLike',
    'Tealworks',
    'Transaction',
    'TxnArg',
  ];
  const used = (n: string) => new RegExp(`\\b${n}\\b`).test(body);
  out.splice(importAt, 0, `import { ${[...values.filter(used), ...types.filter(used).map((t) => `type ${t}`)].join(', ')} } from '${from}';`);
  return out.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n');
}
