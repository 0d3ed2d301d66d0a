import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { testFixture, expectFailure, expectState } from '../sdk/src/testing/index.js';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const ABI = 'examples/counter/abi';
const ph = { setup: 0, reset: 0, call: 0, state: 0, fail: 0, teardown: 0 };
async function ten(): Promise<number> {
  const t0 = performance.now();
  let t = t0;
  const lap = (k: keyof typeof ph) => { const n = performance.now(); ph[k] += n - t; t = n; };
  const f = testFixture({ baseDir: ABI, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
  await f.setup(); lap('setup');
  for (let i = 0; i < 10; i++) {
    f.reset(); lap('reset');
    await f.apps.counter.call('increment', [5]); lap('call');
    await expectState(f.apps.counter, { global: { count: 5n } }); lap('state');
    await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' }); lap('fail');
  }
  await f.teardown(); lap('teardown');
  return performance.now() - t0;
}
await ten();
for (const k of Object.keys(ph) as (keyof typeof ph)[]) ph[k] = 0;
const runs: number[] = [];
const R = Number(process.env.R ?? 5);
for (let i = 0; i < R; i++) {
  await new Promise((r) => setTimeout(r, 100)); gc();
  runs.push(await ten());
}
console.log('runs', runs.map((x) => x.toFixed(1)).join(' '));
console.log('per run', Object.entries(ph).map(([k, v]) => `${k} ${(v / R).toFixed(1)}`).join('  '));
