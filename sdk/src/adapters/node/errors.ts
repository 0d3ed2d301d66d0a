import { AdapterError } from '../http/errors.js';

/** This node evicted the transaction from its pool; the text is the node's reason. */
export class TransactionRejectedError extends AdapterError {
  constructor(
    readonly txid: string,
    readonly poolError: string,
  ) {
    super(`transaction ${txid} was removed from the pool: ${poolError}`);
  }
}

/** The node no longer knows the transaction (it neither holds it nor remembers committing it). */
export class TransactionNotFoundError extends AdapterError {
  constructor(readonly txid: string) {
    super(`transaction ${txid} is unknown to the node (never received, or forgotten)`);
  }
}

/** The transaction was still pending after the allowed number of rounds. */
export class ConfirmationTimeoutError extends AdapterError {
  constructor(
    readonly txid: string,
    readonly rounds: number,
    readonly lastRound: bigint,
  ) {
    super(`transaction ${txid} not confirmed after ${rounds} rounds (last round seen ${lastRound})`);
  }
}
