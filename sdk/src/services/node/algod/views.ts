import { encodeAddress } from '../../../encoding/address.js';
import { compareBytes, isAllZero } from '../../../encoding/bytes.js';
import { MsgStr, type MapKey, type MsgpackValue } from '../../../encoding/msgpack.js';
import type { Ledger } from '../../../ledger/ledger.js';
import type { AccountData, AppData, AssetData, KeyValue } from '../../../ledger/state.js';

/**
 * The public node API's (`/v2`) JSON records: kebab-case names, bigint for uint64, `Uint8Array`
 * for the fields the API describes as base64 bytes (the JSON writer renders them so). Which
 * members are always present and which are left out when zero follows the node's models.
 */
export type AlgodJson = { [key: string]: unknown };

const STATUS_WORDS = ['Offline', 'Online', 'NotParticipating'] as const;

const optAddr = (b: Uint8Array | undefined): string | undefined => (b && b.length === 32 && !isAllZero(b) ? encodeAddress(b) : undefined);

function put(o: AlgodJson, key: string, value: unknown): void {
  if (value !== undefined) o[key] = value;
}

/** Printable UTF-8 text, or undefined (the node leaves `name`/`unit-name`/`url` out otherwise). */
function printable(b: Uint8Array): string | undefined {
  if (b.length === 0) return undefined;
  let s: string;
  try {
    s = new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return undefined;
  }

  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) ? undefined : s;
}

/** TealKeyValueStore: keys base64, values {type, bytes, uint}, sorted by raw key bytes; undefined when empty. */
export function tealKeyValues(kvs: Iterable<KeyValue>): AlgodJson[] | undefined {
  const list = [...kvs].sort((a, b) => compareBytes(a.key, b.key));
  if (list.length === 0) return undefined;
  return list.map((kv) =>
    typeof kv.value === 'bigint'
      ? { key: kv.key, value: { type: 2n, bytes: '', uint: kv.value } }
      : { key: kv.key, value: { type: 1n, bytes: kv.value, uint: 0n } },
  );
}

export function assetParamsJson(a: AssetData): AlgodJson {
  const o: AlgodJson = { creator: encodeAddress(a.creator), total: a.total, decimals: a.decimals, 'default-frozen': a.defaultFrozen };
  put(o, 'name', printable(a.name));
  if (a.name.length) o['name-b64'] = a.name;
  put(o, 'unit-name', printable(a.unitName));
  if (a.unitName.length) o['unit-name-b64'] = a.unitName;
  put(o, 'url', printable(a.url));
  if (a.url.length) o['url-b64'] = a.url;
  put(o, 'clawback', optAddr(a.clawback));
  put(o, 'freeze', optAddr(a.freeze));
  put(o, 'manager', optAddr(a.manager));
  put(o, 'reserve', optAddr(a.reserve));
  if (a.metadataHash.length && !isAllZero(a.metadataHash)) o['metadata-hash'] = a.metadataHash;
  return o;
}

export function assetJson(a: AssetData): AlgodJson {
  return { index: a.id, params: assetParamsJson(a) };
}

export function appParamsJson(app: AppData): AlgodJson {
  const o: AlgodJson = {
    creator: encodeAddress(app.creator),
    'approval-program': app.approvalProgram,
    'clear-state-program': app.clearStateProgram,
  };
  if (app.extraProgramPages) o['extra-program-pages'] = app.extraProgramPages;
  put(o, 'global-state', tealKeyValues(app.global.values()));
  o['local-state-schema'] = { 'num-byte-slice': app.localNumByteSlice, 'num-uint': app.localNumUint };
  o['global-state-schema'] = { 'num-byte-slice': app.globalNumByteSlice, 'num-uint': app.globalNumUint };
  if (app.version) o.version = app.version;
  put(o, 'size-sponsor', optAddr(app.sizeSponsor));
  if (app.foreignBoxReads) o['foreign-box-reads'] = true;
  if (app.familyBoxAccess) o['family-box-access'] = true;
  return o;
}

export function appJson(app: AppData): AlgodJson {
  return { id: app.id, params: appParamsJson(app) };
}

export function localStateJson(ledger: Ledger, appId: bigint, kvs: Map<string, KeyValue>): AlgodJson {
  const app = ledger.app(appId);
  const o: AlgodJson = { id: appId };
  put(o, 'key-value', tealKeyValues(kvs.values()));
  o.schema = { 'num-byte-slice': app?.localNumByteSlice ?? 0n, 'num-uint': app?.localNumUint ?? 0n };
  return o;
}

const byId =
  <T extends { id?: unknown; index?: unknown; 'asset-id'?: unknown }>(key: 'id' | 'index' | 'asset-id') =>
  (a: T, b: T): number => {
    const x = a[key] as bigint;
    const y = b[key] as bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  };

export interface AccountJsonOptions {
  /** `exclude=all`: no asset/app lists at all. */
  all?: boolean;
  createdAppsParams?: boolean;
  createdAssetsParams?: boolean;
}

/** The Account model; an address the ledger has never seen reads as an empty offline account, as on the node. */
export function accountJson(ledger: Ledger, address: Uint8Array, exclude: AccountJsonOptions = {}): AlgodJson {
  const a: AccountData | undefined = ledger.account(address);
  const totals = ledger.accountTotals(address);
  const amount = a?.balance ?? 0n;
  const o: AlgodJson = {
    address: encodeAddress(address),
    amount,
    'amount-without-pending-rewards': amount,
  };
  const apps = a ? [...a.locals.entries()].map(([id, kv]) => localStateJson(ledger, id, kv)).sort(byId('id')) : [];
  const assets = a ? [...a.holdings.entries()].map(([id, h]) => ({ amount: h.amount, 'asset-id': id, 'is-frozen': h.frozen })).sort(byId('asset-id')) : [];
  const createdApps = a
    ? [...a.createdApps]
        .map((id) => {
          const app = ledger.app(id);
          return exclude.createdAppsParams || !app ? { id } : appJson(app);
        })
        .sort(byId('id'))
    : [];
  const createdAssets = a
    ? [...a.createdAssets]
        .map((id) => {
          const asset = ledger.asset(id);
          return exclude.createdAssetsParams || !asset ? { index: id } : assetJson(asset);
        })
        .sort(byId('index'))
    : [];
  if (!exclude.all) o['apps-local-state'] = apps;
  o['apps-total-schema'] = { 'num-byte-slice': totals.schema.nbs, 'num-uint': totals.schema.nui };
  if (totals.extraPages) o['apps-total-extra-pages'] = totals.extraPages;
  if (!exclude.all) o.assets = assets;
  put(o, 'auth-addr', optAddr(a?.authAddr));
  if (!exclude.all) o['created-apps'] = createdApps;
  if (!exclude.all) o['created-assets'] = createdAssets;
  if (a?.incentiveEligible) o['incentive-eligible'] = true;
  if (a?.lastHeartbeat) o['last-heartbeat'] = a.lastHeartbeat;
  if (a?.lastProposed) o['last-proposed'] = a.lastProposed;
  o['min-balance'] = totals.minBalance;
  const p = a?.participation;
  if (p && p.voteKey && !isAllZero(p.voteKey)) {
    const part: AlgodJson = {
      'selection-participation-key': p.selectionKey ?? new Uint8Array(32),
      'vote-first-valid': p.voteFirst,
      'vote-key-dilution': p.voteKeyDilution,
      'vote-last-valid': p.voteLast,
      'vote-participation-key': p.voteKey,
    };
    if (p.stateProofKey && !isAllZero(p.stateProofKey)) part['state-proof-key'] = p.stateProofKey;
    o.participation = part;
  }
  o['pending-rewards'] = 0n;
  o['reward-base'] = 0n;
  o.rewards = 0n;
  o.round = ledger.latestRound;
  o.status = STATUS_WORDS[a?.status ?? 0];
  o['total-apps-opted-in'] = BigInt(totals.totalAppsOptedIn);
  o['total-assets-opted-in'] = BigInt(totals.totalAssets);
  if (totals.totalBoxBytes) o['total-box-bytes'] = totals.totalBoxBytes;
  if (totals.totalBoxes) o['total-boxes'] = totals.totalBoxes;
  o['total-created-apps'] = BigInt(totals.totalCreatedApps);
  o['total-created-assets'] = BigInt(totals.totalCreatedAssets);
  return o;
}

/** Keys whose 32-byte values the node's JSON writes as addresses (they are `basics.Address`). */
const ADDRESS_KEYS = new Set(['snd', 'rcv', 'close', 'asnd', 'arcv', 'aclose', 'fadd', 'rekey', 'fees', 'rwd', 'm', 'r', 'f', 'c', 'prp', 'sgnr', 'hbad']);

const LOSSY = new TextDecoder('utf-8', { fatal: false });

/**
 * A wire map (msgpack names) as the node's JSON writes it: bytes base64, addresses in text, Go
 * strings (TEAL keys, byte values, logs — `MsgStr` in the wire form) as text, bigint as numbers.
 */
export function wireToJson(value: MsgpackValue | unknown, key = ''): unknown {
  if (value instanceof MsgStr) return LOSSY.decode(value.bytes);
  if (value instanceof Uint8Array) return ADDRESS_KEYS.has(key) && value.length === 32 ? encodeAddress(value) : value;
  if (Array.isArray(value)) return value.map((v) => wireToJson(v, key === 'apat' ? 'snd' : ''));
  if (value instanceof Map) {
    const out: AlgodJson = {};
    for (const [k, v] of value) {
      const name = k instanceof MsgStr ? LOSSY.decode(k.bytes) : k instanceof Uint8Array ? LOSSY.decode(k) : String(k);
      out[name] = wireToJson(v, name);
    }
    return out;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: AlgodJson = {};
    for (const [k, v] of Object.entries(value)) out[k] = wireToJson(v, k);
    return out;
  }
  if (value !== null && typeof value === 'object' && 'value' in value) return wireToJson((value as { value: unknown }).value, key);
  return value;
}

const tealValueWire = (v: Uint8Array | bigint): MsgpackValue => (typeof v === 'bigint' ? { tt: 2, ui: v } : { tt: 1, tb: new MsgStr(v) });

function tkvWire(kvs: Iterable<KeyValue>): Map<MapKey, MsgpackValue> | undefined {
  const m = new Map<MapKey, MsgpackValue>();
  for (const kv of kvs) m.set(new MsgStr(kv.key), tealValueWire(kv.value));
  return m.size ? m : undefined;
}

/**
 * `GET /v2/accounts/{address}?format=msgpack`: the node answers its raw account record (the
 * ledger's AccountData codec: `algo`, `onl`, `asset`, `apar`, `appl`, `appp`, `tsch` …), not the
 * JSON model; zero members are left out as the node's encoder does.
 */
export function accountRecordMsgpack(ledger: Ledger, address: Uint8Array): MsgpackValue {
  const a = ledger.account(address);
  if (!a) return {};
  const totals = ledger.accountTotals(address);
  const w: Record<string, MsgpackValue> = { algo: a.balance, onl: a.status };
  const p = a.participation;
  if (p) {
    if (p.voteKey) w.vote = p.voteKey;
    if (p.selectionKey) w.sel = p.selectionKey;
    if (p.stateProofKey) w.stprf = p.stateProofKey;
    w.voteFst = p.voteFirst;
    w.voteLst = p.voteLast;
    w.voteKD = p.voteKeyDilution;
  }
  if (a.lastProposed) w.lpr = a.lastProposed;
  if (a.lastHeartbeat) w.lhb = a.lastHeartbeat;
  if (a.createdAssets.size) {
    const apar = new Map<MapKey, MsgpackValue>();
    for (const id of a.createdAssets) {
      const s = ledger.asset(id);
      if (!s) continue;
      apar.set(id, {
        t: s.total,
        dc: s.decimals,
        df: s.defaultFrozen,
        un: new MsgStr(s.unitName),
        an: new MsgStr(s.name),
        au: new MsgStr(s.url),
        am: s.metadataHash,
        m: s.manager,
        r: s.reserve,
        f: s.freeze,
        c: s.clawback,
      });
    }
    w.apar = apar;
  }
  if (a.holdings.size) {
    const asset = new Map<MapKey, MsgpackValue>();
    for (const [id, h] of a.holdings) asset.set(id, { a: h.amount, f: h.frozen });
    w.asset = asset;
  }
  if (a.authAddr) w.spend = a.authAddr;
  if (a.incentiveEligible) w.ie = true;
  if (a.locals.size) {
    const appl = new Map<MapKey, MsgpackValue>();
    for (const [id, kvs] of a.locals) {
      const app = ledger.app(id);
      const rec: Record<string, MsgpackValue> = { hsch: { nui: app?.localNumUint ?? 0n, nbs: app?.localNumByteSlice ?? 0n } };
      const tkv = tkvWire(kvs.values());
      if (tkv) rec.tkv = tkv;
      appl.set(id, rec);
    }
    w.appl = appl;
  }
  if (a.createdApps.size) {
    const appp = new Map<MapKey, MsgpackValue>();
    for (const id of a.createdApps) {
      const app = ledger.app(id);
      if (!app) continue;
      const rec: Record<string, MsgpackValue> = {
        approv: app.approvalProgram,
        clearp: app.clearStateProgram,
        lsch: { nui: app.localNumUint, nbs: app.localNumByteSlice },
        gsch: { nui: app.globalNumUint, nbs: app.globalNumByteSlice },
        epp: app.extraProgramPages,
        v: app.version,
      };
      const gs = tkvWire(app.global.values());
      if (gs) rec.gs = gs;
      if (app.sizeSponsor) rec.ss = app.sizeSponsor;
      if (app.foreignBoxReads) rec.fbr = true;
      if (app.familyBoxAccess) rec.fba = true;
      appp.set(id, rec);
    }
    w.appp = appp;
  }
  w.tsch = { nui: totals.schema.nui, nbs: totals.schema.nbs };
  if (totals.extraPages) w.teap = totals.extraPages;
  if (totals.totalBoxes) w.tbx = totals.totalBoxes;
  if (totals.totalBoxBytes) w.tbxb = totals.totalBoxBytes;
  return w;
}
