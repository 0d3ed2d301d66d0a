import { Address, encodeAddress } from '../encoding/address.js';
import type { Transaction } from '../txn/types.js';
import { fault } from './errors.js';
import type { Availability, EvalContext } from './context.js';
import { bytesEq, hexOf } from './value.js';
import type { StackValue } from './value.js';

import { APP_ADDRESS_AVAILABLE_VERSION, CREATED_RESOURCES_VERSION, DIRECT_REF_VERSION, SHARED_RESOURCES_VERSION } from '../teal/spec/versions.js';
/** Versions at which availability rules changed (from the one version module). */
export { APP_ADDRESS_AVAILABLE_VERSION, CREATED_RESOURCES_VERSION, DIRECT_REF_VERSION, SHARED_RESOURCES_VERSION };
const LAST_FORBIDDEN_RESOURCE = 255n;

const appAddressCache = new Map<bigint, Uint8Array>();
export function appAddress(appId: bigint): Uint8Array {
  let a = appAddressCache.get(appId);
  if (!a) {
    a = Address.forApp(appId).publicKey;
    if (appAddressCache.size > 10000) appAddressCache.clear();
    appAddressCache.set(appId, a);
  }
  return a;
}

export const addrText = (a: Uint8Array): string => encodeAddress(a);
export const accountKey = (a: Uint8Array): string => hexOf(a);
export const pairKey = (a: Uint8Array, id: bigint): string => `${hexOf(a)}/${id}`;
export const boxKey = (app: bigint, name: Uint8Array): string => `${app}/${hexOf(name)}`;

export function emptyAvailability(): Availability {
  return {
    accounts: new Set(),
    assets: new Set(),
    apps: new Set(),
    holdings: new Set(),
    locals: new Set(),
    boxes: new Set(),
    createdApps: new Set(),
    createdAssets: new Set(),
  };
}

/**
 * What one transaction contributes to the group's shared resources (v9 sharing). `boxRefs` counts
 * every box entry (empty ones too, duplicates included) for the I/O budget; `emptyRefs` the empty
 * ones, each of which lets an app created in the group reach one of its boxes unnamed.
 */
export function fillAvailability(r: Availability, tx: Transaction): { boxRefs: number; emptyRefs: number } {
  const snd = tx.sender.publicKey;
  const shareHolding = (a: Uint8Array, id: bigint) => {
    r.accounts.add(accountKey(a));
    r.holdings.add(pairKey(a, id));
  };
  let boxRefs = 0;
  let emptyRefs = 0;
  switch (tx.type) {
    case 'pay':
      r.accounts.add(accountKey(snd));
      r.accounts.add(accountKey(tx.payment!.receiver.publicKey));
      if (tx.payment!.closeRemainderTo) r.accounts.add(accountKey(tx.payment!.closeRemainderTo.publicKey));
      break;
    case 'keyreg':
      r.accounts.add(accountKey(snd));
      break;
    case 'acfg':
      r.accounts.add(accountKey(snd));
      if (tx.assetConfig!.assetId !== 0n) r.assets.add(tx.assetConfig!.assetId);
      break;
    case 'axfer': {
      const f = tx.assetTransfer!;
      r.assets.add(f.assetId);
      shareHolding(snd, f.assetId);
      shareHolding(f.receiver.publicKey, f.assetId);
      if (f.assetSender) shareHolding(f.assetSender.publicKey, f.assetId);
      if (f.closeTo) shareHolding(f.closeTo.publicKey, f.assetId);
      break;
    }
    case 'afrz':
      r.accounts.add(accountKey(snd));
      r.assets.add(tx.assetFreeze!.assetId);
      shareHolding(tx.assetFreeze!.account.publicKey, tx.assetFreeze!.assetId);
      break;
    case 'appl': {
      const f = tx.appCall!;
      if (f.access.length > 0) {
        r.accounts.add(accountKey(snd));
        if (f.appId !== 0n) {
          r.apps.add(f.appId);
          r.locals.add(pairKey(snd, f.appId));
        }
        for (const rr of f.access) {
          switch (rr.kind) {
            case 'address':
              r.accounts.add(accountKey(rr.address.publicKey));
              break;
            case 'asset':
              r.assets.add(rr.assetId);
              break;
            case 'app':
              r.apps.add(rr.appId);
              break;
            case 'holding': {
              const a = accessAddress(f.access, rr.addressIndex, snd);
              const id = accessAsset(f.access, rr.assetIndex);
              if (a && id !== undefined) r.holdings.add(pairKey(a, id));
              break;
            }
            case 'locals': {
              const a = accessAddress(f.access, rr.addressIndex, snd);
              const id = rr.appIndex === 0 ? f.appId : accessApp(f.access, rr.appIndex);
              if (a && id !== undefined) r.locals.add(pairKey(a, id));
              break;
            }
            case 'box': {
              const id = rr.appIndex === 0 ? f.appId : accessApp(f.access, rr.appIndex);
              if (id !== undefined) r.boxes.add(boxKey(id, rr.name));
              boxRefs++;
              break;
            }
            case 'empty':
              // An empty entry still buys I/O budget, and lets a new app touch one box.
              boxRefs++;
              emptyRefs++;
              break;
          }
        }
      } else {
        const accts: Uint8Array[] = [snd, ...f.accounts.map((a) => a.publicKey)];
        for (const id of f.foreignAssets) r.assets.add(id);
        if (f.appId !== 0n) {
          accts.push(appAddress(f.appId));
          r.apps.add(f.appId);
        }
        for (const id of f.foreignApps) {
          accts.push(appAddress(id));
          r.apps.add(id);
        }
        for (const a of accts) {
          r.accounts.add(accountKey(a));
          for (const id of f.foreignAssets) r.holdings.add(pairKey(a, id));
          if (f.appId !== 0n) r.locals.add(pairKey(a, f.appId));
          for (const id of f.foreignApps) r.locals.add(pairKey(a, id));
        }
        for (const br of f.boxes) {
          if (br.appId === 0n && br.name.length === 0) emptyRefs++;
          // A box ref naming app 0 means the called app (or the app being created).
          r.boxes.add(boxKey(br.appId === 0n ? f.appId : br.appId, br.name));
          boxRefs++;
        }
      }
      break;
    }
    default:
      break;
  }
  return { boxRefs, emptyRefs };
}

function accessAddress(access: readonly import('../txn/types.js').ResourceRef[], idx: number, sender: Uint8Array): Uint8Array | undefined {
  if (idx === 0) return sender;
  const rr = access[idx - 1];
  return rr && rr.kind === 'address' ? rr.address.publicKey : undefined;
}
function accessAsset(access: readonly import('../txn/types.js').ResourceRef[], idx: number): bigint | undefined {
  const rr = access[idx - 1];
  return rr && rr.kind === 'asset' ? rr.assetId : undefined;
}
function accessApp(access: readonly import('../txn/types.js').ResourceRef[], idx: number): bigint | undefined {
  const rr = access[idx - 1];
  return rr && rr.kind === 'app' ? rr.appId : undefined;
}

function txnAccounts(tx: Transaction): Uint8Array[] {
  return tx.appCall ? tx.appCall.accounts.map((a) => a.publicKey) : [];
}

function indexByAddress(tx: Transaction, addr: Uint8Array): number {
  if (bytesEq(tx.sender.publicKey, addr)) return 0;
  // With an access list, positions count every entry (only one of Access/Accounts may be set).
  const access = tx.appCall?.access ?? [];
  for (let i = 0; i < access.length; i++) {
    const rr = access[i]!;
    if (rr.kind === 'address' && bytesEq(rr.address.publicKey, addr)) return i + 1;
  }
  const accts = txnAccounts(tx);
  for (let i = 0; i < accts.length; i++) if (bytesEq(accts[i]!, addr)) return i + 1;
  return -1;
}

export function asAddress(v: StackValue): Uint8Array {
  if (typeof v !== 'object' || v.length !== 32) fault('not an address');
  return v as Uint8Array;
}

export function availableAccount(cx: EvalContext, addr: Uint8Array): boolean {
  if (indexByAddress(cx.txn, addr) >= 0) return true;
  const av = cx.group.available;
  if (cx.version >= CREATED_RESOURCES_VERSION) {
    for (const id of av.createdApps) if (bytesEq(appAddress(id), addr)) return true;
  }
  if (cx.version >= SHARED_RESOURCES_VERSION && av.accounts.has(accountKey(addr))) return true;
  if (cx.version >= APP_ADDRESS_AVAILABLE_VERSION && cx.txn.appCall) {
    for (const id of cx.txn.appCall.foreignApps) if (bytesEq(appAddress(id), addr)) return true;
  }
  if (bytesEq(appAddress(cx.appId), addr)) return true;
  return cx.group.unnamedPolicy?.availableAccount(addr) ?? false;
}

/** Resolves an account argument: an index into [sender, Accounts…] or an address. */
export function resolveAccount(cx: EvalContext, v: StackValue): { addr: Uint8Array; idx: number } {
  if (typeof v !== 'object') {
    if (v === 0) return { addr: cx.txn.sender.publicKey, idx: 0 };
    const access = cx.txn.appCall?.access ?? [];
    if (access.length > 0) {
      if (typeof v !== 'number' || v > access.length) fault(`invalid Account reference ${v} exceeds length of tx.Access ${access.length}`);
      const rr = access[(v as number) - 1]!;
      if (rr.kind !== 'address') fault(`address reference ${v} is not an Address in tx.Access`);
      return { addr: (rr as { address: Address }).address.publicKey, idx: v as number };
    }
    const accts = txnAccounts(cx.txn);
    if (typeof v !== 'number' || v > accts.length) fault(`invalid Account reference ${v} exceeds length of tx.Accounts ${accts.length}`);
    return { addr: accts[(v as number) - 1]!, idx: v as number };
  }
  const addr = asAddress(v);
  return { addr, idx: indexByAddress(cx.txn, addr) };
}

export function accountReference(cx: EvalContext, v: StackValue): { addr: Uint8Array; idx: number } {
  const r = resolveAccount(cx, v);
  if (r.idx >= 0) return r;
  if (!availableAccount(cx, r.addr)) fault(`unavailable Account ${addrText(r.addr)}`);
  return { addr: r.addr, idx: txnAccounts(cx.txn).length + 1 };
}

export function availableApp(cx: EvalContext, id: bigint): boolean {
  const f = cx.txn.appCall;
  if (f && (f.access.some((rr) => rr.kind === 'app' && rr.appId === id) || f.foreignApps.includes(id))) return true;
  const av = cx.group.available;
  if (cx.version >= CREATED_RESOURCES_VERSION && av.createdApps.has(id)) return true;
  if (cx.appId === id) return true;
  if (cx.version >= SHARED_RESOURCES_VERSION && av.apps.has(id)) return true;
  if (id > LAST_FORBIDDEN_RESOURCE && cx.group.unnamedPolicy) return cx.group.unnamedPolicy.availableApp(id);
  return false;
}

export function availableAsset(cx: EvalContext, id: bigint): boolean {
  const f = cx.txn.appCall;
  if (f && (f.access.some((rr) => rr.kind === 'asset' && rr.assetId === id) || f.foreignAssets.includes(id))) return true;
  const av = cx.group.available;
  if (cx.version >= CREATED_RESOURCES_VERSION && av.createdAssets.has(id)) return true;
  if (cx.version >= SHARED_RESOURCES_VERSION && av.assets.has(id)) return true;
  if (id > LAST_FORBIDDEN_RESOURCE && cx.group.unnamedPolicy) return cx.group.unnamedPolicy.availableAsset(id);
  return false;
}

/**
 * The "low lookup" rule (consensus V38+, AppForbidLowResources): a reference that resolves to an
 * app or asset id ≤ 255 fails, since such a number could equally be a foreign-array slot. It
 * applies to the resolved id in every version's resolution, after resolution succeeded.
 */
function forbidLow(cx: EvalContext, id: bigint, kind: 'App' | 'Asset'): bigint {
  if (id <= LAST_FORBIDDEN_RESOURCE && cx.group.limits.txnLimits.appForbidLowResources) fault(`low ${kind} lookup ${id}`);
  return id;
}

/** App argument of app_* opcodes: a foreign-array slot (v<4 or small values) or an app id. */
export function appReference(cx: EvalContext, ref: bigint, foreign: boolean): bigint {
  return forbidLow(cx, resolveAppRef(cx, ref, foreign), 'App');
}

function resolveAppRef(cx: EvalContext, ref: bigint, foreign: boolean): bigint {
  const f = cx.txn.appCall;
  const foreignApps = f?.foreignApps ?? [];
  if (cx.version < DIRECT_REF_VERSION) {
    if (ref === 0n) return cx.appId;
    if (foreign) {
      if (ref <= BigInt(foreignApps.length)) return foreignApps[Number(ref) - 1]!;
      fault(`${ref} is not a valid foreign app slot`);
    }
    return ref;
  }
  if (ref === 0n || ref === cx.appId) return cx.appId;
  if (availableApp(cx, ref)) return ref;
  if (ref <= BigInt(foreignApps.length)) return foreignApps[Number(ref) - 1]!;
  const acc = f?.access[Number(ref) - 1];
  if (acc && acc.kind === 'app') return acc.appId;
  return fault(`unavailable App ${ref}`);
}

export function assetReference(cx: EvalContext, ref: bigint, foreign: boolean): bigint {
  return forbidLow(cx, resolveAssetRef(cx, ref, foreign), 'Asset');
}

function resolveAssetRef(cx: EvalContext, ref: bigint, foreign: boolean): bigint {
  const f = cx.txn.appCall;
  const foreignAssets = f?.foreignAssets ?? [];
  if (cx.version < DIRECT_REF_VERSION) {
    if (foreign) {
      if (ref < BigInt(foreignAssets.length)) return foreignAssets[Number(ref)]!;
      fault(`${ref} is not a valid foreign asset slot`);
    }
    return ref;
  }
  if (availableAsset(cx, ref)) return ref;
  if (ref < BigInt(foreignAssets.length)) return foreignAssets[Number(ref)]!;
  const acc = ref > 0n ? f?.access[Number(ref) - 1] : undefined;
  if (acc && acc.kind === 'asset') return acc.assetId;
  return fault(`unavailable Asset ${ref}`);
}

export function allowsHolding(cx: EvalContext, addr: Uint8Array, id: bigint): boolean {
  const av = cx.group.available;
  if (av.holdings.has(pairKey(addr, id))) return true;
  if (av.createdAssets.has(id)) return availableAccount(cx, addr);
  for (const app of av.createdApps) if (bytesEq(appAddress(app), addr)) return availableAsset(cx, id);
  const p = cx.group.unnamedPolicy;
  return !!p && availableAccount(cx, addr) && availableAsset(cx, id) && p.allowsHolding(addr, id);
}

export function allowsLocals(cx: EvalContext, addr: Uint8Array, id: bigint): boolean {
  const av = cx.group.available;
  if (av.locals.has(pairKey(addr, id))) return true;
  if (av.createdApps.has(id)) return availableAccount(cx, addr);
  for (const app of av.createdApps) if (bytesEq(appAddress(app), addr)) return availableApp(cx, id);
  const p = cx.group.unnamedPolicy;
  return !!p && availableApp(cx, id) && availableAccount(cx, addr) && p.allowsLocal(addr, id);
}

function tryRef<T>(f: () => T): { v?: T; err?: string } {
  try {
    return { v: f() };
  } catch (e) {
    return { err: (e as Error).message };
  }
}

export function holdingReference(cx: EvalContext, acct: StackValue, ref: bigint): { addr: Uint8Array; asset: bigint } {
  if (cx.version >= SHARED_RESOURCES_VERSION) {
    const { addr } = resolveAccount(cx, acct);
    const a = tryRef(() => assetReference(cx, ref, false));
    if (a.err === undefined && allowsHolding(cx, addr, a.v!)) return { addr, asset: a.v! };
    const ok = availableAccount(cx, addr);
    if (a.err !== undefined && ok) fault(a.err);
    if (a.err === undefined && ok) fault(`unavailable Holding ${a.v}+${addrText(addr)}`);
    if (a.err !== undefined) fault(`unavailable Account ${addrText(addr)}, ${a.err}`);
    fault(`unavailable Account ${addrText(addr)}`);
  }
  const { addr } = accountReference(cx, acct);
  return { addr, asset: assetReference(cx, ref, false) };
}

export function localsReference(cx: EvalContext, acct: StackValue, ref: bigint): { addr: Uint8Array; app: bigint; idx: number } {
  if (cx.version >= SHARED_RESOURCES_VERSION) {
    const { addr } = resolveAccount(cx, acct);
    const a = tryRef(() => appReference(cx, ref, false));
    if (a.err === undefined && allowsLocals(cx, addr, a.v!)) return { addr, app: a.v!, idx: 0 };
    const ok = availableAccount(cx, addr);
    const localsErr = `unavailable Local State ${a.v ?? 0n}+${addrText(addr)}`;
    if (a.err !== undefined && ok) fault(a.err);
    if (a.err === undefined && ok) fault(localsErr);
    if (a.err !== undefined) fault(`unavailable Account ${addrText(addr)}, ${a.err}, ${localsErr}`);
    fault(`unavailable Account ${addrText(addr)}, ${localsErr}`);
  }
  const { addr, idx } = accountReference(cx, acct);
  return { addr, app: appReference(cx, ref, false), idx };
}

/** For local writes before v9, the account must be one the transaction names. */
export function mutableAccountReference(cx: EvalContext, acct: StackValue): { addr: Uint8Array; idx: number } {
  const r = accountReference(cx, acct);
  if (r.idx > txnAccounts(cx.txn).length && cx.version < SHARED_RESOURCES_VERSION) {
    fault(`invalid Account reference for mutation ${addrText(r.addr)}`);
  }
  return r;
}
