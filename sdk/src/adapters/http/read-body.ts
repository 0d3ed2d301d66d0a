/** A response body as undici gives it: a byte stream that can be dropped unread. */
export interface CappedBody extends AsyncIterable<Uint8Array> {
  destroy(): void;
}

/**
 * Reads a response body whole, with a byte cap: a body whose declared length (`content-length`)
 * is over `maxBytes` is not read at all, and one that grows past it while streaming is not read
 * further; either way the body is destroyed and `tooLarge` makes the error thrown (given the
 * declared length when that was what refused it).
 */
export async function readBodyCapped(
  body: CappedBody,
  contentLength: string | string[] | undefined,
  maxBytes: number,
  tooLarge: (declared?: number) => Error,
): Promise<Uint8Array> {
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(declared);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    bytes.set(c, off);
    off += c.length;
  }
  return bytes;
}

/** What {@link requestWhole} needs of an undici Pool: `dispatch` with a handler. */
export interface WholeDispatcher {
  dispatch(options: WholeRequestOptions, handler: WholeHandler): boolean;
}

/** The request options {@link requestWhole} passes through to undici. */
export interface WholeRequestOptions {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  headersTimeout: number;
  bodyTimeout: number;
}

/** undici's (legacy, still supported) dispatch handler callbacks, the ones used here. */
export interface WholeHandler {
  onConnect(abort: (reason?: Error) => void): void;
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(error: Error): void;
}

/** Response headers as undici's `request` API gives them (`util.parseHeaders`). */
export type ParsedHeaders = Record<string, string | string[] | undefined>;

/** A request in flight from {@link requestWhole}: the response promise, and a way to abort it. */
export interface WholeRequest {
  /** Resolves with the status, the parsed headers and the whole body. */
  response: Promise<{ status: number; headers: ParsedHeaders; body: Uint8Array }>;
  /** Aborts the request (before or after it started); the response rejects with `reason`. */
  cancel(reason: Error): void;
  /** The status, once headers arrived (undefined before). */
  status(): number | undefined;
  /** The parsed headers, once they arrived (empty before). */
  headers(): ParsedHeaders;
}

/**
 * Sends one request and reads the whole response body, with the same byte cap as
 * {@link readBodyCapped}, through undici's dispatch handler rather than its `request` API: no
 * Readable stream and async iterator per response, which for small answers (node status,
 * suggested params) was a measurable part of a request's own cost. Headers are parsed with the
 * function the `request` API uses; errors are undici's as that API reports them (headers and
 * body time-outs, socket errors); informational (1xx) responses are skipped as it skips them.
 */
export function requestWhole(
  dispatcher: WholeDispatcher,
  options: WholeRequestOptions,
  parseHeaders: (raw: Buffer[]) => ParsedHeaders,
  maxBytes: number,
  tooLarge: (declared: number | undefined, status: number) => Error,
): WholeRequest {
  let abort: ((reason?: Error) => void) | undefined;
  let pendingReason: Error | undefined;
  let status: number | undefined;
  let headers: ParsedHeaders = {};
  let chunks: Uint8Array[] = [];
  let total = 0;
  let settled = false;
  let resolve!: (r: { status: number; headers: ParsedHeaders; body: Uint8Array }) => void;
  let reject!: (e: Error) => void;
  const response = new Promise<{ status: number; headers: ParsedHeaders; body: Uint8Array }>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const fail = (error: Error): void => {
    if (settled) return;
    settled = true;
    chunks = [];
    reject(error);
  };
  const cancel = (reason: Error): void => {
    if (settled) return;
    if (abort) abort(reason);
    else pendingReason = reason;
    fail(reason);
  };
  const handler: WholeHandler = {
    onConnect(abortRequest) {
      if (pendingReason) {
        abortRequest(pendingReason);
        return;
      }
      abort = abortRequest;
    },
    onHeaders(statusCode, rawHeaders) {
      if (statusCode < 200) return true;
      status = statusCode;
      headers = parseHeaders(rawHeaders);
      // A declared size over the cap is refused unread.
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        cancel(tooLarge(declared, statusCode));
        return false;
      }
      return true;
    },
    onData(chunk) {
      if (settled) return false;
      total += chunk.length;
      if (total > maxBytes) {
        cancel(tooLarge(undefined, status!));
        return false;
      }
      chunks.push(chunk);
      return true;
    },
    onComplete() {
      if (settled) return;
      settled = true;
      const body = new Uint8Array(total);
      let off = 0;
      for (const c of chunks) {
        body.set(c, off);
        off += c.length;
      }
      chunks = [];
      resolve({ status: status!, headers, body });
    },
    onError(error) {
      fail(error);
    },
  };
  try {
    dispatcher.dispatch(options, handler);
  } catch (e) {
    fail(e as Error);
  }
  return { response, cancel, status: () => status, headers: () => headers };
}
