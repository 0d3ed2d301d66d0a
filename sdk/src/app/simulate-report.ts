import type { AbiMethod } from '../abi/method.js';
import type { Arc56AppSpec, Arc56Method } from '../abi/arc56.js';
import { decodeMethodCallArgs, isReturnLog } from '../abi/method-call.js';
import type { AbiValue } from '../abi/types.js';
import { encodeAddress } from '../encoding/address.js';
import { bytesEqual } from '../encoding/bytes.js';
import type { PcMapping } from '../teal/types.js';
import { parseArc65Error, subroutineShortName, type ProgramSourceMap } from '../teal/source-maps.js';
import { SimulateFailedError } from './errors.js';
import { DebugRun, type DebugProgramSource } from './debug/replay.js';
import { formatDebugValue } from './debug/values.js';
import {
  bytesView,
  decodeBoxes,
  decodeGlobalState,
  decodeLocalState,
  displayBytes,
  formatAbi,
  formatStorageItem,
  type BytesView,
  type StorageItem,
} from './state-decode.js';
import { arr, bigOf, bytesOf, isObj, numOf, obj, rawResponse, type Obj } from './response-read.js';
import { defineLazy } from '../lazy.js';

/*
 * Turns a node's simulate response (protocol.md §4.3, JSON or msgpack-decoded) into a report
 * people and the workflow engine can act on: would it succeed, where it failed (path, pc, TEAL
 * line — the macro use site, with the definition — and the app spec's error message), what each
 * transaction logged (returns and ARC-28 events decoded when the method is known), budgets, state
 * changes and resources used without being referenced. Building a report never throws on a
 * failing group; assertSimulationSucceeded does, when the caller wants that.
 */

/** What we know about one program: its bytes (for cblocks offsets) and the assembler's pc map. */
export interface ProgramKnowledge {
  bytes?: Uint8Array;
  pcMap?: readonly PcMapping[];
  /** File name shown in locations. */
  sourceName?: string;
  /** Source text lines (to quote the failing line). */
  sourceLines?: readonly string[];
  /**
   * The compiler's source map into the user's own source (Puya's `.puya.map` for Algorand Python
   * or TypeScript, or a TEAL map): failures then name the `.py` / `.algo.ts` line.
   */
  sourceMap?: ProgramSourceMap;
  /** Lines of the files `sourceMap` points into, by resolved path (to quote the failing line). */
  sourceFiles?: ReadonlyMap<string, readonly string[]>;
}

/** What is known about an app for reports: its name, spec, and compiled programs with pc maps. */
export interface AppKnowledge {
  name?: string;
  spec?: Arc56AppSpec;
  approval?: ProgramKnowledge;
  clear?: ProgramKnowledge;
}

/** What a report knows about one transaction: its app, method and label. */
export interface TxnContext {
  /** For app creates (app id 0 in the transaction): what is being created. */
  app?: AppKnowledge;
  /** The ABI method called, when the caller knows it (else found by selector in the spec). */
  method?: AbiMethod | Arc56Method;
  label?: string;
}

/** Context for a report: per-transaction method and app, and apps by id (for inner calls). */
export interface SimulateReportOptions {
  /** Per top-level transaction index. */
  txns?: ReadonlyArray<TxnContext | undefined>;
  /** Apps by id (also used for inner calls). */
  apps?: ReadonlyMap<bigint, AppKnowledge>;
}

/** A TEAL location (1-based line, column) and, through a macro, the line of its definition. */
export interface SourceLocation {
  file?: string;
  /** 1-based. */
  line: number;
  column: number;
  /** When the instruction came from a macro: where its body is. */
  definition?: { line: number; column: number };
  text?: string;
}

/** Where a simulated group failed: app, program, pc, TEAL source location and the ARC-56 error message. */
export interface FailureDetail {
  /** Program counter of the failing op. */
  pc?: number;
  /** The app whose program failed. */
  appId?: bigint;
  /** Which program failed. */
  program: 'approval' | 'clear' | 'logicsig' | 'unknown';
  /** Where the failing instruction is in TEAL, when a pc map or ARC-56 source info says. */
  source?: SourceLocation;
  /** The ARC-56 error message for that pc. */
  errorMessage?: string;
  /** Where the failing instruction is in the user's own source (Algorand Python / TypeScript), when a source map says. */
  userSource?: SourceLocation;
  /** The subroutine the failing instruction is in (Puya maps name it). */
  subroutine?: string;
  /** An ARC-65 error the failing program logged (`ERR:<code>[:<message>]`). */
  loggedError?: string;
  /**
   * The failing program and each app call around it, outermost first: group index, app (id and
   * ARC-56 name), ARC-4 method, source line (user source when mapped, else TEAL), the spec's error
   * message for that pc and any ARC-65 logged error.
   */
  chain?: FailureFrame[];
  /** How the pc was found. */
  pcFrom?: 'message' | 'trace';
  /** The failing instruction's name (needs the exec trace and the program's bytes). */
  op?: string;
  /** What it was about to pop: its operands, deepest first (needs a trace with stack changes). */
  operands?: Array<bigint | Uint8Array>;
  /** The whole stack at the failing instruction, bottom first. */
  stack?: Array<bigint | Uint8Array>;
  /** Non-zero scratch slots at the failing instruction. */
  scratch?: Array<{ slot: number; value: bigint | Uint8Array }>;
}

/** One level of a failure chain: a program that was running when the group failed. */
export interface FailureFrame {
  /** Transaction path: group index, then inner indices. */
  path: number[];
  /** Index of the top-level transaction in the group. */
  groupIndex: number;
  appId?: bigint;
  /** The app's ARC-56 name (or the name it was deployed under). */
  appName?: string;
  /** ARC-4 method signature, when the app spec knows the selector. */
  method?: string;
  program: 'approval' | 'clear' | 'logicsig' | 'unknown';
  /** The pc running at this level: the failing instruction at the innermost level, the `itxn_submit` (or `itxn`) elsewhere. */
  pc?: number;
  /** Where that pc is: the user's source when a source map says, else TEAL. */
  source?: SourceLocation;
  /** The TEAL location, when `source` is the user's source. */
  teal?: SourceLocation;
  subroutine?: string;
  /** The spec's (or source map's) error message for that pc. */
  errorMessage?: string;
  /** An ARC-65 error logged by this level's transaction. */
  loggedError?: string;
  /** True for the level that failed. */
  failing: boolean;
}

/** One log of a transaction, with byte views and, when it is one, the decoded ARC-28 event or return value. */
export interface LogEntry {
  /** The logged bytes. */
  bytes: Uint8Array;
  /** The bytes as text, hex, base64 and number where they read as such. */
  view: BytesView;
  /** An ABI `return`, an ARC-28 `event`, or `raw` bytes. */
  kind: 'return' | 'event' | 'raw';
  /** The decoded event: name, signature, arguments in order and by name. */
  event?: { name: string; signature: string; args: AbiValue[]; named: Record<string, AbiValue> };
}

/** One state write or delete of a simulated transaction, decoded by the spec. */
export interface StateChange {
  /** A write (`set`) or a `delete`. */
  action: 'set' | 'delete';
  /** The key and value, decoded by the spec. */
  item: StorageItem;
}

/** Resources the programs used without the transactions naming them (what `populateResources` adds). */
export interface UnnamedResources {
  /** Accounts used without a reference. */
  accounts: string[];
  /** Assets used without a reference. */
  assets: bigint[];
  /** Apps used without a reference. */
  apps: bigint[];
  /** Boxes used without a reference. */
  boxes: Array<{ app: bigint; name: Uint8Array }>;
  /** Extra box references needed for the bytes read or written. */
  extraBoxRefs: number;
  /** Asset holdings used without a reference. */
  assetHoldings: Array<{ account: string; asset: bigint }>;
  /** Local states used without a reference. */
  appLocals: Array<{ account: string; app: bigint }>;
}

/** One transaction of a report: type, app, method and arguments, logs, events, return value, state changes, budget and inner transactions. */
export interface TxnReport {
  /** Position in the group (`[i]`, or `[i, j, …]` for inner transactions). */
  path: number[];
  /** Transaction type (`pay`, `appl`, …). */
  type?: string;
  /** Sender address. */
  sender?: string;
  /** The app called (for creates: the new app's id, when the result gives it). */
  appId?: bigint;
  /** The app this transaction created. */
  createdAppId?: bigint;
  /** The asset this transaction created. */
  createdAssetId?: bigint;
  /** Signature of the ABI method called, when known. */
  method?: string;
  /** Decoded method arguments (reference arguments as their index), when the method is known. */
  args?: AbiValue[];
  /** Fee of this transaction and its inner ones (newer nodes report it). */
  feesPaid?: bigint;
  /** True for the transaction that failed (and the top-level one it is part of). */
  failed: boolean;
  /** Logs in order, each decoded as an ARC-28 event, an ABI return or raw bytes. */
  logs: LogEntry[];
  /** The decoded ABI return value. */
  returnValue?: AbiValue;
  /** Why the return value could not be decoded. */
  returnError?: string;
  /** Opcode budget the app call used. */
  appBudgetConsumed?: number;
  /** Opcode budget the logic signature used. */
  logicSigBudgetConsumed?: number;
  /** Global state writes and deletes. */
  globalChanges: StateChange[];
  /** Local state writes and deletes, per account. */
  localChanges: Array<{ address: string; changes: StateChange[] }>;
  /** Final box writes/deletes, from the exec trace (needs exec-trace-config with state-change). */
  boxChanges: StateChange[];
  /** Resources used without being referenced (what resource population adds). */
  unnamedResources?: UnnamedResources;
  /** With fix-signers: the address that must sign (the auth address of a rekeyed sender). */
  fixedSigner?: string;
  /** Inner transactions, in order. */
  inner: TxnReport[];
}

/** A simulation explained: whether it would succeed, the failing path (`failedAt`), the node's message, the TEAL line and app error, and per transaction its logs, events, return, state changes and budget. */
export interface SimulateReport {
  /** True when the whole group would be accepted. */
  wouldSucceed: boolean;
  /** Path of the failing transaction: `[i]` at the top level, `[i, j]` for inner transaction j of transaction i. */
  failedAt?: number[];
  /** The node's failure message, verbatim. */
  failureMessage?: string;
  /** Where and why it failed: app, program, pc, TEAL line, the app's error text, the failing op and stack. */
  failure?: FailureDetail;
  /** One report per top-level transaction, in group order (inner transactions nested). */
  txns: TxnReport[];
  /** Opcode budget of the group: available (`added`) and used (`consumed`). */
  budget: { added?: number; consumed?: number };
  /** Fees the whole group pays (newer nodes report it). */
  groupFeesPaid?: bigint;
  unnamedResources?: UnnamedResources;
  /** The node's `last-round` in the simulate response: the round the group was simulated against. */
  lastRound?: bigint;
  /**
   * The simulate response the report was built from (not enumerable, so reports stay small when
   * serialised): what the debugger replays.
   */
  readonly response?: unknown;
}

// ---------------------------------------------------------------------------------------------
// Reading the loosely typed response

function addressOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v.length === 58) return v;
  const b = v instanceof Uint8Array ? v : typeof v === 'string' ? bytesOf(v) : undefined;
  return b && b.length === 32 ? encodeAddress(b) : undefined;
}

/** A simulate response's `unnamed-resources-accessed` object read into addresses, ids and box refs (undefined when absent). */
export function readUnnamedResources(v: unknown): UnnamedResources | undefined {
  if (!isObj(v)) return undefined;
  return {
    accounts: arr(v.accounts)
      .map(addressOf)
      .filter((a): a is string => a !== undefined),
    assets: arr(v.assets)
      .map(bigOf)
      .filter((a): a is bigint => a !== undefined),
    apps: arr(v.apps)
      .map(bigOf)
      .filter((a): a is bigint => a !== undefined),
    boxes: arr(v.boxes).map((b) => ({ app: bigOf(obj(b).app) ?? 0n, name: bytesOf(obj(b).name) ?? new Uint8Array(0) })),
    extraBoxRefs: numOf(v['extra-box-refs']) ?? 0,
    assetHoldings: arr(v['asset-holdings']).map((h) => ({ account: addressOf(obj(h).account) ?? '?', asset: bigOf(obj(h).asset) ?? 0n })),
    appLocals: arr(v['app-locals']).map((h) => ({ account: addressOf(obj(h).account) ?? '?', app: bigOf(obj(h).app) ?? 0n })),
  };
}

/** Accepts the raw response, or an adapter SimulateResult (uses its `raw`). */

// ---------------------------------------------------------------------------------------------
// Failure location

/**
 * The failing pc (and app, when the node says) from a failure message. Nested failures print the
 * innermost error first, so the first `app=…, pc=…` pair is the app that actually failed.
 */
export function parseFailureMessage(message: string): { pc?: number; appId?: bigint; program?: 'approval' | 'clear' | 'logicsig' } {
  const out: { pc?: number; appId?: bigint; program?: 'approval' | 'clear' | 'logicsig' } = {};
  const details = /app=(\d+), pc=(\d+)/.exec(message);
  if (details) {
    out.appId = BigInt(details[1]!);
    out.pc = Number(details[2]!);
  } else {
    const pc = /\bpc[=:]\s*(\d+)/.exec(message);
    if (pc) out.pc = Number(pc[1]!);
  }
  if (/rejected by logic|logicsig|LogicSig/i.test(message) && out.appId === undefined) out.program = 'logicsig';
  else if (/clear ?state ?program/i.test(message)) out.program = 'clear';
  return out;
}

/** The exec trace of the transaction at `path` (top index, inner index, …). */
function traceAt(txnResults: unknown[], path: readonly number[]): Obj | undefined {
  let trace = obj(obj(txnResults[path[0]!])['exec-trace']);
  if (!isObj(obj(txnResults[path[0]!])['exec-trace'])) return undefined;
  for (const i of path.slice(1)) {
    const inner = arr(trace['inner-trace'])[i];
    if (!isObj(inner)) return undefined;
    trace = inner;
  }
  return trace;
}

/** The instruction containing `pc` (the mapping with the greatest pc not after it). */
export function pcToSource(pcMap: readonly PcMapping[], pc: number): PcMapping | undefined {
  let best: PcMapping | undefined;
  for (const m of pcMap) if (m.pc <= pc && (!best || m.pc > best.pc)) best = m;
  return best;
}

interface Located {
  source?: SourceLocation;
  userSource?: SourceLocation;
  errorMessage?: string;
  subroutine?: string;
}

function locate(pc: number, program: 'approval' | 'clear', app: AppKnowledge | undefined): Located {
  const out: Located = {};
  const prog = app?.[program];
  if (prog?.pcMap) {
    const m = pcToSource(prog.pcMap, pc);
    if (m) {
      out.source = {
        line: m.use.line + 1,
        column: m.use.utf16Column + 1,
        ...(prog.sourceName !== undefined ? { file: prog.sourceName } : {}),
        ...(m.definition ? { definition: { line: m.definition.line + 1, column: m.definition.utf16Column + 1 } } : {}),
        ...(prog.sourceLines?.[m.use.line] !== undefined ? { text: prog.sourceLines[m.use.line]!.trim() } : {}),
      };
    }
  }
  const map = prog?.sourceMap;
  if (map) {
    const base = map.baseFor(prog.bytes ? { bytes: prog.bytes } : undefined);
    const pos = map.at(pc, base);
    if (pos) {
      const text = pos.file !== undefined ? prog.sourceFiles?.get(pos.file)?.[pos.line] : undefined;
      const loc: SourceLocation = {
        line: pos.line + 1,
        column: pos.column + 1,
        ...(pos.file !== undefined ? { file: pos.file } : {}),
        ...(text !== undefined ? { text: text.trim() } : {}),
      };
      if (map.kind === 'puya') out.userSource = loc;
      else if (!out.source) out.source = loc;
    }
    const sub = map.subroutineAt(pc, base);
    if (sub !== undefined) out.subroutine = subroutineShortName(sub);
    const err = map.errorAt(pc, base);
    if (err !== undefined) out.errorMessage = err;
  }
  if (app?.spec) {
    const msg = app.spec.errorMessageAt(program, pc, prog?.bytes);
    if (msg !== undefined) out.errorMessage = msg;
    if (!out.source) {
      const info = app.spec.sourceInfoAt(program, pc, prog?.bytes);
      if (info?.teal !== undefined) out.source = { line: info.teal, column: 1, ...(info.source !== undefined ? { file: info.source } : {}) };
    }
  }
  return out;
}

/** Every `app=…, pc=…` pair of a failure message, innermost first (the node prints nested failures that way). */
function messageFrames(message: string): Array<{ appId: bigint; pc: number }> {
  return [...message.matchAll(/app=(\d+), pc=(\d+)/g)].map((m) => ({ appId: BigInt(m[1]!), pc: Number(m[2]!) }));
}

/** The last ARC-65 error a transaction logged, as its text. */
function loggedErrorOf(txn: TxnReport | undefined): string | undefined {
  const logs = txn?.logs ?? [];
  for (let i = logs.length - 1; i >= 0; i--) {
    const e = parseArc65Error(logs[i]!.bytes);
    if (e) return `${e.prefix}:${e.code}${e.message !== undefined ? `:${e.message}` : ''}`;
  }
  return undefined;
}

/** The failing program and the app calls around it, outermost first. */
function failureChain(report: SimulateReport, detail: FailureDetail, results: unknown[], options: SimulateReportOptions): FailureFrame[] {
  const path = report.failedAt ?? [];
  if (path.length === 0) return [];
  const pairs = messageFrames(report.failureMessage ?? '');
  const chain: FailureFrame[] = [];
  for (let k = 1; k <= path.length; k++) {
    const sub = path.slice(0, k);
    const innermost = k === path.length;
    const txn = findTxn(report.txns, sub);
    // The node's pairs run innermost first; line them up from the inside when they cover every level.
    const pair = pairs.length >= path.length ? pairs[path.length - k] : innermost ? pairs[0] : undefined;
    const appId = txn?.appId ?? pair?.appId;
    let app = appId !== undefined ? options.apps?.get(appId) : undefined;
    if (!app && k === 1) app = options.txns?.[path[0]!]?.app;
    const frame: FailureFrame = {
      path: sub,
      groupIndex: path[0]!,
      program: innermost ? detail.program : txn?.type === 'appl' ? 'approval' : 'unknown',
      failing: innermost,
    };
    if (appId !== undefined) frame.appId = appId;
    const name = app?.spec?.name ?? app?.name;
    if (name !== undefined) frame.appName = name;
    if (txn?.method) frame.method = txn.method;
    let pc: number | undefined;
    if (innermost) pc = detail.pc;
    else {
      const trace = traceAt(results, sub);
      const steps = trace ? arr(trace['approval-program-trace']) : [];
      pc = steps.length ? numOf(obj(steps[steps.length - 1]).pc) : pair?.pc;
    }
    if (pc !== undefined) frame.pc = pc;
    if (innermost) {
      const s = detail.userSource ?? detail.source;
      if (s) frame.source = s;
      if (detail.userSource && detail.source) frame.teal = detail.source;
      if (detail.subroutine !== undefined) frame.subroutine = detail.subroutine;
      if (detail.errorMessage !== undefined) frame.errorMessage = detail.errorMessage;
    } else if (pc !== undefined && frame.program === 'approval') {
      const l = locate(pc, 'approval', app);
      const s = l.userSource ?? l.source;
      if (s) frame.source = s;
      if (l.userSource && l.source) frame.teal = l.source;
      if (l.subroutine !== undefined) frame.subroutine = l.subroutine;
    }
    const logged = loggedErrorOf(txn);
    if (logged !== undefined) frame.loggedError = logged;
    chain.push(frame);
  }
  return chain;
}

// ---------------------------------------------------------------------------------------------

function methodOf(m: AbiMethod | Arc56Method | undefined): AbiMethod | undefined {
  if (!m) return undefined;
  return 'method' in m && 'json' in m ? m.method : (m as AbiMethod);
}

function stateChanges(delta: unknown, scope: 'global' | 'local', spec: Arc56AppSpec | undefined): StateChange[] {
  return arr(delta).map((d) => {
    const e = obj(d);
    const key = bytesOf(e.key) ?? new Uint8Array(0);
    const v = obj(e.value);
    const action = numOf(v.action);
    if (action === 3) {
      const [item] = (scope === 'global' ? decodeGlobalState : decodeLocalState)([{ key, value: new Uint8Array(0) }], undefined);
      return { action: 'delete', item: item! };
    }
    const value = action === 2 ? (bigOf(v.uint) ?? 0n) : (bytesOf(v.bytes) ?? new Uint8Array(0));
    const [item] = (scope === 'global' ? decodeGlobalState : decodeLocalState)([{ key, value }], spec);
    return { action: 'set', item: item! };
  });
}

/** Box writes and deletes a program's trace records, last one per box winning. */
function boxChangesOf(trace: Obj | undefined, spec: Arc56AppSpec | undefined): StateChange[] {
  if (!trace) return [];
  const last = new Map<string, { key: Uint8Array; op: string; value?: Uint8Array }>();
  for (const field of ['approval-program-trace', 'clear-state-program-trace']) {
    for (const unit of arr(trace[field])) {
      // Most steps change no state: skip them without building anything.
      const changes = isObj(unit) ? unit['state-changes'] : undefined;
      if (!Array.isArray(changes)) continue;
      for (const ch of changes) {
        const c = obj(ch);
        if (c['app-state-type'] !== 'b') continue;
        const key = bytesOf(c.key);
        if (!key) continue;
        const nv = obj(c['new-value']);
        const entry: { key: Uint8Array; op: string; value?: Uint8Array } = { key, op: String(c.operation) };
        const value = bytesOf(nv.bytes);
        if (value) entry.value = value;
        const id = Array.from(key).join(',');
        last.delete(id);
        last.set(id, entry);
      }
    }
  }
  return [...last.values()].map((e) => {
    const [item] = decodeBoxes([{ name: e.key, ...(e.op === 'd' ? {} : { value: e.value ?? new Uint8Array(0) }) }], e.op === 'd' ? undefined : spec);
    return { action: e.op === 'd' ? 'delete' : 'set', item: item! };
  });
}

function txnReport(
  result: Obj,
  path: number[],
  failedAt: readonly number[] | undefined,
  context: TxnContext | undefined,
  options: SimulateReportOptions,
  extra: Obj,
  trace?: Obj,
): TxnReport {
  const stxn = obj(result.txn);
  const txn = obj(stxn.txn);
  const type = typeof txn.type === 'string' ? txn.type : undefined;
  const calledId = bigOf(txn.apid) ?? (type === 'appl' ? 0n : undefined);
  const createdAppId = bigOf(result['application-index']);
  const appId = calledId === 0n ? createdAppId : calledId;
  const app = (appId !== undefined ? options.apps?.get(appId) : undefined) ?? context?.app;
  const spec = app?.spec;

  let method = methodOf(context?.method);
  const selector = bytesOf(arr(txn.apaa)[0]);
  if (!method && spec && selector && selector.length === 4) method = spec.methods.find((m) => bytesEqual(m.method.selector, selector))?.method;

  const rawLogs = arr(result.logs)
    .map(bytesOf)
    .filter((b): b is Uint8Array => b !== undefined);
  const logs: LogEntry[] = rawLogs.map((b, i) => {
    const entry: LogEntry = { bytes: b, view: bytesView(b), kind: 'raw' };
    if (i === rawLogs.length - 1 && method?.returns.abiType && isReturnLog(b)) entry.kind = 'return';
    else if (spec) {
      try {
        const ev = spec.decodeEvent(b);
        if (ev) {
          entry.kind = 'event';
          entry.event = { name: ev.event.name, signature: ev.event.signature, args: ev.args, named: ev.named };
        }
      } catch {
        // A log that only looks like an event stays raw.
      }
    }
    return entry;
  });

  const failed = failedAt !== undefined && path.length <= failedAt.length && path.every((p, i) => failedAt[i] === p);
  const report: TxnReport = {
    path,
    failed,
    logs,
    globalChanges: stateChanges(result['global-state-delta'], 'global', spec),
    localChanges: [],
    boxChanges: boxChangesOf(trace, spec),
    inner: [],
  };
  if (type !== undefined) report.type = type;
  const sender = addressOf(txn.snd);
  if (sender) report.sender = sender;
  if (appId !== undefined) report.appId = appId;
  if (calledId === 0n && createdAppId !== undefined) report.createdAppId = createdAppId;
  const asset = bigOf(result['asset-index']);
  if (asset !== undefined) report.createdAssetId = asset;
  if (method) {
    report.method = method.signature;
    const appArgs = arr(txn.apaa)
      .map(bytesOf)
      .filter((b): b is Uint8Array => b !== undefined);
    try {
      report.args = decodeMethodCallArgs(method, appArgs);
    } catch {
      // Arguments that do not fit the method are left out of the report rather than failing it.
    }
  }
  const fees = bigOf(extra['fees-paid']);
  if (fees !== undefined) report.feesPaid = fees;
  if (method?.returns.abiType && !failed) {
    const last = rawLogs[rawLogs.length - 1];
    if (last && isReturnLog(last)) {
      try {
        report.returnValue = method.returns.abiType.decode(last.subarray(4));
      } catch (e) {
        report.returnError = `return value does not decode as ${method.returns.type}: ${(e as Error).message}`;
      }
    } else report.returnError = `${method.signature} returned no ${rawLogs.length ? '151f7c75-prefixed last log' : 'log'}`;
  }
  for (const l of arr(result['local-state-delta'])) {
    const lo = obj(l);
    report.localChanges.push({ address: addressOf(lo.address) ?? '?', changes: stateChanges(lo.delta, 'local', spec) });
  }
  const budget = numOf(extra['app-budget-consumed']);
  if (budget !== undefined) report.appBudgetConsumed = budget;
  const lsig = numOf(extra['logic-sig-budget-consumed']);
  if (lsig !== undefined) report.logicSigBudgetConsumed = lsig;
  const unnamed = readUnnamedResources(extra['unnamed-resources-accessed']);
  if (unnamed) report.unnamedResources = unnamed;
  const fixed = addressOf(extra['fixed-signer']);
  if (fixed) report.fixedSigner = fixed;
  const innerTraces = trace ? arr(trace['inner-trace']) : [];
  report.inner = arr(result['inner-txns']).map((inner, i) =>
    txnReport(obj(inner), [...path, i], failedAt, undefined, options, {}, isObj(innerTraces[i]) ? innerTraces[i] : undefined),
  );
  return report;
}

/** Turns a node's simulate response into a `SimulateReport` (pc to TEAL line, ARC-56 errors, decoded logs and events). */
export function buildSimulateReport(response: unknown, options: SimulateReportOptions = {}): SimulateReport {
  const root = rawResponse(response);
  const group = obj(arr(root['txn-groups'])[0]);
  const results = arr(group['txn-results']);
  const failedAtRaw = arr(group['failed-at']).map(numOf);
  const failedAt = failedAtRaw.length && failedAtRaw.every((n) => n !== undefined) ? (failedAtRaw as number[]) : undefined;
  const failureMessage = typeof group['failure-message'] === 'string' && group['failure-message'] !== '' ? group['failure-message'] : undefined;

  const txns = results.map((r, i) => {
    const trace = obj(r)['exec-trace'];
    return txnReport(obj(obj(r)['txn-result']), [i], failedAt, options.txns?.[i], options, obj(r), isObj(trace) ? trace : undefined);
  });
  const report: SimulateReport = {
    wouldSucceed: failedAt === undefined && failureMessage === undefined,
    txns,
    budget: {},
  };
  if (failedAt) report.failedAt = failedAt;
  if (failureMessage) report.failureMessage = failureMessage;
  const added = numOf(group['app-budget-added']);
  if (added !== undefined) report.budget.added = added;
  const consumed = numOf(group['app-budget-consumed']);
  if (consumed !== undefined) report.budget.consumed = consumed;
  const unnamed = readUnnamedResources(group['unnamed-resources-accessed']);
  if (unnamed) report.unnamedResources = unnamed;
  const groupFees = bigOf(group['group-fees-paid']);
  if (groupFees !== undefined) report.groupFeesPaid = groupFees;
  const round = bigOf(root['last-round']);
  if (round !== undefined) report.lastRound = round;

  if (!report.wouldSucceed) report.failure = failureDetail(report, results, options);
  if (report.failure) explainFailure(report.failure, root, options);
  Object.defineProperty(report, 'response', { value: root, enumerable: false });
  return report;
}

function findTxn(txns: readonly TxnReport[], path: readonly number[]): TxnReport | undefined {
  let list = txns;
  let found: TxnReport | undefined;
  for (const i of path) {
    found = list[i];
    if (!found) return undefined;
    list = found.inner;
  }
  return found;
}

function failureDetail(report: SimulateReport, results: unknown[], options: SimulateReportOptions): FailureDetail {
  const parsed = parseFailureMessage(report.failureMessage ?? '');
  const path = report.failedAt ?? [];
  const txn = path.length ? findTxn(report.txns, path) : undefined;
  const detail: FailureDetail = { program: parsed.program ?? 'unknown' };

  let pc = parsed.pc;
  if (pc !== undefined) detail.pcFrom = 'message';
  const trace = path.length ? traceAt(results, path) : undefined;
  if (trace) {
    // The last step of the trace that ran is the failing instruction.
    for (const [field, program] of [
      ['approval-program-trace', 'approval'],
      ['logic-sig-trace', 'logicsig'],
    ] as const) {
      const steps = arr(trace[field]);
      if (steps.length === 0) continue;
      if (detail.program === 'unknown') detail.program = program;
      if (pc === undefined && detail.program === program) {
        pc = numOf(obj(steps[steps.length - 1]).pc);
        if (pc !== undefined) detail.pcFrom = 'trace';
      }
    }
  }
  if (detail.program === 'unknown' && (txn?.type === 'appl' || parsed.appId !== undefined)) detail.program = 'approval';
  if (pc !== undefined) detail.pc = pc;

  const appId = parsed.appId ?? txn?.appId;
  if (appId !== undefined) detail.appId = appId;
  if (pc !== undefined && (detail.program === 'approval' || detail.program === 'clear')) {
    let app = appId !== undefined ? options.apps?.get(appId) : undefined;
    // A failing create has no app id the caller could know in advance.
    if (!app && path.length === 1) app = options.txns?.[path[0]!]?.app;
    Object.assign(detail, locate(pc, detail.program, app));
  }
  const logged = loggedErrorOf(txn);
  if (logged !== undefined) detail.loggedError = logged;
  const chain = failureChain(report, detail, results, options);
  if (chain.length) detail.chain = chain;
  return detail;
}

/** Programs the report knows (apps and creates), as the replay matches them by hash. */
function knownPrograms(options: SimulateReportOptions): DebugProgramSource[] {
  const out: DebugProgramSource[] = [];
  const add = (p: ProgramKnowledge | undefined) => {
    if (p?.bytes)
      out.push({
        bytes: p.bytes,
        ...(p.pcMap ? { pcMap: p.pcMap } : {}),
        ...(p.sourceName !== undefined ? { file: p.sourceName } : {}),
        ...(p.sourceLines ? { lines: p.sourceLines } : {}),
      });
  };
  for (const app of options.apps?.values() ?? []) {
    add(app.approval);
    add(app.clear);
  }
  for (const t of options.txns ?? []) {
    add(t?.app?.approval);
    add(t?.app?.clear);
  }
  return out;
}

/** What the failing instruction was and saw (see `FailureDetail`). */
type Explained = Pick<FailureDetail, 'op' | 'stack' | 'operands' | 'scratch'>;

/**
 * The failing instruction, with its stack, operands and scratch, replayed from the exec trace when
 * one of them is first read: a failure is often only told by its message (an expected failure in
 * a test), and the replay is most of a failing report's cost. All four members are there from the
 * start (undefined when the trace does not say).
 */
function explainFailure(detail: FailureDetail, root: Obj, options: SimulateReportOptions): void {
  // The programs known now: the caller's maps may learn more apps later.
  const programs = knownPrograms(options);
  let explained: Explained | undefined;
  const explain = (): Explained => (explained ??= explainAt(root, programs));
  for (const k of ['op', 'stack', 'operands', 'scratch'] as const) defineLazy(detail, k, () => explain()[k] as never);
}

function explainAt(root: Obj, programs: DebugProgramSource[]): Explained {
  const out: Explained = {};
  try {
    const run = DebugRun.fromSimulateResponse(root, { programs });
    const f = run.failure;
    if (!f) return out;
    const snap = run.snapshot(f.position);
    const recordedStack = snap.frame.steps.some((s) => s.pops > 0 || s.additions.length > 0);
    if (snap.op) out.op = snap.op.op.name;
    if (!recordedStack) return out;
    out.stack = snap.stack;
    out.operands = run.operands(f.position, snap);
    const scratch = [...snap.scratch.entries()].sort((a, b) => a[0] - b[0]).map(([slot, value]) => ({ slot, value }));
    if (scratch.length) out.scratch = scratch;
  } catch {
    // No trace (or not one we can read): the failure stays explained by pc and line.
  }
  return out;
}

/** Throws SimulateFailedError (with the report) when the group would fail. */
export function assertSimulationSucceeded(report: SimulateReport): SimulateReport {
  if (!report.wouldSucceed) throw new SimulateFailedError(failureSummary(report), report);
  return report;
}

// ---------------------------------------------------------------------------------------------
// Text rendering for the CLI

/** A group path as text: `1` for the second transaction, `1.0` for its first inner transaction. */
export function pathLabel(path: readonly number[]): string {
  return path.map((p, i) => (i === 0 ? `txn ${p}` : `inner ${p}`)).join(' → ');
}

/** One line for a failing report: where (`failed at 1`), which app, why, and the TEAL line. */
export function failureSummary(report: SimulateReport): string {
  if (report.wouldSucceed) return 'simulation succeeded';
  const f = report.failure;
  const where = report.failedAt ? ` at ${pathLabel(report.failedAt)}` : '';
  const app = f?.appId !== undefined ? ` (app ${f.appId})` : '';
  const reason = f?.errorMessage ?? f?.loggedError ?? firstLine(report.failureMessage ?? 'unknown failure');
  const s = f?.userSource ?? f?.source;
  const loc = s ? ` [${locationText(s)}]` : '';
  const outer = f?.chain && f.chain.length > 1 ? ` (called through ${f.chain.slice(0, -1).map(chainHead).join(' → ')})` : '';
  return `simulation failed${where}${app}: ${reason}${loc}${outer}${rekeyHint(report.failureMessage)}`;
}

/** `file:line:column` (the file's base name), or `line N` without a file. */
function locationText(s: SourceLocation): string {
  return s.file ? `${s.file.split(/[\\/]/).pop()}:${s.line}:${s.column}` : `line ${s.line}`;
}

function chainHead(f: FailureFrame): string {
  const app = f.appId !== undefined ? `app ${f.appId}${f.appName ? ` (${f.appName})` : ''}` : f.program;
  return `${app}${f.source ? ` at ${locationText(f.source)}` : ''}`;
}

/**
 * The failure chain as one readable block: one line per level, outermost first — group index and
 * inner path, app id and name, method, source line, pc, and the error.
 */
export function renderFailureChain(chain: readonly FailureFrame[], indent = ''): string[] {
  return chain.map((f, i) => {
    const lead = i === 0 ? '' : `${'  '.repeat(i - 1)}└ `;
    const head = [
      pathLabel(f.path),
      f.appId !== undefined ? `app ${f.appId}${f.appName ? ` (${f.appName})` : ''}` : f.program,
      f.method ?? '',
      f.subroutine ? `in ${f.subroutine}` : '',
    ]
      .filter(Boolean)
      .join('  ');
    const where = f.source ? `  at ${locationText(f.source)}${f.source.text ? `  ${f.source.text}` : ''}` : '';
    const pc = f.pc !== undefined ? `  (pc ${f.pc}${f.teal ? `, ${locationText(f.teal)}` : ''})` : '';
    const why = [f.errorMessage, f.loggedError].filter((x): x is string => x !== undefined);
    return `${indent}${lead}${head}${where}${pc}${f.failing ? `  ✗ ${why.length ? why.join('; ') : 'failed'}` : ''}${!f.failing && why.length ? `  ${why.join('; ')}` : ''}`;
  });
}

/**
 * What to do about the node's "should have been authorized by X but was actually authorized by Y"
 * (a rekeyed sender signed with its own key): empty when the message is another one.
 */
export function rekeyHint(message: string | undefined): string {
  const m = /should have been authorized by ([A-Z2-7]{58}) but was actually authorized by ([A-Z2-7]{58})/.exec(message ?? '');
  if (!m) return '';
  return `\nhint: the sender was rekeyed: its auth address is ${m[1]}, so ${m[1]} must sign, not ${m[2]}. Give the client that account (tw.account.fromMnemonic / fromKeyManager / add), or simulate with fixSigners`;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!;
}

function formatLog(l: LogEntry): string {
  if (l.kind === 'event' && l.event) {
    const named = Object.keys(l.event.named).length > 0;
    const args = named ? Object.entries(l.event.named).map(([k, v]) => `${k}=${formatAbi(v)}`) : l.event.args.map((a) => formatAbi(a));
    return `event ${l.event.name}(${args.join(', ')})`;
  }
  if (l.kind === 'return') return `return log 0x${l.view.hex}`;
  return `log ${displayBytes(l.bytes)}`;
}

function renderTxn(t: TxnReport, indent: string, out: string[]): void {
  const call = t.method ? (t.args ? `${t.method.slice(0, t.method.indexOf('('))}(${t.args.map((a) => formatAbi(a)).join(', ')})` : t.method) : '';
  const head = [
    `${indent}${pathLabel(t.path)}`,
    t.type ?? '',
    t.appId !== undefined ? `app ${t.appId}` : '',
    t.createdAppId !== undefined ? '(created)' : '',
    call,
    t.feesPaid !== undefined ? `fee ${t.feesPaid}` : '',
    t.failed ? '✗ FAILED' : '',
  ]
    .filter(Boolean)
    .join('  ');
  out.push(head);
  const i2 = indent + '  ';
  if (t.returnValue !== undefined) out.push(`${i2}returns ${formatAbi(t.returnValue)}`);
  if (t.returnError) out.push(`${i2}return: ${t.returnError}`);
  for (const l of t.logs) if (l.kind !== 'return' || t.returnValue === undefined) out.push(`${i2}${formatLog(l)}`);
  for (const c of t.globalChanges) out.push(`${i2}global ${c.action === 'delete' ? `delete ${displayBytes(c.item.key)}` : formatStorageItem(c.item)}`);
  for (const c of t.boxChanges) out.push(`${i2}box ${c.action === 'delete' ? `delete ${displayBytes(c.item.key)}` : formatStorageItem(c.item)}`);
  for (const l of t.localChanges)
    for (const c of l.changes)
      out.push(`${i2}local ${l.address.slice(0, 8)}… ${c.action === 'delete' ? `delete ${displayBytes(c.item.key)}` : formatStorageItem(c.item)}`);
  if (t.appBudgetConsumed !== undefined) out.push(`${i2}budget consumed ${t.appBudgetConsumed}`);
  if (t.logicSigBudgetConsumed !== undefined) out.push(`${i2}logicsig budget consumed ${t.logicSigBudgetConsumed}`);
  if (t.unnamedResources) renderUnnamed(t.unnamedResources, i2, out);
  for (const inner of t.inner) renderTxn(inner, i2, out);
}

function renderUnnamed(u: UnnamedResources, indent: string, out: string[]): void {
  const parts: string[] = [];
  if (u.accounts.length) parts.push(`accounts ${u.accounts.join(', ')}`);
  if (u.apps.length) parts.push(`apps ${u.apps.join(', ')}`);
  if (u.assets.length) parts.push(`assets ${u.assets.join(', ')}`);
  if (u.boxes.length) parts.push(`boxes ${u.boxes.map((b) => `${b.app}:${displayBytes(b.name)}`).join(', ')}`);
  if (u.extraBoxRefs) parts.push(`${u.extraBoxRefs} extra box refs`);
  if (u.assetHoldings.length) parts.push(`holdings ${u.assetHoldings.map((h) => `${h.account.slice(0, 8)}…/${h.asset}`).join(', ')}`);
  if (u.appLocals.length) parts.push(`locals ${u.appLocals.map((h) => `${h.account.slice(0, 8)}…/${h.app}`).join(', ')}`);
  if (parts.length) out.push(`${indent}unnamed resources: ${parts.join('; ')}`);
}

/** Plain-text rendering for terminals (no colour codes). */
export function renderSimulateReport(report: SimulateReport): string {
  const out: string[] = [];
  out.push(report.wouldSucceed ? 'Simulation: would succeed' : `Simulation: would FAIL${report.failedAt ? ` at ${pathLabel(report.failedAt)}` : ''}`);
  if (!report.wouldSucceed) {
    const f = report.failure;
    if (f?.errorMessage) out.push(`  error: ${f.errorMessage}`);
    if (report.failureMessage) out.push(`  node: ${firstLine(report.failureMessage)}`);
    if (f?.pc !== undefined)
      out.push(`  ${f.program} program${f.appId !== undefined ? ` of app ${f.appId}` : ''}, pc ${f.pc}${f.pcFrom === 'trace' ? ' (from trace)' : ''}`);
    if (f?.loggedError && f.loggedError !== f.errorMessage) out.push(`  logged error: ${f.loggedError}`);
    if (f?.userSource) {
      const s = f.userSource;
      out.push(
        `  at ${s.file ?? 'line'}${s.file ? ':' : ' '}${s.line}:${s.column}${s.text ? `  ${s.text}` : ''}${f.subroutine ? `  (in ${f.subroutine})` : ''}`,
      );
    }
    if (f?.source) {
      const s = f.source;
      out.push(`  ${f.userSource ? 'TEAL' : 'at'} ${s.file ?? 'line'}${s.file ? ':' : ' '}${s.line}:${s.column}${s.text ? `  ${s.text}` : ''}`);
      if (s.definition) out.push(`  expanded from macro defined at line ${s.definition.line}:${s.definition.column}`);
    }
    if (f?.chain && (f.chain.length > 1 || f.userSource)) {
      out.push('  call chain:');
      out.push(...renderFailureChain(f.chain, '    '));
    }
    if (f?.op !== undefined || f?.operands)
      out.push(`  failing op: ${f.op ?? '?'}${f.operands ? `, operands ${f.operands.length ? f.operands.map(formatDebugValue).join(', ') : '(none)'}` : ''}`);
    if (f?.stack)
      out.push(
        `  stack (top first): ${f.stack.length ? [...f.stack].reverse().slice(0, 8).map(formatDebugValue).join(', ') + (f.stack.length > 8 ? `, … (${f.stack.length} items)` : '') : '(empty)'}`,
      );
  }
  const b = report.budget;
  if (b.added !== undefined || b.consumed !== undefined) out.push(`Budget: ${b.consumed ?? '?'} consumed of ${b.added ?? '?'} available`);
  for (const t of report.txns) renderTxn(t, '', out);
  if (report.unnamedResources) renderUnnamed(report.unnamedResources, '', out);
  return out.join('\n');
}
