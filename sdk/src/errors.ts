/**
 * Root of every error the SDK throws on purpose. Callers can catch `TealworksError` to tell our
 * deliberate, explained failures apart from programming errors.
 */
export class TealworksError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * `e instanceof TealworksError` also holds for an error from another copy of the SDK (two
   * installed versions, or a loader that evaluated this module twice): every copy brands its
   * errors with the same registered symbol. Subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== TealworksError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ERROR_BRAND] === true;
  }
}

/** The registered symbol every copy of the SDK marks its errors with (see `TealworksError`). */
const ERROR_BRAND = Symbol.for('tealworks.error');
Object.defineProperty(TealworksError.prototype, ERROR_BRAND, { value: true });

/** Input that does not have the shape or range a function requires (bad address, bad base64 …). */
export class ValidationError extends TealworksError {}

/** Bytes that do not decode as the structure expected of them. */
export class DecodeError extends TealworksError {}

/**
 * A network service (node, query service, key manager, a workflow's network) could not be reached
 * or used: refused connection, timeout, wrong token, wrong API, or endpoints that cannot be
 * resolved. The one connection error of the SDK: the client (`Tealworks.connect`), workflows and the
 * editor all throw it. The message says what failed and ends with what to do next (`hint`).
 */
export class ConnectError extends TealworksError {
  /** The service URL that was tried, when one was. */
  readonly url: string | undefined;
  /** What to do next (also the end of the message), when there is a specific step. */
  readonly hint: string | undefined;

  /** `what` says what failed; the message is `what`, then `hint` when given. */
  constructor(what: string, options: { url?: string; hint?: string; cause?: unknown } = {}) {
    super(options.hint ? `${what} ${options.hint}` : what, options.cause === undefined ? undefined : { cause: options.cause });
    this.url = options.url;
    this.hint = options.hint;
  }
}
