// What the simulate panel's typed method form shows, from an ARC-56 method: each argument's name,
// type, description and default, and for structs, tuples and arrays the editors of their parts.
// Also validates one argument's text the way the group builder will read it, so the form can put
// the message on the field that is wrong. Pure (no vscode import): unit-tested in plain Node.
import { toHex, ZERO_ADDRESS_STRING as ZERO_ADDRESS } from '@tealworks/sdk/encoding';
import { literalDefaultValue, type Arc56Method } from '@tealworks/sdk/abi';
import type { AbiMethod } from '@tealworks/sdk/abi';
import { AbiStructType } from '@tealworks/sdk/abi';
import { AbiDynamicArrayType, AbiStaticArrayType, AbiTupleType, type AbiType } from '@tealworks/sdk/abi';
import { prepareMethodArgs } from '@tealworks/sdk/app';
import { encodeMethodCall } from '@tealworks/sdk/abi';

import { parseAbiArgText, TXN_ARG_ROW_KINDS } from './groupForm.js';

/** How the form edits one value. */
export type Editor =
  | { kind: 'text'; type: string; picker?: 'account' | 'asset' | 'application' }
  | { kind: 'struct'; type: string; struct: string; fields: ArgInfo[] }
  | { kind: 'tuple'; type: string; items: ArgInfo[] }
  | { kind: 'array'; type: string; element: ArgInfo; length?: number };

export interface ArgInfo {
  name: string;
  type: string;
  desc?: string;
  /** The literal default as the form would write it. */
  defaultText?: string;
  /** Non-literal default: where the value is read from (box, global, local, method). */
  defaultFrom?: string;
  editor: Editor;
}

export interface MethodInfo {
  signature: string;
  name: string;
  desc?: string;
  readonly: boolean;
  /** Value arguments only (transaction arguments are rows of the group). */
  args: ArgInfo[];
  /** Transaction arguments, in order: rows the form inserts right above the call (ARC-4). */
  transactionArgs: { name: string; type: string; desc?: string; rowKind: string }[];
  returns?: { type: string; desc?: string };
}

function editorFor(type: AbiType | string, name: string): Editor {
  if (typeof type === 'string') {
    if (type === 'account' || type === 'address') return { kind: 'text', type, picker: 'account' };
    if (type === 'asset') return { kind: 'text', type, picker: 'asset' };
    if (type === 'application') return { kind: 'text', type, picker: 'application' };
    return { kind: 'text', type };
  }
  const text = type.toString();
  if (type instanceof AbiStructType) return { kind: 'struct', type: text, struct: type.structName, fields: type.fields.map((f) => info(f.name, f.type)) };
  if (type instanceof AbiTupleType) return { kind: 'tuple', type: text, items: type.childTypes.map((t, i) => info(`${name}[${i}]`, t)) };
  if (type instanceof AbiStaticArrayType && !/^byte\[\d+\]$/.test(text))
    return { kind: 'array', type: text, element: info(`${name}[]`, type.childType), length: type.length };
  if (type instanceof AbiDynamicArrayType && text !== 'byte[]') return { kind: 'array', type: text, element: info(`${name}[]`, type.childType) };
  if (text === 'address') return { kind: 'text', type: text, picker: 'account' };
  return { kind: 'text', type: text };
}

function info(name: string, type: AbiType | string, desc?: string): ArgInfo {
  const t = typeof type === 'string' ? type : type.toString();
  return { name, type: t, ...(desc ? { desc } : {}), editor: editorFor(type, name) };
}

/** Writes a value the way the form's text inputs take it (JSON with exact big numbers, 0x hex for bytes). */
export function valueText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return '0x' + toHex(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'string' ? JSON.stringify(x) : valueText(x))).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${typeof x === 'string' ? JSON.stringify(x) : valueText(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** The form's description of a method (ARC-56 when there is one, else the bare signature's types). */
export function methodInfo(method: AbiMethod, arc56?: Arc56Method): MethodInfo {
  const args: ArgInfo[] = [];
  const transactionArgs: MethodInfo['transactionArgs'] = [];
  method.args.forEach((a, i) => {
    if (a.kind === 'transaction') {
      const desc = a.desc ?? arc56?.json.args[i]?.desc;
      transactionArgs.push({ name: a.name ?? `arg ${i}`, type: a.type, ...(desc ? { desc } : {}), rowKind: TXN_ARG_ROW_KINDS[a.type]?.[0] ?? '' });
      return;
    }
    const type = a.kind === 'reference' ? a.type : (arc56?.argStructs[i] ?? a.abiType);
    const arg = info(a.name ?? `arg ${i}`, type, a.desc ?? arc56?.json.args[i]?.desc);
    if (arc56) {
      const literal = literalDefaultValue(arc56, i);
      if (literal !== undefined) arg.defaultText = valueText(literal);
      else if (arc56.defaultValues[i]) arg.defaultFrom = arc56.defaultValues[i]!.source;
    }
    args.push(arg);
  });
  const desc = arc56?.json.desc ?? method.desc;
  const ret = method.returns.type === 'void' ? undefined : { type: method.returns.type, ...(method.returns.desc ? { desc: method.returns.desc } : {}) };
  return {
    signature: method.signature,
    name: method.name,
    ...(desc ? { desc } : {}),
    readonly: arc56?.readonly ?? false,
    args,
    transactionArgs,
    ...(ret ? { returns: ret } : {}),
  };
}

/**
 * The problem with the text typed for value argument `k` (0-based among value arguments), or
 * undefined when it converts and encodes. An empty text is fine when a default exists.
 */
export function argProblem(method: AbiMethod, arc56: Arc56Method | undefined, k: number, text: string): string | undefined {
  const valueArgs = method.args.map((a, i) => ({ a, i })).filter(({ a }) => a.kind !== 'transaction');
  const target = valueArgs[k];
  if (!target) return `the method has no argument ${k}`;
  const given: unknown[] = valueArgs.map(({ a, i }, j) => {
    if (j === k) return text.trim() === '' ? undefined : parseAbiArgText(text, a.type);
    return placeholderFor(a.kind === 'reference' ? a.type : (arc56?.argStructs[i] ?? (a as { abiType: AbiType }).abiType));
  });
  try {
    const prepared = prepareMethodArgs(method, given, arc56);
    // References (accounts, assets, apps) are checked when encoded.
    encodeMethodCall(method, prepared.values, { sender: ZERO_ADDRESS, appId: 1n });
    return undefined;
  } catch (e) {
    const m = (e as Error).message;
    // "… argument 1 (amount) of increment: why" → the reason is about this field.
    return /argument \d+(?: \([^)]*\))? of [^:]+: (.*)$/s.exec(m)?.[1] ?? m;
  }
}

/** A valid value of a type, so one argument can be checked while the others are still empty. */
function placeholderFor(type: AbiType | string): unknown {
  if (typeof type === 'string') return type === 'account' ? ZERO_ADDRESS : 0n;
  const t = type.toString();
  if (type instanceof AbiStructType) return Object.fromEntries(type.fields.map((f) => [f.name, placeholderFor(f.type)]));
  if (type instanceof AbiTupleType) return type.childTypes.map(placeholderFor);
  if (type instanceof AbiStaticArrayType) return Array.from({ length: type.length }, () => placeholderFor(type.childType));
  if (type instanceof AbiDynamicArrayType) return [];
  if (t === 'bool') return false;
  if (t === 'string') return '';
  if (t === 'address') return ZERO_ADDRESS;
  return 0n;
}
