import { strict as assert } from 'node:assert';
import { devnetProfile } from '../../../sdk/src/adapters/profiles.js';
import { loadWorkflow } from '../../../sdk/src/workflow/file.js';
import { networkProfileFor } from '../../../sdk/src/workflow/network.js';
import { ConnectError } from '../../../sdk/src/errors.js';

const wf = (network: string) => loadWorkflow(`network: ${network}\nsteps:\n  - wait: { rounds: 1 }\n`).network;

describe('workflow/network', () => {
  it('maps named networks', () => {
    const dev = devnetProfile();
    assert.equal(networkProfileFor(wf('devnet'), {}, dev), dev);
    assert.throws(
      () => networkProfileFor(wf('devnet'), {}),
      (e: unknown) => e instanceof ConnectError && e.hint === 'start it first',
    );
    assert.equal(networkProfileFor(wf('localnet'), {}).node.url, 'http://localhost:4001');
    const t = networkProfileFor(wf('testnet'), {});
    assert.equal(t.node.api, 'algod');
    assert.match(t.query!.url, /testnet/);
  });

  it('maps custom networks with tokens from the environment, never echoing them', () => {
    const spec = wf(
      '{ node: "https://n.example", api: node-service, query: "https://q.example", kmd: "https://k.example", token-env: TOK, kmd-token-env: KTOK }',
    );
    const p = networkProfileFor(spec, { TOK: 'secret-1', KTOK: 'secret-2' });
    assert.deepEqual(p, {
      name: 'https://n.example',
      node: { api: 'node-service', url: 'https://n.example', token: 'secret-1' },
      query: { url: 'https://q.example', token: 'secret-1' },
      keyManager: { url: 'https://k.example', token: 'secret-2' },
    });
    assert.throws(
      () => networkProfileFor(spec, { TOK: 'secret-1' }),
      (e: unknown) => e instanceof ConnectError && /KTOK/.test(e.message) && !/secret/.test(e.message) && e.hint === 'set KTOK before running the workflow',
    );
  });
});
