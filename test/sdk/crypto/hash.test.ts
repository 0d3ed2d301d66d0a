import assert from 'node:assert/strict';
import { hashWithPrefix, setNativeHashing, sha256, sha512, sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';

describe('crypto: hashes', () => {
  afterEach(() => setNativeHashing(true));

  it('gives the same digests on the native and portable paths', () => {
    for (const len of [0, 1, 31, 32, 33, 111, 112, 127, 128, 129, 1000]) {
      const data = new Uint8Array(len).map((_, i) => (i * 131 + len) & 0xff);
      setNativeHashing(true);
      const native = [sha512_256(data), sha256(data), sha512(data), hashWithPrefix('TX', data)].map(toHex);
      setNativeHashing(false);
      const portable = [sha512_256(data), sha256(data), sha512(data), hashWithPrefix('TX', data)].map(toHex);
      assert.deepEqual(native, portable, `length ${len}`);
    }
  });

  it('matches the published SHA-512/256 vector for "abc"', () => {
    // FIPS 180-4 example value.
    assert.equal(toHex(sha512_256(utf8('abc'))), '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23');
  });
});
