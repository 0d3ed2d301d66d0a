import { LedgerNotFoundError } from '../../../ledger/errors.js';
import { TealworksError } from '../../../errors.js';
import { HttpError } from '../../http/errors.js';
import { jsonReply } from '../../http/reply.js';
import type { Reply } from '../../http/types.js';

/** Text of the public node API when a lookup misses the ledger, word for word. */
export const FAILED_LOOKING_UP_LEDGER = 'failed to retrieve information from the ledger';

/**
 * A failure as the public node API answers it: the status and a `{"message": …}` body (with
 * `data` when the error carries some); undefined for an error that is not a request's fault, which
 * the service turns into a 500.
 */
export function algodErrorReply(e: unknown): Reply | undefined {
  if (e instanceof HttpError) return jsonReply(e.data ? { message: e.message, data: e.data } : { message: e.message }, e.status);
  if (e instanceof LedgerNotFoundError) return jsonReply({ message: FAILED_LOOKING_UP_LEDGER }, 404);
  if (e instanceof TealworksError && e.constructor.name === 'ValidationError') return jsonReply({ message: e.message }, 400);
  return undefined;
}
