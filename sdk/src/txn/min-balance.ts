/**
 * The minimum-balance rule (protocol.md §2): what an account must hold for what it owns. One
 * function for the ledger, the interpreter's own in-memory ledger and anything else that needs it.
 */
import type { ConsensusLimits } from './limits.js';

/** The per-item amounts (microAlgos) of the minimum-balance schedule. */
export interface MinBalanceSchedule {
  /** Every account's base minimum. */
  minBalance: bigint;
  /** Per asset held or created. */
  assetMinBalance: bigint;
  /** Per app created, and per extra program page. */
  appFlatParamsMinBalance: bigint;
  /** Per app opted into. */
  appFlatOptInMinBalance: bigint;
  /** Per key-value entry of every schema the account pays for. */
  schemaMinBalancePerEntry: bigint;
  /** Added per uint entry. */
  schemaUintMinBalance: bigint;
  /** Added per byte-slice entry. */
  schemaBytesMinBalance: bigint;
  /** Per box the account's app owns. */
  boxFlatMinBalance: bigint;
  /** Per byte of box names and values. */
  boxByteMinBalance: bigint;
}

/** What an account owns that the schedule charges for (the node's account totals). */
export interface MinBalanceUsage {
  totalAssets: bigint;
  totalAppsCreated: bigint;
  totalAppsOptedIn: bigint;
  totalNumUint: bigint;
  totalNumByteSlice: bigint;
  totalExtraAppPages: bigint;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
}

/** The schedule in force under consensus parameters `c` (unchanged since boxes arrived). */
export function minBalanceScheduleFor(c: Pick<ConsensusLimits, 'minBalance'>): MinBalanceSchedule {
  return {
    minBalance: c.minBalance,
    assetMinBalance: c.minBalance,
    appFlatParamsMinBalance: 100_000n,
    appFlatOptInMinBalance: 100_000n,
    schemaMinBalancePerEntry: 25_000n,
    schemaUintMinBalance: 3_500n,
    schemaBytesMinBalance: 25_000n,
    boxFlatMinBalance: 2_500n,
    boxByteMinBalance: 400n,
  };
}

/** The minimum balance of an account with usage `u` under schedule `s`. */
export function minimumBalance(s: MinBalanceSchedule, u: MinBalanceUsage): bigint {
  return (
    s.minBalance +
    s.assetMinBalance * u.totalAssets +
    s.appFlatParamsMinBalance * (u.totalAppsCreated + u.totalExtraAppPages) +
    s.appFlatOptInMinBalance * u.totalAppsOptedIn +
    s.schemaMinBalancePerEntry * (u.totalNumUint + u.totalNumByteSlice) +
    s.schemaUintMinBalance * u.totalNumUint +
    s.schemaBytesMinBalance * u.totalNumByteSlice +
    s.boxFlatMinBalance * u.totalBoxes +
    s.boxByteMinBalance * u.totalBoxBytes
  );
}
