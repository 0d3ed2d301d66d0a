import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { populateResources, type AppCallRefs } from '../../../sdk/src/app/populate.js';
import type { SimulateReport, UnnamedResources } from '../../../sdk/src/app/simulate-report.js';

const A = Address.forApp(1n).toString();
const B = Address.forApp(2n).toString();
const S = Address.forApp(3n).toString();
const limits = { maxAppTxnAccounts: 4, maxAppTxnForeignApps: 8, maxAppTxnForeignAssets: 8, maxAppBoxReferences: 8, maxAppTotalTxnReferences: 8 };

function call(index: number, appId: bigint, over: Partial<AppCallRefs> = {}): AppCallRefs {
  return { index, appId, sender: S, accounts: [], apps: [], assets: [], boxes: [], ...over };
}
function unnamed(over: Partial<UnnamedResources>): UnnamedResources {
  return { accounts: [], assets: [], apps: [], boxes: [], extraBoxRefs: 0, assetHoldings: [], appLocals: [], ...over };
}
function report(group?: UnnamedResources, perTxn: Array<UnnamedResources | undefined> = []): SimulateReport {
  return {
    wouldSucceed: true,
    budget: {},
    txns: perTxn.map((u, i) => ({
      path: [i],
      failed: false,
      logs: [],
      globalChanges: [],
      localChanges: [],
      boxChanges: [],
      inner: [],
      ...(u ? { unnamedResources: u } : {}),
    })),
    ...(group ? { unnamedResources: group } : {}),
  };
}

describe('app/populate', () => {
  it('puts per-transaction resources on that transaction, boxes of the called app without a foreign app', () => {
    const r = populateResources(
      [call(0, 10n), call(1, 20n)],
      report(undefined, [
        undefined,
        unnamed({
          accounts: [A],
          boxes: [
            { app: 20n, name: utf8('k') },
            { app: 30n, name: utf8('x') },
          ],
        }),
      ]),
      limits,
    );
    assert.deepEqual(r.calls[0]!.accounts, []);
    assert.deepEqual(r.calls[1]!.accounts, [A]);
    assert.deepEqual(r.calls[1]!.apps, [30n]);
    assert.equal(r.calls[1]!.boxes.length, 2);
    assert.equal(r.added, 4);
    assert.deepEqual(r.unplaced, []);
  });

  it('spreads group resources, keeps pairs together, and skips what the group already has', () => {
    const calls = [call(0, 10n, { accounts: [B] }), call(1, 20n)];
    const r = populateResources(
      calls,
      report(
        unnamed({
          accounts: [B, S],
          assetHoldings: [{ account: A, asset: 7n }],
          appLocals: [{ account: B, app: 99n }],
          boxes: [{ app: 20n, name: utf8('b') }],
        }),
        [undefined, undefined],
      ),
      limits,
    );
    // B is already on call 0 and S is the sender: nothing added for them.
    assert.deepEqual(r.calls[0]!.accounts.filter((a) => a === B).length, 1);
    // The local-state pair goes where B already is.
    assert.deepEqual(r.calls[0]!.apps, [99n]);
    // The holding pair sits on one call.
    const holder = r.calls.find((c) => c.assets.includes(7n))!;
    assert.ok(holder.accounts.includes(A));
    // The box of app 20 lands on the call to app 20 without a foreign-app entry.
    assert.equal(r.calls[1]!.boxes.length, 1);
    assert.deepEqual(r.calls[1]!.apps, []);
    // The input is not modified.
    assert.deepEqual(calls[1]!.boxes, []);
  });

  it('adds empty box refs for extra I/O budget and reports what does not fit', () => {
    const full = call(0, 10n, { assets: [1n, 2n, 3n, 4n, 5n, 6n, 7n] });
    const r = populateResources([full], report(unnamed({ extraBoxRefs: 2, apps: [50n] })), limits);
    // Named resources come first; the budget-only box refs get what room is left (none here).
    assert.deepEqual(r.calls[0]!.apps, [50n]);
    assert.equal(r.calls[0]!.boxes.length, 0);
    assert.equal(r.unplaced.length, 2);
    assert.match(r.unplaced[0]!, /extra \(empty\) box reference/);
    const roomy = populateResources([call(0, 10n)], report(unnamed({ extraBoxRefs: 2 })), limits);
    assert.deepEqual(roomy.calls[0]!.boxes, [
      { app: 0n, name: new Uint8Array(0) },
      { app: 0n, name: new Uint8Array(0) },
    ]);
    assert.match(r.unplaced.join('\n'), /no app call in the group has room left/);
    const accountsFull = call(0, 10n, { accounts: [A, B, Address.forApp(4n).toString(), Address.forApp(5n).toString()] });
    const r2 = populateResources([accountsFull], report(undefined, [unnamed({ accounts: [Address.forApp(6n).toString()] })]), limits);
    assert.match(r2.unplaced[0]!, /txn 0 has no room left/);
  });
});
