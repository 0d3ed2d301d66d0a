import { Address } from '../../encoding/address.js';
import { encodeMsgpack } from '../../encoding/msgpack.js';
import { encodeTransaction } from '../../txn/encode.js';
import { formatMicroAlgos } from '../../txn/microalgos.js';
import { sha512_256 } from '../../crypto/hash.js';
import type { AppCallFields, Transaction, TransactionType } from '../../txn/types.js';
import { AvmFault, LogicError, fault } from '../errors.js';
import { defineOp } from './registry.js';
import { EvalContext, emptyApplyData } from '../context.js';
import type { ApplyData, InnerDraft, InnerTxnResult } from '../context.js';
import type { Instr } from '../program.js';
import { compileProgram, programVersion } from '../program.js';
import { runProgram } from '../run.js';
import { TraceRecorder } from '../trace.js';
import { EMPTY, big, bytesEq, concat2, itob } from '../value.js';
import type { StackValue } from '../value.js';
import { addrText, appAddress, asAddress, availableAccount, availableApp, availableAsset } from '../resources.js';
import { TYPE_BY_ENUM } from './txn-types.js';
import { checkInnerAllowed } from './inner-allows.js';
import { innerWellFormedError } from '../well-formed.js';
import { feeForUsage, innerGroupUsage } from '../inner-fees.js';
import { USAGE_UNIT } from '../../txn/fees.js';

type U = number | bigint;

/** Minimum version each inner transaction type needs. */
const INNER_TYPES: Record<string, number> = { pay: 5, axfer: 5, acfg: 5, afrz: 5, keyreg: 6, appl: 6 };

function drafts(cx: EvalContext): InnerDraft[] {
  return cx.innerDrafts ?? [];
}
function setDrafts(cx: EvalContext, d: InnerDraft[] | undefined): void {
  cx.innerDrafts = d;
}

function addInner(cx: EvalContext): void {
  const list = drafts(cx);
  const left = cx.group.innersLeft.v;
  if (list.length > left || list.length >= cx.group.limits.maxTxGroupSize) {
    fault(`too many inner transactions ${list.length} with ${left} left`);
  }
  // The default fee never consumes residue or credit: the draft may be dropped or its fee changed.
  const g = cx.group;
  const { usage, paid } = innerGroupUsage(list, g.limits.txnLimits);
  const needed = feeForUsage(g.limits.minTxnFee, usage + USAGE_UNIT, g.feeResidue).fee;
  let fee = 0n;
  if (paid < needed) {
    fee = needed - paid;
    fee = fee > cx.group.feeCredit ? fee - cx.group.feeCredit : 0n;
  }
  list.push({
    sender: appAddress(cx.appId),
    fee,
    firstValid: cx.txn.firstValid,
    lastValid: cx.txn.lastValid,
    amount: 0n,
    voteFirst: 0n,
    voteLast: 0n,
    voteKeyDilution: 0n,
    nonparticipation: false,
    xferAsset: 0n,
    assetAmount: 0n,
    configAsset: 0n,
    total: 0n,
    decimals: 0n,
    defaultFrozen: false,
    freezeAsset: 0n,
    frozen: false,
    appId: 0n,
    onComplete: 0,
    rejectVersion: 0n,
    args: [],
    accounts: [],
    assets: [],
    apps: [],
    globalNumUint: 0,
    globalNumByteSlice: 0,
    localNumUint: 0,
    localNumByteSlice: 0,
    extraPages: 0,
  });
  setDrafts(cx, list);
}

defineOp('itxn_begin', (cx) => {
  if (drafts(cx).length > 0) fault('itxn_begin without itxn_submit');
  if (cx.clearState) fault('clear state programs can not issue inner transactions');
  addInner(cx);
});
defineOp('itxn_next', (cx) => {
  if (drafts(cx).length === 0) fault('itxn_next without itxn_begin');
  addInner(cx);
});

function uintOf(v: StackValue): bigint {
  if (typeof v === 'object') fault(`${JSON.stringify(Array.from(v))} is not a uint64`);
  return big(v as U);
}
function maxed(v: StackValue, max: bigint): bigint {
  const n = uintOf(v);
  if (n > max) fault(`${n} is larger than max=${max}`);
  return n;
}
function boolOf(v: StackValue): boolean {
  const n = uintOf(v);
  if (n > 1n) fault(`boolean is neither 1 nor 0: ${n}`);
  return n === 1n;
}
function bytesOf(v: StackValue, what: string): Uint8Array {
  if (typeof v !== 'object') fault(`${what} is not a byte array`);
  return v as Uint8Array;
}
function stringOf(v: StackValue, max: number): Uint8Array {
  if (typeof v !== 'object') fault('not a byte array');
  if ((v as Uint8Array).length > max) fault('value is too long');
  return v as Uint8Array;
}
function assignAccount(cx: EvalContext, v: StackValue): Uint8Array {
  const a = asAddress(v);
  if (!availableAccount(cx, a)) fault(`unavailable Account ${addrText(a)}`);
  return a;
}
function assignAsset(cx: EvalContext, v: StackValue): bigint {
  const id = uintOf(v);
  if (!availableAsset(cx, id)) fault(`unavailable Asset ${id}`);
  return id;
}
function assignApp(cx: EvalContext, v: StackValue): bigint {
  const id = uintOf(v);
  if (!availableApp(cx, id)) fault(`unavailable App ${id}`);
  return id;
}
function fixed(v: StackValue, n: number, field: string): Uint8Array {
  if (typeof v !== 'object' || v.length !== n) fault(`${field} must be ${n} bytes`);
  return (v as Uint8Array).slice();
}

function setField(cx: EvalContext, d: InnerDraft, field: string, v: StackValue): void {
  const lim = cx.group.limits;
  const c = lim.txnLimits;
  const maxProgram = lim.maxAppProgramLen * (1 + lim.maxExtraAppProgramPages);
  switch (field) {
    case 'Type': {
      // The node's wording for this field lacks the `is` of the others.
      if (typeof v !== 'object') fault('Type arg not a byte array');
      const t = new TextDecoder().decode(v as Uint8Array);
      const ver = INNER_TYPES[t];
      if (ver === undefined || ver > cx.version) fault(`${t} is not a valid Type for itxn_field`);
      d.type = t as TransactionType;
      return;
    }
    case 'TypeEnum': {
      const i = uintOf(v);
      if (i === 0n || i >= BigInt(TYPE_BY_ENUM.length)) fault(`${i} is not a valid TypeEnum`);
      const t = TYPE_BY_ENUM[Number(i)]!;
      const ver = INNER_TYPES[t];
      if (ver === undefined || ver > cx.version) fault(`${t} is not a valid Type for itxn_field`);
      d.type = t as TransactionType;
      return;
    }
    case 'Sender':
      d.sender = assignAccount(cx, v);
      return;
    case 'Fee':
      d.fee = uintOf(v);
      return;
    case 'Note': {
      const b = bytesOf(v, 'Note');
      if (b.length > lim.maxTxnNoteBytes) fault(`Note may not exceed ${lim.maxTxnNoteBytes} bytes`);
      d.note = b;
      return;
    }
    case 'RekeyTo':
      d.rekeyTo = asAddress(v);
      return;
    case 'VotePK':
      d.votePK = fixed(v, 32, field);
      return;
    case 'SelectionPK':
      d.selectionPK = fixed(v, 32, field);
      return;
    case 'StateProofPK':
      d.stateProofPK = fixed(v, 64, field);
      return;
    case 'VoteFirst':
      d.voteFirst = uintOf(v);
      return;
    case 'VoteLast':
      d.voteLast = uintOf(v);
      return;
    case 'VoteKeyDilution':
      d.voteKeyDilution = uintOf(v);
      return;
    case 'Nonparticipation':
      d.nonparticipation = boolOf(v);
      return;
    case 'Receiver':
      d.receiver = assignAccount(cx, v);
      return;
    case 'Amount':
      d.amount = uintOf(v);
      return;
    case 'CloseRemainderTo':
      d.closeRemainderTo = assignAccount(cx, v);
      return;
    case 'XferAsset':
      d.xferAsset = assignAsset(cx, v);
      return;
    case 'AssetAmount':
      d.assetAmount = uintOf(v);
      return;
    case 'AssetSender':
      d.assetSender = assignAccount(cx, v);
      return;
    case 'AssetReceiver':
      d.assetReceiver = assignAccount(cx, v);
      return;
    case 'AssetCloseTo':
      d.assetCloseTo = assignAccount(cx, v);
      return;
    case 'ConfigAsset':
      d.configAsset = assignAsset(cx, v);
      return;
    case 'ConfigAssetTotal':
      d.total = uintOf(v);
      return;
    case 'ConfigAssetDecimals':
      d.decimals = maxed(v, BigInt(c.maxAssetDecimals));
      return;
    case 'ConfigAssetDefaultFrozen':
      d.defaultFrozen = boolOf(v);
      return;
    case 'ConfigAssetUnitName':
      d.unitName = stringOf(v, c.maxAssetUnitNameBytes);
      return;
    case 'ConfigAssetName':
      d.assetName = stringOf(v, c.maxAssetNameBytes);
      return;
    case 'ConfigAssetURL':
      d.url = stringOf(v, c.maxAssetUrlBytes);
      return;
    case 'ConfigAssetMetadataHash':
      d.metadataHash = fixed(v, 32, field);
      return;
    case 'ConfigAssetManager':
      d.manager = asAddress(v);
      return;
    case 'ConfigAssetReserve':
      d.reserve = asAddress(v);
      return;
    case 'ConfigAssetFreeze':
      d.freeze = asAddress(v);
      return;
    case 'ConfigAssetClawback':
      d.clawback = asAddress(v);
      return;
    case 'FreezeAsset':
      d.freezeAsset = assignAsset(cx, v);
      return;
    case 'FreezeAssetAccount':
      d.freezeAccount = assignAccount(cx, v);
      return;
    case 'FreezeAssetFrozen':
      d.frozen = boolOf(v);
      return;
    case 'ApplicationID':
      d.appId = assignApp(cx, v);
      return;
    case 'OnCompletion':
      d.onComplete = Number(maxed(v, 5n));
      return;
    case 'RejectVersion':
      d.rejectVersion = uintOf(v);
      return;
    case 'ApplicationArgs': {
      const b = bytesOf(v, 'ApplicationArg');
      const total = d.args.reduce((s, a) => s + a.length, b.length);
      if (total > lim.maxAppTotalArgLen) fault('total application args length too long');
      if (d.args.length >= lim.maxAppArgs) fault('too many application args');
      d.args.push(b);
      return;
    }
    case 'Accounts': {
      const a = assignAccount(cx, v);
      if (d.accounts.length >= lim.maxAppTxnForeignAccounts) fault('too many foreign accounts');
      d.accounts.push(a);
      return;
    }
    case 'ApprovalProgram':
    case 'ClearStateProgram': {
      const b = bytesOf(v, field);
      if (b.length > maxProgram) fault(`${field} may not exceed ${maxProgram} bytes`);
      if (field === 'ApprovalProgram') d.approval = b;
      else d.clear = b;
      return;
    }
    case 'ApprovalProgramPages':
    case 'ClearStateProgramPages': {
      const b = bytesOf(v, field);
      const key = field === 'ApprovalProgramPages' ? 'approval' : 'clear';
      const next = concat2(d[key] ?? EMPTY, b);
      if (next.length > maxProgram) fault(`${field} may not exceed ${maxProgram} bytes`);
      d[key] = next;
      return;
    }
    case 'Assets': {
      const id = assignAsset(cx, v);
      if (d.assets.length >= lim.maxAppTxnForeignAssets) fault('too many foreign assets');
      d.assets.push(id);
      return;
    }
    case 'Applications': {
      const id = assignApp(cx, v);
      if (d.apps.length >= lim.maxAppTxnForeignApps) fault('too many foreign apps');
      d.apps.push(id);
      return;
    }
    case 'GlobalNumUint':
      d.globalNumUint = Number(maxed(v, BigInt(c.maxGlobalSchemaEntries)));
      return;
    case 'GlobalNumByteSlice':
      d.globalNumByteSlice = Number(maxed(v, BigInt(c.maxGlobalSchemaEntries)));
      return;
    case 'LocalNumUint':
      d.localNumUint = Number(maxed(v, BigInt(c.maxLocalSchemaEntries)));
      return;
    case 'LocalNumByteSlice':
      d.localNumByteSlice = Number(maxed(v, BigInt(c.maxLocalSchemaEntries)));
      return;
    case 'ExtraProgramPages':
      d.extraPages = Number(maxed(v, BigInt(lim.maxExtraAppProgramPages)));
      return;
    default:
      fault(`invalid itxn_field ${field}`);
  }
}

defineOp('itxn_field', (cx: EvalContext, ins: Instr) => {
  const list = drafts(cx);
  if (list.length === 0) fault('itxn_field without itxn_begin');
  const v = cx.stack[--cx.sp]!;
  const f = ins.field!;
  if (f.version > cx.version) fault(`invalid itxn_field ${f.name}`);
  setField(cx, list[list.length - 1]!, f.name, v);
});

const addr = (b: Uint8Array | undefined): Address | undefined => (b && b.some((x) => x !== 0) ? new Address(b) : undefined);
const text = (b: Uint8Array | undefined): string | undefined => (b && b.length ? new TextDecoder().decode(b) : undefined);

/** The typed transaction an inner draft becomes at submit. */
export function buildInner(d: InnerDraft): Transaction {
  if (!d.type) fault('unknown tx type ');
  const t: Transaction = {
    type: d.type!,
    sender: new Address(d.sender),
    fee: d.fee,
    firstValid: d.firstValid,
    lastValid: d.lastValid,
    ...(d.note && d.note.length ? { note: d.note } : {}),
    ...(addr(d.rekeyTo) ? { rekeyTo: addr(d.rekeyTo)! } : {}),
  };
  switch (d.type) {
    case 'pay':
      t.payment = {
        receiver: new Address(d.receiver ?? new Uint8Array(32)),
        amount: d.amount,
        ...(addr(d.closeRemainderTo) ? { closeRemainderTo: addr(d.closeRemainderTo)! } : {}),
      };
      break;
    case 'keyreg':
      t.keyreg = {
        ...(d.votePK ? { voteKey: d.votePK } : {}),
        ...(d.selectionPK ? { selectionKey: d.selectionPK } : {}),
        ...(d.stateProofPK ? { stateProofKey: d.stateProofPK } : {}),
        voteFirst: d.voteFirst,
        voteLast: d.voteLast,
        voteKeyDilution: d.voteKeyDilution,
        nonParticipation: d.nonparticipation,
      };
      break;
    case 'axfer':
      t.assetTransfer = {
        assetId: d.xferAsset,
        amount: d.assetAmount,
        receiver: new Address(d.assetReceiver ?? new Uint8Array(32)),
        ...(addr(d.assetSender) ? { assetSender: addr(d.assetSender)! } : {}),
        ...(addr(d.assetCloseTo) ? { closeTo: addr(d.assetCloseTo)! } : {}),
      };
      break;
    case 'afrz':
      t.assetFreeze = { assetId: d.freezeAsset, account: new Address(d.freezeAccount ?? new Uint8Array(32)), frozen: d.frozen };
      break;
    case 'acfg': {
      const hasParams =
        d.configAsset === 0n ||
        d.total !== 0n ||
        d.decimals !== 0n ||
        d.defaultFrozen ||
        !!text(d.unitName) ||
        !!text(d.assetName) ||
        !!text(d.url) ||
        !!addr(d.metadataHash) ||
        !!addr(d.manager) ||
        !!addr(d.reserve) ||
        !!addr(d.freeze) ||
        !!addr(d.clawback);
      t.assetConfig = {
        assetId: d.configAsset,
        ...(hasParams
          ? {
              params: {
                total: d.total,
                decimals: Number(d.decimals),
                defaultFrozen: d.defaultFrozen,
                ...(text(d.unitName) ? { unitName: text(d.unitName)! } : {}),
                ...(text(d.assetName) ? { assetName: text(d.assetName)! } : {}),
                ...(text(d.url) ? { url: text(d.url)! } : {}),
                ...(addr(d.metadataHash) ? { metadataHash: d.metadataHash! } : {}),
                ...(addr(d.manager) ? { manager: addr(d.manager)! } : {}),
                ...(addr(d.reserve) ? { reserve: addr(d.reserve)! } : {}),
                ...(addr(d.freeze) ? { freeze: addr(d.freeze)! } : {}),
                ...(addr(d.clawback) ? { clawback: addr(d.clawback)! } : {}),
              },
            }
          : {}),
      };
      break;
    }
    case 'appl': {
      const app: AppCallFields = {
        appId: d.appId,
        onComplete: d.onComplete,
        args: d.args,
        accounts: d.accounts.map((a) => new Address(a)),
        foreignApps: d.apps,
        foreignAssets: d.assets,
        boxes: [],
        access: [],
        extraPages: d.extraPages,
        rejectVersion: d.rejectVersion,
        ...(d.approval && d.approval.length ? { approvalProgram: d.approval } : {}),
        ...(d.clear && d.clear.length ? { clearProgram: d.clear } : {}),
        ...(d.globalNumUint || d.globalNumByteSlice ? { globalSchema: { numUints: d.globalNumUint, numByteSlices: d.globalNumByteSlice } } : {}),
        ...(d.localNumUint || d.localNumByteSlice ? { localSchema: { numUints: d.localNumUint, numByteSlices: d.localNumByteSlice } } : {}),
      };
      t.appCall = app;
      break;
    }
  }
  return t;
}

const TX = new TextEncoder().encode('TX');
const TG = new TextEncoder().encode('TG');

/** Inner txid: sha512_256("TX" || parent txid || uint64be(index in the parent's inners) || msgpack(txn)). */
export function innerTxid(parent: Uint8Array, index: number, txn: Transaction): Uint8Array {
  return sha512_256(concat2(concat2(concat2(TX, parent), itob(index)), encodeTransaction(txn)));
}

/** A failure inside an inner transaction, carrying where in the tree it happened. */
export class InnerFailure extends AvmFault {
  constructor(
    message: string,
    readonly path: readonly number[],
    readonly inner: LogicError | undefined,
  ) {
    super(message);
  }
}

/**
 * A same-creator callee that touched family-shared boxes did so on its caller's behalf: the caller
 * now relies on that state too, so the mark moves up one frame per return.
 */
function foldFamilyTouch(cx: EvalContext, inner: EvalContext): void {
  if (!inner.touchedFamilyShared || cx.touchedFamilyShared) return;
  const mine = cx.ledger.appParams(inner.appId)?.creator;
  const theirs = cx.ledger.appParams(cx.appId)?.creator;
  if (mine && theirs && bytesEq(mine, theirs)) cx.touchedFamilyShared = true;
}

function* callerVersions(cx: EvalContext): Iterable<number> {
  for (let c: EvalContext | undefined = cx; c; c = c.caller) yield c.version;
}

function authorizer(cx: EvalContext, sender: Uint8Array): Uint8Array {
  return cx.ledger.account(sender).authAddr ?? sender;
}

function programOf(cx: EvalContext, t: Transaction): Uint8Array {
  const a = t.appCall!;
  if (a.appId === 0n) return a.approvalProgram ?? EMPTY;
  const p = cx.ledger.appParams(a.appId);
  if (!p) fault(`app ${a.appId} does not exist`);
  return a.onComplete === 3 ? p!.clearStateProgram : p!.approvalProgram;
}

defineOp('itxn_submit', (cx) => {
  const list = drafts(cx);
  const g = cx.group;
  if (list.length > g.innersLeft.v || list.length > g.limits.maxTxGroupSize) {
    fault(`too many inner transactions ${list.length} with ${g.innersLeft.v} left`);
  }
  if (list.length === 0) fault('itxn_submit without itxn_begin');
  const { usage, paid } = innerGroupUsage(list, g.limits.txnLimits);
  const charge = feeForUsage(g.limits.minTxnFee, usage, g.feeResidue);
  const needed = charge.fee;
  g.feeResidue = charge.residue;
  if (paid < needed) {
    const shortfall = needed - paid;
    if (g.feeCredit < shortfall) fault(`group fee ${formatMicroAlgos(paid)} too small (needs ${formatMicroAlgos(shortfall - g.feeCredit)} more)`);
    g.feeCredit -= shortfall;
  } else g.feeCredit += paid - needed;

  const txns: Transaction[] = [];
  const parent = cx.txidOf(cx.groupIndex);
  const base = cx.ad.innerTxns.length;
  for (let i = 0; i < list.length; i++) {
    // Every transaction the node performs is well formed first, inner ones included.
    const malformed = innerWellFormedError(list[i]!, g.limits.txnLimits);
    if (malformed !== undefined) fault(malformed);
    const t = buildInner(list[i]!);
    txns.push(t);
    let calleeVersion = 0;
    if (t.type === 'appl') {
      const target = t.appCall!.appId;
      if (target === cx.appId) fault('attempt to self-call');
      let depth = 0;
      for (let p = cx.caller; p; p = p.caller) {
        if (p.appId === target) fault(`attempt to re-enter ${p.appId}`);
        depth++;
      }
      if (depth >= g.limits.maxAppCallDepth) fault(`appl depth (${depth}) exceeded`);
      const ver = programVersion(programOf(cx, t)).version;
      if (ver < g.limits.txnLimits.minInnerApplVersion) fault(`inner app call with version v${ver} < v${g.limits.txnLimits.minInnerApplVersion}`);
      calleeVersion = ver;
      // Opting in commits the account to running the clear-state program later, as an inner too.
      if (t.appCall!.onComplete === 1) {
        const csp = t.appCall!.appId === 0n ? (t.appCall!.clearProgram ?? EMPTY) : cx.ledger.appParams(t.appCall!.appId)!.clearStateProgram;
        const csv = programVersion(csp).version;
        if (csv < g.limits.txnLimits.minInnerApplVersion) fault(`inner app call opt-in with CSP v${csv} < v${g.limits.txnLimits.minInnerApplVersion}`);
      }
    }
    checkInnerAllowed(cx, t, calleeVersion);
  }
  if (txns.length > 1) {
    const ids = txns.map((t, i) => innerTxid(parent, base + i, t));
    const grp = sha512_256(concat2(TG, encodeMsgpack({ txlist: ids })));
    for (const t of txns) t.group = grp;
  }
  const ids = txns.map((t, i) => innerTxid(parent, base + i, t));
  g.innersLeft.v -= txns.length;
  const apps = txns.filter((t) => t.type === 'appl').length;
  g.appPool.v += apps * g.limits.maxAppProgramCost;
  g.appBudgetAdded += apps * g.limits.maxAppProgramCost;

  const ads: ApplyData[] = txns.map(() => emptyApplyData());
  const results: InnerTxnResult[] = [];
  try {
    for (let i = 0; i < txns.length; i++) {
      const t = txns[i]!;
      const spawned = cx.trace?.spawn(base + i, t);
      const auth = authorizer(cx, t.sender.publicKey);
      const me = appAddress(cx.appId);
      if (!bytesEq(auth, me)) fault(`app ${cx.appId} (addr ${addrText(me)}) unauthorized ${addrText(auth)}`);
      const path = [...cx.path, base + i];
      let effects;
      try {
        effects = cx.ledger.applyInner(t, {});
      } catch (e) {
        throw new InnerFailure(`inner tx ${i} failed: ${(e as Error).message}`, path, undefined);
      }
      const ad = ads[i]!;
      if (effects.createdAssetId !== undefined) {
        ad.createdAssetId = effects.createdAssetId;
        g.available.createdAssets.add(effects.createdAssetId);
      }
      if (effects.createdAppId !== undefined) {
        ad.createdAppId = effects.createdAppId;
        g.available.createdApps.add(effects.createdAppId);
      }
      if (effects.closingAmount !== undefined) ad.closingAmount = effects.closingAmount;
      if (t.type === 'appl') {
        const appId = t.appCall!.appId === 0n ? (ad.createdAppId ?? 0n) : t.appCall!.appId;
        const clear = t.appCall!.onComplete === 3;
        const compiled = compileProgram(programOf(cx, t), 'app', g.maxVersion);
        const inner = new EvalContext(compiled, g, i, txns, ads, appId, path, cx, clear, undefined);
        inner.txids = ids;
        if (cx.trace) inner.trace = new TraceRecorder(g.traceOptions);
        if (spawned && inner.trace) cx.trace!.innerProgram(spawned, inner.trace.result(), compiled.bytes);
        g.unnamedPolicy?.beginProgram(inner.version, callerVersions(cx));
        const token = clear ? cx.ledger.checkpoint?.() : undefined;
        let approved = false;
        try {
          approved = runProgram(inner);
        } catch (e) {
          if (!clear) {
            const le = e instanceof LogicError ? e : undefined;
            throw new InnerFailure(`inner tx ${i} failed: ${(e as Error).message}`, le?.groupPath ?? path, le);
          }
          if (token !== undefined) cx.ledger.rollback?.(token);
        }
        foldFamilyTouch(cx, inner);
        ad.scratch = inner.scratch;
        if (!approved && !clear) throw new InnerFailure(`inner tx ${i} failed: transaction rejected by ApprovalProgram`, path, undefined);
        cx.ledger.finishAppCall?.(t, appId);
      }
      results.push({ txn: t, txid: ids[i]!, ad });
    }
  } catch (e) {
    // As the node reports a failed group: the failing inner group is listed under the caller's
    // inner transactions, every member with what it had done when the group stopped.
    for (let j = results.length; j < txns.length; j++) results.push({ txn: txns[j]!, txid: ids[j]!, ad: ads[j]! });
    cx.ad.innerTxns.push(...results);
    throw e;
  }
  cx.ad.innerTxns.push(...results);
  cx.lastInnerGroup = results;
  setDrafts(cx, undefined);
});
