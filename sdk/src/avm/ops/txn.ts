import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import type { ApplyData, EvalContext, InnerTxnResult } from '../context.js';
import type { Instr } from '../program.js';
import type { Transaction } from '../../txn/types.js';
import { EMPTY, asIndex, fromBig, toStackUint } from '../value.js';
import type { StackValue } from '../value.js';
import { appAddress } from '../resources.js';
import { txidBytes } from '../../txn/encode.js';
import { TYPE_ENUM } from './txn-types.js';

const ZERO32 = new Uint8Array(32);
const ZERO64 = new Uint8Array(64);
const enc = new TextEncoder();
const PAGE = 4096;

const TXN_EFFECTS_VERSION = 6;
const INNER_APPS_VERSION = 6;
const EFFECT_FIELDS = new Set(['Logs', 'NumLogs', 'LastLog', 'CreatedAssetID', 'CreatedApplicationID']);
const ARRAY_FIELDS = new Set(['ApplicationArgs', 'Accounts', 'Assets', 'Applications', 'Logs', 'ApprovalProgramPages', 'ClearStateProgramPages']);

type Source = 'group' | 'inner' | 'innerGroup';

const u = (v: bigint | number | undefined): StackValue => (v === undefined ? 0 : toStackUint(v));
const b = (v: Uint8Array | undefined): Uint8Array => v ?? EMPTY;
const a32 = (v: { publicKey: Uint8Array } | undefined): Uint8Array => (v ? v.publicKey : ZERO32);
const bool = (v: boolean | undefined): number => (v ? 1 : 0);

function pages(prog: Uint8Array | undefined, idx: number, name: string): Uint8Array {
  const p = prog ?? EMPTY;
  const count = Math.ceil(p.length / PAGE);
  if (idx >= count) fault(`invalid ${name} index ${idx === Infinity ? 'huge' : idx}`);
  return p.subarray(idx * PAGE, Math.min(p.length, (idx + 1) * PAGE));
}

function currentTxid(cx: EvalContext): Uint8Array {
  return cx.txidOf(cx.groupIndex);
}

/** Reads one transaction field, as `txn`-family opcodes and the field tables define it. */
export function txnField(
  cx: EvalContext,
  txn: Transaction,
  ad: ApplyData | undefined,
  field: string,
  ai: number,
  groupIndex: number,
  source: Source,
  txid: () => Uint8Array,
): StackValue {
  const inner = source !== 'group';
  if (EFFECT_FIELDS.has(field)) {
    if (cx.mode === 'logicsig') fault(`txn[${field}] not allowed in current mode`);
    if (cx.version < TXN_EFFECTS_VERSION && !inner) fault('Unable to obtain effects from top-level transactions');
  }
  if (inner && cx.version < INNER_APPS_VERSION && (field === 'GroupIndex' || field === 'TxID')) {
    fault(`illegal field for inner transaction ${field}`);
  }
  const app = txn.appCall;
  const acfg = txn.assetConfig;
  const par = acfg?.params;
  switch (field) {
    case 'Sender':
      return txn.sender.publicKey;
    case 'Fee':
      return u(txn.fee);
    case 'FirstValid':
      return u(txn.firstValid);
    case 'FirstValidTime': {
      // uint64 arithmetic, as the node: FirstValid 0 asks for round 2^64-1, which is never available.
      const round = (txn.firstValid - 1n) & 0xffffffffffffffffn;
      const hdr = blockHeaderAt(cx, round);
      if (hdr.timestamp < 0n) fault(`block(${round}) timestamp ${hdr.timestamp} < 0`);
      return u(hdr.timestamp);
    }
    case 'LastValid':
      return u(txn.lastValid);
    case 'Note':
      return b(txn.note);
    case 'Lease':
      return txn.lease ?? ZERO32;
    case 'Receiver':
      return a32(txn.payment?.receiver);
    case 'Amount':
      return u(txn.payment?.amount);
    case 'CloseRemainderTo':
      return a32(txn.payment?.closeRemainderTo);
    case 'VotePK':
      return txn.keyreg?.voteKey ?? ZERO32;
    case 'SelectionPK':
      return txn.keyreg?.selectionKey ?? ZERO32;
    case 'StateProofPK':
      return txn.keyreg?.stateProofKey ?? ZERO64;
    case 'VoteFirst':
      return u(txn.keyreg?.voteFirst);
    case 'VoteLast':
      return u(txn.keyreg?.voteLast);
    case 'VoteKeyDilution':
      return u(txn.keyreg?.voteKeyDilution);
    case 'Nonparticipation':
      return bool(txn.keyreg?.nonParticipation);
    case 'Type':
      return enc.encode(txn.type);
    case 'TypeEnum':
      return TYPE_ENUM[txn.type] ?? 0;
    case 'XferAsset':
      return u(txn.assetTransfer?.assetId);
    case 'AssetAmount':
      return u(txn.assetTransfer?.amount);
    case 'AssetSender':
      return a32(txn.assetTransfer?.assetSender);
    case 'AssetReceiver':
      return a32(txn.assetTransfer?.receiver);
    case 'AssetCloseTo':
      return a32(txn.assetTransfer?.closeTo);
    case 'GroupIndex':
      return groupIndex;
    case 'TxID':
      return txid();
    case 'ApplicationID':
      return u(app?.appId);
    case 'OnCompletion':
      return app ? app.onComplete : 0;
    case 'RejectVersion':
      return u(app?.rejectVersion);
    case 'ApplicationArgs': {
      const args = app?.args ?? [];
      if (ai >= args.length) fault(`invalid ApplicationArgs index ${ai}`);
      return args[ai]!;
    }
    case 'NumAppArgs':
      return app?.args.length ?? 0;
    case 'Accounts': {
      if (ai === 0) return txn.sender.publicKey;
      const accts = app?.accounts ?? [];
      if (ai > accts.length) fault(`invalid Accounts index ${ai}`);
      return accts[ai - 1]!.publicKey;
    }
    case 'NumAccounts':
      return app?.accounts.length ?? 0;
    case 'Assets': {
      const list = app?.foreignAssets ?? [];
      if (ai >= list.length) fault(`invalid Assets index ${ai}`);
      return u(list[ai]);
    }
    case 'NumAssets':
      return app?.foreignAssets.length ?? 0;
    case 'Applications': {
      if (ai === 0) return u(app?.appId);
      const list = app?.foreignApps ?? [];
      if (ai > list.length) fault(`invalid Applications index ${ai}`);
      return u(list[ai - 1]);
    }
    case 'NumApplications':
      return app?.foreignApps.length ?? 0;
    case 'GlobalNumUint':
      return app?.globalSchema?.numUints ?? 0;
    case 'GlobalNumByteSlice':
      return app?.globalSchema?.numByteSlices ?? 0;
    case 'LocalNumUint':
      return app?.localSchema?.numUints ?? 0;
    case 'LocalNumByteSlice':
      return app?.localSchema?.numByteSlices ?? 0;
    case 'ApprovalProgram':
      return b(app?.approvalProgram);
    case 'ClearStateProgram':
      return b(app?.clearProgram);
    case 'NumApprovalProgramPages':
      return Math.ceil((app?.approvalProgram?.length ?? 0) / PAGE);
    case 'ApprovalProgramPages':
      return pages(app?.approvalProgram, ai, 'ApprovalProgramPages');
    case 'NumClearStateProgramPages':
      return Math.ceil((app?.clearProgram?.length ?? 0) / PAGE);
    case 'ClearStateProgramPages':
      return pages(app?.clearProgram, ai, 'ClearStateProgramPages');
    case 'RekeyTo':
      return a32(txn.rekeyTo);
    case 'ConfigAsset':
      return u(acfg?.assetId);
    case 'ConfigAssetTotal':
      return u(par?.total);
    case 'ConfigAssetDecimals':
      return par?.decimals ?? 0;
    case 'ConfigAssetDefaultFrozen':
      return bool(par?.defaultFrozen);
    case 'ConfigAssetUnitName':
      return par?.unitName ? enc.encode(par.unitName) : EMPTY;
    case 'ConfigAssetName':
      return par?.assetName ? enc.encode(par.assetName) : EMPTY;
    case 'ConfigAssetURL':
      return par?.url ? enc.encode(par.url) : EMPTY;
    case 'ConfigAssetMetadataHash':
      return par?.metadataHash ?? ZERO32;
    case 'ConfigAssetManager':
      return a32(par?.manager);
    case 'ConfigAssetReserve':
      return a32(par?.reserve);
    case 'ConfigAssetFreeze':
      return a32(par?.freeze);
    case 'ConfigAssetClawback':
      return a32(par?.clawback);
    case 'FreezeAsset':
      return u(txn.assetFreeze?.assetId);
    case 'FreezeAssetAccount':
      return a32(txn.assetFreeze?.account);
    case 'FreezeAssetFrozen':
      return bool(txn.assetFreeze?.frozen);
    case 'ExtraProgramPages':
      return app?.extraPages ?? 0;
    case 'Logs': {
      const logs = ad?.logs ?? [];
      if (ai >= logs.length) fault(`invalid Logs index ${ai}`);
      return logs[ai]!;
    }
    case 'NumLogs':
      return ad?.logs.length ?? 0;
    case 'LastLog': {
      const logs = ad?.logs ?? [];
      return logs.length ? logs[logs.length - 1]! : EMPTY;
    }
    case 'CreatedAssetID':
      return u(ad?.createdAssetId);
    case 'CreatedApplicationID':
      return u(ad?.createdAppId);
    default:
      return fault(`invalid txn field ${field}`);
  }
}

/**
 * The rounds `block` and `txn FirstValidTime` may read, fixed by the running transaction's own
 * validity range (not by the ledger's round): [LastValid - MaxTxnLife - 1, FirstValid - 1], with
 * the node's uint64 wrap-arounds (a window starting at or below 0 starts at 1; FirstValid 0 makes
 * it empty). So a program reads the same blocks whenever, within its validity, it is evaluated.
 */
export function availableRounds(cx: EvalContext): { first: bigint; last: bigint } {
  const M = 0xffffffffffffffffn;
  const fv = cx.txn.firstValid;
  const lv = cx.txn.lastValid;
  let first = (lv - cx.group.limits.maxTxnLife - 1n) & M;
  if (first > lv || first === 0n) first = 1n;
  let last = (fv - 1n) & M;
  if (last > fv) last = 0n;
  return { first, last };
}

export function blockHeaderAt(cx: EvalContext, round: bigint) {
  const range = availableRounds(cx);
  if (round < range.first || round > range.last) {
    fault(`round ${round} is not available. It's outside [${range.first}-${range.last}]`);
  }
  const hdr = cx.ledger.blockHeader(round);
  if (!hdr) fault(`round ${round} is not available`);
  return hdr!;
}

function lastInnerGroup(cx: EvalContext): InnerTxnResult[] {
  return cx.lastInnerGroup;
}

function fetch(cx: EvalContext, ins: Instr, gi: number | bigint, source: Source, ai: number, expectArray: boolean): StackValue {
  const field = ins.field!.name;
  if (ARRAY_FIELDS.has(field) !== expectArray) {
    fault(expectArray ? `unsupported array field ${field}` : `invalid txn field ${field}`);
  }
  if (source === 'group') {
    const g = asIndex(gi);
    if (EFFECT_FIELDS.has(field) && g >= cx.groupIndex) {
      if (cx.mode === 'logicsig') fault(`txn[${field}] not allowed in current mode`);
      fault(`txn effects can only be read from past txns ${gi} ${cx.groupIndex}`);
    }
    if (g >= cx.txnGroup.length) fault(`txn index ${gi}, len(group) is ${cx.txnGroup.length}`);
    return txnField(cx, cx.txnGroup[g]!, cx.adGroup[g], field, ai, g, 'group', () => cx.txidOf(g));
  }
  const group = source === 'inner' ? lastInnerGroup(cx).slice(-1) : lastInnerGroup(cx);
  const g = asIndex(gi);
  if (g >= group.length) fault(`txn index ${gi}, len(group) is ${group.length}`);
  const r = group[g]!;
  return txnField(cx, r.txn, r.ad, field, ai, g, source, () => r.txid);
}

function checkFieldMode(cx: EvalContext, ins: Instr): void {
  if (ins.field && (ins.field.modes & (cx.mode === 'app' ? 2 : 1)) === 0) fault(`txn[${ins.field.name}] not allowed in current mode`);
}

const pushField = (cx: EvalContext, v: StackValue) => {
  cx.stack[cx.sp++] = v;
};

defineOp('txn', (cx, ins) => {
  checkFieldMode(cx, ins);
  pushField(cx, fetch(cx, ins, cx.groupIndex, 'group', 0, false));
});
defineOp('txna', (cx, ins) => {
  checkFieldMode(cx, ins);
  pushField(cx, fetch(cx, ins, cx.groupIndex, 'group', ins.imm[1]!, true));
});
defineOp('txnas', (cx, ins) => {
  checkFieldMode(cx, ins);
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, cx.groupIndex, 'group', asIndex(s[cx.sp - 1] as number), true);
});
defineOp('gtxn', (cx, ins) => {
  checkFieldMode(cx, ins);
  pushField(cx, fetch(cx, ins, ins.imm[0]!, 'group', 0, false));
});
defineOp('gtxna', (cx, ins) => {
  checkFieldMode(cx, ins);
  pushField(cx, fetch(cx, ins, ins.imm[0]!, 'group', ins.imm[2]!, true));
});
defineOp('gtxnas', (cx, ins) => {
  checkFieldMode(cx, ins);
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, ins.imm[0]!, 'group', asIndex(s[cx.sp - 1] as number), true);
});
defineOp('gtxns', (cx, ins) => {
  checkFieldMode(cx, ins);
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, s[cx.sp - 1] as number, 'group', 0, false);
});
defineOp('gtxnsa', (cx, ins) => {
  checkFieldMode(cx, ins);
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, s[cx.sp - 1] as number, 'group', ins.imm[1]!, true);
});
defineOp('gtxnsas', (cx, ins) => {
  checkFieldMode(cx, ins);
  const s = cx.stack;
  const ai = asIndex(s[cx.sp - 1] as number);
  const gi = s[cx.sp - 2] as number;
  cx.sp--;
  s[cx.sp - 1] = fetch(cx, ins, gi, 'group', ai, true);
});
defineOp('itxn', (cx, ins) => pushField(cx, fetch(cx, ins, 0, 'inner', 0, false)));
defineOp('itxna', (cx, ins) => pushField(cx, fetch(cx, ins, 0, 'inner', ins.imm[1]!, true)));
defineOp('itxnas', (cx, ins) => {
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, 0, 'inner', asIndex(s[cx.sp - 1] as number), true);
});
defineOp('gitxn', (cx, ins) => pushField(cx, fetch(cx, ins, ins.imm[0]!, 'innerGroup', 0, false)));
defineOp('gitxna', (cx, ins) => pushField(cx, fetch(cx, ins, ins.imm[0]!, 'innerGroup', ins.imm[2]!, true)));
defineOp('gitxnas', (cx, ins) => {
  const s = cx.stack;
  s[cx.sp - 1] = fetch(cx, ins, ins.imm[0]!, 'innerGroup', asIndex(s[cx.sp - 1] as number), true);
});

// ---- global ----
const globalHandlers: Record<string, (cx: EvalContext) => StackValue> = {
  MinTxnFee: (cx) => u(cx.group.limits.minTxnFee),
  MinBalance: (cx) => u(cx.group.limits.minBalance),
  MaxTxnLife: (cx) => u(cx.group.limits.maxTxnLife),
  ZeroAddress: () => ZERO32,
  GroupSize: (cx) => cx.txnGroup.length,
  LogicSigVersion: (cx) => cx.group.maxVersion,
  Round: (cx) => u(cx.ledger.chain().round),
  LatestTimestamp: (cx) => u(cx.ledger.chain().latestTimestamp),
  CurrentApplicationID: (cx) => u(cx.appId),
  CurrentApplicationAddress: (cx) => appAddress(cx.appId),
  CreatorAddress: (cx) => {
    const p = cx.ledger.appParams(cx.appId);
    if (!p) fault('No params for current app');
    return p!.creator;
  },
  GroupID: (cx) => cx.txn.group ?? ZERO32,
  OpcodeBudget: (cx) => cx.remainingBudget(),
  CallerApplicationID: (cx) => (cx.caller ? u(cx.caller.appId) : 0),
  CallerApplicationAddress: (cx) => (cx.caller ? appAddress(cx.caller.appId) : ZERO32),
  AssetCreateMinBalance: (cx) => u(cx.group.limits.assetCreateMinBalance),
  AssetOptInMinBalance: (cx) => u(cx.group.limits.assetOptInMinBalance),
  GenesisHash: (cx) => cx.ledger.chain().genesisHash,
  PayoutsEnabled: (cx) => bool(cx.ledger.chain().payoutsEnabled),
  PayoutsGoOnlineFee: (cx) => u(cx.ledger.chain().payoutsGoOnlineFee),
  PayoutsPercent: (cx) => u(cx.ledger.chain().payoutsPercent),
  PayoutsMinBalance: (cx) => u(cx.ledger.chain().payoutsMinBalance),
  PayoutsMaxBalance: (cx) => u(cx.ledger.chain().payoutsMaxBalance),
};

defineOp(
  'global',
  (cx, ins) => {
    if ((ins.field!.modes & (cx.mode === 'app' ? 2 : 1)) === 0) fault(`global[${ins.field!.name}] not allowed in current mode`);
    cx.stack[cx.sp++] = (ins.data as (cx: EvalContext) => StackValue)(cx);
  },
  (ins) => {
    ins.data = globalHandlers[ins.field?.name ?? ''] ?? (() => fault(`invalid global field ${ins.field?.name}`));
  },
);

// ---- gaid / gload ----
function gaid(cx: EvalContext, gi: number | bigint, name: string): StackValue {
  const n = cx.txnGroup.length;
  if (gi >= n) fault(`${name} lookup TxnGroup[${gi}] but it only has ${n}`);
  const g = Number(gi);
  if (g > cx.groupIndex) fault(`${name} can't get creatable ID of txn ahead of the current one (index ${g}) in the transaction group`);
  if (g === cx.groupIndex) {
    fault(`${name} is only for accessing creatable IDs of previous txns, use \`global CurrentApplicationID\` instead to access the current app's creatable ID`);
  }
  const t = cx.txnGroup[g]!;
  if (t.type !== 'appl' && t.type !== 'acfg') fault(`can't use ${name} on txn that is not an app call nor an asset config txn with index ${g}`);
  const ad = cx.adGroup[g]!;
  if (ad.createdAssetId) return fromBig(ad.createdAssetId);
  if (ad.createdAppId) return fromBig(ad.createdAppId);
  return fault(`${name}: index ${g} did not create anything`);
}
defineOp('gaid', (cx, ins) => pushField(cx, gaid(cx, ins.imm[0]!, 'gaid')));
defineOp('gaids', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = gaid(cx, s[cx.sp - 1] as number, 'gaids');
});

function gload(cx: EvalContext, gi: number | bigint, slot: number | bigint, name: string): StackValue {
  const n = cx.txnGroup.length;
  if (gi >= n) fault(`${name} lookup TxnGroup[${gi}] but it only has ${n}`);
  if (slot >= 256) fault(`invalid Scratch index ${slot}`);
  const g = Number(gi);
  if (cx.txnGroup[g]!.type !== 'appl') fault(`can't use ${name} on non-app call txn with index ${g}`);
  if (g === cx.groupIndex) fault(`can't use ${name} on self, use load instead`);
  if (g > cx.groupIndex) fault(`${name} can't get future scratch space from txn with index ${g}`);
  const scratch = cx.adGroup[g]!.scratch;
  if (!scratch) fault(`${name} lookup of txn ${g} that did not run a program`);
  return scratch![Number(slot)]!;
}
defineOp('gload', (cx, ins) => pushField(cx, gload(cx, ins.imm[0]!, ins.imm[1]!, 'gload')));
defineOp('gloads', (cx, ins) => {
  const s = cx.stack;
  s[cx.sp - 1] = gload(cx, s[cx.sp - 1] as number, ins.imm[0]!, 'gloads');
});
defineOp('gloadss', (cx) => {
  const s = cx.stack;
  const slot = s[cx.sp - 1] as number;
  const gi = s[cx.sp - 2] as number;
  if (gi >= cx.txnGroup.length) fault(`gloadss lookup TxnGroup[${gi}] but it only has ${cx.txnGroup.length}`);
  if (slot >= 256) fault(`gloadss scratch index >= 256 (${slot})`);
  cx.sp--;
  s[cx.sp - 1] = gload(cx, gi, slot, 'gloadss');
});

export { currentTxid, txidBytes };
