// Hand-written ABI TEAL without an ARC-56 spec: the typed form offers the methods its
// `method "…"` lines route, and calls them with the right selector and encoding.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import algosdk from 'algosdk';
import { buildGroup, formMethods } from '../../../extension/src/contracts/groupForm.js';
import { methodInfo } from '../../../extension/src/contracts/argForm.js';
import { parseArc56 } from '../../../sdk/src/abi/index.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const params = { fee: 0n, minFee: 1000n, firstValid: 10n, lastValid: 1010n, genesisId: 'devnet-v1', genesisHash: new Uint8Array(32).fill(7) };

describe('extension contracts: typed form methods of TEAL without a spec', () => {
  const teal = readFileSync(resolve(repoRoot, 'extension/sample/approval.teal'), 'utf8');

  it('lists the methods of the method lines (the ARC-28 event left out), with typed argument info', () => {
    const listed = formMethods(undefined, teal);
    assert.deepEqual(
      listed.map((m) => m.method.signature),
      ['increment(uint64)uint64', 'get_count()uint64'],
    );
    const info = methodInfo(listed[0]!.method, listed[0]!.arc56);
    assert.equal(info.args.length, 1);
    assert.equal(info.args[0]!.type, 'uint64');
  });

  it('prefers the spec when there is one', () => {
    const spec = parseArc56(readFileSync(resolve(repoRoot, 'extension/sample/counter.arc56.json'), 'utf8'));
    const listed = formMethods(spec, teal);
    assert.ok(listed.every((m) => m.arc56 !== undefined));
    assert.deepEqual(listed.map((m) => m.method.signature).sort(), spec.methods.map((m) => m.method.signature).sort());
  });

  it('a listed method is called with its selector and ABI-encoded arguments, no spec needed', () => {
    const [m] = formMethods(undefined, teal);
    const [c] = buildGroup([{ kind: 'appcall', sender: A, appId: '1001', method: m!.method.signature, args: ['5'] }], { params, specFor: () => undefined });
    const args = c!.txn.appCall!.args;
    assert.equal(toHex(args[0]!), toHex(algosdk.ABIMethod.fromSignature('increment(uint64)uint64').getSelector()));
    assert.equal(toHex(args[1]!), '0000000000000005');
  });
});
