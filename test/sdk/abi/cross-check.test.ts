import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { AbiMethod, parseAbiType, type AbiValue } from '../../../sdk/src/abi/index.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { Gen, normalize, prng } from './random.js';

describe('abi: randomized cross-check against algosdk', () => {
  it('1,000 random types and values encode to the same bytes and decode to the same values', () => {
    const gen = new Gen(prng(20241121));
    let checked = 0;
    let zeroSized = 0;
    for (let i = 0; i < 1000; i++) {
      const type = gen.type();
      const text = type.toString();
      // Round trip through our own parser and printer.
      const parsed = parseAbiType(text);
      assert.equal(parsed.toString(), text);
      const theirs = algosdk.ABIType.from(text);
      assert.equal(theirs.toString(), text);
      assert.equal(parsed.dynamic, theirs.isDynamic(), `dynamic flag of ${text}`);
      if (!parsed.dynamic) assert.equal(parsed.staticSize, theirs.byteLen(), `byteLen of ${text}`);
      const value = gen.value(parsed);
      const ours = parsed.encode(value);
      const peer = theirs.encode(value as algosdk.ABIValue);
      assert.equal(toHex(ours), toHex(peer), `encoding of ${text}`);
      const decoded = parsed.decode(ours);
      // algosdk cannot decode sequences containing zero-size static elements (`()`, `T[0]`):
      // it reports "input byte not enough". For those we compare encodings and our round trip.
      if (/\(\)|\[0\]/.test(text)) zeroSized++;
      else assert.deepEqual(normalize(decoded), normalize(theirs.decode(peer)), `decoding of ${text}`);
      assert.deepEqual(normalize(decoded), normalize(value), `round trip of ${text}`);
      assert.equal(toHex(parsed.encode(decoded)), toHex(ours), `re-encoding of ${text}`);
      checked++;
    }
    assert.equal(checked, 1000);
    assert.ok(zeroSized < 300, `${zeroSized} types skipped algosdk decoding`);
  });

  it('method signatures, selectors and txn counts match algosdk for random methods', () => {
    const gen = new Gen(prng(4242));
    const extras = ['account', 'asset', 'application', 'txn', 'pay', 'axfer', 'appl'];
    for (let i = 0; i < 200; i++) {
      const args = Array.from({ length: gen.int(0, 18) }, () => (gen.rand() < 0.2 ? gen.pick(extras) : gen.type(1).toString()));
      const ret = gen.rand() < 0.3 ? 'void' : gen.type(1).toString();
      const signature = `m${i}(${args.join(',')})${ret}`;
      const ours = AbiMethod.fromSignature(signature);
      const theirs = algosdk.ABIMethod.fromSignature(signature);
      assert.equal(ours.signature, theirs.getSignature());
      assert.equal(toHex(ours.selector), toHex(theirs.getSelector()));
      assert.equal(ours.txnCount, theirs.txnCount());
      assert.deepEqual(JSON.parse(JSON.stringify(ours.toJson())), JSON.parse(JSON.stringify(theirs.toJSON())));
    }
  });

  it('decodes algosdk-encoded values of every scalar at the edges', () => {
    const cases: Array<[string, AbiValue]> = [
      ['uint8', 255n],
      ['uint512', (1n << 512n) - 1n],
      ['ufixed64x2', 12345n],
      ['uint64', 2n ** 64n - 1n],
      ['bool[9]', [true, false, false, false, false, false, false, true, true]],
      ['(bool,uint8,bool,bool)', [true, 1n, false, true]],
      ['string[]', ['', 'x', '']],
      ['(uint64,address)[0]', []],
    ];
    for (const [text, value] of cases) {
      const bytes = algosdk.ABIType.from(text).encode(value as algosdk.ABIValue);
      assert.deepEqual(normalize(parseAbiType(text).decode(bytes)), normalize(value), text);
    }
  });
});
