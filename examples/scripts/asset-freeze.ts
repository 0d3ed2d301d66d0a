// An asset with freeze and clawback: freeze a holder, claw units back, then unfreeze.
import { Tealworks, algos } from '@tealworks/sdk';

const tw = await Tealworks.connect.devnet();
const [issuer, holder] = [await tw.account.ensureFunded(tw.account.random(), algos(2)), await tw.account.ensureFunded(tw.account.random(), algos(1))];
const { createdAssetId: assetId = 0n } = await tw.send.assetCreate({ sender: issuer, total: 1000, unitName: 'TW', freeze: issuer, clawback: issuer });
await tw.send.assetOptIn({ sender: holder, assetId });
await tw.send.assetTransfer({ sender: issuer, receiver: holder, assetId, amount: 100 });
await tw.send.assetFreeze({ sender: issuer, assetId, account: holder, frozen: true });
const blocked = await tw.send.assetTransfer({ sender: holder, receiver: issuer, assetId, amount: 1 }).catch((e: Error) => e.message.split('\n')[0]);
console.log(`frozen holder cannot send: ${blocked}`);
await tw.send.assetTransfer({ sender: issuer, clawbackFrom: holder, receiver: issuer, assetId, amount: 40 });
await tw.send.assetFreeze({ sender: issuer, assetId, account: holder, frozen: false });
console.log(`holder has ${(await tw.node.account(holder.address)).assets.find((a) => a.assetId === assetId)?.amount} units, unfrozen`);
await tw.close();
