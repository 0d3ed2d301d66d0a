import { utf8 } from '../encoding/bytes.js';
import { TxnValidationError } from './errors.js';
import { requiredFee } from './fees.js';
import { DEFAULT_LIMITS, type ConsensusLimits } from './limits.js';
import { OnComplete, type AppCallFields, type AssetParams, type KeyRegFields, type SignedTransaction, type Transaction } from './types.js';

function bad(field: string, message: string, value?: unknown, limit?: unknown): never {
  throw new TxnValidationError(field, message, { value, limit });
}

function atMost(field: string, what: string, n: number, limit: number): void {
  if (n > limit) bad(field, `${what} ${n} exceeds the limit of ${limit}`, n, limit);
}

function fixedLength(field: string, b: Uint8Array | undefined, length: number): void {
  if (b !== undefined && b.length !== length) bad(field, `must be ${length} bytes, got ${b.length}`, b.length, length);
}

function byteLength(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return utf8(s).length;
  return s.length;
}

function validateKeyreg(k: KeyRegFields, limits: ConsensusLimits): void {
  fixedLength('keyreg.voteKey', k.voteKey, 32);
  fixedLength('keyreg.selectionKey', k.selectionKey, 32);
  fixedLength('keyreg.stateProofKey', k.stateProofKey, 64);
  const anyOnline = k.voteKey || k.selectionKey || k.stateProofKey || k.voteFirst || k.voteLast || k.voteKeyDilution;
  if (k.nonParticipation && anyOnline) bad('keyreg.nonParticipation', 'a non-participating registration cannot carry participation keys or vote rounds', true);
  if (!k.nonParticipation && anyOnline) {
    if (!k.voteKey) bad('keyreg.voteKey', 'online registration needs a vote key');
    if (!k.selectionKey) bad('keyreg.selectionKey', 'online registration needs a selection key');
    if (k.voteLast < k.voteFirst) bad('keyreg.voteLast', `vote last ${k.voteLast} is before vote first ${k.voteFirst}`, k.voteLast, k.voteFirst);
    const period = k.voteLast - k.voteFirst;
    if (period > limits.maxKeyregVotePeriod)
      bad('keyreg.voteLast', `vote period ${period} exceeds the limit of ${limits.maxKeyregVotePeriod} rounds`, period, limits.maxKeyregVotePeriod);
  }
}

function validateAssetParams(p: AssetParams, limits: ConsensusLimits): void {
  if (p.assetName !== undefined) atMost('assetConfig.params.assetName', 'asset name length', byteLength(p.assetName), limits.maxAssetNameBytes);
  if (p.unitName !== undefined) atMost('assetConfig.params.unitName', 'unit name length', byteLength(p.unitName), limits.maxAssetUnitNameBytes);
  if (p.url !== undefined) atMost('assetConfig.params.url', 'URL length', byteLength(p.url), limits.maxAssetUrlBytes);
  atMost('assetConfig.params.decimals', 'decimals', p.decimals, limits.maxAssetDecimals);
  fixedLength('assetConfig.params.metadataHash', p.metadataHash, 32);
}

function validateAppCall(app: AppCallFields, limits: ConsensusLimits): void {
  atMost('appCall.args', 'number of app args', app.args.length, limits.maxAppArgs);
  let total = 0;
  app.args.forEach((a, i) => {
    atMost(`appCall.args[${i}]`, 'app arg length', a.length, limits.maxAppArgLen);
    total += a.length;
  });
  atMost('appCall.args', 'total app arg length', total, limits.maxAbsoluteAppTotalArgLen);
  atMost('appCall.accounts', 'number of accounts', app.accounts.length, limits.maxAppTxnAccounts);
  atMost('appCall.foreignApps', 'number of foreign apps', app.foreignApps.length, limits.maxAppTxnForeignApps);
  atMost('appCall.foreignAssets', 'number of foreign assets', app.foreignAssets.length, limits.maxAppTxnForeignAssets);
  atMost('appCall.boxes', 'number of box references', app.boxes.length, limits.maxAppBoxReferences);
  const refs = app.accounts.length + app.foreignApps.length + app.foreignAssets.length + app.boxes.length;
  atMost('appCall', 'total of accounts, foreign apps, foreign assets and boxes', refs, limits.maxAppTotalTxnReferences);
  app.boxes.forEach((b, i) => {
    atMost(`appCall.boxes[${i}].name`, 'box name length', b.name.length, limits.maxBoxNameBytes);
    if (b.appId !== 0n && b.appId !== app.appId && !app.foreignApps.includes(b.appId)) {
      bad(`appCall.boxes[${i}].appId`, `app ${b.appId} is neither the called app nor listed in foreignApps`, b.appId);
    }
  });
  if (app.access.length) {
    if (refs > 0) {
      const which = [
        app.accounts.length && 'accounts',
        app.foreignApps.length && 'foreignApps',
        app.foreignAssets.length && 'foreignAssets',
        app.boxes.length && 'boxes',
      ]
        .filter(Boolean)
        .join(', ');
      bad('appCall.access', `the access list cannot be combined with ${which}`, which);
    }
    atMost('appCall.access', 'access list length', app.access.length, limits.maxAppAccess);
    const n = app.access.length;
    const kindAt = (i: number): string | undefined => (i >= 1 && i <= n ? app.access[i - 1]!.kind : undefined);
    const checkIndex = (field: string, index: number, kind: string): void => {
      if (index === 0) return;
      if (kindAt(index) !== kind) bad(field, `index ${index} does not point at an ${kind} entry of the access list`, index, n);
    };
    app.access.forEach((r, i) => {
      const at = `appCall.access[${i}]`;
      if (r.kind === 'holding') {
        checkIndex(`${at}.addressIndex`, r.addressIndex, 'address');
        if (r.assetIndex === 0) bad(`${at}.assetIndex`, 'a holding needs an asset', 0);
        checkIndex(`${at}.assetIndex`, r.assetIndex, 'asset');
      } else if (r.kind === 'locals') {
        checkIndex(`${at}.addressIndex`, r.addressIndex, 'address');
        checkIndex(`${at}.appIndex`, r.appIndex, 'app');
      } else if (r.kind === 'box') {
        checkIndex(`${at}.appIndex`, r.appIndex, 'app');
        atMost(`${at}.name`, 'box name length', r.name.length, limits.maxBoxNameBytes);
      }
    });
  }
  if (app.globalSchema) {
    atMost('appCall.globalSchema', 'global schema entries', app.globalSchema.numUints + app.globalSchema.numByteSlices, limits.maxGlobalSchemaEntries);
  }
  if (app.localSchema) {
    atMost('appCall.localSchema', 'local schema entries', app.localSchema.numUints + app.localSchema.numByteSlices, limits.maxLocalSchemaEntries);
  }
  atMost('appCall.extraPages', 'extra pages', app.extraPages, limits.maxAbsoluteExtraProgramPages);
  if (app.appId !== 0n) {
    if (app.globalSchema || app.localSchema) bad('appCall.globalSchema', 'state schemas can only be set when creating an app', app.appId);
    if (app.extraPages) bad('appCall.extraPages', 'extra pages can only be set when creating an app', app.extraPages);
  }
  // An update cannot know the app's own extra pages here (they live in the ledger): like the node,
  // allow the largest programs and leave the exact check to the ledger when the update applies.
  const pages = 1 + (app.appId !== 0n ? limits.maxAbsoluteExtraProgramPages : app.extraPages);
  const maxLen = pages * limits.programPageSize;
  const approval = app.approvalProgram?.length ?? 0;
  const clear = app.clearProgram?.length ?? 0;
  atMost('appCall.approvalProgram', 'approval program length', approval, maxLen);
  atMost('appCall.clearProgram', 'clear program length', clear, maxLen);
  atMost('appCall', 'approval + clear program length', approval + clear, maxLen);
  if ((approval || clear) && app.appId !== 0n && app.onComplete !== OnComplete.UpdateApplication) {
    bad('appCall.approvalProgram', 'programs can only be given when creating or updating an app', app.onComplete);
  }
}

/** Validation options: the limits, and whether the fee must reach the minimum. */
export interface ValidateOptions {
  limits?: ConsensusLimits;
  /** Also require the transaction alone to pay the minimum fee (off by default: groups pool fees). */
  requireMinFee?: boolean;
}

/** Throws a TxnValidationError naming the first field that breaks a protocol rule. */
export function validateTransaction(txn: Transaction, options: ValidateOptions = {}): void {
  const limits = options.limits ?? DEFAULT_LIMITS;
  if (txn.lastValid < txn.firstValid)
    bad('lastValid', `last valid round ${txn.lastValid} is before first valid round ${txn.firstValid}`, txn.lastValid, txn.firstValid);
  const life = txn.lastValid - txn.firstValid;
  if (life > BigInt(limits.maxTxnLife))
    bad('lastValid', `validity window of ${life} rounds exceeds the limit of ${limits.maxTxnLife}`, life, limits.maxTxnLife);
  if (txn.note) atMost('note', 'note length', txn.note.length, limits.maxAbsoluteNoteBytes);
  fixedLength('genesisHash', txn.genesisHash, 32);
  fixedLength('group', txn.group, 32);
  fixedLength('lease', txn.lease, 32);
  const present = [
    txn.payment && 'pay',
    txn.keyreg && 'keyreg',
    txn.assetConfig && 'acfg',
    txn.assetTransfer && 'axfer',
    txn.assetFreeze && 'afrz',
    txn.appCall && 'appl',
    txn.stateProof && 'stpf',
    txn.heartbeat && 'hb',
  ].filter(Boolean);
  if (present.length !== 1 || present[0] !== txn.type)
    bad('type', `type is ${txn.type} but the fields present are for ${present.join(', ') || 'no type'}`, txn.type);
  if (txn.keyreg) validateKeyreg(txn.keyreg, limits);
  if (txn.assetConfig?.params) validateAssetParams(txn.assetConfig.params, limits);
  if (txn.appCall) validateAppCall(txn.appCall, limits);
  if (options.requireMinFee) {
    const need = requiredFee(txn, limits);
    if (txn.fee < need) bad('fee', `fee ${txn.fee} is below the minimum of ${need}`, txn.fee, need);
  }
}

/** Group-level rules: size, consistent group ids, and that the fees together cover the group. */
export function validateGroup(group: readonly (Transaction | SignedTransaction)[], options: { limits?: ConsensusLimits } = {}): void {
  const limits = options.limits ?? DEFAULT_LIMITS;
  if (group.length === 0) bad('group', 'a group needs at least one transaction', 0);
  atMost('group', 'group size', group.length, limits.maxTxGroupSize);
  const txns = group.map((x) => ('txn' in x && (x as SignedTransaction).txn ? (x as SignedTransaction).txn : (x as Transaction)));
  txns.forEach((t, i) => {
    try {
      validateTransaction(t, { limits });
    } catch (e) {
      if (!(e instanceof TxnValidationError)) throw e;
      // Re-point the error at the transaction's position in the group.
      throw new TxnValidationError(`group[${i}].${e.field}`, e.message.slice(e.field.length + 2), { value: e.value, limit: e.limit });
    }
  });
  let total = 0n;
  for (const t of txns) total += t.fee;
  const need = requiredFee(group, limits);
  if (total < need) bad('fee', `group fees ${total} are below the minimum of ${need}`, total, need);
}
