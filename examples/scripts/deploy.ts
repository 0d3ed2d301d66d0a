// Idempotent deploy of the counter from its ARC-56 spec (a rerun changes nothing), then a typed call.
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
console.log(`${counter.deployment?.action}: app ${counter.appId} (${counter.appAddress})`);
const { returnValue } = await counter.increment({ amount: 5 });
console.log(`count is now ${returnValue}`);
await tw.close();
