import { HANG_GUARD_MS } from '../../helpers/hang.js';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { jsonReply, messageJsonErrors, Router, serve, type RunningService } from '../../../sdk/src/services/http/index.js';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with what the server sent before closing the socket (or rejects after `ms`). */
function closedWithin(s: Socket, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    s.on('data', (b) => (got += b.toString()));
    const timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
    s.once('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    s.on('error', () => undefined);
  });
}

describe('services/http: bounded connections and slow clients', function () {
  this.timeout(20_000);
  let service: RunningService;
  before(async () => {
    const router = new Router()
      .get('/health', () => jsonReply({ ok: true }), { public: true })
      .post('/echo', async (ctx) => jsonReply({ n: (await ctx.body()).length }), { public: true });
    service = await serve({ name: 'bounds', router, errors: messageJsonErrors() }, { maxConnections: 8, headersTimeoutMs: 500, requestTimeoutMs: 1000 });
  });
  after(async () => service.close());

  it('cuts off a client that sends its headers too slowly', async () => {
    const s = await open(service.port);
    s.write('GET /health HTTP/1.1\r\nHost: x\r\n'); // never finishes the headers
    const got = await closedWithin(s, HANG_GUARD_MS);
    assert.match(got, /^HTTP\/1\.1 408|^$/);
  });

  it('cuts off a client that stalls in the middle of its body', async () => {
    const s = await open(service.port);
    s.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n' + 'x'.repeat(10)); // 990 bytes never come
    const got = await closedWithin(s, HANG_GUARD_MS);
    assert.doesNotMatch(got, /200 OK/);
  });

  it('over the connection cap, a new connection is served (an idle unauthenticated one is closed to make room) instead of being reset', async () => {
    const idle: Socket[] = [];
    for (let i = 0; i < 8; i++) idle.push(await open(service.port));
    for (const s of idle) s.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 600)); // idle past the grace a new connection gets (min(1 s, headers timeout))
    const extra = await open(service.port);
    extra.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const got = await closedWithin(extra, HANG_GUARD_MS);
    assert.match(got, /200 OK/, 'the ninth connection is served');
    for (const s of idle) s.destroy();
    const res = await fetch(`${service.url}/health`);
    assert.equal(res.status, 200);
  });
});
