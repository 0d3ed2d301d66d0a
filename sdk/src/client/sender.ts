import { builderParams } from '../app/chain.js';
import type { SendOptions, SendResult } from '../app/composer.js';
import type { SimulateReport } from '../app/simulate-report.js';
import type { Transaction } from '../txn/types.js';
import type { SenderLike } from './accounts.js';
import {
  build,
  entryFor,
  type AppCallInput,
  type AppCreateInput,
  type AssetConfigInput,
  type AssetCreateInput,
  type AssetDestroyInput,
  type AssetFreezeInput,
  type AssetOptInInput,
  type AssetOptOutInput,
  type AssetTransferInput,
  type KeyRegistrationInput,
  type PaymentInput,
} from './txn-inputs.js';
import { addressOf } from './accounts.js';
import type { ClientContext } from './context.js';

/** A transaction the network has confirmed, as `tw.send.*` returns it. */
export interface ConfirmedTransaction {
  /** Transaction id. */
  txid: string;
  /** Round it was committed in. */
  confirmedRound: bigint;
  /** The transaction as sent (fees and references filled in). */
  txn: Transaction;
  /** For asset creations. */
  createdAssetId?: bigint;
  /** For app creations. */
  createdAppId?: bigint;
  /** Logs of app calls. */
  logs: Uint8Array[];
  /** The simulation that was run before sending. */
  report: SimulateReport;
}

/** Options of every `tw.send.*` call. */
export type SendTxnOptions = Pick<SendOptions, 'maxRounds' | 'populateResources' | 'coverInnerFees'>;

/**
 * `tw.send`: one call per transaction. Each builds the transaction (fees, validity, genesis from
 * the node), simulates it (nothing is sent when it would fail: `SimulateFailedError` carries the
 * report), signs it with the sender's signer, sends it and waits for confirmation.
 */
export class TransactionSender {
  readonly #tw: ClientContext;

  /** @internal Made by `Tealworks`. */
  constructor(tw: ClientContext) {
    this.#tw = tw;
  }

  /** Sends the native currency. */
  payment(input: PaymentInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.payment(input, sp), options);
  }

  /** Creates an asset; `createdAssetId` is its id. */
  assetCreate(input: AssetCreateInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetCreate(input, sp), options);
  }

  /** Opts the sender in to an asset (a zero transfer to itself). */
  assetOptIn(input: AssetOptInInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetOptIn(input, sp), options);
  }

  /** Transfers units of an asset (or claws them back). */
  assetTransfer(input: AssetTransferInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetTransfer(input, sp), options);
  }

  /** Destroys an asset (the manager sends; the creator must hold every unit). */
  assetDestroy(input: AssetDestroyInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetDestroy(input, sp), options);
  }

  /** Freezes (`frozen: true`) or unfreezes one account's holding; the sender is the asset's freeze address. */
  assetFreeze(input: AssetFreezeInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetFreeze(input, sp), options);
  }

  /** Sets an asset's manager, reserve, freeze and clawback addresses (a role left out is cleared); the sender is its manager. */
  assetConfig(input: AssetConfigInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.assetConfig(input, sp), options);
  }

  /** Closes the sender's holding of an asset: what it holds goes to `closeTo` (default the creator), and the opt-in's minimum balance is freed. */
  async assetOptOut(input: AssetOptOutInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    const closeTo = input.closeTo ?? (await this.#tw.chain.node.asset(BigInt(input.assetId))).params.creator;
    return this.#one(input.sender, (sp) => build.assetOptOut({ ...input, closeTo }, sp), options);
  }

  /** A bare application call (NoOp by default; `onComplete` for opt-in, close-out, clear, update, delete). ABI methods go through an app client. */
  appCall(input: AppCallInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.appCall(input, sp), options);
  }

  /** Creates an app from program bytes; `createdAppId` is its id (`tw.app.deploy` compiles TEAL and deploys idempotently). */
  appCreate(input: AppCreateInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.appCreate(input, sp), options);
  }

  /** Registers participation keys (online) or, without keys, takes the sender offline. */
  keyRegistration(input: KeyRegistrationInput, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(input.sender, (sp) => build.keyRegistration(input, sp), options);
  }

  /** Sends a transaction built elsewhere (its sender's signer must be known to the client). */
  transaction(txn: Transaction, options?: SendTxnOptions): Promise<ConfirmedTransaction> {
    return this.#one(txn.sender.toString(), () => txn, options);
  }

  async #one(
    sender: SenderLike,
    make: (sp: Awaited<ReturnType<typeof builderParams>>) => Transaction,
    options: SendTxnOptions = {},
  ): Promise<ConfirmedTransaction> {
    const txn = make(await builderParams(this.#tw.chain));
    const c = this.#tw.composer().add(entryFor(txn, sender));
    const confirmed = confirmedOf(await c.send({ populateResources: true, coverInnerFees: true, ...options }), 0, c.entries[0]!.txn);
    if (txn.rekeyTo) this.#tw.rekeyed(addressOf(sender), txn.rekeyTo.toString());
    return confirmed;
  }
}

/** The confirmed view of one transaction of a sent group. @internal */
export function confirmedOf(sent: SendResult, index: number, txn: Transaction): ConfirmedTransaction {
  const t = sent.txns[index]!;
  return {
    txid: t.txid,
    confirmedRound: t.confirmedRound,
    txn,
    logs: t.logs,
    report: sent.report,
    ...(t.createdAssetId !== undefined ? { createdAssetId: t.createdAssetId } : {}),
    ...(t.createdAppId !== undefined ? { createdAppId: t.createdAppId } : {}),
  };
}
