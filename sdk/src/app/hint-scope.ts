// Internal to the SDK (not exported from its entry points): how the in-process chain tells the
// composer that chains share their reference hints.

/**
 * Set on a node adapter whose chains share what their calls needed: in-process chains with the
 * same genesis hash (fresh chains from one seed, as with a chain per test file; or forks of one
 * network) hold the same accounts and deploy the same apps under the same ids, so a call's
 * references learnt on one are the right first guess on the next. Hints there are also keyed by
 * the hashes of the app's two programs (a call whose programs are not known to the composer is
 * hinted per node only). A guess is still checked by the simulation it is sent with, and a shape
 * whose references stopped fitting on one chain is no longer hinted on any of them.
 */
export const SHARED_HINT_SCOPE = Symbol('tealworks.sharedHintScope');
