import type { AbiValue } from '../abi/types.js';
import type { AppCallOptions, AppClient } from '../app/client.js';
import { builderParams } from '../app/chain.js';
import type { ComposerEntry, GroupComposer, SendResult, SimulateGroupOptions } from '../app/composer.js';
import type { SimulateReport } from '../app/simulate-report.js';
import type { Transaction } from '../txn/types.js';
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
  type AssetTransferInput,
  type KeyRegistrationInput,
  type PaymentInput,
} from './txn-inputs.js';
import { ClientError } from './errors.js';
import type { ClientContext } from './context.js';

/**
 * One ABI method call ready for a group, as a generated client's `params.<method>(…)` makes it:
 * the app client, the method's signature, its arguments in order and the call's options.
 */
export interface MethodCallParams {
  /** The app client that calls. */
  readonly app: AppClient;
  /** The method's signature, e.g. `increment(uint64)uint64`. */
  readonly method: string;
  /** The arguments in order (transaction arguments go in `options.txnArgs`). */
  readonly args: readonly unknown[];
  /** Sender, references, transaction arguments and the like. */
  readonly options?: AppCallOptions;
}

type Step = (sp: Awaited<ReturnType<typeof builderParams>>, c: GroupComposer) => Promise<void> | void;

/**
 * `tw.newGroup()`: transactions that succeed or fail together (at most 16). Add them in order,
 * then {@link simulate} (the report, nothing sent) or {@link send} (simulated first, then signed,
 * sent and confirmed).
 *
 * @example
 * ```ts
 * const report = await tw.newGroup()
 *   .payment({ sender: alice, receiver: app.appAddress, amount: algos(1) })
 *   .call(app, 'increment', [50n])
 *   .simulate();
 * console.log(report.failedAt, report.failureMessage);
 * ```
 */
export class TxnGroup {
  readonly #tw: ClientContext;
  readonly #steps: Step[] = [];

  /** @internal Made by `tw.newGroup()`. */
  constructor(tw: ClientContext) {
    this.#tw = tw;
  }

  #push(step: Step): this {
    if (this.#steps.length >= 16) throw new ClientError('a group holds at most 16 transactions');
    this.#steps.push(step);
    return this;
  }

  /** Adds a payment. */
  payment(input: PaymentInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.payment(input, sp), input.sender)));
  }

  /** Adds an asset creation. */
  assetCreate(input: AssetCreateInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetCreate(input, sp), input.sender)));
  }

  /** Adds an asset opt-in. */
  assetOptIn(input: AssetOptInInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetOptIn(input, sp), input.sender)));
  }

  /** Adds an asset transfer. */
  assetTransfer(input: AssetTransferInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetTransfer(input, sp), input.sender)));
  }

  /** Adds an asset destruction. */
  assetDestroy(input: AssetDestroyInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetDestroy(input, sp), input.sender)));
  }

  /** Adds an asset freeze or unfreeze. */
  assetFreeze(input: AssetFreezeInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetFreeze(input, sp), input.sender)));
  }

  /** Adds an asset reconfiguration (a role left out is cleared). */
  assetConfig(input: AssetConfigInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.assetConfig(input, sp), input.sender)));
  }

  /** Adds a bare application call. */
  appCall(input: AppCallInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.appCall(input, sp), input.sender)));
  }

  /** Adds an app creation from program bytes. */
  appCreate(input: AppCreateInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.appCreate(input, sp), input.sender)));
  }

  /** Adds a key registration (online with keys, offline without). */
  keyRegistration(input: KeyRegistrationInput): this {
    return this.#push((sp, c) => void c.add(entryFor(build.keyRegistration(input, sp), input.sender)));
  }

  /**
   * Adds a typed method call a generated client made (`counter.params.increment({ amount: 3 })`):
   * its arguments were checked at compile time; its transaction arguments come first.
   */
  method(call: MethodCallParams): this {
    return this.call(call.app, call.method, call.args, call.options);
  }

  /** Adds an ABI method call (with its transaction arguments first) through an app client. */
  call(app: AppClient, method: string, args: readonly (AbiValue | unknown)[] = [], options: AppCallOptions = {}): this {
    return this.#push(async (_sp, c) => {
      const built = await app.buildCall(method, args, options);
      for (const e of built.entries) c.add(e);
      c.knowApp(app.appId, app.knowledge());
    });
  }

  /** Adds a transaction built elsewhere (or a composer entry with its signer). */
  add(txn: Transaction | ComposerEntry): this {
    return this.#push((_sp, c) => void c.add(txn));
  }

  /** The group as the app layer's composer, transactions built (not yet prepared or signed). */
  async compose(): Promise<GroupComposer> {
    const c = this.#tw.composer();
    const sp = await builderParams(this.#tw.chain);
    for (const step of this.#steps) await step(sp, c);
    return c;
  }

  /** Simulates the group (references and inner-fee cover filled in first; rekeyed senders with their auth address) and returns the report; never sends. */
  async simulate(options: SimulateGroupOptions = {}): Promise<SimulateReport> {
    const c = await this.compose();
    await c.prepare({ populateResources: true, coverInnerFees: true });
    return c.simulate({ fixSigners: true, ...options });
  }

  /** Simulates, then signs, sends and waits for the group; throws `SimulateFailedError` (with the report) when it would fail. */
  async send(): Promise<SendResult> {
    const c = await this.compose();
    const sent = await c.send({ populateResources: true, coverInnerFees: true });
    for (const e of c.entries) if (e.txn.rekeyTo) this.#tw.rekeyed(e.txn.sender.toString(), e.txn.rekeyTo.toString());
    return sent;
  }
}
