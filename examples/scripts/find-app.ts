// Deploy under a name, then find the app again by creator and name from a fresh client.
import { Tealworks, algos } from '@tealworks/sdk';
import { CounterClient } from './counter-client.js';

const tw = await Tealworks.connect.devnet();
const sources = { baseDir: import.meta.dirname, approval: '../counter/abi/counter.teal', clear: '../counter/abi/clear.teal' };
const deployed = await CounterClient.deploy(tw, { creator: tw.account.dispenser, name: 'shop-counter', fund: algos(1), ...sources });
await tw.close();
const fresh = await Tealworks.connect.devnet();
const found = await CounterClient.fromCreatorAndName(fresh, fresh.account.dispenser, 'shop-counter');
console.log(`deployed app ${deployed.appId}; found app ${found.appId} by creator and name`);
await fresh.close();
