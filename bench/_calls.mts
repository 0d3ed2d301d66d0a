import { Tealworks } from '../sdk/src/index.js';
const ABI = 'examples/counter/abi';
const deployInput = { spec: `${ABI}/counter.arc56.json`, approval: `${ABI}/counter.teal`, clear: `${ABI}/clear.teal`, fund: 10_000_000n };
const tw = await Tealworks.inProcess();
const app = await tw.app.deploy({ creator: tw.testChain.accounts[0]!, ...deployInput });
const N = Number(process.env.N ?? 4000);
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  for (let i = 0; i < N; i++) await app.client.call('increment', [1]);
  const dt = performance.now() - t;
  console.log(`round ${r}: ${(dt / N).toFixed(3)} ms/call, ${(N * 1000 / dt).toFixed(0)} calls/s`);
}
await tw.close();
