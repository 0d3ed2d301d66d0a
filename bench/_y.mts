import { testFixture, expectFailure, expectState } from '../sdk/src/testing/index.js';
const ABI = 'examples/counter/abi';
async function once(log: boolean) {
  const T = (t: number) => performance.now() - t;
  let t = performance.now(); const t0 = t;
  const f = testFixture({ baseDir: ABI, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
  await f.setup(); const setup = T(t);
  let reset = 0, call = 0, state = 0, fail = 0;
  for (let i = 0; i < 10; i++) {
    t = performance.now(); f.reset(); reset += T(t);
    t = performance.now(); await f.apps.counter.call('increment', [5]); call += T(t);
    t = performance.now(); await expectState(f.apps.counter, { global: { count: 5n } }); state += T(t);
    t = performance.now(); await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' }); fail += T(t);
  }
  t = performance.now(); await f.teardown(); const td = T(t);
  if (log) console.log({ total: T(t0).toFixed(1), setup: setup.toFixed(1), reset: (reset/10).toFixed(2), call: (call/10).toFixed(2), state: (state/10).toFixed(2), fail: (fail/10).toFixed(2), teardown: td.toFixed(1) });
}
for (let i = 0; i < 5; i++) await once(false);
for (let i = 0; i < 5; i++) await once(true);
