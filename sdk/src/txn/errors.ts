import { DecodeError, ValidationError } from '../errors.js';

/**
 * A transaction field that breaks a protocol rule. Carries the field path, the offending value
 * and the limit so tools can point at the exact spot.
 */
export class TxnValidationError extends ValidationError {
  readonly field: string;
  readonly value: unknown;
  readonly limit: unknown;

  constructor(field: string, message: string, details: { value?: unknown; limit?: unknown } = {}) {
    super(`${field}: ${message}`);
    this.field = field;
    this.value = details.value;
    this.limit = details.limit;
  }
}

/** Bytes that are valid msgpack but not a valid transaction / signed transaction. */
export class TxnDecodeError extends DecodeError {
  /** Dotted path of the offending field, e.g. `txn.apbx[0].x`. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

/** A signature operation that cannot be done (wrong key for a multisig, mismatched transactions …). */
export class SigningError extends ValidationError {}
