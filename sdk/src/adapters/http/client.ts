import type { Dispatcher, Pool } from 'undici';
import { parseJson, stringifyJson } from '../../encoding/json.js';
import { decodeMsgpack } from '../../encoding/msgpack.js';
import { AdapterError, HttpError, NetworkError, ProtocolError, RequestAbortedError, TimeoutError } from './errors.js';
import { redactUrl, scrubSecrets } from './redact.js';
import { DEFAULT_RETRY_POLICY, backoffDelayMs, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry.js';
import { requestWhole, type ParsedHeaders } from './read-body.js';

// The clients are `await using`-disposable. `Symbol.asyncDispose` is declared here as TypeScript's
// `esnext.disposable` lib and Node's types declare it, so the SDK's declarations also compile for a
// consumer whose `lib` lacks it (strict NodeNext defaults, no skipLibCheck). Every declaration
// using the symbol imports this module.
declare global {
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}

/** HTTP methods the client sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
/** One query parameter value; arrays are sent comma-separated. */
export type QueryValue = string | number | bigint | boolean | null | undefined | readonly (string | number | bigint)[];
/** Query parameters; undefined and null values are left out. */
export type QueryInput = Readonly<Record<string, QueryValue>>;

/** One logged attempt (response, retry or failure): method, redacted URL, attempt, status, duration, retry delay, error. */
export interface HttpLogEntry {
  event: 'response' | 'retry' | 'failure';
  method: string;
  /** Redacted: no credentials, no secret query values. */
  url: string;
  attempt: number;
  status?: number;
  durationMs: number;
  delayMs?: number;
  /** Redacted error text. */
  error?: string;
}
/** Receives one entry per request attempt (secrets already removed). */
export type HttpLogger = (entry: HttpLogEntry) => void;

/** Options of an `HttpClient`: base URL, headers, time limit, retry policy, logger. */
export interface HttpClientOptions {
  /** Service address, optionally with a path prefix (`https://host/algod`). */
  baseUrl: string | URL;
  /** Headers sent with every request (token headers go here). Their values never appear in errors or logs. */
  headers?: Readonly<Record<string, string>>;
  /** Further values to scrub from service messages and logs (tokens are added automatically from `headers`). */
  secrets?: readonly string[];
  /** Whole-request time limit per attempt (connect, headers and body), ms. Default 30 s. */
  timeoutMs?: number;
  /** Retry tuning, or false to never retry. */
  retry?: Partial<RetryPolicy> | false;
  /** Also retry idempotent requests that timed out (off by default: a slow node usually stays slow). */
  retryOnTimeout?: boolean;
  /** Keep-alive connections kept per base URL. Default 16. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  logger?: HttpLogger;
  /** Responses larger than this are refused (protects against runaway bodies). Default 256 MiB. */
  maxResponseBytes?: number;
  /**
   * Answers requests without a network (an in-process service, see `inProcessTransport` in the
   * services layer): no pool is opened, and errors, parsing and retries work as over HTTP.
   */
  transport?: HttpTransport;
  /** Test hooks: randomness for jitter and the sleep used between attempts. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A request as an in-process {@link HttpTransport} receives it: the path includes the query string. */
export interface TransportRequest {
  method: HttpMethod;
  path: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array | undefined;
  signal: AbortSignal;
}

/** What an in-process {@link HttpTransport} answers. */
export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
  /** A JSON answer's value exactly as parsing `body` would give it (an in-process service may skip the text). */
  parsed?: { value: unknown };
}

/** Sends a request somewhere other than a socket (the `transport` option of {@link HttpClientOptions}). */
export type HttpTransport = (req: TransportRequest) => Promise<TransportResponse>;

/** A request to send: method, path, query, body (JSON or bytes), what to parse the answer as. */
export interface HttpRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`. Path parameters must already be encoded (see {@link pathOf}). */
  path: string;
  query?: QueryInput;
  headers?: Readonly<Record<string, string>>;
  /** Raw body (binary or text). */
  body?: Uint8Array | string;
  /** A value to send as bigint-safe JSON (sets the content type). */
  json?: unknown;
  contentType?: string;
  accept?: string;
  /** Whether repeating the request is harmless. Default: true for GET, HEAD, PUT, DELETE. */
  idempotent?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy> | false;
  /** Values (passwords, mnemonics) that this request carries and that must never be echoed. */
  secrets?: readonly string[];
}

/** A parsed response: status, headers and body. */
export interface HttpResponse {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  contentType: string | undefined;
  body: Uint8Array;
  /** Redacted URL of the request, for error messages built from this response. */
  url: string;
  method: string;
  /** A JSON body already parsed (in-process transports): what {@link HttpClient.parseJsonBody} returns. */
  parsed?: { value: unknown };
}

const TEXT = new TextDecoder('utf-8', { fatal: false });
const ENCODER = new TextEncoder();

/** Socket-level failures that may go away when tried again. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Failures that happen before a single byte of the request is written. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT', 'ENETUNREACH', 'EHOSTUNREACH']);

function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && code !== 'ABORT_ERR') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Joins encoded path segments: `pathOf('v2', 'accounts', addr)` → `/v2/accounts/<addr>`. */
export function pathOf(...segments: (string | number | bigint)[]): string {
  return '/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

/** Sorted, with unset values left out and zero values kept, so `limit: 0` is sent and `limit: undefined` is not. */
export function buildQuery(query: QueryInput | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      params.append(key, value.map(String).join(','));
    } else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * One service's HTTP connection: a keep-alive pool for its base URL, time limits, retries with
 * jittered backoff and typed errors. All clients in this layer sit on it.
 */
export class HttpClient {
  readonly baseUrl: URL;
  /** Opened on the first request: undici is loaded only then (a process that never calls out, such as a devnet, does not pay for it). */
  #pool: Pool | undefined;
  /** undici's response-header parser (the one its `request` API uses), loaded with the pool. */
  #parseHeaders: ((raw: Buffer[]) => ParsedHeaders) | undefined;
  readonly #poolOptions: Pool.Options | undefined;
  readonly #transport: HttpTransport | undefined;
  readonly #basePath: string;
  readonly #headers: Record<string, string>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy | false;
  readonly #retryOnTimeout: boolean;
  readonly #logger: HttpLogger | undefined;
  readonly #maxBytes: number;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #closed = false;

  constructor(options: HttpClientOptions) {
    let url: URL;
    try {
      url = new URL(String(options.baseUrl));
    } catch {
      throw new AdapterError(`invalid service URL ${redactUrl(String(options.baseUrl))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdapterError(`service URL must be http or https, got ${url.protocol}`);
    this.baseUrl = url;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#headers = { ...(options.headers ?? {}) };
    this.#secrets = [...Object.values(this.#headers), ...(options.secrets ?? [])].filter((s) => s.length >= 3);
    if (url.password) this.#secrets.push(decodeURIComponent(url.password));
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retry = options.retry === false ? false : { ...DEFAULT_RETRY_POLICY, ...(options.retry ?? {}) };
    this.#retryOnTimeout = options.retryOnTimeout ?? false;
    this.#logger = options.logger;
    this.#maxBytes = options.maxResponseBytes ?? 256 * 1024 * 1024;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#transport = options.transport;
    this.#poolOptions = options.transport
      ? undefined
      : {
          connections: options.connections ?? 16,
          keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
          pipelining: 1,
        };
  }

  async #openPool(): Promise<Pool> {
    const { Pool, util } = await import('undici');
    this.#parseHeaders ??= util.parseHeaders as (raw: Buffer[]) => ParsedHeaders;
    // Another request may have opened it meanwhile.
    this.#pool ??= new Pool(this.baseUrl.origin, this.#poolOptions);
    if (this.#closed) void this.#pool.close();
    return this.#pool;
  }

  /** Redacts a URL or text with everything this client knows to be secret. */
  redact(text: string, extra: readonly string[] = []): string {
    return scrubSecrets(text, [...this.#secrets, ...extra]);
  }

  /** Sends the request (retrying as allowed) and returns a 2xx response; other statuses throw {@link HttpError}. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    if (this.#closed) throw new AdapterError('this client has been closed');
    const secrets = [...this.#secrets, ...(req.secrets ?? [])];
    const fullPath = this.#basePath + req.path + buildQuery(req.query);
    // Redacted only when someone shows it (a log, an error, a response's `url`): parsing and
    // scrubbing a URL per request is most of a client's own cost on an in-process transport.
    let shown: string | undefined;
    const shownUrl = (): string => (shown ??= redactUrl(this.baseUrl.origin + fullPath, secrets));
    const method = req.method;
    const idempotent = req.idempotent ?? (method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE');
    const policy = req.retry === false || this.#retry === false ? false : { ...this.#retry, ...(req.retry ?? {}) };
    // Lower-case names so a caller's `Content-Type` and ours never travel as two headers.
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...this.#headers, ...(req.headers ?? {}) })) headers[k.toLowerCase()] = v;
    let body: Uint8Array | string | undefined = req.body;
    if (req.json !== undefined) {
      body = stringifyJson(req.json);
      headers['content-type'] ??= 'application/json';
    }
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.accept) headers['accept'] = req.accept;
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let failure: AdapterError;
      try {
        const res = await this.#once(method, fullPath, shownUrl, headers, body, timeoutMs, req.signal, secrets);
        // Services here never redirect; a 3xx usually means a proxy or a wrong base URL.
        if (res.status < 300) {
          if (this.#logger) this.#log({ event: 'response', method, url: shownUrl(), attempt, status: res.status, durationMs: performance.now() - started });
          return res;
        }
        failure = this.#httpError(res, secrets, policy);
      } catch (e) {
        failure =
          e instanceof AdapterError ? e : new AdapterError(`${method} ${shownUrl()} failed: ${this.redact(String((e as Error)?.message ?? e), secrets)}`);
      }
      const durationMs = performance.now() - started;
      const delay = policy ? this.#retryDelay(failure, attempt, policy, idempotent) : undefined;
      if (delay === undefined) {
        this.#log({
          event: 'failure',
          method,
          url: shownUrl(),
          attempt,
          durationMs,
          error: failure.message,
          ...(failure instanceof HttpError ? { status: failure.status } : {}),
        });
        throw failure;
      }
      this.#log({
        event: 'retry',
        method,
        url: shownUrl(),
        attempt,
        durationMs,
        delayMs: delay,
        error: failure.message,
        ...(failure instanceof HttpError ? { status: failure.status } : {}),
      });
      try {
        await this.#sleep(delay, req.signal);
      } catch {
        throw new RequestAbortedError({ method, url: shownUrl() });
      }
    }
  }

  /** Sends and parses a JSON body with uint64 precision kept (integers beyond 2^53 become bigint). */
  async json<T = unknown>(req: HttpRequest): Promise<T> {
    const res = await this.send({ accept: 'application/json', ...req });
    return this.parseJsonBody<T>(res);
  }

  /** Sends and decodes a msgpack body. */
  async msgpack<T = unknown>(req: HttpRequest, options: { maps?: boolean } = {}): Promise<T> {
    const res = await this.send({ accept: 'application/msgpack', ...req });
    return this.parseMsgpackBody<T>(res, options);
  }

  async text(req: HttpRequest): Promise<string> {
    const res = await this.send(req);
    return TEXT.decode(res.body);
  }

  parseJsonBody<T>(res: HttpResponse): T {
    if (res.parsed) return res.parsed.value as T;
    const type = res.contentType ?? '';
    const text = TEXT.decode(res.body);
    const trimmed = text.trimStart();
    if (type.includes('html') || trimmed.startsWith('<')) {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `expected JSON but the service sent an HTML page (HTTP ${res.status}, ${type || 'no content type'})`,
      });
    }
    if (trimmed.length === 0) {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `expected JSON but the body is empty (HTTP ${res.status})`,
      });
    }
    try {
      return parseJson<T>(text);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `malformed or truncated JSON body (${res.body.length} bytes): ${reason}`,
        cause: e,
      });
    }
  }

  /** `maps`: decode maps as `Map` (needed when keys are not strings, as in state deltas). */
  parseMsgpackBody<T>(res: HttpResponse, options: { maps?: boolean } = {}): T {
    const type = res.contentType ?? '';
    if (type.includes('json')) return this.parseJsonBody<T>(res);
    if (type.includes('html')) {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `expected msgpack but the service sent an HTML page (HTTP ${res.status})`,
      });
    }
    try {
      return decodeMsgpack(res.body, options.maps ? { maps: true } : {}) as T;
    } catch (e) {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `malformed or truncated msgpack body (${res.body.length} bytes): ${(e as Error).message}`,
        cause: e,
      });
    }
  }

  /** Closes the keep-alive connections. Further requests fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #log(entry: HttpLogEntry): void {
    if (!this.#logger) return;
    try {
      this.#logger(entry);
    } catch {
      // A faulty logger must not break requests.
    }
  }

  #retryDelay(failure: AdapterError, attempt: number, policy: RetryPolicy, idempotent: boolean): number | undefined {
    if (attempt >= policy.retries) return undefined;
    if (failure instanceof TimeoutError) {
      if (!this.#retryOnTimeout || !idempotent) return undefined;
    } else if (failure instanceof NetworkError) {
      if (!failure.retryable || (!idempotent && !failure.requestNotSent)) return undefined;
    } else if (failure instanceof HttpError) {
      if (!failure.retryable || !idempotent) return undefined;
      if (failure.retryAfterMs !== undefined) {
        // A server that asks for more patience than we allow gets a clear error now, not a stall.
        return failure.retryAfterMs > policy.maxDelayMs ? undefined : failure.retryAfterMs;
      }
    } else if (failure instanceof ProtocolError) {
      if (!failure.retryable || !idempotent) return undefined;
    } else return undefined;
    return backoffDelayMs(attempt, policy, this.#random);
  }

  #httpError(res: HttpResponse, secrets: readonly string[], policy: RetryPolicy | false): HttpError {
    const { message, data } = extractServiceMessage(res);
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'] as string | string[] | undefined);
    return new HttpError({
      method: res.method,
      url: res.url,
      status: res.status,
      ...(message !== undefined ? { serviceMessage: scrubSecrets(message, secrets) } : {}),
      ...(data !== undefined ? { data: scrubDeep(data, secrets) } : {}),
      retryable: policy ? isRetryableStatus(res.status, policy) : isRetryableStatus(res.status),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  async #once(
    method: HttpMethod,
    fullPath: string,
    shownUrl: () => string,
    headers: Record<string, string>,
    body: Uint8Array | string | undefined,
    timeoutMs: number,
    userSignal: AbortSignal | undefined,
    secrets: readonly string[],
  ): Promise<HttpResponse> {
    if (userSignal?.aborted) throw new RequestAbortedError({ method, url: shownUrl() });
    // The signal is for a custom transport; undici requests are cancelled through their handler.
    const controller = this.#transport ? new AbortController() : undefined;
    let abortReason: Error | undefined;
    let cancel: ((reason: Error) => void) | undefined;
    const abortWith = (reason: Error): void => {
      abortReason ??= reason;
      controller?.abort(reason);
      cancel?.(reason);
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abortWith(new Error('timeout'));
    }, timeoutMs);
    const onUserAbort = () => abortWith(new Error('aborted'));
    const describe = () => ({ method, url: shownUrl() });
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    let status: number | undefined;
    let responseHeaders: Dispatcher.ResponseData['headers'] = {};
    try {
      if (this.#transport) {
        const r = await this.#transport({
          method,
          path: fullPath,
          headers,
          body: typeof body === 'string' ? ENCODER.encode(body) : body,
          signal: controller!.signal,
        });
        if (r.parsed) {
          // The body stays unwritten unless someone reads it.
          return {
            status: r.status,
            headers: r.headers,
            contentType: r.headers['content-type'],
            get body() {
              return r.body;
            },
            get url() {
              return shownUrl();
            },
            method,
            parsed: r.parsed,
          };
        }
        return {
          status: r.status,
          headers: r.headers,
          contentType: r.headers['content-type'],
          body: r.body,
          get url() {
            return shownUrl();
          },
          method,
        };
      }
      const pool = this.#pool ?? (await this.#openPool());
      if (abortReason) throw abortReason;
      const max = this.#maxBytes;
      const request = requestWhole(
        pool,
        {
          method,
          path: fullPath,
          headers,
          body: typeof body === 'string' ? ENCODER.encode(body) : body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        this.#parseHeaders!,
        max,
        (declared, atStatus) =>
          new ProtocolError({
            ...describe(),
            status: atStatus,
            reason: declared !== undefined ? `response of ${declared} bytes exceeds the ${max}-byte limit` : `response exceeds the ${max}-byte limit`,
          }),
      );
      cancel = request.cancel;
      let response: Awaited<typeof request.response>;
      try {
        response = await request.response;
      } finally {
        status = request.status();
        responseHeaders = request.headers();
      }
      return {
        status: response.status,
        headers: response.headers,
        contentType: headerValue(response.headers['content-type']),
        body: response.body,
        get url() {
          return shownUrl();
        },
        method,
      };
    } catch (e) {
      if (e instanceof AdapterError) throw e;
      if (timedOut) throw new TimeoutError({ ...describe(), timeoutMs });
      if (userSignal?.aborted) throw new RequestAbortedError(describe());
      const code = errorCode(e);
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') throw new TimeoutError({ ...describe(), timeoutMs });
      const detail = scrubSecrets(String((e as Error)?.message ?? e), secrets);
      if (status !== undefined) {
        // Headers arrived but the body broke off: the same request may well work next time.
        throw new ProtocolError({
          ...describe(),
          status,
          contentType: headerValue(responseHeaders['content-type']),
          reason: `the response body was cut off (${detail}${code ? `, ${code}` : ''})`,
          retryable: true,
          cause: e,
        });
      }
      throw new NetworkError({
        ...describe(),
        ...(code !== undefined ? { code } : {}),
        detail,
        retryable: code !== undefined && TRANSIENT_CODES.has(code),
        requestNotSent: code !== undefined && NOT_SENT_CODES.has(code),
      });
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }
}

/** Structured error data may echo request values too: scrub every string inside it. */
function scrubDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, secrets));
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, secrets);
    return out;
  }
  return value;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const MAX_MESSAGE = 500;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE ? oneLine.slice(0, MAX_MESSAGE) + '…' : oneLine;
}

/**
 * The service's explanation from an error body: JSON `message` (node v2, query service, key
 * manager), the title of an HTML error page (proxies), or plain text (node /v1).
 */
export function extractServiceMessage(res: Pick<HttpResponse, 'body' | 'contentType'>): { message?: string; data?: unknown } {
  if (res.body.length === 0) return {};
  const text = TEXT.decode(res.body);
  const trimmed = text.trim();
  const type = res.contentType ?? '';
  if (type.includes('html') || /^<(!doctype|html|head|body)/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const plain = (title ?? h1 ?? trimmed.replace(/<[^>]*>/g, ' ')).replace(/<[^>]*>/g, ' ');
    return { message: clip(`HTML error page: ${plain}`) };
  }
  if (trimmed.startsWith('{')) {
    try {
      const parsed = parseJson<Record<string, unknown>>(trimmed);
      if (parsed && typeof parsed === 'object') {
        const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.error === 'string' ? parsed.error : undefined;
        return {
          ...(message !== undefined ? { message: clip(message) } : { message: clip(trimmed) }),
          ...(parsed.data !== undefined ? { data: parsed.data } : {}),
        };
      }
    } catch {
      // Not JSON after all: fall through to plain text.
    }
  }
  return { message: clip(trimmed) };
}
