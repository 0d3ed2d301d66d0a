import { Address } from '../encoding/address.js';
import { isAllZero } from '../encoding/bytes.js';
import { describeDecoded, type MsgpackValue } from '../encoding/msgpack.js';
import { TxnDecodeError, TxnValidationError } from './errors.js';
import {
  OnComplete,
  TRANSACTION_TYPES,
  type AppCallFields,
  type AssetParams,
  type BoxReference,
  type HeartbeatFields,
  type HeartbeatProof,
  type LogicSig,
  type MultisigSig,
  type PQSig,
  type ResourceRef,
  type SignedTransaction,
  type StateSchema,
  type Transaction,
  type TransactionType,
} from './types.js';

/**
 * Typed model ↔ wire map. `transactionToWire` inserts keys in bytewise order and leaves out every
 * zero value, so the canonical encoder has nothing to sort or drop on the hot path.
 */

type WireMap = Record<string, MsgpackValue>;

function addrOrUndefined(a: Address | undefined): Uint8Array | undefined {
  return a === undefined || isAllZero(a.publicKey) ? undefined : a.publicKey;
}

function fixedOrUndefined(b: Uint8Array | undefined): Uint8Array | undefined {
  return b === undefined || isAllZero(b) ? undefined : b;
}

function nonEmpty(b: Uint8Array | undefined): Uint8Array | undefined {
  return b === undefined || b.length === 0 ? undefined : b;
}

function schemaToWire(s: StateSchema | undefined): WireMap | undefined {
  if (s === undefined || (s.numUints === 0 && s.numByteSlices === 0)) return undefined;
  const w: WireMap = {};
  if (s.numByteSlices) w.nbs = s.numByteSlices;
  if (s.numUints) w.nui = s.numUints;
  return w;
}

function assetParamsToWire(p: AssetParams | undefined): WireMap | undefined {
  if (p === undefined) return undefined;
  const w: WireMap = {};
  const am = fixedOrUndefined(p.metadataHash);
  if (am) w.am = am;
  if (p.assetName) w.an = p.assetName;
  if (p.url) w.au = p.url;
  const c = addrOrUndefined(p.clawback);
  if (c) w.c = c;
  if (p.decimals) w.dc = p.decimals;
  if (p.defaultFrozen) w.df = true;
  const f = addrOrUndefined(p.freeze);
  if (f) w.f = f;
  const m = addrOrUndefined(p.manager);
  if (m) w.m = m;
  const r = addrOrUndefined(p.reserve);
  if (r) w.r = r;
  if (p.total) w.t = p.total;
  if (p.unitName) w.un = p.unitName;
  for (const _ in w) return w;
  return undefined;
}

function boxesToWire(app: AppCallFields): WireMap[] {
  return app.boxes.map((box, i) => {
    // A listed app is written by position even when it is the called app; only an unlisted
    // reference to the called app (or 0) becomes index 0.
    const index = app.foreignApps.indexOf(box.appId) + 1;
    if (index === 0 && box.appId !== 0n && box.appId !== app.appId) {
      throw new TxnValidationError(`boxes[${i}].appId`, `app ${box.appId} is neither the called app nor listed in foreignApps`, { value: box.appId });
    }
    const w: WireMap = {};
    if (index) w.i = index;
    if (box.name.length) w.n = box.name;
    return w;
  });
}

function accessToWire(ref: ResourceRef): WireMap {
  switch (ref.kind) {
    case 'address':
      return isAllZero(ref.address.publicKey) ? {} : { d: ref.address.publicKey };
    case 'asset':
      return ref.assetId ? { s: ref.assetId } : {};
    case 'app':
      return ref.appId ? { p: ref.appId } : {};
    case 'holding': {
      const h: WireMap = {};
      if (ref.addressIndex) h.d = ref.addressIndex;
      if (ref.assetIndex) h.s = ref.assetIndex;
      return { h };
    }
    case 'locals': {
      const l: WireMap = {};
      if (ref.addressIndex) l.d = ref.addressIndex;
      if (ref.appIndex) l.p = ref.appIndex;
      return { l };
    }
    case 'box': {
      const b: WireMap = {};
      if (ref.appIndex) b.i = ref.appIndex;
      if (ref.name.length) b.n = ref.name;
      return { b };
    }
    case 'empty':
      return {};
  }
}

function heartbeatToWire(hb: HeartbeatFields): WireMap {
  const w: WireMap = {};
  const a = addrOrUndefined(hb.address);
  if (a) w.a = a;
  if (hb.challengeDiscount) w.c = true;
  if (hb.keyDilution) w.kd = hb.keyDilution;
  if (hb.proof) {
    const p = hb.proof;
    const prf: WireMap = {};
    const pk = fixedOrUndefined(p.publicKey);
    if (pk) prf.p = pk;
    const p1s = fixedOrUndefined(p.publicKey1Signature);
    if (p1s) prf.p1s = p1s;
    const p2 = fixedOrUndefined(p.publicKey2);
    if (p2) prf.p2 = p2;
    const p2s = fixedOrUndefined(p.publicKey2Signature);
    if (p2s) prf.p2s = p2s;
    const s = fixedOrUndefined(p.signature);
    if (s) prf.s = s;
    w.prf = prf;
  }
  const sd = fixedOrUndefined(hb.seed);
  if (sd) w.sd = sd;
  const vid = fixedOrUndefined(hb.voteId);
  if (vid) w.vid = vid;
  return w;
}

/** The transaction as a wire map (keys sorted, zero values absent). Throws on unresolvable box refs. */
export function transactionToWire(txn: Transaction): WireMap {
  const w: WireMap = {};
  const pay = txn.payment;
  const kr = txn.keyreg;
  const acfg = txn.assetConfig;
  const axfer = txn.assetTransfer;
  const afrz = txn.assetFreeze;
  const app = txn.appCall;
  const sp = txn.stateProof;
  let v: MsgpackValue;
  // Keys below are inserted in bytewise order; keep it that way when adding fields.
  if (axfer) {
    if (axfer.amount) w.aamt = axfer.amount;
    if ((v = addrOrUndefined(axfer.closeTo))) w.aclose = v;
  }
  if (afrz && afrz.frozen) w.afrz = true;
  if (app && app.access.length) w.al = app.access.map(accessToWire);
  if (pay && pay.amount) w.amt = pay.amount;
  if (app) {
    if (app.args.length) w.apaa = app.args;
    if (app.onComplete) w.apan = app.onComplete;
    if ((v = nonEmpty(app.approvalProgram))) w.apap = v;
  }
  if (acfg && (v = assetParamsToWire(acfg.params))) w.apar = v;
  if (app) {
    if (app.foreignAssets.length) w.apas = app.foreignAssets;
    if (app.accounts.length) w.apat = app.accounts.map((a) => a.publicKey);
    if (app.boxes.length) w.apbx = boxesToWire(app);
    if (app.extraPages) w.apep = app.extraPages;
    if (app.foreignApps.length) w.apfa = app.foreignApps;
    if ((v = schemaToWire(app.globalSchema))) w.apgs = v;
    if (app.appId) w.apid = app.appId;
    if ((v = schemaToWire(app.localSchema))) w.apls = v;
    if (app.rejectVersion) w.aprv = app.rejectVersion;
    if ((v = nonEmpty(app.clearProgram))) w.apsu = v;
  }
  if (axfer) {
    if ((v = addrOrUndefined(axfer.receiver))) w.arcv = v;
    if ((v = addrOrUndefined(axfer.assetSender))) w.asnd = v;
  }
  if (acfg && acfg.assetId) w.caid = acfg.assetId;
  if (pay && (v = addrOrUndefined(pay.closeRemainderTo))) w.close = v;
  if (afrz) {
    if ((v = addrOrUndefined(afrz.account))) w.fadd = v;
    if (afrz.assetId) w.faid = afrz.assetId;
  }
  if (txn.fee) w.fee = txn.fee;
  if (txn.firstValid) w.fv = txn.firstValid;
  if (txn.genesisId) w.gen = txn.genesisId;
  if ((v = fixedOrUndefined(txn.genesisHash))) w.gh = v;
  if ((v = fixedOrUndefined(txn.group))) w.grp = v;
  if (txn.heartbeat) w.hb = heartbeatToWire(txn.heartbeat);
  if (txn.lastValid) w.lv = txn.lastValid;
  if ((v = fixedOrUndefined(txn.lease))) w.lx = v;
  if (kr && kr.nonParticipation) w.nonpart = true;
  if ((v = nonEmpty(txn.note))) w.note = v;
  if (pay && (v = addrOrUndefined(pay.receiver))) w.rcv = v;
  if ((v = addrOrUndefined(txn.rekeyTo))) w.rekey = v;
  if (kr && (v = fixedOrUndefined(kr.selectionKey))) w.selkey = v;
  if ((v = addrOrUndefined(txn.sender))) w.snd = v;
  if (sp) {
    if (sp.stateProof !== undefined) w.sp = sp.stateProof;
    if (sp.message !== undefined) w.spmsg = sp.message;
  }
  if (kr && (v = fixedOrUndefined(kr.stateProofKey))) w.sprfkey = v;
  if (sp && sp.stateProofType) w.sptype = sp.stateProofType;
  w.type = txn.type;
  if (kr) {
    if (kr.voteFirst) w.votefst = kr.voteFirst;
    if (kr.voteKeyDilution) w.votekd = kr.voteKeyDilution;
    if ((v = fixedOrUndefined(kr.voteKey))) w.votekey = v;
    if (kr.voteLast) w.votelst = kr.voteLast;
  }
  if (axfer && axfer.assetId) w.xaid = axfer.assetId;
  return w;
}

/** A multisig signature as its msgpack structure. */
export function multisigToWire(m: MultisigSig): WireMap {
  return {
    subsig: m.subsigs.map((s) => {
      const w: WireMap = { pk: s.publicKey };
      if (s.signature && !isAllZero(s.signature)) w.s = s.signature;
      return w;
    }),
    thr: m.threshold,
    v: m.version,
  };
}

/** A logic signature as its msgpack structure. */
export function logicSigToWire(l: LogicSig): WireMap {
  const w: WireMap = {};
  if (l.args.length) w.arg = l.args;
  w.l = l.program;
  if (l.lmsig) w.lmsig = multisigToWire(l.lmsig);
  if (l.msig) w.msig = multisigToWire(l.msig);
  if (l.pqsig) w.pqsig = l.pqsig;
  if (l.sig && !isAllZero(l.sig)) w.sig = l.sig;
  return w;
}

/** A signed transaction as its msgpack structure. */
export function signedTransactionToWire(stxn: SignedTransaction, txnWire?: WireMap): WireMap {
  const w: WireMap = {};
  if (stxn.lsig) w.lsig = logicSigToWire(stxn.lsig);
  if (stxn.msig) w.msig = multisigToWire(stxn.msig);
  if (stxn.pqsig) w.pqsig = stxn.pqsig;
  const sgnr = addrOrUndefined(stxn.authAddress);
  if (sgnr) w.sgnr = sgnr;
  if (stxn.sig && !isAllZero(stxn.sig)) w.sig = stxn.sig;
  w.txn = txnWire ?? transactionToWire(stxn.txn);
  return w;
}

// ---------------------------------------------------------------------------------------------
// Decoding

function fail(path: string, message: string): never {
  throw new TxnDecodeError(path, message);
}

function asMap(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || Array.isArray(v)) fail(path, `expected a map, got ${describeDecoded(v)}`);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k)] = x;
    return o;
  }
  return v as Record<string, unknown>;
}

function asArray(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, `expected an array, got ${describeDecoded(v)}`);
  return v;
}

function asBytes(v: unknown, path: string, length?: number): Uint8Array {
  if (!(v instanceof Uint8Array)) fail(path, `expected bin, got ${describeDecoded(v)}`);
  if (length !== undefined && v.length !== length) fail(path, `expected ${length} bytes, got ${v.length}`);
  return v;
}

function asAddress(v: unknown, path: string): Address {
  return new Address(asBytes(v, path, 32));
}

// Hoisted: bigint constants in an expression are rebuilt on every call.
const TWO_POW_64 = 1n << 64n;
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

function asU64(v: unknown, path: string): bigint {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v < TWO_POW_64) return v;
  fail(path, `expected an unsigned integer, got ${describeDecoded(v)}`);
}

function asSmall(v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'bigint' && v >= 0n && v <= MAX_SAFE_BIGINT) return Number(v);
  fail(path, `expected an unsigned integer, got ${describeDecoded(v)}`);
}

function asString(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, `expected a string, got ${describeDecoded(v)}`);
  return v;
}

function asBool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail(path, `expected a boolean, got ${describeDecoded(v)}`);
  return v;
}

function unknownField(path: string, key: string): never {
  fail(`${path}.${key}`, `unknown field "${key}"`);
}

function schemaFromWire(v: unknown, path: string): StateSchema | undefined {
  const m = asMap(v, path);
  const s: StateSchema = { numUints: 0, numByteSlices: 0 };
  for (const k in m) {
    if (k === 'nui') s.numUints = asSmall(m[k], `${path}.nui`);
    else if (k === 'nbs') s.numByteSlices = asSmall(m[k], `${path}.nbs`);
    else unknownField(path, k);
  }
  return s.numUints || s.numByteSlices ? s : undefined;
}

function assetParamsFromWire(v: unknown, path: string): AssetParams {
  const m = asMap(v, path);
  const p: AssetParams = { total: 0n, decimals: 0, defaultFrozen: false };
  for (const k in m) {
    const x = m[k];
    const at = `${path}.${k}`;
    switch (k) {
      case 't':
        p.total = asU64(x, at);
        break;
      case 'dc':
        p.decimals = asSmall(x, at);
        break;
      case 'df':
        p.defaultFrozen = asBool(x, at);
        break;
      case 'un': {
        const s = asString(x, at);
        if (s) p.unitName = s;
        break;
      }
      case 'an': {
        const s = asString(x, at);
        if (s) p.assetName = s;
        break;
      }
      case 'au': {
        const s = asString(x, at);
        if (s) p.url = s;
        break;
      }
      case 'am': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) p.metadataHash = b;
        break;
      }
      case 'm': {
        const a = asAddress(x, at);
        if (!a.isZero()) p.manager = a;
        break;
      }
      case 'r': {
        const a = asAddress(x, at);
        if (!a.isZero()) p.reserve = a;
        break;
      }
      case 'f': {
        const a = asAddress(x, at);
        if (!a.isZero()) p.freeze = a;
        break;
      }
      case 'c': {
        const a = asAddress(x, at);
        if (!a.isZero()) p.clawback = a;
        break;
      }
      default:
        unknownField(path, k);
    }
  }
  return p;
}

function accessFromWire(v: unknown, path: string): ResourceRef {
  const m = asMap(v, path);
  const keys = Object.keys(m);
  if (keys.length === 0) return { kind: 'empty' };
  if (keys.length > 1) fail(path, `an access entry sets exactly one member, got ${keys.join(', ')}`);
  const k = keys[0]!;
  const x = m[k];
  const at = `${path}.${k}`;
  switch (k) {
    case 'd':
      return { kind: 'address', address: asAddress(x, at) };
    case 's':
      return { kind: 'asset', assetId: asU64(x, at) };
    case 'p':
      return { kind: 'app', appId: asU64(x, at) };
    case 'h': {
      const h = asMap(x, at);
      const r = { kind: 'holding' as const, addressIndex: 0, assetIndex: 0 };
      for (const hk in h) {
        if (hk === 'd') r.addressIndex = asSmall(h[hk], `${at}.d`);
        else if (hk === 's') r.assetIndex = asSmall(h[hk], `${at}.s`);
        else unknownField(at, hk);
      }
      return r;
    }
    case 'l': {
      const l = asMap(x, at);
      const r = { kind: 'locals' as const, addressIndex: 0, appIndex: 0 };
      for (const lk in l) {
        if (lk === 'd') r.addressIndex = asSmall(l[lk], `${at}.d`);
        else if (lk === 'p') r.appIndex = asSmall(l[lk], `${at}.p`);
        else unknownField(at, lk);
      }
      return r;
    }
    case 'b': {
      const b = asMap(x, at);
      const r: { kind: 'box'; appIndex: number; name: Uint8Array } = { kind: 'box', appIndex: 0, name: new Uint8Array(0) };
      for (const bk in b) {
        if (bk === 'i') r.appIndex = asSmall(b[bk], `${at}.i`);
        else if (bk === 'n') r.name = asBytes(b[bk], `${at}.n`);
        else unknownField(at, bk);
      }
      return r;
    }
    default:
      unknownField(path, k);
  }
}

function heartbeatFromWire(v: unknown, path: string): HeartbeatFields {
  const m = asMap(v, path);
  const hb: HeartbeatFields = { keyDilution: 0n, challengeDiscount: false };
  for (const k in m) {
    const x = m[k];
    const at = `${path}.${k}`;
    switch (k) {
      case 'a': {
        const a = asAddress(x, at);
        if (!a.isZero()) hb.address = a;
        break;
      }
      case 'kd':
        hb.keyDilution = asU64(x, at);
        break;
      case 'c':
        hb.challengeDiscount = asBool(x, at);
        break;
      case 'sd': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) hb.seed = b;
        break;
      }
      case 'vid': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) hb.voteId = b;
        break;
      }
      case 'prf': {
        const p = asMap(x, at);
        const proof: HeartbeatProof = {};
        for (const pk in p) {
          const y = p[pk];
          const pat = `${at}.${pk}`;
          switch (pk) {
            case 's':
              proof.signature = asBytes(y, pat, 64);
              break;
            case 'p':
              proof.publicKey = asBytes(y, pat, 32);
              break;
            case 'p2':
              proof.publicKey2 = asBytes(y, pat, 32);
              break;
            case 'p1s':
              proof.publicKey1Signature = asBytes(y, pat, 64);
              break;
            case 'p2s':
              proof.publicKey2Signature = asBytes(y, pat, 64);
              break;
            default:
              unknownField(at, pk);
          }
        }
        hb.proof = proof;
        break;
      }
      default:
        unknownField(path, k);
    }
  }
  return hb;
}

const KEY_OWNER: Record<string, TransactionType> = {
  rcv: 'pay',
  amt: 'pay',
  close: 'pay',
  votekey: 'keyreg',
  selkey: 'keyreg',
  sprfkey: 'keyreg',
  votefst: 'keyreg',
  votelst: 'keyreg',
  votekd: 'keyreg',
  nonpart: 'keyreg',
  caid: 'acfg',
  apar: 'acfg',
  xaid: 'axfer',
  aamt: 'axfer',
  asnd: 'axfer',
  arcv: 'axfer',
  aclose: 'axfer',
  faid: 'afrz',
  fadd: 'afrz',
  afrz: 'afrz',
  apid: 'appl',
  apan: 'appl',
  apaa: 'appl',
  apat: 'appl',
  apas: 'appl',
  apfa: 'appl',
  al: 'appl',
  apbx: 'appl',
  apls: 'appl',
  apgs: 'appl',
  apap: 'appl',
  apsu: 'appl',
  apep: 'appl',
  aprv: 'appl',
  sptype: 'stpf',
  sp: 'stpf',
  spmsg: 'stpf',
  hb: 'hb',
};

/** Builds the typed transaction from a decoded wire map, rejecting unknown and misplaced fields. */
export function transactionFromWire(value: unknown, path = 'txn'): Transaction {
  const m = asMap(value, path);
  const typeValue = m.type;
  if (typeValue === undefined) fail(`${path}.type`, 'missing transaction type');
  const type = asString(typeValue, `${path}.type`) as TransactionType;
  if (!TRANSACTION_TYPES.includes(type)) fail(`${path}.type`, `unknown transaction type "${type}"`);
  const zero = Address.zero();
  const txn: Transaction = { type, sender: zero, fee: 0n, firstValid: 0n, lastValid: 0n };
  let rawBoxes: { i: number; n: Uint8Array; at: string }[] | undefined;
  switch (type) {
    case 'pay':
      txn.payment = { receiver: zero, amount: 0n };
      break;
    case 'keyreg':
      txn.keyreg = { voteFirst: 0n, voteLast: 0n, voteKeyDilution: 0n, nonParticipation: false };
      break;
    case 'acfg':
      txn.assetConfig = { assetId: 0n };
      break;
    case 'axfer':
      txn.assetTransfer = { assetId: 0n, amount: 0n, receiver: zero };
      break;
    case 'afrz':
      txn.assetFreeze = { assetId: 0n, account: zero, frozen: false };
      break;
    case 'appl':
      txn.appCall = emptyAppCallFields();
      break;
    case 'stpf':
      txn.stateProof = { stateProofType: 0n };
      break;
    case 'hb':
      txn.heartbeat = { keyDilution: 0n, challengeDiscount: false };
      break;
  }
  for (const k in m) {
    const x = m[k];
    const at = `${path}.${k}`;
    const owner = KEY_OWNER[k];
    if (owner !== undefined && owner !== type) fail(at, `field "${k}" belongs to ${owner} transactions, not ${type}`);
    switch (k) {
      case 'type':
        break;
      case 'snd':
        txn.sender = asAddress(x, at);
        break;
      case 'fee':
        txn.fee = asU64(x, at);
        break;
      case 'fv':
        txn.firstValid = asU64(x, at);
        break;
      case 'lv':
        txn.lastValid = asU64(x, at);
        break;
      case 'note': {
        const b = asBytes(x, at);
        if (b.length) txn.note = b;
        break;
      }
      case 'gen': {
        const s = asString(x, at);
        if (s) txn.genesisId = s;
        break;
      }
      case 'gh': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) txn.genesisHash = b;
        break;
      }
      case 'grp': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) txn.group = b;
        break;
      }
      case 'lx': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) txn.lease = b;
        break;
      }
      case 'rekey': {
        const a = asAddress(x, at);
        if (!a.isZero()) txn.rekeyTo = a;
        break;
      }
      // pay
      case 'rcv':
        txn.payment!.receiver = asAddress(x, at);
        break;
      case 'amt':
        txn.payment!.amount = asU64(x, at);
        break;
      case 'close': {
        const a = asAddress(x, at);
        if (!a.isZero()) txn.payment!.closeRemainderTo = a;
        break;
      }
      // keyreg
      case 'votekey': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) txn.keyreg!.voteKey = b;
        break;
      }
      case 'selkey': {
        const b = asBytes(x, at, 32);
        if (!isAllZero(b)) txn.keyreg!.selectionKey = b;
        break;
      }
      case 'sprfkey': {
        const b = asBytes(x, at, 64);
        if (!isAllZero(b)) txn.keyreg!.stateProofKey = b;
        break;
      }
      case 'votefst':
        txn.keyreg!.voteFirst = asU64(x, at);
        break;
      case 'votelst':
        txn.keyreg!.voteLast = asU64(x, at);
        break;
      case 'votekd':
        txn.keyreg!.voteKeyDilution = asU64(x, at);
        break;
      case 'nonpart':
        txn.keyreg!.nonParticipation = asBool(x, at);
        break;
      // acfg
      case 'caid':
        txn.assetConfig!.assetId = asU64(x, at);
        break;
      case 'apar':
        txn.assetConfig!.params = assetParamsFromWire(x, at);
        break;
      // axfer
      case 'xaid':
        txn.assetTransfer!.assetId = asU64(x, at);
        break;
      case 'aamt':
        txn.assetTransfer!.amount = asU64(x, at);
        break;
      case 'asnd': {
        const a = asAddress(x, at);
        if (!a.isZero()) txn.assetTransfer!.assetSender = a;
        break;
      }
      case 'arcv':
        txn.assetTransfer!.receiver = asAddress(x, at);
        break;
      case 'aclose': {
        const a = asAddress(x, at);
        if (!a.isZero()) txn.assetTransfer!.closeTo = a;
        break;
      }
      // afrz
      case 'faid':
        txn.assetFreeze!.assetId = asU64(x, at);
        break;
      case 'fadd':
        txn.assetFreeze!.account = asAddress(x, at);
        break;
      case 'afrz':
        txn.assetFreeze!.frozen = asBool(x, at);
        break;
      // appl
      case 'apid':
        txn.appCall!.appId = asU64(x, at);
        break;
      case 'apan': {
        const oc = asSmall(x, at);
        if (oc > OnComplete.DeleteApplication) fail(at, `unknown on-completion ${oc}`);
        txn.appCall!.onComplete = oc;
        break;
      }
      case 'apaa':
        txn.appCall!.args = asArray(x, at).map((a, i) => asBytes(a, `${at}[${i}]`));
        break;
      case 'apat':
        txn.appCall!.accounts = asArray(x, at).map((a, i) => asAddress(a, `${at}[${i}]`));
        break;
      case 'apas':
        txn.appCall!.foreignAssets = asArray(x, at).map((a, i) => asU64(a, `${at}[${i}]`));
        break;
      case 'apfa':
        txn.appCall!.foreignApps = asArray(x, at).map((a, i) => asU64(a, `${at}[${i}]`));
        break;
      case 'al':
        txn.appCall!.access = asArray(x, at).map((a, i) => accessFromWire(a, `${at}[${i}]`));
        break;
      case 'apbx':
        rawBoxes = asArray(x, at).map((b, i) => {
          const bat = `${at}[${i}]`;
          const bm = asMap(b, bat);
          const r: { i: number; n: Uint8Array; at: string } = { i: 0, n: new Uint8Array(0), at: bat };
          for (const bk in bm) {
            if (bk === 'i') r.i = asSmall(bm[bk], `${bat}.i`);
            else if (bk === 'n') r.n = asBytes(bm[bk], `${bat}.n`);
            else unknownField(bat, bk);
          }
          return r;
        });
        break;
      case 'apls': {
        const s = schemaFromWire(x, at);
        if (s) txn.appCall!.localSchema = s;
        break;
      }
      case 'apgs': {
        const s = schemaFromWire(x, at);
        if (s) txn.appCall!.globalSchema = s;
        break;
      }
      case 'apap': {
        const b = asBytes(x, at);
        if (b.length) txn.appCall!.approvalProgram = b;
        break;
      }
      case 'apsu': {
        const b = asBytes(x, at);
        if (b.length) txn.appCall!.clearProgram = b;
        break;
      }
      case 'apep':
        txn.appCall!.extraPages = asSmall(x, at);
        break;
      case 'aprv':
        txn.appCall!.rejectVersion = asU64(x, at);
        break;
      // stpf
      case 'sptype':
        txn.stateProof!.stateProofType = asU64(x, at);
        break;
      case 'sp':
        txn.stateProof!.stateProof = x as MsgpackValue;
        break;
      case 'spmsg':
        txn.stateProof!.message = x as MsgpackValue;
        break;
      // hb
      case 'hb':
        txn.heartbeat = heartbeatFromWire(x, at);
        break;
      default:
        unknownField(path, k);
    }
  }
  if (rawBoxes) {
    const app = txn.appCall!;
    app.boxes = rawBoxes.map((b): BoxReference => {
      if (b.i === 0) return { appId: 0n, name: b.n };
      const appId = app.foreignApps[b.i - 1];
      if (appId === undefined) fail(`${b.at}.i`, `index ${b.i} is beyond foreign apps (${app.foreignApps.length})`);
      return { appId, name: b.n };
    });
  }
  return txn;
}

/** A multisig signature from its msgpack structure. */
export function multisigFromWire(value: unknown, path: string): MultisigSig {
  const m = asMap(value, path);
  const msig: MultisigSig = { version: 0, threshold: 0, subsigs: [] };
  for (const k in m) {
    const at = `${path}.${k}`;
    if (k === 'v') msig.version = asSmall(m[k], at);
    else if (k === 'thr') msig.threshold = asSmall(m[k], at);
    else if (k === 'subsig') {
      msig.subsigs = asArray(m[k], at).map((s, i) => {
        const sat = `${at}[${i}]`;
        const sm = asMap(s, sat);
        let publicKey: Uint8Array = new Uint8Array(32);
        let signature: Uint8Array | undefined;
        for (const sk in sm) {
          if (sk === 'pk') publicKey = asBytes(sm[sk], `${sat}.pk`, 32);
          else if (sk === 's') {
            const sig = asBytes(sm[sk], `${sat}.s`, 64);
            if (!isAllZero(sig)) signature = sig;
          } else unknownField(sat, sk);
        }
        return signature ? { publicKey, signature } : { publicKey };
      });
    } else unknownField(path, k);
  }
  return msig;
}

const PQSIG_KEYS = new Set(['sch', 'slt', 'pk', 'sig']);

function pqsigFromWire(value: unknown, path: string): PQSig {
  const m = asMap(value, path);
  for (const k in m) if (!PQSIG_KEYS.has(k)) unknownField(path, k);
  return m as PQSig;
}

/** A logic signature from its msgpack structure. */
export function logicSigFromWire(value: unknown, path: string): LogicSig {
  const m = asMap(value, path);
  const lsig: LogicSig = { program: new Uint8Array(0), args: [] };
  for (const k in m) {
    const at = `${path}.${k}`;
    switch (k) {
      case 'l':
        lsig.program = asBytes(m[k], at);
        break;
      case 'arg':
        lsig.args = asArray(m[k], at).map((a, i) => asBytes(a, `${at}[${i}]`));
        break;
      case 'sig': {
        const s = asBytes(m[k], at, 64);
        if (!isAllZero(s)) lsig.sig = s;
        break;
      }
      case 'msig':
        lsig.msig = multisigFromWire(m[k], at);
        break;
      case 'lmsig':
        lsig.lmsig = multisigFromWire(m[k], at);
        break;
      case 'pqsig':
        lsig.pqsig = pqsigFromWire(m[k], at);
        break;
      default:
        unknownField(path, k);
    }
  }
  return lsig;
}

/** A signed transaction from its msgpack structure. */
export function signedTransactionFromWire(value: unknown, path = 'stxn'): SignedTransaction {
  const m = asMap(value, path);
  if (m.txn === undefined) fail(`${path}.txn`, 'missing transaction');
  const stxn: SignedTransaction = { txn: transactionFromWire(m.txn, `${path}.txn`) };
  for (const k in m) {
    const at = `${path}.${k}`;
    switch (k) {
      case 'txn':
        break;
      case 'sig': {
        const s = asBytes(m[k], at, 64);
        if (!isAllZero(s)) stxn.sig = s;
        break;
      }
      case 'msig':
        stxn.msig = multisigFromWire(m[k], at);
        break;
      case 'lsig':
        stxn.lsig = logicSigFromWire(m[k], at);
        break;
      case 'sgnr': {
        const a = asAddress(m[k], at);
        if (!a.isZero()) stxn.authAddress = a;
        break;
      }
      case 'pqsig':
        stxn.pqsig = pqsigFromWire(m[k], at);
        break;
      default:
        unknownField(path, k);
    }
  }
  return stxn;
}

/** The app-call fields of an `appl` transaction whose wire form omits them all (every field at its zero value). */
export function emptyAppCallFields(): AppCallFields {
  return {
    appId: 0n,
    onComplete: OnComplete.NoOp,
    args: [],
    accounts: [],
    foreignApps: [],
    foreignAssets: [],
    boxes: [],
    access: [],
    extraPages: 0,
    rejectVersion: 0n,
  };
}
