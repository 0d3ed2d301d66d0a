import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import {
  abiCreateMethods,
  callNotice,
  createOnComplete,
  buildGroup,
  FormError,
  parseAbiArgText,
  parseRawArg,
  parseUint,
  withTransactionArgRows,
} from '../../../extension/src/contracts/groupForm.js';
import { methodInfo } from '../../../extension/src/contracts/argForm.js';
import { AbiMethod, parseArc56 } from '../../../sdk/src/abi/index.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUYA = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/data/fixtures/puya-examples');
const puyaSpec = (dir: string, name: string) => parseArc56(readFileSync(resolve(PUYA, dir, 'out', `${name}.arc56.json`), 'utf8'));
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
      programFor: (s) =>
        s === 'counter/approval.teal' ? { approval, clear, extraPages: 0, schema: { globalInts: 1, globalBytes: 1, localInts: 0, localBytes: 0 } } : undefined,
    });
    assert.equal(c!.source, 'counter/approval.teal');
    assert.equal(c!.txn.appCall!.appId, 0n);
    assert.deepEqual(c!.txn.appCall!.approvalProgram, approval);
    assert.deepEqual(c!.txn.appCall!.globalSchema, { numUints: 1, numByteSlices: 1 });
  });

  it('encodes an ABI method call like algosdk (selector and uint64 arguments)', () => {
    const [c] = buildGroup([{ kind: 'appcall', sender: A, appId: '1001', method: 'add(uint64,uint64)uint64', args: ['7', '18446744073709551615'] }], {
      params,
    });
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
      [
        [
          { kind: 'payment', sender: A, receiver: B, amount: '1' },
          { kind: 'payment', sender: 'x', receiver: B },
        ],
        1,
        'sender',
      ],
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

  describe('transaction arguments (ARC-4: the rows right above the call)', () => {
    const deposit = AbiMethod.fromSignature('deposit(pay,uint64)uint64');
    const swap = AbiMethod.fromSignature('swap(axfer,pay,asset)void');

    it('inserts a payment row above the call, paid to the app address, by the call sender', () => {
      const rows = withTransactionArgRows([{ kind: 'appcall', sender: A, appId: '7', method: deposit.signature, args: ['5'] }], 0, deposit, B);
      assert.deepEqual(
        rows.map((r) => r.kind),
        ['payment', 'appcall'],
      );
      assert.equal(rows[0]!.receiver, B);
      assert.equal(rows[0]!.sender, A);
      // Rows that already fit are kept as they are.
      assert.equal(withTransactionArgRows(rows, 1, deposit, B).length, 2);
      const two = withTransactionArgRows([{ kind: 'appcall', sender: A, appId: '7', method: swap.signature }], 0, swap, B);
      assert.deepEqual(
        two.map((r) => r.kind),
        ['assetTransfer', 'payment', 'appcall'],
      );
    });

    it('builds the call without the transaction arguments in its app args, exactly as algosdk encodes it', () => {
      const built = buildGroup(
        [
          { kind: 'payment', sender: A, receiver: B, amount: '1000' },
          { kind: 'appcall', sender: A, appId: '7', method: deposit.signature, args: ['5'] },
        ],
        { params },
      );
      const m = algosdk.ABIMethod.fromSignature('deposit(pay,uint64)uint64');
      const args = built[1]!.txn.appCall!.args;
      assert.equal(args.length, 2);
      assert.equal(toHex(args[0]!), toHex(m.getSelector()));
      assert.equal(toHex(args[1]!), '0000000000000005');
      assert.ok(built[1]!.method);
      assert.equal(built[0]!.txn.payment!.amount, 1000n);
    });

    it('says which row is missing or of the wrong kind', () => {
      assert.throws(
        () => buildGroup([{ kind: 'appcall', sender: A, appId: '7', method: deposit.signature, args: ['5'] }], { params }),
        (e: unknown) =>
          e instanceof FormError &&
          e.index === 0 &&
          e.field === 'method' &&
          /takes a transaction argument \(pay\): it is the row right above the call/.test(e.message),
      );
      assert.throws(
        () =>
          buildGroup(
            [
              { kind: 'assetTransfer', sender: A, receiver: B, amount: '1', assetId: '9' },
              { kind: 'appcall', sender: A, appId: '7', method: deposit.signature, args: ['5'] },
            ],
            { params },
          ),
        (e: unknown) =>
          e instanceof FormError &&
          e.index === 0 &&
          e.field === 'kind' &&
          /txn 0 is argument 0 of deposit in txn 1: expected a payment \(pay\), got an asset transfer/.test(e.message),
      );
    });

    it('lists the transaction arguments in the form description, with the row kind each becomes', () => {
      const info = methodInfo(swap);
      assert.deepEqual(
        info.transactionArgs.map((a) => [a.type, a.rowKind]),
        [
          ['axfer', 'assetTransfer'],
          ['pay', 'payment'],
        ],
      );
      assert.deepEqual(
        info.args.map((a) => a.type),
        ['asset'],
      );
    });
  });

  it('finds the ABI create method of Puya apps that allow no bare create', () => {
    const ttt = puyaSpec('tictactoe', 'TicTacToeContract');
    assert.deepEqual(
      abiCreateMethods(ttt).map((m) => m.method.signature),
      ['new_game((uint64,uint64))void'],
    );
    assert.equal(createOnComplete(abiCreateMethods(ttt)[0]!), 'NoOp');
    assert.deepEqual(
      abiCreateMethods(puyaSpec('merkle', 'MerkleTree')).map((m) => m.method.name),
      ['create'],
    );
    assert.deepEqual(abiCreateMethods(puyaSpec('hello_world_arc4', 'HelloWorldContract')), []);
    // The create row encodes the method call like any other.
    const spec = puyaSpec('tictactoe', 'TicTacToeContract');
    const approval = assemble('#pragma version 10\nint 1\n').program;
    const [c] = buildGroup([{ kind: 'appcall', sender: A, appId: '0', source: 'ttt.teal', method: 'new_game((uint64,uint64))void', args: ['[1, 2]'] }], {
      params,
      programFor: () => ({ approval, clear: approval, extraPages: 0, schema: { globalInts: 0, globalBytes: 0, localInts: 0, localBytes: 0 } }),
      specFor: () => spec,
    });
    assert.equal(toHex(c!.txn.appCall!.args[1]!), '00000000000000010000000000000002');
  });

  it('Call app N on an app without a spec says what to type instead of running a bare call', () => {
    assert.equal(
      callNotice(1005n, 'vault/approval.teal'),
      'App 1005 has no ARC-56 spec beside vault/approval.teal, so its methods are unknown: type its arguments (int:5, 0x01ff, b64:…, addr:…, text; none for a bare call), then Simulate.',
    );
    assert.match(callNotice(7n), /^App 7 has no source or ARC-56 spec linked here/);
  });
});
