import { renderValue, truthy, typeName, valuesEqual, type ExprValue } from './expr.js';
import { FUNCTIONS } from './expr.js';
import type { AssertComparisons } from './model.js';

/*
 * The comparison half of an `assert` step, pure: the engine resolves the step (expressions,
 * and for `global`/`local`/`box`/`balance` subjects the read), then asks this whether it passed.
 */

/** Whether an assertion passed, what it checked, and why it failed. */
export interface AssertionOutcome {
  passed: boolean;
  /** What was checked, for progress output: `5 >= 3`. */
  description: string;
  /** Why it failed, in words. */
  failure?: string;
}

type Comparison = keyof AssertComparisons;
const ORDER: Comparison[] = ['equals', 'notEquals', 'greaterThan', 'lessThan', 'atLeast', 'atMost', 'contains'];
const SYMBOL: Record<Comparison, string> = {
  equals: '==',
  notEquals: '!=',
  greaterThan: '>',
  lessThan: '<',
  atLeast: '>=',
  atMost: '<=',
  contains: 'contains',
};

function show(v: ExprValue): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : renderValue(v);
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

/** Compares across representations people mix in YAML: a decimal string and an integer, text and its bytes. */
function coerce(subject: ExprValue, expected: ExprValue): [ExprValue, ExprValue] {
  if (typeof subject === 'bigint' && typeof expected === 'string' && /^[0-9]+$/.test(expected)) return [subject, BigInt(expected)];
  if (typeof expected === 'bigint' && typeof subject === 'string' && /^[0-9]+$/.test(subject)) return [BigInt(subject), expected];
  if (subject instanceof Uint8Array && typeof expected === 'string') return [subject, new TextEncoder().encode(expected)];
  if (expected instanceof Uint8Array && typeof subject === 'string') return [new TextEncoder().encode(subject), expected];
  return [subject, expected];
}

function order(a: ExprValue, b: ExprValue): number | undefined {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/**
 * Checks `subject` against every comparison given (all must hold); with none, the subject must be
 * true (truthy). `comparisons` hold resolved values.
 */
export function checkAssertion(subject: ExprValue, comparisons: { [K in Comparison]?: ExprValue }, message?: string): AssertionOutcome {
  const given = ORDER.filter((c) => comparisons[c] !== undefined);
  if (given.length === 0) {
    const passed = truthy(subject);
    return { passed, description: `${show(subject)} is true`, ...(passed ? {} : { failure: message ?? `expected a true value, got ${show(subject)}` }) };
  }
  const parts: string[] = [];
  for (const c of given) {
    const [a, b] = coerce(subject, comparisons[c]!);
    parts.push(`${show(a)} ${SYMBOL[c]} ${show(b)}`);
    let ok: boolean;
    if (c === 'equals') ok = valuesEqual(a, b);
    else if (c === 'notEquals') ok = !valuesEqual(a, b);
    else if (c === 'contains') {
      try {
        ok = FUNCTIONS.contains!.run([a, b], { kind: 'call', fn: 'contains', args: [], start: 0, end: 0 } as never) === true;
      } catch {
        return { passed: false, description: parts.join(' and '), failure: `cannot look for ${typeName(b)} in ${typeName(a)}` };
      }
    } else {
      const o = order(a, b);
      if (o === undefined)
        return { passed: false, description: parts.join(' and '), failure: `cannot compare ${typeName(a)} with ${typeName(b)} using ${SYMBOL[c]}` };
      ok = c === 'greaterThan' ? o > 0 : c === 'lessThan' ? o < 0 : c === 'atLeast' ? o >= 0 : o <= 0;
    }
    if (!ok)
      return {
        passed: false,
        description: parts.join(' and '),
        failure: message ? `${message} (${parts[parts.length - 1]} does not hold)` : `expected ${parts[parts.length - 1]}`,
      };
  }
  return { passed: true, description: parts.join(' and ') };
}
