import { bytesEqual } from '../encoding/bytes.js';
import { DEFAULT_LIMITS, type ConsensusLimits } from '../txn/limits.js';
import { displayBytes } from './state-decode.js';
import type { SimulateReport, UnnamedResources } from './simulate-report.js';

/*
 * Filling in the references a group forgot, from what a simulate run (with
 * allow-unnamed-resources) says it touched. Resources reported on a transaction (programs before
 * v9, which cannot share) must go on that transaction; group-level ones may go on any app call of
 * the group, so they are spread over the calls with room left, keeping each account/asset or
 * account/app pair and each box next to its app on one call.
 */

/** A box reference: app id and box name. */
export interface BoxRef {
  /** The app owning the box (the called app's own id is fine: encoding turns it into index 0). */
  app: bigint;
  name: Uint8Array;
}

/** The references one app call of a group names: accounts, apps, assets, boxes. */
export interface AppCallRefs {
  /** Position in the group. */
  index: number;
  appId: bigint;
  sender: string;
  accounts: string[];
  apps: bigint[];
  assets: bigint[];
  boxes: BoxRef[];
}

/** App calls with the references a simulate run found missing added, within per-transaction limits. */
export interface PopulateResult {
  calls: AppCallRefs[];
  /** Resources that did not fit anywhere, described for the user. */
  unplaced: string[];
  /** How many references were added. */
  added: number;
}

type Limits = Pick<
  ConsensusLimits,
  'maxAppTxnAccounts' | 'maxAppTxnForeignApps' | 'maxAppTxnForeignAssets' | 'maxAppBoxReferences' | 'maxAppTotalTxnReferences'
>;

function total(c: AppCallRefs): number {
  return c.accounts.length + c.apps.length + c.assets.length + c.boxes.length;
}

interface Need {
  accounts?: string[];
  apps?: bigint[];
  assets?: bigint[];
  boxes?: BoxRef[];
}

function hasAccount(c: AppCallRefs, a: string): boolean {
  return c.sender === a || c.accounts.includes(a);
}
function hasApp(c: AppCallRefs, id: bigint): boolean {
  return c.appId === id || c.apps.includes(id);
}
function hasBox(c: AppCallRefs, b: BoxRef): boolean {
  // Empty references only buy I/O budget: each one counts, so none is ever "already there".
  if (b.app === 0n && b.name.length === 0) return false;
  return c.boxes.some((x) => x.app === b.app && bytesEqual(x.name, b.name));
}

/** What `need` still adds to `c` (items it already has cost nothing). */
function missing(c: AppCallRefs, need: Need): Required<Need> {
  return {
    accounts: [...new Set(need.accounts ?? [])].filter((a) => !hasAccount(c, a)),
    apps: [...new Set(need.apps ?? [])].filter((a) => !hasApp(c, a)),
    assets: [...new Set(need.assets ?? [])].filter((a) => !c.assets.includes(a)),
    boxes: (need.boxes ?? []).filter((b) => !hasBox(c, b)),
  };
}

function fits(c: AppCallRefs, m: Required<Need>, limits: Limits): boolean {
  return (
    c.accounts.length + m.accounts.length <= limits.maxAppTxnAccounts &&
    c.apps.length + m.apps.length <= limits.maxAppTxnForeignApps &&
    c.assets.length + m.assets.length <= limits.maxAppTxnForeignAssets &&
    c.boxes.length + m.boxes.length <= limits.maxAppBoxReferences &&
    total(c) + m.accounts.length + m.apps.length + m.assets.length + m.boxes.length <= limits.maxAppTotalTxnReferences
  );
}

function apply(c: AppCallRefs, m: Required<Need>): number {
  c.accounts.push(...m.accounts);
  c.apps.push(...m.apps);
  c.assets.push(...m.assets);
  c.boxes.push(...m.boxes);
  return m.accounts.length + m.apps.length + m.assets.length + m.boxes.length;
}

/** Each resource as the set of references that must sit together on one call. */
function needs(u: UnnamedResources): Array<{ need: Need; what: string }> {
  const out: Array<{ need: Need; what: string }> = [];
  for (const h of u.assetHoldings) out.push({ need: { accounts: [h.account], assets: [h.asset] }, what: `holding of asset ${h.asset} by ${h.account}` });
  for (const l of u.appLocals) out.push({ need: { accounts: [l.account], apps: [l.app] }, what: `local state of app ${l.app} for ${l.account}` });
  for (const b of u.boxes) out.push({ need: { boxes: [b], ...(b.app !== 0n ? { apps: [b.app] } : {}) }, what: `box ${displayBytes(b.name)} of app ${b.app}` });
  for (const a of u.accounts) out.push({ need: { accounts: [a] }, what: `account ${a}` });
  for (const a of u.apps) out.push({ need: { apps: [a] }, what: `app ${a}` });
  for (const a of u.assets) out.push({ need: { assets: [a] }, what: `asset ${a}` });
  for (let i = 0; i < u.extraBoxRefs; i++)
    out.push({ need: { boxes: [{ app: 0n, name: new Uint8Array(0) }] }, what: 'an extra (empty) box reference for I/O budget' });
  return out;
}

function availableInGroup(calls: readonly AppCallRefs[], need: Need): boolean {
  // With resource sharing, a reference on any call of the group serves them all — but pairs
  // and boxes still need their parts, so only single references are skipped here.
  const n = (need.accounts?.length ?? 0) + (need.apps?.length ?? 0) + (need.assets?.length ?? 0) + (need.boxes?.length ?? 0);
  if (n !== 1) return false;
  return calls.some((c) => {
    const m = missing(c, need);
    return m.accounts.length + m.apps.length + m.assets.length + m.boxes.length === 0;
  });
}

/** Adds the unnamed resources a simulate report lists to the group's app calls, placing each where the limits allow. */
export function populateResources(
  callsIn: readonly AppCallRefs[],
  report: Pick<SimulateReport, 'unnamedResources'> & { txns: readonly Pick<SimulateReport['txns'][number], 'unnamedResources'>[] },
  limits: Limits = DEFAULT_LIMITS,
): PopulateResult {
  const calls = callsIn.map((c) => ({ ...c, accounts: [...c.accounts], apps: [...c.apps], assets: [...c.assets], boxes: [...c.boxes] }));
  const unplaced: string[] = [];
  let added = 0;

  // Per-transaction resources: only that transaction can carry them.
  for (const call of calls) {
    const u = report.txns[call.index]?.unnamedResources;
    if (!u) continue;
    for (const { need, what } of needs(u)) {
      // A box of the called app is reached through index 0, not a foreign app entry.
      if (need.boxes && need.apps && need.apps[0] === call.appId) delete need.apps;
      const m = missing(call, need);
      if (fits(call, m, limits)) added += apply(call, m);
      else unplaced.push(`${what} (txn ${call.index} has no room left)`);
    }
  }

  // Group-level resources: spread over calls, preferring one that already holds part of the need.
  if (report.unnamedResources) {
    for (const { need, what } of needs(report.unnamedResources)) {
      if (availableInGroup(calls, need)) continue;
      const ranked = [...calls].sort((a, b) => cost(a, need) - cost(b, need) || total(a) - total(b) || a.index - b.index);
      const target = ranked.find((c) => fits(c, missing(c, adjust(c, need)), limits));
      if (!target) {
        unplaced.push(`${what} (no app call in the group has room left)`);
        continue;
      }
      added += apply(target, missing(target, adjust(target, need)));
    }
  }
  return { calls, unplaced, added };
}

function adjust(c: AppCallRefs, need: Need): Need {
  if (need.boxes && need.apps && need.apps.length === 1 && need.apps[0] === c.appId) return { boxes: need.boxes };
  return need;
}

function cost(c: AppCallRefs, need: Need): number {
  const m = missing(c, adjust(c, need));
  return m.accounts.length + m.apps.length + m.assets.length + m.boxes.length;
}
