// The in-process chain's send decodes each signed transaction on its own instead of writing a
// simulate request body and reading it back: for any bytes, what it does must be what the route
// does with the body (the same request, or the same error).
import assert from 'node:assert/strict';
import { simulateRequestOfSigned, decodeSimulateRequest } from '../../../../sdk/src/services/node/simulate-wire.js';
import { simulateRequestBody } from '../../../../sdk/src/adapters/node/adapter.js';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { concatBytes } from '../../../../sdk/src/encoding/bytes.js';
import { encodeMsgpack } from '../../../../sdk/src/encoding/msgpack.js';
import { makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { signTransactionToBytes } from '../../../../sdk/src/txn/sign.js';

function outcome(f: () => unknown): unknown {
  try {
    return { request: f() };
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
}

describe('services/node: a committing send decodes its transactions as the simulate route would', () => {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(3));
  const other = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(4));
  const sp = { fee: 1000n, flatFee: true, firstValid: 1n, lastValid: 100n, genesisId: 'x', genesisHash: new Uint8Array(32).fill(1) };
  const pay = (n: number, signer = key) =>
    signTransactionToBytes(
      makePaymentTxn({ sender: new Address(key.publicKey), receiver: new Address(other.publicKey), amount: BigInt(n), suggestedParams: sp }),
      signer,
    ).blob;
  const [a, b, c] = [pay(1), pay(2), pay(3, other)];

  const cases: Record<string, Uint8Array[]> = {
    'one transaction': [a],
    'three, one rekeyed': [a, b, c],
    'two in one element': [concatBytes(a, b)],
    'an empty element': [a, new Uint8Array(0)],
    'a truncated element': [a.subarray(0, a.length - 5), b],
    'trailing bytes': [concatBytes(a, Uint8Array.of(0xc0))],
    'not a transaction (a number)': [encodeMsgpack(7)],
    'a map that is not a transaction': [encodeMsgpack({ txn: 5 })],
    'not msgpack': [Uint8Array.of(0xc1)],
    'no transaction': [],
  };

  for (const [name, signed] of Object.entries(cases)) {
    for (const execTrace of [false, true]) {
      it(`${name}${execTrace ? ', with a trace' : ''}`, () => {
        const route = outcome(() => decodeSimulateRequest(simulateRequestBody(signed, execTrace ? { execTrace: true } : {})));
        const direct = outcome(
          () => simulateRequestOfSigned(signed, execTrace) ?? decodeSimulateRequest(simulateRequestBody(signed, execTrace ? { execTrace: true } : {})),
        );
        assert.deepEqual(direct, route);
      });
    }
  }

  it('well-formed transactions take the direct way', () => {
    assert.ok(simulateRequestOfSigned([a, b, c], true));
    assert.equal(simulateRequestOfSigned([concatBytes(a, b)], false), undefined);
  });
});
