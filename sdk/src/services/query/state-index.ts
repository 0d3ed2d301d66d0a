import { toHex } from '../../encoding/hex.js';
import type { AccountData, AppData, AssetData, Holding, KeyValue, Participation } from '../../ledger/state.js';
import type { RoundDelta } from '../../ledger/delta.js';
import type { SigType } from './txn-index.js';

/** Values an entity had from each round on; `undefined` marks that it was gone from that round. */
export class History<T> {
  readonly rounds: bigint[] = [];
  readonly values: (T | undefined)[] = [];

  set(round: bigint, value: T | undefined): void {
    const n = this.rounds.length;
    if (n > 0 && this.rounds[n - 1] === round) this.values[n - 1] = value;
    else {
      this.rounds.push(round);
      this.values.push(value);
    }
  }

  /** Value as of a round (latest when round is undefined); undefined if absent then. */
  at(round?: bigint): T | undefined {
    const n = this.rounds.length;
    if (n === 0) return undefined;
    if (round === undefined) return this.values[n - 1];
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rounds[mid]! <= round) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? undefined : this.values[lo - 1];
  }

  /** True when the entity existed at some point up to the round. */
  existedBy(round?: bigint): boolean {
    return this.rounds.length > 0 && (round === undefined || this.rounds[0]! <= round);
  }
}

export interface AccountSnap {
  balance: bigint;
  minBalance: bigint;
  status: 0 | 1 | 2;
  authAddr?: Uint8Array;
  participation?: Participation;
  totalAssets: number;
  totalCreatedAssets: number;
  totalAppsOptedIn: number;
  totalCreatedApps: number;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
  schema: { nui: bigint; nbs: bigint };
  extraPages: bigint;
  incentiveEligible: boolean;
  lastProposed: bigint;
  lastHeartbeat: bigint;
}

export interface AccountRec {
  address: Uint8Array;
  hex: string;
  createdAt: bigint;
  closedAt?: bigint;
  history: History<AccountSnap>;
  sigType?: SigType;
  /** Ids ever held / opted into / created, so per-account listings never scan all entities. */
  assets: Set<bigint>;
  locals: Set<bigint>;
  createdAssets: Set<bigint>;
  createdApps: Set<bigint>;
}

export interface HoldingRec {
  address: Uint8Array;
  hex: string;
  assetId: bigint;
  optedInAt: bigint;
  optedOutAt?: bigint;
  history: History<Holding>;
}

export interface LocalSnap {
  kv: KeyValue[];
}

export interface LocalRec {
  address: Uint8Array;
  appId: bigint;
  optedInAt: bigint;
  closedOutAt?: bigint;
  history: History<LocalSnap>;
}

export interface AssetRec {
  id: bigint;
  creator: Uint8Array;
  createdAt: bigint;
  destroyedAt?: bigint;
  history: History<AssetData>;
}

export interface AppSnap {
  params: Omit<AppData, 'global'>;
  global: KeyValue[];
}

export interface AppRec {
  id: bigint;
  creator: Uint8Array;
  createdAt: bigint;
  deletedAt?: bigint;
  history: History<AppSnap>;
}

export interface BoxRec {
  name: Uint8Array;
  value: Uint8Array;
  round: bigint;
}

/** What the index needs from the ledger beyond the delta: account totals the node derives. */
export interface TotalsSource {
  schemaTotals(a: AccountData): { nui: bigint; nbs: bigint; pages: bigint };
}

function sortedInsert<T>(arr: T[], value: T, less: (a: T, b: T) => boolean): void {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (less(arr[mid]!, value)) lo = mid + 1;
    else hi = mid;
  }
  arr.splice(lo, 0, value);
}

export function snapAccount(a: AccountData, minBalance: bigint, totals: TotalsSource | undefined): AccountSnap {
  const s = totals?.schemaTotals(a) ?? { nui: 0n, nbs: 0n, pages: 0n };
  const snap: AccountSnap = {
    balance: a.balance,
    minBalance,
    status: a.status,
    totalAssets: a.holdings.size,
    totalCreatedAssets: a.createdAssets.size,
    totalAppsOptedIn: a.locals.size,
    totalCreatedApps: a.createdApps.size,
    totalBoxes: a.totalBoxes,
    totalBoxBytes: a.totalBoxBytes,
    schema: { nui: s.nui, nbs: s.nbs },
    extraPages: s.pages,
    incentiveEligible: a.incentiveEligible,
    lastProposed: a.lastProposed,
    lastHeartbeat: a.lastHeartbeat,
  };
  if (a.authAddr) snap.authAddr = a.authAddr;
  if (a.participation) snap.participation = { ...a.participation };
  return snap;
}

/**
 * Accounts, holdings, local states, assets, applications and boxes, with their history, kept in
 * sorted arrays (addresses bytewise, ids numerically) so listings page by key without scanning.
 */
export class StateIndex {
  readonly accounts = new Map<string, AccountRec>();
  /** Hex addresses, sorted (hex order is byte order). */
  readonly accountOrder: string[] = [];
  readonly assets = new Map<bigint, AssetRec>();
  readonly assetOrder: bigint[] = [];
  readonly apps = new Map<bigint, AppRec>();
  readonly appOrder: bigint[] = [];
  /** asset id → holder hex → holding */
  readonly holders = new Map<bigint, Map<string, HoldingRec>>();
  /** asset id → holder hex list, sorted */
  readonly holderOrder = new Map<bigint, string[]>();
  /** `${hex}/${appId}` → local state */
  readonly locals = new Map<string, LocalRec>();
  /** app id → account hex set (ever opted in) */
  readonly optedIn = new Map<bigint, Set<string>>();
  /** auth address hex → account hexes currently rekeyed to it */
  readonly byAuth = new Map<string, Set<string>>();
  readonly boxes = new Map<bigint, Map<string, BoxRec>>();
  readonly #boxOrder = new Map<bigint, string[] | undefined>();

  account(hex: string): AccountRec | undefined {
    return this.accounts.get(hex);
  }

  holding(hex: string, assetId: bigint): HoldingRec | undefined {
    return this.holders.get(assetId)?.get(hex);
  }

  local(hex: string, appId: bigint): LocalRec | undefined {
    return this.locals.get(`${hex}/${appId}`);
  }

  /** Box names of an app in byte order (hex order is byte order). */
  boxNames(appId: bigint): string[] {
    let order = this.#boxOrder.get(appId);
    if (!order) {
      order = [...(this.boxes.get(appId)?.keys() ?? [])].sort();
      this.#boxOrder.set(appId, order);
    }
    return order;
  }

  #accountRec(address: Uint8Array, round: bigint): AccountRec {
    const hex = toHex(address);
    let rec = this.accounts.get(hex);
    if (!rec) {
      rec = { address, hex, createdAt: round, history: new History(), assets: new Set(), locals: new Set(), createdAssets: new Set(), createdApps: new Set() };
      this.accounts.set(hex, rec);
      sortedInsert(this.accountOrder, hex, (a, b) => a < b);
    }
    return rec;
  }

  putAccount(address: Uint8Array, round: bigint, snap: AccountSnap | undefined): void {
    const rec = this.#accountRec(address, round);
    const before = rec.history.at();
    if (snap === undefined) {
      if (before !== undefined) rec.closedAt = round;
    } else if (before === undefined && rec.history.rounds.length > 0) {
      // Reopened after a close: the account exists again from this round.
      delete rec.closedAt;
    }
    rec.history.set(round, snap);
    const oldAuth = before?.authAddr ? toHex(before.authAddr) : undefined;
    const newAuth = snap?.authAddr ? toHex(snap.authAddr) : undefined;
    if (oldAuth !== newAuth) {
      if (oldAuth) this.byAuth.get(oldAuth)?.delete(rec.hex);
      if (newAuth) {
        let s = this.byAuth.get(newAuth);
        if (!s) this.byAuth.set(newAuth, (s = new Set()));
        s.add(rec.hex);
      }
    }
  }

  putHolding(address: Uint8Array, assetId: bigint, round: bigint, h: Holding | undefined): void {
    const hex = toHex(address);
    let byAsset = this.holders.get(assetId);
    if (!byAsset) {
      this.holders.set(assetId, (byAsset = new Map()));
      this.holderOrder.set(assetId, []);
    }
    let rec = byAsset.get(hex);
    if (!rec) {
      if (!h) return;
      rec = { address, hex, assetId, optedInAt: round, history: new History() };
      byAsset.set(hex, rec);
      sortedInsert(this.holderOrder.get(assetId)!, hex, (a, b) => a < b);
      this.#accountRec(address, round).assets.add(assetId);
    }
    if (h === undefined) rec.optedOutAt = round;
    else if (rec.history.at() === undefined && rec.history.rounds.length > 0) {
      rec.optedInAt = round;
      delete rec.optedOutAt;
    }
    rec.history.set(round, h);
  }

  putLocal(address: Uint8Array, appId: bigint, round: bigint, kv: KeyValue[] | undefined): void {
    const hex = toHex(address);
    const key = `${hex}/${appId}`;
    let rec = this.locals.get(key);
    if (!rec) {
      if (!kv) return;
      rec = { address, appId, optedInAt: round, history: new History() };
      this.locals.set(key, rec);
      this.#accountRec(address, round).locals.add(appId);
      let s = this.optedIn.get(appId);
      if (!s) this.optedIn.set(appId, (s = new Set()));
      s.add(hex);
    }
    if (kv === undefined) rec.closedOutAt = round;
    else if (rec.history.at() === undefined && rec.history.rounds.length > 0) {
      rec.optedInAt = round;
      delete rec.closedOutAt;
    }
    rec.history.set(round, kv ? { kv } : undefined);
  }

  putAsset(id: bigint, round: bigint, params: AssetData | undefined, creator?: Uint8Array): void {
    let rec = this.assets.get(id);
    if (!rec) {
      if (!params) return;
      rec = { id, creator: creator ?? params.creator, createdAt: round, history: new History() };
      this.assets.set(id, rec);
      sortedInsert(this.assetOrder, id, (a, b) => a < b);
      this.#accountRec(rec.creator, round).createdAssets.add(id);
    }
    if (!params) rec.destroyedAt = round;
    rec.history.set(round, params ? { ...params } : undefined);
  }

  putApp(id: bigint, round: bigint, app: AppData | undefined, creator?: Uint8Array): void {
    let rec = this.apps.get(id);
    if (!rec) {
      if (!app) return;
      rec = { id, creator: creator ?? app.creator, createdAt: round, history: new History() };
      this.apps.set(id, rec);
      sortedInsert(this.appOrder, id, (a, b) => a < b);
      this.#accountRec(rec.creator, round).createdApps.add(id);
    }
    if (!app) rec.deletedAt = round;
    if (app) {
      const { global, ...params } = app;
      rec.history.set(round, { params: { ...params }, global: [...global.values()] });
    } else rec.history.set(round, undefined);
  }

  putBox(appId: bigint, name: Uint8Array, round: bigint, value: Uint8Array | undefined): void {
    const hex = toHex(name);
    let m = this.boxes.get(appId);
    if (!m) this.boxes.set(appId, (m = new Map()));
    const had = m.has(hex);
    if (value === undefined) m.delete(hex);
    else m.set(hex, { name, value: value.slice(), round });
    if (had !== (value !== undefined)) this.#boxOrder.set(appId, undefined);
  }

  /** Applies one round's delta (values after the round). */
  applyDelta(d: RoundDelta, totals: TotalsSource | undefined): void {
    const round = d.round;
    for (const a of d.assetParams) this.putAsset(a.id, round, a.params, a.creator);
    for (const a of d.appParams) this.putApp(a.id, round, a.params, a.creator);
    for (const a of d.accounts) this.putAccount(a.address, round, a.data ? snapAccount(a.data, a.minBalance, totals) : undefined);
    for (const h of d.holdings) this.putHolding(h.address, h.assetId, round, h.holding);
    for (const l of d.locals) this.putLocal(l.address, l.appId, round, l.state ? [...l.state] : undefined);
    for (const k of d.kv) this.putBox(k.appId, k.name, round, k.data);
  }
}
