export * from './http/errors.js';
// The SDK's one connection error (declared with the root errors), where connections are made.
export { ConnectError } from '../errors.js';
export * from './http/redact.js';
export * from './http/retry.js';
export * from './http/client.js';
export * from './http/connection.js';
// Public names differ where two layers declare the same name for different things (one name per
// thing across entry points; test/packaging checks it): the node's
// SuggestedParams, AssetParams, StateSchema and SubmitResult are Node… here.
export type {
  NodeStatus,
  SuggestedParams as NodeSuggestedParams,
  SubmitResult as NodeSubmitResult,
  PendingState,
  PendingTransaction,
  AssetHolding,
  AssetParams as NodeAssetParams,
  AssetInfo,
  StateSchema as NodeStateSchema,
  TealKeyValue,
  AppParams,
  AppInfo,
  AccountInfo,
  AppLocalState as NodeAppLocalState,
  BoxValue,
  BoxesPage,
  BlockInfo,
  Supply,
  SimulateOptions,
  SimulatedTxn,
  SimulateResult,
  CompileResult,
  WaitOptions,
} from './node/types.js';
export * from './node/errors.js';
export * from './node/adapter.js';
export * from './node/normalize.js';
export * from './node/v1-model.js';
export * from './node/node-service.js';
export * from './node/algod.js';
export * from './node/typed-decode.js';
export type * as QueryTypes from './query/types.js';
export * from './query/paging.js';
export * from './query/client.js';
export * from './kmd/client.js';
export * from './signer.js';
export * from './keystore.js';
export * from './profiles.js';
export * from './node/devnet-cheats.js';
