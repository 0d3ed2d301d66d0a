/**
 * Query-service records (query-service.md) in camelCase. Every integer is a bigint except small
 * counts and enums (decimals, schema sizes, TealValue type, delta action, multisig threshold and
 * version, extra program pages, intra-round offset). `B64` members stay base64 text, as served;
 * decode them with `fromBase64` where bytes are needed.
 */

export type B64 = string;

export interface StateSchema {
  numByteSlice: number;
  numUint: number;
}

export interface TealValue {
  /** 1 = bytes, 2 = uint. */
  type: number;
  bytes: string;
  uint: bigint;
}

export interface TealKeyValue {
  key: string;
  value: TealValue;
}

export interface EvalDelta {
  action: number;
  bytes?: string;
  uint?: bigint;
}

export interface EvalDeltaKeyValue {
  key: string;
  value: EvalDelta;
}

export interface AccountStateDelta {
  address: string;
  delta: EvalDeltaKeyValue[];
}

export interface AccountParticipation {
  selectionParticipationKey: B64;
  stateProofKey?: B64;
  voteFirstValid: bigint;
  voteKeyDilution: bigint;
  voteLastValid: bigint;
  voteParticipationKey: B64;
}

export interface ApplicationParams {
  approvalProgram: B64;
  clearStateProgram: B64;
  creator?: string;
  extraProgramPages?: number;
  globalState?: TealKeyValue[];
  globalStateSchema?: StateSchema;
  localStateSchema?: StateSchema;
}

export interface Application {
  id: bigint;
  params: ApplicationParams;
  createdAtRound?: bigint;
  deleted?: boolean;
  deletedAtRound?: bigint;
}

export interface ApplicationLocalState {
  id: bigint;
  schema: StateSchema;
  keyValue?: TealKeyValue[];
  optedInAtRound?: bigint;
  closedOutAtRound?: bigint;
  deleted?: boolean;
}

export interface ApplicationLogData {
  txid: string;
  logs: B64[];
}

export interface AssetParams {
  creator: string;
  total: bigint;
  decimals: number;
  clawback?: string;
  freeze?: string;
  manager?: string;
  reserve?: string;
  defaultFrozen?: boolean;
  metadataHash?: B64;
  name?: string;
  unitName?: string;
  url?: string;
  nameB64?: B64;
  unitNameB64?: B64;
  urlB64?: B64;
}

export interface Asset {
  index: bigint;
  params: AssetParams;
  createdAtRound?: bigint;
  deleted?: boolean;
  destroyedAtRound?: bigint;
}

export interface AssetHolding {
  assetId: bigint;
  amount: bigint;
  isFrozen: boolean;
  deleted?: boolean;
  optedInAtRound?: bigint;
  optedOutAtRound?: bigint;
}

export interface MiniAssetHolding {
  address: string;
  amount: bigint;
  isFrozen: boolean;
  deleted?: boolean;
  optedInAtRound?: bigint;
  optedOutAtRound?: bigint;
}

export interface Account {
  address: string;
  amount: bigint;
  amountWithoutPendingRewards: bigint;
  appsLocalState?: ApplicationLocalState[];
  appsTotalExtraPages?: number;
  appsTotalSchema?: StateSchema;
  assets?: AssetHolding[];
  authAddr?: string;
  closedAtRound?: bigint;
  createdAtRound?: bigint;
  deleted?: boolean;
  createdApps?: Application[];
  createdAssets?: Asset[];
  incentiveEligible?: boolean;
  lastHeartbeat?: bigint;
  lastProposed?: bigint;
  minBalance: bigint;
  participation?: AccountParticipation;
  pendingRewards: bigint;
  rewardBase?: bigint;
  rewards: bigint;
  round: bigint;
  sigType?: 'sig' | 'msig' | 'lsig';
  status: string;
  totalAppsOptedIn: bigint;
  totalAssetsOptedIn: bigint;
  totalCreatedApps: bigint;
  totalCreatedAssets: bigint;
  totalBoxBytes: bigint;
  totalBoxes: bigint;
}

export interface TransactionSignatureMultisig {
  subsignature?: { publicKey?: B64; signature?: B64 }[];
  threshold?: number;
  version?: number;
}

export interface TransactionSignature {
  sig?: B64;
  multisig?: TransactionSignatureMultisig;
  logicsig?: { logic: B64; args?: B64[]; signature?: B64; multisigSignature?: TransactionSignatureMultisig };
}

export type TxType = 'pay' | 'keyreg' | 'acfg' | 'axfer' | 'afrz' | 'appl' | 'stpf' | 'hb';
export type OnCompletion = 'noop' | 'optin' | 'closeout' | 'clear' | 'update' | 'delete';

export interface Transaction {
  txType: TxType;
  sender: string;
  fee: bigint;
  firstValid: bigint;
  lastValid: bigint;
  id?: string;
  confirmedRound?: bigint;
  roundTime?: bigint;
  intraRoundOffset?: number;
  genesisHash?: B64;
  genesisId?: string;
  group?: B64;
  lease?: B64;
  note?: B64;
  rekeyTo?: string;
  authAddr?: string;
  closeRewards?: bigint;
  closingAmount?: bigint;
  receiverRewards?: bigint;
  senderRewards?: bigint;
  createdApplicationIndex?: bigint;
  createdAssetIndex?: bigint;
  globalStateDelta?: EvalDeltaKeyValue[];
  localStateDelta?: AccountStateDelta[];
  logs?: B64[];
  innerTxns?: Transaction[];
  signature?: TransactionSignature;
  paymentTransaction?: { receiver: string; amount: bigint; closeRemainderTo?: string; closeAmount?: bigint };
  keyregTransaction?: {
    nonParticipation?: boolean;
    selectionParticipationKey?: B64;
    stateProofKey?: B64;
    voteFirstValid?: bigint;
    voteKeyDilution?: bigint;
    voteLastValid?: bigint;
    voteParticipationKey?: B64;
  };
  assetConfigTransaction?: { assetId?: bigint; params?: AssetParams };
  assetTransferTransaction?: { assetId: bigint; amount: bigint; receiver: string; sender?: string; closeTo?: string; closeAmount?: bigint };
  assetFreezeTransaction?: { address: string; assetId: bigint; newFreezeStatus: boolean };
  applicationTransaction?: {
    applicationId: bigint;
    onCompletion: OnCompletion;
    accounts?: string[];
    applicationArgs?: string[];
    foreignApps?: bigint[];
    foreignAssets?: bigint[];
    approvalProgram?: B64;
    clearStateProgram?: B64;
    extraProgramPages?: number;
    globalStateSchema?: StateSchema;
    localStateSchema?: StateSchema;
  };
  heartbeatTransaction?: {
    hbAddress: string;
    hbKeyDilution: bigint;
    hbProof: { hbPk?: B64; hbPk1sig?: B64; hbPk2?: B64; hbPk2sig?: B64; hbSig?: B64 };
    hbSeed: B64;
    hbVoteId: B64;
  };
  /** State-proof internals are passed through camelCased but not typed member by member. */
  stateProofTransaction?: Record<string, unknown>;
}

export interface BlockRewards {
  feeSink: string;
  rewardsCalculationRound: bigint;
  rewardsLevel: bigint;
  rewardsPool: string;
  rewardsRate: bigint;
  rewardsResidue: bigint;
}

export interface Block {
  round: bigint;
  timestamp: bigint;
  genesisId: string;
  genesisHash: B64;
  previousBlockHash: B64;
  seed: B64;
  transactionsRoot: B64;
  transactionsRootSha256: B64;
  transactions?: Transaction[];
  txnCounter?: bigint;
  bonus?: bigint;
  feesCollected?: bigint;
  proposer?: string;
  proposerPayout?: bigint;
  participationUpdates?: { absentParticipationAccounts?: string[]; expiredParticipationAccounts?: string[] };
  rewards?: BlockRewards;
  stateProofTracking?: { type?: number; nextRound?: bigint; onlineTotalWeight?: bigint; votersCommitment?: B64 }[];
  upgradeState?: {
    currentProtocol: string;
    nextProtocol?: string;
    nextProtocolApprovals?: bigint;
    nextProtocolSwitchOn?: bigint;
    nextProtocolVoteBefore?: bigint;
  };
  upgradeVote?: { upgradeApprove?: boolean; upgradeDelay?: bigint; upgradePropose?: string };
}

export interface Box {
  name: B64;
  value: B64;
  round: bigint;
}

export interface HealthCheck {
  dbAvailable: boolean;
  isMigrating: boolean;
  message: string;
  round: bigint;
  version: string;
  errors?: string[];
  data?: Record<string, unknown>;
}

/** Members every paged response carries. */
export interface Paged {
  currentRound: bigint;
  nextToken?: string;
}

export interface AccountsResponse extends Paged {
  accounts: Account[];
}
export interface AccountResponse {
  account: Account;
  currentRound: bigint;
}
export interface AppLocalStatesResponse extends Paged {
  appsLocalStates: ApplicationLocalState[];
}
export interface AssetHoldingsResponse extends Paged {
  assets: AssetHolding[];
}
export interface ApplicationsResponse extends Paged {
  applications: Application[];
}
export interface AssetsResponse extends Paged {
  assets: Asset[];
}
export interface TransactionsResponse extends Paged {
  transactions: Transaction[];
}
export interface ApplicationResponse {
  application?: Application;
  currentRound: bigint;
}
export interface BoxesResponse {
  applicationId: bigint;
  boxes: { name: B64 }[];
  nextToken?: string;
}
export interface ApplicationLogsResponse {
  applicationId: bigint;
  currentRound: bigint;
  logData?: ApplicationLogData[];
  nextToken?: string;
}
export interface AssetResponse {
  asset: Asset;
  currentRound: bigint;
}
export interface AssetBalancesResponse extends Paged {
  balances: MiniAssetHolding[];
}
export interface BlockHeadersResponse extends Paged {
  blocks: Block[];
}
export interface TransactionResponse {
  transaction: Transaction;
  currentRound: bigint;
}

// ---- parameters: every member optional; undefined = not sent, 0 / false = sent as such ----

export type Uint = bigint | number;
export type Exclude = 'all' | 'assets' | 'created-assets' | 'apps-local-state' | 'created-apps' | 'none';
export type SigType = 'sig' | 'msig' | 'lsig';
export type AddressRole = 'sender' | 'receiver' | 'freeze-target';
/** RFC 3339 text, or a Date (sent as its ISO form). */
export type Time = string | Date;

export interface PageParams {
  limit?: number;
  next?: string;
}

export interface SearchAccountsParams extends PageParams {
  applicationId?: Uint;
  assetId?: Uint;
  authAddr?: string;
  currencyGreaterThan?: Uint;
  currencyLessThan?: Uint;
  exclude?: readonly Exclude[];
  includeAll?: boolean;
  round?: Uint;
  /** Not in query-service.md; public indexers accept it (only accounts in the delegation pool). */
  onlineOnly?: boolean;
}

export interface LookupAccountParams {
  exclude?: readonly Exclude[];
  includeAll?: boolean;
  round?: Uint;
}

export interface AccountAppLocalStatesParams extends PageParams {
  applicationId?: Uint;
  includeAll?: boolean;
}
export interface AccountAssetsParams extends PageParams {
  assetId?: Uint;
  includeAll?: boolean;
}
export interface AccountCreatedAppsParams extends PageParams {
  applicationId?: Uint;
  includeAll?: boolean;
}
export interface AccountCreatedAssetsParams extends PageParams {
  assetId?: Uint;
  includeAll?: boolean;
}

/** The filters shared by the transaction searches (time, asset, amount, note prefix, type, …), with paging. */
export interface TransactionFilter extends PageParams {
  afterTime?: Time;
  beforeTime?: Time;
  assetId?: Uint;
  currencyGreaterThan?: Uint;
  currencyLessThan?: Uint;
  maxRound?: Uint;
  minRound?: Uint;
  /** Raw bytes (sent base64) or base64 text. */
  notePrefix?: Uint8Array | string;
  rekeyTo?: boolean;
  round?: Uint;
  sigType?: SigType;
  txType?: TxType;
  txid?: string;
}

export type AccountTransactionsParams = TransactionFilter;

export interface AssetTransactionsParams extends Omit<TransactionFilter, 'assetId'> {
  address?: string;
  addressRole?: AddressRole;
  excludeCloseTo?: boolean;
}

export interface SearchTransactionsParams extends TransactionFilter {
  address?: string;
  addressRole?: AddressRole;
  excludeCloseTo?: boolean;
  applicationId?: Uint;
  /** Not in query-service.md; public indexers accept it. Raw 32 bytes (sent base64) or base64 text. */
  groupId?: Uint8Array | string;
}

export interface SearchApplicationsParams extends PageParams {
  applicationId?: Uint;
  creator?: string;
  includeAll?: boolean;
}

export type ApplicationBoxesParams = PageParams;

export interface ApplicationLogsParams extends PageParams {
  maxRound?: Uint;
  minRound?: Uint;
  senderAddress?: string;
  txid?: string;
}

export interface SearchAssetsParams extends PageParams {
  assetId?: Uint;
  creator?: string;
  includeAll?: boolean;
  name?: string;
  unit?: string;
}

export interface AssetBalancesParams extends PageParams {
  currencyGreaterThan?: Uint;
  currencyLessThan?: Uint;
  includeAll?: boolean;
}

export interface BlockHeadersParams extends PageParams {
  absent?: readonly string[];
  expired?: readonly string[];
  proposers?: readonly string[];
  afterTime?: Time;
  beforeTime?: Time;
  maxRound?: Uint;
  minRound?: Uint;
}

/** Box name in one of the forms the service parses (query-service.md op 11). */
export type BoxName = Uint8Array | { int: Uint } | { str: string } | { addr: string } | { b64: string };
