import { encodeAddress } from '../../encoding/address.js';
import { toBase32 } from '../../encoding/base32.js';
import { toBase64 } from '../../encoding/base64.js';
import { encodeMsgpack, MsgStr, type MapKey, type MsgpackValue } from '../../encoding/msgpack.js';
import { fromBase32 } from '../../encoding/base32.js';
import { headerToWire } from '../../ledger/block.js';
import type { RoundDelta } from '../../ledger/delta.js';
import type { KeyValue } from '../../ledger/state.js';

/**
 * `/v2/deltas/{round}`: a round's changes in the shape of the node's ledgercore.StateDelta
 * (protocol.md §7.2). The node encodes that struct by reflection, so keys are Go field names and
 * nested protocol records keep their short codec keys. Values are built once, when the block
 * commits (later rounds may reuse the same account objects), as a tree whose few special leaves
 * say how each encoding renders them.
 */

type Kind = 'addr' | 'blk' | 'txid' | 'str';

/** A leaf whose rendering differs between JSON and msgpack. */
class Tagged {
  constructor(
    readonly kind: Kind,
    readonly bytes: Uint8Array,
  ) {}
}

/** A ledger state delta in the node's wire structure (msgpack maps). */
export type DeltaTree = unknown;

const ZERO32 = new Uint8Array(32);
const addr = (b: Uint8Array | undefined): Tagged => new Tagged('addr', b ?? ZERO32);
const str = (b: Uint8Array): Tagged => new Tagged('str', b);

function tealValue(v: Uint8Array | bigint): Record<string, unknown> {
  return typeof v === 'bigint' ? { tt: 2, ui: v } : { tt: 1, tb: str(v) };
}

function kvMap(kvs: Iterable<KeyValue>): Map<Tagged, unknown> {
  const m = new Map<Tagged, unknown>();
  for (const kv of kvs) m.set(str(kv.key), tealValue(kv.value));
  return m;
}

const hexOf = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * Builds the StateDelta tree of one committed round. (The ledger's `stateDeltaObject` has the same
 * members but plain bytes everywhere, which the JSON form cannot tell apart from addresses.)
 */
export function buildStateDelta(d: RoundDelta, prevTimestamp: bigint): DeltaTree {
  const accts = d.accounts.map(({ address, data, schema: s }) => {
    const p = data?.participation;
    return {
      Addr: addr(address),
      Status: data?.status ?? 0,
      MicroAlgos: data?.balance ?? 0n,
      RewardsBase: 0n,
      RewardedMicroAlgos: 0n,
      AuthAddr: addr(data?.authAddr),
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

  type AppRes = { Aidx: bigint; Addr: Tagged; Params: { Params: unknown; Deleted: boolean }; State: { LocalState: unknown; Deleted: boolean } };
  const appRes = new Map<string, AppRes>();
  const appEntry = (id: bigint, address: Uint8Array | undefined): AppRes => {
    const k = `${hexOf(address ?? ZERO32)}/${id}`;
    let e = appRes.get(k);
    if (!e) appRes.set(k, (e = { Aidx: id, Addr: addr(address), Params: { Params: null, Deleted: false }, State: { LocalState: null, Deleted: false } }));
    return e;
  };
  for (const a of d.appParams) {
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

  type AssetRes = { Aidx: bigint; Addr: Tagged; Params: { Params: unknown; Deleted: boolean }; Holding: { Holding: unknown; Deleted: boolean } };
  const assetRes = new Map<string, AssetRes>();
  const assetEntry = (id: bigint, address: Uint8Array | undefined): AssetRes => {
    const k = `${hexOf(address ?? ZERO32)}/${id}`;
    let e = assetRes.get(k);
    if (!e) assetRes.set(k, (e = { Aidx: id, Addr: addr(address), Params: { Params: null, Deleted: false }, Holding: { Holding: null, Deleted: false } }));
    return e;
  };
  for (const a of d.assetParams) {
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
  const creatables = new Map<bigint, unknown>();
  for (const a of d.assetParams) {
    if (a.created || !a.params) creatables.set(a.id, { Ctype: 0, Created: !!a.params, Creator: addr(a.creator), Ndeltas: 0 });
  }
  for (const a of d.appParams) {
    if (a.created || !a.params) creatables.set(a.id, { Ctype: 1, Created: !!a.params, Creator: addr(a.creator), Ndeltas: 0 });
  }

  const kvMods = new Map<Tagged, unknown>();
  for (const k of d.kv) kvMods.set(str(k.key), { Data: k.data ?? null, OldData: k.oldData ?? null });

  const txids = new Map<Tagged, unknown>();
  for (const t of d.txids) txids.set(new Tagged('txid', fromBase32(t.txid)), { LastValid: t.lastValid, Intra: BigInt(t.intra) });

  const hdr = headerToWire(d.block.header) as Record<string, unknown>;
  const header: Record<string, unknown> = { ...hdr, fees: addr(hdr.fees as Uint8Array), rwd: addr(hdr.rwd as Uint8Array), prev: new Tagged('blk', hdr.prev as Uint8Array) };

  const online = d.totals.onlineMoney;
  const notpart = d.totals.notParticipatingMoney;
  return {
    Accts: {
      Accts: accts,
      AppResources: appRes.size ? [...appRes.values()] : null,
      AssetResources: assetRes.size ? [...assetRes.values()] : null,
    },
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

const lossyText = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(b);

function jsonKey(k: unknown): string {
  if (k instanceof Tagged) return k.kind === 'txid' ? toBase32(k.bytes) : k.kind === 'addr' ? encodeAddress(k.bytes) : lossyText(k.bytes);
  return String(k);
}

/** JSON view: addresses as text, block hashes as `blk-…`, other bytes base64, map keys as strings. */
export function deltaToJsonValue(v: DeltaTree, key = ''): unknown {
  if (v instanceof Tagged) {
    switch (v.kind) {
      case 'addr':
        return encodeAddress(v.bytes);
      case 'blk':
        return `blk-${toBase32(v.bytes)}`;
      case 'txid':
        return toBase32(v.bytes);
      case 'str':
        return lossyText(v.bytes);
    }
  }
  if (v instanceof Uint8Array) return toBase64(v);
  if (v instanceof Map) {
    // The node cannot express lease keys (structs) as JSON map keys and writes null instead.
    if (key === 'Txleases') return null;
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[jsonKey(k)] = deltaToJsonValue(x);
    return o;
  }
  if (Array.isArray(v)) return v.map((x) => deltaToJsonValue(x));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = deltaToJsonValue(x, k);
    return o;
  }
  return v;
}

// Go strings (TEAL keys and byte values, box keys) are msgpack str on the node's wire, whatever their bytes.
const wireOf = (t: Tagged): Uint8Array | MsgStr => (t.kind === 'str' ? new MsgStr(t.bytes) : t.bytes);

function toMsgpackValue(v: DeltaTree): MsgpackValue {
  if (v instanceof Tagged) return wireOf(v);
  if (v instanceof Map) {
    const m = new Map<MapKey, MsgpackValue>();
    for (const [k, x] of v) m.set(k instanceof Tagged ? wireOf(k) : (k as bigint | string), toMsgpackValue(x));
    return m;
  }
  if (Array.isArray(v)) return v.map(toMsgpackValue);
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o: Record<string, MsgpackValue> = {};
    for (const [k, x] of Object.entries(v)) o[k] = toMsgpackValue(x);
    return o;
  }
  return v as MsgpackValue;
}

/**
 * Msgpack bytes. Our canonical encoder leaves zero values out, where the node's reflection
 * encoder writes them; decoders read an absent field as zero, so the meaning is the same.
 */
export function deltaToMsgpack(v: DeltaTree): Uint8Array {
  return encodeMsgpack(toMsgpackValue(v));
}
