import { emptyReply, jsonReply, textReply } from '../../http/reply.js';
import type { Ledger } from '../../../ledger/ledger.js';
import type { NodeContext } from '../routes.js';
import { type AlgodJson } from './views.js';
import { genesisText } from './genesis.js';
import { pathUint, JSON_ONLY, R, ROUND } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

/** The `/v2/transactions/params` answer for a ledger whose node has fetched up to `lastRound` (also served in process without the route). */
export function transactionParamsJson(ledger: Ledger, lastRound: bigint): AlgodJson {
  return {
    'consensus-version': ledger.params.protocol,
    fee: 0n,
    'genesis-hash': ledger.genesisHash,
    'genesis-id': ledger.genesisId,
    'last-round': lastRound,
    'min-fee': ledger.params.minTxnFee,
  };
}

function statusJson(node: NodeContext): AlgodJson {
  const last = node.follower.fetchedRound;
  const proto = node.ledger.block(last).header.protocol;
  return {
    catchpoint: '',
    'catchpoint-acquired-blocks': 0n,
    'catchpoint-processed-accounts': 0n,
    'catchpoint-processed-kvs': 0n,
    'catchpoint-total-accounts': 0n,
    'catchpoint-total-blocks': 0n,
    'catchpoint-total-kvs': 0n,
    'catchpoint-verified-accounts': 0n,
    'catchpoint-verified-kvs': 0n,
    'catchup-time': 0n,
    'last-catchpoint': '',
    'last-round': last,
    'last-version': proto,
    'next-version': proto,
    'next-version-round': last + 1n,
    'next-version-supported': true,
    'stopped-at-unsupported-round': false,
    'time-since-last-round': BigInt(Math.max(0, Date.now() - node.lastBlockAt())) * 1_000_000n,
  };
}

/** Readiness, genesis, status and wait-for-block, transaction parameters and supply. */
export function statusRoutes(options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'GetReady',
      method: 'GET',
      path: '/ready',
      summary: 'Returns OK if healthy and fully caught up.',
      params: [],
      produces: JSON_ONLY,
      responses: { '200': 'OK', '500': 'Internal Error', '503': 'Node not ready yet' },
      public: true,
      handler: () => emptyReply(200),
    },
    {
      operationId: 'GetGenesis',
      method: 'GET',
      path: '/genesis',
      summary: 'Gets the genesis information.',
      params: [],
      produces: JSON_ONLY,
      responses: { '200': 'The genesis file in json.', default: 'Unknown Error' },
      public: true,
      handler: (_ctx, node) => textReply(genesisText(node.ledger, options.genesis), 200, 'application/json'),
    },
    {
      operationId: 'GetStatus',
      method: 'GET',
      path: '/v2/status',
      summary: 'Gets the current node status.',
      params: [],
      produces: JSON_ONLY,
      responses: R({ '500': 'Internal Error' }),
      handler: (_ctx, node) => jsonReply(statusJson(node)),
    },
    {
      operationId: 'WaitForBlock',
      method: 'GET',
      path: '/v2/status/wait-for-block-after/{round}',
      summary: 'Gets the node status after waiting for a round after the given round.',
      params: [ROUND],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request', '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: async (ctx, node) => {
        const round = pathUint(ctx, 'round');
        const deadline = Date.now() + node.waitTimeoutMs;
        while (node.follower.fetchedRound <= round && !ctx.signal.aborted) {
          const left = deadline - Date.now();
          if (left <= 0) break;
          await node.nextChange(ctx.signal, left);
        }
        return jsonReply(statusJson(node));
      },
    },
    {
      operationId: 'TransactionParams',
      method: 'GET',
      path: '/v2/transactions/params',
      summary: 'Get parameters for constructing a new transaction',
      params: [],
      produces: JSON_ONLY,
      responses: R({ '500': 'Internal Error', '503': 'Service Temporarily Unavailable' }),
      handler: (_ctx, node) => jsonReply(transactionParamsJson(node.ledger, node.follower.fetchedRound)),
    },
    {
      operationId: 'GetSupply',
      method: 'GET',
      path: '/v2/ledger/supply',
      summary: 'Get the current supply reported by the ledger.',
      params: [],
      produces: JSON_ONLY,
      responses: R(),
      handler: (_ctx, node) => {
        const s = node.ledger.supply();
        return jsonReply({ current_round: s.round, 'online-money': s.onlineMoney, 'online-stake': s.onlineMoney, 'total-money': s.totalMoney });
      },
    },
  ];
}
