import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { deriveKey, deriveKeys, deriveKeySeed, nextDerivedKey } from '../../../sdk/src/crypto/kmd-derivation.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

const MDK = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('crypto: key manager deterministic keys (protocol.md §5.4)', () => {
  it('derives the [computed] vectors for MDK 0x00..0x1f', () => {
    const [k1, k2] = deriveKeys(MDK, 2);
    assert.equal(toHex(k1!.seed), '724db5dd2b5bff822d5e968fc401fdf80f778cf3a6812f2adc9629599b31b559');
    assert.equal(k1!.address, 'RARAQGGTYYIAKPP7M44M2ITTE2AXASJD5VIMPRQDU5VJTK3XAA62OLW7IM');
    assert.equal(toHex(k2!.seed), '2fa706a61643be89ffb83b7f4b0a417b8011786a597222d2ac5a85411ba5136d');
    assert.equal(k2!.address, 'AY3EXNCEATTJ3KUPVEVDFUYMO6CT3R3S6QQSVIGTXKCFG26L4WGLJU5PF4');
    assert.equal(k1!.index, 1n);
  });

  it('equals HMAC-SHA512/256(MDK, info ‖ 0x01) computed by Node for many indexes', () => {
    for (const i of [0, 1, 9, 10, 255, 65536, 2 ** 40]) {
      const expected = createHmac('sha512-256', MDK).update(`AlgorandDeterministicKey-${i}`).update(Uint8Array.of(1)).digest('hex');
      assert.equal(toHex(deriveKeySeed(MDK, i)), expected, `index ${i}`);
    }
    assert.equal(toHex(deriveKeySeed(MDK, 1n << 63n)), createHmac('sha512-256', MDK).update('AlgorandDeterministicKey-9223372036854775808\x01').digest('hex'));
  });

  it('skips indexes whose key the wallet already holds', () => {
    const taken = new Set([deriveKey(MDK, 1).address]);
    const next = nextDerivedKey(MDK, 0, (a) => taken.has(a));
    assert.equal(next.index, 2n);
    assert.equal(next.address, 'AY3EXNCEATTJ3KUPVEVDFUYMO6CT3R3S6QQSVIGTXKCFG26L4WGLJU5PF4');
  });

  it('accepts number and bigint indexes alike and rejects bad input', () => {
    assert.deepEqual(deriveKeySeed(MDK, 5), deriveKeySeed(MDK, 5n));
    assert.throws(() => deriveKeySeed(new Uint8Array(31), 1), /32 bytes, got 31/);
    assert.throws(() => deriveKeySeed(MDK, -1), /0\.\.2\^63/);
    assert.throws(() => deriveKeySeed(MDK, (1n << 63n) + 1n), /0\.\.2\^63/);
  });
});
