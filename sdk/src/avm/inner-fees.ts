import { groupUsage, transactionUsage, USAGE_UNIT } from '../txn/fees.js';
import type { ConsensusLimits } from '../txn/limits.js';
import type { SignedTransaction, Transaction } from '../txn/types.js';
import type { InnerDraft } from './context.js';

/**
 * Residues are fractions of a microAlgo kept over 1e12: the fee is `minFee × usage × 1e6 / 1e12`,
 * so the remainder of that division is already on this scale (protocol.md §2.6).
 */
export const FEE_RESIDUE_SCALE = 1_000_000_000_000n;
const COST_MULTIPLIER = USAGE_UNIT;

export interface FeeCharge {
  fee: bigint;
  residue: bigint;
}

/**
 * The fee `usage` requires given the fraction of a microAlgo earlier charges already rounded up
 * (`residue`). Rounding up happens only when the carried fraction cannot absorb this one, so the
 * top-level group and all of its inner groups round up once in aggregate.
 */
export function feeForUsage(minFee: bigint, usage: bigint, residue: bigint): FeeCharge {
  const scaled = minFee * usage * COST_MULTIPLIER;
  const quo = scaled / FEE_RESIDUE_SCALE;
  const rem = scaled % FEE_RESIDUE_SCALE;
  if (rem === 0n) return { fee: quo, residue };
  if (rem <= residue) return { fee: quo, residue: residue - rem };
  return { fee: quo + 1n, residue: FEE_RESIDUE_SCALE - (rem - residue) };
}

/** Credit a top-level group starts with (fees paid beyond what its usage needs) and the round-up residue. */
export function topLevelFeeCredit(
  group: readonly (SignedTransaction | Transaction)[],
  minFee: bigint,
  rules: ConsensusLimits,
): { credit: bigint; residue: bigint } {
  const usage = groupUsage(group, rules);
  const { fee, residue } = feeForUsage(minFee, usage, 0n);
  let paid = 0n;
  for (const x of group) paid += 'txn' in x ? x.txn.fee : x.fee;
  return { credit: paid > fee ? paid - fee : 0n, residue };
}

/** Fee usage of an inner draft, as its transaction would be charged (only app calls pay for programs and args). */
export function draftUsage(d: InnerDraft, rules: ConsensusLimits): bigint {
  const shape = {
    type: d.type ?? 'pay',
    ...(d.note ? { note: d.note } : {}),
    ...(d.type === 'appl'
      ? { appCall: { args: d.args, ...(d.approval ? { approvalProgram: d.approval } : {}), ...(d.clear ? { clearProgram: d.clear } : {}) } }
      : {}),
  } as unknown as Transaction;
  return transactionUsage(shape, rules);
}

/** Total usage and fees paid of an inner group so far. */
export function innerGroupUsage(list: readonly InnerDraft[], rules: ConsensusLimits): { usage: bigint; paid: bigint } {
  let usage = 0n;
  let paid = 0n;
  for (const d of list) {
    usage += draftUsage(d, rules);
    paid += d.fee;
  }
  return { usage, paid };
}
