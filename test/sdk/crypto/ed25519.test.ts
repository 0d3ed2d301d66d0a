import assert from 'node:assert/strict';
import {
  Ed25519KeyPair,
  ed25519Verify,
  ed25519VerifyAsync,
  forgetMadeSignatures,
  madeSignatureCount,
  nativeEd25519Available,
  setNativeEd25519,
} from '../../../sdk/src/crypto/ed25519.js';
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
      // The verifier itself, not the memo of signatures made here.
      forgetMadeSignatures();
      assert.ok(ed25519Verify(portable.publicKey, message, sigNative));
      // A plain Uint8Array of its own, not a view into Node's buffer; the seed is a private copy.
      assert.equal(native.publicKey.constructor, Uint8Array);
      assert.equal(native.publicKey.byteLength, 32);
      assert.equal(native.publicKey.buffer.byteLength, 32);
      assert.notEqual(native.seed, seed);
    }
  });

  it('a signature made here is recognised only for its own key and message, as the verifier would', () => {
    const rnd = prng(7);
    const a = Ed25519KeyPair.fromSeed(Uint8Array.from({ length: 32 }, () => Math.floor(rnd() * 256)));
    const b = Ed25519KeyPair.fromSeed(Uint8Array.from({ length: 32 }, () => Math.floor(rnd() * 256)));
    const message = Uint8Array.from({ length: 40 }, () => Math.floor(rnd() * 256));
    const sig = a.sign(message);
    assert.ok(ed25519Verify(a.publicKey, message, sig));
    assert.equal(ed25519Verify(b.publicKey, message, sig), false);
    const other = message.slice();
    other[3]! ^= 1;
    assert.equal(ed25519Verify(a.publicKey, other, sig), false);
    const forged = sig.slice();
    forged[0]! ^= 1;
    assert.equal(ed25519Verify(a.publicKey, message, forged), false);
    // Changed past the bytes the memo is looked up by: the whole signature is compared.
    const late = sig.slice();
    late[40]! ^= 1;
    assert.equal(ed25519Verify(a.publicKey, message, late), false);
    // The caller changing the signature it was given does not make the changed one pass.
    const mine = a.sign(message.subarray(0, 20));
    const kept = mine.slice();
    mine[50]! ^= 1;
    assert.equal(ed25519Verify(a.publicKey, message.subarray(0, 20), mine), false);
    assert.ok(ed25519Verify(a.publicKey, message.subarray(0, 20), kept));
    // The message was copied when signed: changing the caller's array later changes the answer.
    message[0]! ^= 1;
    assert.equal(ed25519Verify(a.publicKey, message, sig), false);
    message[0]! ^= 1;
    assert.ok(ed25519Verify(a.publicKey, message, sig));
  });

  it('the parallel verifier gives the same answers as the verifier, native and portable', async () => {
    const rnd = prng(11);
    const k = Ed25519KeyPair.fromSeed(Uint8Array.from({ length: 32 }, () => Math.floor(rnd() * 256)));
    const message = Uint8Array.from({ length: 50 }, () => Math.floor(rnd() * 256));
    const sig = k.sign(message);
    const forged = sig.slice();
    forged[10]! ^= 1;
    const cases: Array<[Uint8Array, Uint8Array, Uint8Array]> = [
      [k.publicKey, message, sig],
      [k.publicKey, message, forged],
      [k.publicKey, message.subarray(1), sig],
      [new Uint8Array(32).fill(0xff), message, sig], // not a point on the curve
      [k.publicKey.subarray(0, 31), message, sig], // a short key
      [k.publicKey, message, sig.subarray(0, 63)], // a short signature
    ];
    for (const native of [true, false]) {
      if (native && !nativeEd25519Available()) continue;
      setNativeEd25519(native);
      forgetMadeSignatures(); // the verifiers themselves, not the memo of signatures made here
      const answers = await Promise.all(cases.map(([pk, m, s]) => ed25519VerifyAsync(pk, m, s)));
      assert.deepEqual(
        answers,
        cases.map(([pk, m, s]) => ed25519Verify(pk, m, s)),
        native ? 'native' : 'portable',
      );
      assert.deepEqual(answers, [true, false, false, false, false, false]);
    }
  });

  it('remembers a bounded number of signatures; older ones are verified by the verifier', () => {
    forgetMadeSignatures();
    const k = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(9));
    const first = k.sign(Uint8Array.of(0));
    for (let i = 1; i <= 1100; i++) k.sign(Uint8Array.of(i & 255, i >> 8));
    assert.equal(madeSignatureCount(), 1024);
    assert.ok(ed25519Verify(k.publicKey, Uint8Array.of(0), first));
  });
});
