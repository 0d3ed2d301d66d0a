// The entry object and what its methods take and return. Everything else stays in the per-layer
// subpaths (`@tealworks/sdk/app`, `/adapters`, …).
export { Tealworks, type Connect, type NetworkInfo } from './tealworks.js';
export { AlgoAmount, algos, microAlgos, type AmountLike } from './amount.js';
export { LocalAccount, MultisigAccount, LogicSigAccount, type SigningAccount, type SenderLike } from './accounts.js';
export { AccountManager, type MultisigParams } from './account-manager.js';
export { TransactionSender, type ConfirmedTransaction, type SendTxnOptions } from './sender.js';
export { TxnGroup, type MethodCallParams } from './group.js';
export { TransactionLog, txnLogLevel, type TxnLogLevel, type TxnLogSink, type TxnLogOptions } from './txn-log.js';
export {
  AppManager,
  stateItemName,
  readGlobalState,
  readLocalState,
  readBoxMapValue,
  type AppDeployInput,
  type AppDeployment,
  type AppSpecInput,
  type DecodedAppState,
} from './app-manager.js';
export type {
  AddressInput,
  CommonInput,
  PaymentInput,
  AssetCreateInput,
  AssetOptInInput,
  AssetTransferInput,
  AssetDestroyInput,
  AssetFreezeInput,
  AssetConfigInput,
  AssetOptOutInput,
  AppCallInput,
  AppCreateInput,
  KeyRegistrationInput,
} from './txn-inputs.js';
export type { ConnectOptionsBase, DevnetConnectOptions, LocalnetConnectOptions, EnvLike } from './network.js';
export { ClientError, ConnectError } from './errors.js';
export { generateAppClient, tsTypeOf, type GenerateClientOptions } from './codegen.js';
export { TransactionBuilder, type BuiltTxn } from './builder.js';
export { fixedBytes, type FixedBytes, type TxnArg } from './typed.js';
