import { testFixture, expectFailure } from '../sdk/src/testing/index.js';
const ABI = 'examples/counter/abi';
const f = testFixture({ baseDir: ABI, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
await f.setup();
const mode = process.env.MODE ?? 'fail';
for (let i = 0; i < 200; i++) await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' });
const n = 1500; const t = performance.now();
for (let i = 0; i < n; i++) { f.reset(); if (mode === 'fail') await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' }); else await f.apps.counter.call('increment', [5]); }
console.log(mode, 'per op ms', ((performance.now() - t) / n).toFixed(3));
await f.teardown();
