/**
 * Consensus limits that shape transaction validation (protocol.md §2.3, §2.6). The defaults are
 * the current protocol (V42); pass an adjusted copy to validate for an older network.
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
});

/** V41: same references, but no note/arg/program surcharges. */
export const CONSENSUS_V41: Readonly<ConsensusLimits> = Object.freeze({
  ...CONSENSUS_V42,
  maxAbsoluteNoteBytes: 1024,
  maxAbsoluteAppTotalArgLen: 2048,
  maxAbsoluteExtraProgramPages: 3,
  perByteTxnSurcharge: 0,
});

/** The limits builders and validation use unless given others (the current consensus version). */
export const DEFAULT_LIMITS = CONSENSUS_V42;
