import { fromBase64, toBase64 } from '../encoding/base64.js';
import { parseJson, stringifyJson } from '../encoding/json.js';
import type { Ledger } from '../ledger/ledger.js';
import { simulate, type SimulateRequest } from '../ledger/simulate.js';
import { simulateResponseToWire } from '../services/node/simulate-wire.js';
import type { SignedTransaction } from '../txn/types.js';
import { decodeSignedTransactions } from '../txn/encode.js';
import { BudgetRecorder, type BudgetAppInfo, type BudgetObservation } from './budget-report.js';
import { CoverageCollector, type CoverageProgram, type ProgramCoverage } from './coverage.js';
import { buildSimulateReport, type AppKnowledge } from './simulate-report.js';
import { requiredExtraPages } from './deploy-plan.js';

/*
 * What a test session records for its reports: every group the chain commits is first simulated
 * on the same state with an exec trace (which ran exactly as the commit will), adding its program
 * runs to coverage and its app calls to the budget report. Sessions of several test processes are
 * written as JSON files and merged by `tealworks test`.
 */

/** A group simulated with a trace on the ledger's state now, as the node's JSON; undefined when simulate refuses the request. */
function traced(ledger: Ledger, group: readonly SignedTransaction[]): Record<string, unknown> | undefined {
  const request = {
    'txn-groups': [{ txns: [...group] }],
    'allow-empty-signatures': true,
    'exec-trace-config': { enable: true },
  } as unknown as SimulateRequest;
  try {
    return parseJson(stringifyJson(simulateResponseToWire(simulate(ledger, request), request, 'json')));
  } catch {
    return undefined; // A group simulate refuses is refused by the commit too: nothing ran.
  }
}

/** Coverage and budget of a test session (one process); see `attach`. */
export class ReportSession {
  readonly coverage = new CoverageCollector();
  readonly budget = new BudgetRecorder();
  private readonly apps = new Map<bigint, AppKnowledge>();
  private readonly responses: Record<string, unknown>[] = [];

  /** Names an app and gives its programs' source maps (the fixture does this for the apps it deploys). */
  knowApp(appId: bigint, app: AppKnowledge): void {
    this.apps.set(appId, app);
    for (const p of [app.approval, app.clear]) if (p?.bytes) this.coverage.addProgram(p as CoverageProgram);
  }

  /** Records one group as the ledger is about to commit it (simulated with a trace on the same state). */
  observe(ledger: Ledger, group: readonly SignedTransaction[]): void {
    const response = traced(ledger, group);
    if (response) this.#record(response);
  }

  #record(response: Record<string, unknown>): void {
    this.coverage.addSimulateResponse(response);
    const g = (response['txn-groups'] as Record<string, unknown>[] | undefined)?.[0];
    if (g && !g['failure-message']) this.responses.push(response);
  }

  /**
   * Records every group the ledger commits from now on (through `submit`, and through
   * `submitEvaluated`, the in-process chain's simulate-and-commit, when it commits); returns a
   * function that stops it. (Interval-mode block production is not observed.)
   */
  attach(ledger: Ledger): () => void {
    const original = ledger.submit;
    const originalEvaluated = ledger.submitEvaluated;
    const observe = (group: Parameters<Ledger['submit']>[0]) => this.observe(ledger, group instanceof Uint8Array ? decodeSignedTransactions(group) : group);
    const record = (response: Record<string, unknown>) => this.#record(response);
    ledger.submit = function (this: Ledger, group, options) {
      observe(group);
      return original.call(this, group, options);
    } as Ledger['submit'];
    ledger.submitEvaluated = function (this: Ledger, group, options, accept) {
      // Traced on the state before; kept only when the group commits (one that does not was
      // never sent, as a rejected gate simulation is not).
      const response = traced(this, group);
      const out = originalEvaluated.call(this, group, options, accept);
      if (out.block && response) record(response);
      return out;
    } as Ledger['submitEvaluated'];
    return () => {
      ledger.submit = original;
      ledger.submitEvaluated = originalEvaluated;
    };
  }

  /** Budget observations of the committed app calls, named by the apps known now. */
  observations(): BudgetObservation[] {
    const apps = new Map<bigint, BudgetAppInfo>();
    for (const [id, a] of this.apps) {
      const size = (a.approval?.bytes?.length ?? 0) + (a.clear?.bytes?.length ?? 0);
      const pages = a.approval?.bytes && a.clear?.bytes ? requiredExtraPages(a.approval.bytes, a.clear.bytes) : undefined;
      apps.set(id, {
        name: a.name ?? a.spec?.name ?? `app ${id}`,
        ...(size ? { programSize: size } : {}),
        ...(pages !== undefined ? { extraPages: pages } : {}),
      });
    }
    const out: BudgetObservation[] = [...this.budget.observations];
    for (const r of this.responses) out.push(...new BudgetRecorder().addReport(buildSimulateReport(r, { apps: this.apps }), apps));
    return out;
  }

  /** The session as JSON text (what a test process leaves for `tealworks test` to merge). */
  toJSON(): string {
    const programs = [...this.coverage.programs.values()].map((p) => serializeProgram(p, this.coverage));
    return stringifyJson({
      version: 1,
      programs,
      observations: this.observations().map((o) => ({
        ...o,
        fees: String(o.fees),
        innerFees: String(o.innerFees),
        ...(o.minBalanceChange !== undefined ? { minBalanceChange: String(o.minBalanceChange) } : {}),
      })),
    });
  }

  /** Adds a session file's content (from `toJSON`) to this session. */
  mergeJSON(text: string): void {
    const data = parseJson(text) as { programs?: SerializedProgram[]; observations?: Record<string, unknown>[] };
    const other = new CoverageCollector();
    for (const p of data.programs ?? []) {
      if (p.program) other.addProgram({ ...p.program, bytes: fromBase64(p.program.bytes) } as CoverageProgram);
      other.addCounts(p.hash, {
        runs: Number(p.runs),
        hits: p.hits.map(([pc, n]) => [Number(pc), Number(n)] as [number, number]),
        branches: p.branches.map((b) => ({ pc: Number(b.pc), op: b.op, taken: b.taken.map(Number) })),
      });
      for (const run of p.pending ?? []) other.addRun(p.hash, run.map(Number));
    }
    this.coverage.merge(other);
    for (const o of data.observations ?? []) {
      this.budget.add({
        ...(o as unknown as BudgetObservation),
        budget: Number(o.budget),
        opUps: Number(o.opUps),
        fees: BigInt(String(o.fees)),
        innerFees: BigInt(String(o.innerFees)),
        ...(o.minBalanceChange !== undefined ? { minBalanceChange: BigInt(String(o.minBalanceChange)) } : {}),
        ...(o.programSize !== undefined ? { programSize: Number(o.programSize) } : {}),
        ...(o.extraPages !== undefined ? { extraPages: Number(o.extraPages) } : {}),
      });
    }
  }
}

interface SerializedProgram {
  hash: string;
  runs: number;
  hits: [number, number][];
  branches: { pc: number; op: string; taken: number[] }[];
  /** Runs kept whole because the program was not registered (their branch arms are counted on registration). */
  pending?: number[][];
  program?: Omit<CoverageProgram, 'bytes'> & { bytes: string };
}

function serializeProgram(p: ProgramCoverage, collector: CoverageCollector): SerializedProgram {
  const pending = collector.pendingRuns(p.hash);
  const out: SerializedProgram = {
    hash: p.hash,
    runs: p.runs - pending.length,
    // Hits of pending runs travel with the runs themselves.
    hits: [...p.hits.entries()]
      .map(([pc, n]) => [pc, n - pending.reduce((k, run) => k + run.filter((x) => x === pc).length, 0)] as [number, number])
      .filter(([, n]) => n > 0),
    branches: [...p.branches.values()].map((b) => ({ pc: b.pc, op: b.op, taken: [...b.taken] })),
  };
  if (pending.length) out.pending = pending.map((r) => [...r]);
  if (p.program) {
    const { bytes, ...rest } = p.program;
    out.program = { ...rest, bytes: toBase64(bytes) };
  }
  return out;
}
