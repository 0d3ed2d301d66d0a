import type { SuggestedParams } from '../txn/builders.js';
import { makeAssetCreateTxn, makeAssetDestroyTxn, makeAssetOptInTxn, makeAssetTransferTxn, makePaymentTxn } from '../txn/builders.js';
import type { Transaction } from '../txn/types.js';
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
    withFee(makePaymentTxn({ ...common(i, sp), receiver: addressOf(i.receiver), amount: toMicroAlgos(i.amount), ...opt('closeRemainderTo', addr(i.closeRemainderTo)) }), i),
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
  assetOptIn: (i: AssetOptInInput, sp: SuggestedParams): Transaction => withFee(makeAssetOptInTxn({ ...common(i, sp), assetId: toUint64(i.assetId, 'assetId') }), i),
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
  assetDestroy: (i: AssetDestroyInput, sp: SuggestedParams): Transaction => withFee(makeAssetDestroyTxn({ ...common(i, sp), assetId: toUint64(i.assetId, 'assetId') }), i),
};

/** The composer entry for an input: its sender's own signer goes along when it is an account. */
export function entryFor(txn: Transaction, sender: SenderLike): ComposerEntry {
  return typeof sender === 'string' ? { txn } : { txn, signer: sender.signer };
}
