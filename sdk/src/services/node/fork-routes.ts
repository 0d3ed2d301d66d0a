import { ForkCacheError, ForkRemoteError, type ForkState } from '../../ledger/fork.js';
import { decodeSignedTransactions } from '../../txn/encode.js';
import type { SignedTransaction } from '../../txn/types.js';
import { ServiceUnavailableError } from '../http/errors.js';
import type { Handler, RequestContext } from '../http/types.js';
import { decodeSimulateRequest } from './simulate-wire.js';

/** The groups a submit or simulate request carries (empty when the body is not one: the handler reports that). */
async function groupsOf(ctx: RequestContext): Promise<SignedTransaction[][]> {
  try {
    if (/\/transactions(\/async)?$/.test(ctx.path)) return [decodeSignedTransactions(await ctx.body())];
    if (ctx.path.endsWith('/transactions/simulate')) return decodeSimulateRequest(await ctx.body())['txn-groups'].map((g) => g.txns);
  } catch {
    // Malformed: the route itself answers with the node's wording.
  }
  return [];
}

/**
 * A node-service route on a fork's ledger: the resources a submitted or simulated group names (and
 * the fee sink) are fetched first, in one parallel batch; then the route runs through
 * `ForkState.run`, which fetches whatever else it touched (unnamed resources, reads of accounts,
 * apps, assets and boxes) and runs it again. A remote that fails answers 503 with the reason and
 * the remote's address.
 */
export function forkRoute(fork: ForkState, handler: Handler): Handler {
  return async (ctx) => {
    try {
      if (ctx.method === 'POST') {
        const groups = await groupsOf(ctx);
        if (groups.length) await fork.prefetchGroups(groups);
      }
      return await fork.run(() => handler(ctx));
    } catch (e) {
      if (e instanceof ForkRemoteError || e instanceof ForkCacheError) throw new ServiceUnavailableError(e.message);
      throw e;
    }
  };
}
