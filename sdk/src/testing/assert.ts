import { isDeepStrictEqual } from 'node:util';
import type { AppClient } from '../app/client.js';
import { SimulateFailedError } from '../app/errors.js';
import type { SimulateReport } from '../app/simulate-report.js';
import type { AbiValue } from '../abi/types.js';
import { readBoxMapValue, readGlobalState, readLocalState } from '../client/app-manager.js';
import { stringifyJson } from '../encoding/json.js';
import { toHex } from '../encoding/hex.js';
import { TestingError } from './errors.js';
import { isValidAddress } from '../encoding/address.js';
import { SimulateReportError, startWork } from './fixture.js';

/** What an expected failure must show: the app's error text (or the node's message) and/or the TEAL line. */
export interface ExpectedFailure {
  /** Substring of, or pattern for, the spec's error message or the node's failure message. */
  message?: string | RegExp;
  /** 1-based TEAL line of the failing instruction (through macros: the line where it is used). */
  line?: number;
}

/**
 * Awaits `work` (an app call, a send, a deploy: its promise, or a function that starts it) and
 * checks that it failed as expected; returns the simulate report. Throws, with the report, when it
 * succeeded or failed differently.
 *
 * @example
 * ```ts
 * await expectFailure(counter.call('increment', [50]), { message: 'too big', line: 63 });
 * ```
 */
export async function expectFailure(work: Promise<unknown> | (() => Promise<unknown>), expected: ExpectedFailure = {}): Promise<SimulateReport> {
  const misuse = expectationProblem(expected);
  if (misuse) {
    // The call is already under way: its failure must not surface later as an unhandled rejection.
    if (work !== null && typeof work === 'object' && typeof (work as Partial<Promise<unknown>>).then === 'function')
      (work as Promise<unknown>).catch(() => undefined);
    throw new TestingError(misuse);
  }
  const started = startWork(work, 'expectFailure'); // throws for something that is neither
  let failed = false;
  let error: unknown;
  try {
    await started;
  } catch (e) {
    failed = true;
    error = e;
  }
  if (!failed) throw new TestingError(`expected a failure${describe(expected)}, but it succeeded`);
  if (!(error instanceof SimulateFailedError) || !error.report) {
    if (expected.line !== undefined)
      throw new TestingError(
        `expected a failure at TEAL line ${expected.line}, but it failed before any program ran: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    if (expected.message !== undefined && !matches((error as Error)?.message ?? String(error), expected.message))
      throw new TestingError(`expected a failure${describe(expected)}, but it failed with: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    throw new TestingError(`expected a simulate failure with a report, but got: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  const report = error.report as SimulateReport;
  const texts = [report.failure?.errorMessage, report.failureMessage, error.message].filter((t): t is string => typeof t === 'string');
  const problems: string[] = [];
  if (expected.message !== undefined && !texts.some((t) => matches(t, expected.message!)))
    problems.push(`its message does not match ${String(expected.message)}: ${saidBy(report, error)}`);
  const line = report.failure?.source?.line;
  if (expected.line !== undefined && line !== expected.line) problems.push(`it failed at TEAL line ${line ?? '(unknown)'}, not ${expected.line}`);
  if (problems.length) throw new SimulateReportError(`the failure is not the expected one: ${problems.join('; ')}`, report, { cause: error });
  return report;
}

/** Why `expected` is not an {@link ExpectedFailure}, or undefined when it is one. */
function expectationProblem(expected: unknown): string | undefined {
  if (expected === null || typeof expected !== 'object')
    return `expectFailure takes what to expect as { message?, line? } (or nothing), got ${expected === null ? 'null' : typeof expected}`;
  const { message, line } = expected as ExpectedFailure;
  if (message !== undefined && typeof message !== 'string' && !(message instanceof RegExp))
    return `expectFailure: message is a string (a part of the failure's text) or a RegExp, got ${typeof message}`;
  if (line !== undefined && !(Number.isInteger(line) && line >= 1))
    return `expectFailure: line is a 1-based TEAL line number, got ${typeof line === 'string' ? JSON.stringify(line) : String(line)}`;
  return undefined;
}

/** What a failure said, for a message that did not match: the spec's error message (or why there is none) and the node's. */
function saidBy(report: SimulateReport, error: Error): string {
  const f = report.failure;
  const spec =
    f?.errorMessage !== undefined
      ? `the app spec's error message is ${JSON.stringify(f.errorMessage)}`
      : `the app spec has no error message for pc ${f?.pc ?? '?'} (ARC-56 sourceInfo names them; match the TEAL line with \`line\` instead)`;
  return `${spec}; the node said ${JSON.stringify(report.failureMessage ?? error.message)}`;
}

/** What {@link expectState} compares: values by their spec names (`map[key]` for box map entries read whole). */
export interface ExpectedState {
  global?: Record<string, unknown>;
  /** Local state per account address. */
  local?: Record<string, Record<string, unknown>>;
  /** Box map entries: `{ counts: [[key, value], …] }`, decoded by the spec. */
  boxMaps?: Record<string, readonly (readonly [AbiValue | Uint8Array, unknown])[]>;
}

/**
 * Checks an app's state, decoded by its spec: every key named in `expected` must hold the given
 * value (other keys are not checked); `undefined` means absent.
 */
export async function expectState(app: AppClient, expected: ExpectedState): Promise<void> {
  if (app === null || typeof app !== 'object' || typeof (app as Partial<AppClient>).appId !== 'bigint')
    throw new TestingError(`expectState takes an app client first (e.g. f.apps.counter), got ${app === null ? 'null' : typeof app}`);
  if (expected === null || typeof expected !== 'object')
    throw new TestingError(`expectState takes what to expect as { global?, local?, boxMaps? }, got ${expected === null ? 'null' : typeof expected}`);
  for (const addr of Object.keys(expected.local ?? {}))
    if (!isValidAddress(addr)) throw new TestingError(`expectState: local state is keyed by account address, and ${JSON.stringify(addr)} is not one`);
  const problems: string[] = [];
  const compare = (where: string, actual: Record<string, unknown>, want: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(want))
      if (!isDeepStrictEqual(normalize(actual[k]), normalize(v))) problems.push(`${where} ${k} is ${show(actual[k])}, expected ${show(v)}`);
  };
  if (expected.global) compare('global', await readGlobalState(app), expected.global);
  for (const [addr, want] of Object.entries(expected.local ?? {})) compare(`local of ${addr}:`, await readLocalState(app, addr), want);
  for (const [map, entries] of Object.entries(expected.boxMaps ?? {})) {
    for (const [key, want] of entries) {
      const got = await readBoxMapValue(app, map, key);
      if (!isDeepStrictEqual(normalize(got), normalize(want))) problems.push(`box ${map}[${show(key)}] is ${show(got)}, expected ${show(want)}`);
    }
  }
  if (problems.length) throw new TestingError(`app ${app.appId} state differs:\n  ${problems.join('\n  ')}`);
}

function matches(text: string, want: string | RegExp): boolean {
  return typeof want === 'string' ? text.includes(want) : want.test(text);
}

function describe(e: ExpectedFailure): string {
  const parts = [e.message !== undefined ? `with ${String(e.message)}` : '', e.line !== undefined ? `at TEAL line ${e.line}` : ''].filter(Boolean);
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/** Numbers compare equal to the bigints state decodes to. */
function normalize(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map(normalize);
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v instanceof Uint8Array) return `0x${toHex(v)}`;
  try {
    return stringifyJson(v);
  } catch {
    return String(v);
  }
}
