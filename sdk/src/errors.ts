/**
 * Root of every error the SDK throws on purpose. Callers can catch `TealworksError` to tell our
 * deliberate, explained failures apart from programming errors.
 */
export class TealworksError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input that does not have the shape or range a function requires (bad address, bad base64 …). */
export class ValidationError extends TealworksError {}

/** Bytes that do not decode as the structure expected of them. */
export class DecodeError extends TealworksError {}
