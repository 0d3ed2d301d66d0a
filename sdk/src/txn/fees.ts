import { encodeMsgpack } from '../encoding/msgpack.js';
import { DEFAULT_LIMITS, type ConsensusLimits } from './limits.js';
import type { SignedTransaction, Transaction } from './types.js';
import { transactionToWire } from './wire.js';

/**
 * Bytes a signature envelope adds to an encoded transaction (`{sig: 64 bytes, txn: …}` framing);
 * the same constant algosdk uses, so per-byte fees match across SDKs.
 */
export const SIGNATURE_ENVELOPE_BYTES = 75;

/** Estimated size of the transaction once signed with a single key. */
export function estimateSignedSize(txn: Transaction): number {
  return encodeMsgpack(transactionToWire(txn)).length + SIGNATURE_ENVELOPE_BYTES;
}

/** Usage is counted in millionths of a minimum fee (protocol.md §2.6). */
export const USAGE_UNIT = 1_000_000n;

const PQ_SIG_USAGE = 2_000_000n;

function over(n: number, free: number): bigint {
  return n > free ? BigInt(n - free) : 0n;
}

/**
 * One transaction's fee usage in millionths of a min fee: 1e6 plus the V42 per-byte surcharges on
 * note bytes above the free note size, program bytes above four pages, and argument bytes above
 * the free argument total. State proofs are free.
 */
export function transactionUsage(txn: Transaction, limits: ConsensusLimits = DEFAULT_LIMITS): bigint {
  if (txn.type === 'stpf') return 0n;
  const per = BigInt(limits.perByteTxnSurcharge);
  let usage = USAGE_UNIT + per * over(txn.note?.length ?? 0, limits.maxNoteBytes);
  const app = txn.appCall;
  if (app) {
    const programs = (app.approvalProgram?.length ?? 0) + (app.clearProgram?.length ?? 0);
    usage += per * over(programs, limits.programPageSize * (1 + limits.maxExtraAppProgramPages));
    let args = 0;
    for (const a of app.args) args += a.length;
    usage += per * over(args, limits.maxAppTotalArgLen);
  }
  return usage;
}

function isSigned(x: Transaction | SignedTransaction): x is SignedTransaction {
  return (x as SignedTransaction).txn !== undefined;
}

/**
 * Usage of a whole group, including the logic-signature pool surcharge (program bytes beyond
 * `maxLogicSigSize` × group size are charged per byte) and post-quantum signatures (+2 min fees
 * each). A lone heartbeat is free.
 */
export function groupUsage(group: readonly (Transaction | SignedTransaction)[], limits: ConsensusLimits = DEFAULT_LIMITS): bigint {
  const txns = group.map((x) => (isSigned(x) ? x.txn : x));
  if (txns.length === 1 && txns[0]!.type === 'hb') return 0n;
  let usage = 0n;
  for (const t of txns) usage += transactionUsage(t, limits);
  let lsigBytes = 0;
  for (const x of group) {
    if (!isSigned(x)) continue;
    if (x.lsig) lsigBytes += x.lsig.program.length;
    // A post-quantum signature costs two extra minimum fees (V42).
    if (x.pqsig || x.lsig?.pqsig) usage += PQ_SIG_USAGE;
  }
  usage += BigInt(limits.perByteTxnSurcharge) * over(lsigBytes, limits.maxLogicSigSize * group.length);
  return usage;
}

/** `ceil(minFee × usage / 1e6)`: the least total fee the group must carry. */
export function requiredFee(group: readonly (Transaction | SignedTransaction)[] | Transaction, limits: ConsensusLimits = DEFAULT_LIMITS): bigint {
  const usage = Array.isArray(group) ? groupUsage(group, limits) : groupUsage([group as Transaction], limits);
  return (limits.minTxnFee * usage + USAGE_UNIT - 1n) / USAGE_UNIT;
}

/** Per-byte fee with a floor: `max(perByte × estimatedSignedSize, floor)`, algosdk's rule. */
export function feeForSize(perByte: bigint, signedSize: number, floor: bigint): bigint {
  const fee = perByte * BigInt(signedSize);
  return fee < floor ? floor : fee;
}
