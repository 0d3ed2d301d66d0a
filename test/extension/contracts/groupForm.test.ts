import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { buildGroup, FormError, parseAbiArgText, parseRawArg, parseUint } from '../../../extension/src/contracts/groupForm.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { encodeTransaction } from '../../../sdk/src/txn/encode.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const B = 'OKSDOCOXVGMBXQ5TP5YA4VWTZWZJLJP3OMIILPHMHGHURUFE2Q3JP62QNU';
const genesisHash = new Uint8Array(32).fill(7);
const params = { fee: 0n, minFee: 1000n, firstValid: 10n, lastValid: 1010n, genesisId: 'devnet-v1', genesisHash };
const algoParams = { fee: 1000, flatFee: true, minFee: 1000, firstValid: 10, lastValid: 1010, genesisID: 'devnet-v1', genesisHash };

describe('extension contracts: group building from the panel form', () => {
  it('builds a payment byte-identical to algosdk', () => {
    const [p] = buildGroup([{ kind: 'payment', sender: A, receiver: B, amount: '1500000' }], { params });
    const ref = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: A, receiver: B, amount: 1_500_000, suggestedParams: algoParams });
    assert.equal(toHex(encodeTransaction(p!.txn)), toHex(ref.toByte()));
  });

  it('builds an app create from the program the context supplies, with its schema', () => {
    const approval = assemble('#pragma version 10\nint 1\n').program;
    const clear = assemble('#pragma version 10\nint 1\n').program;
    const [c] = buildGroup([{ kind: 'appcall', sender: A, appId: '0', source: 'counter/approval.teal' }], {
      params,
      programFor: (s) => (s === 'counter/approval.teal' ? { approval, clear, extraPages: 0, schema: { globalInts: 1, globalBytes: 1, localInts: 0, localBytes: 0 } } : undefined),
    });
    assert.equal(c!.source, 'counter/approval.teal');
    assert.equal(c!.txn.appCall!.appId, 0n);
    assert.deepEqual(c!.txn.appCall!.approvalProgram, approval);
    assert.deepEqual(c!.txn.appCall!.globalSchema, { numUints: 1, numByteSlices: 1 });
  });

  it('encodes an ABI method call like algosdk (selector and uint64 arguments)', () => {
    const [c] = buildGroup([{ kind: 'appcall', sender: A, appId: '1001', method: 'add(uint64,uint64)uint64', args: ['7', '18446744073709551615'] }], { params });
    const m = algosdk.ABIMethod.fromSignature('add(uint64,uint64)uint64');
    const args = c!.txn.appCall!.args;
    assert.equal(toHex(args[0]!), toHex(m.getSelector()));
    assert.equal(toHex(args[1]!), '0000000000000007');
    assert.equal(toHex(args[2]!), 'ffffffffffffffff');
  });

  it('parses raw arguments: int:, 0x, b64:, addr: and text', () => {
    assert.equal(toHex(parseRawArg('int:258', 0)), '0000000000000102');
    assert.equal(toHex(parseRawArg('0x01ff', 0)), '01ff');
    assert.equal(toHex(parseRawArg('b64:AQI=', 0)), '0102');
    assert.equal(toHex(parseRawArg('addr:' + A, 0)), toHex(algosdk.decodeAddress(A).publicKey));
    assert.equal(toHex(parseRawArg('hi', 0)), '6869');
  });

  it('parses typed ABI text inputs keeping big numbers exact', () => {
    assert.equal(parseAbiArgText(' 12 ', 'uint64'), '12');
    assert.equal(parseAbiArgText('true', 'bool'), true);
    assert.deepEqual(parseAbiArgText('0x0102', 'byte[]'), new Uint8Array([1, 2]));
    assert.deepEqual(parseAbiArgText('[1, 18446744073709551615]', 'uint64[]'), ['1', '18446744073709551615']);
    assert.equal(parseAbiArgText(' spaced ', 'string'), ' spaced ');
  });

  it('points at the row and field of a bad input', () => {
    const cases: Array<[Parameters<typeof buildGroup>[0], number, string]> = [
      [[{ kind: 'payment', sender: A, receiver: 'nope', amount: '1' }], 0, 'receiver'],
      [[{ kind: 'payment', sender: A, receiver: B, amount: '1' }, { kind: 'payment', sender: 'x', receiver: B }], 1, 'sender'],
      [[{ kind: 'appcall', sender: A, appId: '0' }], 0, 'source'],
      [[{ kind: 'appcall', sender: A, appId: '5', method: 'add(uint64)void', args: ['abc'] }], 0, 'args.0'],
      [[{ kind: 'assetTransfer', sender: A, receiver: B, amount: '1' }], 0, 'assetId'],
      [[], 0, 'group'],
    ];
    for (const [rows, index, field] of cases) {
      assert.throws(
        () => buildGroup(rows, { params }),
        (e: unknown) => e instanceof FormError && e.index === index && e.field === field,
        `${JSON.stringify(rows)} → ${field}`,
      );
    }
    assert.throws(() => parseUint('18446744073709551616', 0, 'amount'), /larger than 2\^64-1/);
  });
});
