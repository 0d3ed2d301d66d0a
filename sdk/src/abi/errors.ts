import { DecodeError, ValidationError } from '../errors.js';

/** A type string, method signature or app spec that does not follow ARC-4 / ARC-56. */
export class AbiTypeError extends ValidationError {}

/**
 * A value that cannot be encoded as the given ABI type. `path` locates it inside nested values
 * (`[2].owner[0]`), empty at the top level.
 */
export class AbiEncodeError extends ValidationError {
  readonly type: string;
  readonly path: string;
  readonly reason: string;

  constructor(type: string, reason: string, path = '') {
    super(`cannot encode ${path ? `value at ${path}` : 'value'} as ${type}: ${reason}`);
    this.type = type;
    this.path = path;
    this.reason = reason;
  }

  /** The same failure seen from an enclosing value. */
  within(step: string): AbiEncodeError {
    return new AbiEncodeError(this.type, this.reason, step + this.path);
  }
}

/** Bytes that are not a valid (canonical) ARC-4 encoding of the expected type. */
export class AbiDecodeError extends DecodeError {
  readonly type: string;

  constructor(type: string, reason: string) {
    super(`cannot decode ${type}: ${reason}`);
    this.type = type;
  }
}

/** A method or app spec lookup that does not resolve (no method of that name, ambiguous name, …). */
export class AbiLookupError extends ValidationError {}

/** The app call's result does not carry a valid ARC-4 return value. */
export class AbiReturnError extends DecodeError {}
