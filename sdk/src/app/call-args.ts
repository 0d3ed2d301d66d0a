import { literalDefaultValue, type Arc56AppSpec, type Arc56Method } from '../abi/arc56.js';
import { AbiMethod } from '../abi/method.js';
import { AbiStructType } from '../abi/struct.js';
import {
  AbiByteType,
  AbiDynamicArrayType,
  AbiStaticArrayType,
  AbiStringType,
  AbiTupleType,
  AbiUfixedType,
  AbiUintType,
  isByteArrayType,
  type AbiType,
  type AbiValue,
} from '../abi/types.js';
import { AbiEncodeError } from '../abi/errors.js';
import { fromUtf8, utf8 } from '../encoding/bytes.js';
import { AppError } from './errors.js';

/*
 * From what a workflow or script writes to what the ABI encoder takes. YAML has no bytes and
 * reads big numbers as text, so a few conversions are made, always guided by the argument's
 * type: digit strings for integers, text for byte arrays (UTF-8), bytes for `string`. Anything
 * else is passed through and the encoder's error is reported with the argument's name.
 */

/** Arguments that do not fit the method: wrong count, wrong type, a default that cannot be read. */
export class CallArgsError extends AppError {
  readonly argIndex: number | undefined;
  /**
   * Where inside the argument the bad value sits, in the encoder's notation (`.level`, `[2]`,
   * `[1].owner`); empty when the argument as a whole is wrong. Forms use it to mark the sub-field.
   */
  readonly path: string;

  constructor(message: string, argIndex?: number, path = '') {
    super(message);
    this.argIndex = argIndex;
    this.path = path;
  }
}

/**
 * The message for a method name an app does not have: its methods, and the nearest name when one
 * is close enough to be a typo.
 */
export function unknownMethodMessage(appName: string, name: string, signatures: readonly string[]): string {
  const names = [...new Set(signatures.map((s) => s.slice(0, s.indexOf('('))))];
  let best: { name: string; d: number } | undefined;
  for (const n of names) {
    const d = editDistance(name.toLowerCase(), n.toLowerCase());
    if (!best || d < best.d) best = { name: n, d };
  }
  const near = best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? ` Did you mean "${best.name}"?` : '';
  return `app ${appName} has no method "${name}".${near} Its methods: ${signatures.length ? signatures.join(', ') : '(none)'}`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * `add(uint64,uint64)uint64` or, with a spec, just `add`. Spec methods keep struct types and
 * defaults; an unknown name lists the app's methods and the nearest one.
 */
export function resolveMethod(text: string, spec?: Arc56AppSpec): { method: AbiMethod; arc56?: Arc56Method } {
  if (spec) {
    try {
      const m = spec.getMethod(text);
      return { method: m.method, arc56: m };
    } catch (e) {
      if (!text.includes('(')) {
        // A full signature the spec lacks is still callable below; a bare name must be the spec's.
        const known = spec.methods.map((m) => m.method);
        if (!known.some((m) => m.name === text))
          throw new CallArgsError(
            unknownMethodMessage(
              spec.name,
              text,
              known.map((m) => m.signature),
            ),
          );
        throw new CallArgsError(`${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (!text.includes('('))
    throw new CallArgsError(`method ${JSON.stringify(text)} needs a full signature (like name(uint64)void) when the contract has no app spec`);
  try {
    return { method: AbiMethod.fromSignature(text) };
  } catch (e) {
    throw new CallArgsError(`invalid method signature ${JSON.stringify(text)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function convert(type: AbiType, v: unknown, where: string): AbiValue {
  if (type instanceof AbiUintType || type instanceof AbiUfixedType) {
    if (typeof v === 'string' && /^[0-9][0-9_]*$/.test(v)) return BigInt(v.replace(/_/g, ''));
    // Text that is no number: say so in the words of someone who typed it, not the encoder's.
    if (typeof v === 'string')
      throw new AbiEncodeError(type.toString(), `expected a whole number, got ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`);
  }
  if (isByteArrayType(type) && typeof v === 'string') return utf8(v);
  if (type instanceof AbiByteType && typeof v === 'string' && /^[0-9]+$/.test(v)) return Number(v);
  if (type instanceof AbiStringType && v instanceof Uint8Array) return fromUtf8(v);
  if ((type instanceof AbiStaticArrayType || type instanceof AbiDynamicArrayType) && Array.isArray(v))
    return v.map((x, i) => within(`[${i}]`, () => convert(type.childType, x, `${where}[${i}]`)));
  if (type instanceof AbiStructType && v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) {
    const out: Record<string, AbiValue> = {};
    for (const f of type.fields)
      if ((v as Record<string, unknown>)[f.name] !== undefined)
        out[f.name] = within(`.${f.name}`, () => convert(f.type, (v as Record<string, unknown>)[f.name], `${where}.${f.name}`));
    for (const k of Object.keys(v))
      if (!type.fields.some((f) => f.name === k))
        throw new CallArgsError(`${where}: struct ${type.structName} has no field ${JSON.stringify(k)} (fields: ${type.fields.map((f) => f.name).join(', ')})`);
    return out;
  }
  if (type instanceof AbiTupleType && Array.isArray(v))
    return v.map((x, i) => (type.childTypes[i] ? within(`[${i}]`, () => convert(type.childTypes[i]!, x, `${where}[${i}]`)) : (x as AbiValue)));
  return v as AbiValue;
}

/** Runs a conversion of a part of a value; an encode error inside it gets the part's path. */
function within<T>(step: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof AbiEncodeError ? e.within(step) : e;
  }
}

/** Method arguments converted to ABI values, the transaction arguments still to place, and defaults to read from the chain. */
export interface PreparedArgs {
  /** One entry per method argument, for encodeMethodCall (transaction arguments are undefined). */
  values: Array<AbiValue | undefined>;
  /** Arguments the caller must supply as transactions placed before the call. */
  transactionArgs: number[];
  /** Missing arguments whose ARC-56 default must be read from chain state or another method. */
  pendingDefaults: Array<{ index: number; source: 'box' | 'global' | 'local' | 'method'; data: string }>;
}

/**
 * Lines up given arguments with the method's: converts YAML-friendly forms, fills missing
 * trailing ones from literal ARC-56 defaults, and lists what still needs the chain.
 * `args` excludes transaction arguments when `transactionsInline` is false (the default):
 * transaction arguments are placed in the group, not written in `args`.
 */
export function prepareMethodArgs(method: AbiMethod, args: readonly unknown[], arc56?: Arc56Method): PreparedArgs {
  const out: PreparedArgs = { values: [], transactionArgs: [], pendingDefaults: [] };
  const valueArgs = method.args.map((a, i) => ({ a, i })).filter(({ a }) => a.kind !== 'transaction');
  if (args.length > valueArgs.length)
    throw new CallArgsError(
      `${method.signature} takes ${valueArgs.length} argument${valueArgs.length === 1 ? '' : 's'} (besides transactions), got ${args.length}`,
    );
  let k = 0;
  method.args.forEach((arg, i) => {
    const where = `argument ${i}${arg.name ? ` (${arg.name})` : ''} of ${method.name}`;
    if (arg.kind === 'transaction') {
      out.transactionArgs.push(i);
      out.values.push(undefined);
      return;
    }
    const given = k < args.length ? args[k] : undefined;
    k++;
    if (given === undefined || given === null) {
      const literal = arc56 ? literalDefaultValue(arc56, i) : undefined;
      if (literal !== undefined) {
        out.values.push(literal);
        return;
      }
      const def = arc56?.defaultValues[i];
      if (def && def.source !== 'literal') {
        out.pendingDefaults.push({ index: i, source: def.source, data: def.data });
        out.values.push(undefined);
        return;
      }
      throw new CallArgsError(`${where} is missing and has no default`, i);
    }
    if (arg.kind === 'reference') {
      out.values.push(arg.type === 'account' ? (given as AbiValue) : typeof given === 'string' && /^[0-9]+$/.test(given) ? BigInt(given) : (given as AbiValue));
      return;
    }
    const type = arc56?.argStructs[i] ?? arg.abiType;
    let value: AbiValue;
    try {
      value = convert(type, given, where);
      type.encode(value);
    } catch (e) {
      if (e instanceof CallArgsError) throw e;
      throw new CallArgsError(`${where}: ${e instanceof Error ? e.message : String(e)}`, i, e instanceof AbiEncodeError ? e.path : '');
    }
    out.values.push(value);
  });
  return out;
}
