import { toBase64 } from '../encoding/base64.js';
import { encodeAddress } from '../encoding/address.js';
import type { AvmValue, StackValue } from './value.js';
import { toAvmValue } from './value.js';

/** Which parts of each step a trace records (simulate's exec-trace-config). */
export interface TraceOptions {
  stackChange: boolean;
  scratchChange: boolean;
  stateChange: boolean;
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
  inner: ProgramTrace[];
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

  before(pc: number, sp: number): void {
    this.current = { pc };
    this.spBefore = sp;
    this.steps.push(this.current);
  }

  after(stack: StackValue[], sp: number, pops: number): void {
    const step = this.current;
    if (!step || !this.options.stackChange) return;
    const base = this.spBefore - pops;
    if (pops > 0) step.stackPopCount = pops;
    if (sp > base) {
      const additions: AvmValue[] = [];
      for (let i = base; i < sp; i++) additions.push(toAvmValue(stack[i]!));
      step.stackAdditions = additions;
    }
  }

  /** Stack effects of ops whose arity the opcode table cannot state (cover, popn, retsub …). */
  overridePops(pops: number): void {
    this.popsOverride = pops;
  }

  popsOverride: number | undefined;

  scratch(slot: number, value: StackValue): void {
    const step = this.current;
    if (!step || !this.options.scratchChange) return;
    (step.scratchChanges ??= []).push({ slot, newValue: toAvmValue(value) });
  }

  state(change: StateChange): void {
    const step = this.current;
    if (!step || !this.options.stateChange) return;
    (step.stateChanges ??= []).push(change);
  }

  spawned(indices: number[], traces: ProgramTrace[]): void {
    const step = this.current;
    if (step) step.spawnedInners = indices;
    this.inner.push(...traces);
  }

  result(): ProgramTrace {
    return { steps: this.steps, inner: this.inner };
  }
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
