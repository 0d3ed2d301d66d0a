import { encodeAddress } from '../encoding/address.js';
import { toBase64 } from '../encoding/base64.js';
import type { SignedTransaction } from '../txn/types.js';
import type { DeltaMap, TxnApplyData } from './block.js';

/** A node response object: spec key names, bigint for uint64, bytes as Uint8Array except where the spec says base64 text. */
export type ResponseObject = { [key: string]: unknown };

function evalDeltaList(m: DeltaMap): ResponseObject[] {
  return [...m.values()].map(({ key, delta }) => {
    const value: ResponseObject = { action: delta.action === 'delete' ? 3 : typeof delta.value === 'bigint' ? 2 : 1 };
    if (delta.action === 'set') {
      if (typeof delta.value === 'bigint') value.uint = delta.value;
      else value.bytes = toBase64(delta.value!);
    }
    return { key: toBase64(key), value };
  });
}

/**
 * The node's PendingTransactionResponse for a transaction and its ApplyData (also used for inner
 * transactions and simulate's `txn-result`). Zero members are left out, except `pool-error`.
 */
export function pendingTransactionResponse(stxn: SignedTransaction, ad: TxnApplyData, confirmedRound?: bigint): ResponseObject {
  const r: ResponseObject = { 'pool-error': '', txn: stxn };
  if (confirmedRound) r['confirmed-round'] = confirmedRound;
  if (ad.createdAssetId) r['asset-index'] = ad.createdAssetId;
  if (ad.createdAppId) r['application-index'] = ad.createdAppId;
  if (ad.closingAmount) r['closing-amount'] = ad.closingAmount;
  if (ad.assetClosingAmount) r['asset-closing-amount'] = ad.assetClosingAmount;
  if (ad.globalDelta.size) r['global-state-delta'] = evalDeltaList(ad.globalDelta);
  if (ad.localDeltas.size) {
    r['local-state-delta'] = [...ad.localDeltas.values()].map(({ address, keys }) => ({ address: encodeAddress(address), delta: evalDeltaList(keys) }));
  }
  if (ad.logs.length) r.logs = ad.logs;
  if (ad.inner.length) r['inner-txns'] = ad.inner.map((i) => pendingTransactionResponse({ txn: i.txn }, i.ad));
  return r;
}
