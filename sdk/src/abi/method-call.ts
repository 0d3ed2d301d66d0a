import { addressBytes, encodeAddress, type AddressLike } from '../encoding/address.js';
import { bytesEqual, concatBytes, startsWith } from './bytes-util.js';
import { AbiEncodeError, AbiReturnError } from './errors.js';
import { RETURN_PREFIX, type AbiMethod } from './method.js';
import { AbiTupleType, AbiUintType, type AbiType, type AbiValue } from './types.js';

/** App arguments the protocol allows; ARC-4 packs method args 15+ into one tuple argument. */
export const MAX_APP_ARGS = 16;
const DIRECT_ARGS = 14;

/** What a reference argument (account/asset/application) is resolved against. */
export interface MethodCallContext {
  /** The app call's sender: `account` arguments equal to it become index 0. */
  sender: AddressLike;
  /** The called app (0 when creating): `application` arguments equal to it become index 0. */
  appId: bigint | number;
  /** Foreign arrays already on the call; reference arguments are appended to copies of them. */
  accounts?: readonly AddressLike[];
  foreignApps?: readonly (bigint | number)[];
  foreignAssets?: readonly (bigint | number)[];
}

/** An ABI method call as app-call fields: application arguments and the reference arrays the arguments were placed in. */
export interface EncodedMethodCall {
  /** Selector, then the encoded arguments (at most 16 entries in all). */
  appArgs: Uint8Array[];
  /** Foreign accounts as addresses (existing entries first, then those the references added). */
  accounts: string[];
  foreignApps: bigint[];
  foreignAssets: bigint[];
}

const uint8 = new AbiUintType(8);

function toUint64(value: AbiValue, what: string): bigint {
  if (typeof value === 'bigint' && value >= 0n && value < 1n << 64n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new AbiEncodeError(what, `expected a uint64 id, got ${typeof value === 'object' ? 'object' : String(value)}`);
}

/**
 * Encodes an ABI method call's application arguments, resolving reference arguments into the
 * foreign arrays the way the chain expects (account 0 = sender, app 0 = the called app, assets
 * 0-based), and packing arguments 15 and later into one tuple.
 *
 * `args` has one entry per method argument; entries for transaction arguments are ignored (the
 * caller places those transactions in the group) and may be `undefined`.
 */
export function encodeMethodCall(method: AbiMethod, args: readonly (AbiValue | undefined)[], context: MethodCallContext): EncodedMethodCall {
  if (args.length !== method.args.length) {
    throw new AbiEncodeError(method.signature, `method takes ${method.args.length} arguments, got ${args.length}`);
  }
  const sender = addressBytes(context.sender);
  const appId = BigInt(context.appId);
  const accounts = (context.accounts ?? []).map((a) => addressBytes(a));
  const apps = (context.foreignApps ?? []).map((a) => BigInt(a));
  const assets = (context.foreignAssets ?? []).map((a) => BigInt(a));

  const types: AbiType[] = [];
  const values: AbiValue[] = [];
  for (let i = 0; i < method.args.length; i++) {
    const arg = method.args[i]!;
    const value = args[i];
    const where = `argument ${i}${arg.name ? ` (${arg.name})` : ''} of ${method.name}`;
    if (arg.kind === 'transaction') continue;
    if (value === undefined) throw new AbiEncodeError(arg.type, `${where} is missing`);
    if (arg.kind === 'value') {
      types.push(arg.abiType);
      values.push(value);
      continue;
    }
    types.push(uint8);
    if (arg.type === 'account') {
      let key: Uint8Array;
      try {
        key = addressBytes(value as AddressLike);
      } catch (e) {
        throw new AbiEncodeError('account', `${where}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (bytesEqual(key, sender)) values.push(0);
      else values.push(indexOrAppend(accounts, key, (a, b) => bytesEqual(a, b)) + 1);
    } else if (arg.type === 'application') {
      const id = toUint64(value, 'application');
      values.push(id === appId ? 0 : indexOrAppend(apps, id, (a, b) => a === b) + 1);
    } else {
      values.push(indexOrAppend(assets, toUint64(value, 'asset'), (a, b) => a === b));
    }
  }

  const appArgs: Uint8Array[] = [method.selector];
  const encodeOne = (type: AbiType, value: AbiValue, index: number): Uint8Array => {
    try {
      return type.encode(value);
    } catch (e) {
      throw e instanceof AbiEncodeError ? e.within(`${method.name} argument ${index}`) : e;
    }
  };
  if (types.length <= DIRECT_ARGS + 1) {
    for (let i = 0; i < types.length; i++) appArgs.push(encodeOne(types[i]!, values[i]!, i));
  } else {
    for (let i = 0; i < DIRECT_ARGS; i++) appArgs.push(encodeOne(types[i]!, values[i]!, i));
    const rest = new AbiTupleType(types.slice(DIRECT_ARGS));
    appArgs.push(encodeOne(rest, values.slice(DIRECT_ARGS), DIRECT_ARGS));
  }
  return { appArgs, accounts: accounts.map((a) => encodeAddress(a)), foreignApps: apps, foreignAssets: assets };
}

function indexOrAppend<T>(list: T[], item: T, same: (a: T, b: T) => boolean): number {
  for (let i = 0; i < list.length; i++) if (same(list[i]!, item)) return i;
  list.push(item);
  if (list.length > 255) throw new AbiEncodeError('uint8', 'more than 255 foreign references; a reference index must fit in one byte');
  return list.length - 1;
}

/**
 * Splits app arguments back into the method's ABI argument values (inverse of encodeMethodCall
 * for the value part). Reference arguments come back as their uint8 index.
 */
export function decodeMethodCallArgs(method: AbiMethod, appArgs: readonly Uint8Array[]): AbiValue[] {
  if (appArgs.length === 0 || !bytesEqual(appArgs[0]!, method.selector)) {
    throw new AbiReturnError(`app arguments do not start with the selector of ${method.signature}`);
  }
  const types = method.args.filter((a) => a.kind !== 'transaction').map((a) => (a.kind === 'value' ? a.abiType : uint8));
  const packed = types.length > DIRECT_ARGS + 1;
  const expected = 1 + (packed ? DIRECT_ARGS + 1 : types.length);
  if (appArgs.length !== expected) throw new AbiReturnError(`${method.signature} takes ${expected} app arguments, got ${appArgs.length}`);
  const out: AbiValue[] = [];
  const direct = packed ? DIRECT_ARGS : types.length;
  for (let i = 0; i < direct; i++) out.push(types[i]!.decode(appArgs[i + 1]!));
  if (packed) out.push(...(new AbiTupleType(types.slice(DIRECT_ARGS)).decode(appArgs[DIRECT_ARGS + 1]!) as AbiValue[]));
  return out;
}

/** Is this log an ARC-4 return value (starts with 151f7c75)? */
export function isReturnLog(log: Uint8Array): boolean {
  return startsWith(log, RETURN_PREFIX);
}

/**
 * The method's return value from the app call's logs: the last log must start with 151f7c75 and
 * the rest must decode as the return type. `void` methods return undefined without a log.
 */
export function decodeMethodReturn(method: AbiMethod, logs: readonly Uint8Array[]): AbiValue | undefined {
  const type = method.returns.abiType;
  if (!type) return undefined;
  const last = logs[logs.length - 1];
  if (!last) throw new AbiReturnError(`${method.signature} returns ${method.returns.type}, but the app call logged nothing`);
  if (!isReturnLog(last)) throw new AbiReturnError(`${method.signature}: the last log does not start with the return prefix 151f7c75`);
  try {
    return type.decode(last.subarray(RETURN_PREFIX.length));
  } catch (e) {
    throw new AbiReturnError(`${method.signature}: return value does not decode as ${method.returns.type}: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
}

/** The log line an ARC-4 method writes to return `value` (for tests and simulated apps). */
export function encodeMethodReturnLog(method: AbiMethod, value: AbiValue): Uint8Array {
  const type = method.returns.abiType;
  if (!type) throw new AbiEncodeError('void', `${method.signature} returns nothing`);
  return concatBytes(RETURN_PREFIX, type.encode(value));
}
