import assert from 'node:assert/strict';
import { AbiDecodeError, type AbiValue } from '../../../sdk/src/abi/index.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { Gen, prng } from './random.js';

function hasReplacementChar(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\uFFFD');
  if (Array.isArray(value)) return value.some(hasReplacementChar);
  return false;
}

describe('abi: decoding damaged bytes', () => {
  it('either throws AbiDecodeError or returns a value that re-encodes to exactly the input', () => {
    const gen = new Gen(prng(99));
    let accepted = 0;
    let rejected = 0;
    for (let i = 0; i < 1500; i++) {
      const type = gen.type();
      const good = type.encode(gen.value(type));
      const bad = good.slice();
      const mutation = gen.int(0, 3);
      let input: Uint8Array;
      if (mutation === 0 && bad.length > 0) {
        bad[gen.int(0, bad.length - 1)] ^= 1 << gen.int(0, 7);
        input = bad;
      } else if (mutation === 1 && bad.length > 0) {
        input = bad.subarray(0, gen.int(0, bad.length - 1));
      } else if (mutation === 2) {
        input = Uint8Array.from([...bad, gen.int(0, 255)]);
      } else {
        input = gen.bytes(gen.int(0, 40));
      }
      let decoded: AbiValue;
      try {
        decoded = type.decode(input);
      } catch (e) {
        assert.ok(e instanceof AbiDecodeError, `${type.toString()} ${toHex(input)}: ${String(e)}`);
        rejected++;
        continue;
      }
      accepted++;
      if (hasReplacementChar(decoded)) continue; // invalid UTF-8 decodes leniently, like other SDKs
      assert.equal(toHex(type.encode(decoded)), toHex(input), `${type.toString()} accepted non-canonical ${toHex(input)}`);
    }
    assert.ok(accepted > 50 && rejected > 200, `accepted ${accepted}, rejected ${rejected}`);
  });
});
