import { arr, numOf, obj, rawResponse } from './response-read.js';
import { readUnnamedResources, type UnnamedResources } from './simulate-report.js';

/*
 * The part of a simulate answer a probe reads (internal: the composer's send). Reads the members
 * with the same helpers as `buildSimulateReport`, so the values are the report's own.
 */

/** What a probing simulate is read for: its verdict, its failure message and the resources it used unnamed. */
export interface SimulateOutline {
  wouldSucceed: boolean;
  failureMessage?: string;
  /** Group-wide unnamed resources. */
  unnamedResources?: UnnamedResources;
  /** Per top-level transaction: the resources only it could name. */
  txns: { unnamedResources?: UnnamedResources }[];
}

/**
 * The members of `buildSimulateReport`'s report that a probe reads (same values, read the
 * same way), without decoding logs, events, state changes or explaining a failure.
 */
export function simulateOutline(response: unknown): SimulateOutline {
  const root = rawResponse(response);
  const group = obj(arr(root['txn-groups'])[0]);
  const failedAtRaw = arr(group['failed-at']).map(numOf);
  const failedAt = failedAtRaw.length && failedAtRaw.every((n) => n !== undefined) ? (failedAtRaw as number[]) : undefined;
  const failureMessage = typeof group['failure-message'] === 'string' && group['failure-message'] !== '' ? group['failure-message'] : undefined;
  const out: SimulateOutline = {
    wouldSucceed: failedAt === undefined && failureMessage === undefined,
    txns: arr(group['txn-results']).map((r) => {
      const u = readUnnamedResources(obj(r)['unnamed-resources-accessed']);
      return u ? { unnamedResources: u } : {};
    }),
  };
  if (failureMessage) out.failureMessage = failureMessage;
  const unnamed = readUnnamedResources(group['unnamed-resources-accessed']);
  if (unnamed) out.unnamedResources = unnamed;
  return out;
}
