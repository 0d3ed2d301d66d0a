// The counter's global state and every box, decoded by its ARC-56 spec.
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
const alice = await tw.account.ensureFunded(tw.account.random(), algos(1));
await counter.increment({ amount: 3 }, { sender: alice.address });
const { global, boxes } = await tw.app.state(counter.app);
for (const [key, value] of Object.entries(global)) console.log(`global ${key} = ${value}`);
for (const [name, value] of Object.entries(boxes)) console.log(`box ${name} = ${value}`);
await tw.close();
