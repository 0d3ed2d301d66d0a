// The /v2 routes are public to the service (so they can answer with algod's own 401 body) and
// take the token verdict the service reached as the request came in. Every way a token can be
// presented, right or wrong, gets the same answer in process and over a socket.
import { strict as assert } from 'node:assert';
import { request } from 'undici';
import { Ledger } from '../../../../sdk/src/ledger/index.js';
import { nodeService, startNodeService } from '../../../../sdk/src/services/node/index.js';
import { inProcessTransport } from '../../../../sdk/src/services/http/server.js';
import { TOKEN } from './helpers.js';

const cases: { name: string; headers: Record<string, string>; status: number }[] = [
  { name: 'no token', headers: {}, status: 401 },
  { name: 'a wrong algod token', headers: { 'x-algo-api-token': 'b'.repeat(64) }, status: 401 },
  { name: 'the algod token', headers: { 'x-algo-api-token': TOKEN }, status: 200 },
  { name: 'the node-service token header', headers: { 'x-node-api-token': TOKEN }, status: 200 },
  { name: 'a wrong bearer token', headers: { authorization: `Bearer ${'c'.repeat(64)}` }, status: 401 },
];

describe('node service: the /v2 token check', () => {
  it('answers each presented token the same in process and over HTTP, with algod’s 401 body', async () => {
    const ledger = new Ledger();
    const parts = nodeService({ ledger, apiToken: TOKEN });
    const transport = inProcessTransport(parts.definition);
    const running = await startNodeService({ ledger: new Ledger(), apiToken: TOKEN, port: 0 });
    try {
      for (const c of cases) {
        const inProc = await transport({ method: 'GET', path: '/v2/status', headers: c.headers, body: undefined, signal: new AbortController().signal });
        const http = await request(`${running.url}/v2/status`, { headers: c.headers });
        const httpBody = await http.body.text();
        assert.equal(inProc.status, c.status, `${c.name}: in process`);
        assert.equal(http.statusCode, c.status, `${c.name}: over HTTP`);
        if (c.status === 401) {
          assert.deepEqual(JSON.parse(new TextDecoder().decode(inProc.body)), { message: 'Invalid API Token' }, c.name);
          assert.deepEqual(JSON.parse(httpBody), { message: 'Invalid API Token' }, c.name);
        }
      }
    } finally {
      parts.definition.onClose?.();
      await running.close();
    }
  });
});
