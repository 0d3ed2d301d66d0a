import { encodeAddress } from '../encoding/address.js';
import { bytesEqual, isAllZero, utf8 } from '../encoding/bytes.js';
import type { ConsensusLimits } from '../txn/limits.js';
import { TRANSACTION_TYPES, type Transaction } from '../txn/types.js';
import type { InnerDraft } from './context.js';
import { programVersion } from './program.js';

/**
 * The stateless checks the node applies to every transaction before performing it (its
 * "well-formed" rules), applied here to inner transactions at `itxn_submit`, as the node does.
 * Messages are the node's own wording: tools match on them.
 *
 * The draft is checked rather than the built transaction because a draft carries every field an
 * inner transaction can set, whatever its type, exactly as the node's inner transaction does;
 * fields of another type being set is itself one of the rules.
 *
 * Returns the failure message, or undefined when the transaction is well formed.
 */
export function innerWellFormedError(d: InnerDraft, c: ConsensusLimits, refs: { boxes: number; access: number } = { boxes: 0, access: 0 }): string | undefined {
  const own = typeRules(d, c, refs);
  if (own) return own;
  for (const [type, set] of Object.entries(typeFieldsSet(d))) {
    if (set && type !== d.type) return `transaction of type ${d.type} has non-zero fields for type ${type}`;
  }
  if (d.lastValid < d.firstValid) return `transaction invalid range (${d.firstValid}--${d.lastValid})`;
  if (d.lastValid - d.firstValid > BigInt(c.maxTxnLife)) return `transaction window size excessive (${d.firstValid}--${d.lastValid})`;
  const note = d.note?.length ?? 0;
  if (note > c.maxAbsoluteNoteBytes) return `transaction note too big: ${note} > ${c.maxAbsoluteNoteBytes}`;
  if (isZero(d.sender)) return 'transaction cannot have zero sender';
  return undefined;
}

const isZero = (b: Uint8Array | undefined): boolean => !b || isAllZero(b);
const text = (a: Uint8Array): string => encodeAddress(a);
const schema = (u: number, b: number): string => `{NumUint:${u} NumByteSlice:${b}}`;

/** Which transaction types' fields hold a non-zero value (the node compares each type's field struct with its zero value). */
function typeFieldsSet(d: InnerDraft): Record<string, boolean> {
  return {
    pay: !isZero(d.receiver) || d.amount !== 0n || !isZero(d.closeRemainderTo),
    keyreg:
      !isZero(d.votePK) ||
      !isZero(d.selectionPK) ||
      !isZero(d.stateProofPK) ||
      d.voteFirst !== 0n ||
      d.voteLast !== 0n ||
      d.voteKeyDilution !== 0n ||
      d.nonparticipation,
    acfg:
      d.configAsset !== 0n ||
      d.total !== 0n ||
      d.decimals !== 0n ||
      d.defaultFrozen ||
      (d.unitName?.length ?? 0) > 0 ||
      (d.assetName?.length ?? 0) > 0 ||
      (d.url?.length ?? 0) > 0 ||
      !isZero(d.metadataHash) ||
      !isZero(d.manager) ||
      !isZero(d.reserve) ||
      !isZero(d.freeze) ||
      !isZero(d.clawback),
    axfer: d.xferAsset !== 0n || d.assetAmount !== 0n || !isZero(d.assetSender) || !isZero(d.assetReceiver) || !isZero(d.assetCloseTo),
    afrz: d.freezeAsset !== 0n || !isZero(d.freezeAccount) || d.frozen,
    appl:
      d.appId !== 0n ||
      d.onComplete !== 0 ||
      d.args.length > 0 ||
      d.accounts.length > 0 ||
      d.apps.length > 0 ||
      d.assets.length > 0 ||
      d.globalNumUint !== 0 ||
      d.globalNumByteSlice !== 0 ||
      d.localNumUint !== 0 ||
      d.localNumByteSlice !== 0 ||
      d.approval !== undefined ||
      d.clear !== undefined ||
      d.extraPages !== 0 ||
      d.rejectVersion !== 0n,
  };
}

/** Every field of a transaction in the flat form the rules read (the shape of an inner transaction under construction). */
function flatten(t: Transaction): InnerDraft {
  // Built field by field (no spreads of temporary objects): the ledger runs this for every
  // top-level transaction it evaluates. Absent optional fields stay absent, as before.
  const pay = t.payment;
  const kr = t.keyreg;
  const acfg = t.assetConfig;
  const p = acfg?.params;
  const ax = t.assetTransfer;
  const fz = t.assetFreeze;
  const ap = t.appCall;
  const d = {} as InnerDraft;
  if (TRANSACTION_TYPES.includes(t.type)) d.type = t.type;
  d.sender = t.sender.publicKey;
  d.fee = t.fee;
  d.firstValid = t.firstValid;
  d.lastValid = t.lastValid;
  if (t.note) d.note = t.note;
  if (t.rekeyTo) d.rekeyTo = t.rekeyTo.publicKey;
  if (pay) {
    d.receiver = pay.receiver.publicKey;
    if (pay.closeRemainderTo) d.closeRemainderTo = pay.closeRemainderTo.publicKey;
  }
  d.amount = pay?.amount ?? 0n;
  if (kr?.voteKey) d.votePK = kr.voteKey;
  if (kr?.selectionKey) d.selectionPK = kr.selectionKey;
  if (kr?.stateProofKey) d.stateProofPK = kr.stateProofKey;
  d.voteFirst = kr?.voteFirst ?? 0n;
  d.voteLast = kr?.voteLast ?? 0n;
  d.voteKeyDilution = kr?.voteKeyDilution ?? 0n;
  d.nonparticipation = kr?.nonParticipation ?? false;
  d.xferAsset = ax?.assetId ?? 0n;
  d.assetAmount = ax?.amount ?? 0n;
  if (ax?.assetSender) d.assetSender = ax.assetSender.publicKey;
  if (ax) d.assetReceiver = ax.receiver.publicKey;
  if (ax?.closeTo) d.assetCloseTo = ax.closeTo.publicKey;
  d.configAsset = acfg?.assetId ?? 0n;
  d.total = p?.total ?? 0n;
  d.decimals = BigInt(p?.decimals ?? 0);
  d.defaultFrozen = p?.defaultFrozen ?? false;
  if (p?.unitName !== undefined) d.unitName = utf8(p.unitName);
  if (p?.assetName !== undefined) d.assetName = utf8(p.assetName);
  if (p?.url !== undefined) d.url = utf8(p.url);
  if (p?.metadataHash) d.metadataHash = p.metadataHash;
  if (p?.manager) d.manager = p.manager.publicKey;
  if (p?.reserve) d.reserve = p.reserve.publicKey;
  if (p?.freeze) d.freeze = p.freeze.publicKey;
  if (p?.clawback) d.clawback = p.clawback.publicKey;
  d.freezeAsset = fz?.assetId ?? 0n;
  if (fz) d.freezeAccount = fz.account.publicKey;
  d.frozen = fz?.frozen ?? false;
  d.appId = ap?.appId ?? 0n;
  d.onComplete = ap?.onComplete ?? 0;
  d.rejectVersion = ap?.rejectVersion ?? 0n;
  d.args = ap?.args ?? [];
  const accounts: Uint8Array[] = [];
  if (ap) for (const a of ap.accounts) accounts.push(a.publicKey);
  d.accounts = accounts;
  if (ap?.approvalProgram) d.approval = ap.approvalProgram;
  if (ap?.clearProgram) d.clear = ap.clearProgram;
  d.assets = ap?.foreignAssets ?? [];
  d.apps = ap?.foreignApps ?? [];
  d.globalNumUint = ap?.globalSchema?.numUints ?? 0;
  d.globalNumByteSlice = ap?.globalSchema?.numByteSlices ?? 0;
  d.localNumUint = ap?.localSchema?.numUints ?? 0;
  d.localNumByteSlice = ap?.localSchema?.numByteSlices ?? 0;
  d.extraPages = ap?.extraPages ?? 0;
  return d;
}

/**
 * The node's well-formedness check of a top-level transaction (its messages), for the ledger.
 * State-proof and heartbeat transactions are the network's own and are not checked here.
 */
export function transactionWellFormedError(t: Transaction, c: ConsensusLimits): string | undefined {
  const ap = t.appCall;
  return innerWellFormedError(flatten(t), c, { boxes: ap?.boxes.length ?? 0, access: ap?.access.length ?? 0 });
}

function typeRules(d: InnerDraft, c: ConsensusLimits, refs: { boxes: number; access: number }): string | undefined {
  switch (d.type) {
    case 'pay':
      if (d.closeRemainderTo && !isZero(d.closeRemainderTo) && bytesEqual(d.closeRemainderTo, d.sender)) {
        return `transaction cannot close account to its sender ${text(d.sender)}`;
      }
      return undefined;
    case 'keyreg':
      return keyregRules(d, c);
    case 'acfg': {
      const name = d.assetName?.length ?? 0;
      const unit = d.unitName?.length ?? 0;
      const url = d.url?.length ?? 0;
      if (name > c.maxAssetNameBytes) return `transaction asset name too big: ${name} > ${c.maxAssetNameBytes}`;
      if (unit > c.maxAssetUnitNameBytes) return `transaction asset unit name too big: ${unit} > ${c.maxAssetUnitNameBytes}`;
      if (url > c.maxAssetUrlBytes) return `transaction asset url too big: ${url} > ${c.maxAssetUrlBytes}`;
      if (d.decimals > BigInt(c.maxAssetDecimals)) return `transaction asset decimals is too high (max is ${c.maxAssetDecimals})`;
      return undefined;
    }
    case 'axfer':
      if (d.xferAsset === 0n && d.assetAmount !== 0n) return 'asset ID cannot be zero';
      if (!isZero(d.assetSender) && !isZero(d.assetCloseTo)) return 'cannot close asset by clawback';
      return undefined;
    case 'afrz':
      if (d.freezeAsset === 0n) return 'asset ID cannot be zero';
      if (isZero(d.freezeAccount)) return 'freeze account cannot be empty';
      return undefined;
    case 'appl':
      return appCallRules(d, c, refs);
    default:
      return `unknown tx type ${d.type ?? ''}`;
  }
}

function keyregRules(d: InnerDraft, c: ConsensusLimits): string | undefined {
  const voteEmpty = isZero(d.votePK);
  const selEmpty = isZero(d.selectionPK);
  const spEmpty = isZero(d.stateProofPK);
  if (d.voteFirst > d.voteLast) return 'transaction first voting round need to be less than its last voting round';
  const allClear = voteEmpty && selEmpty && d.voteKeyDilution === 0n;
  const allSet = !voteEmpty && !selEmpty && d.voteKeyDilution !== 0n;
  if (!allClear && !allSet) return 'the following transaction fields need to be clear/set together : votekey, selkey, votekd';
  if (d.voteKeyDilution === 0n) {
    if (d.voteFirst !== 0n || d.voteLast !== 0n) return 'on going offline key registration transaction, the vote first and vote last fields should not be set';
  } else {
    if (d.voteLast === 0n) return 'transaction tries to register keys to go online, but vote last is set to zero';
    if (d.voteFirst > d.lastValid + 1n)
      return 'transaction tries to register keys to go online, but first voting round is beyond the round after last valid round';
  }
  if (d.nonparticipation && !(voteEmpty || selEmpty)) return 'transaction tries to register keys to go online, but nonparticipatory flag is set';
  if (d.voteLast - d.voteFirst > c.maxKeyregVotePeriod) return 'validity period for keyreg transaction is too long';
  if (d.nonparticipation) return spEmpty ? undefined : 'non participation keyreg transactions should contain empty stateProofPK';
  if (voteEmpty || selEmpty) return spEmpty ? undefined : 'offline keyreg transactions should contain empty stateProofPK';
  if (spEmpty) return 'online keyreg transaction cannot have empty field StateProofPK';
  return undefined;
}

/** Programs of version 6 and later must pair an approval and a clear-state program of the same version. */
const SYNC_PROGRAMS_VERSION = 6;

function versionOf(p: Uint8Array | undefined, label: string): number | string {
  try {
    return programVersion(p ?? new Uint8Array(0)).version;
  } catch (e) {
    return `bad ${label}: ${(e as Error).message}`;
  }
}

/**
 * The node's program-size rule for an app with `extraPages` extra pages (its wording), or undefined
 * when both programs fit. Used when a call is checked and again when an update applies, against the
 * app's own pages.
 */
export function programSizeError(approvalLen: number, clearLen: number, extraPages: number, c: ConsensusLimits): string | undefined {
  const pages = 1 + extraPages;
  if (approvalLen > pages * c.programPageSize) return `approval program too long. (${approvalLen} > ${pages * c.programPageSize})`;
  if (clearLen > pages * c.programPageSize) return `clear state program too long. (${clearLen} > ${pages * c.programPageSize})`;
  if (approvalLen + clearLen > pages * c.maxAppTotalProgramLen)
    return `app programs too long. (${approvalLen} + ${clearLen} > ${pages * c.maxAppTotalProgramLen})`;
  return undefined;
}

function appCallRules(d: InnerDraft, c: ConsensusLimits, refs: { boxes: number; access: number }): string | undefined {
  if (d.onComplete < 0 || d.onComplete > 5) return `invalid application OnCompletion (${d.onComplete})`;
  if (d.rejectVersion > 0n && d.appId === 0n) return 'tx.RejectVersion cannot be set during creation';
  const approvalLen = d.approval?.length ?? 0;
  const clearLen = d.clear?.length ?? 0;
  if (d.appId !== 0n && d.onComplete !== 4) {
    if (approvalLen !== 0 || clearLen !== 0) return 'programs may only be specified during application creation or update';
  } else {
    const av = versionOf(d.approval, 'ApprovalProgram');
    if (typeof av === 'string') return av;
    const cv = versionOf(d.clear, 'ClearStateProgram');
    if (typeof cv === 'string') return cv;
    if ((av >= SYNC_PROGRAMS_VERSION || cv >= SYNC_PROGRAMS_VERSION) && av !== cv) return `program version mismatch: ${av} != ${cv}`;
  }
  if (d.extraPages > c.maxAbsoluteExtraProgramPages) return `tx.ExtraProgramPages exceeds MaxAbsoluteExtraProgramPages = ${c.maxAbsoluteExtraProgramPages}`;
  let pagesAllowed = d.extraPages;
  if (d.appId !== 0n) {
    if (d.localNumUint !== 0 || d.localNumByteSlice !== 0) return `inappropriate non-zero tx.LocalStateSchema (${schema(d.localNumUint, d.localNumByteSlice)})`;
    const updatingSizes = d.onComplete === 4 && (d.extraPages !== 0 || d.globalNumUint !== 0 || d.globalNumByteSlice !== 0);
    if (!(c.appSizeUpdates && updatingSizes)) {
      if (d.globalNumUint !== 0 || d.globalNumByteSlice !== 0)
        return `inappropriate non-zero tx.GlobalStateSchema (${schema(d.globalNumUint, d.globalNumByteSlice)})`;
      if (d.extraPages !== 0) return `inappropriate non-zero tx.ExtraProgramPages (${d.extraPages})`;
      // The app's real page count is not known without the ledger: allow the largest programs.
      pagesAllowed = c.maxAbsoluteExtraProgramPages;
    }
  }
  const sized = programSizeError(approvalLen, clearLen, pagesAllowed, c);
  if (sized !== undefined) return sized;
  if (d.args.length > c.maxAppArgs) return `tx.ApplicationArgs has too many arguments. ${d.args.length} > ${c.maxAppArgs}`;
  let argSum = 0;
  for (let i = 0; i < d.args.length; i++) {
    if (d.args[i]!.length > c.maxAppArgLen) return `tx.ApplicationArgs[${i}] length is too long. ${d.args[i]!.length} > ${c.maxAppArgLen}`;
    argSum += d.args[i]!.length;
  }
  if (argSum > c.maxAbsoluteAppTotalArgLen) return `tx.ApplicationArgs total length is too long. ${argSum} > ${c.maxAbsoluteAppTotalArgLen}`;
  if (refs.access > 0) {
    if (refs.access > c.maxAppAccess) return `tx.Access too long, max number of references is ${c.maxAppAccess}`;
    if (d.accounts.length > 0) return "tx.Accounts can't be used when tx.Access is used";
    if (d.apps.length > 0) return "tx.ForeignApps can't be used when tx.Access is used";
    if (d.assets.length > 0) return "tx.ForeignAssets can't be used when tx.Access is used";
    if (refs.boxes > 0) return "tx.Boxes can't be used when tx.Access is used";
  } else {
    if (d.accounts.length > c.maxAppTxnAccounts) return `tx.Accounts too long, max number of accounts is ${c.maxAppTxnAccounts}`;
    if (d.apps.length > c.maxAppTxnForeignApps) return `tx.ForeignApps too long, max number of foreign apps is ${c.maxAppTxnForeignApps}`;
    if (d.assets.length > c.maxAppTxnForeignAssets) return `tx.ForeignAssets too long, max number of foreign assets is ${c.maxAppTxnForeignAssets}`;
    if (refs.boxes > c.maxAppBoxReferences) return `tx.Boxes too long, max number of box references is ${c.maxAppBoxReferences}`;
    if (d.accounts.length + d.apps.length + d.assets.length + refs.boxes > c.maxAppTotalTxnReferences) {
      return `tx references exceed MaxAppTotalTxnReferences = ${c.maxAppTotalTxnReferences}`;
    }
  }
  const local = d.localNumUint + d.localNumByteSlice;
  if (local > c.maxLocalSchemaEntries) return `tx.LocalStateSchema is too large. ${local} > ${c.maxLocalSchemaEntries}`;
  const global = d.globalNumUint + d.globalNumByteSlice;
  if (global > c.maxGlobalSchemaEntries) return `tx.GlobalStateSchema is too large. ${global} > ${c.maxGlobalSchemaEntries}`;
  return undefined;
}
