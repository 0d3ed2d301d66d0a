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

export function buildRoundDelta(
  st: LedgerState,
  supply: { totalMoney: bigint; onlineMoney: bigint; notParticipatingMoney: bigint },
  block: Block,
  t: TouchSet,
): RoundDelta {
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
    assetParams: [...t.assetParams]
      .sort((a, b) => (a < b ? -1 : 1))
      .map((id) => {
        const p = st.assets.get(id);
        const creator = p?.creator ?? t.deletedCreators.get(`a${id}`);
        return { id, ...(creator ? { creator } : {}), params: p, created: t.createdAssets.has(id) };
      }),
    appParams: [...t.appParams]
      .sort((a, b) => (a < b ? -1 : 1))
      .map((id) => {
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

/**
 * How the leaves whose rendering depends on the encoding are built: addresses, Go strings (TEAL
 * keys and byte values, asset names), block hashes and transaction ids. The ledger keeps plain
 * bytes (and txid text); the node service tags them so its JSON and msgpack forms can differ.
 */
export interface DeltaLeaves {
  addr(bytes: Uint8Array): unknown;
  str(bytes: Uint8Array): unknown;
  blk(bytes: Uint8Array): unknown;
  txid(txid: string): unknown;
}

const PLAIN_LEAVES: DeltaLeaves = { addr: (b) => b, str: (b) => b, blk: (b) => b, txid: (t) => t };
const ZERO32 = new Uint8Array(32);
const hexKey = (b: Uint8Array | undefined, id: bigint): string => `${Array.from(b ?? ZERO32, (x) => x.toString(16).padStart(2, '0')).join('')}/${id}`;

/**
 * The round's delta in the shape `/v2/deltas/{round}` serialises (ledgercore.StateDelta, protocol
 * md §7.2): Go field names, zero values kept, uint64s as bigint, non-string map keys as `Map`s, and
 * one app (asset) resource record per account and app (asset), params and local state together.
 * Schema totals and counts come from the account after the round. `Txleases` is left empty and
 * rewards are zero on the devnet. `leaves` decides how addresses, strings, hashes and txids are
 * represented (plain bytes by default).
 */
export function stateDeltaObject(d: RoundDelta, prevTimestamp: bigint, leaves: DeltaLeaves = PLAIN_LEAVES): Obj {
  const { addr, str } = leaves;
  const tealValue = (v: TealValue): Obj => (typeof v === 'bigint' ? { tt: 2, ui: v } : { tt: 1, tb: str(v) });
  const kvMap = (kvs: Iterable<KeyValue>): Map<unknown, Obj> => {
    const m = new Map<unknown, Obj>();
    for (const kv of kvs) m.set(str(kv.key), tealValue(kv.value));
    return m;
  };
  const accts = d.accounts.map(({ address, data, schema: s }) => {
    const p = data?.participation;
    return {
      Addr: addr(address),
      Status: data?.status ?? 0,
      MicroAlgos: data?.balance ?? 0n,
      RewardsBase: 0n,
      RewardedMicroAlgos: 0n,
      AuthAddr: addr(data?.authAddr ?? ZERO32),
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
      VoteID: p?.voteKey ?? new Uint8Array(32),
      SelectionID: p?.selectionKey ?? new Uint8Array(32),
      StateProofID: p?.stateProofKey ?? new Uint8Array(64),
      VoteFirstValid: p?.voteFirst ?? 0n,
      VoteLastValid: p?.voteLast ?? 0n,
      VoteKeyDilution: p?.voteKeyDilution ?? 0n,
    };
  });

  type AppRes = { Aidx: bigint; Addr: unknown; Params: { Params: unknown; Deleted: boolean }; State: { LocalState: unknown; Deleted: boolean } };
  const appRes = new Map<string, AppRes>();
  const appEntry = (id: bigint, address: Uint8Array | undefined): AppRes => {
    const k = hexKey(address, id);
    let e = appRes.get(k);
    if (!e)
      appRes.set(k, (e = { Aidx: id, Addr: addr(address ?? ZERO32), Params: { Params: null, Deleted: false }, State: { LocalState: null, Deleted: false } }));
    return e;
  };
  for (const a of d.appParams) {
    if (!a.creator) continue;
    const e = appEntry(a.id, a.creator);
    const p = a.params;
    if (!p) e.Params.Deleted = true;
    else {
      e.Params.Params = {
        approv: p.approvalProgram,
        clearp: p.clearStateProgram,
        gs: kvMap(p.global.values()),
        lsch: { nbs: p.localNumByteSlice, nui: p.localNumUint },
        gsch: { nbs: p.globalNumByteSlice, nui: p.globalNumUint },
        epp: p.extraProgramPages,
        v: p.version,
      };
    }
  }
  for (const l of d.locals) {
    const e = appEntry(l.appId, l.address);
    if (!l.state) e.State.Deleted = true;
    else e.State.LocalState = { hsch: { nbs: l.schema.nbs, nui: l.schema.nui }, tkv: kvMap(l.state) };
  }

  type AssetRes = { Aidx: bigint; Addr: unknown; Params: { Params: unknown; Deleted: boolean }; Holding: { Holding: unknown; Deleted: boolean } };
  const assetRes = new Map<string, AssetRes>();
  const assetEntry = (id: bigint, address: Uint8Array | undefined): AssetRes => {
    const k = hexKey(address, id);
    let e = assetRes.get(k);
    if (!e)
      assetRes.set(k, (e = { Aidx: id, Addr: addr(address ?? ZERO32), Params: { Params: null, Deleted: false }, Holding: { Holding: null, Deleted: false } }));
    return e;
  };
  for (const a of d.assetParams) {
    if (!a.creator) continue;
    const e = assetEntry(a.id, a.creator);
    const p = a.params;
    if (!p) e.Params.Deleted = true;
    else {
      e.Params.Params = {
        am: p.metadataHash,
        an: str(p.name),
        au: str(p.url),
        c: addr(p.clawback),
        dc: p.decimals,
        df: p.defaultFrozen,
        f: addr(p.freeze),
        m: addr(p.manager),
        r: addr(p.reserve),
        t: p.total,
        un: str(p.unitName),
      };
    }
  }
  for (const h of d.holdings) {
    const e = assetEntry(h.assetId, h.address);
    if (!h.holding) e.Holding.Deleted = true;
    else e.Holding.Holding = { a: h.holding.amount, f: h.holding.frozen };
  }

  // Only creations and deletions are creatable events; a reconfiguration is not.
  const creatables = new Map<bigint, Obj>();
  for (const a of d.assetParams)
    if (a.created || !a.params) creatables.set(a.id, { Ctype: 0, Created: !!a.params, Creator: addr(a.creator ?? ZERO32), Ndeltas: 0 });
  for (const a of d.appParams)
    if (a.created || !a.params) creatables.set(a.id, { Ctype: 1, Created: !!a.params, Creator: addr(a.creator ?? ZERO32), Ndeltas: 0 });

  const kvMods = new Map<unknown, Obj>();
  for (const k of d.kv) kvMods.set(str(k.key), { Data: k.data ?? null, OldData: k.oldData ?? null });
  const txids = new Map<unknown, Obj>();
  for (const t of d.txids) txids.set(leaves.txid(t.txid), { LastValid: t.lastValid, Intra: BigInt(t.intra) });

  const hdr = headerToWire(d.block.header) as Obj;
  const header: Obj = { ...hdr, fees: addr(hdr.fees as Uint8Array), rwd: addr(hdr.rwd as Uint8Array), prev: leaves.blk(hdr.prev as Uint8Array) };
  const online = d.totals.onlineMoney;
  const notpart = d.totals.notParticipatingMoney;
  return {
    Accts: { Accts: accts, AppResources: appRes.size ? [...appRes.values()] : null, AssetResources: assetRes.size ? [...assetRes.values()] : null },
    KvMods: kvMods.size ? kvMods : null,
    Txids: txids,
    Txleases: new Map(),
    Creatables: creatables.size ? creatables : null,
    Hdr: header,
    StateProofNext: 0n,
    PrevTimestamp: prevTimestamp,
    Totals: {
      online: { mon: online, rwd: 0n },
      offline: { mon: d.totals.totalMoney - online - notpart, rwd: 0n },
      notpart: { mon: notpart, rwd: 0n },
      rwdlvl: 0n,
    },
  };
}
