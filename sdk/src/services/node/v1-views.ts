import { encodeAddress } from '../../encoding/address.js';
import { toBase32 } from '../../encoding/base32.js';
import { toBase64 } from '../../encoding/base64.js';
import { isAllZero } from '../../encoding/bytes.js';
import { OnComplete, type SignedTransaction, type Transaction } from '../../txn/types.js';
import { txid as txidOf } from '../../txn/encode.js';
import type { Block, ConfirmedTxn, TxnApplyData } from '../../ledger/block.js';
import type { AccountData, AppData, AssetData } from '../../ledger/state.js';
import type { Ledger } from '../../ledger/ledger.js';

/**
 * The /v1 JSON records of node-service.md ("Resources and their fields"). Keys keep the legacy
 * spelling exactly (camelCase in some records, lowercase run-together in others) because clients
 * of the old interface look them up by those names.
 */
export type V1Json = { [key: string]: unknown };

const text = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(b);
const addr = (b: Uint8Array): string => encodeAddress(b);
const optAddr = (b: Uint8Array | undefined): string | undefined => (b && !isAllZero(b) ? encodeAddress(b) : undefined);

function put(o: V1Json, key: string, value: unknown): void {
  if (value !== undefined) o[key] = value;
}

/** Asset parameters as the node service's /v1 JSON. */
export function assetParamsView(a: AssetData): V1Json {
  const o: V1Json = { creator: addr(a.creator), total: a.total, decimals: a.decimals, defaultfrozen: a.defaultFrozen };
  if (a.unitName.length) o.unitname = text(a.unitName);
  if (a.name.length) o.assetname = text(a.name);
  if (a.url.length) o.url = text(a.url);
  if (a.metadataHash.length && !isAllZero(a.metadataHash)) o.metadatahash = toBase64(a.metadataHash);
  put(o, 'managerkey', optAddr(a.manager));
  put(o, 'reserveaddr', optAddr(a.reserve));
  put(o, 'freezeaddr', optAddr(a.freeze));
  put(o, 'clawbackaddr', optAddr(a.clawback));
  return o;
}

function tealValueView(v: Uint8Array | bigint): V1Json {
  return typeof v === 'bigint' ? { t: 'u', u: v } : { t: 'b', b: toBase64(v) };
}

function appParamsView(app: AppData): V1Json {
  const globalstate: V1Json = {};
  for (const kv of app.global.values()) globalstate[toBase64(kv.key)] = tealValueView(kv.value);
  return {
    creator: addr(app.creator),
    approvprog: toBase64(app.approvalProgram),
    clearprog: toBase64(app.clearStateProgram),
    localschema: { uints: app.localNumUint, byteslices: app.localNumByteSlice },
    globalschema: { uints: app.globalNumUint, byteslices: app.globalNumByteSlice },
    globalstate,
  };
}

const STATUS_WORDS = ['Offline', 'Online', 'NotParticipating'] as const;

/** Account record; an address the ledger has never seen reads as an empty offline account, as on the node. */
export function accountView(ledger: Ledger, address: Uint8Array): V1Json {
  const a: AccountData | undefined = ledger.account(address);
  const amount = a?.balance ?? 0n;
  const o: V1Json = {
    round: ledger.latestRound,
    address: addr(address),
    amount,
    pendingrewards: 0n,
    amountwithoutpendingrewards: amount,
    rewards: 0n,
    status: STATUS_WORDS[a?.status ?? 0],
  };
  if (!a) return o;
  const p = a.participation;
  if (p && a.status === 1) {
    o.participation = {
      partpkb64: toBase64(p.voteKey ?? new Uint8Array(32)),
      vrfpkb64: toBase64(p.selectionKey ?? new Uint8Array(32)),
      votefst: p.voteFirst,
      votelst: p.voteLast,
      votekd: p.voteKeyDilution,
    };
  }
  if (a.createdAssets.size) {
    const created: V1Json = {};
    for (const id of [...a.createdAssets].sort(cmp)) {
      const asset = ledger.asset(id);
      if (asset) created[String(id)] = assetParamsView(asset);
    }
    o.thisassettotal = created;
  }
  if (a.holdings.size) {
    const assets: V1Json = {};
    for (const [id, h] of [...a.holdings].sort((x, y) => cmp(x[0], y[0]))) {
      const asset = ledger.asset(id);
      assets[String(id)] = { creator: asset ? addr(asset.creator) : '', amount: h.amount, frozen: h.frozen };
    }
    o.assets = assets;
  }
  if (a.locals.size) {
    const locals: V1Json = {};
    for (const [id, kvs] of [...a.locals].sort((x, y) => cmp(x[0], y[0]))) {
      const app = ledger.app(id);
      const localstate: V1Json = {};
      for (const kv of kvs.values()) localstate[toBase64(kv.key)] = tealValueView(kv.value);
      locals[String(id)] = { localschema: { uints: app?.localNumUint ?? 0n, byteslices: app?.localNumByteSlice ?? 0n }, localstate };
    }
    o.applocalstates = locals;
  }
  if (a.createdApps.size) {
    const apps: V1Json = {};
    for (const id of [...a.createdApps].sort(cmp)) {
      const app = ledger.app(id);
      if (app) apps[String(id)] = appParamsView(app);
    }
    o.appparams = apps;
  }
  return o;
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const ON_COMPLETE_WORDS: Record<OnComplete, string> = {
  [OnComplete.NoOp]: 'noop',
  [OnComplete.OptIn]: 'optin',
  [OnComplete.CloseOut]: 'closeout',
  [OnComplete.ClearState]: 'clearstate',
  [OnComplete.UpdateApplication]: 'update',
  [OnComplete.DeleteApplication]: 'delete',
};

export interface TransactionViewExtras {
  txid?: string;
  /** Confirmed round; 0 while pending or after eviction. */
  round?: bigint;
  poolError?: string;
  ad?: TxnApplyData;
}

/** The /v1 Transaction record of a signed transaction (confirmed, pending or evicted). */
export function transactionView(stxn: SignedTransaction, extras: TransactionViewExtras = {}): V1Json {
  const t: Transaction = stxn.txn;
  const o: V1Json = {
    type: t.type,
    tx: extras.txid ?? txidOf(t),
    from: t.sender.toString(),
    fee: t.fee,
    'first-round': t.firstValid,
    'last-round': t.lastValid,
    round: extras.round ?? 0n,
    fromrewards: 0n,
    genesisID: t.genesisId ?? '',
    genesishashb64: toBase64(t.genesisHash ?? new Uint8Array(32)),
  };
  if (t.note?.length) o.noteb64 = toBase64(t.note);
  if (t.lease && !isAllZero(t.lease)) o.lease = toBase64(t.lease);
  if (t.group && !isAllZero(t.group)) o.group = toBase64(t.group);
  if (extras.poolError) o.poolerror = extras.poolError;
  const ad = extras.ad;
  if (ad && (ad.createdAssetId || ad.createdAppId)) {
    const r: V1Json = {};
    if (ad.createdAssetId) r.createdasset = ad.createdAssetId;
    if (ad.createdAppId) r.createdapp = ad.createdAppId;
    o.txresults = r;
  }
  if (t.payment) {
    const p: V1Json = { to: t.payment.receiver.toString(), amount: t.payment.amount, torewards: 0n, closerewards: 0n };
    if (t.payment.closeRemainderTo) {
      p.close = t.payment.closeRemainderTo.toString();
      if (ad?.closingAmount !== undefined) p.closeamount = ad.closingAmount;
    }
    o.payment = p;
  }
  if (t.keyreg) {
    const k = t.keyreg;
    o.keyreg = {
      ...(k.voteKey ? { votekey: toBase64(k.voteKey) } : {}),
      ...(k.selectionKey ? { selkey: toBase64(k.selectionKey) } : {}),
      votefst: k.voteFirst,
      votelst: k.voteLast,
      votekd: k.voteKeyDilution,
    };
  }
  if (t.assetConfig) {
    const c: V1Json = { id: t.assetConfig.assetId };
    const p = t.assetConfig.params;
    if (p) {
      const params: V1Json = {
        creator: t.assetConfig.assetId === 0n ? t.sender.toString() : '',
        total: p.total,
        decimals: p.decimals,
        defaultfrozen: p.defaultFrozen,
      };
      put(params, 'unitname', p.unitName);
      put(params, 'assetname', p.assetName);
      put(params, 'url', p.url);
      if (p.metadataHash) params.metadatahash = toBase64(p.metadataHash);
      put(params, 'managerkey', p.manager?.toString());
      put(params, 'reserveaddr', p.reserve?.toString());
      put(params, 'freezeaddr', p.freeze?.toString());
      put(params, 'clawbackaddr', p.clawback?.toString());
      c.params = params;
    }
    o.curcfg = c;
  }
  if (t.assetTransfer) {
    const x = t.assetTransfer;
    const v: V1Json = { id: x.assetId, rcv: x.receiver.toString(), amt: x.amount };
    put(v, 'snd', x.assetSender?.toString());
    if (x.closeTo) {
      v.closeto = x.closeTo.toString();
      if (ad?.assetClosingAmount !== undefined) v.closetoamount = ad.assetClosingAmount;
    }
    o.curxfer = v;
  }
  if (t.assetFreeze) o.curfrz = { id: t.assetFreeze.assetId, acct: t.assetFreeze.account.toString(), freeze: t.assetFreeze.frozen };
  if (t.appCall) {
    const a = t.appCall;
    const v: V1Json = {
      id: a.appId,
      accounts: a.accounts.map((x) => x.toString()),
      foreignapps: a.foreignApps,
      foreignassets: a.foreignAssets,
      appargs: a.args.map(toBase64),
      oncompletion: ON_COMPLETE_WORDS[a.onComplete] ?? String(a.onComplete),
    };
    if (a.approvalProgram) v.approvprog = toBase64(a.approvalProgram);
    if (a.clearProgram) v.clearprog = toBase64(a.clearProgram);
    if (a.globalSchema) v.globalschema = { uints: a.globalSchema.numUints, byteslices: a.globalSchema.numByteSlices };
    if (a.localSchema) v.localschema = { uints: a.localSchema.numUints, byteslices: a.localSchema.numByteSlices };
    o.app = v;
  }
  return o;
}

/** A confirmed transaction as the node service's /v1 JSON. */
export function confirmedView(t: ConfirmedTxn): V1Json {
  return transactionView(t.stxn, { txid: t.txid, round: t.round, ad: t.ad });
}

/** True when the address takes part in the transaction (sender, receiver, close target, asset parties). */
export function involves(t: Transaction, address: string): boolean {
  const parties = [
    t.sender,
    t.payment?.receiver,
    t.payment?.closeRemainderTo,
    t.assetTransfer?.receiver,
    t.assetTransfer?.assetSender,
    t.assetTransfer?.closeTo,
    t.assetFreeze?.account,
  ];
  return parties.some((p) => p !== undefined && p.toString() === address);
}

/** A block as the node service's /v1 JSON. */
export function blockView(b: Block): V1Json {
  const h = b.header;
  return {
    hash: toBase32(b.hash),
    previousBlockHash: toBase32(h.prev),
    seed: toBase32(h.seed),
    // The devnet has no consensus: no proposer and no periods.
    proposer: encodeAddress(new Uint8Array(32)),
    round: h.round,
    period: 0n,
    txnRoot: toBase32(h.txnRoot),
    reward: h.rewardsLevel,
    rate: h.rewardsRate,
    frac: h.rewardsResidue,
    txns: { transactions: b.txns.map(confirmedView) },
    timestamp: h.timestamp,
    currentProtocol: h.protocol,
    nextProtocol: h.protocol,
    nextProtocolApprovals: 0n,
    nextProtocolVoteBefore: 0n,
    nextProtocolSwitchOn: 0n,
    upgradePropose: '',
    upgradeApprove: false,
  };
}
