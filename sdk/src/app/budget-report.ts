import { parseJson, stringifyJson } from '../encoding/json.js';
import { OnComplete } from '../txn/types.js';
import { AppError } from './errors.js';
import { arr, bigOf, obj, rawResponse, type Obj } from './response-read.js';
import type { SimulateReport, TxnReport } from './simulate-report.js';

/*
 * Budget and fee report: per app and ARC-4 method (or bare call), how many calls a session made
 * and what they cost — opcode budget, op-up inner calls, fees (inner ones included), minimum
 * balance change, program size and extra pages. Figures come from simulate reports (what the node
 * says each transaction consumed and paid), so they are the chain's own numbers. A snapshot file
 * keeps them between runs; a check compares a run against it and lists every figure that grew.
 */

/** Budget or fee report problems: a snapshot file that cannot be read. */
export class BudgetReportError extends AppError {}

/** What the session knows about an app for the report: its name and program sizes. */
export interface BudgetAppInfo {
  name: string;
  /** Approval plus clear-state program bytes. */
  programSize?: number;
  extraPages?: number;
}

/** One app call as the report counts it. */
export interface BudgetObservation {
  app: string;
  /** A method signature, or `bare:<OnComplete>` (`bare:NoOp`, `bare:OptIn`, …), with `create ` before it for creates. */
  method: string;
  /** Opcode budget the call consumed, its inner app calls included (simulate's `app-budget-consumed`). */
  budget: number;
  /** Inner app calls that created and deleted an app in one go (the op-up pattern). */
  opUps: number;
  /** The call's fee plus its inner transactions' fees (simulate's `fees-paid`, else the fee fields). */
  fees: bigint;
  /** The inner transactions' part of `fees`. */
  innerFees: bigint;
  /** Change of the sender's plus the app account's minimum balance, when the session measured it. */
  minBalanceChange?: bigint;
  programSize?: number;
  extraPages?: number;
}

/** min / mean / max of one figure over the calls of a method. */
export interface FigureStats {
  min: number;
  mean: number;
  max: number;
}

/** One row of the report: an app's method and its figures over every call the session made. */
export interface BudgetEntry {
  app: string;
  method: string;
  calls: number;
  budget: FigureStats;
  opUps: FigureStats;
  /** In micro-units (safe integers: fees never approach 2^53). */
  fees: FigureStats;
  innerFees: FigureStats;
  minBalanceChange?: FigureStats;
  programSize?: number;
  extraPages?: number;
}

/** The whole report: one entry per app and method, sorted. */
export interface BudgetReport {
  version: 1;
  entries: BudgetEntry[];
}

const ON_COMPLETE_NAMES = ['NoOp', 'OptIn', 'CloseOut', 'ClearState', 'UpdateApplication', 'DeleteApplication'];

/** Turns the top-level app calls of a simulate report into observations; `apps` names apps by id. */
export function budgetObservations(report: SimulateReport, apps: ReadonlyMap<bigint, BudgetAppInfo> = new Map()): BudgetObservation[] {
  const root = rawResponse(report.response ?? {});
  const results = arr(obj(arr(root['txn-groups'])[0])['txn-results']);
  const out: BudgetObservation[] = [];
  report.txns.forEach((t, i) => {
    if (t.type !== 'appl') return;
    const raw = obj(obj(results[i])['txn-result']);
    const txn = obj(obj(raw.txn).txn);
    const create = (bigOf(txn.apid) ?? 0n) === 0n;
    const onComplete = Number(bigOf(txn.apan) ?? 0n);
    const info = t.appId !== undefined ? apps.get(t.appId) : undefined;
    const ownFee = bigOf(txn.fee) ?? 0n;
    const innerFees = sumInnerFees(raw);
    const fees = t.feesPaid ?? ownFee + innerFees;
    const method = (create ? 'create ' : '') + (t.method ?? `bare:${ON_COMPLETE_NAMES[onComplete] ?? onComplete}`);
    const o: BudgetObservation = {
      app: info?.name ?? (t.appId !== undefined ? `app ${t.appId}` : 'app'),
      method,
      budget: t.appBudgetConsumed ?? 0,
      opUps: countOpUps(t, raw),
      fees,
      innerFees: fees - ownFee,
    };
    const size = info?.programSize ?? (create ? createdSize(txn) : undefined);
    if (size !== undefined) o.programSize = size;
    const pages = info?.extraPages ?? (create ? Number(bigOf(txn.apep) ?? 0n) : undefined);
    if (pages !== undefined) o.extraPages = pages;
    out.push(o);
  });
  return out;
}

function sumInnerFees(result: Obj): bigint {
  let total = 0n;
  for (const it of arr(result['inner-txns'])) {
    const r = obj(it);
    total += (bigOf(obj(obj(r.txn).txn).fee) ?? 0n) + sumInnerFees(r);
  }
  return total;
}

function countOpUps(t: TxnReport, result: Obj): number {
  let n = 0;
  const inner = arr(result['inner-txns']);
  inner.forEach((it, j) => {
    const txn = obj(obj(obj(it).txn).txn);
    if (txn.type === 'appl' && (bigOf(txn.apid) ?? 0n) === 0n && Number(bigOf(txn.apan) ?? 0n) === OnComplete.DeleteApplication) n++;
    const child = t.inner[j];
    if (child) n += countOpUps(child, obj(it));
  });
  return n;
}

function createdSize(txn: Obj): number | undefined {
  const a = txn.apap;
  const c = txn.apsu;
  const len = (v: unknown): number => (v instanceof Uint8Array ? v.length : typeof v === 'string' ? Math.floor((v.replace(/=+$/, '').length * 3) / 4) : 0);
  return a === undefined && c === undefined ? undefined : len(a) + len(c);
}

/** Collects observations over a session and summarises them per app and method. */
export class BudgetRecorder {
  readonly observations: BudgetObservation[] = [];

  /** Adds observations (from `budgetObservations`, or made by hand). */
  add(...observations: BudgetObservation[]): void {
    this.observations.push(...observations);
  }

  /** Adds the app calls of a simulate report. */
  addReport(report: SimulateReport, apps?: ReadonlyMap<bigint, BudgetAppInfo>): BudgetObservation[] {
    const obs = budgetObservations(report, apps);
    this.add(...obs);
    return obs;
  }

  /** The per-method summary. */
  report(): BudgetReport {
    const groups = new Map<string, BudgetObservation[]>();
    for (const o of this.observations) {
      const k = `${o.app}\u0000${o.method}`;
      (groups.get(k) ?? groups.set(k, []).get(k)!).push(o);
    }
    const entries: BudgetEntry[] = [];
    for (const list of groups.values()) {
      const first = list[0]!;
      const e: BudgetEntry = {
        app: first.app,
        method: first.method,
        calls: list.length,
        budget: stats(list.map((o) => o.budget)),
        opUps: stats(list.map((o) => o.opUps)),
        fees: stats(list.map((o) => Number(o.fees))),
        innerFees: stats(list.map((o) => Number(o.innerFees))),
      };
      const mbr = list.filter((o) => o.minBalanceChange !== undefined).map((o) => Number(o.minBalanceChange));
      if (mbr.length) e.minBalanceChange = stats(mbr);
      const size = Math.max(...list.map((o) => o.programSize ?? -1));
      if (size >= 0) e.programSize = size;
      const pages = Math.max(...list.map((o) => o.extraPages ?? -1));
      if (pages >= 0) e.extraPages = pages;
      entries.push(e);
    }
    entries.sort((a, b) => (a.app === b.app ? (a.method < b.method ? -1 : a.method > b.method ? 1 : 0) : a.app < b.app ? -1 : 1));
    return { version: 1, entries };
  }
}

function stats(values: readonly number[]): FigureStats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  return { min, mean: Math.round((sum / values.length) * 100) / 100, max };
}

/** The report as an aligned text table (what `tealworks test` prints). */
export function formatBudgetReport(report: BudgetReport): string {
  const head = [
    'app',
    'method',
    'calls',
    'budget min/mean/max',
    'op-ups max',
    'fees min/mean/max',
    'inner fees max',
    'min-balance Δ max',
    'program bytes',
    'extra pages',
  ];
  const rows = report.entries.map((e) => [
    e.app,
    e.method,
    String(e.calls),
    `${e.budget.min}/${e.budget.mean}/${e.budget.max}`,
    String(e.opUps.max),
    `${e.fees.min}/${e.fees.mean}/${e.fees.max}`,
    String(e.innerFees.max),
    e.minBalanceChange ? String(e.minBalanceChange.max) : '-',
    e.programSize !== undefined ? String(e.programSize) : '-',
    e.extraPages !== undefined ? String(e.extraPages) : '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

/** The snapshot file's text (`--budget-snapshot FILE`): the report as stable, sorted JSON. */
export function budgetSnapshotText(report: BudgetReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

/** Reads a snapshot file's text; throws `BudgetReportError` saying what is wrong. */
export function parseBudgetSnapshot(text: string): BudgetReport {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (e) {
    throw new BudgetReportError(`the budget snapshot is not JSON (${(e as Error).message}); write a new one with --budget-snapshot`);
  }
  const o = obj(json);
  if (o.version !== 1 && o.version !== 1n)
    throw new BudgetReportError(`unsupported budget snapshot version ${stringifyJson(o.version)} (expected 1); write a new one with --budget-snapshot`);
  if (!Array.isArray(o.entries)) throw new BudgetReportError('the budget snapshot has no "entries" list; write a new one with --budget-snapshot');
  const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : Number(v));
  const st = (v: unknown): FigureStats => {
    const s = obj(v);
    return { min: num(s.min), mean: num(s.mean), max: num(s.max) };
  };
  return {
    version: 1,
    entries: o.entries.map((raw, i) => {
      const e = obj(raw);
      if (typeof e.app !== 'string' || typeof e.method !== 'string') throw new BudgetReportError(`budget snapshot entry ${i} has no app or method name`);
      const out: BudgetEntry = {
        app: e.app,
        method: e.method,
        calls: num(e.calls),
        budget: st(e.budget),
        opUps: st(e.opUps),
        fees: st(e.fees),
        innerFees: st(e.innerFees),
      };
      if (e.minBalanceChange !== undefined) out.minBalanceChange = st(e.minBalanceChange);
      if (e.programSize !== undefined) out.programSize = num(e.programSize);
      if (e.extraPages !== undefined) out.extraPages = num(e.extraPages);
      return out;
    }),
  };
}

/** One figure that differs between a snapshot and a run. */
export interface BudgetChange {
  app: string;
  method: string;
  figure: string;
  before: number;
  after: number;
}

/** The outcome of `--budget-check`: figures that grew (failures), that shrank, and methods added or gone. */
export interface BudgetCheck {
  ok: boolean;
  grew: BudgetChange[];
  shrank: BudgetChange[];
  added: string[];
  removed: string[];
  /** A readable diff (empty when nothing changed). */
  text: string;
}

/**
 * Compares a run with a snapshot. A growing figure (budget max or mean, op-ups, fees, inner
 * fees, minimum-balance change, program size, extra pages) fails the check; figures that shrank
 * and methods added or no longer called are listed but pass.
 */
export function checkBudget(current: BudgetReport, snapshot: BudgetReport): BudgetCheck {
  const key = (e: BudgetEntry): string => `${e.app} ${e.method}`;
  const before = new Map(snapshot.entries.map((e) => [key(e), e]));
  const after = new Map(current.entries.map((e) => [key(e), e]));
  const grew: BudgetChange[] = [];
  const shrank: BudgetChange[] = [];
  const figures: [string, (e: BudgetEntry) => number | undefined][] = [
    ['budget max', (e) => e.budget.max],
    ['budget mean', (e) => e.budget.mean],
    ['op-ups max', (e) => e.opUps.max],
    ['fees max', (e) => e.fees.max],
    ['inner fees max', (e) => e.innerFees.max],
    ['min-balance change max', (e) => e.minBalanceChange?.max],
    ['program size', (e) => e.programSize],
    ['extra pages', (e) => e.extraPages],
  ];
  for (const [k, a] of after) {
    const b = before.get(k);
    if (!b) continue;
    for (const [figure, get] of figures) {
      const x = get(b);
      const y = get(a);
      if (x === undefined || y === undefined || x === y) continue;
      (y > x ? grew : shrank).push({ app: a.app, method: a.method, figure, before: x, after: y });
    }
  }
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const lines: string[] = [];
  const fmt = (c: BudgetChange, sign: string): string => {
    const d = c.after - c.before;
    const pct = c.before === 0 ? '' : ` (${d > 0 ? '+' : ''}${((100 * d) / c.before).toFixed(1)}%)`;
    return `${sign} ${c.app} ${c.method}: ${c.figure} ${c.before} → ${c.after}${pct}`;
  };
  for (const c of grew) lines.push(fmt(c, '+'));
  for (const c of shrank) lines.push(fmt(c, '-'));
  for (const k of added) lines.push(`  new: ${k} (not in the snapshot)`);
  for (const k of removed) lines.push(`  gone: ${k} (in the snapshot, not called in this run)`);
  return { ok: grew.length === 0, grew, shrank, added, removed, text: lines.length ? lines.join('\n') + '\n' : '' };
}
