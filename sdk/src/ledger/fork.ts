import { Address } from '../encoding/address.js';
import { compareBytes } from '../encoding/bytes.js';
import { fromHex, toHex } from '../encoding/hex.js';
import { decodeMsgpack, encodeMsgpack, toUint64, type MsgpackValue } from '../encoding/msgpack.js';
import { TealworksError } from '../errors.js';
import type { SignedTransaction } from '../txn/types.js';
import { accountFromWire, accountToWire, appFromWire, appToWire, assetFromWire, assetToWire } from './snapshot.js';
import { boxKeyOf, isEmptyAccount, type AccountData, type AppData, type AssetData, type LedgerState, type SourceAnswer } from './state.js';

/*
 * A fork: a ledger whose state starts as a live network's current state and is copied on first
 * read. The ledger knows nothing of HTTP: the remote is a small `ForkRemote` the services layer
 * implements over the public node API, and the cache is a `ForkCacheStore` (a file in the data
 * directory, see `FileForkCache` in persistence.ts, or memory).
 *
 * Reads during evaluation are synchronous, fetching is not. So a read of a record the fork has
 * not fetched yet is a *miss*: it answers "absent" for now and is remembered. `ForkState.run`
 * runs an operation, and when it missed anything, fetches what it missed and runs it again
 * (bounded). A block is never committed from a pass that missed (the ledger rolls it back), so the
 * chain only ever contains results computed on complete state, and replays offline from the cache.
 */

/** A fork's remote cannot be used: unreachable, wrong token, not a node, or it failed mid-way. */
export class ForkRemoteError extends TealworksError {}

/** A fork's cached state cannot be used (unreadable, or from another network). */
export class ForkCacheError extends TealworksError {}

/** The remote chain's position at fork time: where the fork's own chain begins. */
export interface ForkHead {
  /** The remote's node address (no token). */
  url: string;
  genesisId: string;
  genesisHash: Uint8Array;
  /** The remote's latest round at fork time: the fork's first block is the next one. */
  round: bigint;
  /** Timestamp of the remote's block at `round` (seconds). */
  timestamp: bigint;
  /** The remote's transaction counter at `round`: locally created ids follow it. */
  txnCounter: bigint;
  feeSink: Uint8Array;
  rewardsPool: Uint8Array;
  /** The remote's consensus protocol at `round`. */
  protocol: string;
}

/** An account as a remote reported it, with the apps and assets it created and its opt-ins' local schemas. */
export interface RemoteAccount {
  account: AccountData;
  createdApps: AppData[];
  createdAssets: AssetData[];
  /** Local schema of each app the account is opted in to. */
  localSchemas: Map<bigint, { localNumUint: bigint; localNumByteSlice: bigint }>;
}

/** A fetched record (undefined: the remote does not have it) and the remote round it was read at. */
export interface RemoteRead<T> {
  round: bigint;
  value: T | undefined;
}

/** What a fork reads from its remote (implemented by the services layer over the public node API). */
export interface ForkRemote {
  /** The remote's node address (no token), for messages. */
  readonly url: string;
  /** The remote's genesis and latest round (checks that it is a reachable node and accepts the token). */
  head(): Promise<ForkHead>;
  /** The remote's latest round now. */
  latestRound(): Promise<bigint>;
  account(address: Uint8Array): Promise<RemoteRead<RemoteAccount>>;
  app(id: bigint): Promise<RemoteRead<AppData>>;
  asset(id: bigint): Promise<RemoteRead<AssetData>>;
  box(appId: bigint, name: Uint8Array): Promise<RemoteRead<Uint8Array>>;
  /**
   * Optional: one page of an app's boxes with their values, names ascending, starting after
   * `after` (from the app's first box without it), at most `limit` boxes, read at `round` when the
   * remote still holds that round (the page says which round it was read at). Undefined when the
   * remote cannot list boxes this way (an older node): the fork then reads each box on its own.
   * A fork uses it when a pass needs several boxes of one app (see {@link RemoteBoxPage}).
   */
  boxPage?(appId: bigint, options: { after?: Uint8Array; limit: number; round?: bigint }): Promise<RemoteBoxPage | undefined>;
}

/**
 * A page of an app's boxes: every box whose name is after the page's `after` and at most `last`
 * (to the app's last box when `last` is undefined) is in `boxes`, so a name in that range that is
 * not there is not a box of the app at `round`.
 */
export interface RemoteBoxPage {
  /** The remote round the page was read at. */
  round: bigint;
  /** The boxes of the range, names ascending, with their values. */
  boxes: { name: Uint8Array; value: Uint8Array }[];
  /** The last name the page covers when more boxes follow it (the last box returned); undefined when none follow. */
  last?: Uint8Array;
}

/** Durable storage of a fork's fetched records (replaced atomically on every write). */
export interface ForkCacheStore {
  read(): Uint8Array | undefined;
  /** Replaces the whole cache atomically: a failure leaves the previous cache intact. */
  write(bytes: Uint8Array): void;
  clear(): void;
}

/** Pages of one app's boxes a pass reads at most before reading the names still left one by one. */
export const BOX_PAGES = 2;

/** The longest box name (consensus `MaxAppKeyLen`): bounds the name just before another. */
const MAX_BOX_NAME = 64;

/**
 * The largest box name (at most 64 bytes) that sorts before `name`, so a page after it starts at
 * `name` itself; undefined when none does (the name is the single byte 0). Any name before `name`
 * would do for correctness: this one wastes no room of the page on names that are not wanted.
 */
export function boxNameBefore(name: Uint8Array): Uint8Array | undefined {
  const last = name[name.length - 1];
  if (last === undefined) return undefined;
  if (last === 0) return name.length > 1 ? name.slice(0, -1) : undefined;
  const out = new Uint8Array(Math.max(MAX_BOX_NAME, name.length)).fill(0xff);
  out.set(name.subarray(0, -1));
  out[name.length - 1] = last - 1;
  return out;
}

/** Boxes asked for in one page when `wanted` names are left: room for some unwanted names between them. */
export function boxPageLimit(wanted: number): number {
  return Math.min(1000, Math.max(2 * wanted, wanted + 16));
}

/** A fork's cache kept in memory (tests, the in-process chain). */
export class MemoryForkCache implements ForkCacheStore {
  bytes: Uint8Array | undefined;
  read(): Uint8Array | undefined {
    return this.bytes;
  }
  write(bytes: Uint8Array): void {
    this.bytes = bytes.slice();
  }
  clear(): void {
    this.bytes = undefined;
  }
}

/** One thing a fork fetches: an account (with its holdings and local states), an app, an asset or a box. */
export type ForkResource =
  { kind: 'account'; address: Uint8Array } | { kind: 'app'; id: bigint } | { kind: 'asset'; id: bigint } | { kind: 'box'; appId: bigint; name: Uint8Array };

/** One request a fork made to its remote: the resource, whether the remote had it, the round it answered at. */
export interface ForkRequest {
  resource: string;
  found: boolean;
  round: bigint;
}

/** How a fork stands: its remote, the fork round, what it fetched, and whether the remote has moved on. */
export interface ForkStatus {
  url: string;
  genesisId: string;
  /** The remote round the fork started from. */
  forkRound: bigint;
  /** The latest remote round seen (at a fetch or `checkRemote`). */
  remoteRound: bigint;
  /** True when the remote has made blocks since the fork: refresh to see them. */
  movedOn: boolean;
  /** Records held in the cache (present or known absent). */
  cached: number;
  /** Requests made to the remote by this process. */
  requests: number;
  /** Cached records read at a later remote round than the fork round. */
  laterRecords: number;
}

/** Whose state a resource is on a fork (see `ForkState.origin`). */
export type ForkOrigin = { source: 'remote'; round: bigint } | { source: 'local' } | { source: 'unfetched' };

/** Limits of a fork's fetching. */
export interface ForkLimits {
  /** Resources fetched per pass at most (default 512). */
  maxPerPass?: number;
  /** Runs of one operation at most (each after fetching what the last one missed; default 16). */
  maxPasses?: number;
  /** Requests in flight at once (default 16: a group's named resources, up to 16, go out in one wave). */
  concurrency?: number;
}

interface CacheRecord {
  round: bigint;
  /** Snapshot-form record; undefined: the remote does not have it. */
  wire: MsgpackValue | undefined;
}

const CACHE_VERSION = 1;

/** Cache keys: `a<addrHex>`, `p<appId>`, `s<assetId>`, `b<appId>/<nameHex>`. */
export function forkResourceKey(r: ForkResource): string {
  switch (r.kind) {
    case 'account':
      return `a${toHex(r.address)}`;
    case 'app':
      return `p${r.id}`;
    case 'asset':
      return `s${r.id}`;
    case 'box':
      return `b${boxKeyOf(r.appId, r.name)}`;
  }
}

function resourceOfKey(key: string): ForkResource {
  const rest = key.slice(1);
  switch (key[0]) {
    case 'a':
      return { kind: 'account', address: fromHex(rest) };
    case 'p':
      return { kind: 'app', id: BigInt(rest) };
    case 's':
      return { kind: 'asset', id: BigInt(rest) };
    default: {
      const slash = rest.indexOf('/');
      return { kind: 'box', appId: BigInt(rest.slice(0, slash)), name: fromHex(rest.slice(slash + 1)) };
    }
  }
}

/** A resource in words, for logs and messages: `account ABC…`, `app 12`, `box 12/"name"`. */
export function describeForkResource(key: string): string {
  const r = resourceOfKey(key);
  switch (r.kind) {
    case 'account':
      return `account ${new Address(r.address).toString()}`;
    case 'app':
      return `app ${r.id}`;
    case 'asset':
      return `asset ${r.id}`;
    case 'box':
      return `box ${r.appId}/0x${toHex(r.name)}`;
  }
}

/**
 * The resources a group names (senders, receivers, rekey and close targets, assets, apps, foreign
 * arrays, access lists, box references), fetched before the group runs so the common case needs
 * one pass.
 */
export function namedResources(group: readonly SignedTransaction[]): ForkResource[] {
  const out: ForkResource[] = [];
  const acct = (a: Address | undefined) => a && out.push({ kind: 'account', address: a.publicKey });
  for (const { txn, authAddress } of group) {
    acct(txn.sender);
    acct(txn.rekeyTo);
    acct(authAddress);
    if (txn.payment) {
      acct(txn.payment.receiver);
      acct(txn.payment.closeRemainderTo);
    }
    if (txn.assetConfig && txn.assetConfig.assetId !== 0n) out.push({ kind: 'asset', id: txn.assetConfig.assetId });
    if (txn.assetTransfer) {
      out.push({ kind: 'asset', id: txn.assetTransfer.assetId });
      acct(txn.assetTransfer.receiver);
      acct(txn.assetTransfer.assetSender);
      acct(txn.assetTransfer.closeTo);
    }
    if (txn.assetFreeze) {
      out.push({ kind: 'asset', id: txn.assetFreeze.assetId });
      acct(txn.assetFreeze.account);
    }
    const c = txn.appCall;
    if (!c) continue;
    const self = c.appId;
    if (self !== 0n) {
      out.push({ kind: 'app', id: self });
      out.push({ kind: 'account', address: Address.forApp(self).publicKey });
    }
    for (const a of c.accounts) acct(a);
    for (const id of c.foreignApps) out.push({ kind: 'app', id }, { kind: 'account', address: Address.forApp(id).publicKey });
    for (const id of c.foreignAssets) out.push({ kind: 'asset', id });
    for (const b of c.boxes) {
      const appId = b.appId === 0n ? self : b.appId;
      if (appId !== 0n) out.push({ kind: 'box', appId, name: b.name });
    }
    for (const r of c.access) {
      if (r.kind === 'address') acct(r.address);
      else if (r.kind === 'asset') out.push({ kind: 'asset', id: r.assetId });
      else if (r.kind === 'app') out.push({ kind: 'app', id: r.appId }, { kind: 'account', address: Address.forApp(r.appId).publicKey });
      else if (r.kind === 'box') {
        const ref = r.appIndex === 0 ? undefined : c.access[r.appIndex - 1];
        const appId = r.appIndex === 0 ? self : ref?.kind === 'app' ? ref.appId : 0n;
        if (appId !== 0n) out.push({ kind: 'box', appId, name: r.name });
      }
    }
  }
  return out;
}

/**
 * The remote-backed, lazily filled part of a fork's ledger state: the cache of fetched records
 * (each with the remote round it was read at), the misses of the current pass, and the fetching.
 */
export class ForkState {
  readonly head: ForkHead;
  readonly #remote: ForkRemote | undefined;
  readonly #store: ForkCacheStore;
  readonly #records = new Map<string, CacheRecord>();
  readonly #pending = new Set<string>();
  readonly #limits: Required<ForkLimits>;
  #missCount = 0;
  #remoteRound: bigint;
  #state: LedgerState | undefined;
  /** Every request this process made to the remote, in order. */
  readonly requests: ForkRequest[] = [];
  /** Called after each request (logging). */
  onRequest: ((request: ForkRequest) => void) | undefined;

  private constructor(head: ForkHead, remote: ForkRemote | undefined, store: ForkCacheStore, limits: ForkLimits) {
    this.head = head;
    this.#remote = remote;
    this.#store = store;
    this.#remoteRound = head.round;
    this.#limits = { maxPerPass: limits.maxPerPass ?? 512, maxPasses: limits.maxPasses ?? 16, concurrency: limits.concurrency ?? 16 };
  }

  /**
   * Opens a fork: from its cache when the cache holds one (no request: a fork restarts offline),
   * otherwise (or with `refresh`, which drops the cache) from the remote's current head.
   */
  static async open(options: { remote?: ForkRemote; cache?: ForkCacheStore; refresh?: boolean; limits?: ForkLimits }): Promise<ForkState> {
    const store = options.cache ?? new MemoryForkCache();
    if (options.refresh) {
      // The remote first: a refresh that cannot reach it keeps the old cache.
      if (!options.remote) throw new ForkCacheError('refreshing a fork needs its remote: give the remote node address (--fork URL)');
      const head = await options.remote.head();
      store.clear();
      const f = new ForkState(head, options.remote, store, options.limits ?? {});
      f.#save();
      return f;
    }
    const bytes = store.read();
    if (bytes) {
      const { head, records } = decodeCache(bytes);
      if (options.remote && options.remote.url !== head.url) {
        throw new ForkCacheError(
          `the fork cache was made from ${head.url}, not ${options.remote.url}. Nothing was changed. Start with --fork-refresh to drop it and fork ${options.remote.url} afresh, or use another data directory.`,
        );
      }
      const f = new ForkState(head, options.remote, store, options.limits ?? {});
      for (const [k, r] of records) f.#records.set(k, r);
      return f;
    }
    if (!options.remote) throw new ForkCacheError('the fork has no cache to start from and no remote to fetch one: give the remote node address (--fork URL)');
    const head = await options.remote.head();
    const f = new ForkState(head, options.remote, store, options.limits ?? {});
    f.#save();
    return f;
  }

  /** Connects the ledger state's maps to this fork (called by the ledger). */
  attach(st: LedgerState): void {
    this.#state = st;
    st.accounts.source = (k) => this.#answer(`a${k}`, (w) => this.#materializeAccount(w));
    st.apps.source = (id) => this.#answer(`p${id}`, (w) => appFromWire(w));
    st.assets.source = (id) => this.#answer(`s${id}`, (w) => assetFromWire(w));
    st.boxes.source = (k) => this.#answer(`b${k}`, (w) => (w as Uint8Array).slice());
  }

  // The cached wire value's shape depends on the record kind the key names; each caller knows it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  #answer<V>(key: string, make: (w: any) => V): SourceAnswer<V> {
    const r = this.#records.get(key);
    if (!r) {
      this.#pending.add(key);
      this.#missCount++;
      return 'miss';
    }
    return r.wire === undefined ? 'absent' : { value: make(r.wire) };
  }

  #materializeAccount(w: Record<string, unknown>): AccountData {
    const a = accountFromWire(w.acct as Record<string, unknown>);
    for (const id of (w.ca as unknown[] | undefined) ?? []) a.createdApps.add(toUint64(id, 'created app'));
    for (const id of (w.cs as unknown[] | undefined) ?? []) a.createdAssets.add(toUint64(id, 'created asset'));
    for (const e of (w.ls as unknown[][] | undefined) ?? []) {
      this.#state?.remoteLocalSchemas.set(toUint64(e[0], 'app'), { localNumUint: toUint64(e[1], 'nui'), localNumByteSlice: toUint64(e[2], 'nbs') });
    }
    return a;
  }

  /** Misses recorded so far (a pass that changed it read something not fetched yet). */
  get missCount(): number {
    return this.#missCount;
  }

  /** Resources missed and not fetched yet. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** True when the record is in the cache (present or known absent). */
  has(resource: ForkResource): boolean {
    return this.#records.has(forkResourceKey(resource));
  }

  /**
   * What running the groups is known to read before it runs: the resources each group names (see
   * {@link namedResources}) and the fee sink, which every group's fees are paid into. Duplicates
   * are dropped.
   */
  groupResources(groups: readonly (readonly SignedTransaction[])[]): ForkResource[] {
    const seen = new Set<string>();
    const out: ForkResource[] = [];
    for (const r of [...groups.flatMap(namedResources), { kind: 'account' as const, address: this.head.feeSink }]) {
      const k = forkResourceKey(r);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(r);
    }
    return out;
  }

  /**
   * Fetches, in one parallel batch, everything the groups are known to read (see
   * {@link ForkState.groupResources}) that the cache does not hold yet, so a first run of them
   * usually needs no second pass. Cached records cost nothing: a group run before makes no request.
   */
  async prefetchGroups(groups: readonly (readonly SignedTransaction[])[]): Promise<void> {
    await this.prefetch(this.groupResources(groups));
  }

  /** Fetches the named resources the cache does not hold (one request each, `concurrency` at a time). */
  async prefetch(resources: readonly ForkResource[]): Promise<void> {
    for (const r of resources) {
      const k = forkResourceKey(r);
      if (!this.#records.has(k) && !this.#settled(r)) this.#pending.add(k);
    }
    await this.fetchPending();
  }

  /** True when the ledger state answers for the resource itself (made locally): it never asks the remote. */
  #settled(r: ForkResource): boolean {
    const st = this.#state;
    if (!st) return false;
    switch (r.kind) {
      case 'account':
        return st.accounts.isSettled(toHex(r.address));
      case 'app':
        return st.apps.isSettled(r.id);
      case 'asset':
        return st.assets.isSettled(r.id);
      case 'box':
        return st.boxes.isSettled(boxKeyOf(r.appId, r.name));
    }
  }

  /**
   * Fetches every missed resource (at most `maxPerPass`), then writes the cache once, atomically.
   * Records fetched before a failure are kept (each is complete); the failure is rethrown.
   */
  async fetchPending(): Promise<void> {
    const missed = [...this.#pending].filter((k) => !this.#records.has(k));
    this.#pending.clear();
    // What another request is fetching already is waited for, not fetched twice.
    const keys = missed.filter((k) => !this.#inflight.has(k));
    const others = [...this.#batches];
    if (keys.length === 0) {
      await Promise.allSettled(others);
      return;
    }
    for (const k of keys) this.#inflight.add(k);
    const batch = this.#fetchBatch(keys);
    this.#batches.add(batch);
    try {
      await batch;
    } finally {
      this.#batches.delete(batch);
      for (const k of keys) this.#inflight.delete(k);
    }
    if (keys.length < missed.length) await Promise.allSettled(others);
  }

  readonly #batches = new Set<Promise<void>>();
  readonly #inflight = new Set<string>();

  async #fetchBatch(keys: string[]): Promise<void> {
    if (keys.length > this.#limits.maxPerPass) {
      throw new ForkRemoteError(
        `one pass would fetch ${keys.length} resources from ${this.head.url}, more than the limit of ${this.#limits.maxPerPass}; name fewer resources in the group, or raise the fork's maxPerPass limit`,
      );
    }
    const remote = this.#remote;
    if (!remote) {
      throw new ForkRemoteError(
        `the fork needs ${describeForkResource(keys[0]!)}${keys.length > 1 ? ` and ${keys.length - 1} more` : ''}, which is not in its cache, and it was started without a remote. Start it with --fork ${this.head.url} (reachable) to fetch it.`,
      );
    }
    // Several boxes of one app are read as a range of the app's boxes (one task per app); the rest one request each.
    const tasks: (() => Promise<void>)[] = [];
    const byApp = new Map<bigint, Uint8Array[]>();
    for (const key of keys) {
      const r = resourceOfKey(key);
      if (r.kind === 'box' && remote.boxPage) byApp.set(r.appId, [...(byApp.get(r.appId) ?? []), r.name]);
      else tasks.push(() => this.#fetchOne(remote, key));
    }
    for (const [appId, names] of byApp) {
      if (names.length === 1) tasks.push(() => this.#fetchOne(remote, forkResourceKey({ kind: 'box', appId, name: names[0]! })));
      else tasks.push(() => this.#fetchBoxes(remote, appId, names));
    }
    try {
      await this.#pool(tasks);
    } finally {
      // Records fetched before a failure are complete: they are kept.
      this.#save();
    }
  }

  /** Runs the tasks, `concurrency` at a time; after a failure starts no more, and rethrows the first failure once all have stopped. */
  async #pool(tasks: readonly (() => Promise<void>)[]): Promise<void> {
    let failure: unknown;
    let next = 0;
    const worker = async () => {
      while (failure === undefined && next < tasks.length) {
        const task = tasks[next++]!;
        try {
          await task();
        } catch (e) {
          failure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#limits.concurrency, tasks.length) }, worker));
    if (failure !== undefined) throw failure;
  }

  /**
   * Reads several boxes of one app through the remote's pages of boxes: a page starting just
   * before the smallest name wanted settles every wanted name inside the range it covers (present
   * with its value, or absent); at most {@link BOX_PAGES} pages, then the names still outside any
   * page are read one by one. A remote without pages (or refusing them) gets the one-by-one reads
   * for all of them.
   */
  async #fetchBoxes(remote: ForkRemote, appId: bigint, wanted: readonly Uint8Array[]): Promise<void> {
    let left = [...wanted].sort(compareBytes);
    let round = this.head.round;
    for (let pages = 0; left.length > 1 && pages < BOX_PAGES; pages++) {
      const after = boxNameBefore(left[0]!);
      const page = await remote.boxPage!(appId, { ...(after ? { after } : {}), limit: boxPageLimit(left.length), round });
      if (!page) break;
      // Later pages are read at the round of the first, so the pages agree.
      round = page.round;
      const values = new Map(page.boxes.map((b) => [toHex(b.name), b.value]));
      const inRange = (n: Uint8Array) => (!after || compareBytes(n, after) > 0) && (!page.last || compareBytes(n, page.last) <= 0);
      const settled = left.filter(inRange);
      left = left.filter((n) => !inRange(n));
      for (const name of settled) {
        const key = forkResourceKey({ kind: 'box', appId, name });
        this.#records.set(key, { round: page.round, wire: values.get(toHex(name)) });
      }
      // Boxes of the page nobody asked for are kept too: they are the remote's at that round.
      for (const b of page.boxes) {
        const key = forkResourceKey({ kind: 'box', appId, name: b.name });
        if (!this.#records.has(key)) this.#records.set(key, { round: page.round, wire: b.value });
      }
      if (page.round > this.#remoteRound) this.#remoteRound = page.round;
      const found = settled.filter((n) => values.has(toHex(n))).length;
      const req: ForkRequest = {
        resource: `boxes of app ${appId}: a page of ${page.boxes.length} (${found} of ${settled.length} wanted present${page.last ? ', more follow' : ''})`,
        found: page.boxes.length > 0,
        round: page.round,
      };
      this.requests.push(req);
      this.onRequest?.(req);
    }
    await this.#pool(left.map((name) => () => this.#fetchOne(remote, forkResourceKey({ kind: 'box', appId, name }))));
  }

  async #fetchOne(remote: ForkRemote, key: string): Promise<void> {
    const r = resourceOfKey(key);
    let round: bigint;
    let found: boolean;
    switch (r.kind) {
      case 'account': {
        const got = await remote.account(r.address);
        round = got.round;
        const v = got.value;
        found = v !== undefined && !(isEmptyAccount(v.account) && v.createdApps.length === 0 && v.createdAssets.length === 0);
        if (found) {
          for (const app of v!.createdApps) if (!this.#records.has(`p${app.id}`)) this.#records.set(`p${app.id}`, { round, wire: appToWire(app) });
          for (const asset of v!.createdAssets) if (!this.#records.has(`s${asset.id}`)) this.#records.set(`s${asset.id}`, { round, wire: assetToWire(asset) });
          this.#records.set(key, {
            round,
            wire: {
              acct: accountToWire(v!.account),
              ca: v!.createdApps.map((a) => a.id),
              cs: v!.createdAssets.map((a) => a.id),
              ls: [...v!.localSchemas].map(([id, s]) => [id, s.localNumUint, s.localNumByteSlice]),
            },
          });
        } else this.#records.set(key, { round, wire: undefined });
        break;
      }
      case 'app': {
        const got = await remote.app(r.id);
        round = got.round;
        found = got.value !== undefined;
        this.#records.set(key, { round, wire: got.value ? appToWire(got.value) : undefined });
        break;
      }
      case 'asset': {
        const got = await remote.asset(r.id);
        round = got.round;
        found = got.value !== undefined;
        this.#records.set(key, { round, wire: got.value ? assetToWire(got.value) : undefined });
        break;
      }
      case 'box': {
        const got = await remote.box(r.appId, r.name);
        round = got.round;
        found = got.value !== undefined;
        this.#records.set(key, { round, wire: got.value });
        break;
      }
    }
    if (round > this.#remoteRound) this.#remoteRound = round;
    const req: ForkRequest = { resource: describeForkResource(key), found, round };
    this.requests.push(req);
    this.onRequest?.(req);
  }

  /**
   * Runs an operation on the fork's ledger; when it read anything not fetched yet, fetches that
   * and runs it again, until a run misses nothing (at most `maxPasses` runs). Blocks are never
   * committed by a run that missed, so repeating the operation is safe.
   */
  async run<T>(op: () => T | Promise<T>): Promise<T> {
    for (let pass = 1; ; pass++) {
      const before = this.#missCount;
      let out: T | undefined;
      let error: unknown;
      let failed = false;
      try {
        out = await op();
      } catch (e) {
        error = e;
        failed = true;
      }
      if (this.#missCount === before) {
        if (failed) throw error;
        return out as T;
      }
      if (pass >= this.#limits.maxPasses) {
        throw new ForkRemoteError(
          `the operation still reached state not fetched from ${this.head.url} after ${pass} runs; each run fetched what the last one touched. Name the resources it uses (foreign arrays, box references) so they are fetched up front.`,
        );
      }
      await this.fetchPending();
    }
  }

  /** Asks the remote for its latest round (so `status().movedOn` is current). */
  async checkRemote(): Promise<ForkStatus> {
    if (!this.#remote) throw new ForkRemoteError(`the fork of ${this.head.url} was started without a remote`);
    const r = await this.#remote.latestRound();
    if (r > this.#remoteRound) this.#remoteRound = r;
    return this.status();
  }

  /** Where the fork stands: fork round, latest remote round seen, cache size, requests made. */
  status(): ForkStatus {
    let later = 0;
    for (const r of this.#records.values()) if (r.round > this.head.round) later++;
    return {
      url: this.head.url,
      genesisId: this.head.genesisId,
      forkRound: this.head.round,
      remoteRound: this.#remoteRound,
      movedOn: this.#remoteRound > this.head.round,
      cached: this.#records.size,
      requests: this.requests.length,
      laterRecords: later,
    };
  }

  /** The remote round a cached record was read at, or undefined (never fetched). */
  recordRound(resource: ForkResource): bigint | undefined {
    return this.#records.get(forkResourceKey(resource))?.round;
  }

  /**
   * Whose state a resource is now: `remote` (as fetched at `round`, unchanged here), `local`
   * (created, changed or deleted on the fork), or `unfetched` (never read; the remote's when it is).
   * Reads nothing from the remote.
   */
  origin(resource: ForkResource): ForkOrigin {
    const rec = this.#records.get(forkResourceKey(resource));
    const st = this.#state;
    if (!st) return rec ? { source: 'remote', round: rec.round } : { source: 'unfetched' };
    const peek = <K, V>(m: Map<K, V>, k: K): V | undefined => Map.prototype.get.call(m, k) as V | undefined;
    let now: MsgpackValue | undefined;
    let then: MsgpackValue | undefined = rec?.wire;
    let settled: boolean;
    switch (resource.kind) {
      case 'account': {
        settled = st.accounts.isSettled(toHex(resource.address));
        const a = peek(st.accounts, toHex(resource.address));
        now = a ? accountToWire(a) : undefined;
        then = rec?.wire === undefined ? undefined : (rec.wire as Record<string, MsgpackValue>).acct;
        break;
      }
      case 'app': {
        settled = st.apps.isSettled(resource.id);
        const a = peek(st.apps, resource.id);
        now = a ? appToWire(a) : undefined;
        break;
      }
      case 'asset': {
        settled = st.assets.isSettled(resource.id);
        const a = peek(st.assets, resource.id);
        now = a ? assetToWire(a) : undefined;
        break;
      }
      case 'box':
        settled = st.boxes.isSettled(boxKeyOf(resource.appId, resource.name));
        now = peek(st.boxes, boxKeyOf(resource.appId, resource.name));
        break;
    }
    // Made here (genesis accounts, cheats) without asking the remote, or never read at all.
    if (!rec) return settled ? { source: 'local' } : { source: 'unfetched' };
    // Never adopted into the state yet: still exactly the remote's record.
    if (!settled) return { source: 'remote', round: rec.round };
    const same = now === undefined || then === undefined ? now === then : toHex(encodeMsgpack(now)) === toHex(encodeMsgpack(then));
    return same ? { source: 'remote', round: rec.round } : { source: 'local' };
  }

  #save(): void {
    const h = this.head;
    const recs = [...this.#records].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k, r]) => [k, r.round, r.wire ?? null] as MsgpackValue);
    const head = {
      url: h.url,
      gid: h.genesisId,
      gh: h.genesisHash,
      r: h.round,
      ts: h.timestamp,
      tc: h.txnCounter,
      fees: h.feeSink,
      rwd: h.rewardsPool,
      proto: h.protocol,
    };
    this.#store.write(encodeMsgpack({ v: CACHE_VERSION, head, recs }));
  }
}

function decodeCache(bytes: Uint8Array): { head: ForkHead; records: [string, CacheRecord][] } {
  try {
    const w = decodeMsgpack(bytes) as Record<string, unknown>;
    if (toUint64(w.v, 'version') !== BigInt(CACHE_VERSION)) throw new Error(`unknown cache version ${String(w.v)}`);
    const h = w.head as Record<string, unknown>;
    const bytesOf = (v: unknown, what: string): Uint8Array => {
      if (!(v instanceof Uint8Array)) throw new Error(`head.${what} missing`);
      return v;
    };
    const head: ForkHead = {
      url: String(h.url),
      genesisId: String(h.gid),
      genesisHash: bytesOf(h.gh, 'gh'),
      round: toUint64(h.r, 'round'),
      timestamp: toUint64(h.ts, 'timestamp'),
      txnCounter: toUint64(h.tc, 'tc'),
      feeSink: bytesOf(h.fees, 'fees'),
      rewardsPool: bytesOf(h.rwd, 'rwd'),
      protocol: String(h.proto),
    };
    const records = ((w.recs as unknown[][]) ?? []).map((e): [string, CacheRecord] => [
      String(e[0]),
      { round: toUint64(e[1], 'round'), wire: e[2] === null || e[2] === undefined ? undefined : (e[2] as MsgpackValue) },
    ]);
    return { head, records };
  } catch (e) {
    throw new ForkCacheError(
      `the fork cache is unreadable (${(e as Error).message}). Nothing was changed. Start with --fork-refresh to drop it and fetch afresh.`,
      { cause: e },
    );
  }
}
