// What a `tealworks` launch configuration names, turned into a recorded run to step through:
//  - `trace`: a recorded simulate response (algod's simulate JSON, an AVM Debugger
//    `*.trace.avm.json`, or one we exported), with `sources` (an AVM Debugger sources description)
//    and/or `programs` (TEAL files, matched to the trace by program hash);
//  - `program`: a TEAL approval program run live on an embedded, in-memory ledger: created, then
//    called with `appArgs` (or the create itself debugged with `debugCreate`).
import { readFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Ed25519KeyPair } from '@tealworks/sdk/crypto';
import { Address } from '@tealworks/sdk/encoding';
import { parseJson, stringifyJson } from '@tealworks/sdk/encoding';
import { simulateResponseToWire } from '@tealworks/sdk/services';
import { utf8 } from '@tealworks/sdk/encoding';
import { fromHex, uint64ToBytes } from '@tealworks/sdk/encoding';
import { Ledger, simulate, type SimulateRequest } from '@tealworks/sdk/ledger';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn } from '@tealworks/sdk/txn';
import { signTransaction } from '@tealworks/sdk/txn';
import { assignGroupId } from '@tealworks/sdk/txn';
import { OnComplete, type Transaction } from '@tealworks/sdk/txn';
import { appAddressOf } from '@tealworks/sdk/app';
import {
  findSourceMap,
  programWithUserMap,
  sourceMapsFor,
  avmDebuggerSources,
  toAvmDebuggerTrace,
  DebugRun,
  DebugTraceError,
  parseSourcesDescription,
  programFromSourceMap,
  programFromTeal,
  programTraceHash,
  type CompiledContract,
  type DebugProgramSource,
} from '@tealworks/sdk/app';

/** The launch configuration's fields (launch.json, or what the panel and CodeLens pass). */
export interface TealLaunchArgs {
  /** A recorded simulate response with an exec trace. */
  trace?: string;
  /** AVM Debugger sources description for `trace`. */
  sources?: string;
  /** TEAL files to match against the trace's programs by hash. */
  programs?: string[];
  /**
   * Template values for `programs` with `TMPL_*` placeholders, by program path (as written in
   * `programs`) and placeholder: decimal text for integers, `0x…` hex for bytes.
   */
  templates?: Record<string, Record<string, string>>;
  /** A workflow file (tealworks.yaml) and the id or name of the step to debug: the workflow runs on a fresh in-memory devnet up to that step. */
  workflow?: string;
  step?: string;
  /** A TEAL approval program to run live on an in-memory ledger. */
  program?: string;
  /** Its clear-state program (default: `#pragma version N; int 1`). */
  clearProgram?: string;
  /** Call arguments: strings are UTF-8 (0x… is hex), numbers are uint64. */
  appArgs?: (string | number)[];
  /** Debug the create call instead of a call to the created app. */
  debugCreate?: boolean;
  /** Global/local schema for the create (defaults: 16 uints, 16 byte slices, 8/8 local). */
  schema?: { globalInts?: number; globalBytes?: number; localInts?: number; localBytes?: number };
  stopOnEntry?: boolean;
  /** Stop where the group fails (default true). */
  breakOnFailure?: boolean;
  /** Base for relative paths (the workspace folder). */
  cwd?: string;
}

export class LaunchError extends Error {}

/** A TEAL program, with the compiler's map into the user's source when one is beside it (Puya's `.puya.map`). */
function tealProgram(text: string, path: string, templateVars?: Record<string, bigint | Uint8Array>): DebugProgramSource {
  return programWithUserMap(programFromTeal(text, path, templateVars), findSourceMap(path)?.map);
}

/**
 * The approval TEAL to run for a `program`: the file itself, or for an Algorand Python /
 * TypeScript source the approval program its compiler wrote (found through the source maps in
 * Puya's `out/`, AlgoKit's `artifacts/` or `.algokit/sources/`).
 */
function approvalTeal(path: string): string {
  if (path.endsWith('.teal')) return path;
  const maps = sourceMapsFor(path).filter((m) => m.program !== 'clear' && m.teal);
  if (maps.length === 0)
    throw new LaunchError(
      `${basename(path)} is not TEAL, and no compiler output maps to it: compile it first (e.g. puyapy --output-source-map) so an out/ folder holds the .teal and .puya.map`,
    );
  if (maps.length > 1)
    throw new LaunchError(
      `${basename(path)} compiles to ${maps.length} approval programs (${maps.map((m) => basename(m.teal!)).join(', ')}): set "program" to the one to run`,
    );
  return maps[0]!.teal!;
}

function readText(path: string, what: string): string {
  if (!existsSync(path)) throw new LaunchError(`${what} ${path} does not exist`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new LaunchError(`cannot read ${what} ${path}: ${(e as Error).message}`);
  }
}

function argBytes(a: string | number): Uint8Array {
  if (typeof a === 'number') {
    if (!Number.isSafeInteger(a) || a < 0) throw new LaunchError(`app argument ${a} is not a uint64`);
    return uint64ToBytes(a);
  }
  if (/^0x([0-9a-fA-F]{2})*$/.test(a)) return fromHex(a.slice(2));
  return utf8(a);
}

/** A program's template values from the launch configuration's text (decimal or 0x hex). */
export function templateValues(given: Record<string, string> | undefined, program: string): Record<string, bigint | Uint8Array> | undefined {
  if (!given) return undefined;
  const out: Record<string, bigint | Uint8Array> = {};
  for (const [name, text] of Object.entries(given)) {
    if (typeof text !== 'string') throw new LaunchError(`templates of ${program}: ${name} must be text (decimal or 0x hex)`);
    if (/^\d+$/.test(text) && BigInt(text) < 1n << 64n) out[name] = BigInt(text);
    else if (/^0x([0-9a-fA-F]{2})*$/.test(text)) out[name] = fromHex(text.slice(2));
    else throw new LaunchError(`templates of ${program}: ${name} is ${JSON.stringify(text.slice(0, 40))}; write a uint64 in decimal or bytes as 0x hex`);
  }
  return out;
}

/** Loads programs named by the configuration and builds the recorded run it describes. */
export async function resolveLaunch(
  args: TealLaunchArgs,
): Promise<{ run: DebugRun; programs: DebugProgramSource[]; description: string; warnings?: string[] }> {
  const base = args.cwd ?? process.cwd();
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const programs: DebugProgramSource[] = [];
  const warnings: string[] = [];
  for (const p of args.programs ?? []) {
    // A workspace may hold programs that do not assemble; they just cannot be matched.
    try {
      programs.push(tealProgram(readText(abs(p), 'program'), abs(p), templateValues(args.templates?.[p], p)));
    } catch (e) {
      warnings.push(`${p}: ${(e as Error).message}`);
    }
  }
  if (args.trace) {
    const tracePath = abs(args.trace);
    if (args.sources) {
      const descPath = abs(args.sources);
      for (const e of parseSourcesDescription(readText(descPath, 'sources description'))) {
        const mapPath = resolve(dirname(descPath), e.sourcemapLocation);
        const mapText = readText(mapPath, 'source map');
        // The TEAL the map names (relative to the map), else the file the map is named after.
        let named: string | undefined;
        try {
          const first = (JSON.parse(mapText) as { sources?: unknown }).sources;
          if (Array.isArray(first) && typeof first[0] === 'string') named = resolve(dirname(mapPath), first[0]);
        } catch {
          named = undefined;
        }
        const tealPath = [named, mapPath.replace(/\.(tok\.)?map$/, '')].find((p): p is string => !!p && p !== mapPath && existsSync(p));
        const teal = tealPath ? { text: readFileSync(tealPath, 'utf8'), file: tealPath } : undefined;
        programs.push(programFromSourceMap(e.hash, mapText, (s) => resolve(dirname(mapPath), s), teal));
      }
    }
    let response: unknown;
    try {
      response = parseJson(readText(tracePath, 'trace'));
    } catch (e) {
      if (e instanceof LaunchError) throw e;
      throw new LaunchError(`${tracePath}: ${(e as Error).message}`);
    }
    return { run: DebugRun.fromSimulateResponse(response, { programs }), programs, description: `recorded run ${tracePath}`, warnings };
  }
  if (args.program) return { ...liveRun(args, abs, programs), warnings };
  if (args.workflow) return { ...(await workflowRun(args, abs(args.workflow), programs, warnings)), warnings };
  throw new LaunchError(
    'the launch configuration names nothing to debug: set "program" (a TEAL file to run), "workflow" and "step" (a tealworks.yaml step) or "trace" (a recorded simulate response)',
  );
}

function liveRun(
  args: TealLaunchArgs,
  abs: (p: string) => string,
  programs: DebugProgramSource[],
): { run: DebugRun; programs: DebugProgramSource[]; description: string } {
  const approvalPath = approvalTeal(abs(args.program!));
  const approval = tealProgram(readText(approvalPath, 'program'), approvalPath);
  const version = /#pragma\s+version\s+(\d+)/.exec(approval.lines?.join('\n') ?? '')?.[1] ?? '10';
  const clear = args.clearProgram
    ? programFromTeal(readText(abs(args.clearProgram), 'clear program'), abs(args.clearProgram))
    : programFromTeal(`#pragma version ${version}\nint 1\n`);
  programs.push(approval, clear);
  const seed = new Uint8Array(32).fill(0x5a);
  const key = Ed25519KeyPair.fromSeed(seed);
  const me = new Address(key.publicKey);
  const ledger = new Ledger({ genesisAccounts: [{ address: key.publicKey, amount: 1_000_000_000_000n }] });
  const sp = () => ({
    fee: 2000n,
    flatFee: true,
    firstValid: ledger.latestRound,
    lastValid: ledger.latestRound + 1000n,
    genesisId: ledger.genesisId,
    genesisHash: ledger.genesisHash,
  });
  const s = args.schema ?? {};
  const appArgs = (args.appArgs ?? []).map(argBytes);
  const create = (withArgs: boolean): Transaction =>
    makeAppCreateTxn({
      sender: me,
      suggestedParams: sp(),
      approvalProgram: approval.bytes!,
      clearProgram: clear.bytes!,
      globalSchema: { numUints: s.globalInts ?? 16, numByteSlices: s.globalBytes ?? 16 },
      localSchema: { numUints: s.localInts ?? 8, numByteSlices: s.localBytes ?? 8 },
      ...(withArgs ? { args: appArgs } : {}),
    });
  let group: Transaction[];
  if (args.debugCreate) group = [create(true)];
  else {
    const res = ledger.submit([signTransaction(create(false), key)]);
    const appId = ledger.transaction(res.txids[0]!)?.ad.createdAppId;
    if (appId === undefined) throw new LaunchError(`${approvalPath}: the create did not produce an app`);
    // Fund the app account so the program can hold boxes and send inner transactions.
    const appAddr = appAddressOf(appId);
    ledger.submit([signTransaction(makePaymentTxn({ sender: me, receiver: appAddr, amount: 10_000_000n, suggestedParams: sp() }), key)]);
    group = [makeAppCallTxn({ sender: me, appId, onComplete: OnComplete.NoOp, args: appArgs, suggestedParams: sp() })];
  }
  const grouped = group.length > 1 ? assignGroupId(group) : group;
  const request: SimulateRequest = {
    'txn-groups': [{ txns: grouped.map((txn) => ({ txn })) }],
    'allow-empty-signatures': true,
    'allow-unnamed-resources': true,
    'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true },
  };
  // The node's JSON, exactly as algod's simulate would answer: what we replay and export.
  const response = parseJson<Record<string, unknown>>(stringifyJson(simulateResponseToWire(simulate(ledger, request), request, 'json'), { sortKeys: true }));
  try {
    return { run: DebugRun.fromSimulateResponse(response, { programs }), programs, description: `${approvalPath} on an in-memory ledger` };
  } catch (e) {
    if (e instanceof DebugTraceError) {
      const msg = (response['txn-groups'] as { 'failure-message'?: string }[])[0]?.['failure-message'];
      throw new LaunchError(msg ? `the group failed before any program ran: ${msg}` : e.message);
    }
    throw e;
  }
}

/**
 * Writes a run in the AVM Debugger's format: `<name>.trace.avm.json` (the simulate response),
 * `sources.avm.json` beside it and one `<program>.teal.tok.map` per program with TEAL source.
 */
export function exportRun(run: DebugRun, tracePath: string): { trace: string; sources: string; maps: string[] } {
  const dir = dirname(tracePath);
  mkdirSync(dir, { recursive: true });
  writeFileSync(tracePath, toAvmDebuggerTrace(run.response) + '\n');
  const seen = new Set<string>();
  const programs = run.frames
    .map((f) => f.source)
    .filter((p): p is DebugProgramSource => !!p?.pcMap && !!p.bytes && !!p.file)
    .filter((p) => !seen.has(p.hash!) && !!seen.add(p.hash!))
    .map((program, i) => ({ program, mapName: `${basename(program.file!)}${i ? `.${i}` : ''}.tok.map`, sourceName: relative(dir, program.file!) }));
  const { description, maps } = avmDebuggerSources(programs);
  const sources = join(dir, 'sources.avm.json');
  writeFileSync(sources, description + '\n');
  for (const [name, text] of maps) writeFileSync(join(dir, name), text + '\n');
  return { trace: tracePath, sources, maps: [...maps.keys()].map((m) => join(dir, m)) };
}

/** TEAL files under a folder (not in node_modules or dot folders), at most `limit`. */
function tealFilesUnder(dir: string, limit = 200): string[] {
  const out: string[] = [];
  const visit = (d: string, depth: number) => {
    if (depth > 6 || out.length >= limit) return;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      if (n.startsWith('.') || n === 'node_modules') continue;
      const p = join(d, n);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue;
      }
      if (isDir) visit(p, depth + 1);
      else if (n.endsWith('.teal') && out.length < limit) out.push(p);
    }
  };
  visit(dir, 0);
  return out;
}

/**
 * Runs a workflow on a fresh in-memory devnet up to the named step (never on the network the file
 * names: debugging sends nothing anywhere real) and records the last simulation that step made.
 */
async function workflowRun(
  args: TealLaunchArgs,
  file: string,
  programs: DebugProgramSource[],
  warnings: string[],
): Promise<{ run: DebugRun; programs: DebugProgramSource[]; description: string }> {
  if (!existsSync(file)) throw new LaunchError(`workflow ${file} does not exist`);
  if (!args.step) throw new LaunchError(`say which step of ${basename(file)} to debug: "step": "<id or name>"`);
  const { runWorkflow } = await import('@tealworks/sdk/workflow');
  const { loadWorkflow } = await import('@tealworks/sdk/workflow');
  try {
    const steps = loadWorkflow(readFileSync(file, 'utf8'), file, { fileExists: existsSync }).steps;
    if (!steps.some((s) => s.id === args.step || s.name === args.step))
      throw new LaunchError(`${basename(file)} has no step "${args.step}"; its steps are ${steps.map((s) => s.id).join(', ')}`);
  } catch (e) {
    if (e instanceof LaunchError) throw e;
    throw new LaunchError(`${basename(file)}: ${(e as Error).message}`);
  }
  let recorded: unknown;
  const summaryName = new Map<string, string>();
  // Programs as the run compiled them (template values filled in): their pc maps give source lines
  // for files whose TMPL_ placeholders keep them from assembling on their own.
  const compiledFiles = new Set<string>();
  const onCompile = (compiled: CompiledContract, _contract: string, files: { approval?: string; clear?: string }) => {
    for (const kind of ['approval', 'clear'] as const) {
      const p = compiled[kind];
      const path = files[kind];
      if (!path || p.fromByteCode || !p.pcMap) continue;
      compiledFiles.add(path);
      let lines = p.sourceLines;
      try {
        lines = readFileSync(path, 'utf8').split(/\r?\n/);
      } catch {
        // The substituted text has the same lines.
      }
      programs.push({ hash: programTraceHash(p.bytes), bytes: p.bytes, pcMap: p.pcMap, file: path, ...(lines ? { lines } : {}) });
    }
  };
  const summary = await runWorkflow(file, {
    network: 'devnet',
    inMemory: true,
    fresh: true,
    onCompile,
    stopAfter: args.step,
    onSimulate: (id, response) => {
      if (id !== undefined && (id === args.step || summaryName.get(id) === args.step)) recorded = response;
    },
    onProgress: (e) => {
      if (e.type === 'step-start' && e.name) summaryName.set(e.id, e.name);
    },
  });
  if (summary.error) throw new LaunchError(`${basename(file)}: ${summary.error.message}`);
  const step = summary.steps.find((s) => s.id === args.step || s.name === args.step);
  if (!step) {
    const failedBefore = summary.steps.find((s) => s.status === 'failed');
    if (failedBefore) throw new LaunchError(`step ${failedBefore.id} failed before "${args.step}" was reached: ${failedBefore.detail}`);
    throw new LaunchError(`${basename(file)} has no step "${args.step}"`);
  }
  if (recorded === undefined)
    throw new LaunchError(`step ${step.id} (${step.kind}) ran no program to debug: only steps that simulate or send transactions can be debugged`);
  for (const p of tealFilesUnder(dirname(file))) {
    if (compiledFiles.has(p)) continue;
    try {
      programs.push(programFromTeal(readFileSync(p, 'utf8'), p));
    } catch (e) {
      warnings.push(`${p}: ${(e as Error).message}`);
    }
  }
  return { run: DebugRun.fromSimulateResponse(recorded, { programs }), programs, description: `step ${step.id} of ${file} (on a fresh in-memory devnet)` };
}
