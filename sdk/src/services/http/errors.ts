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

/** Answers 400: the request is malformed or its values are invalid. */
export class BadRequestError extends HttpError {
  constructor(message: string, data?: Record<string, unknown>) {
    super(400, message, data);
  }
}

/** Answers 401: the API token is missing or wrong. */
export class UnauthorizedError extends HttpError {
  constructor(message = 'invalid API token') {
    super(401, message);
  }
}

/** Answers 404: no such route or object. */
export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

/** Answers 405 with the methods the path accepts. */
export class MethodNotAllowedError extends HttpError {
  constructor(
    readonly allowed: readonly string[],
    message = 'method not allowed',
  ) {
    super(405, message);
  }
}

/** Answers 413: the body exceeds the service's limit. */
export class PayloadTooLargeError extends HttpError {
  constructor(readonly limit: number) {
    super(413, `request body exceeds the limit of ${limit} bytes`);
  }
}

/** Answers 415: the body's content type is not one the route reads. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** Answers 500: the service failed while handling the request. */
export class InternalServerError extends HttpError {
  constructor(message = 'internal error') {
    super(500, message);
  }
}

/** Answers 503: the service cannot handle requests now (e.g. shutting down). */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'service is shutting down') {
    super(503, message);
  }
}

/** A service could not listen: its port is taken (most often by another LocalNet or devnet). */
export class PortInUseError extends TealworksError {
  constructor(
    readonly service: string,
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(
      `the ${service} service cannot listen on ${host}:${port}: the port is already in use, most likely by another LocalNet ` +
        '(AlgoKit LocalNet: `algokit localnet stop`; another `tealworks devnet`: Ctrl+C in its terminal, or `tealworks devnet stop`). ' +
        'Stop it, or choose other ports with --ports NODE,QUERY,KMD.',
      options,
    );
  }
}
