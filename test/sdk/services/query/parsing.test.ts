import { strict as assert } from 'node:assert';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toBase32 } from '../../../../sdk/src/encoding/base32.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { BoxNameError, decodeRoundToken, decodeTxnToken, encodeRoundToken, encodeTxnToken, parseBoxName } from '../../../../sdk/src/services/query/index.js';
import { History } from '../../../../sdk/src/services/query/index.js';
import { QueryParams } from '../../../../sdk/src/services/query/params.js';

describe('query service: parameter grammar, tokens, history', () => {
  it('parses box names in every encoding of the grammar', () => {
    const key = new Uint8Array(32).fill(5);
    assert.deepEqual(parseBoxName('str:hello'), utf8('hello'));
    assert.deepEqual(parseBoxName('string:a:b'), utf8('a:b'));
    assert.deepEqual(parseBoxName('int:258'), new Uint8Array([0, 0, 0, 0, 0, 0, 1, 2]));
    assert.deepEqual(parseBoxName('integer:18446744073709551615'), new Uint8Array(8).fill(255));
    assert.deepEqual(parseBoxName(`addr:${new Address(key).toString()}`), key);
    assert.deepEqual(parseBoxName('b64:AQI='), new Uint8Array([1, 2]));
    assert.deepEqual(parseBoxName('base64:AQI='), new Uint8Array([1, 2]));
    assert.deepEqual(parseBoxName(`b32:${toBase32(new Uint8Array([1, 2, 3, 4, 5]), true)}`), new Uint8Array([1, 2, 3, 4, 5]));
    assert.deepEqual(parseBoxName('str:'), new Uint8Array(0));
    for (const [bad, re] of [
      ['hello', /encoding:value/],
      ['int:-1', /Could not parse uint64/],
      ['int:18446744073709551616', /Could not parse uint64/],
      ['addr:NOTANADDRESS', /Could not unmarshal checksummed address/],
      ['b64:AQI', /base64/],
      ['b32:AE', /base32/],
      ['hex:00', /Unknown encoding: hex/],
      ['abi:uint64:1', /abi/],
    ] as const) {
      assert.throws(
        () => parseBoxName(bad),
        (e: unknown) => e instanceof BoxNameError && re.test(e.message),
        bad,
      );
    }
  });

  it('encodes tokens as base64url little-endian positions and refuses malformed ones', () => {
    const t = encodeTxnToken({ round: 258n, intra: 3 });
    assert.equal(t.length, 16);
    assert.equal(t, 'AgEAAAAAAAADAAAA');
    assert.deepEqual(decodeTxnToken(t), { round: 258n, intra: 3 });
    assert.throws(() => decodeTxnToken('AgEA'), /unable to parse next token/);
    assert.throws(() => decodeTxnToken('!!!!'), /unable to parse next token/);
    const r = encodeRoundToken(7n);
    assert.equal(r, 'BwAAAAAAAAA=');
    assert.equal(decodeRoundToken(r), 7n);
    assert.throws(() => decodeRoundToken(t), /unable to parse next token/);
  });

  it('reads typed parameters with the reference error texts and clamps limits', () => {
    const p = (s: string) => new QueryParams(new URLSearchParams(s));
    assert.equal(p('limit=5').limit('accounts'), 5);
    assert.equal(p('limit=5000').limit('accounts'), 1000);
    assert.equal(p('limit=0').limit('transactions'), 1000);
    assert.equal(p('').limit('boxes'), 1000);
    assert.throws(
      () => p('limit=-1').limit('accounts'),
      (e: Error) => /^Invalid format for parameter limit: /.test(e.message),
    );
    assert.equal(p('x=True').bool('x'), true);
    assert.equal(p('x=0').bool('x'), false);
    assert.throws(() => p('x=yes').bool('x'), /Invalid format for parameter x/);
    assert.equal(p('t=2024-01-01T00:00:00Z').time('t'), 1704067200);
    assert.equal(p('t=2024-01-01T01:00:00%2B01:00').time('t'), 1704067200);
    assert.throws(() => p('t=2024-01-01').time('t'), /Invalid format for parameter t/);
    assert.throws(() => p('r=9223372036854775808').uint('r'), /greater than 9223372036854775807 is not supported/);
    assert.deepEqual(p('e=assets,created-apps&e=none').list('e'), ['assets', 'created-apps', 'none']);
  });

  it('History answers as of a round, and remembers deletion', () => {
    const h = new History<string>();
    assert.equal(h.at(), undefined);
    h.set(3n, 'a');
    h.set(5n, 'b');
    h.set(5n, 'c');
    h.set(9n, undefined);
    assert.equal(h.at(2n), undefined);
    assert.equal(h.at(3n), 'a');
    assert.equal(h.at(4n), 'a');
    assert.equal(h.at(5n), 'c');
    assert.equal(h.at(8n), 'c');
    assert.equal(h.at(9n), undefined);
    assert.equal(h.at(), undefined);
    assert.equal(h.existedBy(2n), false);
    assert.equal(h.existedBy(3n), true);
  });
});
