// A 2-of-3 multisig account pays; two of its three members sign.
import { Tealworks, algos } from '@tealworks/sdk';

const tw = await Tealworks.connect.devnet();
const [a, b, c] = [tw.account.random(), tw.account.random(), tw.account.random()];
const msig = tw.account.multisig({ threshold: 2, addrs: [a.address, b.address, c.address] }, [a, c]);
await tw.account.ensureFunded(msig, algos(5));
const paid = await tw.send.payment({ sender: msig, receiver: b, amount: algos(1) });
console.log(`multisig ${msig.address} paid 1 ALGO in round ${paid.confirmedRound} (txn ${paid.txid})`);
await tw.close();
