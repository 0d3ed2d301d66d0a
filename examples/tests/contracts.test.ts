// The examples' contracts under test with the fixture; CI runs this file through
// `tealworks test --coverage --budget` (npm run examples:report), so its output carries a
// coverage and a budget report for them.
import { it, before, beforeEach, after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { testFixture, expectFailure, expectState } from '@tealworks/sdk/testing';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..');
const f = testFixture({
  baseDir: examples,
  apps: {
    counter: { spec: 'counter/abi/counter.arc56.json', approval: 'counter/abi/counter.teal', clear: 'counter/abi/clear.teal' },
    router: { spec: 'abi-router/router.arc56.json', approval: 'abi-router/router.teal', clear: 'abi-router/clear.teal' },
  },
});
f.install({ before, beforeEach, after });

it('counter: increments, reads back, refuses too big a step', async () => {
  await f.apps.counter.call('increment', [5]);
  await f.apps.counter.call('increment', [4]);
  await f.apps.counter.call('get_count', []);
  await expectState(f.apps.counter, { global: { count: 9n } });
  await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' });
});

it('router: greets; withdrawals need deposits and the owner', async () => {
  await f.apps.router.call('hello', ['world']);
  await expectFailure(f.apps.router.call('withdraw', [1000, f.accounts[1]!.address]), { message: 'cannot withdraw more than was deposited' });
  await expectFailure(f.apps.router.call('withdraw', [1000, f.accounts[1]!.address], { sender: f.accounts[1]!.address }));
});
