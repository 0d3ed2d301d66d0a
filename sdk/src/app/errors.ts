import { TealworksError, ValidationError } from '../errors.js';

/** Base of the app layer's deliberate failures. */
export class AppError extends TealworksError {}

/** A deploy note that claims to be an ARC-2 deploy note but cannot be read. */
export class DeployNoteError extends ValidationError {}

/** The deploy plan says the deployment must stop (an update or schema break the options forbid). */
export class DeployPlanError extends AppError {
  readonly appId: bigint | undefined;
  readonly trigger: 'update' | 'schema-break' | 'input';

  constructor(message: string, trigger: 'update' | 'schema-break' | 'input', appId?: bigint) {
    super(message);
    this.trigger = trigger;
    this.appId = appId;
  }
}

/** A simulated group would fail; carries the whole report (thrown only when the caller asks). */
export class SimulateFailedError extends AppError {
  readonly report: unknown;

  constructor(summary: string, report: unknown) {
    super(summary);
    this.report = report;
  }
}

/**
 * A simulated group would leave an account below its minimum balance. Says whose account it is
 * (an app's, by id, when the address belongs to an app of the group) and by how much it is short.
 */
export class MinimumBalanceError extends SimulateFailedError {
  /** The account that is short. */
  readonly address: string;
  /** The app whose account this is, when it belongs to an app the group touches. */
  readonly appId: bigint | undefined;
  /** Micro-units the account lacks. */
  readonly shortBy: bigint;

  constructor(summary: string, report: unknown, init: { address: string; appId?: bigint; shortBy: bigint }) {
    super(summary, report);
    this.address = init.address;
    this.appId = init.appId;
    this.shortBy = init.shortBy;
  }
}

/**
 * A transaction's sender was rekeyed and the client knows no signer for its auth address. Names
 * both addresses and what to do: give the client the auth account (its mnemonic, key-manager key
 * or `tw.account.add`), or sign for it yourself.
 */
export class RekeyedSignerError extends AppError {
  /** Index of the transaction in its group. */
  readonly index: number;
  /** The rekeyed sender. */
  readonly sender: string;
  /** The address that must sign for {@link sender}. */
  readonly authAddress: string;

  constructor(index: number, sender: string, authAddress: string) {
    super(
      `transaction ${index} from ${sender} must be signed by ${authAddress}: the account was rekeyed to it, and no signer for ${authAddress} is known. ` +
        'Add that account to the client (tw.account.fromMnemonic(…), tw.account.fromKeyManager(…) or tw.account.add(…)), or rekey through tw.account.rekey(…), which remembers it',
    );
    this.index = index;
    this.sender = sender;
    this.authAddress = authAddress;
  }
}
