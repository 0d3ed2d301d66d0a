import { arr, bool, bytes, compact, i64, isObj, obj, optBool, optBytes, optStr, optU64, str, u64, type Obj } from '../wire.js';
import { toAssetParams } from './normalize.js';
import type { AssetParams } from './types.js';

/** A transaction as the /v1 node service reports it (node-service.md "Transaction"). */
export interface V1Transaction {
  txid: string;
  type: string;
  sender: string;
  fee: bigint;
  firstRound: bigint;
  lastRound: bigint;
  genesisId: string;
  genesisHash: Uint8Array;
  fromRewards?: bigint;
  group?: Uint8Array;
  lease?: Uint8Array;
  note?: Uint8Array;
  /** Confirmed round, when committed. */
  round?: bigint;
  poolError?: string;
  createdAsset?: bigint;
  payment?: { to: string; amount: bigint; close?: string; closeAmount?: bigint; closeRewards?: bigint; toRewards?: bigint };
  keyreg?: { selectionKey?: Uint8Array; voteKey?: Uint8Array; voteFirst?: bigint; voteLast?: bigint; voteKeyDilution?: bigint };
  assetConfig?: { id?: bigint; params?: AssetParams };
  assetTransfer?: { id: bigint; receiver: string; amount: bigint; closeTo?: string; clawbackSource?: string };
  assetFreeze?: { id: bigint; account: string; freeze: boolean };
}

/** Reads one node service transaction. */
export function toV1Transaction(body: unknown, what = 'transaction'): V1Transaction {
  const o = obj(body, what);
  const t: V1Transaction = {
    txid: str(o.tx, `${what}.tx`),
    type: str(o.type, `${what}.type`),
    sender: str(o.from, `${what}.from`),
    fee: u64(o.fee ?? 0, `${what}.fee`),
    firstRound: u64(o['first-round'], `${what}.first-round`),
    lastRound: u64(o['last-round'], `${what}.last-round`),
    genesisId: str(o.genesisID ?? '', `${what}.genesisID`),
    genesisHash: bytes(o.genesishashb64 ?? '', `${what}.genesishashb64`),
  };
  const extra: Partial<V1Transaction> = {
    fromRewards: optU64(o.fromrewards, `${what}.fromrewards`),
    group: optBytes(o.group, `${what}.group`),
    lease: optBytes(o.lease, `${what}.lease`),
    note: optBytes(o.noteb64, `${what}.noteb64`),
    round: optU64(o.round, `${what}.round`),
    poolError: optStr(o.poolerror, `${what}.poolerror`),
    createdAsset: isObj(o.txresults) ? optU64(o.txresults.createdasset, `${what}.txresults.createdasset`) : undefined,
  };
  if (isObj(o.payment)) {
    const p = o.payment;
    extra.payment = compact({
      to: str(p.to, `${what}.payment.to`),
      amount: u64(p.amount ?? 0, `${what}.payment.amount`),
      close: optStr(p.close, `${what}.payment.close`),
      closeAmount: optU64(p.closeamount, `${what}.payment.closeamount`),
      closeRewards: optU64(p.closerewards, `${what}.payment.closerewards`),
      toRewards: optU64(p.torewards, `${what}.payment.torewards`),
    });
  }
  if (isObj(o.keyreg)) {
    const k = o.keyreg;
    extra.keyreg = compact({
      selectionKey: optBytes(k.selkey, `${what}.keyreg.selkey`),
      voteKey: optBytes(k.votekey, `${what}.keyreg.votekey`),
      voteFirst: optU64(k.votefst, `${what}.keyreg.votefst`),
      voteLast: optU64(k.votelst, `${what}.keyreg.votelst`),
      voteKeyDilution: optU64(k.votekd, `${what}.keyreg.votekd`),
    });
  }
  if (isObj(o.curcfg)) {
    const c = o.curcfg;
    extra.assetConfig = compact({
      id: optU64(c.id, `${what}.curcfg.id`),
      params: c.params === undefined ? undefined : toAssetParams(c.params, `${what}.curcfg.params`),
    });
  }
  if (isObj(o.curxfer)) {
    const x = o.curxfer;
    extra.assetTransfer = compact({
      id: u64(x.id, `${what}.curxfer.id`),
      receiver: str(x.rcv, `${what}.curxfer.rcv`),
      amount: u64(x.amt ?? 0, `${what}.curxfer.amt`),
      closeTo: optStr(x.closeto, `${what}.curxfer.closeto`),
      clawbackSource: optStr(x.snd, `${what}.curxfer.snd`),
    });
  }
  if (isObj(o.curfrz)) {
    const f = o.curfrz;
    extra.assetFreeze = {
      id: u64(f.id, `${what}.curfrz.id`),
      account: str(f.acct, `${what}.curfrz.acct`),
      freeze: bool(f.freeze ?? false, `${what}.curfrz.freeze`),
    };
  }
  return compact(Object.assign(t, extra));
}

/** Reads a node service transaction list. */
export function toV1TransactionList(body: unknown, what = 'transactions'): V1Transaction[] {
  const o = obj(body, what);
  return arr(o.transactions, `${what}.transactions`).map((t, i) => toV1Transaction(t, `${what}.transactions[${i}]`));
}

/** The node service's pending-pool listing. */
export interface V1PendingTransactions {
  totalTxns: bigint;
  truncatedTxns: V1Transaction[];
}

/** Reads the node service's pending-pool listing. */
export function toV1Pending(body: unknown): V1PendingTransactions {
  const o = obj(body, 'pending transactions');
  const list = isObj(o.truncatedTxns) ? toV1TransactionList(o.truncatedTxns, 'truncatedTxns') : [];
  return { totalTxns: u64(o.totalTxns ?? 0, 'totalTxns'), truncatedTxns: list };
}

/** The /v1 Block record (node-service.md "Block"). */
export interface V1Block {
  hash: string;
  previousBlockHash: string;
  round: bigint;
  period: bigint;
  proposer: string;
  seed: string;
  timestamp: bigint;
  txnRoot: string;
  currentProtocol: string;
  nextProtocol: string;
  nextProtocolApprovals: bigint;
  nextProtocolSwitchOn: bigint;
  nextProtocolVoteBefore: bigint;
  upgradeApprove: boolean;
  upgradePropose: string;
  frac?: bigint;
  rate?: bigint;
  reward?: bigint;
  txns: V1Transaction[];
}

/** Reads a node service block. */
export function toV1Block(body: unknown): V1Block {
  const o = obj(body, 'block');
  const s = (k: string) => str(o[k] ?? '', `block.${k}`);
  const n = (k: string) => u64(o[k] ?? 0, `block.${k}`);
  return compact({
    hash: s('hash'),
    previousBlockHash: s('previousBlockHash'),
    round: n('round'),
    period: n('period'),
    proposer: s('proposer'),
    seed: s('seed'),
    timestamp: i64(o.timestamp ?? 0, 'block.timestamp'),
    txnRoot: s('txnRoot'),
    currentProtocol: s('currentProtocol'),
    nextProtocol: s('nextProtocol'),
    nextProtocolApprovals: n('nextProtocolApprovals'),
    nextProtocolSwitchOn: n('nextProtocolSwitchOn'),
    nextProtocolVoteBefore: n('nextProtocolVoteBefore'),
    upgradeApprove: optBool(o.upgradeApprove, 'block.upgradeApprove') ?? false,
    upgradePropose: s('upgradePropose'),
    frac: optU64(o.frac, 'block.frac'),
    rate: optU64(o.rate, 'block.rate'),
    reward: optU64(o.reward, 'block.reward'),
    txns: isObj(o.txns) ? toV1TransactionList(o.txns, 'block.txns') : [],
  });
}

/** The node service's version answer: versions, genesis id and hash, build. */
export interface NodeVersion {
  versions: string[];
  genesisId: string;
  genesisHash: Uint8Array;
  build?: { major: bigint; minor: bigint; buildNumber: bigint; branch: string; channel: string; commitHash: string };
}

/** Reads the node service's version answer. */
export function toNodeVersion(body: unknown): NodeVersion {
  const o = obj(body, 'versions');
  const b: Obj | undefined = isObj(o.build) ? o.build : undefined;
  return compact({
    versions: arr(o.versions, 'versions.versions').map((v, i) => str(v, `versions[${i}]`)),
    genesisId: str(o.genesis_id ?? '', 'versions.genesis_id'),
    genesisHash: bytes(o.genesis_hash_b64 ?? '', 'versions.genesis_hash_b64'),
    build: b
      ? {
          major: i64(b.major ?? 0, 'build.major'),
          minor: i64(b.minor ?? 0, 'build.minor'),
          buildNumber: i64(b.build_number ?? 0, 'build.build_number'),
          branch: str(b.branch ?? '', 'build.branch'),
          channel: str(b.channel ?? '', 'build.channel'),
          commitHash: str(b.commit_hash ?? '', 'build.commit_hash'),
        }
      : undefined,
  });
}

/** `/metrics` text: `#` comment lines skipped, `key:value` (or Prometheus `key value`) lines kept. */
export function parseMetrics(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const m = /^([^\s:{]+(?:\{[^}]*\})?)\s*[:\s]\s*(.+)$/.exec(t);
    if (m) out.set(m[1]!, m[2]!.trim());
  }
  return out;
}
