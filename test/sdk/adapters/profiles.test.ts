import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  devnetProfile,
  keyManagerFor,
  localnetProfile,
  LOCALNET_TOKEN,
  nodeAdapterFor,
  ProfileError,
  profileFromEnv,
  profilesFromYaml,
  queryClientFor,
  resolveProfile,
} from '../../../sdk/src/adapters/profiles.js';
import { AlgodAdapter } from '../../../sdk/src/adapters/node/algod.js';
import { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import { FakeServer, json } from './fake-server.js';

describe('adapters/profiles', () => {
  it('knows the usual local node ports and token', () => {
    const p = localnetProfile();
    assert.equal(p.node.url, 'http://localhost:4001');
    assert.equal(p.query?.url, 'http://localhost:8980');
    assert.equal(p.keyManager?.url, 'http://localhost:4002');
    assert.equal(LOCALNET_TOKEN, 'a'.repeat(64));
    assert.equal(p.node.token, LOCALNET_TOKEN);
    assert.equal(p.node.api, 'algod');
  });

  it('reads the ecosystem environment variables', () => {
    const p = profileFromEnv({
      ALGOD_SERVER: 'https://testnet-api.example.net',
      ALGOD_PORT: '443',
      ALGOD_TOKEN: 't1',
      INDEXER_SERVER: 'http://localhost',
      INDEXER_PORT: '8980',
      KMD_SERVER: 'http://localhost/',
      KMD_PORT: '4002',
      KMD_TOKEN: 'k',
    })!;
    assert.equal(p.node.url, 'https://testnet-api.example.net');
    assert.equal(p.node.token, 't1');
    assert.equal(p.query?.url, 'http://localhost:8980');
    assert.equal(p.query?.token, undefined);
    assert.equal(p.keyManager?.url, 'http://localhost:4002');
    assert.equal(profileFromEnv({}), undefined);
    assert.equal(profileFromEnv({ ALGOD_SERVER: 'http://x', NODE_API: 'node-service' })!.node.api, 'node-service');
    assert.throws(() => profileFromEnv({ ALGOD_SERVER: 'localhost', ALGOD_PORT: '4001' }), ProfileError);
  });

  it('reads tealworks.config.yaml', () => {
    const { active, profiles } = profilesFromYaml(`
network: testnet
networks:
  testnet:
    node: { server: https://testnet-api.example.net, port: 443, token: "" }
    query: https://testnet-idx.example.net
  mine:
    algod: { url: http://10.0.0.5:8080, token: abc, tokenHeader: X-API-Key }
    kmd: { server: http://10.0.0.5, port: 7833, token: kk }
  follower:
    node: { server: http://127.0.0.1, port: 9000, api: node-service }
`);
    assert.equal(active, 'testnet');
    assert.equal(profiles.get('testnet')!.node.url, 'https://testnet-api.example.net');
    assert.equal(profiles.get('testnet')!.query!.url, 'https://testnet-idx.example.net');
    assert.deepEqual(profiles.get('mine')!.node, { url: 'http://10.0.0.5:8080', token: 'abc', tokenHeader: 'X-API-Key', api: 'algod' });
    assert.equal(profiles.get('mine')!.keyManager!.url, 'http://10.0.0.5:7833');
    assert.equal(profiles.get('follower')!.node.api, 'node-service');
    assert.ok(profiles.has('devnet') && profiles.has('localnet'));
    assert.throws(
      () => profilesFromYaml('network: nowhere'),
      (e: unknown) => e instanceof ProfileError && /nowhere/.test(e.message),
    );
    assert.throws(() => profilesFromYaml('networks:\n  x: {}\n'), ProfileError);
    assert.throws(() => profilesFromYaml('a: [unclosed'), ProfileError);
  });

  it('resolves name > environment > config file > devnet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-profile-'));
    try {
      const configPath = join(dir, 'tealworks.config.yaml');
      writeFileSync(configPath, 'network: localnet\n');
      assert.equal((await resolveProfile({ configPath, env: {} })).name, 'localnet');
      assert.equal((await resolveProfile({ configPath, env: { ALGOD_SERVER: 'http://e' } })).node.url, 'http://e');
      assert.equal((await resolveProfile({ configPath, env: { ALGOD_SERVER: 'http://e' }, name: 'devnet' })).name, 'devnet');
      assert.deepEqual(await resolveProfile({ configPath: join(dir, 'absent.yaml'), env: {} }), devnetProfile());
      await assert.rejects(resolveProfile({ name: 'mars', env: {} }), ProfileError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds working clients with the right token headers', async () => {
    const server = await FakeServer.start((req, res) =>
      json(
        res,
        200,
        req.path === '/v1/wallets'
          ? { wallets: [] }
          : req.path === '/health'
            ? { 'db-available': true, 'is-migrating': false, message: '', round: 1, version: 'x' }
            : { 'last-round': 5, lastRound: 5 },
      ),
    );
    const p = {
      name: 't',
      node: { api: 'algod' as const, url: server.url, token: 'n1' },
      query: { url: server.url, token: 'q1' },
      keyManager: { url: server.url, token: 'k1' },
    };
    const algod = nodeAdapterFor(p, { retry: false });
    assert.ok(algod instanceof AlgodAdapter);
    assert.equal((await algod.status()).lastRound, 5n);
    assert.equal(server.last.headers['x-algo-api-token'], 'n1');
    const svc = nodeAdapterFor({ ...p, node: { ...p.node, api: 'node-service' } });
    assert.ok(svc instanceof NodeServiceAdapter);
    await svc.status();
    assert.equal(server.last.headers['x-node-api-token'], 'n1');
    const q = queryClientFor(p);
    await q.health();
    assert.equal(server.last.headers['x-indexer-api-token'], 'q1');
    const k = keyManagerFor(p);
    await k.listWallets();
    assert.equal(server.last.headers['x-kmd-api-token'], 'k1');
    assert.throws(() => queryClientFor({ name: 'bare', node: p.node }), ProfileError);
    for (const c of [algod, svc, q, k]) await c.close();
    await server.close();
  });
});
