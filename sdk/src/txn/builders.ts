import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import { fromBase64 } from '../encoding/base64.js';
import { isAllZero, utf8 } from '../encoding/bytes.js';
import { TxnValidationError } from './errors.js';
import { estimateSignedSize, feeForSize, requiredFee } from './fees.js';
import { DEFAULT_LIMITS, type ConsensusLimits } from './limits.js';
import {
  OnComplete,
  type AppCallFields,
  type AssetParams,
  type BoxReference,
  type KeyRegFields,
  type ResourceRef,
  type StateSchema,
  type Transaction,
  type TransactionType,
} from './types.js';
import { validateTransaction } from './validate.js';
import { buildAccessList, type AccessReference } from './access.js';

/**
 * Builders take one parameter object per transaction (field names follow algosdk v3 / AlgoKit)
 * and return a validated, normalised {@link Transaction}: zero-valued optional fields are left
 * out exactly as decoding leaves them out, so `decode(encode(t))` deep-equals `t`.
 */

export type Uint64Like = bigint | number;
/** Bytes, or text encoded as UTF-8. */
export type BytesLike = Uint8Array | string;

/** What a node's `/v2/transactions/params` gives, in the form the builders want. */
export interface SuggestedParams {
  /** Per-byte fee, or the flat fee when `flatFee` is true. */
  fee: Uint64Like;
  flatFee?: boolean;
  /** Floor for per-byte fees (default: the limits' minimum fee). */
  minFee?: Uint64Like;
  firstValid: Uint64Like;
  lastValid: Uint64Like;
  genesisId?: string;
  /** 32 bytes, or their base64 text. */
  genesisHash?: Uint8Array | string;
}

/** Fields every transaction takes: sender, suggested parameters, note, lease, rekey target; and the limits to validate against. */
export interface CommonParams {
  sender: AddressLike;
  suggestedParams: SuggestedParams;
  /** Bytes, or text encoded as UTF-8. */
  note?: BytesLike;
  lease?: Uint8Array;
  rekeyTo?: AddressLike;
  /** Consensus limits to validate against (default: current protocol). */
  limits?: ConsensusLimits;
  /** Set false to build a transaction the network would reject (encoding tests, negative cases). */
  validate?: boolean;
}

const UINT64_MAX = (1n << 64n) - 1n;

function u64(field: string, v: Uint64Like | undefined): bigint {
  if (v === undefined) return 0n;
  if (typeof v === 'number') {
    if (Number.isInteger(v) && !Number.isSafeInteger(v))
      throw new TxnValidationError(field, `${v} is larger than JavaScript numbers hold exactly (2^53 - 1); pass a bigint instead, e.g. ${BigInt(v)}n`, {
        value: v,
      });
    if (!Number.isSafeInteger(v) || v < 0) throw new TxnValidationError(field, `must be a non-negative integer, got ${v}`, { value: v });
    return BigInt(v);
  }
  if (typeof v !== 'bigint') throw new TxnValidationError(field, `must be an integer, got ${typeof v}`, { value: v });
  if (v < 0n || v > UINT64_MAX) throw new TxnValidationError(field, `${v} is not a uint64`, { value: v, limit: UINT64_MAX });
  return v;
}

function small(field: string, v: number | bigint | undefined, limit = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined) return 0;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (!Number.isSafeInteger(n) || n < 0) throw new TxnValidationError(field, `must be a non-negative integer, got ${v}`, { value: v });
  if (n > limit) throw new TxnValidationError(field, `${n} exceeds the limit of ${limit}`, { value: n, limit });
  return n;
}

function addr(field: string, v: AddressLike): Address {
  try {
    return v instanceof Address ? v : new Address(addressBytes(v));
  } catch (e) {
    throw new TxnValidationError(field, `bad address: ${(e as Error).message}`, { value: v });
  }
}

function optAddr(field: string, v: AddressLike | undefined): Address | undefined {
  if (v === undefined || v === '') return undefined;
  const a = addr(field, v);
  return a.isZero() ? undefined : a;
}

function bytes(field: string, v: BytesLike | undefined): Uint8Array | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v.length ? utf8(v) : undefined;
  if (!(v instanceof Uint8Array)) throw new TxnValidationError(field, `must be bytes, got ${typeof v}`, { value: v });
  return v.length ? v : undefined;
}

function fixed(field: string, v: Uint8Array | undefined, length: number): Uint8Array | undefined {
  if (v === undefined) return undefined;
  if (!(v instanceof Uint8Array) || v.length !== length) {
    throw new TxnValidationError(field, `must be ${length} bytes, got ${v instanceof Uint8Array ? v.length : typeof v}`, { value: v, limit: length });
  }
  return isAllZero(v) ? undefined : v;
}

/** Fixed-length bytes given as bytes or base64 text (genesis hash, participation keys). */
function fixedOrBase64(field: string, v: Uint8Array | string | undefined, length: number): Uint8Array | undefined {
  if (v === undefined || v === '') return undefined;
  let b: Uint8Array;
  if (typeof v === 'string') {
    try {
      b = fromBase64(v);
    } catch {
      throw new TxnValidationError(field, 'is not valid base64', { value: v });
    }
  } else b = v;
  return fixed(field, b, length);
}

/** Header fields, fee left at 0 until the body is known (per-byte fees depend on size). */
function header(type: TransactionType, p: CommonParams): Transaction {
  const sp = p.suggestedParams;
  if (!sp) throw new TxnValidationError('suggestedParams', 'is required');
  const txn: Transaction = {
    type,
    sender: addr('sender', p.sender),
    fee: 0n,
    firstValid: u64('suggestedParams.firstValid', sp.firstValid),
    lastValid: u64('suggestedParams.lastValid', sp.lastValid),
  };
  const note = bytes('note', p.note);
  if (note) txn.note = note;
  if (sp.genesisId) txn.genesisId = sp.genesisId;
  const gh = fixedOrBase64('suggestedParams.genesisHash', sp.genesisHash, 32);
  if (gh) txn.genesisHash = gh;
  const lease = fixed('lease', p.lease, 32);
  if (lease) txn.lease = lease;
  const rekey = optAddr('rekeyTo', p.rekeyTo);
  if (rekey) txn.rekeyTo = rekey;
  return txn;
}

/**
 * Sets the fee, validates, and returns the transaction. Per-byte fees follow algosdk: the size is
 * measured with the fee field holding the per-byte rate, and the result is raised to the floor
 * (the min fee, or more when V42 surcharges apply).
 */
function finish(txn: Transaction, p: CommonParams): Transaction {
  const sp = p.suggestedParams;
  const limits = p.limits ?? DEFAULT_LIMITS;
  const fee = u64('suggestedParams.fee', sp.fee);
  if (sp.flatFee) {
    txn.fee = fee;
  } else {
    txn.fee = fee;
    const size = estimateSignedSize(txn);
    let floor = sp.minFee !== undefined ? u64('suggestedParams.minFee', sp.minFee) : limits.minTxnFee;
    const surcharged = requiredFee(txn, limits);
    if (surcharged > floor) floor = surcharged;
    txn.fee = feeForSize(fee, size, floor);
  }
  if (p.validate !== false) validateTransaction(txn, { limits });
  return txn;
}

// --- pay ---------------------------------------------------------------------------------------

/** A payment: receiver, amount in micro-units, and optionally an address to close the account to. */
export interface PaymentParams extends CommonParams {
  receiver: AddressLike;
  amount: Uint64Like;
  closeRemainderTo?: AddressLike;
}

/** Builds and validates a payment; fees and validity come from the suggested parameters. */
export function makePaymentTxn(p: PaymentParams): Transaction {
  const txn = header('pay', p);
  txn.payment = { receiver: addr('receiver', p.receiver), amount: u64('amount', p.amount) };
  const close = optAddr('closeRemainderTo', p.closeRemainderTo);
  if (close) txn.payment.closeRemainderTo = close;
  return finish(txn, p);
}

// --- keyreg ------------------------------------------------------------------------------------

/** Registering participation keys (online) or going offline. */
export interface KeyRegParams extends CommonParams {
  voteKey?: Uint8Array | string;
  selectionKey?: Uint8Array | string;
  stateProofKey?: Uint8Array | string;
  voteFirst?: Uint64Like;
  voteLast?: Uint64Like;
  voteKeyDilution?: Uint64Like;
  nonParticipation?: boolean;
}

/** Online (keys + rounds), offline (nothing) or non-participating (`nonParticipation: true`). */
export function makeKeyRegTxn(p: KeyRegParams): Transaction {
  const txn = header('keyreg', p);
  const k: KeyRegFields = {
    voteFirst: u64('voteFirst', p.voteFirst),
    voteLast: u64('voteLast', p.voteLast),
    voteKeyDilution: u64('voteKeyDilution', p.voteKeyDilution),
    nonParticipation: p.nonParticipation === true,
  };
  const vk = fixedOrBase64('voteKey', p.voteKey, 32);
  if (vk) k.voteKey = vk;
  const sk = fixedOrBase64('selectionKey', p.selectionKey, 32);
  if (sk) k.selectionKey = sk;
  const spk = fixedOrBase64('stateProofKey', p.stateProofKey, 64);
  if (spk) k.stateProofKey = spk;
  const online = vk || sk || spk || k.voteFirst || k.voteLast || k.voteKeyDilution;
  if (online && !k.nonParticipation && !(vk && sk && k.voteLast && k.voteKeyDilution)) {
    const missing = [!vk && 'voteKey', !sk && 'selectionKey', !k.voteLast && 'voteLast', !k.voteKeyDilution && 'voteKeyDilution'].filter(Boolean);
    throw new TxnValidationError('keyreg', `online key registration is missing ${missing.join(', ')}`, { value: missing });
  }
  txn.keyreg = k;
  return finish(txn, p);
}

// --- acfg --------------------------------------------------------------------------------------

/** Creating an asset: total, decimals, default-frozen, names, URL, metadata hash and role addresses. */
export interface AssetCreateParams extends CommonParams {
  total: Uint64Like;
  decimals?: number;
  defaultFrozen?: boolean;
  unitName?: string;
  assetName?: string;
  url?: string;
  metadataHash?: Uint8Array;
  manager?: AddressLike;
  reserve?: AddressLike;
  freeze?: AddressLike;
  clawback?: AddressLike;
}

function assetParams(p: Omit<AssetCreateParams, keyof CommonParams> & Partial<CommonParams>, limits: ConsensusLimits): AssetParams {
  const a: AssetParams = {
    total: u64('total', p.total),
    decimals: small('decimals', p.decimals, limits.maxAssetDecimals),
    defaultFrozen: p.defaultFrozen === true,
  };
  if (p.unitName) a.unitName = p.unitName;
  if (p.assetName) a.assetName = p.assetName;
  if (p.url) a.url = p.url;
  const am = fixed('metadataHash', p.metadataHash, 32);
  if (am) a.metadataHash = am;
  const m = optAddr('manager', p.manager);
  if (m) a.manager = m;
  const r = optAddr('reserve', p.reserve);
  if (r) a.reserve = r;
  const f = optAddr('freeze', p.freeze);
  if (f) a.freeze = f;
  const c = optAddr('clawback', p.clawback);
  if (c) a.clawback = c;
  return a;
}

/** Builds and validates an asset creation. */
export function makeAssetCreateTxn(p: AssetCreateParams): Transaction {
  const txn = header('acfg', p);
  txn.assetConfig = { assetId: 0n, params: assetParams(p, p.limits ?? DEFAULT_LIMITS) };
  return finish(txn, p);
}

/** Reconfiguring an asset: its id and the new manager, reserve, freeze and clawback addresses. */
export interface AssetConfigParams extends CommonParams {
  assetId: Uint64Like;
  manager?: AddressLike;
  reserve?: AddressLike;
  freeze?: AddressLike;
  clawback?: AddressLike;
}

/** Changes an asset's role addresses; an address left out is cleared (that is how the protocol works). */
export function makeAssetConfigTxn(p: AssetConfigParams): Transaction {
  const txn = header('acfg', p);
  const assetId = u64('assetId', p.assetId);
  if (assetId === 0n) throw new TxnValidationError('assetId', 'reconfiguring needs an existing asset id (0 creates)', { value: 0n });
  const params = assetParams({ total: 0n, manager: p.manager, reserve: p.reserve, freeze: p.freeze, clawback: p.clawback }, p.limits ?? DEFAULT_LIMITS);
  txn.assetConfig = { assetId };
  if (params.manager || params.reserve || params.freeze || params.clawback) txn.assetConfig.params = params;
  return finish(txn, p);
}

/** Destroying an asset (sent by its manager; the creator must hold every unit). */
export interface AssetDestroyParams extends CommonParams {
  assetId: Uint64Like;
}

/** Builds an asset destruction. */
export function makeAssetDestroyTxn(p: AssetDestroyParams): Transaction {
  const txn = header('acfg', p);
  const assetId = u64('assetId', p.assetId);
  if (assetId === 0n) throw new TxnValidationError('assetId', 'destroying needs an existing asset id', { value: 0n });
  txn.assetConfig = { assetId };
  return finish(txn, p);
}

// --- axfer -------------------------------------------------------------------------------------

/** Transferring asset units (amount 0 to oneself opts in; `assetSender` claws back). */
export interface AssetTransferParams extends CommonParams {
  assetId: Uint64Like;
  receiver: AddressLike;
  amount?: Uint64Like;
  /** Clawback: the account the assets are taken from (the sender must be the clawback address). */
  assetSender?: AddressLike;
  closeRemainderTo?: AddressLike;
}

/** Builds and validates an asset transfer. */
export function makeAssetTransferTxn(p: AssetTransferParams): Transaction {
  const txn = header('axfer', p);
  txn.assetTransfer = { assetId: u64('assetId', p.assetId), amount: u64('amount', p.amount), receiver: addr('receiver', p.receiver) };
  const snd = optAddr('assetSender', p.assetSender);
  if (snd) txn.assetTransfer.assetSender = snd;
  const close = optAddr('closeRemainderTo', p.closeRemainderTo);
  if (close) txn.assetTransfer.closeTo = close;
  return finish(txn, p);
}

/** Opt-in: a zero transfer of the asset to oneself. */
export function makeAssetOptInTxn(p: CommonParams & { assetId: Uint64Like }): Transaction {
  return makeAssetTransferTxn({ ...p, receiver: p.sender, amount: 0n });
}

// --- afrz --------------------------------------------------------------------------------------

/** Freezing or unfreezing an account's holding of an asset. */
export interface AssetFreezeParams extends CommonParams {
  assetId: Uint64Like;
  /** The account whose holding is (un)frozen. */
  freezeTarget: AddressLike;
  frozen: boolean;
}

/** Builds an asset freeze or unfreeze. */
export function makeAssetFreezeTxn(p: AssetFreezeParams): Transaction {
  const txn = header('afrz', p);
  txn.assetFreeze = { assetId: u64('assetId', p.assetId), account: addr('freezeTarget', p.freezeTarget), frozen: p.frozen === true };
  return finish(txn, p);
}

// --- appl --------------------------------------------------------------------------------------

/** An application call: app id (0 creates), on-completion, arguments, references, boxes, programs and schemas for create/update. */
export interface AppCallParams extends CommonParams {
  /** 0 creates an application. */
  appId: Uint64Like;
  onComplete?: OnComplete;
  args?: readonly BytesLike[];
  accounts?: readonly AddressLike[];
  foreignApps?: readonly Uint64Like[];
  foreignAssets?: readonly Uint64Like[];
  boxes?: readonly { appId: Uint64Like; name: BytesLike }[];
  /** The V41+ access list in wire form (see {@link ResourceRef}); excludes the four lists above. */
  access?: readonly ResourceRef[];
  /** The access list named by addresses and ids; laid out with {@link buildAccessList}. Excludes `access`. */
  accessReferences?: readonly AccessReference[];
  approvalProgram?: Uint8Array;
  clearProgram?: Uint8Array;
  globalSchema?: { numUints?: number; numByteSlices?: number };
  localSchema?: { numUints?: number; numByteSlices?: number };
  extraPages?: number;
  rejectVersion?: Uint64Like;
}

function schema(field: string, s: { numUints?: number; numByteSlices?: number } | undefined): StateSchema | undefined {
  if (!s) return undefined;
  const out = { numUints: small(`${field}.numUints`, s.numUints), numByteSlices: small(`${field}.numByteSlices`, s.numByteSlices) };
  return out.numUints || out.numByteSlices ? out : undefined;
}

function normaliseAccess(r: ResourceRef, i: number): ResourceRef {
  const at = `access[${i}]`;
  switch (r.kind) {
    case 'address': {
      const address = addr(`${at}.address`, r.address);
      return address.isZero() ? { kind: 'empty' } : { kind: 'address', address };
    }
    case 'asset': {
      const assetId = u64(`${at}.assetId`, r.assetId);
      return assetId ? { kind: 'asset', assetId } : { kind: 'empty' };
    }
    case 'app': {
      const appId = u64(`${at}.appId`, r.appId);
      return appId ? { kind: 'app', appId } : { kind: 'empty' };
    }
    case 'holding': {
      const addressIndex = small(`${at}.addressIndex`, r.addressIndex);
      const assetIndex = small(`${at}.assetIndex`, r.assetIndex);
      return addressIndex || assetIndex ? { kind: 'holding', addressIndex, assetIndex } : { kind: 'empty' };
    }
    // Entries whose members are all zero vanish on the wire (recursive omission) and read back
    // as empty entries, so they are normalised to 'empty' here.
    case 'locals': {
      const addressIndex = small(`${at}.addressIndex`, r.addressIndex);
      const appIndex = small(`${at}.appIndex`, r.appIndex);
      return addressIndex || appIndex ? { kind: 'locals', addressIndex, appIndex } : { kind: 'empty' };
    }
    case 'box': {
      const appIndex = small(`${at}.appIndex`, r.appIndex);
      const name = bytes(`${at}.name`, r.name) ?? new Uint8Array(0);
      return appIndex || name.length ? { kind: 'box', appIndex, name } : { kind: 'empty' };
    }
    case 'empty':
      return { kind: 'empty' };
    default:
      throw new TxnValidationError(`${at}.kind`, `unknown access entry kind ${JSON.stringify((r as { kind: unknown }).kind)}`, { value: r });
  }
}

/** Builds and validates an application call. */
export function makeAppCallTxn(p: AppCallParams): Transaction {
  const txn = header('appl', p);
  const oc = p.onComplete ?? OnComplete.NoOp;
  if (!Number.isInteger(oc) || oc < 0 || oc > OnComplete.DeleteApplication)
    throw new TxnValidationError('onComplete', `unknown on-completion ${oc}`, { value: oc, limit: 5 });
  const app: AppCallFields = {
    appId: u64('appId', p.appId),
    onComplete: oc,
    args: (p.args ?? []).map((a, i) => bytes(`args[${i}]`, a) ?? new Uint8Array(0)),
    accounts: (p.accounts ?? []).map((a, i) => addr(`accounts[${i}]`, a)),
    foreignApps: (p.foreignApps ?? []).map((a, i) => u64(`foreignApps[${i}]`, a)),
    foreignAssets: (p.foreignAssets ?? []).map((a, i) => u64(`foreignAssets[${i}]`, a)),
    boxes: (p.boxes ?? []).map((b, i): BoxReference => ({
      appId: u64(`boxes[${i}].appId`, b.appId),
      name: bytes(`boxes[${i}].name`, b.name) ?? new Uint8Array(0),
    })),
    access: accessList(p),
    extraPages: small('extraPages', p.extraPages),
    rejectVersion: u64('rejectVersion', p.rejectVersion),
  };
  // A reference to the called app that is not in foreignApps travels as index 0, which decodes
  // as app 0; normalise now so built and decoded transactions compare equal.
  app.boxes = app.boxes.map((b) => (b.appId !== 0n && b.appId === app.appId && !app.foreignApps.includes(b.appId) ? { appId: 0n, name: b.name } : b));
  const gs = schema('globalSchema', p.globalSchema);
  if (gs) app.globalSchema = gs;
  const ls = schema('localSchema', p.localSchema);
  if (ls) app.localSchema = ls;
  const ap = bytes('approvalProgram', p.approvalProgram);
  if (ap) app.approvalProgram = ap;
  const cp = bytes('clearProgram', p.clearProgram);
  if (cp) app.clearProgram = cp;
  txn.appCall = app;
  return finish(txn, p);
}

function accessList(p: AppCallParams): ResourceRef[] {
  if (p.access && p.accessReferences) throw new TxnValidationError('accessReferences', 'give either access or accessReferences, not both');
  if (p.accessReferences) {
    try {
      return buildAccessList(u64('appId', p.appId), p.accessReferences).map(normaliseAccess);
    } catch (e) {
      if (e instanceof TxnValidationError) throw e;
      throw new TxnValidationError('accessReferences', (e as Error).message, { value: p.accessReferences });
    }
  }
  return (p.access ?? []).map(normaliseAccess);
}

type AppParamsWithout<K extends keyof AppCallParams> = Omit<AppCallParams, K>;

/** Builds an app creation (app id 0 with programs and schemas). */
export function makeAppCreateTxn(p: AppParamsWithout<'appId'> & { approvalProgram: Uint8Array; clearProgram: Uint8Array }): Transaction {
  return makeAppCallTxn({ ...p, appId: 0n });
}

/** Builds an update-application call with the new programs. */
export function makeAppUpdateTxn(p: AppParamsWithout<'onComplete'> & { approvalProgram: Uint8Array; clearProgram: Uint8Array }): Transaction {
  return makeAppCallTxn({ ...p, onComplete: OnComplete.UpdateApplication });
}

/** Builds a delete-application call. */
export function makeAppDeleteTxn(p: AppParamsWithout<'onComplete'>): Transaction {
  return makeAppCallTxn({ ...p, onComplete: OnComplete.DeleteApplication });
}

/** Builds an opt-in call. */
export function makeAppOptInTxn(p: AppParamsWithout<'onComplete'>): Transaction {
  return makeAppCallTxn({ ...p, onComplete: OnComplete.OptIn });
}

/** Builds a close-out call. */
export function makeAppCloseOutTxn(p: AppParamsWithout<'onComplete'>): Transaction {
  return makeAppCallTxn({ ...p, onComplete: OnComplete.CloseOut });
}

/** Builds a clear-state call (leaves the app whatever its program says). */
export function makeAppClearStateTxn(p: AppParamsWithout<'onComplete'>): Transaction {
  return makeAppCallTxn({ ...p, onComplete: OnComplete.ClearState });
}

// --- one entry point -----------------------------------------------------------------------------

/** Any transaction's parameters tagged with its `type`, for `buildTransaction`. */
export type BuildParams =
  | ({ type: 'pay' } & PaymentParams)
  | ({ type: 'keyreg' } & KeyRegParams)
  | ({ type: 'acfg' } & (Partial<AssetCreateParams> & CommonParams & { assetId?: Uint64Like; destroy?: boolean }))
  | ({ type: 'axfer' } & AssetTransferParams)
  | ({ type: 'afrz' } & AssetFreezeParams)
  | ({ type: 'appl' } & AppCallParams);

/** Builds any transaction type from one parameter object tagged with `type`. */
export function buildTransaction(p: BuildParams): Transaction {
  switch (p.type) {
    case 'pay':
      return makePaymentTxn(p);
    case 'keyreg':
      return makeKeyRegTxn(p);
    case 'acfg': {
      const id = u64('assetId', p.assetId);
      if (id === 0n) return makeAssetCreateTxn({ ...p, total: p.total ?? 0n });
      if (p.destroy) return makeAssetDestroyTxn({ ...p, assetId: id });
      return makeAssetConfigTxn({ ...p, assetId: id });
    }
    case 'axfer':
      return makeAssetTransferTxn(p);
    case 'afrz':
      return makeAssetFreezeTxn(p);
    case 'appl':
      return makeAppCallTxn(p);
    default:
      throw new TxnValidationError('type', `cannot build transactions of type ${JSON.stringify((p as { type: unknown }).type)}`, {
        value: (p as { type: unknown }).type,
      });
  }
}
