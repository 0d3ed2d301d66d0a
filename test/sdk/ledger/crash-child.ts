// Child process for the kill -9 test: submits payments forever into a data directory and prints
// each txid only after submit returned (i.e. after the journal fsync).
import { Ledger } from '../../../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../../../sdk/src/ledger/persistence.js';
import { makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { signTransaction } from '../../../sdk/src/txn/sign.js';
import { key, addrOf } from './fixture.js';

const dir = process.argv[2]!;
const keys = [key(1), key(2)];
const ledger = new Ledger({
  genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 1_000_000_000n })),
  genesisTimestamp: 1_700_000_000n,
  store: new FileLedgerStore(dir),
  snapshotInterval: 7,
});
for (let i = 0; ; i++) {
  const r = ledger.latestRound;
  const t = makePaymentTxn({
    sender: addrOf(keys[i % 2]!),
    receiver: addrOf(keys[(i + 1) % 2]!),
    amount: 1000 + i,
    suggestedParams: { fee: 1000n, flatFee: true, firstValid: r, lastValid: r + 1000n, genesisId: ledger.genesisId, genesisHash: ledger.genesisHash },
  });
  const res = ledger.submit([signTransaction(t, keys[i % 2]!)]);
  process.stdout.write(`${res.txids[0]}\n`);
}
