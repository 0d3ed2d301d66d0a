import { HttpClient, pathOf } from '../http/client.js';
import { httpClientFor, type ConnectionOptions } from '../http/connection.js';
import { HttpError } from '../http/errors.js';
import { BaseNodeAdapter, simulateRequestBody } from './adapter.js';
import { toSimulateResult, toSyncRound } from './normalize.js';
import type { SimulateOptions, SimulateResult } from './types.js';

/**
 * What the node service and the public node API serve identically over HTTP: simulate and the
 * follower-mode /v2 calls, plus the connection's lifetime.
 */
export abstract class HttpNodeAdapter extends BaseNodeAdapter {
  readonly http: HttpClient;

  constructor(options: ConnectionOptions | HttpClient, tokenHeader: string) {
    super();
    this.http = options instanceof HttpClient ? options : httpClientFor(options, tokenHeader);
  }

  /** Where simulate is asked: the public node API's operation; our node service's `/v1` one adds its result fields. */
  protected readonly simulatePath: string = '/v2/transactions/simulate';

  async simulate(signed: readonly Uint8Array[], options: SimulateOptions = {}): Promise<SimulateResult> {
    const body = await this.http.json({
      method: 'POST',
      path: this.simulatePath,
      body: simulateRequestBody(signed, options),
      contentType: 'application/msgpack',
      // Simulation changes nothing, so repeating it is harmless.
      idempotent: true,
    });
    return toSimulateResult(body);
  }

  async getSyncRound(): Promise<bigint | undefined> {
    try {
      return toSyncRound(await this.http.json({ method: 'GET', path: '/v2/ledger/sync' }));
    } catch (e) {
      // A node with no sync round set answers 404 (protocol.md §7.1).
      if (e instanceof HttpError && e.status === 404) return undefined;
      throw e;
    }
  }

  async setSyncRound(round: bigint): Promise<void> {
    await this.http.send({ method: 'POST', path: pathOf('v2', 'ledger', 'sync', round), idempotent: true });
  }

  async unsetSyncRound(): Promise<void> {
    await this.http.send({ method: 'DELETE', path: '/v2/ledger/sync' });
  }

  /** Decoded with `Map`s: delta maps are keyed by structs and integers, not only strings. */
  async deltas(round: bigint): Promise<unknown> {
    return this.http.msgpack({ method: 'GET', path: pathOf('v2', 'deltas', round), query: { format: 'msgpack' } }, { maps: true });
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
