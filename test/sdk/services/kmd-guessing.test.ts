import assert from 'node:assert/strict';
import { KeyManager } from '../../../sdk/src/services/kmd/key-manager.js';
import { TEST_SCRYPT } from '../../../sdk/src/services/kmd/wallet-crypto.js';

describe('kmd: password guessing', function () {
  this.timeout(30_000);

  it('a guess costs a key derivation even while the wallet is held open, and repeated wrong guesses back off', async () => {
    const km = await KeyManager.open({ kdf: TEST_SCRYPT, sweepIntervalMs: 0 });
    try {
      const w = await km.createWallet({ name: 'w', password: 'right' });
      const held = await km.initHandle(w.id, 'right'); // the wallet is now unlocked and cached
      const before = km.kdfRuns;
      for (let i = 0; i < 5; i++) await assert.rejects(km.initHandle(w.id, `guess${i}`), /error decrypting\. wrong password\?/);
      assert.equal(km.kdfRuns - before, 5, 'every guess ran the key derivation');
      assert.ok(km.backoffMs(w.id) > 0, 'after five wrong guesses the next attempt waits');
      await assert.rejects(km.initHandle(w.id, 'guess5'), /wrong password/);
      assert.ok(km.backoffMs(w.id) > 250, 'the wait grows');
      // Per wallet: another wallet is not slowed down.
      const other = await km.createWallet({ name: 'other', password: 'x' });
      assert.equal(km.backoffMs(other.id), 0);
      // The right password still works (after the wait) and resets the count.
      const again = await km.initHandle(w.id, 'right');
      assert.equal(km.backoffMs(w.id), 0);
      await km.releaseHandle(again);
      await km.releaseHandle(held);
    } finally {
      await km.close();
    }
  });
});
