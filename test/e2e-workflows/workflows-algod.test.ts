import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnet, LOCALNET_TOKEN, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { runWorkflow } from '../../sdk/src/workflow/engine.js';

/*
 * The example workflows again, this time through the public-network adapters (the /v2 node API,
 * indexer-style query and kmd) — the path testnet, mainnet and LocalNet users take — against the
 * devnet started with `localnet: true`.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('e2e: example workflows through the public /v2 adapters (devnet --localnet)', function () {
  this.timeout(60_000);
  let devnet: RunningDevnet;
  const dirs: string[] = [];
  const nodePaths: string[] = [];

  before(async () => {
    devnet = await startDevnet({
      inMemory: true,
      localnet: true,
      ports: { node: 0, query: 0, keyManager: 0 },
      log: (e) => void (e.service === 'node' && nodePaths.push(`${e.method} ${e.path}`)),
    });
  });
  after(async () => {
    await devnet?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const example of ['examples/counter/tealworks.yaml', 'examples/abi-router/tealworks.yaml', 'examples/logicsig-escrow/tealworks.yaml']) {
    it(`runs ${example} green over /v2`, async function () {
      if (!existsSync(resolve(repoRoot, example))) this.skip();
      const dir = mkdtempSync(join(tmpdir(), 'tealworks-wf-v2-'));
      dirs.push(dir);
      cpSync(resolve(repoRoot, dirname(example)), dir, { recursive: true, filter: (src) => !src.includes('.tealworks') });
      const file = join(dir, 'tealworks.yaml');
      const text = readFileSync(file, 'utf8');
      assert.match(text, /^network: devnet$/m);
      const network = [
        'network:',
        '  name: localnet-v2',
        `  node: ${devnet.node.url}`,
        '  api: algod',
        `  query: ${devnet.query.url}`,
        `  kmd: ${devnet.keyManager.url}`,
        '  token-env: TW_LOCALNET_TOKEN',
      ].join('\n');
      writeFileSync(file, text.replace(/^network: devnet$/m, network));
      nodePaths.length = 0;
      const s = await runWorkflow(file, { env: { TW_LOCALNET_TOKEN: LOCALNET_TOKEN } });
      const failed = s.steps.find((x) => x.status === 'failed');
      assert.equal(s.error, undefined, s.error?.message);
      assert.ok(s.ok, failed ? `${failed.id}: ${failed.error?.message}\n${failed.error?.reportText ?? ''}` : 'not ok');
      assert.equal(s.network, 'localnet-v2');
      assert.ok(s.steps.every((x) => x.status === 'done' || x.status === 'skipped'));
      // Only the public API was used.
      assert.ok(nodePaths.includes('POST /v2/transactions'), nodePaths.join('\n'));
      assert.deepEqual(
        nodePaths.filter((x) => x.includes(' /v1/')),
        [],
      );
    });
  }
});
