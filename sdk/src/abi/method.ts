import { AbiLookupError, AbiTypeError } from './errors.js';
import { parseAbiType } from './parse-type.js';
import { selectorBytes, selectorHexOf, selectorWord } from './selector.js';
import type { AbiType } from './types.js';

/** Transaction argument types: the caller supplies a whole transaction placed before the app call. */
export const TRANSACTION_ARG_TYPES = ['txn', 'pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl'] as const;
/** Argument types that are transactions placed before the call in the group (`txn`, `pay`, `axfer`, …). */
export type AbiTransactionArgType = (typeof TRANSACTION_ARG_TYPES)[number];

/** Reference types: encoded as a uint8 index into the app call's foreign arrays. */
export const REFERENCE_ARG_TYPES = ['account', 'asset', 'application'] as const;
/** Argument types passed as references into the app call's foreign arrays: `account`, `application`, `asset`. */
export type AbiReferenceArgType = (typeof REFERENCE_ARG_TYPES)[number];

/** True for the transaction argument types (`txn`, `pay`, `keyreg`, `acfg`, `axfer`, `afrz`, `appl`). */
export function isTransactionArgType(type: string): type is AbiTransactionArgType {
  return (TRANSACTION_ARG_TYPES as readonly string[]).includes(type);
}

/** True for `account`, `application` and `asset`. */
export function isReferenceArgType(type: string): type is AbiReferenceArgType {
  return (REFERENCE_ARG_TYPES as readonly string[]).includes(type);
}

/** The ARC-4 JSON description of a method (also the core of an ARC-56 method). */
export interface AbiMethodArgJson {
  type: string;
  name?: string;
  desc?: string;
}
/** An ARC-4 method as JSON. */
export interface AbiMethodJson {
  name: string;
  desc?: string;
  args: AbiMethodArgJson[];
  returns: { type: string; desc?: string };
}

/** One argument of an ABI method: an ABI value, a reference (account, application, asset) or a transaction. */
export type AbiMethodArg =
  | { kind: 'value'; type: string; abiType: AbiType; name?: string; desc?: string }
  | { kind: 'reference'; type: AbiReferenceArgType; name?: string; desc?: string }
  | { kind: 'transaction'; type: AbiTransactionArgType; name?: string; desc?: string };

/** The return of an ABI method: its type text and parsed type (undefined for `void`). */
export interface AbiMethodReturn {
  type: string;
  /** Undefined for `void`. */
  abiType: AbiType | undefined;
  desc?: string;
}

/** An argument to the AbiMethod constructor: only `type` is required. */
export interface AbiMethodArgInput {
  type: string | AbiType;
  name?: string;
  desc?: string;
}

/** The 4-byte prefix an ABI method's return value carries in the app call's last log. */
export const RETURN_PREFIX = new Uint8Array([0x15, 0x1f, 0x7c, 0x75]);

/** Method names follow the ARC-4 rule: a C-style identifier. */
const METHOD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What an argument type names besides ABI values: a transaction, a reference, or neither (undefined). */
function nonValueKind(type: string): 'transaction' | 'reference' | undefined {
  // A switch compares the text in place; a Set or Map lookup would hash every fresh argument string.
  switch (type) {
    case 'txn':
    case 'pay':
    case 'keyreg':
    case 'acfg':
    case 'axfer':
    case 'afrz':
    case 'appl':
      return 'transaction';
    case 'account':
    case 'asset':
    case 'application':
      return 'reference';
  }
  return undefined;
}

function makeArg(input: AbiMethodArgInput, method: string, index: number): AbiMethodArg {
  const type = typeof input.type === 'string' ? input.type : input.type.toString();
  let arg: AbiMethodArg;
  const kind = nonValueKind(type);
  if (kind === 'transaction') arg = { kind, type: type as AbiTransactionArgType };
  else if (kind === 'reference') arg = { kind, type: type as AbiReferenceArgType };
  else {
    let abiType: AbiType;
    try {
      abiType = typeof input.type === 'string' ? parseAbiType(input.type) : input.type;
    } catch (e) {
      throw new AbiTypeError(`method ${method} argument ${index}: ${e instanceof Error ? e.message : String(e)}`);
    }
    arg = { kind: 'value', type: abiType.toString(), abiType };
  }
  // Only the keys that are set (a method built from a signature has neither).
  if (input.name !== undefined) arg.name = input.name;
  if (input.desc !== undefined) arg.desc = input.desc;
  return arg;
}

/** An ARC-4 method: name, typed arguments (values, references, transactions), return type, selector and signature. */
export class AbiMethod {
  readonly name: string;
  readonly desc: string | undefined;
  readonly args: readonly AbiMethodArg[];
  readonly returns: AbiMethodReturn;
  #signature: string | undefined;
  /** sha512_256(signature)[0:4], big-endian. */
  #selector: number | undefined;

  constructor(init: { name: string; desc?: string; args: readonly AbiMethodArgInput[]; returns?: { type: string | AbiType; desc?: string } }) {
    if (typeof init.name !== 'string' || init.name === '') throw new AbiTypeError('method name must be a non-empty string');
    this.name = init.name;
    this.desc = init.desc;
    if (!Array.isArray(init.args)) throw new AbiTypeError(`method ${init.name}: args must be a list`);
    const args: AbiMethodArg[] = [];
    for (let i = 0; i < init.args.length; i++) args.push(makeArg(init.args[i]!, init.name, i));
    this.args = Object.freeze(args);
    const retType = init.returns?.type ?? 'void';
    const retText = typeof retType === 'string' ? retType : retType.toString();
    let abiType: AbiType | undefined;
    if (retText !== 'void') {
      try {
        abiType = typeof retType === 'string' ? parseAbiType(retType) : retType;
      } catch (e) {
        throw new AbiTypeError(`method ${init.name} return type: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const returns: AbiMethodReturn = { type: abiType ? abiType.toString() : 'void', abiType };
    if (init.returns?.desc !== undefined) returns.desc = init.returns.desc;
    this.returns = returns;
  }

  /** Parses `name(arg,…)ret`, e.g. `add(uint64,uint64)uint128` or `pay(pay,account)void`. */
  static fromSignature(signature: string): AbiMethod {
    const { name, args, returns } = parseMethodSignature(signature);
    const method = new AbiMethod({ name, args: args.map((type) => ({ type })), returns: { type: returns } });
    // The text is the signature when every type was written the canonical way (the usual case):
    // keep it rather than joining the types again for the selector.
    let canonical = method.returns.type === returns;
    for (let i = 0; canonical && i < args.length; i++) canonical = method.args[i]!.type === args[i];
    if (canonical) method.#signature = signature;
    return method;
  }

  static fromJson(json: AbiMethodJson): AbiMethod {
    if (!json || typeof json !== 'object') throw new AbiTypeError('method description must be an object');
    if (!Array.isArray(json.args)) throw new AbiTypeError(`method ${String(json.name)}: "args" must be a list`);
    return new AbiMethod({
      name: json.name,
      ...(json.desc !== undefined ? { desc: json.desc } : {}),
      args: json.args,
      returns: json.returns ?? { type: 'void' },
    });
  }

  /** `name(types)ret`, the text the selector hashes. */
  get signature(): string {
    return (this.#signature ??= `${this.name}(${this.args.map((a) => a.type).join(',')})${this.returns.type}`);
  }

  /** sha512_256(signature)[0:4]. */
  get selector(): Uint8Array {
    return selectorBytes((this.#selector ??= selectorWord(this.signature)));
  }

  /** The selector as 8 hex digits. */
  get selectorHex(): string {
    return selectorHexOf((this.#selector ??= selectorWord(this.signature)));
  }

  /** Transactions this call occupies in a group: the app call plus one per transaction argument. */
  get txnCount(): number {
    let n = 1;
    for (const a of this.args) if (a.kind === 'transaction') n++;
    return n;
  }

  toJson(): AbiMethodJson {
    return {
      name: this.name,
      ...(this.desc !== undefined ? { desc: this.desc } : {}),
      args: this.args.map((a) => ({
        ...(a.name !== undefined ? { name: a.name } : {}),
        type: a.type,
        ...(a.desc !== undefined ? { desc: a.desc } : {}),
      })),
      returns: { type: this.returns.type, ...(this.returns.desc !== undefined ? { desc: this.returns.desc } : {}) },
    };
  }

  toString(): string {
    return this.signature;
  }
}

/** sha512_256(signature)[0:4] (a fresh copy each call; signatures asked for again are cached, see ./selector.ts). */
export function methodSelector(signature: string): Uint8Array {
  return selectorBytes(selectorWord(signature));
}

/** Splits a method signature into name, argument type strings and return type string. */
export function parseMethodSignature(signature: string): { name: string; args: string[]; returns: string } {
  if (typeof signature !== 'string') throw new AbiTypeError(`method signature must be a string, got ${typeof signature}`);
  const open = signature.indexOf('(');
  if (open < 0) throw new AbiTypeError(`invalid method signature ${JSON.stringify(signature)}: missing "("`);
  // One pass finds the ")" matching the first "(" and cuts the arguments at the commas between
  // them that no inner tuple encloses.
  const args: string[] = [];
  let depth = 0;
  let close = -1;
  let start = open + 1;
  let emptyArg = false;
  for (let i = open; i < signature.length; i++) {
    const c = signature.charCodeAt(i);
    if (c === 0x28 /* ( */) depth++;
    else if (c === 0x29 /* ) */) {
      if (--depth === 0) {
        close = i;
        break;
      }
    } else if (c === 0x2c /* , */ && depth === 1) {
      if (i === start) emptyArg = true;
      args.push(signature.slice(start, i));
      start = i + 1;
    }
  }
  if (close < 0) throw new AbiTypeError(`invalid method signature ${JSON.stringify(signature)}: unbalanced parentheses`);
  const name = signature.slice(0, open);
  if (!METHOD_NAME.test(name))
    throw new AbiTypeError(`invalid method signature ${JSON.stringify(signature)}: ${JSON.stringify(name)} is not a valid method name`);
  const returns = signature.slice(close + 1);
  if (returns === '') throw new AbiTypeError(`invalid method signature ${JSON.stringify(signature)}: missing return type (use "void")`);
  if (close > open + 1) {
    if (close === start) emptyArg = true;
    args.push(signature.slice(start, close));
  }
  if (emptyArg) {
    // Worded as splitting the argument tuple says it.
    const inner = signature.slice(open + 1, close);
    throw new AbiTypeError(
      `invalid method signature ${JSON.stringify(signature)}: invalid ABI type ${JSON.stringify(inner)}: empty tuple element (stray comma)`,
    );
  }
  return { name, args, returns };
}

/** Finds the one method called `nameOrSignature` (a bare name must be unambiguous). */
export function findMethod(methods: readonly AbiMethod[], nameOrSignature: string): AbiMethod {
  if (nameOrSignature.includes('(')) {
    const found = methods.find((m) => m.signature === nameOrSignature);
    if (!found) throw new AbiLookupError(`found 0 methods with the signature ${nameOrSignature}`);
    return found;
  }
  const matches = methods.filter((m) => m.name === nameOrSignature);
  if (matches.length !== 1) {
    const detail = matches.length > 1 ? ` (${matches.map((m) => m.signature).join(', ')}); use the full signature` : '';
    throw new AbiLookupError(`found ${matches.length} methods with the name ${nameOrSignature}${detail}`);
  }
  return matches[0]!;
}

/** ARC-4 interface: a named list of methods. */
export interface AbiInterfaceJson {
  name: string;
  desc?: string;
  methods: AbiMethodJson[];
}

/** An ARC-4 interface: a named list of methods. */
export class AbiInterface {
  readonly name: string;
  readonly desc: string | undefined;
  readonly methods: readonly AbiMethod[];

  constructor(init: { name: string; desc?: string; methods: readonly AbiMethod[] }) {
    this.name = init.name;
    this.desc = init.desc;
    this.methods = Object.freeze([...init.methods]);
  }

  static fromJson(json: AbiInterfaceJson): AbiInterface {
    if (!json || !Array.isArray(json.methods)) throw new AbiTypeError('interface description needs a "methods" list');
    return new AbiInterface({
      name: json.name,
      ...(json.desc !== undefined ? { desc: json.desc } : {}),
      methods: json.methods.map((m) => AbiMethod.fromJson(m)),
    });
  }

  getMethod(nameOrSignature: string): AbiMethod {
    return findMethod(this.methods, nameOrSignature);
  }

  toJson(): AbiInterfaceJson {
    return { name: this.name, ...(this.desc !== undefined ? { desc: this.desc } : {}), methods: this.methods.map((m) => m.toJson()) };
  }
}

/** ARC-4 contract: an interface plus the app id per network (keyed by genesis hash, base64). */
export interface AbiContractJson {
  name: string;
  desc?: string;
  networks?: Record<string, { appID: number | bigint }>;
  methods: AbiMethodJson[];
}

/** An ARC-4 contract: a name, optional description and networks, and its methods. */
export class AbiContract {
  readonly name: string;
  readonly desc: string | undefined;
  readonly networks: Record<string, { appID: bigint }>;
  readonly methods: readonly AbiMethod[];

  constructor(init: { name: string; desc?: string; networks?: Record<string, { appID: number | bigint }>; methods: readonly AbiMethod[] }) {
    this.name = init.name;
    this.desc = init.desc;
    this.networks = {};
    for (const [hash, info] of Object.entries(init.networks ?? {})) this.networks[hash] = { appID: BigInt(info.appID) };
    this.methods = Object.freeze([...init.methods]);
  }

  static fromJson(json: AbiContractJson): AbiContract {
    if (!json || !Array.isArray(json.methods)) throw new AbiTypeError('contract description needs a "methods" list');
    return new AbiContract({
      name: json.name,
      ...(json.desc !== undefined ? { desc: json.desc } : {}),
      ...(json.networks !== undefined ? { networks: json.networks } : {}),
      methods: json.methods.map((m) => AbiMethod.fromJson(m)),
    });
  }

  getMethod(nameOrSignature: string): AbiMethod {
    return findMethod(this.methods, nameOrSignature);
  }

  /** JSON object; app ids are bigint, so write it with stringifyJson. */
  toJson(): { name: string; desc?: string; networks: Record<string, { appID: bigint }>; methods: AbiMethodJson[] } {
    return {
      name: this.name,
      ...(this.desc !== undefined ? { desc: this.desc } : {}),
      networks: this.networks,
      methods: this.methods.map((m) => m.toJson()),
    };
  }
}
