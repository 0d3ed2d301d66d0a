import assert from 'node:assert/strict';
import { GroupComposer, LogicSigSigner, resourcesInMessage } from '../../../sdk/src/app/composer.js';
import type { AppChain } from '../../../sdk/src/app/chain.js';
import {
  makeAppCallTxn,
  makePaymentTxn,
  makeLogicSig,
  decodeSignedTransaction,
  logicSigAddress,
  decodeSignedTransactions,
} from '../../../sdk/src/txn/index.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';

const A = Address.fromString('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ');
const sender = new Address(new Uint8Array(32).fill(7)).toString();
const other = new Address(new Uint8Array(32).fill(9)).toString();
const sp = { fee: 0n, minFee: 1000n, firstValid: 1n, lastValid: 100n, genesisId: 'x', genesisHash: new Uint8Array(32).fill(1) };

/** A node that answers simulate with a canned response and records what it was sent. */
function fakeChain(responses: unknown[]): AppChain & { sent: Uint8Array[][]; options: unknown[] } {
  const sent: Uint8Array[][] = [];
  const options: unknown[] = [];
  let i = 0;
  const node = {
    kind: 'node-service',
    async suggestedParams() {
      return { feePerByte: 0n, minFee: 1000n, lastRound: 1n, genesisId: 'x', genesisHash: new Uint8Array(32).fill(1), consensusVersion: 'v' };
    },
    async simulate(signed: Uint8Array[], opts: unknown) {
      sent.push(signed);
      options.push(opts);
      const raw = responses[Math.min(i++, responses.length - 1)];
      return { wouldSucceed: true, failedAt: [], txns: [], raw };
    },
  };
  return { node: node as never, sent, options };
}

function appCall(appId = 5n) {
  return makeAppCallTxn({ sender, appId, suggestedParams: sp, args: [utf8('go')] });
}

describe('app/composer', () => {
  it('reads missing resources out of failure messages', () => {
    const u = resourcesInMessage('logic eval error: invalid Box reference 0x633a01. Details: app=1001, pc=138')!;
    assert.equal(u.boxes.length, 1);
    assert.equal(u.boxes[0]!.app, 1001n);
    assert.deepEqual([...u.boxes[0]!.name], [0x63, 0x3a, 0x01]);
    assert.deepEqual(resourcesInMessage(`unavailable Account ${other}, app=3`)!.accounts, [other]);
    assert.deepEqual(resourcesInMessage('unavailable App 77')!.apps, [77n]);
    assert.equal(resourcesInMessage('assert failed pc=4'), undefined);
  });

  it('raises an app call fee by what its inner transactions left unpaid', async () => {
    const inner = (fee: number) => ({ txn: { txn: { type: 'pay', fee } } });
    const chain = fakeChain([
      { 'txn-groups': [{ 'txn-results': [{ 'txn-result': { 'inner-txns': [inner(0), { ...inner(0), 'inner-txns': [inner(0)] }, inner(1000)] } }] }] },
    ]);
    const c = new GroupComposer(chain).add(appCall());
    const before = c.entries[0]!.txn.fee;
    await c.prepare({ coverInnerFees: true });
    assert.equal(c.entries[0]!.txn.fee, before + 3000n, 'three inner transactions paid nothing');
    // The probe overpaid so that the inner transactions could run at all.
    const probe = decodeSignedTransaction(chain.sent[0]![0]!);
    assert.ok(probe.txn.fee > before + 3000n);
  });

  it('adds the references simulate reports as unnamed, per transaction and group-wide', async () => {
    const box = toBase64(utf8('c:x'));
    const chain = fakeChain([
      {
        'txn-groups': [
          {
            'unnamed-resources-accessed': { apps: [42], accounts: [other] },
            'txn-results': [{ 'txn-result': {} }, { 'txn-result': {}, 'unnamed-resources-accessed': { boxes: [{ app: 5, name: box }], assets: [9] } }],
          },
        ],
      },
      { 'txn-groups': [{ 'txn-results': [{ 'txn-result': {} }, { 'txn-result': {} }] }] },
    ]);
    const c = new GroupComposer(chain).add(makePaymentTxn({ sender, receiver: A, amount: 1n, suggestedParams: sp })).add(appCall());
    await c.prepare({ populateResources: true });
    const call = c.entries[1]!.txn.appCall!;
    assert.deepEqual(call.foreignApps, [42n]);
    assert.deepEqual(call.foreignAssets, [9n]);
    assert.deepEqual(call.accounts.map(String), [other]);
    assert.equal(call.boxes.length, 1);
    assert.equal(call.boxes[0]!.appId, 0n, 'a box of the called app is referenced as app 0');
    assert.deepEqual((chain.options[0] as { allowUnnamedResources: boolean }).allowUnnamedResources, true);
  });

  it('signs and simulates a logic-signature sender with its program', async () => {
    const program = Uint8Array.of(0x0a, 0x81, 0x01);
    const escrow = logicSigAddress(program).toString();
    const signer = new LogicSigSigner(makeLogicSig(program));
    const chain = fakeChain([{ 'txn-groups': [{ 'txn-results': [{ 'txn-result': {} }] }] }]);
    const c = new GroupComposer(chain, (a) => (a === escrow ? signer : undefined)).add(
      makePaymentTxn({ sender: escrow, receiver: A, amount: 1n, suggestedParams: sp }),
    );
    await c.simulate();
    const simulated = decodeSignedTransactions(chain.sent[0]![0]!)[0]!;
    assert.deepEqual([...simulated.lsig!.program], [...program]);
    const { signed } = await c.sign();
    assert.deepEqual([...decodeSignedTransaction(signed[0]!).lsig!.program], [...program]);
  });

  it('groups transactions before signing and refuses a sender without a key', async () => {
    const c = new GroupComposer(fakeChain([])).add(makePaymentTxn({ sender, receiver: A, amount: 1n, suggestedParams: sp })).add(appCall());
    await assert.rejects(c.sign(), /no key to sign transaction 0/);
  });
});
