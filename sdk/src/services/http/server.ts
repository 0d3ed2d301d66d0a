import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DecodeError, TealworksError, ValidationError } from '../../errors.js';
import { jsonRoundTrip, parseJson, stringifyJson, type JsonParseOptions, type JsonStringifyOptions } from '../../encoding/json.js';
import { decodeMsgpack, encodeMsgpack, type MsgpackValue } from '../../encoding/msgpack.js';
import { LedgerWriteError } from '../../ledger/errors.js';
import { TokenChecker, type TokenAuth } from './auth.js';
import {
  BadRequestError,
  HttpError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PortInUseError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './errors.js';
import type { Router } from './router.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpTransport } from '../../adapters/http/client.js';
import type { ErrorFormat, Reply, RequestContext, RequestLogHook } from './types.js';

/** Largest request body a service accepts unless configured otherwise (1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 1 << 20;
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/** A service is a router plus the conventions of its spec: token header, error shape, JSON style. */
export interface ServiceDefinition {
  name: string;
  router: Router;
  errors: ErrorFormat;
  /** Omit for a service without an API token. */
  auth?: TokenAuth;
  /** How JSON replies are written (indent, key order, byte form). */
  json?: JsonStringifyOptions;
  maxBodyBytes?: number;
  /** Answer CORS preflights and allow the permitted browser origins (see `ServeOptions.corsOrigins`). Default true. */
  cors?: boolean;
  /** Runs after the last in-flight request finished during close: flush state here. */
  onClose?: () => Promise<void> | void;
}

/** Where and how a service listens: host, port, body limit, request log. */
export interface ServeOptions {
  /** Default 127.0.0.1: a devnet is a local tool and must not listen on the network unasked. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  log?: RequestLogHook;
  /** How long close() lets in-flight requests finish before cutting connections. */
  closeTimeoutMs?: number;
  /**
   * Open connections before the service starts preferring authenticated work (default 256). Past
   * it, a new connection first closes the oldest connection that never made an authenticated
   * request and has been idle for a second (a slow or abandoned client holding a socket); requests that do not carry a valid token are answered 503 (with `Retry-After`) while
   * authenticated ones are still served, up to four times this many connections, beyond which new
   * connections are refused.
   */
  maxConnections?: number;
  /** Time a client has to send its request headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * Browser origins allowed to call the service (exact strings or patterns; `*` allows every
   * origin) besides the VS Code extension's webviews (`vscode-webview://…`). A request from any
   * other origin is refused (403).
   */
  corsOrigins?: readonly (string | RegExp)[];
}

/** Header names a preflight asks for (`Access-Control-Request-Headers`), lower case; plain tokens only. */
function requestedHeaders(req: IncomingMessage): string[] {
  const raw = req.headers['access-control-request-headers'];
  if (typeof raw !== 'string') return [];
  return raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(h))
    .slice(0, 32);
}

/** Connections a service holds before it serves authenticated work first (`ServeOptions.maxConnections`). */
export const DEFAULT_MAX_CONNECTIONS = 256;
/** Time a client has to send its request headers, by default. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send its whole request, by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Webviews of the VS Code extension (the only browser pages allowed by default). */
export const WEBVIEW_ORIGIN = /^vscode-webview:\/\/[0-9a-z-]+$/i;

/** A listening service: name, host, port, URL, the Node server, and `close()`. */
export interface RunningService {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests finish, then runs the service's flush. Idempotent. */
  close(): Promise<void>;
  /** Connection counts (open, evicted, refused over the cap, bodies not drained); present on services started by `serve`. */
  readonly connectionStats?: Readonly<ConnectionStats>;
}

/** Maps anything a handler throws to the status and client-facing message it deserves. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  // Our own typed input errors explain the problem without echoing secrets (a project rule).
  if (error instanceof ValidationError || error instanceof DecodeError) return new BadRequestError(error.message);
  // A full disk or an I/O error: the request was not applied and may succeed later (503).
  if (error instanceof LedgerWriteError) return new ServiceUnavailableError(`the devnet could not store this change: ${error.message}`);
  return new InternalServerError();
}

function failureName(error: unknown): string | undefined {
  if (error instanceof HttpError && error.status < 500) return undefined;
  if (error instanceof Error) return error.name;
  return error === undefined ? undefined : typeof error;
}

interface Serialized {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

function serialize(reply: Reply, json: JsonStringifyOptions): Serialized {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  switch (reply.kind) {
    case 'json':
      headers['content-type'] = 'application/json';
      return { status: reply.status, headers, body: new TextEncoder().encode(stringifyJson(reply.value, reply.format ?? json) + '\n') };
    case 'msgpack':
      headers['content-type'] = 'application/msgpack';
      return { status: reply.status, headers, body: encodeMsgpack(reply.value as MsgpackValue) };
    case 'text':
      headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
      return { status: reply.status, headers, body: new TextEncoder().encode(reply.text) };
    case 'bytes':
      headers['content-type'] = reply.contentType;
      return { status: reply.status, headers, body: reply.bytes };
    case 'empty':
      return { status: reply.status, headers, body: undefined };
  }
}

/** Where a request's headers and body come from: a socket, or an in-process caller. */
interface RequestSource {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  read(ctx: Context, limit: number): Promise<Uint8Array>;
}

/** Reads a socket request's body within `limit` bytes, counting what arrived into `ctx.bytesRead`. */
function socketSource(req: IncomingMessage): RequestSource {
  return { method: req.method ?? 'GET', headers: req.headers, read: (ctx, limit) => readSocketBody(req, ctx, limit) };
}

function readSocketBody(req: IncomingMessage, ctx: Context, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (error) return reject(error);
      const out = new Uint8Array(size);
      let off = 0;
      for (const c of chunks) {
        out.set(c, off);
        off += c.length;
      }
      resolve(out);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      ctx.bytesRead = size;
      if (size > limit) {
        req.pause();
        finish(new PayloadTooLargeError(limit));
        return;
      }
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    };
    const onEnd = () => finish();
    const onError = () => finish(new BadRequestError('request body could not be read'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

class Context implements RequestContext {
  readonly #source: RequestSource;
  readonly #limit: number;
  #body: Promise<Uint8Array> | undefined;
  bytesRead = 0;
  readonly finished: Array<() => void> = [];

  constructor(
    readonly service: string,
    source: RequestSource,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly params: Readonly<Record<string, string>>,
    limit: number,
    readonly signal: AbortSignal,
    readonly authenticated?: boolean,
  ) {
    this.#source = source;
    this.#limit = limit;
  }

  get method(): string {
    return this.#source.method;
  }

  get headers() {
    return this.#source.headers;
  }

  body(): Promise<Uint8Array> {
    this.#body ??= this.#source.read(this, this.#limit);
    return this.#body;
  }

  async json<T>(options?: JsonParseOptions): Promise<T | undefined> {
    const bytes = await this.body();
    if (bytes.length === 0) return undefined;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new BadRequestError('request body is not valid UTF-8');
    }
    if (text.trim() === '') return undefined;
    try {
      return parseJson<T>(text, options);
    } catch (e) {
      throw new BadRequestError(e instanceof TealworksError ? e.message : 'request body is not valid JSON');
    }
  }

  async msgpack(): Promise<unknown> {
    const bytes = await this.body();
    if (bytes.length === 0) return undefined;
    try {
      return decodeMsgpack(bytes);
    } catch (e) {
      throw new BadRequestError(e instanceof TealworksError ? e.message : 'request body is not valid msgpack');
    }
  }

  onFinished(fn: () => void): void {
    this.finished.push(fn);
  }

  wantsMsgpack(): boolean {
    if (this.query.get('format') === 'msgpack') return true;
    const accept = this.#source.headers.accept ?? '';
    return /application\/(x-)?msgpack/i.test(accept);
  }
}

/** Over the connection cap, a request without a valid token waits for another time (503). */
class OverCapacityError extends ServiceUnavailableError {
  constructor() {
    super(TOO_MANY_CONNECTIONS);
  }
}

/** A browser page from another origin (not the extension's webview) may not call the service. */
class ForbiddenOriginError extends HttpError {
  constructor(origin: string) {
    super(
      403,
      `requests from the web origin ${JSON.stringify(origin).slice(0, 200)} are not allowed; only the Tealworks extension's webviews and configured origins may call this service`,
    );
  }
}

/** Finds the route, checks the token and runs the handler; throws what the service answers as an error. */
function routeRequest(
  def: ServiceDefinition,
  auth: TokenChecker | undefined,
  method: string,
  url: URL,
  source: RequestSource,
  signal: AbortSignal,
  admit?: (authenticated: boolean) => void,
): { ctx: Context; reply: Promise<Reply> | Reply } {
  const path = url.pathname;
  const match = def.router.match(method, path);
  if (match.kind === 'none') throw new NotFoundError(`no such endpoint: ${method} ${path}`);
  if (match.kind === 'wrong-method') throw new MethodNotAllowedError(match.allowed);
  const route = match.route;
  const authenticated = !auth || auth.accepts(source.headers);
  // The listening service decides here whether to serve the request at all (over its connection cap).
  admit?.(authenticated);
  if (auth && !route.options.public && !authenticated) throw new UnauthorizedError();
  const limit = route.options.maxBodyBytes ?? def.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const ctx = new Context(def.name, source, path, url.searchParams, match.params, limit, signal, auth ? authenticated : undefined);
  return { ctx, reply: route.handler(ctx) };
}

/** The service's error reply for anything a request failed with. */
function errorReply(def: ServiceDefinition, error: unknown): Reply {
  const httpError = toHttpError(error);
  let reply = def.errors(httpError);
  if (httpError instanceof MethodNotAllowedError) reply = { ...reply, headers: { ...(reply.headers ?? {}), allow: httpError.allowed.join(', ') } };
  if (httpError instanceof OverCapacityError) reply = { ...reply, headers: { ...(reply.headers ?? {}), 'retry-after': '1' } };
  return reply;
}

/**
 * Serves a service's routes to a caller in the same process, without a socket: the answer is the
 * one the listening service would send (same routing, token check, handlers, error shapes and
 * bytes). Plug it into an `HttpClient` (`transport` option) to use the adapters on an in-process
 * chain.
 */
export function inProcessTransport(def: ServiceDefinition, options: InProcessTransportOptions = {}): HttpTransport {
  const auth = def.auth ? new RememberingTokenChecker(def.auth) : undefined;
  return async (req) => {
    const headers: IncomingHttpHeaders = { ...req.headers };
    if (req.body) headers['content-length'] = String(req.body.length);
    const body = req.body ?? new Uint8Array(0);
    const source: RequestSource = {
      method: req.method,
      headers,
      read: (ctx, limit) => {
        ctx.bytesRead = body.length;
        return body.length > limit ? Promise.reject(new PayloadTooLargeError(limit)) : Promise.resolve(body);
      },
    };
    let reply: Reply;
    let ctx: Context | undefined;
    try {
      const routed = routeRequest(def, auth, req.method, new URL(req.path, 'http://service.invalid'), source, req.signal);
      ctx = routed.ctx;
      reply = await routed.reply;
    } catch (error) {
      reply = errorReply(def, error);
    }
    let out: Serialized;
    try {
      if (options.parsedJson && reply.kind === 'json' && reply.status < 300) {
        // The JSON value as the client would parse it; the text only if someone reads the body.
        const format = reply.format ?? def.json ?? {};
        const parsed = { value: jsonRoundTrip(reply.value, format) };
        const value = reply.value;
        let body: Uint8Array | undefined;
        return {
          status: reply.status,
          headers: { ...(reply.headers ?? {}), 'content-type': 'application/json' },
          parsed,
          get body(): Uint8Array {
            return (body ??= new TextEncoder().encode(stringifyJson(value, format) + '\n'));
          },
        };
      }
      out = serialize(reply, def.json ?? {});
    } catch {
      out = serialize(def.errors(new InternalServerError()), {});
    } finally {
      // The answer is complete: release what the handler held until then (as a socket's close does).
      for (const fn of ctx?.finished ?? []) {
        try {
          fn();
        } catch {
          // A release hook may not fail the request.
        }
      }
    }
    return { status: out.status, headers: out.headers, body: out.body ?? new Uint8Array(0) };
  };
}

/**
 * The token check of a caller in the same process (no one can time its answers): the verdict for
 * the token headers a request presents is kept, so a client's same token is not hashed again for
 * every request. The verdict is the checker's own.
 */
class RememberingTokenChecker extends TokenChecker {
  readonly #verdicts = new Map<string, boolean>();

  override accepts(headers: IncomingHttpHeaders): boolean {
    const key = JSON.stringify([...this.headerNames.map((n) => headers[n]), headers.authorization]);
    const known = this.#verdicts.get(key);
    if (known !== undefined) return known;
    const ok = super.accepts(headers);
    if (this.#verdicts.size >= 64) this.#verdicts.clear();
    this.#verdicts.set(key, ok);
    return ok;
  }
}

/** Options of {@link inProcessTransport}. */
export interface InProcessTransportOptions {
  /**
   * Successful JSON answers carry their value as the client would parse it (`parsed`), so neither
   * side writes or reads the text; the body is written only when read. Errors are serialized as
   * over HTTP.
   */
  parsedJson?: boolean;
}

/** What the service knows of an open connection, to decide whom to serve when over the cap. */
interface Connection {
  /** Made at least one request with a valid token (any request, when the service has no token). */
  authenticated: boolean;
  /** Requests in progress on it. */
  busy: number;
  /** When it last started or finished a request (or opened), `performance.now()`. */
  lastActive: number;
}

/** The 503 message for unauthenticated requests over the connection cap. */
export const TOO_MANY_CONNECTIONS = 'the service has too many open connections; requests with a valid API token are served first, retry in a moment';

/** Connection counts of a running service (for tests and metrics). */
export interface ConnectionStats {
  /** Open connections now. */
  open: number;
  /** Idle unauthenticated connections closed to make room for new ones. */
  evicted: number;
  /** Requests answered 503 because the service was over its connection cap. */
  refused: number;
  /** Responses after which the connection was closed instead of reading the rest of an unread request body. */
  bodiesNotDrained: number;
}

class Service implements RunningService {
  readonly server: Server;
  readonly #connections = new Map<Socket, Connection>();
  readonly #cap: number;
  readonly #graceMs: number;
  readonly connectionStats: ConnectionStats = { open: 0, evicted: 0, refused: 0, bodiesNotDrained: 0 };
  readonly #def: ServiceDefinition;
  readonly #opts: ServeOptions;
  readonly #auth: TokenChecker | undefined;
  readonly #inFlight = new Set<AbortController>();
  #idle: (() => void) | undefined;
  #closing: Promise<void> | undefined;
  host = '';
  port = 0;

  constructor(def: ServiceDefinition, opts: ServeOptions) {
    this.#def = def;
    this.#opts = opts;
    this.#auth = def.auth ? new TokenChecker(def.auth) : undefined;
    const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const headersTimeout = Math.min(opts.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
    this.server = createServer(
      // Slow clients are cut off: a request must arrive within these times (checked every second or so).
      { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 2))) },
      (req, res) => void this.#handle(req, res),
    );
    this.#cap = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.#graceMs = Math.min(1000, headersTimeout);
    // The hard bound (file descriptors): past it the operating system's accept is answered by a reset.
    this.server.maxConnections = this.#cap * 4;
    this.server.on('connection', (socket: Socket) => this.#admit(socket));
  }

  #admit(socket: Socket): void {
    if (this.#connections.size >= this.#cap) {
      // Make room by closing the oldest connection that is idle and never authenticated (a slow
      // or abandoned client holding a socket), never one doing authenticated work.
      // A connection gets a moment to send its first request before it counts as idle.
      const staleBefore = performance.now() - this.#graceMs;
      for (const [s, c] of this.#connections) {
        if (!c.authenticated && c.busy === 0 && c.lastActive <= staleBefore) {
          this.connectionStats.evicted++;
          this.#connections.delete(s);
          s.destroy();
          break;
        }
      }
    }
    this.#connections.set(socket, { authenticated: false, busy: 0, lastActive: performance.now() });
    this.connectionStats.open = this.#connections.size;
    socket.once('close', () => {
      this.#connections.delete(socket);
      this.connectionStats.open = this.#connections.size;
    });
  }

  get name(): string {
    return this.#def.name;
  }

  get url(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.port}`;
  }

  async listen(): Promise<void> {
    const host = this.#opts.host ?? '127.0.0.1';
    const port = this.#opts.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError(`port must be an integer in 0..65535, got ${port}`);
    await new Promise<void>((resolve, reject) => {
      const onError = (e: Error) => reject((e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new PortInUseError(this.name, host, port, { cause: e }) : e);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const addr = this.server.address() as AddressInfo;
    this.host = addr.address;
    this.port = addr.port;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const conn = this.#connections.get(req.socket);
    if (conn) {
      conn.busy++;
      conn.lastActive = performance.now();
    }
    let ctx: Context | undefined;
    res.once('close', () => {
      if (conn) {
        conn.busy--;
        conn.lastActive = performance.now();
      }
      if (!res.writableFinished) controller.abort();
      for (const fn of ctx?.finished ?? []) {
        try {
          fn();
        } catch {
          // A release hook may not take the server down.
        }
      }
    });
    const method = (req.method ?? 'GET').toUpperCase();
    let path = '/';
    let reply: Reply;
    let failure: string | undefined;
    let allowOrigin: string | undefined;
    try {
      const url = new URL(req.url ?? '/', 'http://service.invalid');
      path = url.pathname;
      if (this.#closing) throw new ServiceUnavailableError();
      const origin = req.headers.origin;
      if (origin !== undefined) {
        if (!(this.#def.cors ?? true) || !this.#originAllowed(origin)) throw new ForbiddenOriginError(origin);
        allowOrigin = origin;
      }
      if (method === 'OPTIONS' && (this.#def.cors ?? true)) {
        reply = this.#preflight(path, req);
      } else {
        const routed = routeRequest(this.#def, this.#auth, method, url, socketSource(req), controller.signal, (authenticated) => {
          if (authenticated && conn) conn.authenticated = true;
          // Over the cap only authenticated work is served; the rest is told to come back.
          if (!authenticated && this.#connections.size > this.#cap) {
            this.connectionStats.refused++;
            throw new OverCapacityError();
          }
        });
        ctx = routed.ctx;
        reply = await routed.reply;
      }
    } catch (error) {
      failure = failureName(error);
      reply = errorReply(this.#def, error);
    }
    // A request body nobody read (refused, unauthenticated, too large) is not drained: the
    // connection is closed after the answer instead, so a client cannot make the service read
    // (and discard) an unbounded upload.
    // A bodiless request is marked complete only after its 'request' event: give the parser its turn.
    if (!req.complete) await new Promise((resolve) => setImmediate(resolve));
    const unread = !req.complete;
    if (unread) reply = { ...reply, headers: { ...(reply.headers ?? {}), connection: 'close' } };
    let sent = 0;
    try {
      let out: Serialized;
      try {
        out = serialize(reply, this.#def.json ?? {});
      } catch (error) {
        failure ??= failureName(error);
        out = serialize(this.#def.errors(new InternalServerError()), {});
      }
      if (allowOrigin !== undefined) {
        out.headers['access-control-allow-origin'] = allowOrigin;
        out.headers.vary = 'origin';
      }
      if (this.#closing) out.headers.connection = 'close';
      sent = out.body?.length ?? 0;
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(out.status, { ...out.headers, 'content-length': String(sent) });
        res.end(out.body);
      }
      if (unread) {
        this.connectionStats.bodiesNotDrained++;
        res.once('finish', () => req.socket.destroy());
      }
      this.#opts.log?.({
        service: this.#def.name,
        method,
        path,
        status: out.status,
        durationMs: performance.now() - started,
        requestBytes: ctx?.bytesRead ?? 0,
        responseBytes: sent,
        ...(failure ? { failure } : {}),
      });
    } catch {
      // The log hook or the socket failed; neither may take the server down.
    } finally {
      this.#inFlight.delete(controller);
      if (this.#inFlight.size === 0) this.#idle?.();
    }
  }

  #originAllowed(origin: string): boolean {
    if (WEBVIEW_ORIGIN.test(origin)) return true;
    return (this.#opts.corsOrigins ?? []).some((o) => (typeof o === 'string' ? o === '*' || o === origin : o.test(origin)));
  }

  #preflight(path: string, req: IncomingMessage): Reply {
    const allowed = new Set<string>();
    for (const r of this.#def.router.routes()) {
      if (this.#def.router.match(r.method, path).kind === 'found') allowed.add(r.method);
    }
    if (allowed.size === 0) throw new NotFoundError(`no such endpoint: OPTIONS ${path}`);
    const headers: Record<string, string> = {
      'access-control-allow-methods': [...allowed, 'OPTIONS'].join(', '),
      'access-control-allow-headers': [
        ...new Set(['content-type', 'authorization', ...(this.#auth ? this.#auth.headerNames : []), ...requestedHeaders(req)]),
      ].join(', '),
      'access-control-max-age': '600',
      allow: [...allowed, 'OPTIONS'].join(', '),
    };
    // Private Network Access: a public page asking to reach this loopback service is let through
    // (the origin was already allowed).
    if (req.headers['access-control-request-private-network'] === 'true') headers['access-control-allow-private-network'] = 'true';
    return { kind: 'empty', status: 204, headers };
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const timeoutMs = this.#opts.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    if (this.#inFlight.size > 0) {
      const drained = new Promise<void>((resolve) => (this.#idle = resolve));
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([drained, expired]);
      clearTimeout(timer);
      if (outcome === 'timeout') for (const c of this.#inFlight) c.abort();
    }
    // Whatever is left is idle keep-alive or a stuck client: cut it.
    this.server.closeAllConnections();
    await closed;
    await this.#def.onClose?.();
  }
}

/** Starts one service on its own port. */
export async function serve(def: ServiceDefinition, options: ServeOptions = {}): Promise<RunningService> {
  const service = new Service(def, options);
  await service.listen();
  return service;
}
