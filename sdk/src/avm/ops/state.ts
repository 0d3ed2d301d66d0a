import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import type { EvalContext } from '../context.js';
import type { Instr } from '../program.js';
import type { TealValue } from '../ledger-view.js';
import { EMPTY, big, fromBig, goHex, hexOf } from '../value.js';
import type { StackValue } from '../value.js';
import {
  accountReference,
  addrText,
  appAddress,
  appReference,
  assetReference,
  holdingReference,
  localsReference,
  mutableAccountReference,
  SHARED_RESOURCES_VERSION,
  availableAccount,
} from '../resources.js';
import { blockHeaderAt } from './txn.js';

type U = number | bigint;
const ZERO32 = new Uint8Array(32);

const toStack = (v: TealValue | undefined): StackValue => (v === undefined ? 0 : typeof v === 'bigint' ? fromBig(v) : v);
const toTeal = (v: StackValue): TealValue => (typeof v === 'object' ? v : big(v));
const sameTeal = (a: TealValue | undefined, b: TealValue): boolean =>
  a !== undefined && (typeof a === 'bigint' ? a === b : typeof b === 'object' && hexOf(a) === hexOf(b));

function pushBool(cx: EvalContext, v: boolean): void {
  cx.stack[cx.sp++] = v ? 1 : 0;
}

defineOp('balance', (cx) => {
  const s = cx.stack;
  const { addr } = accountReference(cx, s[cx.sp - 1]!);
  s[cx.sp - 1] = fromBig(cx.ledger.account(addr).balance);
});
defineOp('min_balance', (cx) => {
  const s = cx.stack;
  const { addr } = accountReference(cx, s[cx.sp - 1]!);
  s[cx.sp - 1] = fromBig(cx.ledger.minBalance(addr));
});

function requireOptedIn(cx: EvalContext, addr: Uint8Array, app: bigint): void {
  if (!cx.ledger.optedIn(addr, app)) fault(`${addrText(addr)} has not opted in to app ${app}`);
}

defineOp('app_opted_in', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const { addr, app } = localsReference(cx, s[sp - 1]!, big(s[sp] as U));
  s[sp - 1] = cx.ledger.optedIn(addr, app) ? 1 : 0;
});

function localGet(cx: EvalContext, acct: StackValue, app: bigint, key: Uint8Array): TealValue | undefined {
  const r = localsReference(cx, acct, app);
  requireOptedIn(cx, r.addr, r.app);
  return cx.ledger.getLocal(r.addr, r.app, key);
}

defineOp('app_local_get', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  s[sp - 1] = toStack(localGet(cx, s[sp - 1]!, 0n, s[sp] as Uint8Array));
});
defineOp('app_local_get_ex', (cx) => {
  const s = cx.stack;
  const sp = --cx.sp;
  const v = localGet(cx, s[sp - 2]!, big(s[sp - 1] as U), s[sp] as Uint8Array);
  s[sp - 2] = toStack(v);
  s[sp - 1] = v === undefined ? 0 : 1;
});

function globalGet(cx: EvalContext, ref: bigint, key: Uint8Array): TealValue | undefined {
  const app = appReference(cx, ref, true);
  // The node looks up the app's creator first: reading an app that does not exist fails.
  if (!cx.ledger.appParams(app)) fault(`app ${app} does not exist`);
  return cx.ledger.getGlobal(app, key);
}
defineOp('app_global_get', (cx) => {
  const s = cx.stack;
  s[cx.sp - 1] = toStack(globalGet(cx, 0n, s[cx.sp - 1] as Uint8Array));
});
defineOp('app_global_get_ex', (cx) => {
  const s = cx.stack;
  const v = globalGet(cx, big(s[cx.sp - 2] as U), s[cx.sp - 1] as Uint8Array);
  s[cx.sp - 2] = toStack(v);
  s[cx.sp - 1] = v === undefined ? 0 : 1;
});

function checkKeyValue(cx: EvalContext, key: Uint8Array, tv: TealValue): void {
  const lim = cx.group.limits;
  if (typeof tv === 'object') {
    if (tv.length > lim.maxAppBytesValueLen) fault(`value too long for key ${goHex(key)}: length was ${tv.length}`);
    const sum = key.length + tv.length;
    if (sum > lim.maxAppSumKeyValueLens) fault(`key/value total too long for key ${goHex(key)}: sum was ${sum}`);
  }
}
function checkKeyLen(cx: EvalContext, key: Uint8Array): void {
  if (key.length > cx.group.limits.maxAppKeyLen) fault(`key too long: length was ${key.length}, maximum is ${cx.group.limits.maxAppKeyLen}`);
}

/** The node's ledger refuses a write that takes an app's state beyond its declared schema. */
function checkSchema(counts: { uints: number; bytes: number } | undefined, maxUints: bigint, maxBytes: bigint): void {
  if (!counts) return;
  if (BigInt(counts.uints) > maxUints) fault(`store integer count ${counts.uints} exceeds schema integer count ${maxUints}`);
  if (BigInt(counts.bytes) > maxBytes) fault(`store bytes count ${counts.bytes} exceeds schema bytes count ${maxBytes}`);
}

function recordLocal(cx: EvalContext, addr: Uint8Array, key: Uint8Array, delta: { action: 'set' | 'delete'; value?: TealValue }): void {
  const k = hexOf(addr);
  let entry = cx.ad.localDeltas.get(k);
  if (!entry) cx.ad.localDeltas.set(k, (entry = { address: addr, keys: new Map() }));
  entry.keys.set(hexOf(key), { key, delta });
}

defineOp('app_global_put', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const key = s[sp - 2] as Uint8Array;
  const tv = toTeal(s[sp - 1]!);
  checkKeyLen(cx, key);
  const old = cx.ledger.getGlobal(cx.appId, key);
  if (!sameTeal(old, tv)) cx.ad.globalDelta.set(hexOf(key), { key, delta: { action: 'set', value: tv } });
  checkKeyValue(cx, key, tv);
  cx.ledger.setGlobal(cx.appId, key, tv);
  const gp = cx.ledger.appParams(cx.appId);
  if (gp) checkSchema(cx.ledger.countGlobal?.(cx.appId), gp.globalNumUint, gp.globalNumByteSlice);
  cx.sp = sp - 2;
});
defineOp('app_global_del', (cx) => {
  const s = cx.stack;
  const key = s[cx.sp - 1] as Uint8Array;
  if (cx.ledger.getGlobal(cx.appId, key) !== undefined) cx.ad.globalDelta.set(hexOf(key), { key, delta: { action: 'delete' } });
  cx.ledger.delGlobal(cx.appId, key);
  cx.sp--;
});
defineOp('app_local_put', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const key = s[sp - 2] as Uint8Array;
  const tv = toTeal(s[sp - 1]!);
  checkKeyLen(cx, key);
  const { addr } = mutableAccountReference(cx, s[sp - 3]!);
  if (cx.version >= SHARED_RESOURCES_VERSION) localsReference(cx, addr, cx.appId);
  requireOptedIn(cx, addr, cx.appId);
  const old = cx.ledger.getLocal(addr, cx.appId, key);
  if (!sameTeal(old, tv)) recordLocal(cx, addr, key, { action: 'set', value: tv });
  checkKeyValue(cx, key, tv);
  cx.ledger.setLocal(addr, cx.appId, key, tv);
  const lp = cx.ledger.appParams(cx.appId);
  if (lp) checkSchema(cx.ledger.countLocal?.(addr, cx.appId), lp.localNumUint, lp.localNumByteSlice);
  cx.sp = sp - 3;
});
defineOp('app_local_del', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const key = s[sp - 1] as Uint8Array;
  const { addr } = mutableAccountReference(cx, s[sp - 2]!);
  if (cx.version >= SHARED_RESOURCES_VERSION) localsReference(cx, addr, cx.appId);
  requireOptedIn(cx, addr, cx.appId);
  if (cx.ledger.getLocal(addr, cx.appId, key) !== undefined) recordLocal(cx, addr, key, { action: 'delete' });
  cx.ledger.delLocal(addr, cx.appId, key);
  cx.sp = sp - 2;
});

// ---- asset / app / account parameters ----
defineOp('asset_holding_get', (cx, ins) => {
  const s = cx.stack;
  const sp = cx.sp;
  const { addr, asset } = holdingReference(cx, s[sp - 2]!, big(s[sp - 1] as U));
  const h = cx.ledger.assetHolding(addr, asset);
  const f = ins.field!.name;
  s[sp - 2] = h ? (f === 'AssetBalance' ? fromBig(h.amount) : h.frozen ? 1 : 0) : 0;
  s[sp - 1] = h ? 1 : 0;
});

const enc = (v: Uint8Array | undefined) => v ?? EMPTY;
defineOp('asset_params_get', (cx, ins) => {
  const s = cx.stack;
  const id = assetReference(cx, big(s[cx.sp - 1] as U), true);
  const p = cx.ledger.assetParams(id);
  let v: StackValue = 0;
  if (p) {
    switch (ins.field!.name) {
      case 'AssetTotal':
        v = fromBig(p.total);
        break;
      case 'AssetDecimals':
        v = fromBig(p.decimals);
        break;
      case 'AssetDefaultFrozen':
        v = p.defaultFrozen ? 1 : 0;
        break;
      case 'AssetUnitName':
        v = enc(p.unitName);
        break;
      case 'AssetName':
        v = enc(p.name);
        break;
      case 'AssetURL':
        v = enc(p.url);
        break;
      case 'AssetMetadataHash':
        v = p.metadataHash;
        break;
      case 'AssetManager':
        v = p.manager;
        break;
      case 'AssetReserve':
        v = p.reserve;
        break;
      case 'AssetFreeze':
        v = p.freeze;
        break;
      case 'AssetClawback':
        v = p.clawback;
        break;
      case 'AssetCreator':
        v = p.creator;
        break;
      default:
        fault(`invalid asset_params_get field ${ins.field!.value}`);
    }
  }
  s[cx.sp - 1] = v;
  pushBool(cx, !!p);
});

defineOp('app_params_get', (cx, ins) => {
  const s = cx.stack;
  const id = appReference(cx, big(s[cx.sp - 1] as U), true);
  const p = cx.ledger.appParams(id);
  let v: StackValue = 0;
  if (p) {
    switch (ins.field!.name) {
      case 'AppApprovalProgram':
        v = p.approvalProgram;
        break;
      case 'AppClearStateProgram':
        v = p.clearStateProgram;
        break;
      case 'AppGlobalNumUint':
        v = fromBig(p.globalNumUint);
        break;
      case 'AppGlobalNumByteSlice':
        v = fromBig(p.globalNumByteSlice);
        break;
      case 'AppLocalNumUint':
        v = fromBig(p.localNumUint);
        break;
      case 'AppLocalNumByteSlice':
        v = fromBig(p.localNumByteSlice);
        break;
      case 'AppExtraProgramPages':
        v = fromBig(p.extraProgramPages);
        break;
      case 'AppCreator':
        v = p.creator;
        break;
      case 'AppAddress':
        v = appAddress(id);
        break;
      case 'AppVersion':
        v = fromBig(p.version);
        break;
      case 'AppSizeSponsor':
        v = p.sizeSponsor ?? ZERO32;
        break;
      case 'AppForeignBoxReads':
        v = p.foreignBoxReads ? 1 : 0;
        break;
      case 'AppFamilyBoxAccess':
        v = p.familyBoxAccess ? 1 : 0;
        break;
      default:
        fault(`invalid app_params_get field ${ins.field!.value}`);
    }
  }
  s[cx.sp - 1] = v;
  pushBool(cx, !!p);
});

defineOp('app_params_set', (cx, ins) => {
  const v = cx.stack[--cx.sp] as U;
  const name = ins.field!.name;
  if (name !== 'AppForeignBoxReads' && name !== 'AppFamilyBoxAccess') fault(`immutable app_params_set field ${name}`);
  if (!cx.ledger.setAppParamFlag) fault('not supported by this interpreter: app_params_set (ledger cannot store the flag)');
  cx.ledger.setAppParamFlag!(cx.appId, name === 'AppForeignBoxReads' ? 'foreignBoxReads' : 'familyBoxAccess', v !== 0);
});

defineOp('acct_params_get', (cx, ins) => {
  const s = cx.stack;
  const { addr } = accountReference(cx, s[cx.sp - 1]!);
  const a = cx.ledger.account(addr);
  let v: StackValue;
  switch (ins.field!.name) {
    case 'AcctBalance':
      v = fromBig(a.balance);
      break;
    case 'AcctMinBalance':
      v = fromBig(cx.ledger.minBalance(addr));
      break;
    case 'AcctAuthAddr':
      v = a.authAddr ?? ZERO32;
      break;
    case 'AcctTotalNumUint':
      v = fromBig(a.totalNumUint);
      break;
    case 'AcctTotalNumByteSlice':
      v = fromBig(a.totalNumByteSlice);
      break;
    case 'AcctTotalExtraAppPages':
      v = fromBig(a.totalExtraAppPages);
      break;
    case 'AcctTotalAppsCreated':
      v = fromBig(a.totalAppsCreated);
      break;
    case 'AcctTotalAppsOptedIn':
      v = fromBig(a.totalAppsOptedIn);
      break;
    case 'AcctTotalAssetsCreated':
      v = fromBig(a.totalAssetsCreated);
      break;
    case 'AcctTotalAssets':
      v = fromBig(a.totalAssets);
      break;
    case 'AcctTotalBoxes':
      v = fromBig(a.totalBoxes);
      break;
    case 'AcctTotalBoxBytes':
      v = fromBig(a.totalBoxBytes);
      break;
    case 'AcctIncentiveEligible':
      v = a.incentiveEligible ? 1 : 0;
      break;
    case 'AcctLastProposed':
      v = fromBig(a.lastProposed);
      break;
    case 'AcctLastHeartbeat':
      v = fromBig(a.lastHeartbeat);
      break;
    default:
      return fault(`invalid account field ${ins.field!.name}`);
  }
  s[cx.sp - 1] = v;
  pushBool(cx, a.balance > 0n);
});

defineOp('voter_params_get', (cx, ins) => {
  const s = cx.stack;
  const { addr } = accountReference(cx, s[cx.sp - 1]!);
  if (!cx.ledger.voter) fault('not supported by this interpreter: voter_params_get (ledger has no voter data)');
  const r = cx.ledger.voter!(addr, cx.ledger.chain().round) ?? { balance: 0n, incentiveEligible: false };
  s[cx.sp - 1] = ins.field!.name === 'VoterBalance' ? fromBig(r.balance) : r.incentiveEligible ? 1 : 0;
  pushBool(cx, r.balance > 0n);
});

defineOp('online_stake', (cx) => {
  if (!cx.ledger.onlineStake) fault('not supported by this interpreter: online_stake (ledger has no online stake)');
  cx.stack[cx.sp++] = fromBig(cx.ledger.onlineStake!());
});

defineOp('block', (cx: EvalContext, ins: Instr) => {
  const s = cx.stack;
  const round = big(s[cx.sp - 1] as U);
  const h = blockHeaderAt(cx, round);
  let v: StackValue;
  switch (ins.field!.name) {
    case 'BlkSeed':
      v = h.seed;
      break;
    case 'BlkTimestamp':
      if (h.timestamp < 0n) fault(`block(${round}) timestamp ${h.timestamp} < 0`);
      v = fromBig(h.timestamp);
      break;
    case 'BlkProposer':
      v = h.proposer;
      break;
    case 'BlkFeesCollected':
      v = fromBig(h.feesCollected);
      break;
    case 'BlkBonus':
      v = fromBig(h.bonus);
      break;
    case 'BlkBranch':
      v = h.branch;
      break;
    case 'BlkFeeSink':
      v = h.feeSink;
      break;
    case 'BlkProtocol':
      v = h.protocol;
      break;
    case 'BlkTxnCounter':
      v = fromBig(h.txnCounter);
      break;
    case 'BlkProposerPayout':
      v = fromBig(h.proposerPayout);
      break;
    case 'BlkBranch512':
      v = h.branch512 ?? new Uint8Array(64);
      break;
    case 'BlkSha512_256TxnCommitment':
      v = h.sha512_256TxnCommitment ?? ZERO32;
      break;
    case 'BlkSha256TxnCommitment':
      v = h.sha256TxnCommitment ?? ZERO32;
      break;
    case 'BlkSha512TxnCommitment':
      v = h.sha512TxnCommitment ?? new Uint8Array(64);
      break;
    default:
      return fault(`invalid block field ${ins.field!.name}`);
  }
  s[cx.sp - 1] = v;
});

defineOp('log', (cx) => {
  const logs = cx.ad.logs;
  if (logs.length >= cx.group.maxLogCalls) fault(`too many log calls in program. up to ${cx.group.maxLogCalls} is allowed`);
  const v = cx.stack[cx.sp - 1] as Uint8Array;
  cx.logSize += v.length;
  if (cx.logSize > cx.group.maxLogSize) fault(`program logs too large. ${cx.logSize} bytes >  ${cx.group.maxLogSize} bytes limit`);
  logs.push(v);
  cx.sp--;
});

export { availableAccount };
