import { sha512_256 } from '../../crypto/hash.js';
import { encodeAddress } from '../../encoding/address.js';
import { toBase64 } from '../../encoding/base64.js';
import { toHex } from '../../encoding/hex.js';
import { decodeInstruction, readProgramVersion, type DecodedInstruction } from '../../teal/disassembler/decode.js';
import { opCost } from '../../teal/spec/opcodes.js';
import type { PcMapping } from '../../teal/types.js';
import type { SourceMapEntry } from '../../teal/sourcemap.js';
import { subroutineShortName, type ProgramSourceMap } from '../../teal/source-maps.js';
import { AppError } from '../errors.js';
import { DEFAULT_LIMITS } from '../../avm/context.js';
import { arr, bigOf, bytesOf, obj, rawResponse, type Obj } from '../response-read.js';

/*
 * A recorded run, replayable in both directions. A simulate response with an execution trace
 * (algod's, the devnet's, or an AVM Debugger `*.trace.avm.json`) becomes one timeline of
 * instruction steps across the group: each top-level transaction's logic signature, then its
 * approval or clear-state program, with the programs of inner app calls placed right after the
 * `itxn_submit` (or `itxn` group) step that spawned them. Position `t` of the timeline means
 * "about to execute step t"; the stack, scratch space, app state, logs and budget at any position
 * are rebuilt from the recorded changes, so stepping back is exact.
 */

/** A value on the AVM stack or in scratch: uint64 or bytes. */
export type DebugValue = bigint | Uint8Array;

/** What we know about one program of the run: its bytes and where each pc came from. */
export interface DebugProgramSource {
  /** Base64 sha512_256 of the program bytes (what simulate's `*-program-hash` fields carry). */
  hash?: string;
  bytes?: Uint8Array;
  /** Path of the TEAL file (absolute, or as given). */
  file?: string;
  /** The file's text, split into lines. */
  lines?: readonly string[];
  /** The assembler's mappings (use site and macro definition per pc). */
  pcMap?: readonly PcMapping[];
  /** Or a node-format source map's entries (one position per pc, no macro knowledge). */
  sourceMap?: readonly SourceMapEntry[];
  /** File names of `sourceMap` entries, by entry `source` index (absolute paths). */
  sourceMapFiles?: readonly string[];
  /**
   * A compiler's map into the user's own source (Puya's `.puya.map`, sources resolved): when
   * present, locations, breakpoints and stepping are in that source; pcs it does not map
   * (compiler-generated code) have no location.
   */
  userMap?: ProgramSourceMap;
}

/** One subroutine level inside a program frame (Puya maps name them). */
export interface SubroutineFrame {
  /** Short name (`Contract.method`), or `main` for the program's entry. */
  name: string;
  /** The full name the compiler gave it. */
  fullName?: string;
  /** The step this level is at: the current step for the innermost, the `callsub` step for callers. */
  step: number;
}

export type ProgramKind = 'logicsig' | 'approval' | 'clear';

/** One recorded instruction. */
export interface ReplayStep {
  pc: number;
  pops: number;
  additions: DebugValue[];
  scratch: { slot: number; value: DebugValue }[];
  state: ReplayStateChange[];
  spawned: number[];
}

export interface ReplayStateChange {
  operation: 'w' | 'd';
  kind: 'g' | 'l' | 'b';
  key: Uint8Array;
  value?: DebugValue;
  /** Local state: the account's address. */
  account?: string;
}

/** One program execution (a frame of the call stack). */
export interface ProgramFrame {
  id: number;
  /** Transaction path: top-level index, then inner indices. */
  path: number[];
  kind: ProgramKind;
  appId?: bigint;
  hash?: string;
  source?: DebugProgramSource;
  steps: ReplayStep[];
  /** The frame whose step spawned this one, and that step's index. */
  parent?: { frame: number; step: number };
  /** Decoded instruction per step (when the program bytes are known). */
  ops: (DecodedInstruction | undefined)[];
  /** Subroutine depth before each step (callsub/retsub, when the bytes are known). */
  callDepth: number[];
  /** Cost of each step (when the bytes are known). */
  costs: (number | undefined)[];
  /** The transaction (as the response's `txn-result.txn`), raw. */
  txn: Record<string, unknown>;
  /** The transaction's final logs. */
  finalLogs: Uint8Array[];
}

/** A position in the timeline: frame and step index within it. */
export interface TimelineEntry {
  frame: number;
  step: number;
}

/** App state as the run sees it: before (initial states) and now. */
export interface AppStateView {
  appId: bigint;
  global: Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>;
  local: Map<string, Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>>;
  box: Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>;
}

/** Everything visible at one timeline position. */
export interface ReplaySnapshot {
  position: number;
  frame: ProgramFrame;
  step: number;
  pc: number;
  /** The instruction about to run, when the bytes are known. */
  op?: DecodedInstruction;
  /** Stack before the instruction runs; index 0 is the bottom. */
  stack: DebugValue[];
  scratch: Map<number, DebugValue>;
  /** Logs the frame's transaction has written so far. */
  logs: Uint8Array[];
  /** Whether `logs` is exact (program bytes known) or the transaction's final logs. */
  logsExact: boolean;
  /** Opcode budget used so far by the frame's pool (app calls or logic signatures). */
  budgetUsed?: number;
  budgetTotal?: number;
  apps: Map<bigint, AppStateView>;
}

/** Where a pc is in the TEAL: the use site, and the macro body line when it came from a `#define`. */
export interface ReplayLocation {
  file?: string;
  /** 0-based. */
  line: number;
  column: number;
  definition?: { file?: string; line: number; column: number };
}

export class DebugTraceError extends AppError {}

function hashText(v: unknown): string | undefined {
  if (v instanceof Uint8Array) return toBase64(v);
  return typeof v === 'string' ? v : undefined;
}

/** An AVM value in simulate's form: `{type: 1, bytes}` or `{type: 2, uint}` (zero values omitted). */
export function avmValueOf(v: unknown): DebugValue {
  const o = obj(v);
  if (o.type === 1 || o.type === '1') return bytesOf(o.bytes) ?? new Uint8Array(0);
  return bigOf(o.uint) ?? 0n;
}

function addressText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array && v.length === 32) return encodeAddress(v);
  return undefined;
}

function stepOf(u: unknown): ReplayStep {
  const o = obj(u);
  const pc = Number(bigOf(o.pc) ?? -1n);
  if (!Number.isInteger(pc) || pc < 0)
    throw new DebugTraceError(`trace step without a pc: ${JSON.stringify(o, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))}`);
  return {
    pc,
    pops: Number(bigOf(o['stack-pop-count']) ?? 0n),
    additions: arr(o['stack-additions']).map(avmValueOf),
    scratch: arr(o['scratch-changes']).map((c) => ({ slot: Number(bigOf(obj(c).slot) ?? 0n), value: avmValueOf(obj(c)['new-value']) })),
    state: arr(o['state-changes']).map((c) => {
      const co = obj(c);
      const kind = co['app-state-type'] === 'l' ? 'l' : co['app-state-type'] === 'b' ? 'b' : 'g';
      const change: ReplayStateChange = { operation: co.operation === 'd' ? 'd' : 'w', kind, key: bytesOf(co.key) ?? new Uint8Array(0) };
      if (co['new-value'] !== undefined) change.value = avmValueOf(co['new-value']);
      const acct = addressText(co.account);
      if (acct) change.account = acct;
      return change;
    }),
    spawned: arr(o['spawned-inners']).map((n) => Number(bigOf(n) ?? 0n)),
  };
}

const CHECKPOINT_EVERY = 64;
/** Positions between app-state checkpoints (snapshots cost O(this), not O(position)). */
const APP_CHECKPOINT_EVERY = 256;

interface FrameCheckpoint {
  stack: DebugValue[];
  scratch: Map<number, DebugValue>;
}

/** Base64 sha512_256 of program bytes: the key simulate's traces name programs by. */
export function programTraceHash(bytes: Uint8Array): string {
  return toBase64(sha512_256(bytes));
}

export interface DebugRunOptions {
  /** Programs we have sources for; matched to the trace by hash. */
  programs?: readonly DebugProgramSource[];
  /** When a program's hash is unknown (older responses): guess by app id. */
  programsByApp?: ReadonlyMap<bigint, { approval?: DebugProgramSource; clear?: DebugProgramSource }>;
}

/** The failure the run ended with, at its timeline position. */
export interface ReplayFailure {
  position: number;
  message: string;
  path: number[];
}

/**
 * A recorded run of one transaction group, ready to step through in either direction.
 * Build it with `DebugRun.fromSimulateResponse`.
 */
export class DebugRun {
  readonly frames: ProgramFrame[] = [];
  readonly timeline: TimelineEntry[] = [];
  failure?: ReplayFailure;
  readonly appBudgetAdded?: number;
  /** The top-level transactions, raw. */
  readonly txns: Obj[] = [];
  private readonly checkpoints = new Map<number, FrameCheckpoint[]>();
  private readonly initial = new Map<bigint, AppStateView>();
  /** App states at every APP_CHECKPOINT_EVERY-th position, built as far as asked. */
  private readonly appCheckpoints: Map<bigint, AppStateView>[] = [];
  /** Budget used before each position, per pool (NaN once a cost is unknown); built on first use. */
  private budgetBefore?: { app: Float64Array; lsig: Float64Array };
  /** Per frame, the steps that log and what they log; built on first use. */
  private readonly frameLogs = new Map<number, { step: number; bytes: Uint8Array }[]>();
  private readonly positionOf = new Map<number, number[]>();
  private readonly locations = new Map<number, Map<number, ReplayLocation | undefined>>();

  private constructor(
    readonly response: Obj,
    private readonly options: DebugRunOptions,
  ) {
    const group = obj(arr(response['txn-groups'])[0]);
    const added = bigOf(group['app-budget-added']);
    if (added !== undefined) this.appBudgetAdded = Number(added);
  }

  /**
   * Reads a simulate response (JSON text, parsed JSON, or the devnet's decoded object) that was
   * requested with `exec-trace-config` enabled. Throws `DebugTraceError` when it has no trace.
   */
  static fromSimulateResponse(response: unknown, options: DebugRunOptions = {}): DebugRun {
    const root = rawResponse(response);
    const groups = arr(root['txn-groups']);
    if (groups.length === 0) throw new DebugTraceError('not a simulate response: it has no "txn-groups"');
    const run = new DebugRun(root, options);
    run.build();
    if (run.timeline.length === 0) {
      throw new DebugTraceError(
        'the simulate response has no execution trace: simulate again with exec-trace-config (enable, stack-change, scratch-change, state-change)',
      );
    }
    return run;
  }

  /** Each known program's trace hash, computed once (a group may run the same program in many frames). */
  private readonly hashes = new Map<DebugProgramSource, string | undefined>();
  private byHash?: Map<string, DebugProgramSource>;

  private hashOf(p: DebugProgramSource): string | undefined {
    if (!this.hashes.has(p)) this.hashes.set(p, p.hash ?? (p.bytes ? programTraceHash(p.bytes) : undefined));
    return this.hashes.get(p);
  }

  private sourceFor(hash: string | undefined, appId: bigint | undefined, kind: ProgramKind): DebugProgramSource | undefined {
    if (hash) {
      if (!this.byHash) {
        this.byHash = new Map();
        // The first program with a hash wins, as a search in list order would find it.
        for (const p of this.options.programs ?? []) {
          const h = this.hashOf(p);
          if (h !== undefined && !this.byHash.has(h)) this.byHash.set(h, p);
        }
      }
      const found = this.byHash.get(hash);
      if (found) return found;
    }
    if (appId !== undefined && kind !== 'logicsig') {
      const e = this.options.programsByApp?.get(appId);
      const p = kind === 'clear' ? e?.clear : e?.approval;
      // Only trust an app-id guess when the hash cannot contradict it.
      if (p && (!hash || !p.bytes || programTraceHash(p.bytes) === hash)) return p;
    }
    return undefined;
  }

  private addFrame(
    path: number[],
    kind: ProgramKind,
    trace: unknown[],
    hash: string | undefined,
    result: Obj,
    appId: bigint | undefined,
    parent?: { frame: number; step: number },
  ): ProgramFrame {
    const source = this.sourceFor(hash, appId, kind);
    const steps = trace.map(stepOf);
    const frame: ProgramFrame = {
      id: this.frames.length,
      path,
      kind,
      steps,
      ops: [],
      callDepth: [],
      costs: [],
      txn: obj(obj(result.txn).txn),
      finalLogs: arr(result.logs)
        .map(bytesOf)
        .filter((b): b is Uint8Array => b !== undefined),
      ...(appId !== undefined ? { appId } : {}),
      ...(hash ? { hash } : {}),
      ...(source ? { source } : {}),
      ...(parent ? { parent } : {}),
    };
    this.frames.push(frame);
    this.decodeOps(frame);
    return frame;
  }

  private decodeOps(frame: ProgramFrame): void {
    const bytes = frame.source?.bytes;
    let version = 0;
    if (bytes) {
      try {
        version = readProgramVersion(bytes).version;
      } catch {
        version = 0;
      }
    }
    let depth = 0;
    const stack: DebugValue[] = [];
    const base = this.mapBase(frame);
    for (const s of frame.steps) {
      let ins: DecodedInstruction | undefined;
      if (bytes && version > 0) {
        try {
          ins = decodeInstruction(bytes, s.pc, version);
        } catch {
          ins = undefined;
        }
      }
      frame.ops.push(ins);
      frame.callDepth.push(depth);
      let cost: number | undefined;
      if (ins) {
        const n = ins.op.args.length;
        const field = ins.immediates.find((i) => i.encoding === 'uint8' && 'field' in i && i.field) as { field?: { name: string } } | undefined;
        try {
          cost = opCost(ins.op.cost, field?.field?.name, (i) => {
            const v = stack[stack.length - n + i];
            return v instanceof Uint8Array ? v.length : 8;
          });
        } catch {
          cost = undefined;
        }
        if (ins.op.name === 'callsub') depth++;
        else if (ins.op.name === 'retsub' && depth > 0) depth--;
      } else if (frame.source?.userMap) {
        // Without the bytes, a Puya map's events say where subroutines are called and return.
        const ev = frame.source.userMap.event(s.pc, base);
        if (ev?.callsub !== undefined) depth++;
        else if (ev?.retsub && depth > 0) depth--;
      }
      frame.costs.push(cost);
      stack.splice(Math.max(0, stack.length - s.pops), s.pops, ...s.additions);
    }
  }

  private build(): void {
    const group = obj(arr(this.response['txn-groups'])[0]);
    const results = arr(group['txn-results']);
    results.forEach((r, i) => {
      const ro = obj(r);
      const result = obj(ro['txn-result']);
      this.txns.push(obj(obj(result.txn).txn));
      const trace = obj(ro['exec-trace']);
      this.walkTxn([i], result, trace, undefined);
    });
    const failedAt = arr(group['failed-at']).map((n) => Number(bigOf(n) ?? 0n));
    const message = typeof group['failure-message'] === 'string' ? group['failure-message'] : '';
    if (failedAt.length || message) {
      // The failing program: the last frame run for that path (a logic signature's failure leaves
      // no approval trace behind it).
      let position = this.timeline.length - 1;
      for (let t = this.timeline.length - 1; t >= 0; t--) {
        const f = this.frames[this.timeline[t]!.frame]!;
        if (f.path.length === failedAt.length && f.path.every((p, k) => p === failedAt[k])) {
          position = t;
          break;
        }
      }
      if (position >= 0) this.failure = { position, message, path: failedAt };
    }
    for (const st of arr(obj(this.response['initial-states'])['app-initial-states'])) {
      const so = obj(st);
      const id = bigOf(so.id);
      if (id === undefined) continue;
      const view = this.appView(this.initial, id);
      for (const kv of arr(obj(so['app-globals']).kvs)) this.seed(view.global, kv);
      for (const kv of arr(obj(so['app-boxes']).kvs)) this.seed(view.box, kv);
      for (const l of arr(so['app-locals'])) {
        const acct = addressText(obj(l).account);
        if (!acct) continue;
        let m = view.local.get(acct);
        if (!m) view.local.set(acct, (m = new Map()));
        for (const kv of arr(obj(l).kvs)) this.seed(m, kv);
      }
    }
  }

  private seed(m: Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>, kv: unknown): void {
    const key = bytesOf(obj(kv).key);
    if (!key) return;
    const value = avmValueOf(obj(kv).value);
    m.set(toHex(key), { key, before: value, now: value });
  }

  private walkTxn(path: number[], result: Obj, trace: Obj, parent: { frame: number; step: number } | undefined): void {
    const txn = obj(obj(result.txn).txn);
    const called = bigOf(txn.apid);
    const created = bigOf(result['application-index']);
    const appId = txn.type === 'appl' ? (called && called > 0n ? called : created) : undefined;
    const lsig = arr(trace['logic-sig-trace']);
    if (lsig.length) this.emit(this.addFrame(path, 'logicsig', lsig, hashText(trace['logic-sig-hash']), result, undefined, parent));
    const inners = arr(result['inner-txns']);
    const innerTraces = arr(trace['inner-trace']);
    for (const [field, kind, hashField] of [
      ['approval-program-trace', 'approval', 'approval-program-hash'],
      ['clear-state-program-trace', 'clear', 'clear-state-program-hash'],
    ] as const) {
      const steps = arr(trace[field]);
      if (!steps.length) continue;
      const frame = this.addFrame(path, kind, steps, hashText(trace[hashField]), result, appId, parent);
      this.emit(frame, (stepIndex, spawned) => {
        for (const k of spawned) this.walkTxn([...path, k], obj(inners[k]), obj(innerTraces[k]), { frame: frame.id, step: stepIndex });
      });
    }
  }

  private emit(frame: ProgramFrame, onSpawn?: (step: number, spawned: number[]) => void): void {
    const positions: number[] = [];
    frame.steps.forEach((s, i) => {
      positions.push(this.timeline.length);
      this.timeline.push({ frame: frame.id, step: i });
      if (s.spawned.length && onSpawn) onSpawn(i, s.spawned);
    });
    this.positionOf.set(frame.id, positions);
  }

  /** Timeline position of a frame's step. */
  position(frame: number, step: number): number {
    return this.positionOf.get(frame)?.[step] ?? -1;
  }

  /** Frames from the outermost program to the one at `position` (inner programs nest). */
  frameChain(position: number): { frame: ProgramFrame; step: number }[] {
    const e = this.timeline[position];
    if (!e) return [];
    const chain: { frame: ProgramFrame; step: number }[] = [];
    let cur: { frame: number; step: number } | undefined = e;
    while (cur) {
      const f: ProgramFrame = this.frames[cur.frame]!;
      chain.unshift({ frame: f, step: cur.step });
      cur = f.parent;
    }
    return chain;
  }

  /** Nesting used by step over/out: inner programs count 1000, subroutines 1. */
  depth(position: number): number {
    const chain = this.frameChain(position);
    return chain.reduce((d, c) => d + 1000 + (c.frame.callDepth[c.step] ?? 0), 0);
  }

  private frameState(frame: ProgramFrame, step: number): FrameCheckpoint {
    let cps = this.checkpoints.get(frame.id);
    if (!cps) this.checkpoints.set(frame.id, (cps = [{ stack: [], scratch: new Map() }]));
    const want = Math.floor(step / CHECKPOINT_EVERY);
    while (cps.length <= want) {
      const from = (cps.length - 1) * CHECKPOINT_EVERY;
      const base = cps[cps.length - 1]!;
      const stack = [...base.stack];
      const scratch = new Map(base.scratch);
      for (let i = from; i < from + CHECKPOINT_EVERY && i < frame.steps.length; i++) applyStep(frame.steps[i]!, stack, scratch);
      cps.push({ stack, scratch });
    }
    const base = cps[want]!;
    const stack = [...base.stack];
    const scratch = new Map(base.scratch);
    for (let i = want * CHECKPOINT_EVERY; i < step; i++) applyStep(frame.steps[i]!, stack, scratch);
    return { stack, scratch };
  }

  private appView(m: Map<bigint, AppStateView>, id: bigint): AppStateView {
    let v = m.get(id);
    if (!v) m.set(id, (v = { appId: id, global: new Map(), local: new Map(), box: new Map() }));
    return v;
  }

  /** A deep copy of app states (entries are replaced, never mutated, but maps are). */
  private cloneApps(from: Map<bigint, AppStateView>): Map<bigint, AppStateView> {
    const out = new Map<bigint, AppStateView>();
    for (const [id, v] of from) {
      const c = this.appView(out, id);
      for (const [k, e] of v.global) c.global.set(k, { ...e });
      for (const [k, e] of v.box) c.box.set(k, { ...e });
      for (const [a, m] of v.local) c.local.set(a, new Map([...m].map(([k, e]) => [k, { ...e }])));
    }
    return out;
  }

  /** Applies the state changes recorded at positions [from, to) to `out`. */
  private applyAppChanges(out: Map<bigint, AppStateView>, from: number, to: number): void {
    for (let t = from; t < to && t < this.timeline.length; t++) {
      const { frame: fi, step } = this.timeline[t]!;
      const f = this.frames[fi]!;
      const s = f.steps[step]!;
      if (!s.state.length || f.appId === undefined) continue;
      const view = this.appView(out, f.appId);
      for (const c of s.state) {
        let m: Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>;
        if (c.kind === 'g') m = view.global;
        else if (c.kind === 'b') m = view.box;
        else {
          const acct = c.account ?? addressText(bytesOf(f.txn.snd)) ?? '?';
          let lm = view.local.get(acct);
          if (!lm) view.local.set(acct, (lm = new Map()));
          m = lm;
        }
        const k = toHex(c.key);
        const e = { ...(m.get(k) ?? { key: c.key }) };
        if (c.operation === 'd') delete e.now;
        else if (c.value !== undefined) e.now = c.value;
        m.set(k, e);
      }
    }
  }

  /** App state at `position`: the initial states with every change recorded before it applied. */
  appStates(position: number): Map<bigint, AppStateView> {
    const end = Math.max(0, Math.min(position, this.timeline.length));
    const want = Math.floor(end / APP_CHECKPOINT_EVERY);
    if (this.appCheckpoints.length === 0) this.appCheckpoints.push(this.cloneApps(this.initial));
    while (this.appCheckpoints.length <= want) {
      const i = this.appCheckpoints.length;
      const next = this.cloneApps(this.appCheckpoints[i - 1]!);
      this.applyAppChanges(next, (i - 1) * APP_CHECKPOINT_EVERY, i * APP_CHECKPOINT_EVERY);
      this.appCheckpoints.push(next);
    }
    const out = this.cloneApps(this.appCheckpoints[want]!);
    this.applyAppChanges(out, want * APP_CHECKPOINT_EVERY, end);
    return out;
  }

  /** Budget used before `position` by the app pool or the logic-signature pool; undefined when a cost is unknown. */
  private budgetUsedBefore(position: number, logicsig: boolean): number | undefined {
    if (!this.budgetBefore) {
      const n = this.timeline.length;
      const app = new Float64Array(n + 1);
      const lsig = new Float64Array(n + 1);
      for (let t = 0; t < n; t++) {
        const te = this.timeline[t]!;
        const f = this.frames[te.frame]!;
        const c = f.costs[te.step];
        const isLsig = f.kind === 'logicsig';
        app[t + 1] = app[t]! + (isLsig ? 0 : (c ?? NaN));
        lsig[t + 1] = lsig[t]! + (isLsig ? (c ?? NaN) : 0);
      }
      this.budgetBefore = { app, lsig };
    }
    const v = (logicsig ? this.budgetBefore.lsig : this.budgetBefore.app)[position]!;
    return Number.isNaN(v) ? undefined : v;
  }

  /** What the frame has logged before `step` (the operand of each `log` is the stack top before it). */
  private logsBefore(frame: ProgramFrame, step: number): Uint8Array[] {
    let list = this.frameLogs.get(frame.id);
    if (!list) {
      list = [];
      const st: DebugValue[] = [];
      for (let i = 0; i < frame.steps.length; i++) {
        const s = frame.steps[i]!;
        if (frame.ops[i]?.op.name === 'log') {
          const top = st[st.length - 1];
          if (top instanceof Uint8Array) list.push({ step: i, bytes: top });
        }
        st.splice(Math.max(0, st.length - s.pops), s.pops, ...s.additions);
      }
      this.frameLogs.set(frame.id, list);
    }
    const out: Uint8Array[] = [];
    for (const l of list) {
      if (l.step >= step) break;
      out.push(l.bytes);
    }
    return out;
  }

  /** Everything visible before the instruction at `position` runs. */
  snapshot(position: number): ReplaySnapshot {
    const e = this.timeline[position];
    if (!e) throw new DebugTraceError(`position ${position} is outside the run (0…${this.timeline.length - 1})`);
    const frame = this.frames[e.frame]!;
    const { stack, scratch } = this.frameState(frame, e.step);
    const snap: ReplaySnapshot = {
      position,
      frame,
      step: e.step,
      pc: frame.steps[e.step]!.pc,
      stack,
      scratch,
      logs: [],
      logsExact: false,
      apps: this.appStates(position),
    };
    const op = frame.ops[e.step];
    if (op) snap.op = op;
    // Logs: the frame's `log` instructions so far (exact when the program bytes are known).
    if (frame.source?.bytes) {
      snap.logsExact = true;
      snap.logs = this.logsBefore(frame, e.step);
    } else snap.logs = frame.finalLogs;
    // Budget: the pool this program draws from, summed over every step before this one.
    const used = this.budgetUsedBefore(position, frame.kind === 'logicsig');
    if (used !== undefined) snap.budgetUsed = used;
    if (frame.kind === 'logicsig') snap.budgetTotal = DEFAULT_LIMITS.logicSigMaxCost * this.txns.length;
    else if (this.appBudgetAdded !== undefined) snap.budgetTotal = this.appBudgetAdded;
    return snap;
  }

  /** The TEAL location of a frame's pc: use site, plus the macro body line when there is one. */
  location(frame: ProgramFrame, pc: number): ReplayLocation | undefined {
    let cache = this.locations.get(frame.id);
    if (!cache) this.locations.set(frame.id, (cache = new Map()));
    if (cache.has(pc)) return cache.get(pc);
    const loc = this.findLocation(frame, pc);
    cache.set(pc, loc);
    return loc;
  }

  private findLocation(frame: ProgramFrame, pc: number): ReplayLocation | undefined {
    const src = frame.source;
    if (!src) return undefined;
    if (src.userMap) {
      const pos = src.userMap.at(pc, this.mapBase(frame));
      if (!pos) return undefined;
      return { ...(pos.file !== undefined ? { file: pos.file } : {}), line: pos.line, column: pos.column };
    }
    return this.tealLocation(frame, pc);
  }

  /** Where the user map's pc 0 is in a frame's program (its bytes, else the trace's first pcs). */
  mapBase(frame: ProgramFrame): number {
    const map = frame.source?.userMap;
    if (!map || !map.needsBase) return 0;
    const bytes = frame.source?.bytes;
    return map.baseFor({ ...(bytes ? { bytes } : {}), tracePcs: frame.steps.slice(0, map.opPcOffset + 1).map((s) => s.pc) });
  }

  /** The TEAL location of a frame's pc (ignoring any user-source map), when the TEAL is known. */
  tealLocation(frame: ProgramFrame, pc: number): ReplayLocation | undefined {
    const src = frame.source;
    if (!src) return undefined;
    if (src.pcMap) {
      let best: PcMapping | undefined;
      for (const m of src.pcMap) if (m.pc <= pc && (!best || m.pc > best.pc)) best = m;
      // Constant blocks the assembler adds before the first instruction map to it.
      if (!best) for (const m of src.pcMap) if (!best || m.pc < best.pc) best = m;
      if (!best) return undefined;
      return {
        ...(src.file !== undefined ? { file: src.file } : {}),
        line: best.use.line,
        column: best.use.utf16Column,
        ...(best.definition
          ? { definition: { ...(src.file !== undefined ? { file: src.file } : {}), line: best.definition.line, column: best.definition.utf16Column } }
          : {}),
      };
    }
    if (src.sourceMap) {
      let best: SourceMapEntry | undefined;
      for (const m of src.sourceMap) if (m.pc <= pc && (!best || m.pc > best.pc)) best = m;
      if (!best) for (const m of src.sourceMap) if (!best || m.pc < best.pc) best = m;
      if (!best) return undefined;
      const file = src.sourceMapFiles?.[best.source] ?? src.file;
      return { ...(file !== undefined ? { file } : {}), line: best.line, column: best.column };
    }
    return undefined;
  }

  /**
   * The subroutine levels of the program running at `position`, outermost first: `main`, then each
   * subroutine called and not yet returned from, named by the user map's events (else by the
   * called pc). The innermost level is at the current step; the others at their `callsub`.
   */
  subroutines(position: number): SubroutineFrame[] {
    const e = this.timeline[position];
    if (!e) return [];
    const frame = this.frames[e.frame]!;
    const map = frame.source?.userMap;
    const base = this.mapBase(frame);
    const levels: SubroutineFrame[] = [{ name: 'main', step: e.step }];
    for (let i = 0; i < e.step; i++) {
      const pc = frame.steps[i]!.pc;
      const op = frame.ops[i]?.op.name;
      const ev = map?.event(pc, base);
      if (op === 'callsub' || ev?.callsub !== undefined) {
        levels[levels.length - 1]!.step = i;
        const next = frame.steps[i + 1]?.pc;
        const full = ev?.callsub ?? (next !== undefined ? map?.subroutineAt(next, base) : undefined);
        levels.push({
          name: full !== undefined ? subroutineShortName(full) : `subroutine at pc ${next ?? '?'}`,
          ...(full !== undefined ? { fullName: full } : {}),
          step: e.step,
        });
      } else if ((op === 'retsub' || ev?.retsub) && levels.length > 1) {
        levels.pop();
        levels[levels.length - 1]!.step = e.step;
      }
    }
    // The entry level: named by the subroutine it is in (ARC-4 routers branch into methods).
    const entry = map?.subroutineAt(frame.steps[levels[0]!.step]!.pc, base);
    if (entry !== undefined) Object.assign(levels[0]!, { name: subroutineShortName(entry), fullName: entry });
    return levels;
  }

  /** The operands of the instruction at `position` (the stack items it is about to pop); pass its snapshot when you have it. */
  operands(position: number, snap: ReplaySnapshot = this.snapshot(position)): DebugValue[] {
    const s = snap.frame.steps[snap.step]!;
    const n = snap.op ? snap.op.op.args.length || s.pops : s.pops;
    return snap.stack.slice(Math.max(0, snap.stack.length - n));
  }
}

function applyStep(s: ReplayStep, stack: DebugValue[], scratch: Map<number, DebugValue>): void {
  stack.splice(Math.max(0, stack.length - s.pops), s.pops, ...s.additions);
  for (const c of s.scratch) {
    if (c.value === 0n) scratch.delete(c.slot);
    else scratch.set(c.slot, c.value);
  }
}
