// What a first test written from docs/testing.md runs into: an account as a call's sender, the
// assertion helpers given a function instead of a promise, and a message that does not match
// telling what the failure did say.
import { strict as assert } from 'node:assert';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFixture, expectFailure, expectState, withReport, TestingError } from '../../../sdk/src/testing/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const f = testFixture({
  baseDir: join(root, 'examples/counter/abi'),
  apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } },
});

describe('testing: helpers as a new user calls them', function () {
  this.timeout(120_000);
  f.install({ before, beforeEach, after });

  it('a call takes an account as its sender (and signs with it), as well as an address', async () => {
    const [, second] = f.accounts;
    const byAccount = await f.apps.counter.call('increment', [2], { sender: second! });
    const byAddress = await f.apps.counter.call('increment', [3], { sender: second!.address });
    const senders = [byAccount, byAddress].map((r) => r.sent?.txns[0]?.pending.sender);
    assert.deepEqual(senders, [second!.address, second!.address]);
    await expectState(f.apps.counter, { global: { count: 5n } });
  });

  it('expectFailure and withReport take a function that starts the call', async () => {
    const report = await expectFailure(() => f.apps.counter.call('increment', [50]), { message: 'too big', line: 63 });
    assert.equal(report.failure?.source?.line, 63);
    const r = await withReport(() => f.apps.counter.call('increment', [1]));
    assert.equal(r.returnValue, 1n);
  });

  it('a helper given neither a promise nor a function says so', async () => {
    await assert.rejects(
      expectFailure(42 as unknown as Promise<unknown>),
      (e: Error) => e instanceof TestingError && /expectFailure takes the call's promise or a function returning it, got number/.test(e.message),
    );
    await assert.rejects(withReport(undefined as unknown as Promise<unknown>), /withReport takes the call's promise or a function returning it, got undefined/);
  });

  it('a message that does not match says what the spec and the node said', async () => {
    await assert.rejects(expectFailure(f.apps.counter.call('increment', [50]), { message: 'overflow' }), (e: Error) => {
      assert.match(
        e.message,
        /its message does not match overflow: the app spec's error message is "[^"]*too big[^"]*"; the node said "[^"]*assert failed pc=\d+/,
      );
      return true;
    });
  });
});
