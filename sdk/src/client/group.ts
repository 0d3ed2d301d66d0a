import type { AbiValue } from '../abi/types.js';
import type { AppCallOptions, AppClient } from '../app/client.js';
import { builderParams } from '../app/chain.js';
import type { ComposerEntry, GroupComposer, SendResult, SimulateGroupOptions } from '../app/composer.js';
import type { SimulateReport } from '../app/simulate-report.js';
import type { Transaction } from '../txn/types.js';
import { build, entryFor, type AssetCreateInput, type AssetOptInInput, type AssetTransferInput, type PaymentInput } from './txn-inputs.js';
import { ClientError } from './errors.js';
import type { ClientContext } from './context.js';

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

  /** Simulates the group (references and inner-fee cover filled in first) and returns the report; never sends. */
  async simulate(options: SimulateGroupOptions = {}): Promise<SimulateReport> {
    const c = await this.compose();
    await c.prepare({ populateResources: true, coverInnerFees: true });
    return c.simulate(options);
  }

  /** Simulates, then signs, sends and waits for the group; throws `SimulateFailedError` (with the report) when it would fail. */
  async send(): Promise<SendResult> {
    const c = await this.compose();
    return c.send({ populateResources: true, coverInnerFees: true });
  }
}
