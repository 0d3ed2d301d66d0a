import assert from 'node:assert/strict';
import { Ed25519KeyPair, ed25519Verify, nativeEd25519Available, setNativeEd25519 } from '../../../sdk/src/crypto/ed25519.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { prng } from '../../helpers/random.js';

describe('crypto: ed25519 key pairs from seeds', () => {
  afterEach(() => setNativeEd25519(true));

  it('the native derivation gives the portable path’s public keys and signatures (200 seeds, seed 31)', function () {
    if (!nativeEd25519Available()) this.skip();
    const rnd = prng(31);
    for (let n = 0; n < 200; n++) {
      const seed = Uint8Array.from({ length: 32 }, () => Math.floor(rnd() * 256));
      const message = Uint8Array.from({ length: n % 70 }, () => Math.floor(rnd() * 256));
      setNativeEd25519(true);
      const native = Ed25519KeyPair.fromSeed(seed);
      const sigNative = native.sign(message);
      setNativeEd25519(false);
      const portable = Ed25519KeyPair.fromSeed(seed);
      assert.equal(toHex(native.publicKey), toHex(portable.publicKey), `seed ${toHex(seed)}`);
      assert.equal(toHex(sigNative), toHex(portable.sign(message)));
      assert.ok(ed25519Verify(portable.publicKey, message, sigNative));
      // A plain Uint8Array of its own, not a view into Node's buffer; the seed is a private copy.
      assert.equal(native.publicKey.constructor, Uint8Array);
      assert.equal(native.publicKey.byteLength, 32);
      assert.equal(native.publicKey.buffer.byteLength, 32);
      assert.notEqual(native.seed, seed);
    }
  });
});
