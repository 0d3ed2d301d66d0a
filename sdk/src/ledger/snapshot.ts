import { encodeMsgpack, decodeMsgpack, toUint64, type MsgpackValue } from '../encoding/msgpack.js';
import { sha512_256 } from '../crypto/hash.js';
import { fromHex, toHex } from '../encoding/hex.js';
import type { TealValue } from '../avm/ledger-view.js';
import { LedgerStoreError } from './errors.js';
import type { AccountData, AppData, AssetData, KeyValue, LedgerState } from './state.js';

type W = { [k: string]: MsgpackValue };
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const cmpBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

function tv(v: TealValue): W {
  return typeof v === 'bigint' ? { tt: 2, ui: v } : { tb: v, tt: 1 };
}
function kvToWire(m: Map<string, KeyValue>): MsgpackValue[] {
  return [...m.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, e]) => [e.key, tv(e.value)]);
}

export function accountToWire(a: AccountData): W {
  return {
    algo: a.balance,
    spend: a.authAddr,
    onl: a.status,
    part: a.participation
      ? {
          vote: a.participation.voteKey,
          sel: a.participation.selectionKey,
          stprf: a.participation.stateProofKey,
          voteFst: a.participation.voteFirst,
          voteLst: a.participation.voteLast,
          voteKD: a.participation.voteKeyDilution,
        }
      : undefined,
    asset: [...a.holdings.entries()].sort((x, y) => cmpBig(x[0], y[0])).map(([id, h]) => [id, h.amount, h.frozen]),
    appl: [...a.locals.entries()].sort((x, y) => cmpBig(x[0], y[0])).map(([id, kv]) => [id, kvToWire(kv)]),
    tbx: a.totalBoxes,
    tbxb: a.totalBoxBytes,
    ie: a.incentiveEligible,
    lpr: a.lastProposed,
    lhb: a.lastHeartbeat,
  };
}

export function assetToWire(p: AssetData): W {
  return {
    id: p.id,
    c: p.clawback,
    am: p.metadataHash,
    an: p.name,
    au: p.url,
    cr: p.creator,
    dc: p.decimals,
    df: p.defaultFrozen,
    f: p.freeze,
    m: p.manager,
    r: p.reserve,
    t: p.total,
    un: p.unitName,
  };
}

export function appToWire(p: AppData): W {
  return {
    id: p.id,
    cr: p.creator,
    approv: p.approvalProgram,
    clearp: p.clearStateProgram,
    gs: kvToWire(p.global),
    gsch: { nbs: p.globalNumByteSlice, nui: p.globalNumUint },
    lsch: { nbs: p.localNumByteSlice, nui: p.localNumUint },
    epp: p.extraProgramPages,
    v: p.version,
    ss: p.sizeSponsor,
    fbr: p.foreignBoxReads ?? false,
    fba: p.familyBoxAccess ?? false,
  };
}

/**
 * The whole state as one canonical value: every collection sorted, zero members omitted, so two
 * ledgers hold the same state exactly when their encodings (and hence `stateHash`) are equal.
 */
export function stateToWire(st: LedgerState): W {
  return {
    accts: [...st.accounts.entries()].sort((a, b) => cmp(a[0], b[0])).map(([k, a]) => [fromHex(k), accountToWire(a)]),
    assets: [...st.assets.values()].sort((a, b) => cmpBig(a.id, b.id)).map(assetToWire),
    apps: [...st.apps.values()].sort((a, b) => cmpBig(a.id, b.id)).map(appToWire),
    boxes: [...st.boxes.entries()].sort((a, b) => cmp(a[0], b[0])).map(([k, v]) => [k, v]),
    dls: [...st.deletedLocalSchemas.entries()].sort((a, b) => cmpBig(a[0], b[0])).map(([id, s]) => [id, s.localNumUint, s.localNumByteSlice]),
    tc: st.txnCounter,
  };
}

export function stateHash(st: LedgerState): Uint8Array {
  return sha512_256(encodeMsgpack(stateToWire(st)));
}

// ---- decoding ----------------------------------------------------------------------------------

const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : toUint64(v, 'snapshot'));
const bytes = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(0));
const fixed = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(32));
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
type R = Record<string, unknown>;

function kvFromWire(v: unknown): Map<string, KeyValue> {
  const m = new Map<string, KeyValue>();
  for (const e of arr(v)) {
    const [key, val] = e as [Uint8Array, R];
    const value: TealValue = Number(val.tt ?? 0) === 2 ? big(val.ui) : bytes(val.tb);
    m.set(toHex(key), { key, value });
  }
  return m;
}

/** One account from its snapshot form (created apps and assets are filled in by their creators' records). */
export function accountFromWire(a: R): AccountData {
  const part = a.part as R | undefined;
  const acct: AccountData = {
    balance: big(a.algo),
    status: Number(a.onl ?? 0) as 0 | 1 | 2,
    holdings: new Map(
      arr(a.asset).map((h) => {
        const [id, amount, frozen] = h as [unknown, unknown, unknown];
        return [big(id), { amount: big(amount), frozen: frozen === true }];
      }),
    ),
    locals: new Map(
      arr(a.appl).map((l) => {
        const [id, kv] = l as [unknown, unknown];
        return [big(id), kvFromWire(kv)];
      }),
    ),
    createdAssets: new Set(),
    createdApps: new Set(),
    totalBoxes: big(a.tbx),
    totalBoxBytes: big(a.tbxb),
    incentiveEligible: a.ie === true,
    lastProposed: big(a.lpr),
    lastHeartbeat: big(a.lhb),
  };
  if (a.spend instanceof Uint8Array) acct.authAddr = a.spend;
  if (part) {
    acct.participation = {
      ...(part.vote instanceof Uint8Array ? { voteKey: part.vote } : {}),
      ...(part.sel instanceof Uint8Array ? { selectionKey: part.sel } : {}),
      ...(part.stprf instanceof Uint8Array ? { stateProofKey: part.stprf } : {}),
      voteFirst: big(part.voteFst),
      voteLast: big(part.voteLst),
      voteKeyDilution: big(part.voteKD),
    };
  }
  return acct;
}

/** One asset from its snapshot form. */
export function assetFromWire(p: R): AssetData {
  return {
    id: big(p.id),
    creator: fixed(p.cr),
    total: big(p.t),
    decimals: big(p.dc),
    defaultFrozen: p.df === true,
    unitName: bytes(p.un),
    name: bytes(p.an),
    url: bytes(p.au),
    metadataHash: fixed(p.am),
    manager: fixed(p.m),
    reserve: fixed(p.r),
    freeze: fixed(p.f),
    clawback: fixed(p.c),
  };
}

/** One app from its snapshot form. */
export function appFromWire(p: R): AppData {
  const gsch = (p.gsch ?? {}) as R;
  const lsch = (p.lsch ?? {}) as R;
  return {
    id: big(p.id),
    creator: fixed(p.cr),
    approvalProgram: bytes(p.approv),
    clearStateProgram: bytes(p.clearp),
    global: kvFromWire(p.gs),
    globalNumUint: big(gsch.nui),
    globalNumByteSlice: big(gsch.nbs),
    localNumUint: big(lsch.nui),
    localNumByteSlice: big(lsch.nbs),
    extraProgramPages: big(p.epp),
    version: big(p.v),
    ...(p.ss instanceof Uint8Array ? { sizeSponsor: p.ss } : {}),
    ...(p.fbr === true ? { foreignBoxReads: true } : {}),
    ...(p.fba === true ? { familyBoxAccess: true } : {}),
  };
}

export function stateFromWire(st: LedgerState, w: R): void {
  st.clear();
  for (const e of arr(w.accts)) {
    const [k, a] = e as [Uint8Array, R];
    st.accounts.set(toHex(k), accountFromWire(a));
  }
  const creator = (c: Uint8Array) => {
    const a = st.accounts.get(toHex(c));
    if (!a) throw new LedgerStoreError(`snapshot names creator ${toHex(c)} that has no account record`);
    return a;
  };
  for (const e of arr(w.assets)) {
    const asset = assetFromWire(e as R);
    st.assets.set(asset.id, asset);
    creator(asset.creator).createdAssets.add(asset.id);
  }
  for (const e of arr(w.apps)) {
    const app = appFromWire(e as R);
    st.apps.set(app.id, app);
    creator(app.creator).createdApps.add(app.id);
  }
  for (const e of arr(w.boxes)) {
    const [k, v] = e as [string, Uint8Array];
    st.boxes.set(k, bytes(v));
  }
  for (const e of arr(w.dls)) {
    const [id, nui, nbs] = e as [unknown, unknown, unknown];
    st.deletedLocalSchemas.set(big(id), { localNumUint: big(nui), localNumByteSlice: big(nbs) });
  }
  st.txnCounter = big(w.tc);
}

export function encodeSnapshot(value: W): Uint8Array {
  return encodeMsgpack(value);
}

export function decodeSnapshot(bytes: Uint8Array): R {
  try {
    return decodeMsgpack(bytes) as R;
  } catch (e) {
    throw new LedgerStoreError(`snapshot is unreadable: ${(e as Error).message}`, { cause: e });
  }
}
