import assert from 'node:assert/strict';
import { hashWithPrefix, setNativeHashing, sha256, sha512, sha512_256, sha512_256Utf8 } from '../../../sdk/src/crypto/hash.js';
import { sha512_256ShortAscii } from '../../../sdk/src/encoding/sha512-short.js';
import { nativeDigest, nativeOneShotAvailable, setNativeOneShotHashing } from '../../../sdk/src/encoding/native-hash.js';
import { decodeAddress, encodeAddress } from '../../../sdk/src/encoding/address.js';
import { createHash } from 'node:crypto';
import { sha512_256 as nobleSha512_256 } from '@noble/hashes/sha2.js';
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

  it('the one-block path for short ASCII text (method selectors) gives the general digest at every length', () => {
    for (let len = 0; len <= 111; len++) {
      for (const seed of [1, 7, 31]) {
        let text = '';
        for (let i = 0; i < len; i++) text += String.fromCharCode(32 + ((i * seed * 37 + len) % 95));
        const want = toHex(nobleSha512_256(utf8(text)));
        assert.equal(toHex(sha512_256ShortAscii(text)!), want, `length ${len}`);
        assert.equal(toHex(sha512_256Utf8(text)), want);
      }
    }
    // Too long for one block, or not ASCII: the general path answers.
    assert.equal(sha512_256ShortAscii('x'.repeat(112)), undefined);
    assert.equal(sha512_256ShortAscii('caf\u00e9'), undefined);
    for (const text of ['x'.repeat(112), 'x'.repeat(300), 'caf\u00e9(uint64)void', '\u{1f600}']) {
      const want = toHex(nobleSha512_256(utf8(text)));
      setNativeHashing(true);
      assert.equal(toHex(sha512_256Utf8(text)), want);
      setNativeHashing(false);
      assert.equal(toHex(sha512_256Utf8(text)), want);
    }
    // The published ARC-4 selector of add(uint64,uint64)uint128.
    assert.equal(toHex(sha512_256Utf8('add(uint64,uint64)uint128').subarray(0, 4)), '8aa3b61f');
  });

  it('the one-shot native path gives the Hash-object and portable digests on random input', function () {
    if (!nativeOneShotAvailable()) this.skip();
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const len = round < 130 ? round : rand(2000);
      const data = Uint8Array.from({ length: len }, () => rand(256));
      for (const algorithm of ['sha512-256', 'sha256', 'sha512'] as const) {
        const got = nativeDigest(algorithm, data)!;
        assert.ok(got instanceof Uint8Array && !Buffer.isBuffer(got));
        assert.equal(toHex(got), createHash(algorithm).update(data).digest('hex'), `${algorithm} length ${len}`);
      }
      // The public functions, native and portable, agree with each other and with Node's Hash object.
      setNativeHashing(true);
      const native = [sha512_256(data), sha256(data), sha512(data), hashWithPrefix('Program', data)].map(toHex);
      setNativeHashing(false);
      assert.equal(nativeDigest('sha512-256', data), undefined);
      const portable = [sha512_256(data), sha256(data), sha512(data), hashWithPrefix('Program', data)].map(toHex);
      setNativeHashing(true);
      assert.deepEqual(native, portable, `length ${len}`);
      assert.equal(native[3], createHash('sha512-256').update('Program').update(data).digest('hex'));
    }
  });

  it('the one-shot native path hashes text as its UTF-8 bytes (non-ASCII, astral, lone surrogates)', function () {
    if (!nativeOneShotAvailable()) this.skip();
    const texts = ['', 'abc', 'caf\u00e9(uint64)void', '\u{1f600}', 'x\ud800y', '\udc00', 'é'.repeat(200), 'm(uint64)bool'.repeat(20)];
    for (let i = 0; i < 200; i++) {
      let t = '';
      for (let j = 0; j < (i * 7) % 150; j++) t += String.fromCharCode((i * 131 + j * 977) % 0xffff);
      texts.push(t);
    }
    for (const text of texts) {
      const want = toHex(nobleSha512_256(utf8(text)));
      assert.equal(toHex(nativeDigest('sha512-256', text)!), want, JSON.stringify(text));
      setNativeHashing(true);
      assert.equal(toHex(sha512_256Utf8(text)), want);
      setNativeHashing(false);
      assert.equal(toHex(sha512_256Utf8(text)), want);
      setNativeHashing(true);
    }
  });

  it('address checksums are the same with and without the one-shot native hash', () => {
    for (let i = 0; i < 200; i++) {
      const key = Uint8Array.from({ length: 32 }, (_, j) => (i * 37 + j * 101 + (i >> 3) * j) & 0xff);
      setNativeOneShotHashing(true);
      const a = encodeAddress(key);
      setNativeOneShotHashing(false);
      const b = encodeAddress(key);
      assert.equal(a, b);
      assert.deepEqual(decodeAddress(a), key);
      setNativeOneShotHashing(true);
      assert.deepEqual(decodeAddress(b), key);
    }
  });
});
