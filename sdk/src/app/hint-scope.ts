// Internal to the SDK (not exported from its entry points): how the in-process chain tells the
// composer that chains share their reference hints.

/**
 * Set on a node adapter whose chains share what their calls needed: in-process chains made from
 * the same genesis (a fresh chain per test file) hold the same accounts and deploy the same apps
 * under the same ids, so a call's references learnt on one are the right first guess on the next.
 * Hints there are also keyed by the called program's hash (a call whose program is not known here
 * is hinted per node only); a guess is still checked by the simulation it is sent with.
 */
export const SHARED_HINT_SCOPE = Symbol('tealworks.sharedHintScope');
