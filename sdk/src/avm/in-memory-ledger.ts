import type { Transaction } from '../txn/types.js';
import { Address } from '../encoding/address.js';
import type {
  AccountRecord,
  AppParamsRecord,
  AssetHoldingRecord,
  AssetParamsRecord,
  BlockHeaderRecord,
  ChainInfo,
  LedgerView,
  TealValue,
  VoterRecord,
} from './ledger-view.js';
import { AvmFault } from './errors.js';
import { hexOf } from './value.js';
import { appParamsFromCreate, assetParamsFromCreate, countStateValues } from './records.js';
import { CONSENSUS_V42 } from '../txn/limits.js';
import { minBalanceScheduleFor, minimumBalance } from '../txn/min-balance.js';

/** The in-memory ledger charges the current protocol's minimum-balance schedule. */
const IN_MEMORY_MIN_BALANCE = minBalanceScheduleFor(CONSENSUS_V42);

interface Account {
  balance: bigint;
  authAddr?: Uint8Array;
  holdings: Map<bigint, AssetHoldingRecord>;
  locals: Map<bigint, Map<string, { key: Uint8Array; value: TealValue }>>;
  createdAssets: Set<bigint>;
  createdApps: Set<bigint>;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
  incentiveEligible: boolean;
  lastProposed: bigint;
  lastHeartbeat: bigint;
}

interface App extends AppParamsRecord {
  global: Map<string, { key: Uint8Array; value: TealValue }>;
}

interface State {
  accounts: Map<string, Account>;
  assets: Map<bigint, AssetParamsRecord>;
  apps: Map<bigint, App>;
  boxes: Map<string, Uint8Array>;
  nextId: bigint;
}

const ZERO32 = new Uint8Array(32);

function cloneState(s: State): State {
  const accounts = new Map<string, Account>();
  for (const [k, a] of s.accounts) {
    const locals = new Map<bigint, Map<string, { key: Uint8Array; value: TealValue }>>();
    for (const [id, kv] of a.locals) locals.set(id, new Map(kv));
    accounts.set(k, {
      ...a,
      holdings: new Map([...a.holdings].map(([id, h]) => [id, { ...h }])),
      locals,
      createdAssets: new Set(a.createdAssets),
      createdApps: new Set(a.createdApps),
    });
  }
  const apps = new Map<bigint, App>();
  for (const [id, app] of s.apps) apps.set(id, { ...app, global: new Map(app.global) });
  return { accounts, assets: new Map([...s.assets].map(([id, p]) => [id, { ...p }])), apps, boxes: new Map(s.boxes), nextId: s.nextId };
}

/**
 * A small, complete ledger held in memory: accounts, assets, apps with their state, boxes and
 * block headers. For tests and for evaluating programs without a node; it applies inner
 * transactions with the ordinary balance, asset and app rules (no fees, no rewards).
 */
export class InMemoryLedgerView implements LedgerView {
  private s: State = { accounts: new Map(), assets: new Map(), apps: new Map(), boxes: new Map(), nextId: 1000n };
  chainInfo: ChainInfo = {
    round: 1000n,
    latestTimestamp: 1_700_000_000n,
    genesisHash: new Uint8Array(32).fill(7),
    payoutsEnabled: false,
    payoutsGoOnlineFee: 0n,
    payoutsPercent: 0n,
    payoutsMinBalance: 0n,
    payoutsMaxBalance: 0n,
  };
  blocks = new Map<bigint, BlockHeaderRecord>();
  voters = new Map<string, VoterRecord>();
  totalOnlineStake = 0n;

  chain(): ChainInfo {
    return this.chainInfo;
  }

  private acct(addr: Uint8Array, create = false): Account | undefined {
    const k = hexOf(addr);
    let a = this.s.accounts.get(k);
    if (!a && create) {
      a = {
        balance: 0n,
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
      this.s.accounts.set(k, a);
    }
    return a;
  }

  // ---- fixture builders ----
  fund(addr: Uint8Array, microalgos: bigint): this {
    this.acct(addr, true)!.balance = microalgos;
    return this;
  }

  setAuthAddr(addr: Uint8Array, auth: Uint8Array): this {
    this.acct(addr, true)!.authAddr = auth;
    return this;
  }

  createAsset(creator: Uint8Array, params: Partial<AssetParamsRecord> & { total: bigint }, id?: bigint): bigint {
    const assetId = id ?? this.s.nextId++;
    this.s.assets.set(assetId, {
      creator,
      decimals: 0n,
      defaultFrozen: false,
      unitName: new Uint8Array(),
      name: new Uint8Array(),
      url: new Uint8Array(),
      metadataHash: ZERO32,
      manager: ZERO32,
      reserve: ZERO32,
      freeze: ZERO32,
      clawback: ZERO32,
      ...params,
    });
    const a = this.acct(creator, true)!;
    a.createdAssets.add(assetId);
    a.holdings.set(assetId, { amount: params.total, frozen: false });
    return assetId;
  }

  optInAsset(addr: Uint8Array, assetId: bigint, amount = 0n, frozen = false): this {
    this.acct(addr, true)!.holdings.set(assetId, { amount, frozen });
    return this;
  }

  createApp(creator: Uint8Array, params: Partial<AppParamsRecord> & { approvalProgram: Uint8Array }, id?: bigint): bigint {
    const appId = id ?? this.s.nextId++;
    this.s.apps.set(appId, {
      creator,
      clearStateProgram: Uint8Array.of(params.approvalProgram[0] ?? 1, 0x81, 0x01),
      globalNumUint: 0n,
      globalNumByteSlice: 0n,
      localNumUint: 0n,
      localNumByteSlice: 0n,
      extraProgramPages: 0n,
      version: 0n,
      ...params,
      global: new Map(),
    });
    this.acct(creator, true)!.createdApps.add(appId);
    return appId;
  }

  optInApp(addr: Uint8Array, appId: bigint): this {
    this.acct(addr, true)!.locals.set(appId, new Map());
    return this;
  }

  /** Allocates the id the next created app/asset will get (what the node's counter does). */
  allocateId(): bigint {
    return this.s.nextId++;
  }

  // ---- LedgerView ----
  account(addr: Uint8Array): AccountRecord {
    const a = this.acct(addr);
    let nui = 0n;
    let nbs = 0n;
    let pages = 0n;
    for (const id of a?.createdApps ?? []) {
      const app = this.s.apps.get(id);
      if (!app) continue;
      nui += app.globalNumUint;
      nbs += app.globalNumByteSlice;
      pages += app.extraProgramPages;
    }
    for (const id of a?.locals.keys() ?? []) {
      const app = this.s.apps.get(id);
      if (!app) continue;
      nui += app.localNumUint;
      nbs += app.localNumByteSlice;
    }
    return {
      balance: a?.balance ?? 0n,
      ...(a?.authAddr ? { authAddr: a.authAddr } : {}),
      totalNumUint: nui,
      totalNumByteSlice: nbs,
      totalExtraAppPages: pages,
      totalAppsCreated: BigInt(a?.createdApps.size ?? 0),
      totalAppsOptedIn: BigInt(a?.locals.size ?? 0),
      totalAssetsCreated: BigInt(a?.createdAssets.size ?? 0),
      totalAssets: BigInt(a?.holdings.size ?? 0),
      totalBoxes: a?.totalBoxes ?? 0n,
      totalBoxBytes: a?.totalBoxBytes ?? 0n,
      incentiveEligible: a?.incentiveEligible ?? false,
      lastProposed: a?.lastProposed ?? 0n,
      lastHeartbeat: a?.lastHeartbeat ?? 0n,
    };
  }

  minBalance(addr: Uint8Array): bigint {
    return minimumBalance(IN_MEMORY_MIN_BALANCE, this.account(addr));
  }

  assetHolding(addr: Uint8Array, assetId: bigint): AssetHoldingRecord | undefined {
    return this.acct(addr)?.holdings.get(assetId);
  }
  assetParams(assetId: bigint): AssetParamsRecord | undefined {
    return this.s.assets.get(assetId);
  }
  appParams(appId: bigint): AppParamsRecord | undefined {
    return this.s.apps.get(appId);
  }
  setAppParamFlag(appId: bigint, field: 'foreignBoxReads' | 'familyBoxAccess', value: boolean): void {
    const app = this.s.apps.get(appId);
    if (app) app[field] = value;
  }
  optedIn(addr: Uint8Array, appId: bigint): boolean {
    return this.acct(addr)?.locals.has(appId) ?? false;
  }
  getGlobal(appId: bigint, key: Uint8Array): TealValue | undefined {
    return this.s.apps.get(appId)?.global.get(hexOf(key))?.value;
  }
  setGlobal(appId: bigint, key: Uint8Array, value: TealValue): void {
    this.s.apps.get(appId)?.global.set(hexOf(key), { key, value });
  }
  delGlobal(appId: bigint, key: Uint8Array): void {
    this.s.apps.get(appId)?.global.delete(hexOf(key));
  }
  countGlobal(appId: bigint): { uints: number; bytes: number } {
    return countStateValues(this.s.apps.get(appId)?.global.values() ?? []);
  }
  countLocal(addr: Uint8Array, appId: bigint): { uints: number; bytes: number } {
    return countStateValues(this.acct(addr)?.locals.get(appId)?.values() ?? []);
  }
  getLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): TealValue | undefined {
    return this.acct(addr)?.locals.get(appId)?.get(hexOf(key))?.value;
  }
  setLocal(addr: Uint8Array, appId: bigint, key: Uint8Array, value: TealValue): void {
    this.acct(addr)?.locals.get(appId)?.set(hexOf(key), { key, value });
  }
  delLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): void {
    this.acct(addr)?.locals.get(appId)?.delete(hexOf(key));
  }
  getBox(appId: bigint, name: Uint8Array): Uint8Array | undefined {
    return this.s.boxes.get(`${appId}/${hexOf(name)}`);
  }
  putBox(appId: bigint, name: Uint8Array, value: Uint8Array): void {
    const k = `${appId}/${hexOf(name)}`;
    const old = this.s.boxes.get(k);
    const a = this.acct(Address.forApp(appId).publicKey, true)!;
    if (old) a.totalBoxBytes -= BigInt(name.length + old.length);
    else a.totalBoxes++;
    a.totalBoxBytes += BigInt(name.length + value.length);
    this.s.boxes.set(k, value);
  }
  delBox(appId: bigint, name: Uint8Array): boolean {
    const k = `${appId}/${hexOf(name)}`;
    const old = this.s.boxes.get(k);
    if (!old) return false;
    const a = this.acct(Address.forApp(appId).publicKey, true)!;
    a.totalBoxes--;
    a.totalBoxBytes -= BigInt(name.length + old.length);
    this.s.boxes.delete(k);
    return true;
  }
  blockHeader(round: bigint): BlockHeaderRecord | undefined {
    return this.blocks.get(round);
  }
  blockRange(): { first: bigint; last: bigint } {
    const last = this.chainInfo.round - 1n;
    const first = last > 1000n ? last - 1000n : 0n;
    return { first, last };
  }
  voter(addr: Uint8Array): VoterRecord | undefined {
    return this.voters.get(hexOf(addr));
  }
  onlineStake(): bigint {
    return this.totalOnlineStake;
  }
  checkpoint(): unknown {
    return cloneState(this.s);
  }
  rollback(token: unknown): void {
    this.s = token as State;
  }

  private move(from: Uint8Array, to: Uint8Array, amount: bigint): void {
    const f = this.acct(from, true)!;
    if (f.balance < amount) throw new AvmFault(`${new Address(from)} balance ${f.balance} below transfer ${amount}`);
    f.balance -= amount;
    this.acct(to, true)!.balance += amount;
  }

  applyInner(txn: Transaction, _context: { appId?: bigint }): { createdAssetId?: bigint; createdAppId?: bigint; closingAmount?: bigint } {
    const snd = txn.sender.publicKey;
    const sender = this.acct(snd, true)!;
    if (sender.balance < txn.fee) throw new AvmFault(`${txn.sender} balance ${sender.balance} below fee ${txn.fee}`);
    sender.balance -= txn.fee;
    if (txn.rekeyTo) {
      if (txn.rekeyTo.publicKey.every((b, i) => b === snd[i])) delete sender.authAddr;
      else sender.authAddr = txn.rekeyTo.publicKey;
    }
    switch (txn.type) {
      case 'pay': {
        const p = txn.payment!;
        this.move(snd, p.receiver.publicKey, p.amount);
        if (p.closeRemainderTo) {
          const rest = sender.balance;
          this.move(snd, p.closeRemainderTo.publicKey, rest);
          return { closingAmount: rest };
        }
        return {};
      }
      case 'axfer': {
        const x = txn.assetTransfer!;
        const from = x.assetSender ? x.assetSender.publicKey : snd;
        const fromAcct = this.acct(from, true)!;
        const toAcct = this.acct(x.receiver.publicKey, true)!;
        if (x.amount === 0n && !x.assetSender && hexOf(from) === hexOf(x.receiver.publicKey)) {
          if (!fromAcct.holdings.has(x.assetId)) {
            const params = this.s.assets.get(x.assetId);
            if (!params) throw new AvmFault(`asset ${x.assetId} does not exist or has been deleted`);
            fromAcct.holdings.set(x.assetId, { amount: 0n, frozen: params.defaultFrozen });
          }
          return {};
        }
        const h = fromAcct.holdings.get(x.assetId);
        const t = toAcct.holdings.get(x.assetId);
        if (!h) throw new AvmFault(`asset ${x.assetId} missing from ${new Address(from)}`);
        if (!t) throw new AvmFault(`asset ${x.assetId} missing from ${x.receiver}`);
        if (h.amount < x.amount) throw new AvmFault(`underflow on subtracting ${x.amount} from sender amount ${h.amount}`);
        h.amount -= x.amount;
        t.amount += x.amount;
        if (x.closeTo) {
          const c = this.acct(x.closeTo.publicKey, true)!.holdings.get(x.assetId);
          if (!c) throw new AvmFault(`asset ${x.assetId} missing from ${x.closeTo}`);
          c.amount += h.amount;
          fromAcct.holdings.delete(x.assetId);
        }
        return {};
      }
      case 'acfg': {
        const c = txn.assetConfig!;
        if (c.assetId === 0n) {
          const p = c.params!;
          const id = this.createAsset(snd, assetParamsFromCreate(snd, p));
          return { createdAssetId: id };
        }
        const existing = this.s.assets.get(c.assetId);
        if (!existing) throw new AvmFault(`asset ${c.assetId} does not exist or has been deleted`);
        if (!c.params) {
          this.s.assets.delete(c.assetId);
          this.acct(existing.creator, true)!.createdAssets.delete(c.assetId);
          this.acct(existing.creator, true)!.holdings.delete(c.assetId);
        } else {
          existing.manager = c.params.manager?.publicKey ?? ZERO32;
          existing.reserve = c.params.reserve?.publicKey ?? ZERO32;
          existing.freeze = c.params.freeze?.publicKey ?? ZERO32;
          existing.clawback = c.params.clawback?.publicKey ?? ZERO32;
        }
        return {};
      }
      case 'afrz': {
        const f = txn.assetFreeze!;
        const h = this.acct(f.account.publicKey, true)!.holdings.get(f.assetId);
        if (!h) throw new AvmFault(`asset ${f.assetId} missing from ${f.account}`);
        h.frozen = f.frozen;
        return {};
      }
      case 'keyreg':
        return {};
      case 'appl': {
        const a = txn.appCall!;
        if (a.appId === 0n) {
          const id = this.createApp(snd, appParamsFromCreate(snd, a));
          if (a.onComplete === 1) this.optInApp(snd, id);
          return { createdAppId: id };
        }
        if (a.onComplete === 1) this.optInApp(snd, a.appId);
        return {};
      }
      default:
        throw new AvmFault(`${txn.type} transactions cannot be applied by the in-memory ledger`);
    }
  }

  /** Effects of an app call that happen after its approval program approved. */
  finishAppCall(txn: Transaction, appId: bigint): void {
    const a = txn.appCall!;
    const snd = txn.sender.publicKey;
    if (a.onComplete === 2 || a.onComplete === 3) this.acct(snd, true)!.locals.delete(appId);
    if (a.onComplete === 4) {
      const app = this.s.apps.get(appId)!;
      app.approvalProgram = a.approvalProgram ?? new Uint8Array();
      app.clearStateProgram = a.clearProgram ?? new Uint8Array();
      app.version += 1n;
    }
    if (a.onComplete === 5) {
      const app = this.s.apps.get(appId);
      if (app) this.acct(app.creator, true)!.createdApps.delete(appId);
      this.s.apps.delete(appId);
    }
  }
}
