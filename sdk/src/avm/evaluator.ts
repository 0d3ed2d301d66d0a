import type { SignedTransaction, Transaction } from '../txn/types.js';
import { avmLimitsFor, EvalContext, emptyApplyData } from './context.js';
import { CONSENSUS_V42, type ConsensusLimits } from '../txn/limits.js';
import type { ApplyData, AvmLimits, GroupState, TraceOptions } from './context.js';
import { AvmFault, LogicError } from './errors.js';
import type { RunMode } from './errors.js';
import type { LedgerView } from './ledger-view.js';
import { compileProgram, CheckFault, MAX_AVM_VERSION, programVersion } from './program.js';
import { runProgram } from './run.js';
import { emptyAvailability, fillAvailability, SHARED_RESOURCES_VERSION } from './resources.js';
import { TraceRecorder } from './trace.js';
import { topLevelFeeCredit } from './inner-fees.js';
import { UnnamedPolicy } from './unnamed.js';
import type { ProgramTrace } from './trace.js';
import { fromHex } from '../encoding/hex.js';
import './ops/all.js';

/** Evaluator options: highest program version, limits, extra budget, more logging, unnamed resources, tracing. */
export interface AvmOptions {
  /** The protocol's LogicSigVersion (newest program version accepted). Default: the consensus parameters' (13 in V42). */
  maxVersion?: number;
  /** Consensus parameters every limit derives from (`avmLimitsFor`). Default V42. */
  consensus?: ConsensusLimits;
  /** Overrides of single limits on top of `consensus` (tests, experiments). */
  limits?: Partial<AvmLimits>;
  /** Simulate's `extra-opcode-budget`, added once to the group's app budget. */
  extraBudget?: number;
  /** Simulate's `allow-more-logging`: 2048 log calls and 65536 bytes. */
  allowMoreLogging?: boolean;
  /** Simulate's `allow-unnamed-resources`. */
  allowUnnamedResources?: boolean;
  /** Record simulate-style execution traces (off by default). */
  trace?: boolean | Partial<TraceOptions>;
}

/** Whether a program approved, the error when it did not, its cost and trace. */
export interface ProgramResult {
  approved: boolean;
  /** Failure, if the program did not approve because it failed (not because it returned 0). */
  error?: LogicError;
  /** Opcode cost this program spent (inner app calls' costs are in their own results). */
  cost: number;
  trace?: ProgramTrace;
}

/** What evaluating an app call produced: pass/fail, logs, state deltas, inner transactions, budget used (public name `AppEvalResult`). */
export interface AppCallResult extends ProgramResult {
  appId: bigint;
  applyData: ApplyData;
  /** Pooled budget left after the call. */
  remainingBudget: number;
  /** Budget this call used, inner app calls included (simulate's `app-budget-consumed`). */
  budgetConsumed: number;
}

/** Minimum program version a group forces (rekeys and app calls need v2+). */
function minVersionFor(txns: Transaction[]): number {
  return txns.some((t) => t.rekeyTo || t.type === 'appl') ? 2 : 0;
}

function toTxn(t: SignedTransaction | Transaction): { txn: Transaction; args?: Uint8Array[]; lsig?: Uint8Array } {
  if ('txn' in t) return { txn: t.txn, ...(t.lsig ? { args: t.lsig.args, lsig: t.lsig.program } : {}) };
  return { txn: t };
}

/**
 * Evaluates the programs of one top-level transaction group: logic signatures and app calls share
 * pooled budgets, inner-transaction allowance, fee credit, box I/O budget and (v9+) resources.
 */
export class AvmGroupEvaluator {
  readonly state: GroupState;
  private readonly lsigPrograms: (Uint8Array | undefined)[];

  constructor(txns: readonly (SignedTransaction | Transaction)[], ledger: LedgerView, options: AvmOptions = {}) {
    const parts = txns.map(toTxn);
    const plain = parts.map((p) => p.txn);
    this.lsigPrograms = parts.map((p) => p.lsig);
    const limits = { ...avmLimitsFor(options.consensus ?? CONSENSUS_V42), ...options.limits };
    const apps = plain.filter((t) => t.type === 'appl').length;
    const available = emptyAvailability();
    let boxRefs = 0;
    let emptyRefs = 0;
    for (const t of plain) {
      const r = fillAvailability(available, t);
      boxRefs += r.boxRefs;
      emptyRefs += r.emptyRefs;
    }
    const fees = topLevelFeeCredit(txns, limits.minTxnFee, limits.txnLimits);
    const traceOpt = options.trace;
    const policy = options.allowUnnamedResources ? new UnnamedPolicy(plain, limits, ledger) : undefined;
    this.state = {
      txns: plain,
      ad: plain.map(() => emptyApplyData()),
      lsigArgs: parts.map((p) => p.args),
      ledger,
      limits,
      maxVersion: options.maxVersion ?? Math.min(MAX_AVM_VERSION, limits.txnLimits.logicSigVersion),
      minVersion: minVersionFor(plain),
      appPool: { v: apps * limits.maxAppProgramCost + (options.extraBudget ?? 0) },
      lsigPool: { v: plain.length * limits.logicSigMaxCost },
      appBudgetAdded: apps * limits.maxAppProgramCost + (options.extraBudget ?? 0),
      innersLeft: { v: limits.maxTxGroupSize * limits.maxInnerTransactions },
      feeCredit: fees.credit,
      feeResidue: fees.residue,
      ioBudget: boxRefs * limits.bytesPerBoxReference,
      dirtyBytes: 0,
      dirtyBoxes: new Set(),
      available,
      txids: [],
      maxLogCalls: options.allowMoreLogging ? limits.txnLimits.simulateMaxLogCalls : limits.maxLogCalls,
      maxLogSize: options.allowMoreLogging ? limits.txnLimits.simulateMaxLogSize : limits.maxLogSize,
      allowUnnamedResources: options.allowUnnamedResources ?? false,
      unnamed: policy?.group ?? {
        accounts: new Map(),
        assets: new Set(),
        apps: new Set(),
        boxes: new Map(),
        holdings: new Map(),
        locals: new Map(),
        extraBoxRefs: 0,
      },
      unnamedPolicy: policy,
      emptyBoxRefsLeft: emptyRefs,
      traceEnabled: !!traceOpt,
      traceOptions: {
        stackChange: typeof traceOpt === 'object' ? (traceOpt.stackChange ?? true) : true,
        scratchChange: typeof traceOpt === 'object' ? (traceOpt.scratchChange ?? true) : true,
        stateChange: typeof traceOpt === 'object' ? (traceOpt.stateChange ?? true) : true,
        ...(typeof traceOpt === 'object' && traceOpt.budget ? { budget: traceOpt.budget } : {}),
      },
      readBudgetChecked: false,
    };
  }

  /** Runs the logic signature of transaction `index` (its program and args from the signed form). */
  evalLogicSig(index: number, program?: Uint8Array): ProgramResult {
    const prog = program ?? this.lsigPrograms[index];
    if (!prog) throw new RangeError(`transaction ${index} has no logic signature`);
    const args = this.state.lsigArgs[index] ?? [];
    const reject = (reason: string): ProgramResult => ({
      approved: false,
      cost: 0,
      error: new LogicError({ reason, pc: 0, mode: 'logicsig', groupPath: [index], duringCheck: true }),
    });
    if (args.length > this.state.limits.txnLimits.maxLogicSigArgs) return reject('LogicSig has too many arguments');
    if (args.some((a) => a.length > 4096)) return reject('LogicSig argument too large');
    return this.run(prog, 'logicsig', index, 0n, false, this.state.lsigArgs[index]).result;
  }

  /**
   * Runs the approval program (or the clear-state program for ClearState calls) of app call
   * `index`. `createdAppId` is the id the ledger assigned when the call creates an app.
   */
  evalApp(index: number, opts: { createdAppId?: bigint } = {}): AppCallResult {
    const st = this.state;
    const txn = st.txns[index]!;
    const call = txn.appCall;
    if (!call) throw new RangeError(`transaction ${index} is not an app call`);
    const appId = call.appId === 0n ? (opts.createdAppId ?? 0n) : call.appId;
    if (call.appId === 0n) {
      st.ad[index]!.createdAppId = appId;
      st.available.createdApps.add(appId);
      // Box references naming app 0 on a creating call mean the new app.
      for (const key of [...st.available.boxes]) if (key.startsWith('0/')) st.available.boxes.add(`${appId}/${key.slice(2)}`);
    }
    const clear = call.onComplete === 3;
    let program: Uint8Array | undefined;
    if (call.appId === 0n) program = clear ? call.clearProgram : call.approvalProgram;
    else {
      const params = st.ledger.appParams(appId);
      program = params ? (clear ? params.clearStateProgram : params.approvalProgram) : undefined;
    }
    const fail = (reason: string): AppCallResult => ({
      approved: false,
      error: new LogicError({ reason, pc: 0, mode: 'app', appId, groupPath: [index], duringCheck: true }),
      cost: 0,
      appId,
      applyData: st.ad[index]!,
      remainingBudget: st.appPool.v,
      budgetConsumed: 0,
    });
    if (!program) return fail(`app ${appId} does not exist`);
    if (clear && st.appPool.v < st.limits.maxAppProgramCost) {
      return fail(`attempted ClearState execution with low OpcodeBudget ${st.appPool.v}`);
    }
    if (!st.readBudgetChecked) {
      const read = this.bytesRead();
      if (read > st.ioBudget && !st.unnamedPolicy) return fail(`read budget exceeded (${read} > ${st.ioBudget})`);
      // Under simulate a deficit is allowed; the policy turns it into extra empty box refs.
      if (st.unnamedPolicy && !st.unnamedPolicy.ioSurplus(st.ioBudget - read)) return fail(`read budget exceeded despite policy (${st.ioBudget})`);
      st.readBudgetChecked = true;
    }
    if (st.unnamedPolicy) st.unnamedPolicy.rootIndex = index;
    const poolBefore = st.appPool.v;
    const addedBefore = st.appBudgetAdded;
    const { result, cx } = this.run(program, 'app', index, appId, clear, undefined);
    const budgetConsumed = poolBefore - st.appPool.v + (st.appBudgetAdded - addedBefore);
    return { ...result, appId, applyData: st.ad[index]!, remainingBudget: cx ? cx.remainingBudget() : st.appPool.v, budgetConsumed };
  }

  /** What the first app call of a group must be able to read: referenced boxes and large programs. */
  private bytesRead(): number {
    const st = this.state;
    let total = 0;
    for (const id of st.available.apps) {
      const p = st.ledger.appParams(id);
      if (p)
        total += Math.max(
          0,
          p.approvalProgram.length + p.clearStateProgram.length - (1 + st.limits.txnLimits.maxExtraAppProgramPages) * st.limits.maxAppProgramLen,
        );
    }
    for (const key of st.available.boxes) {
      const slash = key.indexOf('/');
      const hex = key.slice(slash + 1);
      if (hex.length === 0) continue;
      const name = fromHex(hex);
      const box = st.ledger.getBox(BigInt(key.slice(0, slash)), name);
      if (box) total += box.length;
    }
    return total;
  }

  private run(
    program: Uint8Array,
    mode: RunMode,
    index: number,
    appId: bigint,
    clear: boolean,
    args: Uint8Array[] | undefined,
  ): { result: ProgramResult; cx?: EvalContext } {
    const st = this.state;
    const txn = st.txns[index]!;
    const errorOf = (e: unknown, pc = 0): LogicError =>
      e instanceof LogicError
        ? e
        : new LogicError({
            reason: e instanceof Error ? e.message : String(e),
            pc: e instanceof CheckFault ? e.pc : pc,
            ...(e instanceof CheckFault && e.opcode ? { opcode: e.opcode } : {}),
            mode,
            ...(mode === 'app' ? { appId } : {}),
            groupPath: [index],
            duringCheck: true,
          });
    let cx: EvalContext;
    try {
      // A protocol without programs (LogicSigVersion 0) refuses every program, apps included.
      if (st.maxVersion === 0) throw new AvmFault('LogicSig not supported');
      const { version } = programVersion(program);
      if (version > MAX_AVM_VERSION) throw new AvmFault(`program version ${version} greater than max supported version ${MAX_AVM_VERSION}`);
      if (version > st.maxVersion) throw new AvmFault(`program version ${version} greater than protocol supported version ${st.maxVersion}`);
      if (version < SHARED_RESOURCES_VERSION && mode === 'app' && (txn.appCall?.access.length ?? 0) > 0) {
        throw new AvmFault('pre-sharedResources program cannot be invoked with tx.Access');
      }
      if (version < st.minVersion) {
        throw new AvmFault(`program version must be >= ${st.minVersion} for this transaction group, but have version ${version}`);
      }
      const pool = mode === 'app' ? st.appPool : st.lsigPool;
      const staticBudget = clear ? st.limits.maxAppProgramCost : pool.v;
      const compiled = compileProgram(program, mode, st.maxVersion, staticBudget);
      cx = new EvalContext(compiled, st, index, st.txns, st.ad, appId, [index], undefined, clear, args);
      cx.txids = st.txids;
    } catch (e) {
      return { result: { approved: false, error: errorOf(e), cost: 0 } };
    }
    if (st.traceEnabled) cx.trace = new TraceRecorder(st.traceOptions);
    if (mode === 'app') st.unnamedPolicy?.beginProgram(cx.version, []);
    const token = clear ? st.ledger.checkpoint?.() : undefined;
    try {
      const approved = runProgram(cx);
      if (mode === 'app') st.ad[index]!.scratch = cx.scratch;
      return { result: { approved, cost: cx.cost, ...(cx.trace ? { trace: cx.trace.result() } : {}) }, cx };
    } catch (e) {
      if (clear && token !== undefined) st.ledger.rollback?.(token);
      return { result: { approved: false, error: errorOf(e, cx.pc), cost: cx.cost, ...(cx.trace ? { trace: cx.trace.result() } : {}) }, cx };
    }
  }
}
