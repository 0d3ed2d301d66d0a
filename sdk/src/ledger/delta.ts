import { headerToWire, type Block } from './block.js';
import type { TealValue } from '../avm/ledger-view.js';
import type { AccountData, AppData, AssetData, Holding, KeyValue, LedgerState, TouchSet } from './state.js';
import { fromHex } from '../encoding/hex.js';

/**
 * What one round changed, with the values after the round: the material the node service needs
 * for `/v2/deltas/{round}` (ledgercore.StateDelta) and the query service for indexing.
 */
export interface RoundDelta {
  round: bigint;
  block: Block;
  /** Changed accounts with their data after the round; `undefined` data = the account was deleted. */
  accounts: { address: Uint8Array; data: AccountData | undefined; minBalance: bigint; schema: { nui: bigint; nbs: bigint; pages: bigint } }[];
  /** `created`: the asset/app did not exist before this round; `params` undefined: deleted (creator still given). */
  assetParams: { id: bigint; creator?: Uint8Array; params: AssetData | undefined; created: boolean }[];
  appParams: { id: bigint; creator?: Uint8Array; params: AppData | undefined; created: boolean }[];
  holdings: { address: Uint8Array; assetId: bigint; holding: Holding | undefined }[];
  locals: { address: Uint8Array; appId: bigint; state: KeyValue[] | undefined; schema: { nui: bigint; nbs: bigint } }[];
  /** Box changes: key as the node stores it (`"bx:" || u64be(app) || name`), before and after. */
  kv: { appId: bigint; name: Uint8Array; key: Uint8Array; data: Uint8Array | undefined; oldData: Uint8Array | undefined }[];
  /** Transactions of the round: txid → last valid round. */
  txids: { txid: string; lastValid: bigint; intra: number }[];
  /** Supply after the round. */
  totals: { totalMoney: bigint; onlineMoney: bigint; notParticipatingMoney: bigint };
}

/** A copy that later rounds' in-place changes cannot reach (holdings and values are immutable). */
function cloneAccount(a: AccountData): AccountData {
  return {
    ...a,
    holdings: new Map(a.holdings),
    locals: new Map([...a.locals].map(([id, kv]) => [id, new Map(kv)])),
    createdAssets: new Set(a.createdAssets),
    createdApps: new Set(a.createdApps),
  };
}

function boxStoreKey(appId: bigint, name: Uint8Array): Uint8Array {
  const k = new Uint8Array(3 + 8 + name.length);
  k.set([0x62, 0x78, 0x3a]);
  new DataView(k.buffer).setBigUint64(3, appId);
  k.set(name, 11);
  return k;
}

export function buildRoundDelta(st: LedgerState, supply: { totalMoney: bigint; onlineMoney: bigint; notParticipatingMoney: bigint }, block: Block, t: TouchSet): RoundDelta {
  const split = (pair: string): [Uint8Array, bigint] => {
    const i = pair.indexOf('/');
    return [fromHex(pair.slice(0, i)), BigInt(pair.slice(i + 1))];
  };
  const sorted = <T>(xs: Iterable<T>): T[] => [...xs].sort();
  return {
    round: block.header.round,
    block,
    accounts: sorted(t.accounts).map((h) => {
      const live = st.accounts.get(h);
      const schema = live ? st.schemaTotals(live) : { nui: 0n, nbs: 0n, pages: 0n };
      return { address: fromHex(h), data: live && cloneAccount(live), minBalance: st.minBalanceOf(live), schema };
    }),
    assetParams: [...t.assetParams].sort((a, b) => (a < b ? -1 : 1)).map((id) => {
      const p = st.assets.get(id);
      const creator = p?.creator ?? t.deletedCreators.get(`a${id}`);
      return { id, ...(creator ? { creator } : {}), params: p, created: t.createdAssets.has(id) };
    }),
    appParams: [...t.appParams].sort((a, b) => (a < b ? -1 : 1)).map((id) => {
      const live = st.apps.get(id);
      const p = live && { ...live, global: new Map(live.global) };
      const creator = p?.creator ?? t.deletedCreators.get(`p${id}`);
      return { id, ...(creator ? { creator } : {}), params: p, created: t.createdApps.has(id) };
    }),
    holdings: sorted(t.holdings).map((pair) => {
      const [address, assetId] = split(pair);
      return { address, assetId, holding: st.get(address)?.holdings.get(assetId) };
    }),
    locals: sorted(t.locals).map((pair) => {
      const [address, appId] = split(pair);
      const kv = st.get(address)?.locals.get(appId);
      const app = st.apps.get(appId) ?? st.deletedLocalSchemas.get(appId);
      const schema = { nui: app?.localNumUint ?? 0n, nbs: app?.localNumByteSlice ?? 0n };
      return { address, appId, state: kv ? [...kv.values()] : undefined, schema };
    }),
    kv: sorted(t.kv.keys()).map((k) => {
      const [appText, nameHex] = k.split('/') as [string, string];
      const appId = BigInt(appText);
      const name = fromHex(nameHex);
      return { appId, name, key: boxStoreKey(appId, name), data: st.boxes.get(k), oldData: t.kv.get(k) };
    }),
    txids: block.txns.map((x) => ({ txid: x.txid, lastValid: x.stxn.txn.lastValid, intra: x.intra })),
    totals: { totalMoney: supply.totalMoney, onlineMoney: supply.onlineMoney, notParticipatingMoney: supply.notParticipatingMoney },
  };
}

// ---- the node's StateDelta shape ----------------------------------------------------------------


type Obj = { [key: string]: unknown };

const tealWire = (v: TealValue): Obj => (typeof v === 'bigint' ? { tt: 2, ui: v } : { tb: v, tt: 1 });

function kvWire(kv: Iterable<KeyValue>): Map<Uint8Array, Obj> {
  const m = new Map<Uint8Array, Obj>();
  for (const e of kv) m.set(e.key, tealWire(e.value));
  return m;
}

function assetParamsWire(p: AssetData): Obj {
  return { am: p.metadataHash, an: p.name, au: p.url, c: p.clawback, dc: p.decimals, df: p.defaultFrozen, f: p.freeze, m: p.manager, r: p.reserve, t: p.total, un: p.unitName };
}

function appParamsWire(p: AppData): Obj {
  return {
    approv: p.approvalProgram,
    clearp: p.clearStateProgram,
    epp: p.extraProgramPages,
    gs: kvWire(p.global.values()),
    gsch: { nbs: p.globalNumByteSlice, nui: p.globalNumUint },
    lsch: { nbs: p.localNumByteSlice, nui: p.localNumUint },
    v: p.version,
  };
}

/**
 * The round's delta in the shape `/v2/deltas/{round}` serialises (ledgercore.StateDelta, protocol
 * md §7.2): Go field names, zero values kept, addresses and hashes as bytes, uint64s as bigint,
 * non-string map keys as `Map`s. Schema totals and counts come from the account after the round.
 * `Txleases` is left empty and rewards are zero on the devnet.
 */
export function stateDeltaObject(d: RoundDelta, prevTimestamp: bigint): Obj {
  const zero32 = new Uint8Array(32);
  const accts = d.accounts.map(({ address, data, schema: s }) => {
    const p = data?.participation;
    return {
      Addr: address,
      Status: data?.status ?? 0,
      MicroAlgos: data?.balance ?? 0n,
      RewardsBase: 0n,
      RewardedMicroAlgos: 0n,
      AuthAddr: data?.authAddr ?? zero32,
      IncentiveEligible: data?.incentiveEligible ?? false,
      TotalAppSchema: { nbs: s.nbs, nui: s.nui },
      TotalExtraAppPages: s.pages,
      TotalAppParams: BigInt(data?.createdApps.size ?? 0),
      TotalAppLocalStates: BigInt(data?.locals.size ?? 0),
      TotalAssetParams: BigInt(data?.createdAssets.size ?? 0),
      TotalAssets: BigInt(data?.holdings.size ?? 0),
      TotalBoxes: data?.totalBoxes ?? 0n,
      TotalBoxBytes: data?.totalBoxBytes ?? 0n,
      LastProposed: data?.lastProposed ?? 0n,
      LastHeartbeat: data?.lastHeartbeat ?? 0n,
      VoteID: p?.voteKey ?? zero32,
      SelectionID: p?.selectionKey ?? zero32,
      StateProofID: p?.stateProofKey ?? new Uint8Array(64),
      VoteFirstValid: p?.voteFirst ?? 0n,
      VoteLastValid: p?.voteLast ?? 0n,
      VoteKeyDilution: p?.voteKeyDilution ?? 0n,
    };
  });
  const appResources: Obj[] = [];
  for (const a of d.appParams) {
    if (!a.creator) continue;
    appResources.push({ Aidx: a.id, Addr: a.creator, Params: { Params: a.params ? appParamsWire(a.params) : null, Deleted: !a.params }, State: { LocalState: null, Deleted: false } });
  }
  for (const l of d.locals) {
    const hsch = { nbs: l.schema.nbs, nui: l.schema.nui };
    appResources.push({ Aidx: l.appId, Addr: l.address, Params: { Params: null, Deleted: false }, State: { LocalState: l.state ? { hsch, tkv: kvWire(l.state) } : null, Deleted: !l.state } });
  }
  const assetResources: Obj[] = [];
  for (const a of d.assetParams) {
    if (!a.creator) continue;
    assetResources.push({ Aidx: a.id, Addr: a.creator, Params: { Params: a.params ? assetParamsWire(a.params) : null, Deleted: !a.params }, Holding: { Holding: null, Deleted: false } });
  }
  for (const h of d.holdings) {
    assetResources.push({ Aidx: h.assetId, Addr: h.address, Params: { Params: null, Deleted: false }, Holding: { Holding: h.holding ? { a: h.holding.amount, f: h.holding.frozen } : null, Deleted: !h.holding } });
  }
  const kv = new Map<Uint8Array, Obj>();
  for (const k of d.kv) kv.set(k.key, { Data: k.data ?? null, OldData: k.oldData ?? null });
  const txids = new Map<string, Obj>();
  for (const t of d.txids) txids.set(t.txid, { LastValid: t.lastValid, Intra: t.intra });
  const creatables = new Map<bigint, Obj>();
  for (const a of d.assetParams) if (a.created || !a.params) creatables.set(a.id, { Ctype: 0, Created: !!a.params, Creator: a.creator ?? zero32, Ndeltas: 0 });
  for (const a of d.appParams) if (a.created || !a.params) creatables.set(a.id, { Ctype: 1, Created: !!a.params, Creator: a.creator ?? zero32, Ndeltas: 0 });
  const online = d.totals.onlineMoney;
  const notpart = d.totals.notParticipatingMoney;
  const total = d.totals.totalMoney;
  return {
    Accts: { Accts: accts, AppResources: appResources.length ? appResources : null, AssetResources: assetResources.length ? assetResources : null },
    KvMods: kv.size ? kv : null,
    Txids: txids,
    Txleases: new Map(),
    Creatables: creatables.size ? creatables : null,
    Hdr: headerToWire(d.block.header),
    StateProofNext: 0n,
    PrevTimestamp: prevTimestamp,
    Totals: {
      online: { mon: online, rwd: 0n },
      offline: { mon: total - online - notpart, rwd: 0n },
      notpart: { mon: notpart, rwd: 0n },
      rwdlvl: 0n,
    },
  };
}

