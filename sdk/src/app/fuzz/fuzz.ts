import type { Arc56AppSpec, Arc56Method } from '../../abi/arc56.js';
import { AbiUfixedType, AbiUintType, type AbiValue } from '../../abi/types.js';
import { stringifyJson } from '../../encoding/json.js';
import { compileContract, type CompiledContract, type ContractInput, type CompileOptions } from '../compile.js';
import { AppError } from '../errors.js';
import type { CoverageCollector } from '../coverage.js';
import { formatAbi } from '../state-decode.js';
import { arbitraryArg, FuzzRandom, mixSeed, shrinkArg, type ArbitraryContext } from './arbitrary.js';
import { FuzzChain, type CallOutcome, type FuzzState } from './chain.js';

/*
 * Property-based tests from an ARC-56 spec: random typed arguments and senders, single calls or
 * sequences of calls across methods, on a fresh in-process chain per run. A run fails when a call
 * panics (an AVM error other than a deliberate assert/err/reject) or an invariant over the
 * spec-decoded state says no. The failing case is shrunk (fewer calls, simpler senders and
 * arguments) and reported with a seed: `fuzz(…, { replay: seed })` regenerates the same case and
 * shrinks it the same way, and the failing call's trace opens in the debugger.
 */

/** Bad fuzz input (unknown method, a transaction argument without a generator, a bad replay seed). */
export class FuzzError extends AppError {}

/** One call of a fuzz case: method, arguments and the index of the sending account. */
export interface FuzzCall {
  method: string;
  args: AbiValue[];
  sender: number;
}

/** What an invariant sees after each call: the call, its outcome, the state before and after, and the accounts. */
export interface InvariantContext {
  call: FuzzCall;
  /** Address of the sender. */
  sender: string;
  /** Index of the call in the run's sequence. */
  index: number;
  outcome: CallOutcome;
  before: FuzzState;
  after: FuzzState;
  accounts: readonly string[];
  /** The account that created the app. */
  creator: string;
  appId: bigint;
  appAddress: string;
}

/** Options of a fuzz campaign. */
export interface FuzzOptions {
  /** Runs (cases) to try (default 100). */
  runs?: number;
  /** Base seed (default: random); each run's seed derives from it. */
  seed?: number;
  /** Calls per run: 1 (default) tests single calls; more make random sequences over `methods`. */
  calls?: number;
  /** Accounts that send calls (default 3; account 0 created the app). */
  senders?: number;
  /**
   * A predicate over each call: return false or throw to report a bug. Runs after every call,
   * rejected ones included (their state must be unchanged anyway).
   */
  invariant?: (ctx: InvariantContext) => boolean | void;
  /** Count AVM panics as failures (default true). */
  failOnPanic?: boolean;
  /** Count deliberate rejections (assert, err, approval returned 0) as failures too (default false). */
  failOnReject?: boolean;
  /** Generators for particular arguments, by method name then argument name or index. */
  args?: Record<string, Record<string | number, (rng: FuzzRandom, ctx: ArbitraryContext) => AbiValue>>;
  /** TEAL sources and template values, when the spec carries neither source nor byte code (or to override them). */
  contract?: Omit<ContractInput, 'spec'> & CompileOptions;
  /** Call a create method instead of a bare create. */
  create?: { method: string; args: AbiValue[] };
  /** Replays one case from a counterexample's seed (and shrinks it the same way). */
  replay?: string;
  /** Largest number of candidate cases the shrinker tries (default 1000). */
  maxShrinks?: number;
  /** Every call's trace is added to this collector. */
  coverage?: CoverageCollector;
}

/** How a case failed: which call, how (panic, rejection, invariant), with the node's or the invariant's message. */
export interface FuzzFailure {
  kind: 'panic' | 'rejected' | 'invariant';
  message: string;
  /** Index of the failing call in the case. */
  callIndex: number;
}

/** A failing case, shrunk, with what it takes to replay and debug it. */
export interface Counterexample {
  /** Pass as `replay` to run this case again (`<base seed>:<run>`). */
  seed: string;
  /** The shrunk case. */
  calls: FuzzCall[];
  /** The case as generated. */
  original: FuzzCall[];
  failure: FuzzFailure;
  /** Cases the shrinker tried. */
  shrinkAttempts: number;
  /**
   * The failing call's simulate response in the node's JSON form, with stack, scratch and state
   * changes: launch the debugger on it (`"trace"` in a tealworks launch configuration).
   */
  debugTrace: string;
}

/** The outcome of a campaign. */
export interface FuzzResult {
  ok: boolean;
  /** Base seed of the campaign. */
  seed: number;
  runs: number;
  /** Calls made (shrinking included). */
  calls: number;
  /** Calls that ended in a deliberate rejection (not failures unless `failOnReject`). */
  rejected: number;
  counterexample?: Counterexample;
  /** A readable summary (what a test prints when it fails). */
  message: string;
}

function resolveMethods(spec: Arc56AppSpec, method: string | readonly string[], options: FuzzOptions): Arc56Method[] {
  const names = typeof method === 'string' ? [method] : [...method];
  if (names.length === 0) throw new FuzzError('fuzz needs at least one method name');
  return names.map((n) => {
    let m: Arc56Method;
    try {
      m = spec.getMethod(n);
    } catch (e) {
      throw new FuzzError(`${spec.name} has no method ${JSON.stringify(n)} (${(e as Error).message})`);
    }
    m.method.args.forEach((a, i) => {
      if (a.kind !== 'transaction') return;
      const gen = options.args?.[m.method.name];
      if (!gen?.[a.name ?? ''] && !gen?.[i])
        throw new FuzzError(
          `${m.method.name} argument ${i}${a.name ? ` (${a.name})` : ''} is a ${a.type} transaction; fuzz generates ARC-4 values and references only`,
        );
    });
    return m;
  });
}

interface Campaign {
  spec: Arc56AppSpec;
  compiled: CompiledContract;
  methods: Arc56Method[];
  options: FuzzOptions;
  senders: number;
  /** Longest case (calls per run). */
  maxCalls: number;
  /** Calls made and deliberate rejections seen, over the campaign. */
  stats: { made: number; rejected: number };
  /** False while shrinking and replaying: only the campaign's own runs feed coverage. */
  record: boolean;
  create?: { method: Arc56Method; args: AbiValue[] };
  /** The campaign's chain: every run rewinds it to its start. */
  base?: FuzzChain;
}

/** The campaign's chain, fresh for a run: runs take turns on one chain, rewound between them. */
function newChain(c: Campaign): FuzzChain {
  if (!c.base) c.base = new FuzzChain(c.spec, c.compiled, { senders: c.senders, ...(c.create ? { create: c.create } : {}) });
  return c.base.rewind();
}

function context(chain: FuzzChain): ArbitraryContext {
  return { accounts: chain.accounts.map((a) => a.address), appId: chain.appId, appAddress: chain.appAddress, assets: [] };
}

/** Generates one case from a run seed (the chain is only read for ids and addresses). */
function generate(c: Campaign, seed: number, ctx: ArbitraryContext): FuzzCall[] {
  const rng = new FuzzRandom(seed);
  const n = c.maxCalls <= 1 ? 1 : 1 + rng.below(c.maxCalls);
  const out: FuzzCall[] = [];
  for (let i = 0; i < n; i++) {
    const m = c.maxCalls <= 1 ? c.methods[0]! : rng.pick(c.methods);
    const gens = c.options.args?.[m.method.name];
    const args = m.method.args.map((a, j) => {
      const g = gens?.[a.name ?? ''] ?? gens?.[j];
      return g ? g(rng, ctx) : arbitraryArg(a, rng, ctx);
    });
    out.push({ method: m.method.signature, args, sender: rng.below(c.senders) });
  }
  return out;
}

/** Runs a case on a fresh chain; returns how it failed, or undefined when it passed. */
function runCase(c: Campaign, calls: readonly FuzzCall[], trace: 'pcs' | 'full' = 'pcs'): { failure?: FuzzFailure; outcome?: CallOutcome } {
  const chain = newChain(c);
  const creator = chain.accounts[0]!.address;
  const failOnPanic = c.options.failOnPanic ?? true;
  let before = c.options.invariant ? chain.state() : undefined;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const m = c.spec.getMethod(call.method);
    let outcome: CallOutcome;
    try {
      outcome = chain.call(m, call.args, call.sender, trace);
    } catch (e) {
      // Arguments the chain refuses before any program runs (too large a call, say) are not bugs of the app.
      if (e instanceof Error && /too large|exceeds|limit/i.test(e.message)) return {};
      throw e;
    }
    c.stats.made++;
    if (c.record) c.options.coverage?.addSimulateResponse(outcome.response);
    if (outcome.kind === 'rejected') c.stats.rejected++;
    if ((outcome.kind === 'panic' && failOnPanic) || (outcome.kind === 'rejected' && c.options.failOnReject)) {
      return { failure: { kind: outcome.kind, message: outcome.message ?? '', callIndex: i }, outcome };
    }
    if (c.options.invariant) {
      const after = chain.state();
      let verdict: boolean | void = undefined;
      let thrown: string | undefined;
      try {
        verdict = c.options.invariant({
          call,
          sender: chain.accounts[call.sender % chain.accounts.length]!.address,
          index: i,
          outcome,
          before: before!,
          after,
          accounts: chain.accounts.map((a) => a.address),
          creator,
          appId: chain.appId,
          appAddress: chain.appAddress,
        });
      } catch (e) {
        thrown = e instanceof Error ? e.message : String(e);
      }
      if (thrown !== undefined || verdict === false)
        return { failure: { kind: 'invariant', message: thrown ?? 'the invariant returned false', callIndex: i }, outcome };
      before = after;
    }
  }
  return {};
}

/** A failure message without what changes with the arguments: the transaction id and numbers (pcs, amounts). */
const failureShape = (message: string): string => message.replace(/transaction [A-Z2-7]{52}/g, 'transaction').replace(/\d+/g, '#');

/** Failures match when kind and message shape agree. */
const sameFailure = (a: FuzzFailure, b: FuzzFailure): boolean => a.kind === b.kind && failureShape(a.message) === failureShape(b.message);

/** True when the caller gave this argument its own generator (then it is not shrunk). */
function custom(c: Campaign, method: string, name: string | undefined, index: number): boolean {
  const g = c.options.args?.[method];
  return !!g && (g[name ?? ''] !== undefined || g[index] !== undefined);
}

/** Candidate simpler cases, simplest first: fewer calls, then sender 0, then simpler arguments. */
function* candidates(c: Campaign, calls: readonly FuzzCall[], ctx: ArbitraryContext): Generator<FuzzCall[]> {
  for (let i = 0; i < calls.length && calls.length > 1; i++) yield [...calls.slice(0, i), ...calls.slice(i + 1)];
  for (let i = 0; i < calls.length; i++) if (calls[i]!.sender !== 0) yield calls.map((k, j) => (j === i ? { ...k, sender: 0 } : k));
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const m = c.spec.getMethod(call.method).method;
    for (let a = 0; a < m.args.length; a++) {
      const arg = m.args[a]!;
      if (custom(c, m.name, arg.name, a)) continue;
      // Integers were binary-searched already.
      if (arg.kind === 'value' && (arg.abiType instanceof AbiUintType || arg.abiType instanceof AbiUfixedType)) continue;
      for (const v of shrinkArg(m.args[a]!, call.args[a]!, ctx)) {
        const args = [...call.args];
        args[a] = v;
        yield calls.map((k, j) => (j === i ? { ...k, args } : k));
      }
    }
  }
}

function shrink(c: Campaign, calls: FuzzCall[], failure: FuzzFailure, ctx: ArbitraryContext): { calls: FuzzCall[]; failure: FuzzFailure; attempts: number } {
  const max = c.options.maxShrinks ?? 1000;
  let best = calls.slice(0, failure.callIndex + 1);
  let bestFailure = failure;
  let attempts = 0;
  const fails = (cand: FuzzCall[]): FuzzFailure | undefined => {
    attempts++;
    const r = runCase(c, cand);
    return r.failure && sameFailure(r.failure, failure) ? r.failure : undefined;
  };
  let improved = true;
  while (improved && attempts < max) {
    improved = false;
    // Integer arguments: a binary search for the smallest value that still fails (a threshold in ~64 runs).
    for (let i = 0; i < best.length && attempts < max; i++) {
      const m = c.spec.getMethod(best[i]!.method).method;
      m.args.forEach((arg, a) => {
        if (arg.kind !== 'value' || !(arg.abiType instanceof AbiUintType || arg.abiType instanceof AbiUfixedType) || custom(c, m.name, arg.name, a)) return;
        const at = (v: bigint): FuzzCall[] => best.map((k, j) => (j === i ? { ...k, args: k.args.map((x, n) => (n === a ? v : x)) } : k));
        let hi = BigInt(best[i]!.args[a] as bigint | number);
        let lo = 0n;
        if (hi === 0n) return;
        let found = fails(at(0n));
        if (found) {
          hi = 0n;
        } else {
          while (hi - lo > 1n && attempts < max) {
            const mid = lo + (hi - lo) / 2n;
            const f = fails(at(mid));
            if (f) {
              hi = mid;
              found = f;
            } else lo = mid;
          }
        }
        if (found && hi !== BigInt(best[i]!.args[a] as bigint | number)) {
          best = at(hi);
          bestFailure = found;
          improved = true;
        }
      });
    }
    for (const cand of candidates(c, best, ctx)) {
      if (attempts >= max) break;
      const f = fails(cand);
      if (f) {
        best = cand.slice(0, f.callIndex + 1);
        bestFailure = f;
        improved = true;
        break;
      }
    }
  }
  return { calls: best, failure: bestFailure, attempts };
}

/** A call as text: `method(arg, …) from account N`. */
export function formatFuzzCall(call: FuzzCall): string {
  return `${call.method.slice(0, call.method.indexOf('('))}(${call.args.map((a) => formatAbi(a)).join(', ')}) from account ${call.sender}`;
}

function parseReplay(seed: string): { base: number; run: number } {
  const m = /^(\d+):(\d+)$/.exec(seed.trim());
  if (!m) throw new FuzzError(`replay seed ${JSON.stringify(seed)} is not of the form <base>:<run> (copy it from the counterexample)`);
  return { base: Number(m[1]) >>> 0, run: Number(m[2]) };
}

/**
 * Fuzzes one method (or, with `calls` > 1, sequences over several) of an app described by an
 * ARC-56 spec. Programs come from `options.contract` TEAL, else the spec's `source` or byte code.
 *
 * ```ts
 * const r = fuzz(spec, 'withdraw', { runs: 200, seed: 7, invariant: ({ after }) => after.global.total >= 0n });
 * if (!r.ok) console.log(r.message); // shrunk case, and a seed for { replay }
 * ```
 */
export function fuzz(spec: Arc56AppSpec, method: string | readonly string[], options: FuzzOptions = {}): FuzzResult {
  const methods = resolveMethods(spec, method, options);
  let compiled: CompiledContract;
  const { template, updatable, deletable, ...sources } = options.contract ?? {};
  try {
    compiled = compileContract({ ...sources, spec }, { ...(template ? { template } : {}), updatable: updatable ?? false, deletable: deletable ?? false });
  } catch (e) {
    throw new FuzzError(`cannot build ${spec.name} for fuzzing: ${(e as Error).message}`, { cause: e });
  }
  if (options.coverage) {
    options.coverage.addProgram(compiled.approval);
    options.coverage.addProgram(compiled.clear);
  }
  const campaign: Campaign = {
    spec,
    compiled,
    methods,
    options,
    senders: Math.max(1, options.senders ?? 3),
    maxCalls: Math.max(1, options.calls ?? 1),
    stats: { made: 0, rejected: 0 },
    record: true,
  };
  if (options.create) campaign.create = { method: spec.getMethod(options.create.method), args: options.create.args };
  const replay = options.replay !== undefined ? parseReplay(options.replay) : undefined;
  const base = replay?.base ?? (options.seed !== undefined ? options.seed >>> 0 : Math.floor(Math.random() * 2 ** 32));
  const runs = replay ? 1 : Math.max(1, options.runs ?? 100);
  const ctx = context(newChain(campaign));
  for (let k = 0; k < runs; k++) {
    const run = replay ? replay.run : k;
    const generated = generate(campaign, mixSeed(base, run), ctx);
    const r = runCase(campaign, generated);
    if (!r.failure) continue;
    const quiet: Campaign = { ...campaign, record: false };
    const s = shrink(quiet, generated, r.failure, ctx);
    const final = runCase(quiet, s.calls, 'full');
    const seedText = `${base}:${run}`;
    const counterexample: Counterexample = {
      seed: seedText,
      calls: s.calls,
      original: generated,
      failure: final.failure ?? s.failure,
      shrinkAttempts: s.attempts,
      debugTrace: stringifyJson(final.outcome?.response ?? {}),
    };
    const lines = [
      `fuzz: ${spec.name} failed on run ${k + 1}: ${counterexample.failure.kind} at call ${counterexample.failure.callIndex + 1}: ${counterexample.failure.message}`,
      `shrunk case (${s.calls.length} call${s.calls.length === 1 ? '' : 's'}, ${s.attempts} candidates tried):`,
      ...s.calls.map((call, i) => `  ${i + 1}. ${formatFuzzCall(call)}`),
      `replay: fuzz(spec, ${stringifyJson(typeof method === 'string' ? method : [...method])}, { …, replay: '${seedText}' })`,
    ];
    return { ok: false, seed: base, runs: k + 1, calls: campaign.stats.made, rejected: campaign.stats.rejected, counterexample, message: lines.join('\n') };
  }
  return {
    ok: true,
    seed: base,
    runs,
    calls: campaign.stats.made,
    rejected: campaign.stats.rejected,
    message: `fuzz: ${spec.name} passed ${runs} run(s) (seed ${base}; ${campaign.stats.rejected} deliberate rejections)`,
  };
}
