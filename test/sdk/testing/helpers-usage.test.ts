// What a first test written from docs/testing.md runs into: an account as a call's sender, the
// assertion helpers given a function instead of a promise, and a message that does not match
// telling what the failure did say.
import { strict as assert } from 'node:assert';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { testFixture, expectFailure, expectState, withReport, TestingError } from '../../../sdk/src/testing/index.js';
import { AppError } from '../../../sdk/src/app/errors.js';
import { ValidationError } from '../../../sdk/src/errors.js';
import { Tealworks } from '../../../sdk/src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const abi = join(root, 'examples/counter/abi');
const counterApp = { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' };
const f = testFixture({
  baseDir: abi,
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

  it('a bad expectation is a TestingError, and the call it was given never becomes an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = new Promise((_, reject) => setTimeout(() => reject(new Error('the call failed')), 5));
      await assert.rejects(
        expectFailure(failing, null as never),
        (e: Error) => e instanceof TestingError && /\{ message\?, line\? \}.*got null/.test(e.message),
      );
      await assert.rejects(
        expectFailure(f.apps.counter.call('increment', [50]), { line: 'x' as never }),
        (e: Error) => e instanceof TestingError && /line is a 1-based TEAL line number, got "x"/.test(e.message),
      );
      await assert.rejects(
        expectFailure(() => f.apps.counter.call('increment', [50]), { message: 5 as never }),
        /message is a string .* or a RegExp/,
      );
      // The rejected call settles after the helper threw; give it the turns it needs (a hang guard, not a timing).
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a rejection without an error object is a failure, not a success', async () => {
    await assert.rejects(expectFailure(Promise.reject(undefined)), (e: Error) => e instanceof TestingError && !/succeeded/.test(e.message));
    await assert.rejects(
      expectFailure(() => Promise.reject(null), { message: 'x' }),
      /it failed with: null/,
    );
  });

  it('expectState given no app, no expectation or a local key that is not an address says so', async () => {
    await assert.rejects(
      expectState(undefined as never, { global: {} }),
      (e: Error) => e instanceof TestingError && /takes an app client first/.test(e.message),
    );
    await assert.rejects(
      expectState(f.apps.counter, null as never),
      (e: Error) => e instanceof TestingError && /\{ global\?, local\?, boxMaps\? \}/.test(e.message),
    );
    await assert.rejects(
      expectState(f.apps.counter, { local: { XYZ: { count: 1n } } }),
      (e: Error) => e instanceof TestingError && /"XYZ" is not one/.test(e.message),
    );
  });

  it('typed cheats refuse wrong types, values beyond uint64 and plain spec JSON, and change nothing', async () => {
    const spec = f.apps.counter.spec!;
    const id = f.apps.counter.appId;
    const chain = f.chain;
    const before = chain.stateHash();
    assert.throws(
      () => chain.setGlobal(id, 'count', -1n, spec),
      (e: Error) => e instanceof AppError && /uint64 \(0 to 2\^64 - 1\), got -1/.test(e.message),
    );
    assert.throws(
      () => chain.setGlobal(id, 'count', 2n ** 64n, spec),
      (e: Error) => e instanceof AppError && /got 18446744073709551616/.test(e.message),
    );
    assert.throws(
      () => chain.setGlobal(id, 'count', 1.5, spec),
      (e: Error) => e instanceof AppError && /whole number, got 1.5/.test(e.message),
    );
    assert.throws(() => chain.setGlobal(id, 'count', 'x', spec), /holds a uint64: give a number or bigint/);
    assert.throws(() => chain.setGlobal(id, 'count', 2n ** 64n), /uint64/);
    const json = JSON.parse(readFileSync(join(abi, 'counter.arc56.json'), 'utf8')) as never;
    assert.throws(
      () => chain.setGlobal(id, 'count', 5n, json),
      (e: Error) => e instanceof ValidationError && /parsed app spec .*loadAppSpec/.test(e.message),
    );
    assert.throws(() => chain.setBox(id, 'b', 'x', json), /parsed app spec/);
    assert.throws(() => chain.setGlobal(id, 5 as never, 1n), /key as bytes \(Uint8Array\) or a name \(string\), got 5/);
    assert.equal(chain.stateHash(), before);
    // The app still works, and a good cheat still goes through.
    await f.apps.counter.call('increment', [1]);
    chain.setGlobal(id, 'count', 7n, spec);
    await expectState(f.apps.counter, { global: { count: 7n } });
  });

  it('a fixture set up wrongly says what to change, and leaves nothing running', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tw-fixture-bad-'));
    try {
      await fixtureMistakes(tmp);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  async function fixtureMistakes(tmp: string): Promise<void> {
    writeFileSync(join(tmp, 'broken.arc56.json'), '{not json');
    const twice = testFixture({ baseDir: abi, apps: { a: counterApp, b: counterApp } });
    await assert.rejects(
      twice.setup(),
      (e: Error) =>
        e instanceof TestingError &&
        /apps a and b both deploy as "Counter" from account 0, so they would be the same app: give one of them its own `name`/.test(e.message),
    );
    assert.throws(() => twice.apps, /not set up yet/);
    const named = testFixture({ baseDir: abi, apps: { a: counterApp, b: { ...counterApp, name: 'Counter2' } } });
    await named.setup();
    assert.notEqual(named.apps.a.appId, named.apps.b.appId);
    await named.teardown();
    for (const [spec, message] of [
      ['missing.arc56.json', /deploying app x failed: app spec file .*missing\.arc56\.json does not exist/],
      ['counter.teal', /deploying app x failed: app spec "counter\.teal" is neither a \.json file path nor ARC-56 \/ ARC-32 JSON text/],
      [join(tmp, 'broken.arc56.json'), /deploying app x failed: app spec file .*broken\.arc56\.json is not a valid app spec: invalid JSON/],
    ] as const) {
      const bad = testFixture({ baseDir: abi, apps: { x: { ...counterApp, spec } } });
      await assert.rejects(bad.setup(), (e: Error) => e instanceof TestingError && message.test(e.message));
    }
    await assert.rejects(
      testFixture({ apps: { x: undefined as never } }).setup(),
      (e: Error) => e instanceof TestingError && /app x: give it as \{ spec/.test(e.message),
    );
    await assert.rejects(
      testFixture({ accounts: 0, baseDir: abi, apps: { x: counterApp } }).setup(),
      /creator index 0 has no funded account \(the chain has 0\)/,
    );
  }

  it('a fixture deploys on its fresh chain as a deploy that looked earlier deployments up: the same plan, app and state', async () => {
    // The fixture skips the lookup (its chain was just made); a plain deploy on the same genesis does it.
    const g = testFixture({ baseDir: abi, apps: { counter: counterApp } });
    await g.setup();
    const tw = await Tealworks.inProcess({ accounts: 3 });
    try {
      const d = await tw.app.deploy({
        creator: tw.testChain.accounts[0]!,
        spec: join(abi, 'counter.arc56.json'),
        approval: join(abi, 'counter.teal'),
        clear: join(abi, 'clear.teal'),
        fund: 1_000_000n,
      });
      const mine = g.deployments.counter;
      assert.equal(mine.action, 'create');
      assert.deepEqual(mine.plan, d.plan);
      assert.equal(mine.appId, d.appId);
      assert.equal(mine.txid, d.txid);
      assert.equal(g.chain.stateHash(), tw.testChain.stateHash());
    } finally {
      await tw.close();
      await g.teardown();
    }
  });

  it('reset before setup, teardown twice and use after teardown', async () => {
    const g = testFixture({ baseDir: abi, apps: { counter: counterApp } });
    assert.throws(
      () => g.reset(),
      (e: Error) => e instanceof TestingError && /not set up yet: call setup\(\)/.test(e.message),
    );
    await g.teardown();
    await Promise.all([g.setup(), g.setup()]);
    await g.apps.counter.call('increment', [1]);
    g.reset();
    await expectState(g.apps.counter, { global: { count: 0n } });
    await g.teardown();
    await g.teardown();
    assert.throws(
      () => g.reset(),
      (e: Error) => e instanceof TestingError && /torn down .*call setup\(\) again/.test(e.message),
    );
    assert.throws(() => g.chain, /torn down/);
    await g.setup();
    await expectState(g.apps.counter, { global: { count: 0n } });
    await g.teardown();
  });
});
