/**
 * The embedded devnet's ledger (layer 7).
 *
 *   const ledger = new Ledger({ genesisAccounts, store });   // store: FileLedgerStore (./persistence.js) or none
 *   ledger.submit(signedGroup | rawBytes)  → { round, txids } | throws LedgerRejection (kind, path, node wording)
 *   simulate(ledger, request)               → simulate response object (spec key names, bigint uint64s)
 *   ledger.account / asset / app / globalState / localState / box / boxNames / block / transaction / supply / delta
 *   ledger.onBlock(listener)                → change feed: { block (txns with ApplyData), delta (RoundDelta) }
 *   ledger.produceBlock(groups)            → interval mode: one block from several groups (the pending
 *                                            pool itself is the node service's, services/node/pool.ts)
 *   ledger.stateHash / snapshot / reset / close / setTimestampOffset
 *   ledger.mark() / revertToMark(id) / releaseMark(id)  → test-chain snapshots (undo log; cost ∝ changes; nested)
 *   ledger.advanceRounds / setTime / advanceTime / impersonate / setBalance / setAssetHolding /
 *     setGlobal / setLocal / setBox / setBlockSeed       → cheats (the devnet's /v1/devnet routes, tw.testChain;
 *                                            journaled, one record each, on a chain with a store)
 *
 *   new Ledger({ fork: await ForkState.open({ remote, cache }) }) → a fork of a live network: state
 *                                            copied on first read through an injected ForkRemote
 *
 * Everything here is portable except `persistence.ts` (Node file system), which is deliberately
 * not re-exported: import it directly where a data directory is wanted.
 */
export { Ledger, headerSchemeOfProtocol } from './ledger.js';
export type { LedgerConfig, LedgerStore, GenesisAccount, SubmitResult as LedgerSubmitResult, BlockEvent, BlockListener } from './ledger.js';
export {
  CONSENSUS_CURRENT,
  CONSENSUS_PARAMS_V41,
  CONSENSUS_PARAMS_V42,
  consensusParamsFor,
  DEFAULT_FEE_SINK,
  DEFAULT_REWARDS_POOL,
  DEFAULT_GENESIS_ID,
} from './params.js';
export type { ConsensusParams } from './params.js';
export { LedgerRejection, SimulateRequestError, LedgerStoreError, LedgerNotFoundError, LedgerDamageError, LedgerWriteError } from './errors.js';
export type { RejectionKind } from './errors.js';
export { MemoryLedgerStore } from './memory-store.js';
export type { Block, BlockHeader, ConfirmedTxn, TxnApplyData, InnerTxn, HeaderScheme } from './block.js';
export {
  encodeBlock,
  decodeBlock,
  blockToWire,
  headerHash,
  headerHash512,
  blockHashText,
  applyDataToWire,
  stibToWire,
  HEADER_SCHEME_CURRENT,
} from './block.js';
export type { RoundDelta } from './delta.js';
export { stateDeltaObject } from './delta.js';
export type { AccountData, AssetData, AppData, Holding, KeyValue, Participation, AccountStatus } from './state.js';
export { simulate } from './simulate.js';
export type { SimulateRequest, SimulateResponse } from './simulate.js';
export { pendingTransactionResponse } from './response.js';
export type { ResponseObject } from './response.js';
export { ForkState, MemoryForkCache, ForkRemoteError, ForkCacheError, namedResources, forkResourceKey, describeForkResource } from './fork.js';
export type {
  ForkOrigin,
  ForkHead,
  ForkRemote,
  ForkCacheStore,
  ForkResource,
  ForkRequest,
  ForkStatus,
  ForkLimits,
  RemoteAccount,
  RemoteRead,
  RemoteBoxPage,
} from './fork.js';
export { ForkStateMissing } from './errors.js';
