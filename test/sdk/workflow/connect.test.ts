import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNetwork, NetworkConnectError } from '../../../sdk/src/workflow/connect.js';

describe('workflow/connect', function () {
  this.timeout(30_000);

  it('starts the embedded devnet on a data folder beside the workflow, one process at a time, and stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tealworks-connect-'));
    try {
      const net = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: dir });
      assert.equal(net.embedded, true);
      assert.ok(net.dispenser);
      assert.match(net.chainId, /^tealworks-devnet-v1:/);
      const lock = join(dir, '.tealworks/devnet/devnet.lock');
      assert.ok(existsSync(lock));
      await assert.rejects(connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: dir }), NetworkConnectError);
      const chainId = net.chainId;
      await net.close();
      assert.equal(existsSync(lock), false);
      // The same chain comes back (checkpoints depend on it).
      const again = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: dir });
      assert.equal(again.chainId, chainId);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an unreachable node without a stack of internals', async () => {
    await assert.rejects(
      connectNetwork({ kind: 'custom', name: 'nowhere', node: 'http://127.0.0.1:9' }, { baseDir: tmpdir() }),
      (e: unknown) => e instanceof NetworkConnectError && /cannot reach the nowhere node at http:\/\/127\.0\.0\.1:9/.test(e.message),
    );
  });
});
