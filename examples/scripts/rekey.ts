// Rekey an account to another key, then send from it: the client signs with the new key.
import { Tealworks, algos } from '@tealworks/sdk';

const tw = await Tealworks.connect.devnet();
const alice = await tw.account.ensureFunded(tw.account.random(), algos(5));
const bob = tw.account.random();
await tw.account.rekey(alice, bob);
const paid = await tw.send.payment({ sender: alice, receiver: bob, amount: algos(1) });
console.log(`${alice.address} rekeyed to ${bob.address}; paid 1 ALGO in round ${paid.confirmedRound}`);
await tw.close();
