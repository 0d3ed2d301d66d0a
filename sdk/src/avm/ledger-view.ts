import type { Transaction } from '../txn/types.js';

/** A TEAL state value as stored: uint64 or bytes. */
export type TealValue = bigint | Uint8Array;

/** An account as the evaluator reads it: balance, minimum-balance counts, auth address, participation. */
export interface AccountRecord {
  balance: bigint;
  /** Rekeyed-to address; absent when the account signs for itself. */
  authAddr?: Uint8Array;
  totalNumUint: bigint;
  totalNumByteSlice: bigint;
  totalExtraAppPages: bigint;
  totalAppsCreated: bigint;
  totalAppsOptedIn: bigint;
  totalAssetsCreated: bigint;
  totalAssets: bigint;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
  incentiveEligible: boolean;
  lastProposed: bigint;
  lastHeartbeat: bigint;
}

/** An account's holding of an asset as the evaluator reads it. */
export interface AssetHoldingRecord {
  amount: bigint;
  frozen: boolean;
}

/** Asset parameters as the evaluator reads them. */
export interface AssetParamsRecord {
  creator: Uint8Array;
  total: bigint;
  decimals: bigint;
  defaultFrozen: boolean;
  unitName: Uint8Array;
  name: Uint8Array;
  url: Uint8Array;
  metadataHash: Uint8Array;
  manager: Uint8Array;
  reserve: Uint8Array;
  freeze: Uint8Array;
  clawback: Uint8Array;
}

/** App parameters as the evaluator reads them: programs, schemas, extra pages, creator. */
export interface AppParamsRecord {
  creator: Uint8Array;
  approvalProgram: Uint8Array;
  clearStateProgram: Uint8Array;
  globalNumUint: bigint;
  globalNumByteSlice: bigint;
  localNumUint: bigint;
  localNumByteSlice: bigint;
  extraProgramPages: bigint;
  /** Bumped by every update (AppVersion, v12). */
  version: bigint;
  sizeSponsor?: Uint8Array;
  foreignBoxReads?: boolean;
  familyBoxAccess?: boolean;
}

/** The block header fields programs can read (`block` opcode). */
export interface BlockHeaderRecord {
  seed: Uint8Array;
  timestamp: bigint;
  proposer: Uint8Array;
  feesCollected: bigint;
  bonus: bigint;
  branch: Uint8Array;
  branch512?: Uint8Array;
  feeSink: Uint8Array;
  protocol: Uint8Array;
  txnCounter: bigint;
  proposerPayout: bigint;
  sha512_256TxnCommitment?: Uint8Array;
  sha256TxnCommitment?: Uint8Array;
  sha512TxnCommitment?: Uint8Array;
}

/** An account's online stake as `voter_params_get` reads it. */
export interface VoterRecord {
  balance: bigint;
  incentiveEligible: boolean;
}

/** What the node knows of the chain at evaluation time (global fields). */
export interface ChainInfo {
  round: bigint;
  latestTimestamp: bigint;
  genesisHash: Uint8Array;
  payoutsEnabled: boolean;
  payoutsGoOnlineFee: bigint;
  payoutsPercent: bigint;
  payoutsMinBalance: bigint;
  payoutsMaxBalance: bigint;
}

/**
 * Everything programs read or change outside their own transaction group. The interpreter never
 * assumes a storage layout; the devnet ledger implements this over its state, tests use
 * `InMemoryLedgerView`. All addresses are 32-byte public keys.
 */
export interface LedgerView {
  chain(): ChainInfo;
  account(addr: Uint8Array): AccountRecord;
  /** Minimum balance as `basics.MinBalance` computes it for the account's current totals. */
  minBalance(addr: Uint8Array): bigint;
  assetHolding(addr: Uint8Array, assetId: bigint): AssetHoldingRecord | undefined;
  assetParams(assetId: bigint): AssetParamsRecord | undefined;
  appParams(appId: bigint): AppParamsRecord | undefined;
  setAppParamFlag?(appId: bigint, field: 'foreignBoxReads' | 'familyBoxAccess', value: boolean): void;
  optedIn(addr: Uint8Array, appId: bigint): boolean;
  getGlobal(appId: bigint, key: Uint8Array): TealValue | undefined;
  setGlobal(appId: bigint, key: Uint8Array, value: TealValue): void;
  delGlobal(appId: bigint, key: Uint8Array): void;
  getLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): TealValue | undefined;
  setLocal(addr: Uint8Array, appId: bigint, key: Uint8Array, value: TealValue): void;
  delLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): void;
  /** Number of global/local keys currently set (schema checks). */
  countGlobal?(appId: bigint): { uints: number; bytes: number };
  countLocal?(addr: Uint8Array, appId: bigint): { uints: number; bytes: number };
  getBox(appId: bigint, name: Uint8Array): Uint8Array | undefined;
  /** Creates or overwrites; keeps the app account's box totals. */
  putBox(appId: bigint, name: Uint8Array, value: Uint8Array): void;
  delBox(appId: bigint, name: Uint8Array): boolean;
  blockHeader(round: bigint): BlockHeaderRecord | undefined;
  /**
   * Rounds whose headers the view holds: [first, last]. Informational only — the interpreter
   * takes the window `block` and `txn FirstValidTime` may read from the running transaction's
   * validity range, as the node does (see `availableRounds` in ops/txn.ts).
   */
  blockRange?(): { first: bigint; last: bigint };
  voter?(addr: Uint8Array, round: bigint): VoterRecord | undefined;
  onlineStake?(): bigint;
  /**
   * Applies the non-program effects of an inner transaction (payments, asset operations, key
   * registration, app creation/opt-in/close-out/update/delete). Returns the ids it created.
   * For app calls the interpreter then runs the program itself.
   */
  applyInner(txn: Transaction, context: { appId?: bigint }): { createdAssetId?: bigint; createdAppId?: bigint; closingAmount?: bigint };
  /** Effects of an app call after its program approved (close-out, update, delete). */
  finishAppCall?(txn: Transaction, appId: bigint): void;
  /** Opaque checkpoint so a failed inner group (or ClearState) can be undone. */
  checkpoint?(): unknown;
  rollback?(token: unknown): void;
}
