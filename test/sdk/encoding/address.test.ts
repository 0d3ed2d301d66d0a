import assert from 'node:assert/strict';
import { Address, decodeAddress, encodeAddress, ZERO_ADDRESS_STRING } from '../../../sdk/src/encoding/address.js';
import { fromBase64, toBase64, fromBase64Lenient } from '../../../sdk/src/encoding/base64.js';
import { fromBase32, toBase32 } from '../../../sdk/src/encoding/base32.js';
import { fromHex, toHex } from '../../../sdk/src/encoding/hex.js';
import { ValidationError } from '../../../sdk/src/errors.js';

describe('encoding: addresses', () => {
  it('round-trips the zero address', () => {
    assert.equal(encodeAddress(new Uint8Array(32)), ZERO_ADDRESS_STRING);
    assert.deepEqual(decodeAddress(ZERO_ADDRESS_STRING), new Uint8Array(32));
  });

  it('derives the application address of app 77 (protocol.md §3.7)', () => {
    assert.equal(Address.forApp(77).toString(), 'PCYUFPA2ZTOYWTP43MX2MOX2OWAIAXUDNC2WFCXAGMRUZ3DYD6BWFDL5YM');
  });

  it('rejects a bad checksum with a specific message', () => {
    const good = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
    decodeAddress(good);
    const bad = good.slice(0, -1) + 'A';
    assert.throws(
      () => decodeAddress(bad),
      (e: unknown) => e instanceof ValidationError && /checksum/.test(e.message),
    );
    assert.throws(() => decodeAddress('SHORT'), /58 characters/);
    // Still refused when asked again (a refusal is not remembered as an answer).
    assert.throws(() => decodeAddress(bad), /checksum/);
  });

  it('conversions remembered from earlier calls give fresh, right answers', () => {
    // Both directions are cached: a changed key gives its own address, and a caller that changes
    // the key it was given changes nothing for the next caller.
    const key = new Uint8Array(32).fill(7);
    const text = encodeAddress(key);
    assert.equal(encodeAddress(key), text);
    const a = new Address(key);
    assert.equal(a.toString(), text);
    key[0] = 8;
    assert.notEqual(a.toString(), text, 'the same Address object with changed bytes');
    assert.deepEqual(decodeAddress(a.toString()), key, 'its own address: checksum and all');
    const first = decodeAddress(text);
    first.fill(0);
    assert.deepEqual(decodeAddress(text), new Uint8Array(32).fill(7));
    assert.notEqual(decodeAddress(text), decodeAddress(text), 'each caller gets its own bytes');
    // Input that is not bytes never reaches the cache: a later caller with real bytes is not misled.
    try {
      encodeAddress(new Uint16Array(32).fill(9) as unknown as Uint8Array);
    } catch {
      // Whatever it gives, it is not remembered.
    }
    assert.deepEqual(decodeAddress(encodeAddress(new Uint8Array(32).fill(9))), new Uint8Array(32).fill(9));
    // A Node Buffer changed after it was converted gives its new address (its own slice is a view).
    const buf = Buffer.alloc(32, 1);
    const first1 = encodeAddress(buf);
    buf.fill(2);
    assert.equal(encodeAddress(buf), encodeAddress(new Uint8Array(32).fill(2)));
    assert.equal(encodeAddress(new Uint8Array(32).fill(1)), first1);
    // Many distinct keys (more than the caches hold) still convert both ways.
    for (let i = 0; i < 3000; i++) {
      const k = new Uint8Array(32);
      new DataView(k.buffer).setUint32(0, i);
      assert.deepEqual(decodeAddress(encodeAddress(k)), k);
    }
  });
});

describe('encoding: base64/base32/hex', () => {
  it('round-trips random bytes', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 0xff);
      assert.deepEqual(fromBase64(toBase64(bytes)), bytes);
      assert.equal(toBase64(bytes), btoa(String.fromCharCode(...bytes)));
      assert.deepEqual(fromBase32(toBase32(bytes)), bytes);
      assert.deepEqual(fromBase32(toBase32(bytes, true), { padding: 'required' }), bytes);
      assert.deepEqual(fromHex(toHex(bytes)), bytes);
    }
  });

  it('reports the offending character', () => {
    assert.throws(() => fromBase64('ab!d'), /illegal character "!" at index 2/);
    assert.throws(() => fromHex('0g'), /invalid hex character "g" at index 1/);
    assert.deepEqual(fromBase64Lenient('-_8'), fromBase64('+/8='));
  });
});
