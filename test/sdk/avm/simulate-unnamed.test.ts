import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../sdk/src/txn/builders.js';
import { simulate } from '../../../sdk/src/ledger/index.js';
import { devnet, teal, type Devnet } from '../ledger/fixture.js';

type O = Record<string, any>;

// The ledger's simulate is where the interpreter's unnamed-resource records surface; the shape
// follows the node: `txn-results[i].unnamed-resources-accessed` for what transaction i must name
// itself (programs without group sharing), the group's object for the rest.
function create(d: Devnet, version: number, body: string): bigint {
  const src = `#pragma version ${version}\n${body}`;
  const r = d.send([
    makeAppCallTxn({
      sender: d.addr(0),
      appId: 0n,
      approvalProgram: teal(src),
      clearProgram: teal(`#pragma version ${version}\nint 1`),
      suggestedParams: d.sp(),
    }),
  ]);
  return d.ledger.transaction(r.txids[0]!)!.ad.createdAppId!;
}

const stranger = new Address(new Uint8Array(32).fill(77));
const body = `txn ApplicationID\nbz done\naddr ${stranger.toString()}\nbalance\npop\nbyte "bx"\nint 3000\nbox_create\npop\ndone:\nint 1`;

describe('ledger simulate: unnamed resources per transaction and extra box refs', () => {
  for (const version of [8, 9]) {
    it(`v${version}: accounts go to ${version < 9 ? 'the transaction' : 'the group'}, boxes and extra refs to the group`, () => {
      const d = devnet();
      const id = create(d, version, body);
      // The box's minimum balance comes from the app account.
      d.send([makePaymentTxn({ sender: d.addr(0), receiver: Address.forApp(id), amount: 10_000_000n, suggestedParams: d.sp() })]);
      const t = makeAppCallTxn({ sender: d.addr(1), appId: id, suggestedParams: d.sp() });
      const res = simulate(d.ledger, { 'txn-groups': [{ txns: [d.sign(t)] }], 'allow-unnamed-resources': true }) as O;
      const g = res['txn-groups'][0];
      assert.equal(g['failure-message'], undefined, g['failure-message']);
      const own = g['txn-results'][0]['unnamed-resources-accessed'];
      const shared = g['unnamed-resources-accessed'];
      if (version < 9) assert.deepEqual(own, { accounts: [stranger.toString()] });
      else assert.equal(own, undefined);
      assert.deepEqual(shared, {
        ...(version >= 9 ? { accounts: [stranger.toString()] } : {}),
        boxes: [{ app: id, name: new TextEncoder().encode('bx') }],
        'extra-box-refs': 1,
      });
    });
  }
});
