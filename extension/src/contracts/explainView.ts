// What the simulate panel shows to explain a result: the failing op with its operands and the
// stack (typed) at the failing pc, the path through inner transactions, box writes and deletions,
// and the verdict after a send ("Confirmed in round N"). Plain data for the webview; no `vscode`
// import, so it is unit-testable in plain Node.
import type { SimulateReport, TxnReport } from '@tealworks/sdk/app';
import { avmTypeName, formatDebugValue, typedViews, type TypedView } from '@tealworks/sdk/app';

/** One stack (or operand) value: its short form, AVM type and every typed reading. */
export interface StackItemView {
  /** Position as watch expressions name it: -1 is the top. */
  index: number;
  type: 'uint64' | 'bytes';
  text: string;
  views: TypedView[];
}

export interface PathStepView {
  label: string;
  type: string;
  appId?: string;
  method?: string;
  failed: boolean;
}

export interface FailureExplainView {
  op?: string;
  operands: StackItemView[];
  /** Top of the stack first, at most STACK_SHOWN items. */
  stack: StackItemView[];
  /** How many items the stack holds in all. */
  stackDepth?: number;
  scratch: { slot: number; text: string }[];
  /** From the top-level transaction down to the one that failed. */
  path: PathStepView[];
}

export const STACK_SHOWN = 8;

function item(v: bigint | Uint8Array, index: number): StackItemView {
  return { index, type: avmTypeName(v), text: formatDebugValue(v), views: typedViews(v) };
}

/** The explanation of a failing report, or undefined when it succeeded. */
export function failureExplanation(r: SimulateReport): FailureExplainView | undefined {
  if (r.wouldSucceed) return undefined;
  const f = r.failure;
  const view: FailureExplainView = { operands: [], stack: [], scratch: [], path: [] };
  if (f?.op) view.op = f.op;
  if (f?.operands) view.operands = f.operands.map((v, i, all) => item(v, i - all.length));
  if (f?.stack) {
    view.stackDepth = f.stack.length;
    const top = [...f.stack].reverse().slice(0, STACK_SHOWN);
    view.stack = top.map((v, i) => item(v, -1 - i));
  }
  if (f?.scratch) view.scratch = f.scratch.map((s) => ({ slot: s.slot, text: formatDebugValue(s.value) }));
  let list: readonly TxnReport[] = r.txns;
  for (const i of r.failedAt ?? []) {
    const t = list[i];
    if (!t) break;
    view.path.push({
      label: t.path.length === 1 ? `txn ${i}` : `inner ${i}`,
      type: t.type ?? '?',
      failed: t.failed,
      ...(t.appId !== undefined ? { appId: t.appId.toString() } : {}),
      ...(t.method ? { method: t.method } : {}),
    });
    list = t.inner;
  }
  return view;
}

/** What a send produced, as the extension hands it to the webview. */
export interface SentInfo {
  txids: string[];
  /** The round the group was confirmed in (decimal). */
  confirmedRound: string;
  created: string[];
}

export interface VerdictView {
  kind: 'ok' | 'fail' | 'confirmed' | 'declined';
  text: string;
  /** Copyable transaction ids (after a send). */
  txids?: string[];
}

/**
 * The headline: "Would succeed" / "Would fail at …" after a simulation; after a send, "Confirmed in
 * round N" (or, when the send was declined, that nothing was sent).
 */
export function verdictView(r: { wouldSucceed: boolean; failedAtLabel?: string }, sent?: SentInfo, declined = false): VerdictView {
  if (sent) {
    const created = sent.created.filter(Boolean);
    return {
      kind: 'confirmed',
      text: `✓ Confirmed in round ${sent.confirmedRound}${created.length ? ` · created app ${created.join(', ')}` : ''}`,
      txids: sent.txids,
    };
  }
  if (declined && r.wouldSucceed) return { kind: 'declined', text: '✓ Would succeed — not sent' };
  return r.wouldSucceed ? { kind: 'ok', text: '✓ Would succeed' } : { kind: 'fail', text: `✗ Would fail at ${r.failedAtLabel || 'the group'}` };
}
