// Payment between two fresh accounts, funded by the devnet's dispenser.
import { Tealworks, algos } from '@tealworks/sdk';

const tw = await Tealworks.connect.devnet();
const alice = await tw.account.ensureFunded(tw.account.random(), algos(10));
const bob = tw.account.random();
const paid = await tw.send.payment({ sender: alice, receiver: bob, amount: algos(2.5) });
console.log(`paid 2.5 ALGO in round ${paid.confirmedRound} (txn ${paid.txid})`);
console.log(`bob holds ${await tw.account.balance(bob)} micro-units`);
await tw.close();
