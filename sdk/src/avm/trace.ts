import { toBase64 } from '../encoding/base64.js';
import { encodeAddress } from '../encoding/address.js';
import type { AvmValue, StackValue } from './value.js';
import { toAvmValue } from './value.js';
import type { Transaction } from '../txn/types.js';

/** Which parts of each step a trace records (simulate's exec-trace-config). */
export interface TraceOptions {
  stackChange: boolean;
  scratchChange: boolean;
  stateChange: boolean;
  /**
   * Shared by every program of one request: recording stops (and `exceeded` is set) once the
   * trace would take about `limit` bytes as JSON, so a long trace cannot exhaust memory.
   */
  budget?: TraceBudget;
}

/** A size budget for the traces of one request (estimated JSON bytes). */
export interface TraceBudget {
  limit: number;
  used: number;
  exceeded: boolean;
}

/** Estimated JSON size of one traced value. */
function valueCost(v: AvmValue): number {
  return typeof v === 'bigint' ? 40 : 30 + Math.ceil((v.length * 4) / 3);
}

/** One executed instruction, in simulate's `exec-trace` unit shape (camelCase here). */
export interface TraceStep {
  pc: number;
  stackPopCount?: number;
  stackAdditions?: AvmValue[];
  scratchChanges?: { slot: number; newValue: AvmValue }[];
  stateChanges?: StateChange[];
  /** Indices into the program's inner transactions spawned by this step (itxn_submit). */
  spawnedInners?: number[];
}

/** A state change recorded in an execution trace (public name `TraceStateChange`). */
export interface StateChange {
  operation: 'w' | 'd';
  appStateType: 'g' | 'l' | 'b';
  key: Uint8Array;
  newValue?: AvmValue;
  account?: Uint8Array;
}

/** A program's trace plus the traces of the inner transactions it spawned. */
export interface ProgramTrace {
  steps: TraceStep[];
  /** Program traces of the inner app calls, in order (a failing one included, up to its failure). */
  inner: ProgramTrace[];
  /**
   * Every inner transaction this program started, in order, as simulate's `inner-trace` lists
   * them: `spawnedInners` indices point here. App calls carry their program trace; other types
   * have none. A failing inner transaction is the last entry (nothing after it ran).
   */
  spawned?: SpawnedInner[];
}

/** One inner transaction a program started (see `ProgramTrace.spawned`). */
export interface SpawnedInner {
  txn: Transaction;
  /** The app's program trace, for app calls whose program began. */
  trace?: ProgramTrace;
  /** The program that ran (simulate reports its hash; the app may be gone once the group ends). */
  program?: Uint8Array;
}

/**
 * Collects steps while a program runs. Only created when tracing is on; the interpreter's hot loop
 * tests a single field for undefined otherwise, so a disabled trace costs nothing per step.
 */
export class TraceRecorder {
  readonly steps: TraceStep[] = [];
  readonly inner: ProgramTrace[] = [];
  private current: TraceStep | undefined;
  private spBefore = 0;

  constructor(readonly options: TraceOptions) {}

  private spend(bytes: number): boolean {
    const b = this.options.budget;
    if (!b) return true;
    if (b.exceeded) return false;
    b.used += bytes;
    if (b.used <= b.limit) return true;
    b.exceeded = true;
    return false;
  }

  /** Opens the step of the instruction at `pc`; `pops` is known before it runs (see trace-explain.ts). */
  before(pc: number, sp: number, pops: number): void {
    if (!this.spend(24)) {
      this.current = undefined;
      return;
    }
    const step: TraceStep = { pc };
    this.current = step;
    this.spBefore = sp;
    this.pops = pops;
    if (pops > 0 && this.options.stackChange) step.stackPopCount = pops;
    this.steps.push(step);
  }

  /** Closes the step after the instruction succeeded: what lies above the popped height was added. */
  after(stack: StackValue[], sp: number): void {
    const step = this.current;
    if (!step || !this.options.stackChange) return;
    const base = this.spBefore - this.pops;
    if (sp > base) {
      const additions: AvmValue[] = [];
      let cost = 0;
      for (let i = Math.max(0, base); i < sp; i++) {
        const v = toAvmValue(stack[i]!);
        cost += valueCost(v);
        additions.push(v);
      }
      if (this.spend(cost)) step.stackAdditions = additions;
    }
  }

  private pops = 0;

  scratch(slot: number, value: StackValue): void {
    const step = this.current;
    if (!step || !this.options.scratchChange) return;
    const v = toAvmValue(value);
    if (this.spend(20 + valueCost(v))) (step.scratchChanges ??= []).push({ slot, newValue: v });
  }

  state(change: StateChange): void {
    const step = this.current;
    if (!step || !this.options.stateChange) return;
    if (this.spend(60 + Math.ceil((change.key.length * 4) / 3) + (change.newValue === undefined ? 0 : valueCost(change.newValue))))
      (step.stateChanges ??= []).push(change);
  }

  /**
   * Records that the current step (an `itxn_submit`) started inner transaction `index` — as the
   * node does, before the transaction is authorized or performed, so a failing one is listed too.
   */
  spawn(index: number, txn: Transaction): SpawnedInner {
    const step = this.current;
    if (step) (step.spawnedInners ??= []).push(index);
    const entry: SpawnedInner = { txn };
    this.spawnedTxns.push(entry);
    this.out.spawned ??= this.spawnedTxns;
    return entry;
  }

  /** Attaches the program trace of a spawned inner app call (also when it failed). */
  innerProgram(entry: SpawnedInner, trace: ProgramTrace, program: Uint8Array): void {
    entry.trace = trace;
    entry.program = program;
    this.inner.push(trace);
  }

  private readonly spawnedTxns: SpawnedInner[] = [];

  /** The trace (a live object: an inner program's trace keeps filling after it is attached). */
  result(): ProgramTrace {
    return this.out;
  }

  private readonly out: ProgramTrace = { steps: this.steps, inner: this.inner };
}

/** An AVM value in simulate's JSON form: `{type: 1, bytes: base64}` or `{type: 2, uint}`. */
export type SimulateAvmValue = { type: 1; bytes?: string } | { type: 2; uint?: bigint };

function avmValueJson(v: AvmValue): SimulateAvmValue {
  if (typeof v === 'bigint') return v === 0n ? { type: 2 } : { type: 2, uint: v };
  return v.length === 0 ? { type: 1 } : { type: 1, bytes: toBase64(v) };
}

/**
 * One program's steps in simulate's `exec-trace` JSON shape (kebab-case keys, base64 bytes,
 * addresses as text, zero values omitted). Inner traces are returned alongside for the caller
 * to place under `inner-trace`.
 */
export function toSimulateSteps(steps: readonly TraceStep[]): Record<string, unknown>[] {
  return steps.map((s) => {
    const out: Record<string, unknown> = { pc: s.pc };
    if (s.stackPopCount) out['stack-pop-count'] = s.stackPopCount;
    if (s.stackAdditions?.length) out['stack-additions'] = s.stackAdditions.map(avmValueJson);
    if (s.scratchChanges?.length) out['scratch-changes'] = s.scratchChanges.map((c) => ({ slot: c.slot, 'new-value': avmValueJson(c.newValue) }));
    if (s.stateChanges?.length) {
      out['state-changes'] = s.stateChanges.map((c) => ({
        'app-state-type': c.appStateType,
        ...(c.account ? { account: encodeAddress(c.account) } : {}),
        key: toBase64(c.key),
        ...(c.newValue !== undefined ? { 'new-value': avmValueJson(c.newValue) } : {}),
        operation: c.operation,
      }));
    }
    if (s.spawnedInners?.length) out['spawned-inners'] = s.spawnedInners;
    return out;
  });
}
