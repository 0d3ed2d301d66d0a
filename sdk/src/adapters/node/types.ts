import type { DecodedBlock } from './typed-decode.js';
/**
 * One typed model for both node APIs (the /v1 node service and the public /v2 node API). Every
 * uint64 is a bigint; members a service does not report are absent, never zero-filled.
 */

export interface NodeStatus {
  lastRound: bigint;
  lastVersion: string;
  nextVersion: string;
  nextVersionRound: bigint;
  nextVersionSupported: boolean;
  stoppedAtUnsupportedRound: boolean;
  /** Nanoseconds. */
  timeSinceLastRound: bigint;
  /** Nanoseconds. */
  catchupTime: bigint;
  hasSyncedSinceStartup?: boolean;
}

/** A node's suggested transaction parameters: fees, last round, genesis id and hash (public name `NodeSuggestedParams`). */
export interface SuggestedParams {
  /** Fee per byte, micro-units (may be 0). */
  feePerByte: bigint;
  /** The protocol minimum fee; a transaction pays at least this even when `feePerByte` is 0. */
  minFee: bigint;
  /** Latest round: the natural first-valid round. */
  lastRound: bigint;
  genesisId: string;
  genesisHash: Uint8Array;
  consensusVersion: string;
}

/** What submitting a transaction group returns: the first transaction id (public name `NodeSubmitResult`). */
export interface SubmitResult {
  /** Id of the first transaction submitted. */
  txid: string;
  /** True when the first attempt's outcome was unknown and the transaction was found at the node rather than sent again. */
  recoveredAfterFailure?: boolean;
}

/** Pending-pool condition (node-service.md "States"). */
export type PendingState = 'committed' | 'in-pool' | 'rejected';

/** A transaction in (or through) the pending pool: its state, confirmed round, pool error, logs, created ids. */
export interface PendingTransaction {
  state: PendingState;
  /** 0n while not committed. */
  confirmedRound: bigint;
  /** Non-empty: this node evicted the transaction (other nodes may still commit it). */
  poolError: string;
  txid?: string;
  sender?: string;
  assetIndex?: bigint;
  applicationIndex?: bigint;
  logs?: Uint8Array[];
  /** Decoded signed transaction: typed (a `SignedTransaction`) from the /v2 msgpack answer, as the service returned it otherwise. */
  txn?: unknown;
  innerTxns?: PendingTransaction[];
}

/** An account's holding of one asset: amount and frozen flag. */
export interface AssetHolding {
  assetId: bigint;
  amount: bigint;
  frozen: boolean;
}

/** Asset parameters as a node reports them (public name `NodeAssetParams`). */
export interface AssetParams {
  creator: string;
  total: bigint;
  decimals: number;
  defaultFrozen: boolean;
  name?: string;
  unitName?: string;
  url?: string;
  /** The exact bytes of `name`, `unitName` and `url` (/v2 `name-b64` …), which need not be UTF-8. */
  nameBytes?: Uint8Array;
  unitNameBytes?: Uint8Array;
  urlBytes?: Uint8Array;
  metadataHash?: Uint8Array;
  manager?: string;
  reserve?: string;
  freeze?: string;
  clawback?: string;
}

/** An asset and its parameters as a node reports them. */
export interface AssetInfo {
  index: bigint;
  params: AssetParams;
}

/** A state schema as a node reports it (public name `NodeStateSchema`). */
export interface StateSchema {
  numUint: number;
  numByteSlice: number;
}

/** A state key with its value (bytes or uint) as a node reports it. */
export interface TealKeyValue {
  key: Uint8Array;
  /** bytes for byte-slice values, bigint for uint values. */
  value: Uint8Array | bigint;
}

/** Application parameters: creator, programs, schemas, extra pages and global state. */
export interface AppParams {
  creator?: string;
  approvalProgram: Uint8Array;
  clearStateProgram: Uint8Array;
  globalState: TealKeyValue[];
  globalSchema?: StateSchema;
  localSchema?: StateSchema;
  extraProgramPages?: number;
  /** Times the app was updated (AppVersion), when the node reports it. */
  version?: bigint;
}

/** An application and its parameters as a node reports them. */
export interface AppInfo {
  id: bigint;
  params: AppParams;
}

/** An account as a node reports it: balance, minimum balance, status, holdings, created assets and apps. */
export interface AccountInfo {
  address: string;
  amount: bigint;
  amountWithoutPendingRewards: bigint;
  pendingRewards: bigint;
  rewards: bigint;
  round: bigint;
  /** `Offline`, `Online` or `NotParticipating` (both spellings of the last one fold to this). */
  status: string;
  minBalance?: bigint;
  authAddress?: string;
  assets: AssetHolding[];
  createdAssets: AssetInfo[];
  createdApps: AppInfo[];
  /** Local state of each opted-in app with its schema (/v2 `apps-local-state`). */
  appsLocalState?: AppLocalState[];
  /** Boxes of the app this account belongs to, and their total bytes (names + values). */
  totalBoxes?: bigint;
  totalBoxBytes?: bigint;
  incentiveEligible?: boolean;
  lastProposed?: bigint;
  lastHeartbeat?: bigint;
}

/** An account's local state in one app: the app id, its local schema and the key-values. */
export interface AppLocalState {
  id: bigint;
  schema?: StateSchema;
  keyValue: TealKeyValue[];
}

/** A box: name, value and the round it was read at. */
export interface BoxValue {
  name: Uint8Array;
  value: Uint8Array;
  round?: bigint;
}

/**
 * One page of an application's boxes in the node's paged form (`/v2/applications/{id}/boxes` with
 * `limit`, `next`, `prefix`, `include=values` or `round`): names ascending. A node that predates
 * the paged form answers with every name and no `round`, values or `nextToken`.
 */
export interface BoxesPage {
  /** The round the page was read at (absent from a node without the paged form). */
  round?: bigint;
  /** The page's last name as `b64:…` when more boxes follow: the `next` of the following page. */
  nextToken?: string;
  /** The boxes, each with its value when values were asked for (and the node gave them). */
  boxes: { name: Uint8Array; value?: Uint8Array }[];
}

/** A block as a node reports it: round, timestamp, genesis id and hash, proposer, and the raw answer. */
export interface BlockInfo {
  round: bigint;
  /** Seconds since the epoch. */
  timestamp: bigint;
  genesisId?: string;
  genesisHash?: Uint8Array;
  proposer?: string;
  /** The service's block record, decoded but otherwise untouched. */
  raw: unknown;
  /** The block in typed form, when the node answered in msgpack (public /v2 node API). */
  decoded?: DecodedBlock;
}

/** The supply of the native currency: total and online money at a round. */
export interface Supply {
  round: bigint;
  totalMoney: bigint;
  onlineMoney: bigint;
}

/** Options of a simulate request: empty signatures, unnamed resources, extra budget, trace, round. */
export interface SimulateOptions {
  allowEmptySignatures?: boolean;
  allowUnnamedResources?: boolean;
  allowMoreLogging?: boolean;
  extraOpcodeBudget?: number;
  round?: bigint;
  execTrace?: boolean;
  fixSigners?: boolean;
}

/** One transaction of a simulate answer. */
export interface SimulatedTxn {
  result: PendingTransaction;
  missingSignature?: boolean;
  appBudgetConsumed?: number;
  logicSigBudgetConsumed?: number;
  fixedSigner?: string;
  raw: unknown;
}

/** A simulate answer: whether the group would succeed, the failing path and message, per-transaction results, budget, and the raw response. */
export interface SimulateResult {
  /** False on any failure; the older (version 1) responses also count a missing signature as failure. */
  wouldSucceed: boolean;
  /** Path to the failing transaction (top index, inner index, …); empty on success. */
  failedAt: number[];
  failureMessage?: string;
  lastRound?: bigint;
  version?: number;
  txns: SimulatedTxn[];
  appBudgetAdded?: number;
  appBudgetConsumed?: number;
  raw: unknown;
}

/** What a node's TEAL compile endpoint returns: program bytes and their hash (address). */
export interface CompileResult {
  hash: string;
  program: Uint8Array;
}

/** How long to wait for confirmation (rounds) and how to abort. */
export interface WaitOptions {
  /** Rounds to wait after the current one before giving up. Default 10. */
  maxRounds?: number;
  signal?: AbortSignal;
}
