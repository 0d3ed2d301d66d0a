import { TealworksError, ValidationError } from '../errors.js';

/** Why the ledger refused a transaction group; stable names for tools to switch on. */
export type RejectionKind =
  | 'malformed'
  | 'group'
  | 'genesis'
  | 'txn-dead'
  | 'fee'
  | 'duplicate'
  | 'lease'
  | 'signature'
  | 'logic'
  | 'overspend'
  | 'below-min'
  | 'asset'
  | 'app'
  | 'account'
  | 'box'
  | 'fork';

/**
 * A transaction group the ledger would not apply. The message keeps the node's wording
 * (`overspend`, `below min`, `txn dead`, `transaction already in ledger`, `logic eval error`,
 * `should have been authorized by` …) prefixed by the failing transaction's id, as the node
 * reports it; `reason` is the text without that prefix.
 */
export class LedgerRejection extends TealworksError {
  constructor(
    readonly kind: RejectionKind,
    readonly reason: string,
    /** Index of the failing transaction in its group, and inner indices below it. */
    readonly path: readonly number[] = [],
    readonly txid?: string,
    options?: { cause?: unknown },
  ) {
    // An evaluation's outcome (simulate reports most of them): made without a stack, which the
    // ledger captures where it throws one (see `LogicError`).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(txid ? `transaction ${txid}: ${reason}` : reason, options);
    Error.stackTraceLimit = limit;
  }
}

/**
 * A fork's group read state not fetched from the remote yet, so it was not committed. Callers
 * that go through `ForkState.run` never see it: the run fetches what was missed and tries again.
 */
export class ForkStateMissing extends LedgerRejection {
  constructor(readonly url: string) {
    super(
      'fork',
      `the group reads state not yet fetched from ${url}; it was not committed. Run it through the fork (ForkState.run) so the missing state is fetched first.`,
    );
    // Cheats throw it to their caller: unlike other rejections, it keeps a stack.
    Error.captureStackTrace?.(this, ForkStateMissing);
  }
}

/** A failure raised while applying one transaction; located by the group evaluator. */
export class ApplyError extends Error {
  constructor(
    readonly kind: RejectionKind,
    message: string,
  ) {
    // Caught by the evaluation, which reports it as a LedgerRejection: no stack needed.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApplyError';
  }
}

export function reject(kind: RejectionKind, message: string): never {
  throw new ApplyError(kind, message);
}

/** A bad request to simulate (the node answers these with HTTP 400). */
export class SimulateRequestError extends ValidationError {}

/** The data directory cannot be used (corrupt snapshot, unreadable journal, wrong genesis …). */
export class LedgerStoreError extends TealworksError {}

/** A lookup of something the ledger does not have (round not yet reached or pruned, unknown txid …). */
export class LedgerNotFoundError extends TealworksError {}

/**
 * The data directory is damaged (a journal record or the snapshot fails its checksum, or a record
 * is incomplete). Raised before anything is changed; `file`, `offset` and `round` locate the damage.
 */
export class LedgerDamageError extends LedgerStoreError {
  readonly file: string;
  readonly offset: number;
  readonly round: bigint | undefined;
  constructor(message: string, where: { file: string; offset: number; round?: bigint }, options?: { cause?: unknown }) {
    super(message, options);
    this.file = where.file;
    this.offset = where.offset;
    this.round = where.round;
  }
}

/**
 * A write to the data directory failed (disk full, I/O error). The request that caused it fails;
 * the ledger and its files stay at the last durable round, and later writes are accepted again
 * once the cause is gone. `code` is the system error code (`ENOSPC`, `EIO` …) when there is one.
 */
export class LedgerWriteError extends LedgerStoreError {
  constructor(
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
