import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AbiEvent, decodeEventLogs, AbiDecodeError } from '../../../sdk/src/abi/index.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

describe('abi: ARC-28 events', () => {
  it('selector is sha512_256("name(types)")[0:4]', () => {
    const event = new AbiEvent({
      name: 'Transfer',
      args: [
        { type: 'address', name: 'from' },
        { type: 'address', name: 'to' },
        { type: 'uint64', name: 'amount' },
      ],
    });
    assert.equal(event.signature, 'Transfer(address,address,uint64)');
    const expected = createHash('sha512-256').update('Transfer(address,address,uint64)').digest('hex').slice(0, 8);
    assert.equal(event.selectorHex, expected);
    assert.equal(AbiEvent.fromSignature('Transfer(address,address,uint64)').selectorHex, expected);
  });

  it('decodes event logs and skips other logs', () => {
    const a = new AbiEvent({
      name: 'A',
      args: [
        { type: 'uint64', name: 'n' },
        { type: 'string', name: 's' },
      ],
    });
    const b = AbiEvent.fromSignature('B(bool[2])');
    const logs = [a.encodeLog([5n, 'x']), utf8('hello'), b.encodeLog([[true, false]])];
    const decoded = decodeEventLogs([a, b], logs);
    assert.equal(decoded.length, 2);
    assert.deepEqual(decoded[0]!.args, [5n, 'x']);
    assert.deepEqual(decoded[0]!.named, { n: 5n, s: 'x' });
    assert.deepEqual(decoded[1]!.args, [[true, false]]);
    assert.equal(toHex(logs[2]!.subarray(4)), '80');
  });

  it('rejects a log with the right selector but a broken body', () => {
    const a = AbiEvent.fromSignature('A(uint64)');
    const log = new Uint8Array([...a.selector, 1, 2]);
    assert.throws(
      () => decodeEventLogs([a], [log]),
      (e: unknown) => e instanceof AbiDecodeError && /need at least 8 bytes, got 2/.test(e.message),
    );
  });
});
