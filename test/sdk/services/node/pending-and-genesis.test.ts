// Issue 14, item 5 (node-service.md op 7) and the /genesis operation a follower rebuilds its chain from.
import assert from 'node:assert/strict';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { txid } from '../../../../sdk/src/txn/encode.js';
import { Ledger } from '../../../../sdk/src/ledger/index.js';
import { ALGO, startNode } from './helpers.js';

describe('node service: op 7 pending listing per account, and /genesis', function () {
  it("op 7: totalTxns is the total in the pool; truncatedTxns holds only the account's, cut at max", async () => {
    const node = await startNode({ accounts: 4, blockIntervalMs: 600_000 });
    try {
      const a = node.sign(node.pay(0, 1, 1n * ALGO, { note: utf8('a') }));
      const b = node.sign(node.pay(0, 1, 2n * ALGO, { note: utf8('b') }));
      const c = node.sign(node.pay(2, 3, 3n * ALGO, { note: utf8('c') }));
      for (const s of [a, b, c]) assert.equal((await node.submit([s])).status, 200);
      const mine = (await node.call('GET', `/v1/account/${node.addr(0)}/transactions/pending`)).json;
      assert.equal(mine.totalTxns, 3);
      assert.deepEqual(new Set(mine.truncatedTxns.transactions.map((t: { tx: string }) => t.tx)), new Set([txid(a.txn), txid(b.txn)]));
      const cut = (await node.call('GET', `/v1/account/${node.addr(0)}/transactions/pending?max=1`)).json;
      assert.equal(cut.totalTxns, 3);
      assert.equal(cut.truncatedTxns.transactions.length, 1);
      const other = (await node.call('GET', `/v1/account/${node.addr(3)}/transactions/pending`)).json;
      assert.equal(other.totalTxns, 3);
      assert.deepEqual(
        other.truncatedTxns.transactions.map((t: { tx: string }) => t.tx),
        [txid(c.txn)],
      );
      // op 18 agrees on the total.
      assert.equal((await node.call('GET', '/v1/transactions/pending')).json.totalTxns, 3);
    } finally {
      await node.close();
    }
  });

  it('/genesis is public and rebuilds the same chain (same genesis hash)', async () => {
    const node = await startNode({ accounts: 2 });
    try {
      const r = await node.call('GET', '/genesis', { token: null });
      assert.equal(r.status, 200);
      const g = JSON.parse(r.text);
      assert.equal(g.id, node.ledger.genesisId);
      assert.equal(g.alloc.length, 4);
      const first = g.alloc.find((x: { addr: string }) => x.addr === node.addr(0));
      assert.equal(first.state.algo, Number(100n * ALGO));
      const special = g.alloc.find((x: { addr: string }) => x.addr === g.fees).state.algo;
      const rebuilt = new Ledger({
        genesisId: g.id,
        genesisAccounts: g.alloc
          .filter((x: { addr: string }) => x.addr !== g.fees && x.addr !== g.rwd)
          .map((x: { addr: string; state: { algo: number } }) => ({ address: x.addr, amount: BigInt(x.state.algo) })),
        feeSink: g.fees,
        rewardsPool: g.rwd,
        specialAccountBalance: BigInt(special),
        genesisTimestamp: BigInt(g.timestamp),
      });
      assert.deepEqual(rebuilt.genesisHash, node.ledger.genesisHash);
    } finally {
      await node.close();
    }
  });
});
