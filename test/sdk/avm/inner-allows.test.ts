import assert from 'node:assert/strict';
import { APP_ID, OTHER, SENDER, appCall, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const APP_ADDR = Address.forApp(APP_ID).publicKey;
const ASSET = 5000n;
const ELSEWHERE = 777n;
const STRANGER = new Address(new Uint8Array(32).fill(9));

function funded(): InMemoryLedgerView {
  const l = new InMemoryLedgerView();
  l.fund(APP_ADDR, 1_000_000n);
  return l;
}

/**
 * Txn 0 shares ASSET (and its holdings for its own accounts) with the group; txn 1 is our app,
 * which names STRANGER. The app can reach STRANGER and ASSET, but not STRANGER's holding of ASSET
 * nor its own account's holding — those come from two different transactions.
 */
function group(fields: Parameters<typeof appCall>[0] = {}) {
  return [appCall({ appId: ELSEWHERE, foreignAssets: [ASSET] }), appCall({ accounts: [STRANGER], ...fields })];
}

describe('avm inner transactions: v9 cross-product availability', () => {
  it('an inner asset transfer may not reach a holding the caller cannot', () => {
    const src = `itxn_begin\nint 4\nitxn_field TypeEnum\nint ${ASSET}\nitxn_field XferAsset\nbyte 0x${'09'.repeat(32)}\nitxn_field AssetReceiver\nitxn_submit\nint 1`;
    const run = runApp(src, { ledger: funded(), version: 9, group: group(), index: 1 });
    failsWith(run, `axfer Sender: unavailable Holding ${ASSET}+${Address.forApp(APP_ID).toString()} would be accessible`);
    // The same program at v8 never gets that far: pre-sharing callers only see their own references.
    failsWith(runApp(src, { ledger: funded(), version: 8, group: group(), index: 1 }), `unavailable Asset ${ASSET}`);
  });

  it('an inner freeze may not name a holding the caller cannot', () => {
    const src = `itxn_begin\nint 5\nitxn_field TypeEnum\nint ${ASSET}\nitxn_field FreezeAsset\nbyte 0x${'09'.repeat(32)}\nitxn_field FreezeAssetAccount\nitxn_submit\nint 1`;
    failsWith(
      runApp(src, { ledger: funded(), version: 9, group: group(), index: 1 }),
      `afrz FreezeAccount: unavailable Holding ${ASSET}+${STRANGER.toString()} would be accessible`,
    );
  });

  it('an inner call to a pre-v9 program is checked by the caller; a v9 callee checks itself', () => {
    const ledger = funded();
    const old = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 8), clearStateProgram: asm('int 1', 8) });
    const fresh = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 9), clearStateProgram: asm('int 1', 9) });
    const call = (app: bigint) =>
      `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${app}\nitxn_field ApplicationID\nint ${ASSET}\nitxn_field Assets\nitxn_submit\nint 1`;
    const g = group({ foreignApps: [old, fresh] });
    failsWith(
      runApp(call(old), { ledger, version: 9, group: g, index: 1 }),
      `appl ForeignAssets: unavailable Holding ${ASSET}+${Address.forApp(APP_ID).toString()} would be accessible`,
    );
    approves(runApp(call(fresh), { ledger, version: 9, group: g, index: 1 }));
  });

  it('local state of a pre-v9 callee must be available to the caller', () => {
    const ledger = funded();
    const old = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 8), clearStateProgram: asm('int 1', 8) });
    // Txn 0 makes `old` available to the group, so our app may call it, but our app account's
    // local state in `old` came from nobody.
    const g = [appCall({ appId: ELSEWHERE, foreignApps: [old] }), appCall()];
    const src = `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${old}\nitxn_field ApplicationID\nitxn_submit\nint 1`;
    failsWith(
      runApp(src, { ledger, version: 9, group: g, index: 1 }),
      `appl ApplicationID: unavailable Local State ${old}+${Address.forApp(APP_ID).toString()} would be accessible`,
    );
    assert.ok(SENDER);
  });

  it('opting in needs a clear-state program that can run as an inner', () => {
    const ledger = funded();
    const v3clear = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 6), clearStateProgram: asm('int 1', 3) });
    const src = `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${v3clear}\nitxn_field ApplicationID\nint 1\nitxn_field OnCompletion\nitxn_submit\nint 1`;
    failsWith(runApp(src, { ledger, version: 9, txn: appCall({ foreignApps: [v3clear] }) }), 'inner app call opt-in with CSP v3 < v4');
  });
});
