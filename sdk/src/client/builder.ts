import { builderParams } from '../app/chain.js';
import type { Signer } from '../adapters/signer.js';
import type { Transaction, TransactionType } from '../txn/types.js';
import type { SenderLike } from './accounts.js';
import type { ClientContext } from './context.js';
import {
  build,
  type AppCallInput,
  type AppCreateInput,
  type AssetConfigInput,
  type AssetCreateInput,
  type AssetDestroyInput,
  type AssetFreezeInput,
  type AssetOptInInput,
  type AssetTransferInput,
  type KeyRegistrationInput,
  type PaymentInput,
} from './txn-inputs.js';

/** A built transaction of type `T` and, when its sender was given as an account, the signer that goes with it. */
export interface BuiltTxn<T extends TransactionType> {
  /** The transaction: fees, validity and genesis filled in; not signed. */
  txn: Transaction & { type: T };
  /** The sender's signer, when the sender was an account (else the client resolves it by address). */
  signer?: Signer;
}

/**
 * `tw.build`: the same inputs as `tw.send`, built into transactions without sending them, for
 * composing by hand: a typed client's transaction arguments (`pay`, `axfer`…), `tw.newGroup().add(…)`,
 * or signing elsewhere.
 *
 * @example
 * ```ts
 * const pay = await tw.build.payment({ sender: alice, receiver: app.appAddress, amount: algos(1) });
 * await app.buy({ payment: pay, item: 3n });
 * ```
 */
export class TransactionBuilder {
  readonly #tw: ClientContext;

  /** @internal Made by `Tealworks`. */
  constructor(tw: ClientContext) {
    this.#tw = tw;
  }

  async #make<T extends TransactionType>(sender: SenderLike, f: (sp: Awaited<ReturnType<typeof builderParams>>) => Transaction): Promise<BuiltTxn<T>> {
    const txn = f(await builderParams(this.#tw.chain)) as Transaction & { type: T };
    return typeof sender === 'string' ? { txn } : { txn, signer: sender.signer };
  }

  /** A payment. */
  payment(input: PaymentInput): Promise<BuiltTxn<'pay'>> {
    return this.#make(input.sender, (sp) => build.payment(input, sp));
  }
  /** An asset creation. */
  assetCreate(input: AssetCreateInput): Promise<BuiltTxn<'acfg'>> {
    return this.#make(input.sender, (sp) => build.assetCreate(input, sp));
  }
  /** An asset reconfiguration. */
  assetConfig(input: AssetConfigInput): Promise<BuiltTxn<'acfg'>> {
    return this.#make(input.sender, (sp) => build.assetConfig(input, sp));
  }
  /** An asset destruction. */
  assetDestroy(input: AssetDestroyInput): Promise<BuiltTxn<'acfg'>> {
    return this.#make(input.sender, (sp) => build.assetDestroy(input, sp));
  }
  /** An asset opt-in. */
  assetOptIn(input: AssetOptInInput): Promise<BuiltTxn<'axfer'>> {
    return this.#make(input.sender, (sp) => build.assetOptIn(input, sp));
  }
  /** An asset transfer (or clawback). */
  assetTransfer(input: AssetTransferInput): Promise<BuiltTxn<'axfer'>> {
    return this.#make(input.sender, (sp) => build.assetTransfer(input, sp));
  }
  /** An asset freeze or unfreeze. */
  assetFreeze(input: AssetFreezeInput): Promise<BuiltTxn<'afrz'>> {
    return this.#make(input.sender, (sp) => build.assetFreeze(input, sp));
  }
  /** A bare application call. */
  appCall(input: AppCallInput): Promise<BuiltTxn<'appl'>> {
    return this.#make(input.sender, (sp) => build.appCall(input, sp));
  }
  /** An app creation from program bytes. */
  appCreate(input: AppCreateInput): Promise<BuiltTxn<'appl'>> {
    return this.#make(input.sender, (sp) => build.appCreate(input, sp));
  }
  /** A key registration. */
  keyRegistration(input: KeyRegistrationInput): Promise<BuiltTxn<'keyreg'>> {
    return this.#make(input.sender, (sp) => build.keyRegistration(input, sp));
  }
}
