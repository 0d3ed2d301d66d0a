import type { SuggestedParams } from '../txn/builders.js';
import {
  makeAppCallTxn,
  makeAssetConfigTxn,
  makeAssetCreateTxn,
  makeAssetDestroyTxn,
  makeAssetFreezeTxn,
  makeAssetOptInTxn,
  makeAssetTransferTxn,
  makeKeyRegTxn,
  makePaymentTxn,
} from '../txn/builders.js';
import { OnComplete, type Transaction } from '../txn/types.js';
import type { OnCompleteName } from '../workflow/model.js';
import type { ComposerEntry } from '../app/composer.js';
import type { Address } from '../encoding/address.js';
import { addressOf, type SenderLike } from './accounts.js';
import { toMicroAlgos, toUint64, type AmountLike } from './amount.js';

/*
 * The transaction shapes `tw.send.*` and `tw.newGroup()` take: senders as accounts (their signers
 * come along), amounts unit-safe, ids as bigint or safe numbers; fees, validity and genesis filled in.
 */

/** An address, or an account whose address is meant. */
export type AddressInput = SenderLike | Address;

/** Fields every transaction input takes. */
export interface CommonInput {
  /** Who sends (and signs): an account, or an address whose signer the client knows. */
  sender: SenderLike;
  /** Bytes, or text encoded as UTF-8. */
  note?: Uint8Array | string;
  /** 32 bytes. */
  lease?: Uint8Array;
  /** Hand the sender's authority to another account. */
  rekeyTo?: AddressInput;
  /** A fixed fee on top of the minimum (micro-units). */
  extraFee?: AmountLike;
}

/** `tw.send.payment(…)`. */
export interface PaymentInput extends CommonInput {
  receiver: AddressInput;
  amount: AmountLike;
  /** Close the sender's account, sending everything left to this address. */
  closeRemainderTo?: AddressInput;
}

/** `tw.send.assetCreate(…)`. */
export interface AssetCreateInput extends CommonInput {
  /** Total base units. */
  total: bigint | number;
  decimals?: number;
  defaultFrozen?: boolean;
  unitName?: string;
  assetName?: string;
  url?: string;
  metadataHash?: Uint8Array;
  manager?: AddressInput;
  reserve?: AddressInput;
  freeze?: AddressInput;
  clawback?: AddressInput;
}

/** `tw.send.assetOptIn(…)`. */
export interface AssetOptInInput extends CommonInput {
  assetId: bigint | number;
}

/** `tw.send.assetTransfer(…)`. */
export interface AssetTransferInput extends CommonInput {
  assetId: bigint | number;
  receiver: AddressInput;
  /** Base units. */
  amount: bigint | number;
  /** Clawback: take the assets from this account (the sender must be the clawback address). */
  clawbackFrom?: AddressInput;
  closeRemainderTo?: AddressInput;
}

/** `tw.send.assetDestroy(…)`. */
export interface AssetDestroyInput extends CommonInput {
  assetId: bigint | number;
}

/** `tw.send.assetFreeze(…)`: freezes or unfreezes one account's holding (the sender is the asset's freeze address). */
export interface AssetFreezeInput extends CommonInput {
  assetId: bigint | number;
  /** The account whose holding is frozen or unfrozen. */
  account: AddressInput;
  /** True freezes, false unfreezes. */
  frozen: boolean;
}

/**
 * `tw.send.assetConfig(…)`: sets an asset's role addresses (the sender is its manager). As the
 * protocol works, a role left out is cleared for good: pass every role you mean to keep.
 */
export interface AssetConfigInput extends CommonInput {
  assetId: bigint | number;
  manager?: AddressInput;
  reserve?: AddressInput;
  freeze?: AddressInput;
  clawback?: AddressInput;
}

/** `tw.send.assetOptOut(…)`: closes the sender's holding of an asset, sending what it holds to the creator. */
export interface AssetOptOutInput extends CommonInput {
  assetId: bigint | number;
  /** Where the remaining units go (default: the asset's creator, read from the node). */
  closeTo?: AddressInput;
}

/** `tw.send.appCall(…)`: a bare application call (no ABI method: use an app client for those). */
export interface AppCallInput extends CommonInput {
  appId: bigint | number;
  /** Default `noop`. */
  onComplete?: OnCompleteName;
  /** Application arguments: bytes, text (UTF-8) or integers (8 bytes, big-endian). */
  args?: ReadonlyArray<Uint8Array | string | bigint | number>;
  accounts?: readonly AddressInput[];
  apps?: ReadonlyArray<bigint | number>;
  assets?: ReadonlyArray<bigint | number>;
  /** Box references; `appId` absent means the called app. */
  boxes?: ReadonlyArray<{ appId?: bigint | number; name: Uint8Array | string }>;
  /** New programs, for `onComplete: 'update'`. */
  approvalProgram?: Uint8Array;
  clearProgram?: Uint8Array;
}

/** `tw.send.appCreate(…)`: creates an app from program bytes (use `tw.app.deploy` for TEAL and specs). */
export interface AppCreateInput extends Omit<AppCallInput, 'appId' | 'onComplete' | 'approvalProgram' | 'clearProgram'> {
  approvalProgram: Uint8Array;
  clearProgram: Uint8Array;
  /** Default `noop`; `optin` creates and opts the creator in. */
  onComplete?: 'noop' | 'optin';
  /** State the app may hold (default none). */
  schema?: { globalInts?: number; globalBytes?: number; localInts?: number; localBytes?: number };
  extraPages?: number;
}

/**
 * `tw.send.keyRegistration(…)`: brings the sender online with its participation keys, or (without
 * keys) takes it offline; `nonParticipation: true` marks it as never participating again.
 */
export interface KeyRegistrationInput extends CommonInput {
  /** 32 bytes (or base64). */
  voteKey?: Uint8Array | string;
  /** 32 bytes (or base64). */
  selectionKey?: Uint8Array | string;
  /** 64 bytes (or base64). */
  stateProofKey?: Uint8Array | string;
  voteFirst?: bigint | number;
  voteLast?: bigint | number;
  voteKeyDilution?: bigint | number;
  nonParticipation?: boolean;
}

const ON_COMPLETE: Record<OnCompleteName, OnComplete> = {
  noop: OnComplete.NoOp,
  optin: OnComplete.OptIn,
  closeout: OnComplete.CloseOut,
  clear: OnComplete.ClearState,
  update: OnComplete.UpdateApplication,
  delete: OnComplete.DeleteApplication,
};

function appArg(a: Uint8Array | string | bigint | number): Uint8Array {
  if (a instanceof Uint8Array) return a;
  if (typeof a === 'string') return new TextEncoder().encode(a);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, toUint64(a, 'app argument'));
  return out;
}

function appFields(i: Omit<AppCallInput, 'appId' | 'onComplete'>) {
  return {
    args: (i.args ?? []).map(appArg),
    accounts: (i.accounts ?? []).map(addressOf),
    foreignApps: (i.apps ?? []).map((a) => toUint64(a, 'apps')),
    foreignAssets: (i.assets ?? []).map((a) => toUint64(a, 'assets')),
    boxes: (i.boxes ?? []).map((b) => ({
      appId: b.appId === undefined ? 0n : toUint64(b.appId, 'boxes.appId'),
      name: typeof b.name === 'string' ? new TextEncoder().encode(b.name) : b.name,
    })),
  };
}

const opt = <K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : ({ [key]: v } as { [P in K]?: V }));
const addr = (a: AddressInput | undefined): string | undefined => (a === undefined ? undefined : addressOf(a));

function common(i: CommonInput, sp: SuggestedParams) {
  return { sender: addressOf(i.sender), suggestedParams: sp, ...opt('note', i.note), ...opt('lease', i.lease), ...opt('rekeyTo', addr(i.rekeyTo)) };
}

function withFee(t: Transaction, i: CommonInput): Transaction {
  return i.extraFee === undefined ? t : { ...t, fee: t.fee + toMicroAlgos(i.extraFee, 'extraFee') };
}

/** Builders by input kind. @internal */
export const build = {
  payment: (i: PaymentInput, sp: SuggestedParams): Transaction =>
    withFee(
      makePaymentTxn({
        ...common(i, sp),
        receiver: addressOf(i.receiver),
        amount: toMicroAlgos(i.amount),
        ...opt('closeRemainderTo', addr(i.closeRemainderTo)),
      }),
      i,
    ),
  assetCreate: (i: AssetCreateInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeAssetCreateTxn({
        ...common(i, sp),
        total: toUint64(i.total, 'total'),
        ...opt('decimals', i.decimals),
        ...opt('defaultFrozen', i.defaultFrozen),
        ...opt('unitName', i.unitName),
        ...opt('assetName', i.assetName),
        ...opt('url', i.url),
        ...opt('metadataHash', i.metadataHash),
        ...opt('manager', addr(i.manager)),
        ...opt('reserve', addr(i.reserve)),
        ...opt('freeze', addr(i.freeze)),
        ...opt('clawback', addr(i.clawback)),
      }),
      i,
    ),
  assetOptIn: (i: AssetOptInInput, sp: SuggestedParams): Transaction =>
    withFee(makeAssetOptInTxn({ ...common(i, sp), assetId: toUint64(i.assetId, 'assetId') }), i),
  assetTransfer: (i: AssetTransferInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeAssetTransferTxn({
        ...common(i, sp),
        assetId: toUint64(i.assetId, 'assetId'),
        receiver: addressOf(i.receiver),
        amount: toUint64(i.amount, 'amount'),
        ...opt('assetSender', addr(i.clawbackFrom)),
        ...opt('closeRemainderTo', addr(i.closeRemainderTo)),
      }),
      i,
    ),
  assetDestroy: (i: AssetDestroyInput, sp: SuggestedParams): Transaction =>
    withFee(makeAssetDestroyTxn({ ...common(i, sp), assetId: toUint64(i.assetId, 'assetId') }), i),
  assetFreeze: (i: AssetFreezeInput, sp: SuggestedParams): Transaction =>
    withFee(makeAssetFreezeTxn({ ...common(i, sp), assetId: toUint64(i.assetId, 'assetId'), freezeTarget: addressOf(i.account), frozen: i.frozen }), i),
  assetConfig: (i: AssetConfigInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeAssetConfigTxn({
        ...common(i, sp),
        assetId: toUint64(i.assetId, 'assetId'),
        ...opt('manager', addr(i.manager)),
        ...opt('reserve', addr(i.reserve)),
        ...opt('freeze', addr(i.freeze)),
        ...opt('clawback', addr(i.clawback)),
      }),
      i,
    ),
  /** `closeTo` must be resolved (the creator) before building. */
  assetOptOut: (i: AssetOptOutInput & { closeTo: AddressInput }, sp: SuggestedParams): Transaction =>
    withFee(
      makeAssetTransferTxn({
        ...common(i, sp),
        assetId: toUint64(i.assetId, 'assetId'),
        receiver: addressOf(i.closeTo),
        amount: 0n,
        closeRemainderTo: addressOf(i.closeTo),
      }),
      i,
    ),
  appCall: (i: AppCallInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeAppCallTxn({
        ...common(i, sp),
        appId: toUint64(i.appId, 'appId'),
        onComplete: ON_COMPLETE[i.onComplete ?? 'noop'],
        ...appFields(i),
        ...opt('approvalProgram', i.approvalProgram),
        ...opt('clearProgram', i.clearProgram),
      }),
      i,
    ),
  appCreate: (i: AppCreateInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeAppCallTxn({
        ...common(i, sp),
        appId: 0n,
        onComplete: ON_COMPLETE[i.onComplete ?? 'noop'],
        ...appFields(i),
        approvalProgram: i.approvalProgram,
        clearProgram: i.clearProgram,
        globalSchema: { numUints: i.schema?.globalInts ?? 0, numByteSlices: i.schema?.globalBytes ?? 0 },
        localSchema: { numUints: i.schema?.localInts ?? 0, numByteSlices: i.schema?.localBytes ?? 0 },
        ...opt('extraPages', i.extraPages),
      }),
      i,
    ),
  keyRegistration: (i: KeyRegistrationInput, sp: SuggestedParams): Transaction =>
    withFee(
      makeKeyRegTxn({
        ...common(i, sp),
        ...opt('voteKey', i.voteKey),
        ...opt('selectionKey', i.selectionKey),
        ...opt('stateProofKey', i.stateProofKey),
        ...opt('voteFirst', i.voteFirst === undefined ? undefined : toUint64(i.voteFirst, 'voteFirst')),
        ...opt('voteLast', i.voteLast === undefined ? undefined : toUint64(i.voteLast, 'voteLast')),
        ...opt('voteKeyDilution', i.voteKeyDilution === undefined ? undefined : toUint64(i.voteKeyDilution, 'voteKeyDilution')),
        ...opt('nonParticipation', i.nonParticipation),
      }),
      i,
    ),
};

/** The composer entry for an input: its sender's own signer goes along when it is an account. */
export function entryFor(txn: Transaction, sender: SenderLike): ComposerEntry {
  return typeof sender === 'string' ? { txn } : { txn, signer: sender.signer };
}
