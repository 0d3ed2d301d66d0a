import { TealworksError } from '../../errors.js';

/** Root of the adapters layer's errors: anything that went wrong talking to a service. */
export class AdapterError extends TealworksError {}

/** What an error says about its request: method and URL (without credentials). */
export interface RequestDescription {
  method: string;
  /** The request URL with credentials and secret query values removed. */
  url: string;
}

/** A failure of one HTTP request, naming the request (with secrets already removed from the URL). */
export abstract class RequestError extends AdapterError {
  readonly method: string;
  readonly url: string;

  constructor(message: string, request: RequestDescription, options?: { cause?: unknown }) {
    super(message, options);
    this.method = request.method;
    this.url = request.url;
  }
}

/** The service answered with a non-success status. */
export class HttpError extends RequestError {
  readonly status: number;
  /** The service's own explanation, parsed from the body (JSON `message`, or plain text). */
  readonly serviceMessage: string | undefined;
  /** Optional structured `data` member of JSON error bodies. */
  readonly data: unknown;
  /** Whether repeating the same request could succeed (408, 413, 429, 5xx). */
  readonly retryable: boolean;
  /** Milliseconds the service asked us to wait (Retry-After), when it said so. */
  readonly retryAfterMs: number | undefined;

  constructor(init: RequestDescription & { status: number; serviceMessage?: string; data?: unknown; retryable: boolean; retryAfterMs?: number }) {
    const what = init.serviceMessage ? `: ${init.serviceMessage}` : '';
    super(`${init.method} ${init.url} failed with HTTP ${init.status}${what}`, init);
    this.status = init.status;
    this.serviceMessage = init.serviceMessage;
    this.data = init.data;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** No complete response within the per-request time limit. */
export class TimeoutError extends RequestError {
  readonly timeoutMs: number;
  readonly retryable = true;

  constructor(init: RequestDescription & { timeoutMs: number }) {
    super(`${init.method} ${init.url} timed out after ${init.timeoutMs} ms`, init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** The caller's AbortSignal fired before the request finished. */
export class RequestAbortedError extends RequestError {
  readonly retryable = false;

  constructor(init: RequestDescription) {
    super(`${init.method} ${init.url} was aborted by the caller`, init);
  }
}

/** The connection failed (refused, reset, closed early) before a usable response arrived. */
export class NetworkError extends RequestError {
  /** The socket-level code, e.g. ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET. */
  readonly code: string | undefined;
  readonly retryable: boolean;
  /** True when nothing can have reached the server (connection refused), so even a POST may be repeated. */
  readonly requestNotSent: boolean;

  constructor(init: RequestDescription & { code?: string; retryable: boolean; requestNotSent: boolean; detail: string }) {
    super(`${init.method} ${init.url} failed: ${init.detail}${init.code ? ` (${init.code})` : ''}`, init);
    this.code = init.code;
    this.retryable = init.retryable;
    this.requestNotSent = init.requestNotSent;
  }
}

/** The service answered, but the body is not what the protocol promises (HTML page, truncated or malformed data). */
export class ProtocolError extends RequestError {
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly retryable: boolean;

  constructor(init: RequestDescription & { status?: number; contentType?: string; reason: string; retryable?: boolean; cause?: unknown }) {
    super(`${init.method} ${init.url}: ${init.reason}`, init, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.contentType = init.contentType;
    this.retryable = init.retryable ?? false;
  }
}

/** An operation the connected service does not offer (e.g. box lookups on the /v1 node service). */
export class UnsupportedOperationError extends AdapterError {
  constructor(
    readonly operation: string,
    readonly service: string,
  ) {
    super(`${operation} is not offered by the ${service}`);
  }
}

/** True when repeating the failed request could succeed (timeouts, resets, 408/429/5xx). */
export function isRetryable(error: unknown): boolean {
  return error instanceof AdapterError && (error as { retryable?: boolean }).retryable === true;
}
