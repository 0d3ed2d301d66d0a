import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  rawUrl: string;
  headers: IncomingMessage['headers'];
  body: Uint8Array;
  text: string;
  remotePort: number | undefined;
  json(): unknown;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** A local HTTP server for tests: records every request and answers with the current handler. */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  handler: Handler = (_req, res) => json(res, 200, {});
  private server!: Server;
  private sockets = new Set<Socket>();
  url = '';

  static async start(handler?: Handler): Promise<FakeServer> {
    const s = new FakeServer();
    if (handler) s.handler = handler;
    s.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = new Uint8Array(Buffer.concat(chunks));
        const u = new URL(req.url ?? '/', 'http://x');
        const text = Buffer.from(body).toString('utf8');
        const rec: RecordedRequest = {
          method: req.method ?? '',
          path: u.pathname,
          query: Object.fromEntries(u.searchParams.entries()),
          rawUrl: req.url ?? '',
          headers: req.headers,
          body,
          text,
          remotePort: req.socket.remotePort,
          json: () => JSON.parse(text),
        };
        s.requests.push(rec);
        Promise.resolve(s.handler(rec, res)).catch((e) => {
          res.statusCode = 599;
          res.end(String(e));
        });
      });
    });
    s.server.on('connection', (sock) => {
      s.sockets.add(sock);
      sock.on('close', () => s.sockets.delete(sock));
    });
    await new Promise<void>((r) => s.server.listen(0, '127.0.0.1', r));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  /** Answers requests in order from a script; the last entry repeats. */
  script(...handlers: Handler[]): void {
    let i = 0;
    this.handler = (req, res) => handlers[Math.min(i++, handlers.length - 1)]!(req, res);
  }

  get last(): RecordedRequest {
    return this.requests[this.requests.length - 1]!;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? `__big__${v}` : v)).replace(/"__big__(\d+)"/g, '$1');
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export function bytes(res: ServerResponse, status: number, body: Uint8Array, contentType = 'application/msgpack'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(Buffer.from(body));
}

export function text(res: ServerResponse, status: number, body: string, contentType = 'text/plain'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

/** Destroys the connection without an answer (a reset as the client sees it). */
export function reset(_req: RecordedRequest, res: ServerResponse): void {
  res.socket?.destroy();
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Byte-for-byte comparison that ignores properties a decoder may have attached to a Uint8Array
 * (msgpackr caches a `dataView` on buffers it reads).
 */
export function sameBytes(actual: Uint8Array | undefined, expected: Uint8Array, message?: string): void {
  if (!(actual instanceof Uint8Array)) throw new Error(message ?? `expected bytes, got ${typeof actual}`);
  const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
  if (hex(actual) !== hex(expected)) throw new Error(`${message ?? 'bytes differ'}: ${hex(actual).slice(0, 80)}… vs ${hex(expected).slice(0, 80)}…`);
}
