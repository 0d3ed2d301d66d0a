import { toHex } from '../encoding/hex.js';
import { startsWith } from './bytes-util.js';
import { AbiDecodeError, AbiTypeError } from './errors.js';
import { methodSelector } from './method.js';
import { parseAbiType } from './parse-type.js';
import { AbiTupleType, type AbiType, type AbiValue } from './types.js';

/** ARC-28 event description (as in ARC-56 `events` and method `events`). */
export interface AbiEventJson {
  name: string;
  desc?: string;
  args: Array<{ type: string; name?: string; desc?: string; struct?: string }>;
}

/** An ARC-28 event decoded from a log: its name, signature, positional and named arguments. */
export interface DecodedEvent {
  event: AbiEvent;
  /** Argument values in order. */
  args: AbiValue[];
  /** Values by argument name (unnamed arguments are left out). */
  named: Record<string, AbiValue>;
}

/**
 * An ARC-28 event: logged as selector(`name(types)`) ‖ ARC-4 encoding of the argument tuple.
 */
export class AbiEvent {
  readonly name: string;
  readonly desc: string | undefined;
  readonly args: ReadonlyArray<{ type: string; abiType: AbiType; name?: string; desc?: string; struct?: string }>;
  readonly tupleType: AbiTupleType;
  readonly signature: string;
  readonly selector: Uint8Array;

  constructor(json: AbiEventJson, resolveType: (type: string, struct?: string) => AbiType = (t) => parseAbiType(t)) {
    if (!json || typeof json.name !== 'string' || json.name === '') throw new AbiTypeError('event needs a name');
    if (!Array.isArray(json.args)) throw new AbiTypeError(`event ${json.name}: "args" must be a list`);
    this.name = json.name;
    this.desc = json.desc;
    this.args = Object.freeze(
      json.args.map((a, i) => {
        let abiType: AbiType;
        try {
          abiType = resolveType(a.type, a.struct);
        } catch (e) {
          throw new AbiTypeError(`event ${json.name} argument ${i}: ${e instanceof Error ? e.message : String(e)}`);
        }
        return { ...a, abiType };
      }),
    );
    this.tupleType = new AbiTupleType(this.args.map((a) => a.abiType));
    this.signature = `${this.name}(${this.args.map((a) => parseAbiType(a.type).toString()).join(',')})`;
    this.selector = methodSelector(this.signature);
  }

  static fromSignature(signature: string): AbiEvent {
    const open = signature.indexOf('(');
    if (open <= 0 || !signature.endsWith(')')) throw new AbiTypeError(`invalid event signature ${JSON.stringify(signature)}`);
    const tuple = parseAbiType(signature.slice(open));
    if (!(tuple instanceof AbiTupleType)) throw new AbiTypeError(`invalid event signature ${JSON.stringify(signature)}`);
    return new AbiEvent({ name: signature.slice(0, open), args: tuple.childTypes.map((t) => ({ type: t.toString() })) });
  }

  get selectorHex(): string {
    return toHex(this.selector);
  }

  /** The log bytes that emit this event with `args`. */
  encodeLog(args: readonly AbiValue[]): Uint8Array {
    const body = this.tupleType.encode(args);
    const out = new Uint8Array(4 + body.length);
    out.set(this.selector);
    out.set(body, 4);
    return out;
  }

  matches(log: Uint8Array): boolean {
    return startsWith(log, this.selector);
  }

  decodeLog(log: Uint8Array): DecodedEvent {
    if (!this.matches(log)) throw new AbiDecodeError(this.signature, 'log does not start with the event selector');
    const args = this.tupleType.decode(log.subarray(4)) as AbiValue[];
    const named: Record<string, AbiValue> = {};
    this.args.forEach((a, i) => {
      if (a.name) named[a.name] = args[i]!;
    });
    return { event: this, args, named };
  }
}

/**
 * Decodes the logs that are events of `events`; other logs (return values, plain text) are
 * skipped. A log whose selector matches but whose body does not decode is an error.
 */
export function decodeEventLogs(events: readonly AbiEvent[], logs: readonly Uint8Array[]): DecodedEvent[] {
  const out: DecodedEvent[] = [];
  for (const log of logs) {
    const event = events.find((e) => e.matches(log));
    if (event) out.push(event.decodeLog(log));
  }
  return out;
}
