import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNetwork } from '../../../sdk/src/workflow/connect.js';
import { ConnectError } from '../../../sdk/src/errors.js';

describe('workflow/connect', function () {
  this.timeout(30_000);

  it('starts the embedded devnet on a data folder beside the workflow, shares it with a second connection, and stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tealworks-connect-'));
    try {
      const net = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: dir });
      assert.equal(net.embedded, true);
      assert.ok(net.dispenser);
      assert.match(net.chainId, /^tealworks-devnet-v1:/);
      const lock = join(dir, '.tealworks/devnet/devnet.lock');
      assert.ok(existsSync(lock));
      // A second connection uses the devnet holding the lock over HTTP instead of opening its files
      // again, and closing it leaves that devnet running.
      const shared = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: dir });
      assert.equal(shared.chainId, net.chainId);
      assert.equal(shared.profile.node.url, net.profile.node.url);
      assert.equal(shared.devnet, undefined, 'the second connection does not own the devnet');
      await shared.close();
      assert.ok(existsSync(lock));
      assert.ok((await net.chain.node.status()).lastRound >= 0n);
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
      // The SDK's one connection error, as Tealworks.connect throws it: the URL tried and the cause.
      (e: unknown) =>
        e instanceof ConnectError &&
        /cannot reach the nowhere node at http:\/\/127\.0\.0\.1:9/.test(e.message) &&
        e.url === 'http://127.0.0.1:9' &&
        e.cause instanceof Error,
    );
  });
});
