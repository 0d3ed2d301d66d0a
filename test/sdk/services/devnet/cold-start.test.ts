import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import { txid } from '../../../../sdk/src/txn/encode.js';

// Issue 31: a devnet reopened on a persisted chain does not decode every stored block or index its
// history at start (blocks the snapshot covers are decoded on first read; the query service indexes
// at its first request or first new block). What it serves must not change: old blocks, lookups of
// old transactions by id, the query service's history, and blocks committed after the start.

async function queryJson(d: RunningDevnet, path: string): Promise<Record<string, unknown>> {
  const r = await request(`${d.query.url}${path}`, { headers: { 'x-indexer-api-token': d.query.token } });
  const body = (await r.body.json()) as Record<string, unknown>;
  assert.equal(r.statusCode, 200, JSON.stringify(body));
  return body;
}

describe('devnet: reopening a persisted chain', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-cold-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('old blocks, transactions by id and the query history are as before; new blocks are followed', async () => {
    const ids: string[] = [];
    let payer: Address;
    {
      const d = await startDevnet({ dataDir: dir, accounts: 1, kdf: TEST_SCRYPT, ports: { node: 0, query: 0, keyManager: 0 } });
      try {
        const wallet = d.wallets.findWallet(d.wallet.name)!;
        const handle = await d.wallets.initHandle(wallet.id, d.wallet.password);
        const key = Ed25519KeyPair.fromSeed((await d.wallets.exportKey(handle, d.wallet.password, d.accounts[0]!.address)).subarray(0, 32));
        payer = new Address(key.publicKey);
        for (let i = 0; i < 30; i++) {
          const r = d.ledger.latestRound;
          const t = makePaymentTxn({
            sender: payer,
            receiver: payer,
            amount: 0n,
            note: utf8(`n${i}`),
            suggestedParams: {
              fee: 1000n,
              flatFee: true,
              firstValid: r,
              lastValid: r + 1000n,
              genesisId: d.ledger.genesisId,
              genesisHash: d.ledger.genesisHash,
            },
          });
          ids.push(txid(t));
          const { rejected } = d.ledger.produceBlock([[signTransaction(t, key)]]);
          assert.deepEqual(rejected, []);
        }
      } finally {
        await d.stop();
      }
    }
    const d = await startDevnet({ dataDir: dir, kdf: TEST_SCRYPT, ports: { node: 0, query: 0, keyManager: 0 } });
    try {
      const first = d.ledger.transaction(ids[0]!);
      assert.ok(first, 'a transaction of a replayed round is found by id');
      assert.equal(new TextDecoder().decode(first.stxn.txn.note), 'n0');
      const latest = d.ledger.latestRound;
      const block = d.ledger.block(latest);
      assert.equal(block.header.round, latest);
      assert.equal(block.txns[0]!.txid, ids[29]);
      // The previous block's hash links to this one's: the lazily decoded chain is intact.
      assert.equal(block.header.prev.length, 32);
      assert.deepEqual(block.header.prev, d.ledger.block(latest - 1n).hash);
      // The query service indexes the history at its first request.
      const found = await queryJson(d, `/v2/transactions?address=${payer!.toString()}&limit=100`);
      assert.equal((found.transactions as unknown[]).length, 30);
      const one = await queryJson(d, `/v2/transactions/${ids[5]}`);
      assert.equal((one.transaction as { id: string }).id, ids[5]);
      // A block committed after the start is followed.
      const r = d.ledger.latestRound;
      d.ledger.produceBlock([]);
      assert.equal(d.ledger.latestRound, r + 1n);
      const health = await queryJson(d, '/health');
      assert.equal(BigInt(health.round as number), r + 1n);
    } finally {
      await d.stop();
    }
  });
});
