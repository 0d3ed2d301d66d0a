import { encodeAddress } from '../encoding/address.js';
import { toHex } from '../encoding/hex.js';
import { sha512_256 } from '../crypto/hash.js';
import type { SignedTransaction, Transaction } from '../txn/types.js';
import { OnComplete } from '../txn/types.js';
import type { ProgramTrace, TraceBudget, TraceStep } from '../avm/trace.js';
import type { AvmValue } from '../avm/value.js';
import type { TxnApplyData } from './block.js';
import type { EvalOptions, GroupEvalResult, TxnEvalResult } from './eval.js';
import { firstValueKey } from './state.js';
import type { UnnamedResources } from '../avm/context.js';
import { SimulateRequestError } from './errors.js';
import { CONSENSUS_V42, type ConsensusLimits } from '../txn/limits.js';
import type { Ledger } from './ledger.js';
import { pendingTransactionResponse, type ResponseObject } from './response.js';

/** Simulate's request (protocol.md §4.2), in the spec's key names. */
export interface SimulateRequest {
  'txn-groups': { txns: SignedTransaction[] }[];
  round?: bigint | number;
  'allow-empty-signatures'?: boolean;
  'allow-more-logging'?: boolean;
  'allow-unnamed-resources'?: boolean;
  'extra-opcode-budget'?: bigint | number;
  'exec-trace-config'?: { enable?: boolean; 'stack-change'?: boolean; 'scratch-change'?: boolean; 'state-change'?: boolean };
  'fix-signers'?: boolean;
}

/** Simulate's response (protocol.md §4.3): spec key names, bigint uint64s, bytes as Uint8Array. */
export type SimulateResponse = ResponseObject;

/** Simulate's ceiling on `extra-opcode-budget` under the current protocol (read from the consensus parameters). */
export const MAX_EXTRA_OPCODE_BUDGET = CONSENSUS_V42.simulateMaxExtraOpcodeBudget;

// Members are written in the wire's (sorted) key order: the JSON and msgpack writers then have
// nothing to sort for the trace's many small objects.
function avmValue(v: AvmValue): ResponseObject {
  return typeof v === 'bigint' ? { type: 2, uint: v } : { bytes: v, type: 1 };
}

function unitOf(s: TraceStep): ResponseObject {
  const u: ResponseObject = { pc: s.pc };
  if (s.scratchChanges?.length) u['scratch-changes'] = s.scratchChanges.map((c) => ({ 'new-value': avmValue(c.newValue), slot: c.slot }));
  if (s.spawnedInners?.length) u['spawned-inners'] = s.spawnedInners;
  if (s.stackAdditions?.length) u['stack-additions'] = s.stackAdditions.map(avmValue);
  if (s.stackPopCount) u['stack-pop-count'] = s.stackPopCount;
  if (s.stateChanges?.length) {
    u['state-changes'] = s.stateChanges.map((c) => ({
      ...(c.account ? { account: encodeAddress(c.account) } : {}),
      'app-state-type': c.appStateType,
      key: c.key,
      ...(c.newValue !== undefined ? { 'new-value': avmValue(c.newValue) } : {}),
      operation: c.operation,
    }));
  }
  return u;
}

const hashOf = (program: Uint8Array | undefined): Uint8Array | undefined => (program ? sha512_256(program) : undefined);

/** One inner transaction's `inner-trace` entry: its program trace (app calls) and its own inners. */
function innerEntry(
  txn: Transaction,
  createdAppId: bigint | undefined,
  t: ProgramTrace | undefined,
  ledger: Ledger,
  applied?: TxnApplyData,
  ran?: Uint8Array,
): ResponseObject {
  const call = txn.appCall;
  if (!call || !t) return {};
  const appId = call.appId || createdAppId || 0n;
  const clear = call.onComplete === OnComplete.ClearState;
  const program = ran ?? (call.appId === 0n ? call.approvalProgram : clear ? ledger.app(appId)?.clearStateProgram : ledger.app(appId)?.approvalProgram);
  const o: ResponseObject = clear
    ? { 'clear-state-program-trace': t.steps.map(unitOf), ...(program ? { 'clear-state-program-hash': hashOf(program) } : {}) }
    : { 'approval-program-trace': t.steps.map(unitOf), ...(program ? { 'approval-program-hash': hashOf(program) } : {}) };
  const nested = innerTraces(applied, t, ledger);
  if (nested.length) o['inner-trace'] = nested;
  return o;
}

/**
 * Exec trace of the inner transactions a program started. The trace lists every one it spawned
 * (a failing one included, as algod reports it); older traces without that list fall back to
 * the applied inner transactions, app calls consuming the program traces in order.
 */
function innerTraces(ad: TxnApplyData | undefined, trace: ProgramTrace, ledger: Ledger): ResponseObject[] {
  if (trace.spawned) {
    return trace.spawned.map((sp, i) => {
      const applied = ad?.inner[i];
      return innerEntry(sp.txn, applied?.ad.createdAppId, sp.trace, ledger, applied?.ad, sp.program);
    });
  }
  if (!ad) return [];
  let k = 0;
  return ad.inner.map((it) => innerEntry(it.txn, it.ad.createdAppId, it.txn.appCall ? trace.inner[k++] : undefined, ledger, it.ad));
}

function execTrace(r: TxnEvalResult, ledger: Ledger): ResponseObject | undefined {
  const o: ResponseObject = {};
  if (r.lsigTrace) {
    o['logic-sig-trace'] = r.lsigTrace.steps.map(unitOf);
    o['logic-sig-hash'] = hashOf(r.lsigProgram);
  }
  const main = r.approvalTrace ?? r.clearTrace;
  if (r.approvalTrace) {
    o['approval-program-trace'] = r.approvalTrace.steps.map(unitOf);
    o['approval-program-hash'] = hashOf(r.approvalProgram);
  }
  if (r.clearTrace) {
    o['clear-state-program-trace'] = r.clearTrace.steps.map(unitOf);
    o['clear-state-program-hash'] = hashOf(r.clearProgram);
    // algod reports the rollback for a rejecting program too, with an error only when it failed.
    if (r.clearRolledBack || r.clearRollbackError !== undefined) o['clear-state-rollback'] = true;
    if (r.clearRollbackError !== undefined) o['clear-state-rollback-error'] = r.clearRollbackError;
  }
  if (main) {
    const inner = innerTraces(r.ad, main, ledger);
    if (inner.length) o['inner-trace'] = inner;
  }
  return Object.keys(o).length ? o : undefined;
}

const byBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One `unnamed-resources-accessed` report (the group's, or one transaction's: programs without
 * group sharing must name what they reach in their own transaction). Boxes of apps created in the
 * group cannot be named in advance, so each becomes an extra empty box reference instead.
 */
function unnamedReport(u: UnnamedResources): ResponseObject | undefined {
  const o: ResponseObject = {};
  if (u.accounts.size) o.accounts = [...u.accounts.values()].map((a) => encodeAddress(a)).sort();
  if (u.assets.size) o.assets = [...u.assets].sort(byBig);
  if (u.apps.size) o.apps = [...u.apps].sort(byBig);
  const named = [...u.boxes.values()].filter((b) => !b.newApp);
  const extra = u.extraBoxRefs + (u.boxes.size - named.length);
  if (named.length) o.boxes = named.map((b) => ({ app: b.app, name: b.name }));
  if (extra) o['extra-box-refs'] = extra;
  if (u.holdings.size) o['asset-holdings'] = [...u.holdings.values()].map((h) => ({ account: encodeAddress(h.account), asset: h.asset }));
  if (u.locals.size) o['app-locals'] = [...u.locals.values()].map((l) => ({ account: encodeAddress(l.account), app: l.app }));
  return Object.keys(o).length ? o : undefined;
}

function validate(req: SimulateRequest, p: ConsensusLimits): void {
  const groups = req['txn-groups'];
  if (!Array.isArray(groups) || groups.length !== 1)
    throw new SimulateRequestError(`expected 1 transaction group, got ${Array.isArray(groups) ? groups.length : 0}`);
  const txns = groups[0]!.txns ?? [];
  if (txns.length === 0) throw new SimulateRequestError('empty txgroup');
  if (txns.length > p.maxTxGroupSize) throw new SimulateRequestError(`transaction group size ${txns.length} exceeds protocol max ${p.maxTxGroupSize}`);
  if (txns.some((s) => s.txn.type === 'stpf')) throw new SimulateRequestError('cannot simulate StateProof transactions');
  const extra = Number(req['extra-opcode-budget'] ?? 0);
  if (!Number.isSafeInteger(extra) || extra < 0)
    throw new SimulateRequestError(`extra-opcode-budget must be a non-negative integer, got ${req['extra-opcode-budget']}`);
  const maxExtra = p.simulateMaxExtraOpcodeBudget;
  if (extra > maxExtra) throw new SimulateRequestError(`extra budget ${extra} > simulation extra budget limit ${maxExtra}`);
  const tc = req['exec-trace-config'];
  if (tc && !tc.enable) {
    if (tc['stack-change']) throw new SimulateRequestError('basic trace must be enabled when enabling stack tracing');
    if (tc['scratch-change']) throw new SimulateRequestError('basic trace must be enabled when enabling scratch slot change tracing');
    if (tc['state-change']) throw new SimulateRequestError('basic trace must be enabled when enabling app state change tracing');
  }
  if (req['fix-signers'] && !req['allow-empty-signatures']) throw new SimulateRequestError('FixSigners requires AllowEmptySignatures to be enabled');
}

interface TouchedState {
  app: bigint;
  kind: 'g' | 'l' | 'b';
  key: Uint8Array;
  account?: Uint8Array;
}

/** Every app-state key a traced program wrote or deleted, with the app it belongs to. */
function collectTouched(results: TxnEvalResult[]): TouchedState[] {
  const out: TouchedState[] = [];
  const walk = (trace: ProgramTrace | undefined, appId: bigint, sender: Uint8Array, ad: TxnApplyData) => {
    if (!trace) return;
    for (const s of trace.steps) {
      for (const c of s.stateChanges ?? []) {
        out.push({ app: appId, kind: c.appStateType, key: c.key, ...(c.appStateType === 'l' ? { account: c.account ?? sender } : {}) });
      }
    }
    let k = 0;
    for (const it of ad.inner) {
      if (!it.txn.appCall) continue;
      walk(trace.inner[k++], it.txn.appCall.appId || it.ad.createdAppId || 0n, it.txn.sender.publicKey, it.ad);
    }
  };
  for (const r of results) {
    const call = r.stxn.txn.appCall;
    if (!call) continue;
    walk(r.approvalTrace ?? r.clearTrace, call.appId || r.ad.createdAppId || 0n, r.stxn.txn.sender.publicKey, r.ad);
  }
  return out;
}

/** Values, before the simulation, of the state the programs changed (`initial-states`). */
function initialStates(touched: TouchedState[], before: (t: TouchedState, keyHex: string) => bigint | Uint8Array | undefined): ResponseObject | undefined {
  const byApp = new Map<
    bigint,
    { globals: Map<string, ResponseObject>; locals: Map<string, Map<string, ResponseObject>>; boxes: Map<string, ResponseObject> }
  >();
  for (const t of touched) {
    let e = byApp.get(t.app);
    if (!e) byApp.set(t.app, (e = { globals: new Map(), locals: new Map(), boxes: new Map() }));
    const kh = toHex(t.key);
    const value = before(t, kh);
    if (value === undefined) continue;
    const kv = { key: t.key, value: typeof value === 'bigint' ? { type: 2, uint: value } : { type: 1, bytes: value } };
    if (t.kind === 'g') e.globals.set(kh, kv);
    else if (t.kind === 'b') e.boxes.set(kh, kv);
    else {
      const ah = encodeAddress(t.account!);
      let m = e.locals.get(ah);
      if (!m) e.locals.set(ah, (m = new Map()));
      m.set(kh, kv);
    }
  }
  const states: ResponseObject[] = [];
  for (const [id, e] of [...byApp.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const o: ResponseObject = { id };
    if (e.locals.size) o['app-locals'] = [...e.locals.entries()].map(([account, m]) => ({ account, kvs: [...m.values()] }));
    if (e.globals.size) o['app-globals'] = { kvs: [...e.globals.values()] };
    if (e.boxes.size) o['app-boxes'] = { kvs: [...e.boxes.values()] };
    states.push(o);
  }
  return { 'app-initial-states': states };
}

/**
 * Estimated JSON bytes the exec traces of one simulate request may take (64 MiB); beyond it the
 * trace stops and the response carries `exec-trace-truncated: true`.
 */
export const MAX_EXEC_TRACE_BYTES = 64 * 1024 * 1024;

/**
 * Evaluates one group against the ledger's latest state without committing anything and answers
 * in the node's simulate response shape. Request problems throw `SimulateRequestError` (HTTP
 * 400); a failing group is a normal response with `failure-message` and `failed-at`.
 */
export function simulate(ledger: Ledger, req: SimulateRequest, limits: { maxExecTraceBytes?: number } = {}): SimulateResponse {
  validate(req, ledger.params.txn);
  // As the node: round 0 (or none) is the latest round; an earlier round is simulated on the state
  // after it, while the ledger still holds that state (its delta window).
  const at = req.round !== undefined && BigInt(req.round) !== 0n ? BigInt(req.round) : undefined;
  if (at !== undefined && !ledger.holdsStateAt(at)) {
    throw new SimulateRequestError(
      at > ledger.latestRound
        ? `round ${at} is after the latest round ${ledger.latestRound}: simulate at the latest round or earlier`
        : `the state at round ${at} is no longer held: the devnet simulates at rounds ${ledger.oldestStateRound} to ${ledger.latestRound}`,
    );
  }
  const { opts, budget } = evalOptionsOf(req, limits);
  const { result, round } = ledger.dryEvaluate(req['txn-groups'][0]!.txns, opts, at);
  // Rolled back: the ledger holds the state from before the group.
  return simulateResponse(
    ledger,
    req,
    result,
    round,
    budget,
    initialStatesOf(req, result, (t, kh) => stateValue(ledger, t, kh)),
  );
}

/** The answer's `initial-states`, when its trace asks for state changes (read now: they are the ledger's values). */
function initialStatesOf(
  req: SimulateRequest,
  result: GroupEvalResult,
  before: (t: TouchedState, keyHex: string) => bigint | Uint8Array | undefined,
): ResponseObject | undefined {
  const tc = req['exec-trace-config'];
  return tc?.enable && tc['state-change'] ? initialStates(collectTouched(result.txns), before) : undefined;
}

/**
 * Simulates a signed group and, when it succeeds and `accept` approves the evaluation, commits it
 * as the next block, all from one evaluation: the answer is the one {@link simulate} gives for the
 * same request on the same state, and `committed` says whether the block was made. The request
 * may ask for a trace but for none of simulate's relaxations (empty signatures, fix-signers,
 * unnamed resources, more logging, extra budget, an earlier round): those are not how a
 * committed evaluation runs.
 */
export function simulateAndCommit(
  ledger: Ledger,
  req: SimulateRequest,
  accept: (result: GroupEvalResult) => boolean,
  limits: { maxExecTraceBytes?: number } = {},
): { response: SimulateResponse; committed: { round: bigint; txids: string[] } | undefined } {
  validate(req, ledger.params.txn);
  const relaxed: string[] = (['allow-empty-signatures', 'fix-signers', 'allow-unnamed-resources', 'allow-more-logging'] as const).filter((k) => req[k]);
  if (Number(req['extra-opcode-budget'] ?? 0)) relaxed.push('extra-opcode-budget');
  if (req.round !== undefined && BigInt(req.round) !== 0n) relaxed.push('round');
  if (relaxed.length) throw new SimulateRequestError(`a committing simulation runs as the block would: ${relaxed.join(', ')} cannot be given`);
  const { opts, budget } = evalOptionsOf(req, limits);
  const { result, round, block, firstValues } = ledger.submitEvaluated(req['txn-groups'][0]!.txns, opts, accept);
  // Committed or not, the values from before the group are those it first overwrote (the rest
  // did not change).
  const before = (t: TouchedState, kh: string) => {
    const k = firstValueKey(t.kind, t.app, kh, t.account && toHex(t.account));
    return firstValues.has(k) ? firstValues.get(k) : stateValue(ledger, t, kh);
  };
  const initial = initialStatesOf(req, result, before);
  const committed = block ? { round: block.header.round, txids: block.txns.map((t) => t.txid) } : undefined;
  // A committed group without inner transactions: the rest of the answer is made of this
  // evaluation's own values only (no ledger read), so it is built when first read; a caller whose
  // group was committed often never reads it.
  if (!committed || result.txns.some((t) => t.ad.inner.length > 0))
    return { response: simulateResponse(ledger, req, result, round, budget, initial), committed };
  let response: SimulateResponse | undefined;
  return {
    get response(): SimulateResponse {
      return (response ??= simulateResponse(ledger, req, result, round, budget, initial));
    },
    committed,
  };
}

/** The evaluation options a simulate request asks for, and the budget its traces share. */
function evalOptionsOf(req: SimulateRequest, limits: { maxExecTraceBytes?: number }): { opts: EvalOptions; budget: TraceBudget } {
  const tc = req['exec-trace-config'];
  const extra = Number(req['extra-opcode-budget'] ?? 0);
  const budget: TraceBudget = { limit: limits.maxExecTraceBytes ?? MAX_EXEC_TRACE_BYTES, used: 0, exceeded: false };
  const opts: EvalOptions = {
    ...(req['allow-empty-signatures'] ? { allowEmptySignatures: true } : {}),
    ...(req['fix-signers'] ? { fixSigners: true } : {}),
    ...(req['allow-more-logging'] ? { allowMoreLogging: true } : {}),
    ...(req['allow-unnamed-resources'] ? { allowUnnamedResources: true } : {}),
    ...(extra ? { extraBudget: extra } : {}),
    ...(tc?.enable ? { trace: { stackChange: !!tc['stack-change'], scratchChange: !!tc['scratch-change'], stateChange: !!tc['state-change'], budget } } : {}),
  };
  return { opts, budget };
}

/** The current value of an app-state key (undefined: none). */
function stateValue(ledger: Ledger, t: TouchedState, kh: string): bigint | Uint8Array | undefined {
  if (t.kind === 'g') return ledger.app(t.app)?.global.get(kh)?.value;
  if (t.kind === 'b') return ledger.box(t.app, t.key);
  return ledger.account(t.account!)?.locals.get(t.app)?.get(kh)?.value;
}

/** The node's simulate response for an evaluation; `initial` is its `initial-states` (see initialStatesOf). */
function simulateResponse(
  ledger: Ledger,
  req: SimulateRequest,
  result: GroupEvalResult,
  round: bigint,
  budget: TraceBudget,
  initial: ResponseObject | undefined,
): SimulateResponse {
  const tc = req['exec-trace-config'];
  const extra = Number(req['extra-opcode-budget'] ?? 0);
  const txnResults = result.txns.map((r, i) => {
    const o: ResponseObject = { 'txn-result': pendingTransactionResponse(r.stxn, r.ad) };
    if (r.appBudgetConsumed) o['app-budget-consumed'] = r.appBudgetConsumed;
    if (r.logicSigBudgetConsumed) o['logic-sig-budget-consumed'] = r.logicSigBudgetConsumed;
    if (r.feesPaid) o['fees-paid'] = r.feesPaid;
    if (tc?.enable) {
      const t = execTrace(r, ledger);
      if (t) o['exec-trace'] = t;
    }
    if (r.fixedSigner) o['fixed-signer'] = encodeAddress(r.fixedSigner);
    const own = result.unnamed?.perTxn?.[i];
    const ownReport = own && unnamedReport(own);
    if (ownReport) o['unnamed-resources-accessed'] = ownReport;
    return o;
  });
  const g: ResponseObject = { 'txn-results': txnResults };
  if (result.failure) {
    g['failure-message'] = result.failure.message;
    g['failed-at'] = [...result.failure.path];
  }
  const unnamed = result.unnamed && unnamedReport(result.unnamed);
  if (unnamed) g['unnamed-resources-accessed'] = unnamed;
  if (result.appBudgetAdded) g['app-budget-added'] = result.appBudgetAdded;
  if (result.appBudgetConsumed) g['app-budget-consumed'] = result.appBudgetConsumed;
  if (result.groupUsage) g['group-usage'] = result.groupUsage;
  if (result.groupFeesPaid) g['group-fees-paid'] = result.groupFeesPaid;
  const res: ResponseObject = { version: 2, 'last-round': round, 'txn-groups': [g] };
  const ov: ResponseObject = {};
  if (req['allow-empty-signatures']) ov['allow-empty-signatures'] = true;
  if (req['allow-unnamed-resources']) ov['allow-unnamed-resources'] = true;
  if (req['allow-more-logging']) {
    ov['max-log-calls'] = ledger.params.txn.simulateMaxLogCalls;
    ov['max-log-size'] = ledger.params.txn.simulateMaxLogSize;
  }
  if (extra) ov['extra-opcode-budget'] = extra;
  if (req['fix-signers']) ov['fix-signers'] = true;
  if (Object.keys(ov).length) res['eval-overrides'] = ov;
  if (tc?.enable) {
    res['exec-trace-config'] = { ...tc };
    // Our addition to the node's shape: the trace stopped at the size budget (steps after it are missing).
    if (budget.exceeded) res['exec-trace-truncated'] = true;
    if (tc['state-change']) res['initial-states'] = initial;
  }
  return res;
}

export type { Transaction };
