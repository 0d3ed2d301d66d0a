// A tested contract: the ABI counter, on the in-process chain (run: npx tealworks test, or
// npx mocha examples/counter/test/counter.test.ts from the repository).
import { testFixture, expectFailure, expectState } from '@tealworks/sdk/testing';

const f = testFixture({
  baseDir: new URL('../abi/', import.meta.url).pathname,
  apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } },
});
f.install({ before, beforeEach, after });

describe('counter', () => {
  it('increments by the amount given', async () => {
    const { returnValue } = await f.apps.counter.call('increment', [5]);
    if (returnValue !== 5n) throw new Error(`returned ${returnValue}`);
    await expectState(f.apps.counter, { global: { count: 5n } });
  });

  it('starts every test from the freshly deployed app', async () => {
    await expectState(f.apps.counter, { global: { count: 0n } });
  });

  it('refuses an increment of 10 or more, at the assert on line 63', async () => {
    await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big', line: 63 });
  });

  it('sees time move only when the test says so', async () => {
    const before = f.chain.time;
    f.chain.advanceTime(3600);
    if (f.chain.time !== before + 3600n) throw new Error('time did not move');
  });
});
