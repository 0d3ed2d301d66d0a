import { TealworksError } from '../../errors.js';

/**
 * A failure a service reports to its caller. `message` is what the client sees, so it must never
 * carry a secret; each service's error format decides how the status and message are rendered.
 */
export class HttpError extends TealworksError {
  constructor(
    readonly status: number,
    message: string,
    /** Extra members some error bodies carry (the query service's `data`). */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, data?: Record<string, unknown>) {
    super(400, message, data);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'invalid API token') {
    super(401, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(
    readonly allowed: readonly string[],
    message = 'method not allowed',
  ) {
    super(405, message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(readonly limit: number) {
    super(413, `request body exceeds the limit of ${limit} bytes`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

export class InternalServerError extends HttpError {
  constructor(message = 'internal error') {
    super(500, message);
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message = 'service is shutting down') {
    super(503, message);
  }
}
