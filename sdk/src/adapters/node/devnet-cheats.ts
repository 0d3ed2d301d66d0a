import { HttpClient } from '../http/client.js';
import { httpClientFor, type ConnectionOptions } from '../http/connection.js';
import { ALGOD_TOKEN_HEADER } from './algod.js';

/** The cheat routes of a devnet's node service (`POST /v1/devnet/<name>`). */
export type DevnetCheat =
  | 'snapshot'
  | 'revert'
  | 'release'
  | 'advance-rounds'
  | 'set-time'
  | 'advance-time'
  | 'impersonate'
  | 'set-balance'
  | 'set-asset-holding'
  | 'set-global'
  | 'set-local'
  | 'set-box'
  | 'set-block-seed';

/** Every cheat route name, in the order the CLI lists them. */
export const DEVNET_CHEATS: readonly DevnetCheat[] = [
  'snapshot',
  'revert',
  'release',
  'advance-rounds',
  'set-time',
  'advance-time',
  'impersonate',
  'set-balance',
  'set-asset-holding',
  'set-global',
  'set-local',
  'set-box',
  'set-block-seed',
];

/** What every cheat answers: the chain's latest round and timestamp after it (plus `id` for a snapshot). */
export interface DevnetCheatResult {
  round: bigint;
  timestamp: bigint;
  id?: bigint;
}

/**
 * Client for a devnet's cheat routes (docs: `docs/testing.md`): snapshots, rounds, time,
 * impersonation, balances, holdings, state and boxes. The node's API token is required; a node
 * that is not a devnet answers 403.
 *
 * @example
 * ```ts
 * const cheats = new DevnetCheatsClient({ url: 'http://127.0.0.1:4001', token });
 * const { id } = await cheats.cheat('snapshot');
 * await cheats.cheat('advance-rounds', { rounds: 1000 });
 * await cheats.cheat('revert', { id });
 * ```
 */
export class DevnetCheatsClient {
  readonly http: HttpClient;

  constructor(options: ConnectionOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : httpClientFor(options, ALGOD_TOKEN_HEADER);
  }

  /** Runs one cheat with its JSON body (numbers as numbers, bigints or decimal strings; bytes as base64). */
  async cheat(name: DevnetCheat, body: Record<string, unknown> = {}): Promise<DevnetCheatResult> {
    return this.http.json<DevnetCheatResult>({ method: 'POST', path: `/v1/devnet/${name}`, json: body, idempotent: false });
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
