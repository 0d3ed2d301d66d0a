import { encodeAddress } from '../../../encoding/address.js';
import { decodeSignedTransactions } from '../../../txn/encode.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { bytesReply, emptyReply, jsonReply } from '../../http/reply.js';
import { encodeMsgpack, type MsgpackValue } from '../../../encoding/msgpack.js';
import type { Reply, RequestContext } from '../../http/types.js';
import { involves } from '../v1-views.js';
import { PoolRejectionError } from '../pool.js';
import { DecodeError } from '../../../errors.js';
import type { NodeContext } from '../routes.js';
import { confirmedPending, poolPending, signedTxnForm } from './pending.js';
import { ALGOD_ERRORS, uintParam, addressParam, wireForm, reply, txidParam, JSON_ONLY, BOTH, R, ADDRESS, FORMAT } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

/** The raw signed-transaction body both broadcast routes take (algod's `rawtxn` parameter). */
const RAWTXN_PARAM = {
  name: 'rawtxn',
  in: 'body',
  type: 'string',
  format: 'binary',
  required: true,
  description: 'The byte encoded signed transaction to broadcast to network',
} as const;

/** The `max` query parameter of both pending-transaction listings. */
const PENDING_MAX_PARAM = {
  name: 'max',
  in: 'query',
  type: 'integer',
  format: 'uint64',
  description: 'Truncated number of transactions to display. If max=0, returns all pending txns.',
} as const;

/** Rejections the node finds while verifying a group, before its pool (no `TransactionPool.Remember:` prefix). */
const VERIFY_KINDS: ReadonlySet<string> = new Set(['signature', 'malformed', 'group']);

/** Recently confirmed: within the node's memory of the last MaxTxnLife rounds. */
function recentConfirmed(node: NodeContext, txid: string) {
  const t = node.ledger.transaction(txid);
  if (!t) return undefined;
  const latest = node.ledger.latestRound;
  const life = node.ledger.params.maxTxnLife;
  return latest <= life || t.round >= latest - life ? t : undefined;
}

function pendingList(node: NodeContext, ctx: RequestContext, address?: string): Reply {
  const form = wireForm(ctx);
  const max = uintParam(ctx.query.get('max'), 'max') ?? 0n;
  const all = node.pool.pending();
  const picked = [];
  for (const e of all) {
    if (max !== 0n && BigInt(picked.length) >= max) break;
    if (address !== undefined && !involves(e.stxn.txn, address)) continue;
    picked.push(signedTxnForm(e.stxn, form));
  }
  if (form === 'json') return jsonReply({ 'top-transactions': picked, 'total-transactions': BigInt(all.length) });
  // The node always writes both keys (an empty array, a zero count); our canonical writer would
  // drop empty values, so the map is put together here, keys in canonical order.
  const parts = [
    Uint8Array.of(0x82),
    encodeMsgpack('top-transactions'),
    picked.length ? encodeMsgpack(picked as MsgpackValue) : Uint8Array.of(0x90),
    encodeMsgpack('total-transactions'),
    encodeMsgpack(BigInt(all.length)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return bytesReply(out, 'application/msgpack');
}

/** Submitting transactions (raw and async) and the pending pool, whole or by address. */
export function transactionRoutes(_options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'RawTransaction',
      method: 'POST',
      path: '/v2/transactions',
      summary: 'Broadcasts a raw transaction or transaction group to the network.',
      params: [RAWTXN_PARAM],
      consumes: ['application/x-binary'],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request - Malformed Algorand transaction', '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: async (ctx, node) => {
        if (node.follower.enabled) throw new BadRequestError('cannot broadcast txns in follower mode');
        const body = await ctx.body();
        await node.pool.preverify(body, node.ledger.params.maxTxGroupSize);
        let txId: string;
        try {
          txId = node.pool.submit(body, node.ledger.params.maxTxGroupSize);
        } catch (e) {
          // The node reports what its pool refused (balances, fees, programs, duplicates …) through
          // TransactionPool.Remember; signature and well-formedness failures come before the pool.
          if (e instanceof PoolRejectionError && !VERIFY_KINDS.has(e.rejection.kind) && !e.rejection.reason.startsWith('rejected by logic')) {
            throw new BadRequestError(`TransactionPool.Remember: ${e.message}`);
          }
          if (e instanceof DecodeError) throw new BadRequestError(e.message);
          throw e;
        }
        return jsonReply({ txId });
      },
    },
    {
      operationId: 'RawTransactionAsync',
      method: 'POST',
      path: '/v2/transactions/async',
      summary: 'Fast track for broadcasting a raw transaction or transaction group to the network (developer API): no answer about the pool.',
      params: [RAWTXN_PARAM],
      consumes: ['application/x-binary'],
      produces: JSON_ONLY,
      responses: R({
        '400': 'Bad Request',
        '404': 'Developer or Experimental API not enabled',
        '500': 'Internal Error',
        '503': 'Service Temporarily Unavailable',
      }),
      handler: async (ctx, node) => {
        if (node.follower.enabled) throw new BadRequestError('cannot broadcast txns in follower mode');
        const body = await ctx.body();
        let stxns;
        try {
          stxns = decodeSignedTransactions(body);
        } catch (e) {
          throw new BadRequestError(e instanceof Error ? e.message : 'malformed transaction');
        }
        if (stxns.length === 0) throw new BadRequestError('empty txgroup');
        await node.pool.preverifyGroup(stxns, node.ledger.params.maxTxGroupSize);
        try {
          node.pool.submit(body, node.ledger.params.maxTxGroupSize);
        } catch {
          // The asynchronous path does not report whether the pool took the group.
        }
        return emptyReply(200);
      },
    },
    {
      operationId: 'GetPendingTransactions',
      method: 'GET',
      path: '/v2/transactions/pending',
      summary: 'Get a list of unconfirmed transactions currently in the transaction pool.',
      params: [PENDING_MAX_PARAM, FORMAT],
      produces: BOTH,
      responses: R({ '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: (ctx, node) => pendingList(node, ctx),
    },
    {
      operationId: 'PendingTransactionInformation',
      method: 'GET',
      path: '/v2/transactions/pending/{txid}',
      summary: 'Get a specific pending transaction.',
      params: [{ name: 'txid', in: 'path', type: 'string', required: true, description: 'A transaction ID' }, FORMAT],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '404': 'Transaction Not Found' }),
      handler: (ctx, node) => {
        const txid = txidParam(ctx.params.txid);
        const form = wireForm(ctx);
        const p = node.pool.lookup(txid);
        if (p && p.poolError === '') return reply(poolPending(p.stxn, '', form), form);
        const t = recentConfirmed(node, txid);
        if (t) return reply(confirmedPending(t, form), form);
        if (p) return reply(poolPending(p.stxn, p.poolError, form), form);
        throw new NotFoundError(ALGOD_ERRORS.transactionNotFound);
      },
    },
    {
      operationId: 'GetPendingTransactionsByAddress',
      method: 'GET',
      path: '/v2/accounts/{address}/transactions/pending',
      summary: 'Get a list of unconfirmed transactions currently in the transaction pool by address.',
      params: [ADDRESS, PENDING_MAX_PARAM, FORMAT],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error' }),
      handler: (ctx, node) => pendingList(node, ctx, encodeAddress(addressParam(ctx))),
    },
  ];
}
