import { CONSENSUS_V42, type ConsensusLimits } from '../txn/limits.js';
import { DEFAULT_LIMITS as AVM_DEFAULT_LIMITS, type AvmLimits } from '../avm/context.js';

/**
 * The consensus parameters the ledger enforces (protocol.md §2). One object so a devnet can be run
 * on an older or experimental protocol by passing an adjusted copy; the default is V42 / AVM 13.
 */
export interface ConsensusParams {
  /** Protocol name written into block headers (`proto`). */
  protocol: string;
  /** Newest program version accepted (LogicSigVersion). */
  maxAvmVersion: number;
  /** Transaction-shape limits shared with the txn layer (notes, args, refs, fee surcharges…). */
  txn: ConsensusLimits;
  minBalance: bigint;
  minTxnFee: bigint;
  maxTxnLife: bigint;
  maxTxGroupSize: number;
  assetMinBalance: bigint;
  appFlatParamsMinBalance: bigint;
  appFlatOptInMinBalance: bigint;
  schemaMinBalancePerEntry: bigint;
  schemaUintMinBalance: bigint;
  schemaBytesMinBalance: bigint;
  boxFlatMinBalance: bigint;
  boxByteMinBalance: bigint;
  maxBoxSize: number;
  /** Interpreter limits (budgets, log limits, box I/O per reference…). */
  avm: AvmLimits;
  /** Reject v13+ escrow logic signatures whose program hash is an ed25519 point (V42). */
  offCurveEscrowRule: boolean;
  /** Fee an online key registration must pay to make the account incentive-eligible (V40+). */
  goOnlineFee: bigint;
}

/** The consensus parameters of the current protocol: the one source of every limit the ledger enforces. */
export const CONSENSUS_CURRENT: Readonly<ConsensusParams> = Object.freeze({
  protocol: 'https://github.com/algorandfoundation/specs/tree/v42',
  maxAvmVersion: 13,
  txn: CONSENSUS_V42,
  minBalance: 100_000n,
  minTxnFee: 1000n,
  maxTxnLife: 1000n,
  maxTxGroupSize: 16,
  assetMinBalance: 100_000n,
  appFlatParamsMinBalance: 100_000n,
  appFlatOptInMinBalance: 100_000n,
  schemaMinBalancePerEntry: 25_000n,
  schemaUintMinBalance: 3_500n,
  schemaBytesMinBalance: 25_000n,
  boxFlatMinBalance: 2_500n,
  boxByteMinBalance: 400n,
  maxBoxSize: 32768,
  avm: Object.freeze({
    ...AVM_DEFAULT_LIMITS,
    maxExtraAppProgramPages: CONSENSUS_V42.maxAbsoluteExtraProgramPages,
    maxAppTotalArgLen: CONSENSUS_V42.maxAbsoluteAppTotalArgLen,
    maxTxnNoteBytes: CONSENSUS_V42.maxAbsoluteNoteBytes,
  }),
  offCurveEscrowRule: true,
  goOnlineFee: 2_000_000n,
});

/** Well-known special accounts of the public networks, reused by the devnet. */
export const DEFAULT_FEE_SINK = 'A7NMWS3NT3IUDMLVO26ULGXGIIOUQ3ND2TXSER6EBGRZNOBOUIQXHIBGDE';
/** The rewards pool address of the embedded devnet. */
export const DEFAULT_REWARDS_POOL = '7777777777777777777777777777777777777777777777777774MSJUVU';
/** The genesis id of the embedded devnet. */
export const DEFAULT_GENESIS_ID = 'tealworks-devnet-v1';
