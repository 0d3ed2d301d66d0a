import { addressBytes, encodeAddress } from '../../encoding/address.js';
import { compareBytes, utf8 } from '../../encoding/bytes.js';
import { fromBase64 } from '../../encoding/base64.js';
import { toHex } from '../../encoding/hex.js';
import { AlgodAdapter } from '../../adapters/node/algod.js';
import { HttpError, NetworkError, ProtocolError, RequestError, TimeoutError } from '../../adapters/http/errors.js';
import { PUBLIC_ENDPOINTS } from '../../adapters/profiles.js';
import type { AppInfo, AssetInfo, BoxesPage, TealKeyValue } from '../../adapters/node/types.js';
import { ForkRemoteError, type ForkHead, type ForkRemote, type RemoteAccount, type RemoteBoxPage, type RemoteRead } from '../../ledger/fork.js';
import type { AccountData, AppData, AssetData, KeyValue } from '../../ledger/state.js';
import { DecodeError } from '../../errors.js';

/** Where a fork copies its state from: a node address (or `testnet` / `mainnet`) and its API token. */
export interface ForkOptions {
  /** The remote node's address (`http://127.0.0.1:4001`), or `testnet` / `mainnet` for the public endpoints. */
  url: string;
  /** The remote's API token (sent as `X-Algo-API-Token`). */
  token?: string;
  /** Drop the fork cache (and the local chain built on it) and fork the remote's current round. */
  refresh?: boolean;
  /** Time limit of one request to the remote (default 30 s). */
  timeoutMs?: number;
}

/** The node address a fork option names (`testnet` / `mainnet` → the public endpoints). */
export function forkUrlOf(url: string): string {
  const named = PUBLIC_ENDPOINTS[url as keyof typeof PUBLIC_ENDPOINTS];
  return (named ? named.node : url).replace(/\/+$/, '');
}

const ZERO = new Uint8Array(32);
const addr = (a: string | undefined): Uint8Array => (a ? addressBytes(a) : ZERO);

function kvMap(list: readonly TealKeyValue[]): Map<string, KeyValue> {
  return new Map(list.map((kv) => [toHex(kv.key), { key: kv.key, value: kv.value }]));
}

function appData(info: AppInfo): AppData {
  const p = info.params;
  return {
    id: info.id,
    creator: addr(p.creator),
    approvalProgram: p.approvalProgram,
    clearStateProgram: p.clearStateProgram,
    global: kvMap(p.globalState),
    globalNumUint: BigInt(p.globalSchema?.numUint ?? 0),
    globalNumByteSlice: BigInt(p.globalSchema?.numByteSlice ?? 0),
    localNumUint: BigInt(p.localSchema?.numUint ?? 0),
    localNumByteSlice: BigInt(p.localSchema?.numByteSlice ?? 0),
    extraProgramPages: BigInt(p.extraProgramPages ?? 0),
    version: p.version ?? 0n,
  };
}

function assetData(info: AssetInfo): AssetData {
  const p = info.params;
  return {
    id: info.index,
    creator: addr(p.creator),
    total: p.total,
    decimals: BigInt(p.decimals),
    defaultFrozen: p.defaultFrozen,
    unitName: p.unitNameBytes ?? utf8(p.unitName ?? ''),
    name: p.nameBytes ?? utf8(p.name ?? ''),
    url: p.urlBytes ?? utf8(p.url ?? ''),
    metadataHash: p.metadataHash ?? ZERO,
    manager: addr(p.manager),
    reserve: addr(p.reserve),
    freeze: addr(p.freeze),
    clawback: addr(p.clawback),
  };
}

function fromBase64Safe(text: string): Uint8Array | undefined {
  try {
    return fromBase64(text);
  } catch {
    return undefined;
  }
}

const STATUS: Record<string, 0 | 1 | 2> = { Offline: 0, Online: 1, NotParticipating: 2 };

/**
 * A fork's remote over the public node API (`/v2`) through the SDK's algod adapter: the head
 * (`/versions`, `/v2/status`, the block at that round), accounts, apps, assets and boxes, each read
 * in one request. Failures become `ForkRemoteError`s that name the remote and what to do.
 */
export class AlgodForkRemote implements ForkRemote {
  readonly url: string;
  readonly #algod: AlgodAdapter;
  /** The latest round the remote reported (apps and assets are answered without one). */
  #round = 0n;

  constructor(options: ForkOptions) {
    const url = forkUrlOf(options.url);
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new ForkRemoteError(`the fork remote "${options.url}" is not a URL; give a node address (http://host:port) or testnet / mainnet`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ForkRemoteError(`the fork remote must be an http(s) URL, got ${u.protocol}`);
    this.url = url;
    this.#algod = new AlgodAdapter({ url, ...(options.token ? { token: options.token } : {}), timeoutMs: options.timeoutMs ?? 30_000, retry: { retries: 1 } });
  }

  async #call<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw this.#explain(what, e);
    }
  }

  #explain(what: string, e: unknown): Error {
    if (e instanceof ForkRemoteError) return e;
    if (e instanceof HttpError && (e.status === 401 || e.status === 403)) {
      return new ForkRemoteError(
        `the fork remote ${this.url} refused the API token (HTTP ${e.status}) while reading ${what}; pass its token with --fork-token (the fork option's token)`,
        { cause: e },
      );
    }
    if (e instanceof NetworkError || e instanceof TimeoutError) {
      return new ForkRemoteError(
        `cannot reach the fork remote ${this.url} while reading ${what} (${e.message}). Check the address and that the node is running; state already in the fork cache is used without it.`,
        { cause: e },
      );
    }
    if (e instanceof ProtocolError || e instanceof DecodeError || (e instanceof HttpError && e.status === 404)) {
      return new ForkRemoteError(
        `the fork remote ${this.url} does not answer as a node's /v2 API while reading ${what} (${e.message}); give the address of an algod node (its /v2 API), not an indexer or another service`,
        { cause: e },
      );
    }
    if (e instanceof RequestError) return new ForkRemoteError(`the fork remote ${this.url} failed while reading ${what}: ${e.message}`, { cause: e });
    return new ForkRemoteError(`the fork remote ${this.url} gave an unusable answer for ${what}: ${(e as Error).message}`, { cause: e });
  }

  /** Runs a read whose 404 means "the remote does not have it". */
  async #maybe<T>(what: string, f: () => Promise<T>): Promise<T | undefined> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) return undefined;
      throw this.#explain(what, e);
    }
  }

  async head(): Promise<ForkHead> {
    // Both asked at once; a remote that is not a node is named by its /versions answer first.
    const [versions, statusRead] = await Promise.allSettled([
      this.#call('/versions', () => this.#algod.versions()),
      this.#call('/v2/status', () => this.#algod.status()),
    ]);
    if (versions.status === 'rejected') throw versions.reason;
    const v = versions.value;
    if (!v.genesisId || v.genesisHash.length !== 32)
      throw new ForkRemoteError(`the fork remote ${this.url} does not report a genesis in /versions; give the address of an algod node (its /v2 API)`);
    if (statusRead.status === 'rejected') throw statusRead.reason;
    const status = statusRead.value;
    this.#round = status.lastRound;
    const block = await this.#call(`block ${status.lastRound}`, () => this.#algod.block(status.lastRound, { headerOnly: true }));
    const h = block.decoded?.header;
    if (!h)
      throw new ForkRemoteError(
        `the fork remote ${this.url} answered block ${status.lastRound} without a typed header; give the address of an algod node (its /v2 API)`,
      );
    return {
      url: this.url,
      genesisId: v.genesisId,
      genesisHash: v.genesisHash,
      round: status.lastRound,
      timestamp: h.timestamp,
      txnCounter: h.txnCounter,
      feeSink: h.feeSink,
      rewardsPool: h.rewardsPool,
      protocol: h.protocol,
    };
  }

  async latestRound(): Promise<bigint> {
    const r = (await this.#call('/v2/status', () => this.#algod.status())).lastRound;
    if (r > this.#round) this.#round = r;
    return r;
  }

  async account(address: Uint8Array): Promise<RemoteRead<RemoteAccount>> {
    const text = encodeAddress(address);
    const info = await this.#call(`account ${text}`, () => this.#algod.account(text));
    if (info.round > this.#round) this.#round = info.round;
    const account: AccountData = {
      balance: info.amount,
      status: STATUS[info.status] ?? 0,
      holdings: new Map(info.assets.map((h) => [h.assetId, { amount: h.amount, frozen: h.frozen }])),
      locals: new Map((info.appsLocalState ?? []).map((l) => [l.id, kvMap(l.keyValue)])),
      createdAssets: new Set(),
      createdApps: new Set(),
      totalBoxes: info.totalBoxes ?? 0n,
      totalBoxBytes: info.totalBoxBytes ?? 0n,
      incentiveEligible: info.incentiveEligible ?? false,
      lastProposed: info.lastProposed ?? 0n,
      lastHeartbeat: info.lastHeartbeat ?? 0n,
    };
    if (info.authAddress) account.authAddr = addressBytes(info.authAddress);
    const localSchemas = new Map(
      (info.appsLocalState ?? []).map((l) => [l.id, { localNumUint: BigInt(l.schema?.numUint ?? 0), localNumByteSlice: BigInt(l.schema?.numByteSlice ?? 0) }]),
    );
    return {
      round: info.round,
      value: { account, createdApps: info.createdApps.map(appData), createdAssets: info.createdAssets.map(assetData), localSchemas },
    };
  }

  async app(id: bigint): Promise<RemoteRead<AppData>> {
    const info = await this.#maybe(`app ${id}`, () => this.#algod.application(id));
    return { round: this.#round, value: info ? appData(info) : undefined };
  }

  async asset(id: bigint): Promise<RemoteRead<AssetData>> {
    const info = await this.#maybe(`asset ${id}`, () => this.#algod.asset(id));
    return { round: this.#round, value: info ? assetData(info) : undefined };
  }

  /** Set once the remote has shown it has no usable paged box listing: later pages are not asked for. */
  #noBoxPages = false;
  /** The latest round the remote said it no longer holds: pages asked at it or before are read at the remote's latest round. */
  #roundGone: bigint | undefined;

  /**
   * One page of an app's boxes with values (`/v2/applications/{id}/boxes?include=values&next=…&limit=…&round=…`).
   * The round is dropped (the remote's latest is read) when the remote says it no longer holds it.
   * Undefined, and never asked again, when the remote refuses the paged form (an older node's 400
   * or 404) or answers it in a way that cannot be trusted: without a round, without values, with
   * names out of order or before `after`, or with more boxes than asked for.
   */
  async boxPage(appId: bigint, options: { after?: Uint8Array; limit: number; round?: bigint }): Promise<RemoteBoxPage | undefined> {
    if (this.#noBoxPages) return undefined;
    const what = `boxes of app ${appId}`;
    const ask = (round: bigint | undefined) =>
      this.#algod.boxesPage(appId, {
        limit: BigInt(options.limit),
        values: true,
        ...(options.after ? { next: options.after } : {}),
        ...(round !== undefined ? { round } : {}),
      });
    let answer;
    try {
      const gone = this.#roundGone;
      const pinned = options.round !== undefined && gone !== undefined && options.round <= gone ? undefined : options.round;
      try {
        answer = await ask(pinned);
      } catch (e) {
        // The node's words for a round it has let go of (or not reached): read its latest instead.
        if (
          pinned === undefined ||
          !(e instanceof HttpError && e.status === 400 && /given round is (no longer available|greater than the latest)/.test(e.serviceMessage ?? ''))
        )
          throw e;
        if (gone === undefined || pinned > gone) this.#roundGone = pinned;
        answer = await ask(undefined);
      }
    } catch (e) {
      if (e instanceof HttpError && [400, 404, 405, 501].includes(e.status)) {
        this.#noBoxPages = true;
        return undefined;
      }
      throw this.#explain(what, e);
    }
    const page = this.#trustedPage(answer, options);
    if (!page) {
      this.#noBoxPages = true;
      return undefined;
    }
    if (page.round > this.#round) this.#round = page.round;
    return page;
  }

  /** The answer as a page, or undefined when it is not the paged form answered as asked. */
  #trustedPage(answer: BoxesPage, options: { after?: Uint8Array; limit: number }): RemoteBoxPage | undefined {
    if (answer.round === undefined || answer.boxes.length > options.limit) return undefined;
    const boxes: RemoteBoxPage['boxes'] = [];
    let prev = options.after;
    for (const b of answer.boxes) {
      if (b.value === undefined || (prev && compareBytes(b.name, prev) <= 0)) return undefined;
      boxes.push({ name: b.name, value: b.value });
      prev = b.name;
    }
    if (answer.nextToken === undefined) return { round: answer.round, boxes };
    // More follow: the token names the page's last box, where the next page would start.
    const last = boxes[boxes.length - 1]?.name;
    const token = /^b64:/.test(answer.nextToken) ? fromBase64Safe(answer.nextToken.slice(4)) : undefined;
    if (!last || !token || compareBytes(token, last) !== 0) return undefined;
    return { round: answer.round, boxes, last };
  }

  async box(appId: bigint, name: Uint8Array): Promise<RemoteRead<Uint8Array>> {
    const box = await this.#maybe(`box ${appId}/0x${toHex(name)}`, () => this.#algod.box(appId, name));
    if (box?.round !== undefined && box.round > this.#round) this.#round = box.round;
    return { round: box?.round ?? this.#round, value: box?.value };
  }
}
