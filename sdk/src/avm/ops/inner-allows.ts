import type { Transaction } from '../../txn/types.js';
import type { EvalContext } from '../context.js';
import { fault } from '../errors.js';
import { addrText, allowsHolding, allowsLocals, appAddress, SHARED_RESOURCES_VERSION } from '../resources.js';

const isZero = (a: Uint8Array): boolean => a.every((b) => b === 0);

/**
 * A v9+ caller can reach an account and an asset (or app) through two different group members
 * without having their holding (or local state) itself; an inner transaction must not hand that
 * cross product to a callee. Pre-v9 callees cannot check it themselves, so the caller does at
 * submit (v9+ callees apply sharing rules on their own).
 */
export function checkInnerAllowed(cx: EvalContext, t: Transaction, calleeVersion: number): void {
  // A pre-v9 caller could not name an unavailable resource in the first place.
  if (cx.version < SHARED_RESOURCES_VERSION) return;
  const holding = (what: string, acct: Uint8Array | undefined, id: bigint): void => {
    if (id === 0n || !acct || isZero(acct)) return;
    if (!allowsHolding(cx, acct, id)) fault(`${what}: unavailable Holding ${id}+${addrText(acct)} would be accessible`);
  };
  const locals = (what: string, acct: Uint8Array, id: bigint): void => {
    if (!allowsLocals(cx, acct, id)) fault(`${what}: unavailable Local State ${id}+${addrText(acct)} would be accessible`);
  };
  switch (t.type) {
    case 'axfer': {
      const f = t.assetTransfer!;
      if (!f.assetSender) holding('axfer Sender', t.sender.publicKey, f.assetId);
      holding('axfer AssetReceiver', f.receiver.publicKey, f.assetId);
      holding('axfer AssetSender', f.assetSender?.publicKey, f.assetId);
      holding('axfer AssetCloseTo', f.closeTo?.publicKey, f.assetId);
      return;
    }
    case 'afrz':
      holding('afrz FreezeAccount', t.assetFreeze!.account.publicKey, t.assetFreeze!.assetId);
      return;
    case 'appl': {
      if (calleeVersion >= SHARED_RESOURCES_VERSION) return;
      const f = t.appCall!;
      const accts = [t.sender.publicKey, ...f.accounts.map((a) => a.publicKey)];
      if (f.appId !== 0n) accts.push(appAddress(f.appId));
      for (const id of f.foreignApps) accts.push(appAddress(id));
      for (const a of accts) {
        for (const id of f.foreignAssets) holding('appl ForeignAssets', a, id);
        if (f.appId !== 0n) locals('appl ApplicationID', a, f.appId);
        for (const id of f.foreignApps) locals('appl ForeignApps', a, id);
      }
      return;
    }
    default:
      return;
  }
}
