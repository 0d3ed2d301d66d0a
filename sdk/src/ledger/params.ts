import { CONSENSUS_V41, CONSENSUS_V42, type ConsensusLimits } from '../txn/limits.js';
import { minBalanceScheduleFor, type MinBalanceSchedule } from '../txn/min-balance.js';
import { avmLimitsFor, type AvmLimits } from '../avm/context.js';

/**
 * The consensus parameters the ledger enforces (protocol.md §2). One object so a devnet can be run
 * on an older or experimental protocol by passing an adjusted copy; the default is V42 / AVM 13.
 */
export interface ConsensusParams extends MinBalanceSchedule {
  /** Protocol name written into block headers (`proto`). */
  protocol: string;
  /** Newest program version accepted (LogicSigVersion). */
  maxAvmVersion: number;
  /** Transaction-shape limits shared with the txn layer (notes, args, refs, fee surcharges…). */
  txn: ConsensusLimits;
  minTxnFee: bigint;
  maxTxnLife: bigint;
  maxTxGroupSize: number;
  maxBoxSize: number;
  /** Interpreter limits (budgets, log limits, box I/O per reference…). */
  avm: AvmLimits;
  /** Reject v13+ escrow logic signatures whose program hash is an ed25519 point (V42). */
  offCurveEscrowRule: boolean;
  /** Fee an online key registration must pay to make the account incentive-eligible (V40+). */
  goOnlineFee: bigint;
}

/**
 * The ledger's parameters for one protocol, every shared number read from its consensus
 * parameters `c` (so the interpreter, the transaction validator, the ledger and simulate cannot
 * disagree); only ledger-only facts (minimum-balance schedule, protocol name) are added here.
 */
export function consensusParamsFor(c: ConsensusLimits, extra: { protocol: string; offCurveEscrowRule: boolean }): Readonly<ConsensusParams> {
  return Object.freeze({
    protocol: extra.protocol,
    maxAvmVersion: c.logicSigVersion,
    txn: c,
    ...minBalanceScheduleFor(c),
    minTxnFee: c.minTxnFee,
    maxTxnLife: BigInt(c.maxTxnLife),
    maxTxGroupSize: c.maxTxGroupSize,
    maxBoxSize: c.maxBoxSize,
    avm: Object.freeze(avmLimitsFor(c)),
    offCurveEscrowRule: extra.offCurveEscrowRule,
    goOnlineFee: 2_000_000n,
  });
}

/** Protocol V42 (AVM 13): the current protocol, the devnet's default, named by the URL algod reports. */
export const CONSENSUS_PARAMS_V42: Readonly<ConsensusParams> = consensusParamsFor(CONSENSUS_V42, {
  protocol: 'https://github.com/algorandfoundation/specs/tree/268b63433a907455d439995bf916f6b296018f4f',
  offCurveEscrowRule: true,
});

/** Protocol V41 (AVM 12): the previous protocol, for checking a contract against it. */
export const CONSENSUS_PARAMS_V41: Readonly<ConsensusParams> = consensusParamsFor(CONSENSUS_V41, {
  protocol: 'https://github.com/algorandfoundation/specs/tree/953304de35264fc3ef91bcd05c123242015eeaed',
  offCurveEscrowRule: false,
});

/** The current protocol's parameters (V42). */
export const CONSENSUS_CURRENT: Readonly<ConsensusParams> = CONSENSUS_PARAMS_V42;

/** Well-known special accounts of the public networks, reused by the devnet. */
export const DEFAULT_FEE_SINK = 'A7NMWS3NT3IUDMLVO26ULGXGIIOUQ3ND2TXSER6EBGRZNOBOUIQXHIBGDE';
/** The rewards pool address of the embedded devnet. */
export const DEFAULT_REWARDS_POOL = '7777777777777777777777777777777777777777777777777774MSJUVU';
/** The genesis id of the embedded devnet. */
export const DEFAULT_GENESIS_ID = 'tealworks-devnet-v1';
