// Ledger.applyBlock (follower mode): another ledger of the same chain applies a block exactly, or
// refuses it and changes nothing.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { Ledger, LedgerStoreError } from '../../../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../../../sdk/src/ledger/persistence.js';
import { decodeBlock, encodeBlock } from '../../../sdk/src/ledger/block.js';
import { makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../sdk/src/txn/group.js';
import { signTransaction } from '../../../sdk/src/txn/sign.js';

const keys = [1, 2].map((n) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n)));
const addr = (i: number) => new Address(keys[i]!.publicKey).toString();

function pair(store?: string): { a: Ledger; b: Ledger } {
  let t = 1_700_000_000n;
  const cfg = { genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 10n ** 12n })), genesisTimestamp: 1_700_000_000n };
  const a = new Ledger({ ...cfg, clock: () => (t += 7n) });
  const b = new Ledger({ ...cfg, ...(store ? { store: new FileLedgerStore(store) } : {}) });
  return { a, b };
}

function pay(l: Ledger, from: number, to: number, amount: bigint, note: string) {
  return makePaymentTxn({
    sender: addr(from),
    receiver: addr(to),
    amount,
    note: utf8(note),
    suggestedParams: {
      fee: 1000n,
      flatFee: true,
      firstValid: l.latestRound,
      lastValid: l.latestRound + 100n,
      genesisId: l.genesisId,
      genesisHash: l.genesisHash,
    },
  });
}

describe('ledger: applyBlock (follower mode)', () => {
  it('applies blocks of singles and groups with the same hashes and state, and journals them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-apply-'));
    try {
      const { a, b } = pair(dir);
      a.submit([signTransaction(pay(a, 0, 1, 5n, 'one'), keys[0]!)]);
      const g = assignGroupId([pay(a, 0, 1, 6n, 'g1'), pay(a, 1, 0, 7n, 'g2')]);
      a.produceBlock([[signTransaction(pay(a, 1, 0, 1n, 'solo'), keys[1]!)], [signTransaction(g[0]!, keys[0]!), signTransaction(g[1]!, keys[1]!)]]);
      for (let r = 1n; r <= a.latestRound; r++) b.applyBlock(decodeBlock(encodeBlock(a.block(r), { goStrings: true })));
      assert.equal(toHex(b.latestBlock.hash), toHex(a.latestBlock.hash));
      assert.equal(toHex(b.stateHash()), toHex(a.stateHash()));
      assert.equal(b.block(2n).txns.length, 3);
      b.close();
      // Restarted from its journal: the same chain.
      const again = new Ledger({
        genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 10n ** 12n })),
        genesisTimestamp: 1_700_000_000n,
        store: new FileLedgerStore(dir),
      });
      assert.equal(toHex(again.latestBlock.hash), toHex(a.latestBlock.hash));
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a block that skips a round, belongs elsewhere or evaluates differently, changing nothing', () => {
    const { a, b } = pair();
    a.submit([signTransaction(pay(a, 0, 1, 5n, 'one'), keys[0]!)]);
    a.submit([signTransaction(pay(a, 0, 1, 6n, 'two'), keys[0]!)]);
    assert.throws(
      () => b.applyBlock(a.block(2n)),
      (e: Error) => e instanceof LedgerStoreError && /cannot follow round 0/.test(e.message),
    );
    const tampered = decodeBlock(encodeBlock(a.block(1n)));
    tampered.header.timestamp += 1n;
    tampered.hash = a.block(1n).hash;
    const before = toHex(b.stateHash());
    assert.throws(
      () => b.applyBlock(tampered),
      (e: Error) => e instanceof LedgerStoreError && /produced a different block/.test(e.message),
    );
    assert.equal(b.latestRound, 0n);
    assert.equal(toHex(b.stateHash()), before);
    const other = new Ledger({ genesisAccounts: [{ address: keys[0]!.publicKey, amount: 1n }] });
    assert.throws(() => other.applyBlock(a.block(1n)), /another chain/);
    b.applyBlock(a.block(1n));
    assert.equal(b.latestRound, 1n);
  });
});
