import type { JsonStringifyOptions } from '../../encoding/json.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonParseOptions } from '../../encoding/json.js';
import type { HttpError } from './errors.js';

/** What a route sees of a request. Bodies are read lazily and only once, within the size limit. */
export interface RequestContext {
  readonly service: string;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Aborted when the client goes away or the server is force-closed. */
  readonly signal: AbortSignal;
  /**
   * The service's verdict on the request's token, checked once as it came in (a public route is
   * served either way and may answer by it); undefined when the service takes no token.
   */
  readonly authenticated?: boolean;
  body(): Promise<Uint8Array>;
  /** Bigint-safe JSON; `undefined` for an empty body. Malformed text → BadRequestError. */
  json<T = unknown>(options?: JsonParseOptions): Promise<T | undefined>;
  /** Decoded msgpack; `undefined` for an empty body. Malformed bytes → BadRequestError. */
  msgpack(): Promise<unknown>;
  /** True when the caller asked for msgpack (`format=msgpack` or an msgpack Accept header). */
  wantsMsgpack(): boolean;
  /** Runs `fn` once the response has been sent in full or the connection closed (to release what the reply holds). */
  onFinished(fn: () => void): void;
}

/** What a handler answers: status, headers and a JSON, msgpack, text or binary body. */
export type Reply =
  | {
      kind: 'json';
      status: number;
      value: unknown;
      headers?: Record<string, string>;
      /** How to write it, instead of the service's `json` options. */ format?: JsonStringifyOptions;
    }
  | { kind: 'msgpack'; status: number; value: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; text: string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> }
  | { kind: 'empty'; status: number; headers?: Record<string, string> };

/** Handles one request and returns the reply. */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** Renders a failure in the service's own error shape (JSON envelope, plain text, no content…). */
export type ErrorFormat = (error: HttpError) => Reply;

/** One line per request for a log hook. Carries no headers, query strings or bodies by design. */
export interface RequestLogEntry {
  service: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  /** Class name of an unexpected error, never its message (which might echo input). */
  failure?: string;
}

/** Receives one entry per handled request (no secrets). */
export type RequestLogHook = (entry: RequestLogEntry) => void;
