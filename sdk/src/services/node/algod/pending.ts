import { MsgKeep, type MsgpackValue } from '../../../encoding/msgpack.js';
import type { ConfirmedTxn } from '../../../ledger/block.js';
import { pendingTransactionResponse, type ResponseObject } from '../../../ledger/response.js';
import { signedTransactionToNodeJson } from '../../../txn/json.js';
import { signedTransactionToWire } from '../../../txn/wire.js';
import type { SignedTransaction } from '../../../txn/types.js';

export type WireForm = 'json' | 'msgpack';

/** The amounts the node always reports (as 0 when nothing moved) for a confirmed transaction. */
const CONFIRMED_AMOUNTS = ['asset-closing-amount', 'close-rewards', 'closing-amount', 'receiver-rewards', 'sender-rewards'] as const;

function toForm(r: ResponseObject, form: WireForm, top: boolean): ResponseObject {
  const out: ResponseObject = { ...r };
  const stxn = r.txn as SignedTransaction;
  out.txn = form === 'json' ? signedTransactionToNodeJson(stxn) : signedTransactionToWire(stxn);
  if (top && r['confirmed-round'] !== undefined) {
    for (const k of CONFIRMED_AMOUNTS) {
      const v = (r[k] as bigint | undefined) ?? 0n;
      out[k] = form === 'msgpack' ? new MsgKeep(v) : v;
    }
  }
  // The node writes `pool-error` even when empty.
  if (form === 'msgpack') out['pool-error'] = new MsgKeep((r['pool-error'] as string | undefined) ?? '');
  if (Array.isArray(r['inner-txns'])) out['inner-txns'] = (r['inner-txns'] as ResponseObject[]).map((i) => toForm(i, form, false));
  return out;
}

/** PendingTransactionResponse of a transaction confirmed in a block. */
export function confirmedPending(t: ConfirmedTxn, form: WireForm): ResponseObject {
  return toForm(pendingTransactionResponse(t.stxn, t.ad, t.round), form, true);
}

/** PendingTransactionResponse of a transaction still in (or evicted from) the pool. */
export function poolPending(stxn: SignedTransaction, poolError: string, form: WireForm): ResponseObject {
  return toForm({ 'pool-error': poolError, txn: stxn }, form, true);
}

/** A signed transaction as the pending lists carry it. */
export function signedTxnForm(stxn: SignedTransaction, form: WireForm): MsgpackValue | ResponseObject {
  return form === 'json' ? signedTransactionToNodeJson(stxn) : signedTransactionToWire(stxn);
}
