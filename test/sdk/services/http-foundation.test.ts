import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { ValidationError } from '../../../sdk/src/errors.js';
import { decodeMsgpack, encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import {
  BadRequestError,
  jsonReply,
  messageJsonErrors,
  msgpackReply,
  plainTextErrors,
  Router,
  serve,
  textReply,
  type RequestLogEntry,
  type RunningService,
  type ServiceDefinition,
} from '../../../sdk/src/services/http/index.js';

const TOKEN = 'node-token-0123456789';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http directly, so GET bodies, odd methods and exact bytes are all possible. */
function raw(url: string, method: string, path: string, options: { headers?: Record<string, string>; body?: Uint8Array | string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method, headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

describe('services/http: router', () => {
  const noop = () => jsonReply({});

  it('matches path parameters and decodes them', () => {
    const r = new Router().get('/v2/accounts/:address/assets/:asset', noop);
    const m = r.match('GET', '/v2/accounts/AB%2FC/assets/12');
    assert.equal(m.kind, 'found');
    assert.deepEqual(m.kind === 'found' && m.params, { address: 'AB/C', asset: '12' });
    assert.equal(r.match('GET', '/v2/accounts/x/assets').kind, 'none');
    assert.equal(r.match('GET', '/v2/accounts//assets/1').kind, 'none', 'an empty parameter does not match');
  });

  it('prefers literal segments over parameters regardless of order', () => {
    const r = new Router();
    r.get('/v2/blocks/:round', noop).get('/v2/blocks/latest', noop);
    const m = r.match('GET', '/v2/blocks/latest');
    assert.equal(m.kind === 'found' && m.route.pattern, '/v2/blocks/latest');
    const n = r.match('GET', '/v2/blocks/17');
    assert.equal(n.kind === 'found' && n.route.pattern, '/v2/blocks/:round');
  });

  it('reports the allowed methods when only the method is wrong, and ignores a trailing slash', () => {
    const r = new Router().post('/v1/key', noop).delete('/v1/key', noop);
    assert.deepEqual(r.match('GET', '/v1/key'), { kind: 'wrong-method', allowed: ['DELETE', 'POST'] });
    assert.equal(r.match('POST', '/v1/key/').kind, 'found');
  });

  it('rejects duplicate routes, bad patterns and bad percent-encoding', () => {
    const r = new Router().get('/a/:x', noop);
    assert.throws(() => r.get('/a/:y', noop), /route GET \/a\/:y duplicates GET \/a\/:x/);
    r.post('/a/:y', noop).get('/a/b', noop).get('/a/:x/c', noop); // another method, a literal, a longer path
    assert.throws(() => r.get('/a/b/', noop), ValidationError);
    assert.throws(() => r.get('no-slash', noop), ValidationError);
    assert.throws(() => r.match('GET', '/a/%E0%A4%A'), ValidationError);
  });
});

describe('services/http: serve', () => {
  let service: RunningService;
  const log: RequestLogEntry[] = [];
  let release: (() => void) | undefined;
  let slowStarted: (() => void) | undefined;

  function definition(): ServiceDefinition {
    const router = new Router()
      .get('/health', () => jsonReply({ ok: true }), { public: true })
      .post('/echo', async (ctx) => jsonReply({ got: await ctx.json(), params: ctx.params }))
      .post('/echo/:id', async (ctx) =>
        ctx.wantsMsgpack() ? msgpackReply({ id: ctx.params.id, got: (await ctx.msgpack()) as never }) : jsonReply({ id: ctx.params.id }),
      )
      .post('/small', async (ctx) => jsonReply({ n: (await ctx.body()).length }), { maxBodyBytes: 16 })
      .get('/invalid', () => {
        throw new ValidationError('amount 5 exceeds the limit 4');
      })
      .get('/crash', () => {
        throw new Error('secret-password-in-a-crash');
      })
      .get('/teapot', () => {
        throw new BadRequestError('bad thing', { field: 'x' });
      })
      .get('/text', () => textReply('hello'))
      .get('/slow', async () => {
        slowStarted?.();
        await new Promise<void>((r) => (release = r));
        return jsonReply({ done: true });
      });
    return {
      name: 'test',
      router,
      errors: messageJsonErrors({ emptyStatuses: [401] }),
      auth: { header: 'X-Node-API-Token', tokens: [TOKEN], bearer: true },
      maxBodyBytes: 1024,
    };
  }

  before(async () => {
    service = await serve(definition(), { log: (e) => log.push(e) });
  });

  after(async () => {
    await service.close();
  });

  const auth = { 'X-Node-API-Token': TOKEN };

  it('binds to 127.0.0.1 on an ephemeral port by default', () => {
    assert.equal(service.host, '127.0.0.1');
    assert.ok(service.port > 0);
    assert.equal(service.url, `http://127.0.0.1:${service.port}`);
  });

  it('checks the API token in the service header (or as a bearer token) and renders 401 in the service shape', async () => {
    assert.equal((await raw(service.url, 'POST', '/echo', { body: '{}' })).status, 401);
    const wrong = await raw(service.url, 'POST', '/echo', { headers: { 'X-Node-API-Token': TOKEN + 'x' }, body: '{}' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.length, 0, 'node service 401 has no content');
    assert.equal((await raw(service.url, 'POST', '/echo', { headers: { 'x-node-api-token': TOKEN }, body: '{}' })).status, 200);
    assert.equal((await raw(service.url, 'POST', '/echo', { headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' })).status, 200);
    assert.equal((await raw(service.url, 'GET', '/health')).status, 200, 'public routes need no token');
  });

  it('keeps uint64 precision in JSON both ways', async () => {
    const body = '{"amount":18446744073709551615,"small":5,"nested":[{"round":9007199254740993}]}';
    const res = await raw(service.url, 'POST', '/echo', { headers: auth, body });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    const text = res.body.toString();
    assert.match(text, /"amount":18446744073709551615/);
    assert.match(text, /"round":9007199254740993/);
  });

  it('speaks msgpack when asked', async () => {
    const res = await raw(service.url, 'POST', '/echo/7?format=msgpack', { headers: auth, body: encodeMsgpack({ a: 1n, b: new Uint8Array([1, 2]) }) });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/msgpack');
    const decoded = decodeMsgpack(new Uint8Array(res.body)) as Record<string, unknown>;
    assert.equal(decoded.id, '7');
    assert.deepEqual((decoded.got as Record<string, unknown>).b, new Uint8Array([1, 2]));
  });

  it('maps malformed bodies, typed errors and crashes to statuses without leaking internals', async () => {
    const bad = await raw(service.url, 'POST', '/echo', { headers: auth, body: '{"a":' });
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.body.toString()).message, /invalid JSON/);
    const invalid = await raw(service.url, 'GET', '/invalid', { headers: auth });
    assert.deepEqual([invalid.status, JSON.parse(invalid.body.toString())], [400, { message: 'amount 5 exceeds the limit 4' }]);
    const withData = await raw(service.url, 'GET', '/teapot', { headers: auth });
    assert.deepEqual(JSON.parse(withData.body.toString()), { message: 'bad thing', data: { field: 'x' } });
    const crash = await raw(service.url, 'GET', '/crash', { headers: auth });
    assert.equal(crash.status, 500);
    assert.doesNotMatch(crash.body.toString(), /secret/);
    const missing = await raw(service.url, 'GET', '/nowhere', { headers: auth });
    assert.equal(missing.status, 404);
    const method = await raw(service.url, 'DELETE', '/echo', { headers: auth });
    assert.equal(method.status, 405);
    assert.equal(method.headers.allow, 'POST');
  });

  it('enforces body size limits per service and per route', async () => {
    const big = await raw(service.url, 'POST', '/echo', { headers: auth, body: 'x'.repeat(2000) });
    assert.equal(big.status, 413);
    const small = await raw(service.url, 'POST', '/small', { headers: auth, body: 'y'.repeat(17) });
    assert.equal(small.status, 413);
    const ok = await raw(service.url, 'POST', '/small', { headers: auth, body: 'y'.repeat(16) });
    assert.deepEqual(JSON.parse(ok.body.toString()), { n: 16 });
  });

  it('answers CORS preflights without a token, allowing the extension webview origin only', async () => {
    const webview = 'vscode-webview://1a2b3c4d5e';
    const res = await raw(service.url, 'OPTIONS', '/echo', { headers: { origin: webview } });
    assert.equal(res.status, 204);
    assert.match(String(res.headers['access-control-allow-headers']), /x-node-api-token/);
    assert.equal(res.headers['access-control-allow-origin'], webview);
    const health = await raw(service.url, 'GET', '/health', { headers: { origin: webview } });
    assert.equal(health.headers['access-control-allow-origin'], webview);
    // Any other web page is refused outright, preflight or not, public route or not.
    for (const [method, path] of [
      ['OPTIONS', '/echo'],
      ['GET', '/health'],
      ['POST', '/echo'],
    ]) {
      const evil = await raw(service.url, method!, path!, {
        headers: { origin: 'https://evil.example', ...auth },
        body: method === 'POST' ? '{}' : (undefined as never),
      });
      assert.equal(evil.status, 403, `${method} ${path}`);
      assert.equal(evil.headers['access-control-allow-origin'], undefined);
      assert.match(evil.body.toString(), /not allowed/);
    }
    // Programs (no Origin header) get no CORS headers at all.
    assert.equal((await raw(service.url, 'GET', '/health')).headers['access-control-allow-origin'], undefined);
  });

  it('logs method, path and status but never tokens, query strings or bodies', async () => {
    log.length = 0;
    await raw(service.url, 'POST', '/echo?wallet_password=hunter2', { headers: auth, body: '{"wallet_password":"hunter2"}' });
    const entry = log.at(-1)!;
    assert.equal(entry.path, '/echo');
    assert.equal(entry.status, 200);
    assert.ok(entry.requestBytes > 0);
    const text = JSON.stringify(log);
    assert.doesNotMatch(text, /hunter2/);
    assert.doesNotMatch(text, new RegExp(TOKEN));
  });

  it('closes gracefully: in-flight requests finish, new ones are refused, the flush hook runs last', async () => {
    let flushed = false;
    const def = definition();
    def.onClose = () => {
      flushed = true;
    };
    const s = await serve(def);
    const started = new Promise<void>((r) => (slowStarted = r));
    const inFlight = raw(s.url, 'GET', '/slow', { headers: auth });
    await started;
    const closing = s.close();
    await assert.rejects(raw(s.url, 'GET', '/health'), 'no new connections while closing');
    assert.equal(flushed, false);
    release!();
    const res = await inFlight;
    assert.deepEqual(JSON.parse(res.body.toString()), { done: true });
    await closing;
    assert.equal(flushed, true);
    await s.close();
  });

  it('renders plain-text errors for services that use them', async () => {
    const s = await serve({
      name: 'plain',
      router: new Router().get('/x', () => {
        throw new BadRequestError('nope');
      }),
      errors: plainTextErrors(),
    });
    try {
      const res = await raw(s.url, 'GET', '/x');
      assert.equal(res.status, 400);
      assert.equal(res.body.toString(), 'nope');
      assert.match(String(res.headers['content-type']), /^text\/plain/);
    } finally {
      await s.close();
    }
  });
});
