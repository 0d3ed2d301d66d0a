import { utf8 } from '../../../encoding/bytes.js';
import { blockHashText, blockToWire, headerToWire, encodeBlock, type TxnApplyData } from '../../../ledger/block.js';
import type { Transaction } from '../../../txn/types.js';
import { LedgerNotFoundError } from '../../../ledger/errors.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import { bytesReply, emptyReply, jsonReply, msgpackReply } from '../../http/reply.js';
import type { NodeContext } from '../routes.js';
import { wireToJson, type AlgodJson } from './views.js';
import { ALGOD_ERRORS, pathUint, boolParam, wireForm, JSON_ONLY, BOTH, R, FORMAT, ROUND } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

function blockAt(node: NodeContext, round: bigint) {
  if (round > node.follower.fetchedRound) throw new NotFoundError(ALGOD_ERRORS.failedLookingUpLedger);
  try {
    return node.ledger.block(round);
  } catch (e) {
    if (e instanceof LedgerNotFoundError) throw new NotFoundError(ALGOD_ERRORS.failedLookingUpLedger);
    throw e;
  }
}

/** Blocks (msgpack or JSON, header-only), their txids, hash and logs, and the dev-mode timestamp offset. */
export function blockRoutes(options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'GetBlock',
      method: 'GET',
      path: '/v2/blocks/{round}',
      summary: 'Get the block for the given round.',
      params: [
        ROUND,
        {
          name: 'header-only',
          in: 'query',
          type: 'boolean',
          description: 'If true, only the block header (exclusive of payset or certificate) may be included in response.',
        },
        FORMAT,
      ],
      produces: BOTH,
      responses: R({ '400': 'Bad Request', '404': 'None existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const round = pathUint(ctx, 'round');
        const form = wireForm(ctx);
        const headerOnly = boolParam(ctx.query.get('header-only'), 'header-only') ?? false;
        const b = blockAt(node, round);
        if (headerOnly) return form === 'msgpack' ? msgpackReply({ block: headerToWire(b.header) }) : jsonReply({ block: wireToJson(headerToWire(b.header)) });
        if (form === 'msgpack') {
          // {block, cert}: the block in the node's bytes (Go strings for TEAL keys, values and logs); dev mode has no certificate.
          const blockBytes = encodeBlock(b, { goStrings: true });
          const out = new Uint8Array(1 + 6 + blockBytes.length);
          out[0] = 0x81; // fixmap, 1 entry
          out.set([0xa5, ...utf8('block')], 1);
          out.set(blockBytes, 7);
          const reply = bytesReply(out, 'application/msgpack');
          return { ...reply, headers: { 'x-algorand-struct': 'block-v1' } };
        }
        return jsonReply({ block: wireToJson(blockToWire(b, true)) });
      },
    },
    {
      operationId: 'GetBlockTxids',
      method: 'GET',
      path: '/v2/blocks/{round}/txids',
      summary: 'Get the top level transaction IDs for the block on the given round.',
      params: [ROUND],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'Non existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => jsonReply({ blockTxids: blockAt(node, pathUint(ctx, 'round')).txns.map((t) => t.txid) }),
    },
    {
      operationId: 'GetBlockHash',
      method: 'GET',
      path: '/v2/blocks/{round}/hash',
      summary: 'Get the block hash for the block on the given round.',
      params: [ROUND],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'None existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => jsonReply({ blockHash: blockHashText(blockAt(node, pathUint(ctx, 'round')).hash).slice(4) }),
    },
    {
      operationId: 'GetBlockLogs',
      method: 'GET',
      path: '/v2/blocks/{round}/logs',
      summary: 'Get all of the logs from outer and inner app calls in the given round.',
      params: [ROUND],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '404': 'Non existing block', '500': 'Internal Error' }),
      handler: (ctx, node) => {
        const b = blockAt(node, pathUint(ctx, 'round'));
        const logs: AlgodJson[] = [];
        const walk = (txn: Transaction, ad: TxnApplyData, outer: string): void => {
          if (ad.logs.length) logs.push({ 'application-index': txn.appCall?.appId || ad.createdAppId || 0n, logs: ad.logs, txId: outer });
          for (const i of ad.inner) walk(i.txn, i.ad, outer);
        };
        for (const t of b.txns) walk(t.stxn.txn, t.ad, t.txid);
        return jsonReply({ logs });
      },
    },
    {
      operationId: 'GetBlockTimeStampOffset',
      method: 'GET',
      path: '/v2/devmode/blocks/offset',
      summary: "Returns the timestamp offset. Doesn't work on real network.",
      params: [],
      produces: JSON_ONLY,
      responses: R({ '400': 'TimeStamp offset not set.' }),
      handler: (_ctx, node) => {
        if (!options.devMode()) throw new BadRequestError(ALGOD_ERRORS.notDevMode);
        return jsonReply({ offset: node.ledger.getTimestampOffset() ?? 0n });
      },
    },
    {
      operationId: 'SetBlockTimeStampOffset',
      method: 'POST',
      path: '/v2/devmode/blocks/offset/{offset}',
      summary: "Given a timestamp offset in seconds, adds the offset to every subsequent block header's timestamp (0 returns to the wall clock).",
      params: [{ name: 'offset', in: 'path', type: 'integer', format: 'uint64', required: true, description: 'The timestamp offset for blocks in dev mode.' }],
      produces: JSON_ONLY,
      responses: R({ '400': 'Cannot set timestamp offset to a negative integer.' }),
      handler: (ctx, node) => {
        const offset = pathUint(ctx, 'offset');
        if (!options.devMode()) throw new BadRequestError('failed to set timestamp offset on the node: cannot set block timestamp offset when not in dev mode');
        node.ledger.setTimestampOffset(offset === 0n ? undefined : offset);
        return emptyReply(200);
      },
    },
  ];
}
