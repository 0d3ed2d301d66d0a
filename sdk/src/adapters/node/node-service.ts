import { HttpClient, pathOf } from '../http/client.js';
import type { ConnectionOptions } from '../http/connection.js';
import { HttpError, UnsupportedOperationError } from '../http/errors.js';
import { obj, str, u64 } from '../wire.js';
import { HttpNodeAdapter } from './http-node-adapter.js';
import { TransactionNotFoundError } from './errors.js';
import { toAccountInfo, toAssetInfo, toAssetParams, toNodeStatus, toPending, toSuggestedParams, toSupply } from './normalize.js';
import type { AccountInfo, AppInfo, AssetInfo, AssetParams, BlockInfo, BoxValue, NodeStatus, PendingTransaction, SuggestedParams, Supply } from './types.js';
import {
  parseMetrics,
  toNodeVersion,
  toV1Block,
  toV1Pending,
  toV1Transaction,
  toV1TransactionList,
  type NodeVersion,
  type V1Block,
  type V1PendingTransactions,
  type V1Transaction,
} from './v1-model.js';

/** The header that carries the node service's API token. */
export const NODE_SERVICE_TOKEN_HEADER = 'X-Node-API-Token';

/** Filters of the node service's account transaction listing: round range, date range, max results. */
export interface AccountTransactionsQuery {
  firstRound?: bigint | number;
  lastRound?: bigint | number;
  max?: number;
  /** Date filters need an indexer behind the node. Format YYYY-MM-DD. */
  fromDate?: string;
  toDate?: string;
}

/**
 * Client for the node service (node-service.md): all /v1 operations, the follower-mode /v2
 * operations and simulate, plus the {@link NodeAdapter} view of them.
 */
export class NodeServiceAdapter extends HttpNodeAdapter {
  /** Our node service answers simulate with node-service.md's result fields (missing signatures, the verdict) on `/v1`. */
  protected override readonly simulatePath: string = '/v1/transactions/simulate';

  readonly kind = 'node-service' as const;

  constructor(options: ConnectionOptions | HttpClient) {
    super(options, NODE_SERVICE_TOKEN_HEADER);
  }

  // --- operations 1-3, 20: service-level ---

  /** Resolves when the node reports itself healthy. */
  async health(): Promise<void> {
    await this.http.send({ method: 'GET', path: '/health' });
  }

  async metrics(): Promise<Map<string, string>> {
    return parseMetrics(await this.http.text({ method: 'GET', path: '/metrics', accept: 'text/plain' }));
  }

  async swagger(): Promise<unknown> {
    return this.http.json({ method: 'GET', path: '/swagger.json' });
  }

  async versions(): Promise<NodeVersion> {
    return toNodeVersion(await this.http.json({ method: 'GET', path: '/versions' }));
  }

  // --- operations 4-19: /v1 ---

  async account(address: string): Promise<AccountInfo> {
    return toAccountInfo(await this.http.json({ method: 'GET', path: pathOf('v1', 'account', address) }));
  }

  async accountTransaction(address: string, txid: string): Promise<V1Transaction> {
    return toV1Transaction(await this.http.json({ method: 'GET', path: pathOf('v1', 'account', address, 'transaction', txid) }));
  }

  async accountTransactions(address: string, query: AccountTransactionsQuery = {}): Promise<V1Transaction[]> {
    const body = await this.http.json({
      method: 'GET',
      path: pathOf('v1', 'account', address, 'transactions'),
      query: { firstRound: query.firstRound, lastRound: query.lastRound, max: query.max, fromDate: query.fromDate, toDate: query.toDate },
    });
    return toV1TransactionList(body);
  }

  async accountPendingTransactions(address: string, query: { max?: number } = {}): Promise<V1PendingTransactions> {
    return toV1Pending(await this.http.json({ method: 'GET', path: pathOf('v1', 'account', address, 'transactions', 'pending'), query: { max: query.max } }));
  }

  async assetParams(index: bigint): Promise<AssetParams> {
    return toAssetParams(await this.http.json({ method: 'GET', path: pathOf('v1', 'asset', index) }));
  }

  async asset(index: bigint): Promise<AssetInfo> {
    return { index, params: await this.assetParams(index) };
  }

  async assets(query: { assetIdx?: bigint | number; max?: number } = {}): Promise<AssetInfo[]> {
    const body = obj(await this.http.json({ method: 'GET', path: '/v1/assets', query: { assetIdx: query.assetIdx, max: query.max } }), 'assets');
    return (Array.isArray(body.assets) ? body.assets : []).map((a) => toAssetInfo(a));
  }

  async v1Block(round: bigint): Promise<V1Block> {
    return toV1Block(await this.http.json({ method: 'GET', path: pathOf('v1', 'block', round) }));
  }

  /** The block's raw msgpack bytes (`raw=1`). */
  async rawBlock(round: bigint): Promise<Uint8Array> {
    return (await this.http.send({ method: 'GET', path: pathOf('v1', 'block', round), query: { raw: 1 } })).body;
  }

  async block(round: bigint): Promise<BlockInfo> {
    const raw = await this.v1Block(round);
    return { round: raw.round, timestamp: raw.timestamp, proposer: raw.proposer, raw };
  }

  async supply(): Promise<Supply> {
    return toSupply(await this.http.json({ method: 'GET', path: '/v1/ledger/supply' }));
  }

  async status(): Promise<NodeStatus> {
    return toNodeStatus(await this.http.json({ method: 'GET', path: '/v1/status' }));
  }

  async waitForBlockAfter(round: bigint, options: { signal?: AbortSignal } = {}): Promise<NodeStatus> {
    // The node holds this request open until the block exists, so it gets a longer time limit.
    const body = await this.http.json({
      method: 'GET',
      path: pathOf('v1', 'status', 'wait-for-block-after', round) + '/',
      timeoutMs: 90_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return toNodeStatus(body);
  }

  async transaction(txid: string): Promise<V1Transaction> {
    return toV1Transaction(await this.http.json({ method: 'GET', path: pathOf('v1', 'transaction', txid) }));
  }

  protected async postRaw(raw: Uint8Array, signal?: AbortSignal): Promise<string> {
    const body = await this.http.json({
      method: 'POST',
      path: '/v1/transactions',
      body: raw,
      contentType: 'application/x-binary',
      // Not idempotent: the HTTP layer repeats it only when the connection was refused (nothing sent).
      idempotent: false,
      ...(signal ? { signal } : {}),
    });
    return str(obj(body, 'submit').txId, 'txId');
  }

  async fee(): Promise<bigint> {
    return u64(obj(await this.http.json({ method: 'GET', path: '/v1/transactions/fee' }), 'fee').fee, 'fee');
  }

  async suggestedParams(): Promise<SuggestedParams> {
    return toSuggestedParams(await this.http.json({ method: 'GET', path: '/v1/transactions/params' }));
  }

  async pendingTransactions(query: { max?: number } = {}): Promise<V1PendingTransactions> {
    return toV1Pending(await this.http.json({ method: 'GET', path: '/v1/transactions/pending', query: { max: query.max } }));
  }

  async pending(txid: string): Promise<PendingTransaction> {
    try {
      return toPending(await this.http.json({ method: 'GET', path: pathOf('v1', 'transactions', 'pending', txid) }), txid);
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) throw new TransactionNotFoundError(txid);
      throw e;
    }
  }

  // --- not in the /v1 service ---

  async application(_id: bigint): Promise<AppInfo> {
    throw new UnsupportedOperationError('application lookup', 'node service (/v1)');
  }

  async box(_appId: bigint, _name: Uint8Array): Promise<BoxValue> {
    throw new UnsupportedOperationError('box lookup', 'node service (/v1)');
  }
}
