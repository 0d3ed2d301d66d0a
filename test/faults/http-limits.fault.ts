// Aggregate limits of the HTTP services: a global budget for traced simulations (32 concurrent
// traced simulates, clients not reading, hold at most `concurrent` traces); over the connection cap
// authenticated work is served and the rest answered 503 (never reset); idle unauthenticated
// sockets are closed to make room; unauthenticated and 413'd bodies are not drained.
// Assertions are on counts, statuses and ordering, never on durations.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { until } from '../helpers/hang.js';
import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { stringifyJson } from '../../sdk/src/encoding/json.js';
import { signedTransactionToNodeJson } from '../../sdk/src/txn/json.js';
import { makeAppCreateTxn } from '../../sdk/src/txn/builders.js';
import { assemble } from '../../sdk/src/teal/index.js';
import { startNode, TOKEN, type Node } from '../sdk/services/node/helpers.js';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** A looping approval program whose execution trace is a few MB. */
function tracedSimulateBody(node: Node): string {
  const approval = assemble('#pragma version 10\nint 0\nloop:\nint 1\n+\ndup\nint 6000\n<\nbnz loop\nreturn').program;
  const clear = assemble('#pragma version 10\nint 1').program;
  const create = makeAppCreateTxn({ suggestedParams: node.sp(), sender: node.addr(0), approvalProgram: approval, clearProgram: clear });
  return stringifyJson({
    'txn-groups': [{ txns: [signedTransactionToNodeJson(node.sign(create))] }],
    'extra-opcode-budget': 100_000,
    'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true },
  });
}

describe('fault: aggregate HTTP limits', function () {
  this.timeout(3 * HANG_GUARD_MS);

  it('32 concurrent traced simulates whose clients do not read hold at most 4 traces; all complete once read', async () => {
    const node = await startNode({ simulateTraces: { concurrent: 4, maxWaiting: 64 } });
    try {
      const body = tracedSimulateBody(node);
      const head = `POST /v2/transactions/simulate HTTP/1.1\r\nHost: x\r\nX-Node-API-Token: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
      const sockets = await Promise.all(Array.from({ length: 32 }, () => open(node.service.port)));
      for (const s of sockets) {
        s.pause(); // a slow reader: the response stays in flight
        s.write(head + body);
      }
      const traces = node.service.traces;
      await until('four traced simulations hold the budget and 28 wait', () => traces.held === 4 && traces.waiting === 28);
      assert.equal(traces.stats.peak, 4, 'never more than the budget at once');
      // Now read everything: every request completes with its full trace, in turn.
      const replies = await Promise.all(
        sockets.map(
          (s) =>
            new Promise<string>((resolve) => {
              let got = '';
              s.setEncoding('latin1');
              s.on('data', (c: string) => (got += c));
              s.once('close', () => resolve(got));
              s.resume();
            }),
        ),
      );
      for (const r of replies) {
        assert.match(r.slice(0, 20), /^HTTP\/1\.1 200/);
        assert.ok(r.includes('"approval-program-trace"'), 'the trace is there');
      }
      assert.equal(traces.stats.peak, 4);
      assert.equal(traces.stats.waited, 28);
      assert.equal(traces.stats.refused, 0);
      assert.equal(traces.held, 0, 'every slot was released');
    } finally {
      await node.close();
    }
  });

  it('over the connection cap: authenticated requests are served, unauthenticated ones get 503, slow unauthenticated sockets make room', async () => {
    const node = await startNode({ maxConnections: 8, waitTimeoutMs: 60_000 } as never);
    const agent = new Agent({ connections: 64, pipelining: 0 });
    try {
      // An unauthenticated client holds slow sockets (headers never finished).
      const slow = await Promise.all(Array.from({ length: 8 }, () => open(node.service.port)));
      for (const s of slow) {
        s.on('error', () => undefined);
        s.write('GET /v2/status HTTP/1.1\r\nHost: x\r\n');
      }
      // Sockets count as idle once they had a moment (a second) to send a request.
      await new Promise((r) => setTimeout(r, 1200));
      // 24 legitimate long requests (wait for the next block) arrive meanwhile: none is reset.
      const round = node.ledger.latestRound;
      const waits = Array.from({ length: 24 }, () =>
        request(`${node.service.url}/v2/status/wait-for-block-after/${round}`, { headers: { 'X-Node-API-Token': TOKEN }, dispatcher: agent }).then(
          async (r) => ({ status: r.statusCode, text: await r.body.text() }),
          (e: Error & { code?: string }) => ({ status: 0, text: e.code ?? e.message }),
        ),
      );
      await until('the slow sockets were closed to make room', () => (node.service.connectionStats?.evicted ?? 0) >= 8);
      await until('all 24 long requests are in', () => (node.service.connectionStats?.open ?? 0) >= 24);
      // Over the cap now: an unauthenticated request is told to come back; an authenticated one is served.
      const anon = await request(`${node.service.url}/health`, { dispatcher: agent });
      assert.equal(anon.statusCode, 503);
      assert.equal(anon.headers['retry-after'], '1');
      assert.match(await anon.body.text(), /too many open connections/);
      const authed = await request(`${node.service.url}/v2/status`, { headers: { 'X-Node-API-Token': TOKEN }, dispatcher: agent });
      assert.equal(authed.statusCode, 200);
      await authed.body.text();
      // A block ends the long requests: every one of them answered 200.
      node.ledger.produceBlock([]);
      const done = await Promise.all(waits);
      assert.deepEqual(
        done.map((d) => d.status),
        Array(24).fill(200),
        JSON.stringify(done.filter((d) => d.status !== 200)),
      );
      for (const s of slow) s.destroy();
    } finally {
      await agent.close();
      await node.close();
    }
  });

  it('unauthenticated and oversized uploads are answered and the connection closed, not drained', async () => {
    const node = await startNode();
    try {
      const total = 64 * 1024 * 1024;
      for (const [what, headers, path] of [
        ['unauthenticated', '', '/v1/transactions'],
        ['too large', `X-Node-API-Token: ${TOKEN}\r\n`, '/v2/transactions/simulate'],
      ] as const) {
        const before = node.service.connectionStats!.bodiesNotDrained;
        const s = await open(node.service.port);
        s.on('error', () => undefined);
        let answer = '';
        s.on('data', (c: Buffer) => (answer += c.toString('latin1')));
        const closed = new Promise<void>((r) => s.once('close', () => r()));
        s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/x-binary\r\nContent-Length: ${total}\r\n\r\n`);
        // Upload as fast as the server takes it, until it closes the connection.
        const chunk = Buffer.alloc(1 << 20, 0x61);
        let sent = 0;
        let open_ = true;
        void closed.then(() => (open_ = false));
        while (open_ && sent < total) {
          const ok = s.write(chunk);
          sent += chunk.length;
          if (!ok) await Promise.race([new Promise((r) => s.once('drain', r)), closed]);
        }
        await closed;
        assert.match(answer, what === 'unauthenticated' ? /^HTTP\/1\.1 401/ : /^HTTP\/1\.1 413/, what);
        assert.match(answer, /connection: close/i);
        assert.ok(sent < total, `${what}: the server stopped reading after ${sent} of ${total} bytes`);
        assert.equal(node.service.connectionStats!.bodiesNotDrained, before + 1);
      }
    } finally {
      await node.close();
    }
  });
});
