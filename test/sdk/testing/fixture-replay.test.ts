// Issue 23: a fixture set up again in the same process (test files that declare the same fixture,
// watch mode) replays the earlier deploys' blocks on its fresh chain instead of deploying again,
// and keeps them only when they leave the very state they left before.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFixture, expectFailure, expectState } from '../../../sdk/src/testing/index.js';
import { Ledger } from '../../../sdk/src/ledger/index.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const abi = join(root, 'examples/counter/abi');

/** Counts the ledger's produceBlock calls (a replay commits the recorded blocks through it; a deploy never does). */
function countReplayedBlocks(): { count: number; restore(): void } {
  const orig = Ledger.prototype.produceBlock;
  const c = {
    count: 0,
    restore: () => {
      Ledger.prototype.produceBlock = orig;
    },
  };
  Ledger.prototype.produceBlock = function (this: Ledger, ...args: Parameters<Ledger['produceBlock']>) {
    c.count++;
    return orig.apply(this, args);
  };
  return c;
}

describe('testing: a fixture set up again replays its deploys', function () {
  this.timeout(120_000);

  it('the same description: the same chain (blocks, state, deployments) without deploying, and its apps work', async () => {
    const describe = () =>
      testFixture({ baseDir: abi, seed: 'fixture-replay', apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
    const first = describe();
    const second = describe();
    const replayed = countReplayedBlocks();
    try {
      await first.setup();
      assert.equal(replayed.count, 0, 'the first setup deploys');
      await second.setup();
      assert.ok(replayed.count > 0, 'the second setup replays');
    } finally {
      replayed.restore();
    }
    try {
      const [a, b] = [first.chain, second.chain];
      assert.equal(b.round, a.round);
      assert.equal(b.stateHash(), a.stateHash());
      for (let r = 0n; r <= a.round; r++) assert.equal(toHex(b.ledger.block(r).hash), toHex(a.ledger.block(r).hash), `block ${r}`);
      const [x, y] = [first.deployments.counter, second.deployments.counter];
      assert.equal(y.appId, x.appId);
      assert.equal(y.txid, x.txid);
      assert.deepEqual(y.plan, x.plan);
      assert.deepEqual(y.report, x.report);
      assert.deepEqual(y.funding, x.funding);
      assert.notEqual(y.client, x.client, 'a client of its own');
      assert.equal(y.client.chain, second.tw.chain, "bound to the second fixture's chain");
      // Both chains go on alike.
      for (const f of [first, second]) {
        await f.apps.counter.call('increment', [5]);
        await expectState(f.apps.counter, { global: { count: 5n } });
        await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big', line: 63 });
      }
      assert.equal(b.stateHash(), a.stateHash());
    } finally {
      await first.teardown();
      await second.teardown();
    }
  });

  it('a changed program is deployed afresh, not replayed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-fixture-replay-'));
    try {
      for (const f of ['counter.arc56.json', 'counter.teal', 'clear.teal']) writeFileSync(join(dir, f), readFileSync(join(abi, f)));
      const describe = () =>
        testFixture({
          baseDir: dir,
          seed: 'fixture-replay-change',
          apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } },
        });
      const first = describe();
      await first.setup();
      const before = first.chain.stateHash();
      await first.teardown();
      // "too big" is now 20 or more.
      writeFileSync(
        join(dir, 'counter.teal'),
        readFileSync(join(abi, 'counter.teal'), 'utf8').replace('int 10\n<\nassert // too big', 'int 20\n<\nassert // too big'),
      );
      const second = describe();
      const replayed = countReplayedBlocks();
      try {
        await second.setup();
      } finally {
        replayed.restore();
      }
      try {
        assert.equal(replayed.count, 0, 'deployed, not replayed');
        assert.notEqual(second.chain.stateHash(), before);
        await second.apps.counter.call('increment', [15]);
        await expectState(second.apps.counter, { global: { count: 15n } });
      } finally {
        await second.teardown();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
