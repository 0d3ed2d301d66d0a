import { toBase64 } from '../../encoding/base64.js';
import { ValidationError } from '../../errors.js';
import { HttpClient, pathOf, type QueryInput, type QueryValue } from '../http/client.js';
import { camelize } from '../wire.js';
import { httpClientFor, type ConnectionOptions } from '../http/connection.js';
import { PagedListing, type PageOptions } from './paging.js';
import type * as Q from './types.js';

/** The header that carries the query service's API token. */
export const QUERY_TOKEN_HEADER = 'X-Indexer-API-Token';

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const UINT_PARAMS = new Set(['applicationId', 'assetId', 'currencyGreaterThan', 'currencyLessThan', 'round', 'minRound', 'maxRound', 'limit']);

/** camelCase parameters → the service's kebab-case query, keeping 0 and false (only undefined is "unset"). */
export function toQueryParams(params: object | undefined): QueryInput {
  const out: Record<string, QueryValue> = {};
  if (!params) return out;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (UINT_PARAMS.has(name)) {
      const ok = typeof value === 'bigint' ? value >= 0n : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
      if (!ok) throw new ValidationError(`query parameter ${name} must be a non-negative integer, got ${String(value)}`);
    }
    let v: QueryValue;
    if (value instanceof Date) v = value.toISOString();
    else if (value instanceof Uint8Array) v = toBase64(value);
    else if (Array.isArray(value)) v = value as readonly string[];
    else v = value as QueryValue;
    out[kebab(name)] = v;
  }
  return out;
}

/** A box name as the query service's `name` parameter (`b64:…`). */
export function boxNameQuery(name: Q.BoxName): string {
  if (name instanceof Uint8Array) return `b64:${toBase64(name)}`;
  if ('int' in name) return `int:${name.int}`;
  if ('str' in name) return `str:${name.str}`;
  if ('addr' in name) return `addr:${name.addr}`;
  return `b64:${name.b64}`;
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/**
 * Client for the chain data query service (query-service.md): the 21 read operations with typed
 * parameters, plus lazy `for await` iterators over every paged listing.
 */
export class QueryClient {
  readonly http: HttpClient;

  constructor(options: ConnectionOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : httpClientFor(options, QUERY_TOKEN_HEADER);
  }

  async #get<T>(path: string, params?: object, extra?: QueryInput): Promise<T> {
    return camelize(await this.http.json({ method: 'GET', path, query: { ...toQueryParams(params), ...(extra ?? {}) } })) as T;
  }

  #list<R extends { nextToken?: string }, T, P extends Q.PageParams>(
    operation: string,
    fetch: (p: P) => Promise<R>,
    params: P,
    itemsOf: (r: R) => T[],
    options: PageOptions = {},
  ): PagedListing<R, T> {
    const start = params.next;
    return new PagedListing<R, T>(
      operation,
      (next, limit) => fetch({ ...params, ...(next !== undefined ? { next } : {}), ...(limit !== undefined ? { limit } : {}) }),
      itemsOf,
      { ...options, ...(start !== undefined ? { startToken: start } : {}) },
    );
  }

  // 1
  async health(): Promise<Q.HealthCheck> {
    return this.#get('/health');
  }

  // 2
  async searchAccounts(params: Q.SearchAccountsParams = {}): Promise<Q.AccountsResponse> {
    const r = await this.#get<Q.AccountsResponse>('/v2/accounts', params);
    return { ...r, accounts: listOf(r.accounts) };
  }
  accounts(params: Q.SearchAccountsParams = {}, options?: PageOptions): PagedListing<Q.AccountsResponse, Q.Account> {
    return this.#list(
      'searchAccounts',
      (p) => this.searchAccounts(p),
      params,
      (r) => r.accounts,
      options,
    );
  }

  // 3
  async lookupAccount(address: string, params: Q.LookupAccountParams = {}): Promise<Q.AccountResponse> {
    return this.#get(pathOf('v2', 'accounts', address), params);
  }

  // 4
  async lookupAccountAppLocalStates(address: string, params: Q.AccountAppLocalStatesParams = {}): Promise<Q.AppLocalStatesResponse> {
    const r = await this.#get<Q.AppLocalStatesResponse>(pathOf('v2', 'accounts', address, 'apps-local-state'), params);
    return { ...r, appsLocalStates: listOf(r.appsLocalStates) };
  }
  accountAppLocalStates(
    address: string,
    params: Q.AccountAppLocalStatesParams = {},
    options?: PageOptions,
  ): PagedListing<Q.AppLocalStatesResponse, Q.ApplicationLocalState> {
    return this.#list(
      'lookupAccountAppLocalStates',
      (p) => this.lookupAccountAppLocalStates(address, p),
      params,
      (r) => r.appsLocalStates,
      options,
    );
  }

  // 5
  async lookupAccountAssets(address: string, params: Q.AccountAssetsParams = {}): Promise<Q.AssetHoldingsResponse> {
    const r = await this.#get<Q.AssetHoldingsResponse>(pathOf('v2', 'accounts', address, 'assets'), params);
    return { ...r, assets: listOf(r.assets) };
  }
  accountAssets(address: string, params: Q.AccountAssetsParams = {}, options?: PageOptions): PagedListing<Q.AssetHoldingsResponse, Q.AssetHolding> {
    return this.#list(
      'lookupAccountAssets',
      (p) => this.lookupAccountAssets(address, p),
      params,
      (r) => r.assets,
      options,
    );
  }

  // 6
  async lookupAccountCreatedApplications(address: string, params: Q.AccountCreatedAppsParams = {}): Promise<Q.ApplicationsResponse> {
    const r = await this.#get<Q.ApplicationsResponse>(pathOf('v2', 'accounts', address, 'created-applications'), params);
    return { ...r, applications: listOf(r.applications) };
  }
  accountCreatedApplications(
    address: string,
    params: Q.AccountCreatedAppsParams = {},
    options?: PageOptions,
  ): PagedListing<Q.ApplicationsResponse, Q.Application> {
    return this.#list(
      'lookupAccountCreatedApplications',
      (p) => this.lookupAccountCreatedApplications(address, p),
      params,
      (r) => r.applications,
      options,
    );
  }

  // 7
  async lookupAccountCreatedAssets(address: string, params: Q.AccountCreatedAssetsParams = {}): Promise<Q.AssetsResponse> {
    const r = await this.#get<Q.AssetsResponse>(pathOf('v2', 'accounts', address, 'created-assets'), params);
    return { ...r, assets: listOf(r.assets) };
  }
  accountCreatedAssets(address: string, params: Q.AccountCreatedAssetsParams = {}, options?: PageOptions): PagedListing<Q.AssetsResponse, Q.Asset> {
    return this.#list(
      'lookupAccountCreatedAssets',
      (p) => this.lookupAccountCreatedAssets(address, p),
      params,
      (r) => r.assets,
      options,
    );
  }

  // 8
  async lookupAccountTransactions(address: string, params: Q.AccountTransactionsParams = {}): Promise<Q.TransactionsResponse> {
    const r = await this.#get<Q.TransactionsResponse>(pathOf('v2', 'accounts', address, 'transactions'), params);
    return { ...r, transactions: listOf(r.transactions) };
  }
  accountTransactions(address: string, params: Q.AccountTransactionsParams = {}, options?: PageOptions): PagedListing<Q.TransactionsResponse, Q.Transaction> {
    return this.#list(
      'lookupAccountTransactions',
      (p) => this.lookupAccountTransactions(address, p),
      params,
      (r) => r.transactions,
      options,
    );
  }

  // 9
  async searchApplications(params: Q.SearchApplicationsParams = {}): Promise<Q.ApplicationsResponse> {
    const r = await this.#get<Q.ApplicationsResponse>('/v2/applications', params);
    return { ...r, applications: listOf(r.applications) };
  }
  applications(params: Q.SearchApplicationsParams = {}, options?: PageOptions): PagedListing<Q.ApplicationsResponse, Q.Application> {
    return this.#list(
      'searchApplications',
      (p) => this.searchApplications(p),
      params,
      (r) => r.applications,
      options,
    );
  }

  // 10
  async lookupApplication(id: Q.Uint, params: { includeAll?: boolean } = {}): Promise<Q.ApplicationResponse> {
    return this.#get(pathOf('v2', 'applications', id), params);
  }

  // 11
  async lookupApplicationBox(id: Q.Uint, name: Q.BoxName): Promise<Q.Box> {
    return this.#get(pathOf('v2', 'applications', id, 'box'), undefined, { name: boxNameQuery(name) });
  }

  // 12
  async searchApplicationBoxes(id: Q.Uint, params: Q.ApplicationBoxesParams = {}): Promise<Q.BoxesResponse> {
    const r = await this.#get<Q.BoxesResponse>(pathOf('v2', 'applications', id, 'boxes'), params);
    return { ...r, boxes: listOf(r.boxes) };
  }
  applicationBoxes(id: Q.Uint, params: Q.ApplicationBoxesParams = {}, options?: PageOptions): PagedListing<Q.BoxesResponse, { name: Q.B64 }> {
    return this.#list(
      'searchApplicationBoxes',
      (p) => this.searchApplicationBoxes(id, p),
      params,
      (r) => r.boxes,
      options,
    );
  }

  // 13
  async lookupApplicationLogs(id: Q.Uint, params: Q.ApplicationLogsParams = {}): Promise<Q.ApplicationLogsResponse> {
    return this.#get(pathOf('v2', 'applications', id, 'logs'), params);
  }
  applicationLogs(id: Q.Uint, params: Q.ApplicationLogsParams = {}, options?: PageOptions): PagedListing<Q.ApplicationLogsResponse, Q.ApplicationLogData> {
    return this.#list(
      'lookupApplicationLogs',
      (p) => this.lookupApplicationLogs(id, p),
      params,
      (r) => r.logData ?? [],
      options,
    );
  }

  // 14
  async searchAssets(params: Q.SearchAssetsParams = {}): Promise<Q.AssetsResponse> {
    const r = await this.#get<Q.AssetsResponse>('/v2/assets', params);
    return { ...r, assets: listOf(r.assets) };
  }
  assets(params: Q.SearchAssetsParams = {}, options?: PageOptions): PagedListing<Q.AssetsResponse, Q.Asset> {
    return this.#list(
      'searchAssets',
      (p) => this.searchAssets(p),
      params,
      (r) => r.assets,
      options,
    );
  }

  // 15
  async lookupAsset(id: Q.Uint, params: { includeAll?: boolean } = {}): Promise<Q.AssetResponse> {
    return this.#get(pathOf('v2', 'assets', id), params);
  }

  // 16
  async lookupAssetBalances(id: Q.Uint, params: Q.AssetBalancesParams = {}): Promise<Q.AssetBalancesResponse> {
    const r = await this.#get<Q.AssetBalancesResponse>(pathOf('v2', 'assets', id, 'balances'), params);
    return { ...r, balances: listOf(r.balances) };
  }
  assetBalances(id: Q.Uint, params: Q.AssetBalancesParams = {}, options?: PageOptions): PagedListing<Q.AssetBalancesResponse, Q.MiniAssetHolding> {
    return this.#list(
      'lookupAssetBalances',
      (p) => this.lookupAssetBalances(id, p),
      params,
      (r) => r.balances,
      options,
    );
  }

  // 17
  async lookupAssetTransactions(id: Q.Uint, params: Q.AssetTransactionsParams = {}): Promise<Q.TransactionsResponse> {
    const r = await this.#get<Q.TransactionsResponse>(pathOf('v2', 'assets', id, 'transactions'), params);
    return { ...r, transactions: listOf(r.transactions) };
  }
  assetTransactions(id: Q.Uint, params: Q.AssetTransactionsParams = {}, options?: PageOptions): PagedListing<Q.TransactionsResponse, Q.Transaction> {
    return this.#list(
      'lookupAssetTransactions',
      (p) => this.lookupAssetTransactions(id, p),
      params,
      (r) => r.transactions,
      options,
    );
  }

  // 18
  async searchBlockHeaders(params: Q.BlockHeadersParams = {}): Promise<Q.BlockHeadersResponse> {
    const r = await this.#get<Q.BlockHeadersResponse>('/v2/block-headers', params);
    return { ...r, blocks: listOf(r.blocks) };
  }
  blockHeaders(params: Q.BlockHeadersParams = {}, options?: PageOptions): PagedListing<Q.BlockHeadersResponse, Q.Block> {
    return this.#list(
      'searchBlockHeaders',
      (p) => this.searchBlockHeaders(p),
      params,
      (r) => r.blocks,
      options,
    );
  }

  // 19
  async lookupBlock(round: Q.Uint, params: { headerOnly?: boolean } = {}): Promise<Q.Block> {
    return this.#get(pathOf('v2', 'blocks', round), params);
  }

  // 20
  async searchTransactions(params: Q.SearchTransactionsParams = {}): Promise<Q.TransactionsResponse> {
    const r = await this.#get<Q.TransactionsResponse>('/v2/transactions', params);
    return { ...r, transactions: listOf(r.transactions) };
  }
  transactions(params: Q.SearchTransactionsParams = {}, options?: PageOptions): PagedListing<Q.TransactionsResponse, Q.Transaction> {
    return this.#list(
      'searchTransactions',
      (p) => this.searchTransactions(p),
      params,
      (r) => r.transactions,
      options,
    );
  }

  // 21
  async lookupTransaction(txid: string): Promise<Q.TransactionResponse> {
    return this.#get(pathOf('v2', 'transactions', txid));
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
