/*
 * The chain as an in-process test engine.
 *
 * API (public from `@tealworks/sdk/testing`, and through `Tealworks.inProcess()`):
 *
 *   const tw = await Tealworks.inProcess({ accounts: 3 });   // a Tealworks client, no sockets, no key manager
 *   const chain = tw.testChain;                              // the InProcessChain behind it
 *   chain.accounts                                           // funded LocalAccounts (also registered on tw)
 *   const id = chain.snapshot(); …; chain.revert(id)         // whole-chain snapshots, nested, cost ∝ changes
 *   chain.release(id)                                        // forget a snapshot
 *   chain.advanceRounds(n) / setTime(ts) / advanceTime(s)    // O(1) rounds and time
 *   chain.impersonate(addr) / stopImpersonating(addr)        // send as any account (tw signs with an empty signature)
 *   chain.setBalance / setAssetHolding / setGlobal / setLocal / setBox / setBlockSeed   (typed by an ARC-56 spec when given)
 *   chain.stateHash()                                        // hex digest of all state (equal state ⇔ equal hash)
 *   chain.ledger                                             // the real Ledger (sdk/src/ledger) it runs on
 *
 * How: the real ledger and AVM, served by the devnet's own node (algod /v2) and query service
 * definitions through an in-process transport (same routes, handlers, wire shapes and errors as
 * over HTTP, without a socket). `InProcessChain.create({ ledger })` serves an existing ledger
 * (e.g. a fork of a live network).
 */
import { HttpClient } from '../adapters/http/client.js';
import { ALGOD_TOKEN_HEADER, AlgodAdapter, pendingFromConfirmed } from '../adapters/node/algod.js';
import { QUERY_TOKEN_HEADER, QueryClient } from '../adapters/query/client.js';
import { profileFromDevnet } from '../adapters/profiles.js';
import { toSimulateResult, toSuggestedParams } from '../adapters/node/normalize.js';
import type { SimulateOptions, SimulateResult, SuggestedParams } from '../adapters/node/types.js';
import { simulateRequestBody, type NodeAdapter } from '../adapters/node/adapter.js';
import { jsonRoundTrip } from '../encoding/json.js';
import { transactionParamsJson } from '../services/node/algod/status.js';
import type { Signer } from '../adapters/signer.js';
import { Arc56AppSpec } from '../abi/arc56.js';
import type { AbiValue } from '../abi/types.js';
import { encodeStorageValue } from '../app/state-decode.js';
import { SHARED_HINT_SCOPE } from '../app/hint-scope.js';
import type { TealValue } from '../avm/ledger-view.js';
import { sha512_256 } from '../crypto/hash.js';
import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import { uint64ToBytes, utf8 } from '../encoding/bytes.js';
import { toHex } from '../encoding/hex.js';
import { Ledger, type LedgerConfig } from '../ledger/ledger.js';
import type { ConsensusParams } from '../ledger/params.js';
import { inProcessTransport } from '../services/http/server.js';
import { nodeService, type NodeServiceParts } from '../services/node/service.js';
import { createQueryService } from '../services/query/service.js';
import { encodeSignedTransaction } from '../txn/encode.js';
import type { Transaction } from '../txn/types.js';
import { LocalAccount } from './accounts.js';
import { ForkState, MemoryForkCache, type ForkCacheStore, type ForkResource } from '../ledger/fork.js';
import { ForkStateMissing } from '../ledger/errors.js';
import { AlgodForkRemote, type ForkOptions } from '../services/devnet/fork-remote.js';
import type { Connection } from './network.js';
import { ClientError } from './errors.js';
import { ValidationError } from '../errors.js';
import { MAX_UINT64 } from '../avm/value.js';

/** Options of an in-process chain (`Tealworks.inProcess()`, `InProcessChain.create()`). */
export interface InProcessOptions {
  /** Funded accounts made at genesis (default 3). Their keys derive from `seed`, so every run has the same addresses. */
  accounts?: number;
  /** Micro-units each genesis account gets (default 10^14: 100 million units). */
  accountFunds?: bigint;
  /** Seed text the genesis accounts' keys derive from (default `tealworks-test`). */
  seed?: string;
  /** Genesis timestamp in seconds (default 1 700 000 000). Time stands still unless a cheat moves it. */
  genesisTimestamp?: bigint;
  /** Consensus parameters (default: the current protocol). */
  params?: ConsensusParams;
  genesisId?: string;
  /** Serve this ledger instead of making one (its genesis accounts' keys are then unknown: `accounts` is empty). */
  ledger?: Ledger;
  /**
   * Fork a live network (as `startDevnet({ fork })`): the chain takes the remote's genesis, begins
   * after its latest round and copies state from its `/v2` API on first read; the funded accounts
   * are local keys on top. `cache` keeps fetched records between runs (default: in memory). Opened
   * asynchronously: use `Tealworks.inProcess({ fork })` or `InProcessChain.open({ fork })`.
   */
  fork?: ForkOptions & { cache?: ForkCacheStore };
}

/** What a fork fetches ahead of cheats: accounts, apps, assets and boxes by id. */
export interface ForkFetchRequest {
  accounts?: AddressLike[];
  apps?: (number | bigint)[];
  assets?: (number | bigint)[];
  boxes?: { appId: number | bigint; name: Uint8Array | string }[];
}

/** The state a cheat writes: a uint or bytes, or (with a spec) any value of the key's declared type. */
export type CheatValue = TealValue | AbiValue | string | number;

/** How a cheat names a state key or box: bytes, or a name (ARC-56 key name with a spec, else UTF-8 text). */
export type CheatKey = Uint8Array | string;

const TOKEN = 'in-process';
const BASE = 'http://in-process.invalid';

/** Signs nothing: an impersonated account's transactions go out with an empty signature the chain accepts. */
const IMPERSONATION_SIGNER: Signer = {
  signsLocally: true,
  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    return indexes.map((i) => encodeSignedTransaction({ txn: txns[i]! }));
  },
};

/**
 * A chain in this process: the real ledger and AVM, snapshots and cheats. Make one with
 * `Tealworks.inProcess()` (a client on it, as `tw.testChain`) or `InProcessChain.create()`.
 */
export class InProcessChain {
  /** The ledger the chain runs on. */
  readonly ledger: Ledger;
  /** Accounts funded at genesis (empty when the chain serves a ledger it was given). */
  readonly accounts: readonly LocalAccount[];
  /** The connection a `Tealworks` client uses (node /v2 and query service, in process). @internal */
  readonly connection: Connection;
  #registered: ((address: string, signer: Signer | undefined) => Signer | undefined) | undefined;
  /** Addresses the client signs for with the empty signature, with the signer it had before (if any). */
  readonly #impersonating = new Map<string, Signer | undefined>();
  #closed = false;
  /** Every address impersonated on this chain (a revert may turn one on again). */
  readonly #everImpersonated = new Set<string>();

  private constructor(ledger: Ledger, accounts: LocalAccount[], connection: Connection) {
    this.ledger = ledger;
    this.accounts = accounts;
    this.connection = connection;
  }

  /** Makes a chain (no client), opening its fork first when `fork` is given: see {@link InProcessOptions}. */
  static async open(options: InProcessOptions = {}): Promise<InProcessChain> {
    if (!options.fork) return InProcessChain.create(options);
    const { cache, ...remote } = options.fork;
    const fork = await ForkState.open({ remote: new AlgodForkRemote(remote), cache: cache ?? new MemoryForkCache(), refresh: remote.refresh ?? false });
    return InProcessChain.#make(options, fork);
  }

  /** Makes a chain (no client): see {@link InProcessOptions}. A fork needs {@link InProcessChain.open}. */
  static create(options: InProcessOptions = {}): InProcessChain {
    if (options.fork)
      throw new ClientError(
        'a fork is opened asynchronously (it may ask the remote for its head): use await InProcessChain.open({ fork }) or Tealworks.inProcess({ fork })',
      );
    return InProcessChain.#make(options, undefined);
  }

  static #make(options: InProcessOptions, fork: ForkState | undefined): InProcessChain {
    const n = options.accounts ?? 3;
    if (!Number.isInteger(n) || n < 0 || n > 1000) throw new ClientError(`accounts must be a whole number from 0 to 1000, got ${n}`);
    for (const [name, v] of [
      ['accountFunds', options.accountFunds],
      ['genesisTimestamp', options.genesisTimestamp],
    ] as const)
      if (v !== undefined && (typeof v !== 'bigint' || v < 0n || v > MAX_UINT64))
        throw new ClientError(`${name} is a uint64 given as a bigint (e.g. 10n ** 12n), got ${describeValue(v)}`);
    if (options.accountFunds !== undefined && options.accountFunds * BigInt(n) > MAX_UINT64)
      throw new ClientError(`${n} accounts of ${options.accountFunds} micro-units each would pass the largest supply (2^64 - 1): fund them with less`);
    const seed = options.seed ?? 'tealworks-test';
    const accounts = options.ledger ? [] : Array.from({ length: n }, (_, i) => genesisAccount(seed, i));
    const funds = options.accountFunds ?? 10n ** 14n;
    const config: LedgerConfig = {
      ...(fork ? { fork } : {}),
      genesisAccounts: accounts.map((a) => ({ address: a.address, amount: funds })),
      genesisTimestamp: options.genesisTimestamp ?? 1_700_000_000n,
      ...(options.params ? { params: options.params } : {}),
      ...(options.genesisId ? { genesisId: options.genesisId } : {}),
    };
    const ledger = options.ledger ?? new Ledger(config);
    // Blocks keep the previous block's timestamp: a test's time moves only when it says so.
    if (!options.ledger) ledger.setTimestampOffset(0n);
    const node = nodeService({ ledger, apiToken: TOKEN, cheats: true });
    const query = createQueryService({ token: TOKEN });
    // The query index follows the ledger from its first request on: tests that never list
    // boxes or look up deployments pay nothing for it.
    let attached = false;
    const queryTransport = inProcessTransport(query, { parsedJson: true });
    const nodeClient = new HttpClient({
      baseUrl: BASE,
      headers: { [ALGOD_TOKEN_HEADER]: TOKEN },
      transport: inProcessTransport(node.definition, { parsedJson: true }),
      retry: false,
    });
    const queryClient = new HttpClient({
      baseUrl: BASE,
      headers: { [QUERY_TOKEN_HEADER]: TOKEN },
      retry: false,
      transport: (req) => {
        if (!attached) {
          query.index.attach(ledger);
          attached = true;
        }
        return queryTransport(req);
      },
    });
    const profile = profileFromDevnet({ node: { url: BASE, token: TOKEN }, query: { url: BASE, token: TOKEN }, keyManager: { url: BASE, token: TOKEN } });
    const paramsJson = node.definition.json ?? {};
    const connection: Connection = {
      name: 'in-process',
      profile: { ...profile, name: 'in-process', node: { ...profile.node, api: 'algod' } },
      chain: {
        node: new InProcessAlgodAdapter(
          nodeClient,
          () => {
            const round = node.follower.fetchedRound;
            return {
              round,
              // The answer is the round and these (set when the ledger is made), nothing of its state.
              key: [ledger.genesisId, ledger.genesisHash, ledger.params],
              json: () => jsonRoundTrip(transactionParamsJson(ledger, round), paramsJson),
            };
          },
          ledger.genesisHash,
          // A fork evaluates a group again once it has fetched the state it missed (its routes do
          // that): neither a single evaluation nor a simulation without the route.
          ledger.fork
            ? undefined
            : { once: (signed, execTrace, accept) => node.simulateAndSubmit(signed, execTrace, accept), simulate: (body) => node.simulate(body) },
        ),
        query: new QueryClient(queryClient),
      },
      ...(accounts[0] ? { dispenser: accounts[0] } : {}),
      isDev: true,
      tokenSource: 'the in-process chain',
      close: async () => {
        await node.definition.onClose?.();
        query.index.detach();
      },
    };
    return new InProcessChain(ledger, accounts, connection);
  }

  /**
   * Called by `Tealworks.inProcess()` so impersonated accounts get a signer on that client:
   * `register` sets (or, with undefined, forgets) the client's signer for an address and returns
   * the one it had. @internal
   */
  bindSigners(register: (address: string, signer: Signer | undefined) => Signer | undefined): void {
    this.#registered = register;
    for (const a of this.accounts) register(a.address, a);
  }

  /**
   * Makes the client's signers follow the chain's impersonations (after a cheat or a revert): an
   * impersonated address signs with the empty signature; once it is not impersonated any more, the
   * signer it had before comes back (none if it had none), so its sends are signed for real or
   * refused for want of a signer instead of failing on the chain's signature check.
   */
  #syncImpersonation(address: string): void {
    const register = this.#registered;
    if (!register) return;
    const on = this.ledger.isImpersonated(address);
    if (on && !this.#impersonating.has(address)) this.#impersonating.set(address, register(address, IMPERSONATION_SIGNER));
    else if (!on && this.#impersonating.has(address)) {
      register(address, this.#impersonating.get(address));
      this.#impersonating.delete(address);
    }
  }

  /** Refuses a cheat or snapshot once {@link close} ran. */
  #open(what: string): void {
    if (this.#closed)
      throw new ClientError(
        `${what}: this in-process chain is closed (its services stopped); start a new one with Tealworks.inProcess() or, in a fixture, call setup() again`,
      );
  }

  // ---- snapshots ------------------------------------------------------------------------------

  /** Remembers the whole chain state; returns an id for {@link revert}. Snapshots nest. */
  snapshot(): number {
    this.#open('snapshot');
    return this.ledger.mark();
  }

  /**
   * Restores the chain as it was at `snapshot()` (accounts, apps, boxes, assets, blocks, round,
   * time, cheats). Costs what changed since. The snapshot stays usable; later ones are dropped.
   */
  revert(id: number): void {
    this.#open('revert');
    this.ledger.revertToMark(snapshotId(id, 'revert'));
    // A revert may turn impersonations on or off: the client's signers follow.
    for (const address of this.#everImpersonated) this.#syncImpersonation(address);
  }

  /**
   * Forgets a snapshot. An id that names none (never taken, released already, or dropped by a
   * revert to an earlier one) is refused with a `LedgerNotFoundError`, as {@link revert} refuses it.
   */
  release(id: number): void {
    this.#open('release');
    this.ledger.releaseMark(snapshotId(id, 'release'));
  }

  /** Hex digest of all account, asset, app and box state (equal state ⇔ equal hash). */
  stateHash(): string {
    return toHex(this.ledger.stateHash());
  }

  /** The latest round. */
  get round(): bigint {
    return this.ledger.latestRound;
  }

  /** The latest block's timestamp (`global LatestTimestamp`). */
  get time(): bigint {
    return this.ledger.latestBlock.header.timestamp;
  }

  // ---- cheats ---------------------------------------------------------------------------------

  /** Adds `n` empty rounds at once (O(1)); `global Round`, `block` and validity windows see them. */
  advanceRounds(n: number | bigint): bigint {
    this.#open('advanceRounds');
    return this.ledger.advanceRounds(uint64(n, 'advanceRounds: the number of rounds')).header.round;
  }

  /**
   * Commits one empty block stamped `timestamp` (seconds since the epoch). Time never goes back: a
   * timestamp before the latest block's ({@link time}) is refused with a `ValidationError`.
   */
  setTime(timestamp: number | bigint): void {
    this.#open('setTime');
    this.ledger.setTime(uint64(timestamp, 'setTime: the timestamp'));
  }

  /** Commits one empty block `seconds` after the latest one. */
  advanceTime(seconds: number | bigint): void {
    this.#open('advanceTime');
    this.ledger.advanceTime(uint64(seconds, 'advanceTime: the seconds'));
  }

  /**
   * Sends as `address` without its key: the chain stops checking signatures for it (everything
   * else is checked) and the client signs its transactions with an empty signature.
   */
  impersonate(address: AddressLike): void {
    this.#open('impersonate');
    this.ledger.impersonate(address, true);
    const text = addressText(address);
    this.#everImpersonated.add(text);
    this.#syncImpersonation(text);
  }

  /** Checks `address`'s signatures again; the client signs for it as before {@link impersonate} (or not at all). */
  stopImpersonating(address: AddressLike): void {
    this.#open('stopImpersonating');
    this.ledger.impersonate(address, false);
    this.#syncImpersonation(addressText(address));
  }

  /** Sets an account's balance in micro-units. */
  setBalance(address: AddressLike, microUnits: number | bigint): void {
    this.#open('setBalance');
    const amount = uint64(microUnits, 'setBalance: the balance');
    this.#cheat(() => this.ledger.setBalance(address, amount));
  }

  /** Sets (or with undefined removes) an account's holding of an existing asset. */
  setAssetHolding(address: AddressLike, assetId: number | bigint, holding: { amount: number | bigint; frozen?: boolean } | undefined): void {
    this.#open('setAssetHolding');
    const id = uint64(assetId, 'setAssetHolding: the asset id');
    if (holding !== undefined && (holding === null || typeof holding !== 'object'))
      throw new ValidationError(`setAssetHolding takes the holding as { amount, frozen? }, or undefined to remove it; got ${describeValue(holding)}`);
    if (holding?.frozen !== undefined && typeof holding.frozen !== 'boolean')
      throw new ValidationError(`setAssetHolding: frozen is true or false, got ${describeValue(holding.frozen)}`);
    const h = holding
      ? { amount: uint64(holding.amount, 'setAssetHolding: the amount'), ...(holding.frozen !== undefined ? { frozen: holding.frozen } : {}) }
      : undefined;
    this.#cheat(() => this.ledger.setAssetHolding(address, id, h));
  }

  /**
   * Sets (or with undefined deletes) a global state key; with a spec (parsed: an `AppClient`'s `.spec`
   * or `loadAppSpec(json)`), `key` may be a declared key name and `value` any value of its type.
   */
  setGlobal(appId: number | bigint, key: CheatKey, value: CheatValue | undefined, spec?: Arc56AppSpec): void {
    this.#open('setGlobal');
    const id = uint64(appId, 'setGlobal: the app id');
    const e = encodeStorageValue(specOf(spec, 'setGlobal'), 'global', stateKey(key, 'setGlobal'), value);
    this.#cheat(() => this.ledger.setGlobal(id, e.key, e.value));
  }

  /** Sets (or deletes) a local state key of an opted-in account; typed by the spec when given. */
  setLocal(address: AddressLike, appId: number | bigint, key: CheatKey, value: CheatValue | undefined, spec?: Arc56AppSpec): void {
    this.#open('setLocal');
    const id = uint64(appId, 'setLocal: the app id');
    const e = encodeStorageValue(specOf(spec, 'setLocal'), 'local', stateKey(key, 'setLocal'), value);
    this.#cheat(() => this.ledger.setLocal(address, id, e.key, e.value));
  }

  /** Writes (or with undefined deletes) a box; typed by the spec when given (a declared box name, its value type). */
  setBox(appId: number | bigint, name: CheatKey, value: CheatValue | undefined, spec?: Arc56AppSpec): void {
    this.#open('setBox');
    const id = uint64(appId, 'setBox: the app id');
    const e = encodeStorageValue(specOf(spec, 'setBox'), 'box', stateKey(name, 'setBox'), value);
    this.#cheat(() => this.ledger.setBox(id, e.key, e.value === undefined ? undefined : typeof e.value === 'bigint' ? uint64ToBytes(e.value) : e.value));
  }

  /** Sets the seed `block BlkSeed` reads for `round` (default the latest); 32 bytes. */
  setBlockSeed(seed: Uint8Array, round?: number | bigint): void {
    this.#open('setBlockSeed');
    if (!(seed instanceof Uint8Array)) throw new ValidationError(`setBlockSeed takes the seed as 32 bytes (a Uint8Array), got ${describeValue(seed)}`);
    this.ledger.setBlockSeed(seed, round === undefined ? undefined : uint64(round, 'setBlockSeed: the round'));
  }

  // ---- fork ------------------------------------------------------------------------------------

  /** The live network this chain forks (status, request log), or undefined. */
  get fork(): ForkState | undefined {
    return this.ledger.fork;
  }

  /**
   * Fetches records from the fork's remote now (those already cached cost nothing), so cheats can
   * change them: cheats are synchronous and refuse state the fork has not fetched yet.
   */
  async fetch(request: ForkFetchRequest): Promise<void> {
    const fork = this.ledger.fork;
    if (!fork) throw new ClientError('this chain is not a fork: there is nothing to fetch');
    const list: ForkResource[] = [
      ...(request.accounts ?? []).map((a): ForkResource => ({ kind: 'account', address: addressBytes(a) })),
      ...(request.apps ?? []).map((id): ForkResource => ({ kind: 'app', id: BigInt(id) })),
      ...(request.assets ?? []).map((id): ForkResource => ({ kind: 'asset', id: BigInt(id) })),
      ...(request.boxes ?? []).map((b): ForkResource => ({ kind: 'box', appId: BigInt(b.appId), name: typeof b.name === 'string' ? utf8(b.name) : b.name })),
    ];
    // An app's cheats also touch its creator and account records.
    for (const r of [...list]) if (r.kind === 'app') list.push({ kind: 'account', address: Address.forApp(r.id).publicKey });
    await fork.prefetch(list);
    const creators: ForkResource[] = [];
    for (const r of list) {
      const creator = r.kind === 'app' ? this.ledger.app(r.id)?.creator : r.kind === 'asset' ? this.ledger.asset(r.id)?.creator : undefined;
      if (creator) creators.push({ kind: 'account', address: creator });
    }
    await fork.prefetch(creators);
  }

  #cheat(change: () => void): void {
    try {
      change();
    } catch (e) {
      if (e instanceof ForkStateMissing) {
        throw new ClientError(
          `this cheat needs state the fork has not fetched from ${e.url} yet; nothing was changed. Fetch it first: await chain.fetch({ accounts, apps, assets, boxes }).`,
          { cause: e },
        );
      }
      throw e;
    }
  }

  /** Stops the in-process services (the ledger stays readable; cheats and snapshots are refused). */
  async close(): Promise<void> {
    // Closing twice (a fixture's teardown after the client's close) stops the services once.
    if (this.#closed) return;
    this.#closed = true;
    await this.connection.close();
  }
}

/** One hint scope per genesis (chains made from the same seed share one); the 64 most recent are kept. */
const HINT_SCOPES = new Map<string, object>();

/**
 * What the suggested parameters of an in-process node are made from: the round they name, the
 * values besides the round that the answer depends on (compared by identity), and the answer as
 * the route gives it (`last-round` is `round`).
 */
interface ParamsSource {
  round: bigint;
  key: unknown[];
  json: () => unknown;
}

/**
 * The node adapter of an in-process chain: the same routes as over HTTP, except that suggested
 * parameters (asked for once or twice per call) are read from the ledger directly: the route's own
 * value as the client would have parsed it, made again when the ledger's genesis or parameters
 * change, and otherwise reused with the new round when only the round moved.
 */
class InProcessAlgodAdapter extends AlgodAdapter {
  readonly #params: () => ParamsSource;
  #cached: { key: unknown[]; value: SuggestedParams } | undefined;
  readonly #once: NodeServiceParts['simulateAndSubmit'] | undefined;
  readonly #simulate: NodeServiceParts['simulate'] | undefined;

  /** Chains from one genesis share the references their calls needed (see `SHARED_HINT_SCOPE`). */
  readonly [SHARED_HINT_SCOPE]: object;

  constructor(
    http: HttpClient,
    params: () => ParamsSource,
    genesisHash: Uint8Array,
    direct?: { once: NodeServiceParts['simulateAndSubmit']; simulate: NodeServiceParts['simulate'] },
  ) {
    super(http);
    this.#params = params;
    this.#once = direct?.once;
    this.#simulate = direct?.simulate;
    const once = this.#once;
    const id = toHex(genesisHash);
    let scope = HINT_SCOPES.get(id);
    if (!scope) {
      if (HINT_SCOPES.size >= 64) HINT_SCOPES.delete(HINT_SCOPES.keys().next().value!);
      HINT_SCOPES.set(id, (scope = {}));
    }
    this[SHARED_HINT_SCOPE] = scope;
    // Offered only where it exists (a composer looks for the method).
    if (!once) this.simulateAndSubmit = undefined;
  }

  /** See {@link NodeAdapter.simulateAndSubmit}: the node's own simulate answer, and the commit, from one evaluation. */
  simulateAndSubmit?: NodeAdapter['simulateAndSubmit'] = async (signed, options) => {
    const noInner = options.commitOnlyWithoutInnerTxns === true;
    const out = this.#once!(signed, Boolean(options.execTrace), (r) => !noInner || r.txns.every((t) => t.ad.inner.length === 0));
    if (!out.committed) return { simulate: toSimulateResult(out.json) };
    // Each outcome as the pending route's answer would give it, from the ledger's records.
    const { txids, confirmed: records } = out.committed;
    const confirmed = records.map((t, i) => pendingFromConfirmed(t.stxn, t.ad, t.round, txids[i]));
    // A committed group's simulate answer is parsed when first read (a send often never reads it).
    let simulate: SimulateResult | undefined;
    return {
      get simulate(): SimulateResult {
        return (simulate ??= toSimulateResult(out.json));
      },
      submitted: { txid: txids[0]! },
      confirmed,
    };
  };

  /**
   * The route's answer, worked out without the HTTP layers (the same functions, the same JSON form);
   * a request the route would refuse goes to the route, which answers with the node's error.
   */
  override async simulate(signed: readonly Uint8Array[], options: SimulateOptions = {}): Promise<SimulateResult> {
    const json = this.#simulate?.(simulateRequestBody(signed, options));
    return json === undefined ? super.simulate(signed, options) : toSimulateResult(json);
  }

  override async suggestedParams(): Promise<SuggestedParams> {
    const { round, key, json } = this.#params();
    const c = this.#cached;
    if (!c || c.key.length !== key.length || c.key.some((k, i) => k !== key[i])) this.#cached = { key, value: toSuggestedParams(json()) };
    // Each send makes a block: only the round moved, and the answer names it and nothing else of it.
    else if (c.value.lastRound !== round) this.#cached = { key, value: { ...c.value, lastRound: round } };
    // A copy each time: callers may change what they were given.
    const value = this.#cached!.value;
    return { ...value, genesisHash: value.genesisHash.slice() };
  }
}

/**
 * The genesis accounts' keys derive from the seed text alone, and importing a key costs about a
 * millisecond: chains made one after another (a fixture per test file) share the same accounts.
 * An account holds nothing but its key, so sharing one is the same as making it again.
 */
const GENESIS_ACCOUNTS = new Map<string, LocalAccount>();

function genesisAccount(seed: string, i: number): LocalAccount {
  const text = `${seed}/${i}`;
  let a = GENESIS_ACCOUNTS.get(text);
  if (!a) {
    if (GENESIS_ACCOUNTS.size >= 4096) GENESIS_ACCOUNTS.clear();
    a = new LocalAccount(sha512_256(utf8(text)));
    GENESIS_ACCOUNTS.set(text, a);
  }
  return a;
}

/** A whole number from 0 to 2^64 - 1 as a bigint, or a `ValidationError` naming `what`. */
function uint64(v: unknown, what: string): bigint {
  let n: bigint | undefined;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^\d+$/.test(v.trim())) n = BigInt(v.trim());
  if (n === undefined || n < 0n || n > MAX_UINT64)
    throw new ValidationError(`${what} is a whole number from 0 to 2^64 - 1 (a number or bigint), got ${describeValue(v)}`);
  return n;
}

/** A snapshot id as `snapshot()` returned it, or a `ValidationError`. */
function snapshotId(id: unknown, what: string): number {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return id;
  throw new ValidationError(`${what} takes a snapshot id as snapshot() returned it (a whole number), got ${describeValue(id)}`);
}

/** A state key or box name: bytes or text. */
function stateKey(key: unknown, what: string): CheatKey {
  if (key instanceof Uint8Array || typeof key === 'string') return key;
  throw new ValidationError(`${what} takes the key as bytes (Uint8Array) or a name (string), got ${describeValue(key)}`);
}

/** The parsed spec a typed cheat reads key names and types from; plain JSON is refused with what to do. */
function specOf(spec: Arc56AppSpec | undefined | null, what: string): Arc56AppSpec | undefined {
  if (spec === undefined || spec === null) return undefined;
  if (spec instanceof Arc56AppSpec) return spec;
  throw new ValidationError(
    `${what} takes a parsed app spec (an AppClient's .spec, or loadAppSpec(json) from @tealworks/sdk), got ${describeValue(spec)}: parse the ARC-56 JSON first`,
  );
}

function describeValue(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return v.constructor === Object ? 'a plain object' : `a ${v.constructor?.name ?? 'object'}`;
  return String(v);
}

function addressText(a: AddressLike): string {
  return new Address(addressBytes(a)).toString();
}
