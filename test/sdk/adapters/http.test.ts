import assert from 'node:assert/strict';
import { HttpClient, buildQuery, pathOf, type HttpLogEntry } from '../../../sdk/src/adapters/http/client.js';
import { HttpError, NetworkError, ProtocolError, RequestAbortedError, TimeoutError } from '../../../sdk/src/adapters/http/errors.js';
import { redactUrl } from '../../../sdk/src/adapters/http/redact.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../../../sdk/src/adapters/http/retry.js';
import { encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { FakeServer, bytes, json, reset, sleep, text } from './fake-server.js';

const TOKEN = 'tok-3f9a1c7e5b2d4f6a8c0e';

describe('adapters/http: request building and helpers', () => {
  it('builds sorted queries, leaving out unset values but keeping zero and false', () => {
    assert.equal(
      buildQuery({ limit: 0, next: undefined, b: false, a: null, round: 5n, exclude: ['assets', 'created-apps'] }),
      '?b=false&exclude=assets%2Ccreated-apps&limit=0&round=5',
    );
    assert.equal(buildQuery({}), '');
    assert.equal(buildQuery({ name: 'b64:/w==' }), '?name=b64%3A%2Fw%3D%3D');
  });

  it('encodes path segments', () => {
    assert.equal(pathOf('v2', 'accounts', 'A/B C'), '/v2/accounts/A%2FB%20C');
    assert.equal(pathOf('v1', 'block', 18446744073709551615n), '/v1/block/18446744073709551615');
  });

  it('parses Retry-After as seconds or HTTP-date', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    const now = Date.parse('Sun, 22 Nov 2026 10:00:00 GMT');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:00:02 GMT', now), 2000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter('-1'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 10].map((a) => backoffDelayMs(a, p, () => 1)),
      [100, 200, 400, 800, 1000, 1000],
    );
    assert.equal(
      backoffDelayMs(3, p, () => 0),
      0,
    );
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(2, p);
      assert.ok(d >= 0 && d <= 400);
    }
  });

  it('strips credentials from URLs', () => {
    const shown = redactUrl('https://user:pw123@node.example/v2/x?api_token=abc123&limit=5&X-Algo-API-Token=zzz999');
    assert.ok(!shown.includes('pw123') && !shown.includes('abc123') && !shown.includes('zzz999'), shown);
    assert.ok(shown.includes('limit=5'));
    assert.equal(redactUrl('http://h/a?next=secretvalue', ['secretvalue']), 'http://h/a?next=REDACTED');
    assert.equal(
      redactUrl('http://h/v2/transactions?sig-type=msig&auth-addr=ABC&apiKey=k1k1'),
      'http://h/v2/transactions?sig-type=msig&auth-addr=ABC&apiKey=REDACTED',
    );
  });
});

describe('adapters/http: against a local server', () => {
  let server: FakeServer;
  let sleeps: number[];
  const clients: HttpClient[] = [];

  function client(extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
    const c = new HttpClient({
      baseUrl: server.url,
      headers: { 'X-Algo-API-Token': TOKEN },
      timeoutMs: 2000,
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 5000 },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...extra,
    });
    clients.push(c);
    return c;
  }

  beforeEach(async () => {
    server = await FakeServer.start();
    sleeps = [];
  });
  afterEach(async () => {
    while (clients.length) await clients.pop()!.close();
    await server.close();
  });

  it('sends method, path, query, headers and JSON body; parses uint64 beyond 2^53 as bigint', async () => {
    server.handler = (_req, res) => json(res, 200, '{"amount": 18446744073709551615, "small": 7}');
    const c = client({ headers: { 'X-Custom-Token': TOKEN, 'User-Agent': 'tealworks-test' } });
    const body = await c.json<{ amount: bigint; small: number }>({ method: 'POST', path: '/v2/thing', query: { limit: 0 }, json: { big: 2n ** 64n - 1n } });
    assert.equal(body.amount, 18446744073709551615n);
    assert.equal(body.small, 7);
    const r = server.last;
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/v2/thing');
    assert.deepEqual(r.query, { limit: '0' });
    assert.equal(r.headers['x-custom-token'], TOKEN);
    assert.equal(r.headers['user-agent'], 'tealworks-test');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.text, '{"big":18446744073709551615}');
  });

  it('keeps a base URL path prefix', async () => {
    const c = client({ baseUrl: server.url + '/algod/' });
    await c.json({ method: 'GET', path: '/v2/status' });
    assert.equal(server.last.path, '/algod/v2/status');
  });

  it('reuses keep-alive connections for sequential requests', async () => {
    const c = client();
    for (let i = 0; i < 20; i++) await c.json({ method: 'GET', path: '/x' });
    const ports = new Set(server.requests.map((r) => r.remotePort));
    // The pool may open a second socket while the first is being returned, but not one per request.
    assert.ok(ports.size <= 2, `${ports.size} connections for 20 requests`);
  });

  it('decodes msgpack bodies', async () => {
    server.handler = (_req, res) => bytes(res, 200, encodeMsgpack({ 'last-round': 2n ** 60n, ok: true }));
    const body = await client().msgpack<Record<string, unknown>>({ method: 'GET', path: '/m' });
    assert.equal(body['last-round'], 2n ** 60n);
    assert.equal(body.ok, true);
  });

  it('times out a slow response with TimeoutError and does not retry by default', async () => {
    server.handler = async (_req, res) => {
      await sleep(1500);
      json(res, 200, {});
    };
    const c = client({ timeoutMs: 80 });
    await assert.rejects(
      c.json({ method: 'GET', path: '/slow' }),
      (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 80 && !e.message.includes(TOKEN),
    );
    // On a loaded machine the client may give up before the server has even logged the request,
    // so the count is 0 or 1 — never 2, which would be a retry.
    assert.ok(server.requests.length <= 1, `${server.requests.length} requests: the timeout was retried`);
  });

  it('retries timeouts of idempotent requests when asked to', async () => {
    server.script(
      async (_r, res) => {
        await sleep(1500);
        json(res, 200, { late: true });
      },
      (_r, res) => json(res, 200, { ok: true }),
    );
    const c = client({ timeoutMs: 80, retryOnTimeout: true });
    assert.deepEqual(await c.json({ method: 'GET', path: '/slow' }), { ok: true });
    assert.equal(server.requests.length, 2);
  });

  it('recovers a GET from a connection reset', async () => {
    server.script(reset, (_r, res) => json(res, 200, { ok: 1 }));
    assert.deepEqual(await client().json({ method: 'GET', path: '/r' }), { ok: 1 });
    assert.equal(server.requests.length, 2);
  });

  it('does not repeat a POST after a reset (the server may have acted on it)', async () => {
    server.handler = reset;
    await assert.rejects(
      client().json({ method: 'POST', path: '/v2/transactions', body: new Uint8Array([1, 2]) }),
      (e: unknown) => e instanceof NetworkError && e.retryable && !e.requestNotSent,
    );
    assert.equal(server.requests.length, 1);
  });

  it('repeats even a POST when the connection was refused (nothing was sent)', async () => {
    const dead = await FakeServer.start();
    const url = dead.url;
    await dead.close();
    const c = client({ baseUrl: url.replace('http://', `http://user:${TOKEN}@`) });
    await assert.rejects(c.json({ method: 'POST', path: '/p', body: 'x', query: { 'api-token': TOKEN } }), (e: unknown) => {
      assert.ok(e instanceof NetworkError && e.code === 'ECONNREFUSED' && e.requestNotSent, String(e));
      assert.ok(!e.message.includes(TOKEN) && !e.url.includes(TOKEN), e.message);
      return true;
    });
    assert.equal(sleeps.length, 3);
  });

  it('honours Retry-After seconds on 429', async () => {
    server.script(
      (_r, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '2' }),
      (_r, res) => json(res, 200, { ok: true }),
    );
    assert.deepEqual(await client().json({ method: 'GET', path: '/rl' }), { ok: true });
    assert.deepEqual(sleeps, [2000]);
  });

  it('honours Retry-After HTTP-dates on 429', async () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    server.script(
      (_r, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': at }),
      (_r, res) => json(res, 200, { ok: true }),
    );
    await client().json({ method: 'GET', path: '/rl' });
    assert.equal(sleeps.length, 1);
    assert.ok(sleeps[0]! > 1000 && sleeps[0]! <= 3000, String(sleeps[0]));
  });

  it('fails at once when Retry-After asks for more than the allowed wait', async () => {
    server.handler = (_r, res) => json(res, 429, { message: 'come back tomorrow' }, { 'retry-after': '86400' });
    await assert.rejects(
      client().json({ method: 'GET', path: '/rl' }),
      (e: unknown) => e instanceof HttpError && e.status === 429 && e.retryAfterMs === 86_400_000 && e.retryable,
    );
    assert.equal(server.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it('rides out a burst of 503s, then succeeds', async () => {
    server.script(
      (_r, res) => json(res, 503, { message: 'busy' }),
      (_r, res) => json(res, 503, { message: 'busy' }),
      (_r, res) => json(res, 503, { message: 'busy' }),
      (_r, res) => json(res, 200, { round: 9 }),
    );
    assert.deepEqual(await client().json({ method: 'GET', path: '/b' }), { round: 9 });
    assert.equal(server.requests.length, 4);
    assert.equal(sleeps.length, 3);
  });

  it('gives up after the retry budget with a retryable HttpError', async () => {
    server.handler = (_r, res) => json(res, 503, { message: 'still busy' });
    await assert.rejects(
      client({ retry: { retries: 2, baseDelayMs: 1 } }).json({ method: 'GET', path: '/b' }),
      (e: unknown) => e instanceof HttpError && e.status === 503 && e.retryable && e.serviceMessage === 'still busy',
    );
    assert.equal(server.requests.length, 3);
  });

  it('does not retry 4xx and parses the service message', async () => {
    server.handler = (_r, res) => json(res, 404, { message: 'no accounts found for address', data: { round: 3 } });
    await assert.rejects(client().json({ method: 'GET', path: '/v2/accounts/X' }), (e: unknown) => {
      assert.ok(e instanceof HttpError);
      assert.equal(e.status, 404);
      assert.equal(e.method, 'GET');
      assert.equal(e.serviceMessage, 'no accounts found for address');
      assert.deepEqual(e.data, { round: 3 });
      assert.equal(e.retryable, false);
      assert.ok(e.url.endsWith('/v2/accounts/X'));
      return true;
    });
    assert.equal(server.requests.length, 1);
  });

  it('reads plain-text error bodies (node /v1 style)', async () => {
    server.handler = (_r, res) => text(res, 400, 'failed to parse round\n');
    await assert.rejects(
      client().json({ method: 'GET', path: '/v1/block/x' }),
      (e: unknown) => e instanceof HttpError && e.serviceMessage === 'failed to parse round',
    );
  });

  it('turns an HTML 502 page into an HttpError, not a JSON syntax error', async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    server.handler = (_r, res) => text(res, 502, page, 'text/html');
    await assert.rejects(client({ retry: { retries: 1, baseDelayMs: 1 } }).json({ method: 'GET', path: '/h' }), (e: unknown) => {
      assert.ok(e instanceof HttpError, String(e));
      assert.equal(e.status, 502);
      assert.equal(e.retryable, true);
      assert.equal(e.serviceMessage, 'HTML error page: 502 Bad Gateway');
      return true;
    });
    assert.equal(server.requests.length, 2);
  });

  it('reports an HTML page with status 200 as a ProtocolError', async () => {
    server.handler = (_r, res) => text(res, 200, '<!DOCTYPE html><html><body>captive portal</body></html>', 'text/html');
    await assert.rejects(
      client().json({ method: 'GET', path: '/h' }),
      (e: unknown) => e instanceof ProtocolError && /HTML page/.test(e.message) && e.status === 200,
    );
  });

  it('reports a truncated JSON body as a ProtocolError', async () => {
    server.handler = (_r, res) => json(res, 200, '{"last-round": 12, "next-vers');
    await assert.rejects(
      client().json({ method: 'GET', path: '/t' }),
      (e: unknown) => e instanceof ProtocolError && /malformed or truncated JSON/.test(e.message),
    );
  });

  it('reports an empty body where JSON was expected as a ProtocolError', async () => {
    server.handler = (_r, res) => json(res, 200, '');
    await assert.rejects(client().json({ method: 'GET', path: '/t' }), (e: unknown) => e instanceof ProtocolError && /empty/.test(e.message));
  });

  it('retries a body cut off mid-transfer, then reports it as a ProtocolError', async () => {
    const cut = (_r: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"last-round": 1');
      setTimeout(() => res.socket?.destroy(), 5);
    };
    server.script(cut, (_r, res) => json(res, 200, { ok: true }));
    assert.deepEqual(await client().json({ method: 'GET', path: '/c' }), { ok: true });
    server.handler = cut;
    await assert.rejects(
      client({ retry: { retries: 1, baseDelayMs: 1 } }).json({ method: 'GET', path: '/c' }),
      (e: unknown) => e instanceof ProtocolError && /cut off/.test(e.message) && e.retryable,
    );
  });

  it('stops when the caller aborts', async () => {
    server.handler = async (_r, res) => {
      await sleep(1000);
      json(res, 200, {});
    };
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    await assert.rejects(client().json({ method: 'GET', path: '/a', signal: ac.signal }), RequestAbortedError);
  });

  it('treats a redirect as an error rather than following it', async () => {
    server.handler = (_r, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/login' });
      res.end();
    };
    await assert.rejects(client().json({ method: 'GET', path: '/v2/status' }), (e: unknown) => e instanceof HttpError && e.status === 302 && !e.retryable);
  });

  it('refuses responses above the size limit', async () => {
    server.handler = (_r, res) => json(res, 200, { blob: 'x'.repeat(5000) });
    await assert.rejects(
      client({ maxResponseBytes: 1000 }).json({ method: 'GET', path: '/big' }),
      (e: unknown) => e instanceof ProtocolError && /exceeds the 1000-byte limit/.test(e.message),
    );
  });

  it('refuses a streamed body (no content-length) once it grows past the limit', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('x'.repeat(300));
      res.end();
    };
    await assert.rejects(
      client({ maxResponseBytes: 1000, retry: false }).json({ method: 'GET', path: '/big' }),
      (e: unknown) => e instanceof ProtocolError && /response exceeds the 1000-byte limit/.test(e.message) && e.status === 200,
    );
  });

  it('assembles a body sent in many chunks, in order, as a plain Uint8Array', async () => {
    const parts = Array.from({ length: 50 }, (_, i) => `${i},`.repeat(40));
    server.handler = async (_r, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (const p of parts) {
        res.write(p);
        await sleep(0);
      }
      res.end();
    };
    const res = await client().send({ method: 'GET', path: '/chunks' });
    assert.equal(res.body.constructor, Uint8Array);
    assert.equal(new TextDecoder().decode(res.body), parts.join(''));
  });

  it('times out a body that stalls after the headers', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"a":');
    };
    await assert.rejects(client({ timeoutMs: 100, retry: false }).json({ method: 'GET', path: '/stall' }), TimeoutError);
  });

  it('skips informational responses and parses headers as undici does (repeats as arrays)', async () => {
    server.handler = (_r, res) => {
      res.writeProcessing();
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Thing', 'yes');
      json(res, 200, { ok: true });
    };
    const res = await client().send({ method: 'GET', path: '/info' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(res.headers['x-thing'], 'yes');
    assert.equal(res.contentType, 'application/json');
    assert.deepEqual(JSON.parse(new TextDecoder().decode(res.body)), { ok: true });
  });

  it('an abort before the request starts (first request, pool still opening) still rejects', async () => {
    const ac = new AbortController();
    const pending = client().json({ method: 'GET', path: '/early', signal: ac.signal });
    ac.abort();
    await assert.rejects(pending, RequestAbortedError);
  });

  it('fails fast once closed', async () => {
    const c = client();
    await c.close();
    await assert.rejects(c.json({ method: 'GET', path: '/x' }), /closed/);
    assert.equal(server.requests.length, 0);
  });

  it('logs each outcome with the redacted URL and timing', async () => {
    const logs: HttpLogEntry[] = [];
    server.script(
      (_r, res) => json(res, 500, { message: 'x' }),
      (_r, res) => json(res, 200, {}),
    );
    await client({ logger: (e) => logs.push(e) }).json({ method: 'GET', path: '/l', query: { token: TOKEN, round: 3 } });
    assert.deepEqual(
      logs.map((l) => [l.event, l.status, l.attempt]),
      [
        ['retry', 500, 0],
        ['response', 200, 1],
      ],
    );
    assert.ok(logs.every((l) => l.url.endsWith('/l?round=3&token=REDACTED') && l.durationMs >= 0));
  });

  it('never shows tokens or request secrets in errors or logs', async () => {
    const password = 'hunter2-correct-horse';
    const mnemonic =
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon invest';
    // A misbehaving service that echoes everything it got back into its error message.
    server.handler = (req, res) =>
      json(res, 500, {
        message: `bad request ${req.headers['x-algo-api-token']} ${req.text} ${req.rawUrl}`,
        data: { echoed: [req.text, String(req.headers['x-algo-api-token'])] },
      });
    const logs: HttpLogEntry[] = [];
    const c = client({ logger: (e) => logs.push(e), retry: { retries: 1, baseDelayMs: 1 } });
    const err = await c
      .json({
        method: 'POST',
        path: '/v1/wallet/init',
        query: { api_token: TOKEN },
        json: { wallet_password: password, mnemonic },
        secrets: [password, mnemonic],
        idempotent: true,
      })
      .catch((e: unknown) => e);
    assert.ok(err instanceof HttpError);
    const shown = [err.message, String(err.serviceMessage), JSON.stringify(err), err.url, JSON.stringify(logs)].join('\n');
    for (const secret of [TOKEN, password, mnemonic, encodeURIComponent(mnemonic)]) assert.ok(!shown.includes(secret), `leaked ${secret.slice(0, 8)}…`);
    assert.ok(shown.includes('REDACTED'));
    assert.equal(logs.length, 2);
    assert.deepEqual(
      logs.map((l) => l.event),
      ['retry', 'failure'],
    );
  });
});
