import { TealworksError } from '../../errors.js';
import { NODE_SERVICE_TOKEN_HEADER } from '../http/presets.js';
import { ALGOD_TOKEN_HEADER } from '../../adapters/node/algod.js';
import { readBodyCapped } from '../../adapters/http/read-body.js';
import { fromBase64 } from '../../encoding/base64.js';
import { parseJson } from '../../encoding/json.js';
import { decodeMsgpack, encodeMsgpack, type MsgpackValue } from '../../encoding/msgpack.js';
import { decodeBlock, headerHash, blockHashText, type Block } from '../../ledger/block.js';
import { headerSchemeOfProtocol, type Ledger, type LedgerConfig } from '../../ledger/ledger.js';
import { bytesEqual } from '../../encoding/bytes.js';

/** The source node cannot be read, or serves something a follower cannot use. */
export class FollowSourceError extends TealworksError {}

/** Where a follower gets its blocks: a devnet's node service (`/v1`) or any node serving `/v2/blocks`. */
export interface FollowSourceOptions {
  /** Base address of the source node (`http://127.0.0.1:4001`). */
  url: string;
  /** API token of the source, sent as `X-Node-API-Token` and `X-Algo-API-Token`. */
  token?: string;
  /**
   * Per-request time limit for the whole answer, body included (default 30 s; block waits use the
   * source's own limit plus this). A body that drips in slowly is cut off at this limit.
   */
  timeoutMs?: number;
  /** Largest block answer accepted (default {@link MAX_FOLLOW_BLOCK_BYTES}). */
  maxBlockBytes?: number;
}

/**
 * Largest block a follower accepts from its source (32 MiB). A block holds at most 5 MB of
 * transactions (MaxTxnBytesPerBlock) plus their apply data; anything larger is refused unread.
 */
export const MAX_FOLLOW_BLOCK_BYTES = 32 * 1024 * 1024;
/** Largest status, versions or genesis answer accepted from a follow source (16 MiB). */
export const MAX_FOLLOW_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** What the follower learns about the source's chain before it can build its own ledger. */
export interface SourceGenesis {
  genesisId: string;
  genesisHash: Uint8Array;
  /** Ledger settings that rebuild the source's genesis block. */
  ledgerConfig: Pick<LedgerConfig, 'genesisId' | 'genesisAccounts' | 'feeSink' | 'rewardsPool' | 'specialAccountBalance' | 'genesisTimestamp' | 'headerScheme'>;
}

interface GenesisDoc {
  alloc?: { addr?: unknown; state?: { algo?: unknown; onl?: unknown } }[];
  fees?: unknown;
  rwd?: unknown;
  id?: unknown;
  proto?: unknown;
  timestamp?: unknown;
}

const toBig = (v: unknown, what: string): bigint => {
  if (typeof v === 'bigint' && v >= 0n) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new FollowSourceError(`the source's genesis has an invalid ${what}: ${String(v)}`);
};

/**
 * HTTP client of the source node: its genesis, its latest round, waiting for its next block, and
 * raw blocks. Speaks our node service's `/v1` API when the source lists it in `/versions`, and
 * the node's `/v2` API otherwise (`/v2/status`, `/v2/blocks/{round}?format=msgpack`).
 */
export class FollowSource {
  readonly url: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  readonly #maxBlockBytes: number;
  #api: 'v1' | 'v2' | undefined;

  constructor(options: FollowSourceOptions) {
    let u: URL;
    try {
      u = new URL(options.url);
    } catch {
      throw new FollowSourceError(`the follow source "${options.url}" is not a URL; give the source node's address, e.g. http://127.0.0.1:4001`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new FollowSourceError(`the follow source must be an http(s) URL, got ${u.protocol}`);
    this.url = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxBlockBytes = options.maxBlockBytes ?? MAX_FOLLOW_BLOCK_BYTES;
  }

  /**
   * One GET with a size cap (a larger answer is refused as soon as it is announced or exceeds the
   * cap while arriving, never buffered whole) and a time cap on the whole answer (a dripping body
   * is cut off). Each request gets its own signal, derived from the caller's.
   */
  async #get(path: string, signal?: AbortSignal, extraMs = 0, maxBytes = MAX_FOLLOW_DOCUMENT_BYTES): Promise<{ status: number; body: Uint8Array }> {
    const headers: Record<string, string> = {};
    if (this.#token) {
      headers[NODE_SERVICE_TOKEN_HEADER] = this.#token;
      headers[ALGOD_TOKEN_HEADER] = this.#token;
    }
    const limitMs = this.#timeoutMs + extraMs;
    const deadline = AbortSignal.timeout(limitMs);
    const own = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      // undici loads with the first fetch: a devnet that follows nothing never loads it.
      const { request } = await import('undici');
      const res = await request(`${this.url}${path}`, { headers, headersTimeout: limitMs, bodyTimeout: limitMs, signal: own });
      const body = await readBodyCapped(
        res.body,
        res.headers['content-length'],
        maxBytes,
        (declared) =>
          new FollowSourceError(
            declared !== undefined
              ? `the follow source's answer to GET ${path} is ${declared} bytes, over the ${maxBytes}-byte limit; it was not read`
              : `the follow source's answer to GET ${path} exceeded the ${maxBytes}-byte limit; it was not read further`,
          ),
      );
      return { status: res.statusCode, body };
    } catch (e) {
      if (e instanceof FollowSourceError) throw e;
      if (signal?.aborted) throw e;
      if (deadline.aborted)
        throw new FollowSourceError(`the follow source ${this.url} did not answer GET ${path} in full within ${limitMs} ms; will retry`, { cause: e });
      throw new FollowSourceError(`cannot reach the follow source ${this.url}: ${(e as Error).message}`, { cause: e });
    }
  }

  async #json(path: string, signal?: AbortSignal, extraMs = 0): Promise<Record<string, unknown>> {
    const r = await this.#get(path, signal, extraMs);
    const text = new TextDecoder().decode(r.body);
    if (r.status === 401) throw new FollowSourceError(`the follow source ${this.url} refused the API token (401); pass its node token`);
    if (r.status !== 200) throw new FollowSourceError(`the follow source answered ${r.status} to GET ${path}: ${text.slice(0, 200)}`);
    try {
      return parseJson(text, { bigint: 'auto' }) as Record<string, unknown>;
    } catch {
      throw new FollowSourceError(`the follow source answered GET ${path} with something other than JSON`);
    }
  }

  /** Which API the source speaks (from `/versions`). */
  async api(): Promise<'v1' | 'v2'> {
    if (!this.#api) {
      const v = await this.#json('/versions');
      const versions = Array.isArray(v.versions) ? v.versions : [];
      this.#api = versions.includes('v1') ? 'v1' : 'v2';
    }
    return this.#api;
  }

  /** The source's genesis (`/genesis`), checked against the hash it reports in `/versions`. */
  async genesis(): Promise<SourceGenesis> {
    const v = await this.#json('/versions');
    const id = v.genesis_id;
    const hashText = v.genesis_hash_b64;
    if (typeof id !== 'string' || typeof hashText !== 'string')
      throw new FollowSourceError(`the follow source ${this.url} does not report its genesis in /versions`);
    const doc = (await this.#json('/genesis')) as GenesisDoc;
    const fees = typeof doc.fees === 'string' ? doc.fees : undefined;
    const rwd = typeof doc.rwd === 'string' ? doc.rwd : undefined;
    if (!fees || !rwd || !Array.isArray(doc.alloc)) throw new FollowSourceError(`the follow source's /genesis lacks alloc, fees or rwd`);
    const accounts: { address: string; amount: bigint; online?: boolean }[] = [];
    let special: bigint | undefined;
    for (const a of doc.alloc) {
      if (typeof a.addr !== 'string') throw new FollowSourceError(`the follow source's genesis has an allocation without an address`);
      const amount = toBig(a.state?.algo ?? 0, `amount for ${a.addr}`);
      if (a.addr === fees || a.addr === rwd) special = amount;
      // An online account's keys derive from its address, so `onl` is all a rebuild needs.
      else accounts.push({ address: a.addr, amount, ...(a.state?.onl === 1 ? { online: true } : {}) });
    }
    return {
      genesisId: id,
      genesisHash: fromBase64(hashText),
      ledgerConfig: {
        genesisId: typeof doc.id === 'string' ? doc.id : id,
        genesisAccounts: accounts,
        feeSink: fees,
        rewardsPool: rwd,
        ...(special !== undefined ? { specialAccountBalance: special } : {}),
        genesisTimestamp: toBig(doc.timestamp ?? 0, 'timestamp'),
        // A source written before prev512/txn512 is rebuilt in its own header scheme.
        ...(headerSchemeOfProtocol(typeof doc.proto === 'string' ? doc.proto : undefined) === 1 ? { headerScheme: 1 as const } : {}),
      },
    };
  }

  /** The source's latest round. */
  async latestRound(signal?: AbortSignal): Promise<bigint> {
    const v1 = (await this.api()) === 'v1';
    const s = await this.#json(v1 ? '/v1/status' : '/v2/status', signal);
    return toBig(v1 ? s.lastRound : s['last-round'], 'last round');
  }

  /** @deprecated Renamed {@link FollowSource.latestRound} (one name for the newest round a source holds). */
  lastRound(signal?: AbortSignal): Promise<bigint> {
    return this.latestRound(signal);
  }

  /** Resolves with the source's latest round once it is past `round` (or when the source's wait ends). */
  async waitAfter(round: bigint, signal: AbortSignal): Promise<bigint> {
    const v1 = (await this.api()) === 'v1';
    const s = await this.#json(v1 ? `/v1/status/wait-for-block-after/${round}/` : `/v2/status/wait-for-block-after/${round}`, signal, 70_000);
    return toBig(v1 ? s.lastRound : s['last-round'], 'last round');
  }

  /** One block with its transactions' apply data. */
  async block(round: bigint, signal?: AbortSignal): Promise<Block> {
    const v1 = (await this.api()) === 'v1';
    const r = await this.#get(v1 ? `/v1/block/${round}?raw=1` : `/v2/blocks/${round}?format=msgpack`, signal, 0, this.#maxBlockBytes);
    if (r.status !== 200)
      throw new FollowSourceError(`the follow source answered ${r.status} for block ${round}: ${new TextDecoder().decode(r.body).slice(0, 200)}`);
    try {
      if (v1) return decodeBlock(r.body);
      // `/v2/blocks` wraps the block: {block: {...}, cert?: {...}}.
      const outer = decodeMsgpack(r.body, { maps: true }) as Map<string, MsgpackValue>;
      const inner = outer instanceof Map ? outer.get('block') : undefined;
      if (!(inner instanceof Map)) throw new Error('no block member');
      return decodeBlock(encodeMsgpack(inner));
    } catch (e) {
      throw new FollowSourceError(`block ${round} from the follow source cannot be decoded: ${(e as Error).message}`, { cause: e });
    }
  }
}

/** Where a follower's own chain stops matching its source's. */
export interface FollowerDivergence {
  /** The first round whose block differs. */
  round: bigint;
  /** That block's hash here and at the source. */
  ours: string;
  theirs: string;
}

/**
 * The first round at which a follower's ledger holds a block other than its source's, or
 * `undefined` when every round both have matches. Blocks chain by hash, so one comparison at the
 * highest common round settles it when they agree; otherwise a binary search finds the first
 * differing round (about log2(rounds) block fetches).
 */
export async function firstDivergentRound(ledger: Ledger, source: FollowSource, signal?: AbortSignal): Promise<FollowerDivergence | undefined> {
  const sourceLast = await source.latestRound(signal);
  let hi = ledger.latestRound < sourceLast ? ledger.latestRound : sourceLast;
  if (hi <= 0n) return undefined;
  const ours = (r: bigint) => headerHash(ledger.block(r).header);
  const theirs = async (r: bigint) => headerHash((await source.block(r, signal)).header);
  let hiTheirs = await theirs(hi);
  if (bytesEqual(ours(hi), hiTheirs)) return undefined;
  let lo = 1n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    const t = await theirs(mid);
    if (bytesEqual(ours(mid), t)) lo = mid + 1n;
    else {
      hi = mid;
      hiTheirs = t;
    }
  }
  return { round: hi, ours: blockHashText(ours(hi)), theirs: blockHashText(hiTheirs) };
}
