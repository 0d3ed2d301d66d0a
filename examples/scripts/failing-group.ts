// A group whose second call fails, simulated: where it failed, why, and the logs it left.
import { Tealworks, algos } from '@tealworks/sdk';
import { CounterClient } from './counter-client.js';

const tw = await Tealworks.connect.devnet();
const counter = await CounterClient.deploy(tw, {
  creator: tw.account.dispenser,
  fund: algos(1),
  baseDir: import.meta.dirname,
  approval: '../counter/abi/counter.teal',
  clear: '../counter/abi/clear.teal',
});
const report = await tw.newGroup().call(counter.app, 'increment', [3]).call(counter.app, 'increment', [50]).simulate();
console.log(`failed_at ${report.failedAt?.join('.')}: ${report.failure?.errorMessage ?? report.failureMessage}`);
report.txns.forEach((t, i) =>
  t.logs.forEach((l) =>
    console.log(
      `txn ${i} log ${l.event ? `${l.event.name} ${JSON.stringify(l.event.named, (_, v) => (typeof v === 'bigint' ? `${v}` : v))}` : `0x${l.view.hex}`}`,
    ),
  ),
);
await tw.close();
