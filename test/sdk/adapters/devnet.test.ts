import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyManagerSigner } from '../../../sdk/src/adapters/signer.js';
import { keyManagerFor, nodeAdapterFor, profileFromDevnet, queryClientFor } from '../../../sdk/src/adapters/profiles.js';
import type { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import type { Transaction } from '../../../sdk/src/txn/types.js';

const devnetModule = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sdk/src/services/devnet/devnet.ts');

interface Running {
  node: { url: string; token: string };
  query: { url: string; token: string };
  keyManager: { url: string; token: string };
  accounts: { address: string }[];
  wallet: { name: string; password: string };
  stop(): Promise<void>;
}

/** Smoke test of the three clients against the embedded devnet's services, end to end. */
describe('adapters: against the embedded devnet', function () {
  let dev: Running | undefined;

  before(async function () {
    if (!existsSync(devnetModule)) {
      console.log('    (skipped: the embedded devnet is not in this tree)');
      this.skip();
    }
    const mod = (await import('../../../sdk/src/services/devnet/devnet.js')) as { startDevnet(): Promise<Running> };
    dev = await mod.startDevnet();
  });
  after(async () => {
    await dev?.stop();
  });

  it('reads, signs through the key manager, simulates, submits, confirms and finds the payment in the query service', async () => {
    const profile = profileFromDevnet(dev!);
    const node = nodeAdapterFor(profile, { retry: false }) as NodeServiceAdapter;
    const query = queryClientFor(profile, { retry: false });
    const kmd = keyManagerFor(profile, { retry: false });
    try {
      const [from, to] = [dev!.accounts[0]!.address, dev!.accounts[1]!.address];
      const before = await node.account(from);
      const sp = await node.suggestedParams();
      await using session = await kmd.openWallet(dev!.wallet.name, dev!.wallet.password);
      assert.ok((await session.listKeys()).includes(from));

      const txn: Transaction = {
        type: 'pay',
        sender: Address.fromString(from),
        fee: sp.minFee,
        firstValid: sp.lastRound,
        lastValid: sp.lastRound + 1000n,
        genesisId: sp.genesisId,
        genesisHash: sp.genesisHash,
        payment: { receiver: Address.fromString(to), amount: 123_456n },
      };
      const [signed] = await new KeyManagerSigner(session).sign([txn], [0]);
      const sim = await node.simulate([signed!]);
      assert.equal(sim.wouldSucceed, true);

      const { txid } = await node.submit(signed!);
      const confirmed = await node.waitForConfirmation(txid, { maxRounds: 5 });
      assert.equal(confirmed.state, 'committed');
      assert.ok(confirmed.confirmedRound > 0n);

      const after = await node.account(from);
      assert.equal(after.amount, before.amount - 123_456n - sp.minFee);

      // The query service follows the ledger; give it a few bounded tries.
      let found;
      for (let i = 0; i < 50 && !found; i++) {
        found = await query.lookupTransaction(txid).catch(() => undefined);
        if (!found) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(found, 'transaction not visible in the query service');
      assert.equal(found.transaction.paymentTransaction?.amount, 123_456n);
      assert.equal(found.transaction.confirmedRound, confirmed.confirmedRound);
      const mine = await query.accountTransactions(from, {}, { pageSize: 1 }).toArray();
      assert.ok(mine.some((t) => t.id === txid));
    } finally {
      await node.close();
      await query.close();
      await kmd.close();
    }
  });
});
