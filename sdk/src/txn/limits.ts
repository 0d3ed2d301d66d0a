/**
 * The consensus parameters (protocol.md §2.3, §2.6): the one table every limit is read from — the
 * transaction validator, the AVM (`avmLimitsFor`), the ledger (`consensusParamsFor`) and
 * simulate. The defaults are the current protocol (V42); pass `CONSENSUS_V41` (or an adjusted
 * copy) for an older network.
 */
export interface ConsensusLimits {
  /** Note bytes allowed free of surcharge (MaxTxnNoteBytes). */
  maxNoteBytes: number;
  /** Absolute note limit; bytes above maxNoteBytes are charged (V42). Equal to maxNoteBytes before V42. */
  maxAbsoluteNoteBytes: number;
  maxTxnLife: number;
  maxTxGroupSize: number;
  minTxnFee: bigint;
  maxAppArgs: number;
  maxAppArgLen: number;
  /** Argument bytes free of surcharge (MaxAppTotalArgLen). */
  maxAppTotalArgLen: number;
  /** Absolute argument total (V42); above maxAppTotalArgLen is charged. */
  maxAbsoluteAppTotalArgLen: number;
  maxAppTxnAccounts: number;
  maxAppTxnForeignApps: number;
  maxAppTxnForeignAssets: number;
  maxAppBoxReferences: number;
  maxAppTotalTxnReferences: number;
  maxAppAccess: number;
  maxGlobalSchemaEntries: number;
  maxLocalSchemaEntries: number;
  /** Extra pages allowed without surcharge (MaxExtraAppProgramPages). */
  maxExtraAppProgramPages: number;
  /** Absolute extra page limit (V42 MaxAbsoluteExtraProgramPages). */
  maxAbsoluteExtraProgramPages: number;
  programPageSize: number;
  maxBoxNameBytes: number;
  maxAssetNameBytes: number;
  maxAssetUnitNameBytes: number;
  maxAssetUrlBytes: number;
  maxAssetDecimals: number;
  maxLogicSigSize: number;
  maxLogicSigArgs: number;
  maxKeyregVotePeriod: bigint;
  /** Per-byte fee surcharge in millionths of a min fee (V42 PerByteTxnSurcharge); 0 before V42. */
  perByteTxnSurcharge: number;
  /** Newest program version the protocol accepts (LogicSigVersion): 12 in V41, 13 in V42. */
  logicSigVersion: number;
  /** Oldest program version an inner app call may run (MinInnerApplVersion). */
  minInnerApplVersion: number;
  /** Opcode budget of one app call (MaxAppProgramCost); pooled across a group. */
  maxAppProgramCost: number;
  /** Opcode budget of one logic signature (LogicSigMaxCost); pooled across a group. */
  logicSigMaxCost: number;
  /** Inner transactions one top-level transaction may issue (MaxInnerTransactions × group size pooled). */
  maxInnerTransactions: number;
  /** Nesting depth of inner app calls. */
  maxAppCallDepth: number;
  /** `log` calls per transaction, and their total bytes. */
  maxLogCalls: number;
  maxLogSize: number;
  /** Minimum balance of an account (MinBalance); also the per-asset holding minimum. */
  minBalance: bigint;
  /** Box I/O bytes each box reference buys (BytesPerBoxReference). */
  bytesPerBoxReference: number;
  maxBoxSize: number;
  maxAppKeyLen: number;
  maxAppBytesValueLen: number;
  maxAppSumKeyValueLens: number;
  /** Combined approval + clear size per page (MaxAppTotalProgramLen). */
  maxAppTotalProgramLen: number;
  /** Since V38 (AppForbidLowResources): a reference resolving to an app or asset id ≤ 255 fails. */
  appForbidLowResources: boolean;
  /** V42 (AppSizeUpdates): an update may also change the global schema and extra pages. */
  appSizeUpdates: boolean;
  /** Simulate's ceiling on `extra-opcode-budget` (LogicSigMaxCost × MaxTxGroupSize). */
  simulateMaxExtraOpcodeBudget: number;
  /** Simulate's `allow-more-logging` limits. */
  simulateMaxLogCalls: number;
  simulateMaxLogSize: number;
}

/** Transaction limits of consensus version 42. */
export const CONSENSUS_V42: Readonly<ConsensusLimits> = Object.freeze({
  maxNoteBytes: 1024,
  maxAbsoluteNoteBytes: 4096,
  maxTxnLife: 1000,
  maxTxGroupSize: 16,
  minTxnFee: 1000n,
  maxAppArgs: 16,
  maxAppArgLen: 4096,
  maxAppTotalArgLen: 2048,
  maxAbsoluteAppTotalArgLen: 16384,
  maxAppTxnAccounts: 8,
  maxAppTxnForeignApps: 8,
  maxAppTxnForeignAssets: 8,
  maxAppBoxReferences: 8,
  maxAppTotalTxnReferences: 8,
  maxAppAccess: 16,
  maxGlobalSchemaEntries: 64,
  maxLocalSchemaEntries: 16,
  maxExtraAppProgramPages: 3,
  maxAbsoluteExtraProgramPages: 7,
  programPageSize: 2048,
  maxBoxNameBytes: 64,
  maxAssetNameBytes: 32,
  maxAssetUnitNameBytes: 8,
  maxAssetUrlBytes: 96,
  maxAssetDecimals: 19,
  maxLogicSigSize: 1000,
  maxLogicSigArgs: 255,
  maxKeyregVotePeriod: 256n * 65536n - 1n,
  perByteTxnSurcharge: 100,
  logicSigVersion: 13,
  minInnerApplVersion: 4,
  maxAppProgramCost: 700,
  logicSigMaxCost: 20000,
  maxInnerTransactions: 16,
  maxAppCallDepth: 8,
  maxLogCalls: 32,
  maxLogSize: 1024,
  minBalance: 100_000n,
  bytesPerBoxReference: 2048,
  maxBoxSize: 32768,
  maxAppKeyLen: 64,
  maxAppBytesValueLen: 128,
  maxAppSumKeyValueLens: 128,
  maxAppTotalProgramLen: 2048,
  appForbidLowResources: true,
  appSizeUpdates: true,
  simulateMaxExtraOpcodeBudget: 20000 * 16,
  simulateMaxLogCalls: 2048,
  simulateMaxLogSize: 65536,
});

/** V41: same references, but no note/arg/program surcharges, AVM v12, no size-changing updates. */
export const CONSENSUS_V41: Readonly<ConsensusLimits> = Object.freeze({
  ...CONSENSUS_V42,
  maxAbsoluteNoteBytes: 1024,
  maxAbsoluteAppTotalArgLen: 2048,
  maxAbsoluteExtraProgramPages: 3,
  perByteTxnSurcharge: 0,
  logicSigVersion: 12,
  appSizeUpdates: false,
});

/** The limits builders and validation use unless given others (the current consensus version). */
export const DEFAULT_LIMITS = CONSENSUS_V42;
