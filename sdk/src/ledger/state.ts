import { toHex } from '../encoding/hex.js';
import { Address } from '../encoding/address.js';
import type { AppParamsRecord, AssetParamsRecord, TealValue } from '../avm/ledger-view.js';
import type { ConsensusParams } from './params.js';
import { minimumBalance } from '../txn/min-balance.js';

/** Participation status as the account record's `onl` byte: 0 Offline, 1 Online, 2 NotParticipating. */
export type AccountStatus = 0 | 1 | 2;

/** An account's holding of an asset: amount and frozen flag. */
export interface Holding {
  readonly amount: bigint;
  readonly frozen: boolean;
}

/** A state value: bytes or uint. */
export interface KeyValue {
  readonly key: Uint8Array;
  readonly value: TealValue;
}

/** An account's registered participation keys and their validity window (from a key registration). */
export interface Participation {
  voteKey?: Uint8Array;
  selectionKey?: Uint8Array;
  stateProofKey?: Uint8Array;
  voteFirst: bigint;
  voteLast: bigint;
  voteKeyDilution: bigint;
}

/** One account. Holding objects are replaced, never mutated, so the undo log can restore them. */
export interface AccountData {
  balance: bigint;
  authAddr?: Uint8Array;
  status: AccountStatus;
  participation?: Participation;
  holdings: Map<bigint, Holding>;
  /** Local state of opted-in apps, keyed by hex of the state key. */
  locals: Map<bigint, Map<string, KeyValue>>;
  createdAssets: Set<bigint>;
  createdApps: Set<bigint>;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
  incentiveEligible: boolean;
  lastProposed: bigint;
  lastHeartbeat: bigint;
}

/** An asset in the ledger: parameters and creator. */
export interface AssetData extends AssetParamsRecord {
  readonly id: bigint;
}

/** An app in the ledger: parameters and global state. */
export interface AppData extends AppParamsRecord {
  readonly id: bigint;
  /** Global state keyed by hex of the key. */
  global: Map<string, KeyValue>;
}

/** Changes of one group, merged into the round's delta only when the group commits. */
export interface TouchSet {
  accounts: Set<string>;
  assetParams: Set<bigint>;
  appParams: Set<bigint>;
  /** `${addrHex}/${id}` */
  holdings: Set<string>;
  locals: Set<string>;
  /** box key (`appId/nameHex`) → value before the first change in the round (undefined: absent). */
  kv: Map<string, Uint8Array | undefined>;
  /** Assets and apps created in this round (creatables). */
  createdAssets: Set<bigint>;
  createdApps: Set<bigint>;
  /** Creators of assets/apps deleted in this round (`a<id>` / `p<id>`), which the state no longer knows. */
  deletedCreators: Map<string, Uint8Array>;
}

export function emptyTouchSet(): TouchSet {
  return {
    accounts: new Set(),
    assetParams: new Set(),
    appParams: new Set(),
    holdings: new Set(),
    locals: new Set(),
    kv: new Map(),
    createdAssets: new Set(),
    createdApps: new Set(),
    deletedCreators: new Map(),
  };
}

export const boxKeyOf = (appId: bigint, name: Uint8Array): string => `${appId}/${toHex(name)}`;
export const pairOf = (addrHex: string, id: bigint): string => `${addrHex}/${id}`;

function newAccount(): AccountData {
  return {
    balance: 0n,
    status: 0,
    holdings: new Map(),
    locals: new Map(),
    createdAssets: new Set(),
    createdApps: new Set(),
    totalBoxes: 0n,
    totalBoxBytes: 0n,
    incentiveEligible: false,
    lastProposed: 0n,
    lastHeartbeat: 0n,
  };
}

/** True when nothing distinguishes the account from one that never existed (it is then deleted). */
export function isEmptyAccount(a: AccountData): boolean {
  return (
    a.balance === 0n &&
    !a.authAddr &&
    a.status === 0 &&
    !a.participation &&
    a.holdings.size === 0 &&
    a.locals.size === 0 &&
    a.createdAssets.size === 0 &&
    a.createdApps.size === 0 &&
    a.totalBoxes === 0n &&
    a.totalBoxBytes === 0n &&
    !a.incentiveEligible &&
    a.lastProposed === 0n &&
    a.lastHeartbeat === 0n
  );
}

/** What the source behind a {@link SourcedMap} says about a key the map never held. */
export type SourceAnswer<V> = { value: V } | 'absent' | 'miss';

/**
 * A map that, when it has a source (a fork's remote state), asks it about a key the first time the
 * key is read and adopts the answer: a value, or "absent". A `miss` (the source does not know yet)
 * is asked again on the next read. Once settled, a key is the map's own: local writes and deletes
 * are never overridden by the source. Without a source it is a plain `Map`.
 */
export class SourcedMap<K, V> extends Map<K, V> {
  source: ((key: K) => SourceAnswer<V>) | undefined;
  private settledKeys: Set<K> | undefined;

  // A held key (the common case once state is fetched) costs one lookup: values are never undefined.
  override get(key: K): V | undefined {
    const held = super.get(key);
    if (held !== undefined || !this.source) return held;
    this.settle(key);
    return super.get(key);
  }

  override has(key: K): boolean {
    if (super.has(key)) return true;
    if (!this.source) return false;
    this.settle(key);
    return super.has(key);
  }

  override set(key: K, value: V): this {
    if (this.source && !super.has(key)) this.settle(key);
    return super.set(key, value);
  }

  override clear(): void {
    this.settledKeys?.clear();
    super.clear();
  }

  /** True once the map answers for the key itself (adopted from the source, claimed, or written). */
  isSettled(key: K): boolean {
    return this.settledKeys?.has(key) ?? false;
  }

  /** Marks a key as the map's own without asking the source (state made locally, e.g. at genesis). */
  claim(key: K): void {
    (this.settledKeys ??= new Set()).add(key);
  }

  private settle(key: K): void {
    if (this.settledKeys?.has(key)) return;
    const answer = this.source!(key);
    if (answer === 'miss') return;
    (this.settledKeys ??= new Set()).add(key);
    if (answer !== 'absent') super.set(key, answer.value);
  }
}

/**
 * All account, asset, app and box state, mutated only through methods that log how to undo each
 * change. A checkpoint is a position in that log, so discarding a failed group, a failed
 * ClearState program or a whole simulation costs only as much as the changes it made.
 */
export class LedgerState {
  readonly accounts = new SourcedMap<string, AccountData>();
  readonly assets = new SourcedMap<bigint, AssetData>();
  readonly apps = new SourcedMap<bigint, AppData>();
  /** Box contents keyed by `appId/nameHex`. */
  readonly boxes = new SourcedMap<string, Uint8Array>();
  /**
   * Local-state schemas of apps as a fork's remote reported them with its accounts' opt-ins, so a
   * minimum-balance check does not need every opted-in app's record.
   */
  readonly remoteLocalSchemas = new Map<bigint, { localNumUint: bigint; localNumByteSlice: bigint }>();
  /** Transactions applied so far (top-level and inner); created ids are taken from it. */
  txnCounter = 0n;

  private undoLog: (() => void)[] = [];
  touched: TouchSet = emptyTouchSet();
  /**
   * While set: the value each app-state key had before its first write from then on (undefined:
   * it had none), keyed by {@link firstValueKey}. A traced evaluation that commits reports these
   * as the programs' initial state (simulate's `initial-states`).
   */
  firstValues: Map<string, bigint | Uint8Array | undefined> | undefined;
  /** Accounts written by the current top-level transaction (minimum-balance checks). */
  txnTouched = new Set<string>();

  constructor(readonly params: ConsensusParams) {}

  // ---- checkpoints ----------------------------------------------------------------------------

  checkpoint(): number {
    return this.undoLog.length;
  }

  rollback(mark: number): void {
    const log = this.undoLog;
    while (log.length > mark) log.pop()!();
  }

  /**
   * While true, `commit` keeps the undo log: the ledger's snapshots (`Ledger.mark`) roll back
   * through committed rounds with it.
   */
  keepUndo = false;

  /** Forgets undo information (after a group commits): its changes are final. */
  commit(): void {
    if (!this.keepUndo) this.undoLog.length = 0;
  }

  private log(undo: () => void): void {
    this.undoLog.push(undo);
  }

  /** Keeps `old` as the value of `key` before the group, unless a write before this one did. */
  #noteFirst(first: Map<string, bigint | Uint8Array | undefined>, key: string, old: bigint | Uint8Array | undefined): void {
    if (!first.has(key)) first.set(key, old);
  }

  // ---- reads ----------------------------------------------------------------------------------

  get(addr: Uint8Array): AccountData | undefined {
    return this.accounts.get(toHex(addr));
  }

  balanceOf(addr: Uint8Array): bigint {
    return this.get(addr)?.balance ?? 0n;
  }

  /** Schema totals across created apps' global schemas and opted-in apps' local schemas. */
  schemaTotals(a: AccountData): { nui: bigint; nbs: bigint; pages: bigint } {
    let nui = 0n;
    let nbs = 0n;
    let pages = 0n;
    for (const id of a.createdApps) {
      const app = this.apps.get(id);
      if (!app) continue;
      nui += app.globalNumUint;
      nbs += app.globalNumByteSlice;
      pages += app.extraProgramPages;
    }
    for (const id of a.locals.keys()) {
      const s = this.localSchemaOf(a, id);
      nui += s.nui;
      nbs += s.nbs;
    }
    return { nui, nbs, pages };
  }

  /** Local schemas are fixed at opt-in; we keep them with the app (they never change afterwards). */
  private localSchemaOf(_a: AccountData, appId: bigint): { nui: bigint; nbs: bigint } {
    const app = this.deletedLocalSchemas.get(appId) ?? this.remoteLocalSchemas.get(appId) ?? this.apps.get(appId);
    return app ? { nui: app.localNumUint, nbs: app.localNumByteSlice } : { nui: 0n, nbs: 0n };
  }

  /** Local schemas of deleted apps: accounts still opted in keep paying for them until they clear. */
  readonly deletedLocalSchemas = new Map<bigint, { localNumUint: bigint; localNumByteSlice: bigint }>();

  minBalanceOf(a: AccountData | undefined): bigint {
    const p = this.params;
    if (!a) return p.minBalance;
    const { nui, nbs, pages } = this.schemaTotals(a);
    return minimumBalance(p, {
      totalAssets: BigInt(a.holdings.size),
      totalAppsCreated: BigInt(a.createdApps.size),
      totalAppsOptedIn: BigInt(a.locals.size),
      totalNumUint: nui,
      totalNumByteSlice: nbs,
      totalExtraAppPages: pages,
      totalBoxes: a.totalBoxes,
      totalBoxBytes: a.totalBoxBytes,
    });
  }

  // ---- account writes -------------------------------------------------------------------------

  /** The account record, created (and logged) when missing. */
  mut(addr: Uint8Array): AccountData {
    const k = toHex(addr);
    this.touched.accounts.add(k);
    this.txnTouched.add(k);
    let a = this.accounts.get(k);
    if (!a) {
      a = newAccount();
      this.accounts.set(k, a);
      this.log(() => this.accounts.delete(k));
    }
    return a;
  }

  setBalance(addr: Uint8Array, value: bigint): void {
    const a = this.mut(addr);
    const old = a.balance;
    a.balance = value;
    this.log(() => (a.balance = old));
  }

  setAccountField<K extends 'authAddr' | 'status' | 'participation' | 'incentiveEligible' | 'lastProposed' | 'lastHeartbeat' | 'totalBoxes' | 'totalBoxBytes'>(
    addr: Uint8Array,
    field: K,
    value: AccountData[K],
  ): void {
    const a = this.mut(addr);
    const had = field in a;
    const old = a[field];
    if (value === undefined) delete a[field];
    else a[field] = value;
    this.log(() => {
      if (had) a[field] = old;
      else delete a[field];
    });
  }

  /** Drops an account whose data is entirely zero (the node deletes such records). */
  deleteAccount(addrHex: string): void {
    const a = this.accounts.get(addrHex);
    if (!a) return;
    this.accounts.delete(addrHex);
    this.touched.accounts.add(addrHex);
    this.log(() => this.accounts.set(addrHex, a));
  }

  setHolding(addr: Uint8Array, assetId: bigint, h: Holding | undefined): void {
    const a = this.mut(addr);
    this.touched.holdings.add(pairOf(toHex(addr), assetId));
    const old = a.holdings.get(assetId);
    if (h) a.holdings.set(assetId, h);
    else a.holdings.delete(assetId);
    this.log(() => (old ? a.holdings.set(assetId, old) : a.holdings.delete(assetId)));
  }

  private setMember(set: Set<bigint>, id: bigint, present: boolean): void {
    const had = set.has(id);
    if (present) set.add(id);
    else set.delete(id);
    this.log(() => (had ? set.add(id) : set.delete(id)));
  }

  // ---- assets ---------------------------------------------------------------------------------

  putAsset(params: AssetData): void {
    const id = params.id;
    const old = this.assets.get(id);
    this.assets.set(id, params);
    this.touched.assetParams.add(id);
    this.log(() => (old ? this.assets.set(id, old) : this.assets.delete(id)));
    if (!old) {
      this.setMember(this.mut(params.creator).createdAssets, id, true);
      this.touched.createdAssets.add(id);
    }
  }

  deleteAsset(id: bigint): void {
    const old = this.assets.get(id);
    if (!old) return;
    this.assets.delete(id);
    this.touched.assetParams.add(id);
    this.touched.deletedCreators.set(`a${id}`, old.creator);
    this.log(() => this.assets.set(id, old));
    this.setMember(this.mut(old.creator).createdAssets, id, false);
  }

  // ---- apps -----------------------------------------------------------------------------------

  putApp(app: AppData): void {
    const id = app.id;
    const old = this.apps.get(id);
    this.apps.set(id, app);
    this.touched.appParams.add(id);
    this.log(() => (old ? this.apps.set(id, old) : this.apps.delete(id)));
    if (!old) {
      this.setMember(this.mut(app.creator).createdApps, id, true);
      this.touched.createdApps.add(id);
    } else this.mut(app.creator);
  }

  deleteApp(id: bigint): void {
    const old = this.apps.get(id);
    if (!old) return;
    this.apps.delete(id);
    this.touched.appParams.add(id);
    this.touched.deletedCreators.set(`p${id}`, old.creator);
    this.log(() => this.apps.set(id, old));
    const hadSchema = this.deletedLocalSchemas.get(id);
    this.deletedLocalSchemas.set(id, { localNumUint: old.localNumUint, localNumByteSlice: old.localNumByteSlice });
    this.log(() => (hadSchema ? this.deletedLocalSchemas.set(id, hadSchema) : this.deletedLocalSchemas.delete(id)));
    this.setMember(this.mut(old.creator).createdApps, id, false);
  }

  setGlobal(appId: bigint, key: Uint8Array, value: TealValue | undefined): void {
    const app = this.apps.get(appId);
    if (!app) return;
    this.touched.appParams.add(appId);
    const k = toHex(key);
    const old = app.global.get(k);
    if (this.firstValues) this.#noteFirst(this.firstValues, firstValueKey('g', appId, k), old?.value);
    if (value === undefined) app.global.delete(k);
    else app.global.set(k, { key: key.slice(), value: typeof value === 'bigint' ? value : value.slice() });
    this.log(() => (old ? app.global.set(k, old) : app.global.delete(k)));
  }

  optIn(addr: Uint8Array, appId: bigint): void {
    const a = this.mut(addr);
    this.touched.locals.add(pairOf(toHex(addr), appId));
    const old = a.locals.get(appId);
    a.locals.set(appId, new Map());
    this.log(() => (old ? a.locals.set(appId, old) : a.locals.delete(appId)));
  }

  optOut(addr: Uint8Array, appId: bigint): void {
    const a = this.mut(addr);
    this.touched.locals.add(pairOf(toHex(addr), appId));
    const old = a.locals.get(appId);
    if (!old) return;
    a.locals.delete(appId);
    this.log(() => a.locals.set(appId, old));
  }

  setLocal(addr: Uint8Array, appId: bigint, key: Uint8Array, value: TealValue | undefined): void {
    const a = this.get(addr);
    const kv = a?.locals.get(appId);
    if (!kv) return;
    this.mut(addr);
    this.touched.locals.add(pairOf(toHex(addr), appId));
    const k = toHex(key);
    const old = kv.get(k);
    if (this.firstValues) this.#noteFirst(this.firstValues, firstValueKey('l', appId, k, toHex(addr)), old?.value);
    if (value === undefined) kv.delete(k);
    else kv.set(k, { key: key.slice(), value: typeof value === 'bigint' ? value : value.slice() });
    this.log(() => (old ? kv.set(k, old) : kv.delete(k)));
  }

  // ---- boxes ----------------------------------------------------------------------------------

  getBox(appId: bigint, name: Uint8Array): Uint8Array | undefined {
    return this.boxes.get(boxKeyOf(appId, name));
  }

  putBox(appId: bigint, name: Uint8Array, value: Uint8Array): void {
    const k = boxKeyOf(appId, name);
    const old = this.boxes.get(k);
    if (!this.touched.kv.has(k)) this.touched.kv.set(k, old);
    if (this.firstValues) this.#noteFirst(this.firstValues, `b${k}`, old);
    const appAddr = Address.forApp(appId).publicKey;
    const acct = this.get(appAddr);
    let boxes = acct?.totalBoxes ?? 0n;
    let bytes = acct?.totalBoxBytes ?? 0n;
    if (old) bytes -= BigInt(name.length + old.length);
    else boxes += 1n;
    bytes += BigInt(name.length + value.length);
    this.setAccountField(appAddr, 'totalBoxes', boxes);
    this.setAccountField(appAddr, 'totalBoxBytes', bytes);
    this.boxes.set(k, value.slice());
    this.log(() => (old ? this.boxes.set(k, old) : this.boxes.delete(k)));
  }

  deleteBox(appId: bigint, name: Uint8Array): boolean {
    const k = boxKeyOf(appId, name);
    const old = this.boxes.get(k);
    if (!old) return false;
    if (!this.touched.kv.has(k)) this.touched.kv.set(k, old);
    if (this.firstValues) this.#noteFirst(this.firstValues, `b${k}`, old);
    const appAddr = Address.forApp(appId).publicKey;
    const acct = this.mut(appAddr);
    this.setAccountField(appAddr, 'totalBoxes', acct.totalBoxes - 1n);
    this.setAccountField(appAddr, 'totalBoxBytes', acct.totalBoxBytes - BigInt(name.length + old.length));
    this.boxes.delete(k);
    this.log(() => this.boxes.set(k, old));
    return true;
  }

  // ---- counters -------------------------------------------------------------------------------

  /** Counts one applied transaction and returns the counter's new value (the id a creation gets). */
  nextTxn(): bigint {
    const old = this.txnCounter;
    this.txnCounter = old + 1n;
    this.log(() => (this.txnCounter = old));
    return this.txnCounter;
  }

  // ---- bulk -----------------------------------------------------------------------------------

  clear(): void {
    this.accounts.clear();
    this.assets.clear();
    this.apps.clear();
    this.boxes.clear();
    this.deletedLocalSchemas.clear();
    this.txnCounter = 0n;
    this.undoLog.length = 0;
    this.keepUndo = false;
    this.touched = emptyTouchSet();
  }
}

/**
 * The key of an app-state value in {@link LedgerState.firstValues}, from the state key (or box
 * name) and account in hex: a box's is `b` + its {@link boxKeyOf} key.
 */
export function firstValueKey(kind: 'g' | 'l' | 'b', appId: bigint, keyHex: string, accountHex?: string): string {
  return kind === 'l' ? `l${accountHex}/${appId}/${keyHex}` : `${kind}${appId}/${keyHex}`;
}
