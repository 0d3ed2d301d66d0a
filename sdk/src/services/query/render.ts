import { encodeAddress } from '../../encoding/address.js';
import { bytesEqual, isAllZero, tryFromUtf8 } from '../../encoding/bytes.js';
import type { BlockHeader, DeltaMap, TxnApplyData } from '../../ledger/block.js';
import type { AssetData, KeyValue } from '../../ledger/state.js';
import type { AssetParams, MultisigSig, SignedTransaction, Transaction } from '../../txn/types.js';
import { OnComplete } from '../../txn/types.js';
import type { AccountRec, AccountSnap, AppRec, AppSnap, AssetRec, HoldingRec, LocalRec } from './state-index.js';
import type { TxnEntry } from './txn-index.js';
import { num } from './json-number.js';

type Json = Record<string, unknown>;

// Address text carries a checksum hash; pages repeat the same few addresses, so remember them,
// found by their first four bytes and confirmed by all 32 (a clash only costs an encoding).
const addressText = new Map<number, { key: Uint8Array; text: string }>();
function addr(b: Uint8Array): string {
  const h = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  const known = addressText.get(h);
  if (known !== undefined && bytesEqual(known.key, b)) return known.text;
  if (addressText.size >= 100_000) addressText.clear();
  const text = encodeAddress(b);
  addressText.set(h, { key: b.slice(), text });
  return text;
}
const text = (a: { publicKey: Uint8Array }): string => addr(a.publicKey);
// Node's encoder is several times faster than the portable one, and this layer runs on Node only.
const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

const ON_COMPLETION: Record<number, string> = {
  [OnComplete.NoOp]: 'noop',
  [OnComplete.OptIn]: 'optin',
  [OnComplete.CloseOut]: 'closeout',
  [OnComplete.ClearState]: 'clear',
  [OnComplete.UpdateApplication]: 'update',
  [OnComplete.DeleteApplication]: 'delete',
};

/** Names are shown as text only when they are printable UTF-8; the base64 form is always there. */
function printable(bytes: Uint8Array): string | undefined {
  const text = tryFromUtf8(bytes);
  if (text === undefined) return undefined;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return undefined;
  }
  return text;
}

function optAddr(o: Json, key: string, b: Uint8Array | undefined): void {
  if (b && b.length === 32 && !isAllZero(b)) o[key] = addr(b);
}

function textAndB64(o: Json, key: string, bytes: Uint8Array | undefined): void {
  if (!bytes || bytes.length === 0) return;
  const t = printable(bytes);
  if (t !== undefined) o[key] = t;
  o[`${key}-b64`] = b64(bytes);
}

export function assetParamsJson(p: AssetData): Json {
  const o: Json = { creator: addr(p.creator), decimals: p.decimals, 'default-frozen': p.defaultFrozen, total: p.total };
  optAddr(o, 'clawback', p.clawback);
  optAddr(o, 'freeze', p.freeze);
  optAddr(o, 'manager', p.manager);
  optAddr(o, 'reserve', p.reserve);
  if (p.metadataHash.length && !isAllZero(p.metadataHash)) o['metadata-hash'] = b64(p.metadataHash);
  textAndB64(o, 'name', p.name);
  textAndB64(o, 'unit-name', p.unitName);
  textAndB64(o, 'url', p.url);
  return o;
}

function txnAssetParamsJson(p: AssetParams, creator: Uint8Array): Json {
  const enc = (s: string | undefined) => (s === undefined ? undefined : new TextEncoder().encode(s));
  const o: Json = { creator: addr(creator), decimals: p.decimals, 'default-frozen': p.defaultFrozen, total: num(p.total) };
  if (p.clawback) o.clawback = text(p.clawback);
  if (p.freeze) o.freeze = text(p.freeze);
  if (p.manager) o.manager = text(p.manager);
  if (p.reserve) o.reserve = text(p.reserve);
  if (p.metadataHash) o['metadata-hash'] = b64(p.metadataHash);
  textAndB64(o, 'name', enc(p.assetName));
  textAndB64(o, 'unit-name', enc(p.unitName));
  textAndB64(o, 'url', enc(p.url));
  return o;
}

export function tealKeyValues(kvs: readonly KeyValue[]): Json[] {
  return kvs.map((kv) => {
    const v = kv.value;
    const value = typeof v === 'bigint' ? { bytes: '', type: 2, uint: v } : { bytes: b64(v), type: 1, uint: 0 };
    return { key: b64(kv.key), value };
  });
}

function stateDelta(m: DeltaMap): Json[] {
  const out: Json[] = [];
  for (const { key, delta } of m.values()) {
    let value: Json;
    if (delta.action === 'delete') value = { action: 3 };
    else if (typeof delta.value === 'bigint') value = { action: 2, uint: num(delta.value) };
    else value = { action: 1, bytes: b64(delta.value as Uint8Array) };
    out.push({ key: b64(key), value });
  }
  return out;
}

function multisigJson(m: MultisigSig): Json {
  return {
    subsignature: m.subsigs.map((s) => (s.signature ? { 'public-key': b64(s.publicKey), signature: b64(s.signature) } : { 'public-key': b64(s.publicKey) })),
    threshold: m.threshold,
    version: m.version,
  };
}

function signatureJson(s: SignedTransaction): Json | undefined {
  if (s.sig) return { sig: b64(s.sig) };
  if (s.msig) return { multisig: multisigJson(s.msig) };
  if (s.lsig) {
    const l: Json = { logic: b64(s.lsig.program) };
    if (s.lsig.args.length) l.args = s.lsig.args.map(b64);
    if (s.lsig.sig) l.signature = b64(s.lsig.sig);
    const m = s.lsig.lmsig ?? s.lsig.msig;
    if (m) l['multisig-signature'] = multisigJson(m);
    return { logicsig: l };
  }
  return undefined;
}

function typeFields(t: Transaction, ad: TxnApplyData): [string, Json] | undefined {
  if (t.payment) {
    const p: Json = { amount: num(t.payment.amount), receiver: text(t.payment.receiver) };
    if (t.payment.closeRemainderTo) {
      p['close-remainder-to'] = text(t.payment.closeRemainderTo);
      p['close-amount'] = num(ad.closingAmount ?? 0n);
    }
    return ['payment-transaction', p];
  }
  if (t.keyreg) {
    const k = t.keyreg;
    const o: Json = { 'non-participation': k.nonParticipation };
    if (k.selectionKey) o['selection-participation-key'] = b64(k.selectionKey);
    if (k.stateProofKey) o['state-proof-key'] = b64(k.stateProofKey);
    if (k.voteKey) o['vote-participation-key'] = b64(k.voteKey);
    if (k.voteFirst) o['vote-first-valid'] = num(k.voteFirst);
    if (k.voteLast) o['vote-last-valid'] = num(k.voteLast);
    if (k.voteKeyDilution) o['vote-key-dilution'] = num(k.voteKeyDilution);
    return ['keyreg-transaction', o];
  }
  if (t.assetConfig) {
    const o: Json = { 'asset-id': num(t.assetConfig.assetId) };
    if (t.assetConfig.params) o.params = txnAssetParamsJson(t.assetConfig.params, t.sender.publicKey);
    return ['asset-config-transaction', o];
  }
  if (t.assetTransfer) {
    const x = t.assetTransfer;
    const o: Json = { amount: num(x.amount), 'asset-id': num(x.assetId), receiver: text(x.receiver) };
    if (x.assetSender) o.sender = text(x.assetSender);
    if (x.closeTo) {
      o['close-to'] = text(x.closeTo);
      o['close-amount'] = num(ad.assetClosingAmount ?? 0n);
    }
    return ['asset-transfer-transaction', o];
  }
  if (t.assetFreeze) {
    return [
      'asset-freeze-transaction',
      { address: text(t.assetFreeze.account), 'asset-id': num(t.assetFreeze.assetId), 'new-freeze-status': t.assetFreeze.frozen },
    ];
  }
  if (t.appCall) {
    const a = t.appCall;
    const o: Json = {
      accounts: a.accounts.map((x) => text(x)),
      'application-args': a.args.map(b64),
      'application-id': num(a.appId),
      'foreign-apps': a.foreignApps.map(num),
      'foreign-assets': a.foreignAssets.map(num),
      'on-completion': ON_COMPLETION[a.onComplete] ?? 'noop',
    };
    if (a.approvalProgram) o['approval-program'] = b64(a.approvalProgram);
    if (a.clearProgram) o['clear-state-program'] = b64(a.clearProgram);
    if (a.extraPages) o['extra-program-pages'] = a.extraPages;
    o['global-state-schema'] = { 'num-byte-slice': a.globalSchema?.numByteSlices ?? 0, 'num-uint': a.globalSchema?.numUints ?? 0 };
    o['local-state-schema'] = { 'num-byte-slice': a.localSchema?.numByteSlices ?? 0, 'num-uint': a.localSchema?.numUints ?? 0 };
    return ['application-transaction', o];
  }
  if (t.heartbeat) {
    const h = t.heartbeat;
    const proof: Json = {};
    if (h.proof?.publicKey) proof['hb-pk'] = b64(h.proof.publicKey);
    if (h.proof?.publicKey1Signature) proof['hb-pk1sig'] = b64(h.proof.publicKey1Signature);
    if (h.proof?.publicKey2) proof['hb-pk2'] = b64(h.proof.publicKey2);
    if (h.proof?.publicKey2Signature) proof['hb-pk2sig'] = b64(h.proof.publicKey2Signature);
    if (h.proof?.signature) proof['hb-sig'] = b64(h.proof.signature);
    return [
      'heartbeat-transaction',
      {
        'hb-address': addr(h.address?.publicKey ?? new Uint8Array(32)),
        'hb-key-dilution': num(h.keyDilution),
        'hb-proof': proof,
        'hb-seed': b64(h.seed ?? new Uint8Array(0)),
        'hb-vote-id': b64(h.voteId ?? new Uint8Array(0)),
      },
    ];
  }
  if (t.stateProof) return ['state-proof-transaction', { 'state-proof-type': num(t.stateProof.stateProofType) }];
  return undefined;
}

interface RenderContext {
  round: bigint;
  time: bigint;
  /** Flat intra of the next row to render (advanced as inner rows are rendered). */
  intra: number;
}

function txnBody(t: Transaction, ad: TxnApplyData, ctx: RenderContext): Json {
  const o: Json = {
    'close-rewards': 0,
    'closing-amount': num(ad.closingAmount ?? 0n),
    'confirmed-round': num(ctx.round),
    fee: num(t.fee),
    'first-valid': num(t.firstValid),
    'intra-round-offset': ctx.intra,
    'last-valid': num(t.lastValid),
    'receiver-rewards': 0,
    'round-time': num(ctx.time),
    sender: text(t.sender),
    'sender-rewards': 0,
    'tx-type': t.type,
  };
  ctx.intra++;
  if (t.genesisHash) o['genesis-hash'] = b64(t.genesisHash);
  if (t.genesisId) o['genesis-id'] = t.genesisId;
  if (t.group) o.group = b64(t.group);
  if (t.lease) o.lease = b64(t.lease);
  if (t.note) o.note = b64(t.note);
  if (t.rekeyTo) o['rekey-to'] = text(t.rekeyTo);
  if (ad.createdAppId) o['created-application-index'] = num(ad.createdAppId);
  if (ad.createdAssetId) o['created-asset-index'] = num(ad.createdAssetId);
  if (ad.globalDelta.size) o['global-state-delta'] = stateDelta(ad.globalDelta);
  if (ad.localDeltas.size) o['local-state-delta'] = [...ad.localDeltas.values()].map((l) => ({ address: addr(l.address), delta: stateDelta(l.keys) }));
  if (ad.logs.length) o.logs = ad.logs.map(b64);
  const typed = typeFields(t, ad);
  if (typed) o[typed[0]] = typed[1];
  if (ad.inner.length) o['inner-txns'] = ad.inner.map((it) => txnBody(it.txn, it.ad, ctx));
  return o;
}

/** A root transaction as the query service shows it, inner transactions nested. */
export function transactionJson(root: TxnEntry, header: BlockHeader): Json {
  const ct = root.confirmed!;
  const o = txnBody(ct.stxn.txn, ct.ad, { round: root.round, time: header.timestamp, intra: root.intra });
  o.id = ct.txid;
  const sig = signatureJson(ct.stxn);
  if (sig) o.signature = sig;
  if (ct.stxn.authAddress) o['auth-addr'] = text(ct.stxn.authAddress);
  return o;
}

export function blockJson(header: BlockHeader, transactions: Json[] | undefined): Json {
  const o: Json = {
    'fees-collected': header.feesCollected,
    'genesis-hash': b64(header.genesisHash),
    'genesis-id': header.genesisId,
    'previous-block-hash': b64(header.prev),
    rewards: {
      'fee-sink': addr(header.feeSink),
      'rewards-calculation-round': header.rewardsRecalculationRound,
      'rewards-level': header.rewardsLevel,
      'rewards-pool': addr(header.rewardsPool),
      'rewards-rate': header.rewardsRate,
      'rewards-residue': header.rewardsResidue,
    },
    round: header.round,
    seed: b64(header.seed),
    timestamp: header.timestamp,
    'transactions-root': b64(header.txnRoot),
    'transactions-root-sha256': b64(header.txnRoot256),
    'txn-counter': header.txnCounter,
    'upgrade-state': { 'current-protocol': header.protocol },
    'upgrade-vote': { 'upgrade-approve': false, 'upgrade-delay': 0n },
  };
  if (transactions) o.transactions = transactions;
  return o;
}

export function assetJson(rec: AssetRec, round?: bigint): Json | undefined {
  let params = rec.history.at(round);
  const deleted = params === undefined;
  if (deleted) {
    // A destroyed asset keeps showing its last parameters (with include-all).
    for (let i = rec.history.values.length - 1; i >= 0 && !params; i--) params = rec.history.values[i];
  }
  if (!params) return undefined;
  const o: Json = { 'created-at-round': rec.createdAt, deleted, index: rec.id, params: assetParamsJson(params) };
  if (deleted && rec.destroyedAt !== undefined) o['destroyed-at-round'] = rec.destroyedAt;
  return o;
}

function lastPresent<T>(values: readonly (T | undefined)[]): T | undefined {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return values[i];
  return undefined;
}

export function appJson(rec: AppRec, round?: bigint): Json | undefined {
  const now = rec.history.at(round);
  const snap: AppSnap | undefined = now ?? lastPresent(rec.history.values);
  if (!snap) return undefined;
  const p = snap.params;
  const params: Json = {
    'approval-program': b64(p.approvalProgram),
    'clear-state-program': b64(p.clearStateProgram),
    creator: addr(rec.creator),
    'global-state-schema': { 'num-byte-slice': p.globalNumByteSlice, 'num-uint': p.globalNumUint },
    'local-state-schema': { 'num-byte-slice': p.localNumByteSlice, 'num-uint': p.localNumUint },
  };
  if (p.extraProgramPages) params['extra-program-pages'] = p.extraProgramPages;
  if (snap.global.length) params['global-state'] = tealKeyValues(snap.global);
  const o: Json = { 'created-at-round': rec.createdAt, deleted: now === undefined, id: rec.id, params };
  if (now === undefined && rec.deletedAt !== undefined) o['deleted-at-round'] = rec.deletedAt;
  return o;
}

export function holdingJson(rec: HoldingRec, round?: bigint): Json | undefined {
  const h = rec.history.at(round) ?? lastPresent(rec.history.values);
  if (!h) return undefined;
  const deleted = rec.history.at(round) === undefined;
  const o: Json = { amount: deleted ? 0n : h.amount, 'asset-id': rec.assetId, deleted, 'is-frozen': h.frozen, 'opted-in-at-round': rec.optedInAt };
  if (deleted && rec.optedOutAt !== undefined) o['opted-out-at-round'] = rec.optedOutAt;
  return o;
}

export function miniHoldingJson(rec: HoldingRec, round?: bigint): Json | undefined {
  const o = holdingJson(rec, round);
  if (!o) return undefined;
  delete o['asset-id'];
  o.address = addr(rec.address);
  return o;
}

export function localStateJson(rec: LocalRec, schema: { nui: bigint; nbs: bigint }, round?: bigint): Json {
  const now = rec.history.at(round);
  const o: Json = {
    deleted: now === undefined,
    id: rec.appId,
    'opted-in-at-round': rec.optedInAt,
    schema: { 'num-byte-slice': schema.nbs, 'num-uint': schema.nui },
  };
  if (now && now.kv.length) o['key-value'] = tealKeyValues(now.kv);
  if (now === undefined && rec.closedOutAt !== undefined) o['closed-out-at-round'] = rec.closedOutAt;
  return o;
}

const STATUS = ['Offline', 'Online', 'NotParticipating'] as const;

export function accountBaseJson(rec: AccountRec, snap: AccountSnap | undefined, round: bigint): Json {
  const s = snap ?? lastPresent(rec.history.values);
  const closed = snap === undefined;
  const amount = closed ? 0n : (s?.balance ?? 0n);
  const o: Json = {
    address: addr(rec.address),
    amount,
    'amount-without-pending-rewards': amount,
    'created-at-round': rec.createdAt,
    deleted: closed,
    'min-balance': closed ? 0n : (s?.minBalance ?? 0n),
    'pending-rewards': 0n,
    'reward-base': 0n,
    rewards: 0n,
    round,
    status: STATUS[closed ? 0 : (s?.status ?? 0)],
    'total-apps-opted-in': closed ? 0 : (s?.totalAppsOptedIn ?? 0),
    'total-assets-opted-in': closed ? 0 : (s?.totalAssets ?? 0),
    'total-box-bytes': closed ? 0n : (s?.totalBoxBytes ?? 0n),
    'total-boxes': closed ? 0n : (s?.totalBoxes ?? 0n),
    'total-created-apps': closed ? 0 : (s?.totalCreatedApps ?? 0),
    'total-created-assets': closed ? 0 : (s?.totalCreatedAssets ?? 0),
  };
  if (closed && rec.closedAt !== undefined) o['closed-at-round'] = rec.closedAt;
  if (rec.sigType) o['sig-type'] = rec.sigType;
  if (!closed && s) {
    if (s.authAddr) o['auth-addr'] = addr(s.authAddr);
    if (s.schema.nui || s.schema.nbs) o['apps-total-schema'] = { 'num-byte-slice': s.schema.nbs, 'num-uint': s.schema.nui };
    if (s.extraPages) o['apps-total-extra-pages'] = s.extraPages;
    if (s.incentiveEligible) o['incentive-eligible'] = true;
    if (s.lastProposed) o['last-proposed'] = s.lastProposed;
    if (s.lastHeartbeat) o['last-heartbeat'] = s.lastHeartbeat;
    const p = s.participation;
    if (p && p.voteKey && p.selectionKey) {
      const part: Json = {
        'selection-participation-key': b64(p.selectionKey),
        'vote-first-valid': p.voteFirst,
        'vote-key-dilution': p.voteKeyDilution,
        'vote-last-valid': p.voteLast,
        'vote-participation-key': b64(p.voteKey),
      };
      if (p.stateProofKey) part['state-proof-key'] = b64(p.stateProofKey);
      o.participation = part;
    }
  }
  return o;
}
