import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import type { ResourceRef } from './types.js';

/** A resource named by id/address; {@link buildAccessList} turns a list of these into `al` entries. */
export type AccessReference =
  | { address: AddressLike }
  | { assetId: bigint | number }
  | { appId: bigint | number }
  | { holding: { address?: AddressLike; assetId: bigint | number } }
  | { locals: { address?: AddressLike; appId: bigint | number } }
  | { box: { appId: bigint | number; name: Uint8Array } }
  | { empty: true };

/**
 * Lays out an access list the way algosdk and goal do: plain address/asset/app references are
 * listed once (repeats reuse the first entry), holdings/locals/boxes point at those entries by
 * 1-based index, the sender and the called app are index 0.
 */
export function buildAccessList(appId: bigint | number, refs: readonly AccessReference[]): ResourceRef[] {
  const called = BigInt(appId);
  const out: ResourceRef[] = [];
  const ensureAddress = (a: AddressLike): number => {
    const key = addressBytes(a);
    const found = out.findIndex((r) => r.kind === 'address' && r.address.equals(new Address(key)));
    if (found >= 0) return found + 1;
    out.push({ kind: 'address', address: new Address(key) });
    return out.length;
  };
  const ensureAsset = (id: bigint): number => {
    const found = out.findIndex((r) => r.kind === 'asset' && r.assetId === id);
    if (found >= 0) return found + 1;
    out.push({ kind: 'asset', assetId: id });
    return out.length;
  };
  const ensureApp = (id: bigint): number => {
    const found = out.findIndex((r) => r.kind === 'app' && r.appId === id);
    if (found >= 0) return found + 1;
    out.push({ kind: 'app', appId: id });
    return out.length;
  };
  const addressIndex = (a: AddressLike | undefined): number => {
    if (a === undefined || a === '') return 0;
    const key = addressBytes(a);
    return key.every((b) => b === 0) ? 0 : ensureAddress(key);
  };
  const appIndex = (id: bigint): number => (id === 0n || id === called ? 0 : ensureApp(id));
  for (const r of refs) {
    if ('address' in r) ensureAddress(r.address);
    else if ('assetId' in r) ensureAsset(BigInt(r.assetId));
    else if ('appId' in r) ensureApp(BigInt(r.appId));
    else if ('holding' in r) {
      const d = addressIndex(r.holding.address);
      const s = ensureAsset(BigInt(r.holding.assetId));
      out.push({ kind: 'holding', addressIndex: d, assetIndex: s });
    } else if ('locals' in r) {
      const d = addressIndex(r.locals.address);
      const p = appIndex(BigInt(r.locals.appId));
      out.push({ kind: 'locals', addressIndex: d, appIndex: p });
    } else if ('box' in r) {
      const i = appIndex(BigInt(r.box.appId));
      out.push({ kind: 'box', appIndex: i, name: r.box.name });
    } else out.push({ kind: 'empty' });
  }
  return out;
}
