import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunningDevnet } from '../services/devnet/index.js';
import { loadAppSpec, type Arc56AppSpec } from '../abi/arc56.js';
import type { AbiValue } from '../abi/types.js';
import { AppClient, onCompleteFromName, type AppCallOptions } from '../app/client.js';
import { appAddressOf, builderParams, fetchApp, fetchBalance, fetchBox, fetchBoxNames, fetchLocalState } from '../app/chain.js';
import { attachSourceMaps, compileContract, appKnowledge, type CompiledContract } from '../app/compile.js';
import { GroupComposer, LogicSigSigner, type ComposerEntry } from '../app/composer.js';
import { deployApp, type DeployResult } from '../app/deploy.js';
import { DeployPlanError, SimulateFailedError } from '../app/errors.js';
import { failureSummary, pcToSource, renderSimulateReport, type SimulateReport, type AppKnowledge } from '../app/simulate-report.js';
import { decodeBoxes, decodeGlobalState, decodeLocalState, storageKeyFor, type StorageItem } from '../app/state-decode.js';
import type { TemplateValue } from '../teal/assembler/results.js';
import { makePaymentTxn } from '../txn/builders.js';
import { logicSigAddress, makeLogicSig } from '../txn/logicsig.js';
import { assemble } from '../teal/assembler/assembler.js';
import type { PcMapping } from '../teal/types.js';
import { TealworksError } from '../errors.js';
import { isValidAddress } from '../encoding/address.js';
import { utf8 } from '../encoding/bytes.js';
import { toHex } from '../encoding/hex.js';
import { checkAssertion } from './assertions.js';
import { checkpointPath, Checkpoints, stepHash } from './checkpoint.js';
import { connectNetwork, type WorkflowNetwork } from './connect.js';
import { resolveAccounts, type AccountSet } from './accounts.js';
import { ExprPathError, WorkflowFileError, type FilePosition } from './errors.js';
import { interpolate, toExprValue, truthy, type ExprValue } from './expr.js';
import { contractFilePath, loadWorkflow, resolveStepBody, resolveValue, type Workflow } from './file.js';
import type { ContractSpec, WorkflowStep } from './model.js';

/*
 * Runs a workflow file: connects (starting the embedded devnet when asked), resolves accounts,
 * then runs the steps in order. State-changing steps (fund, deploy, call, group, wait) are
 * checkpointed per network: a rerun whose resolved step body is unchanged reuses the recorded
 * outputs instead of sending again; read-only steps (simulate, assert, read) always run.
 * `simulateOnly` simulates what would be sent and writes nothing, on chain or in checkpoints.
 */

/** What happened to a step. */
export type StepStatus = 'done' | 'cached' | 'skipped' | 'failed' | 'simulated';

/** One step of a run: id, kind, status, outputs, time. */
export interface StepSummary {
  index: number;
  id: string;
  kind: WorkflowStep['kind'];
  name?: string;
  status: StepStatus;
  /** One line for people: "created app 1001", "returned 5", "5 >= 3". */
  detail: string;
  durationMs: number;
  error?: { message: string; position: FilePosition; report?: SimulateReport; reportText?: string };
}

/** What the engine reports while it runs: a step started, finished, was skipped or failed. */
export type ProgressEvent =
  | { type: 'start'; workflow: string; network: string; steps: number; checkpoint: string; discarded?: string }
  | { type: 'step-start'; index: number; id: string; kind: string; name?: string }
  | { type: 'step-end'; step: StepSummary }
  | { type: 'end'; summary: RunSummary };

/** How to run a workflow: fresh or from checkpoints, in memory, simulate only, progress listener. */
export interface RunOptions {
  /** Override the file's network (devnet, localnet, testnet, mainnet). */
  network?: 'devnet' | 'localnet' | 'testnet' | 'mainnet';
  fresh?: boolean;
  simulateOnly?: boolean;
  /** Embedded devnet in memory (nothing kept between runs). */
  inMemory?: boolean;
  /** Reuse a running devnet (not stopped at the end). */
  devnet?: RunningDevnet;
  env?: Readonly<Record<string, string | undefined>>;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Called with every simulate response the run receives, and the id of the step that asked
   * (undefined during setup): how the debugger records a step's run.
   */
  onSimulate?: (stepId: string | undefined, response: unknown) => void;
  /** Stop after the step with this id (or name): the debugger runs a workflow up to the step it debugs. */
  stopAfter?: string;
  /**
   * Called with every contract the run compiles (template values filled in), its key under
   * `contracts:` and the absolute paths of its TEAL files: how the debugger maps the programs of
   * a step to source lines when they hold `TMPL_` placeholders.
   */
  onCompile?: (compiled: CompiledContract, contract: string, files: { approval?: string; clear?: string }) => void;
}

/** The outcome of a run: each step's summary and whether all passed. */
export interface RunSummary {
  ok: boolean;
  workflow: string;
  network: string;
  steps: StepSummary[];
  checkpoint: string;
  /** Outputs of every step that ran or was reused, by id. */
  outputs: Record<string, ExprValue>;
  /** Problems that stopped the run before any step (bad file, unreachable network). */
  error?: { message: string; issues?: WorkflowFileError['issues'] };
}

/** A step failed: the step, where in the file, and the report or reason. */
export class StepFailure extends TealworksError {
  constructor(
    message: string,
    readonly report?: SimulateReport,
  ) {
    super(message);
  }
}

const CHECKPOINTED: ReadonlySet<string> = new Set(['fund', 'deploy', 'call', 'group', 'wait']);

// ---------------------------------------------------------------------------------------------
// Values

/** ABI values as expression values (integers as bigint, addresses as text, structs as objects). */
export function abiToExpr(v: AbiValue | undefined): ExprValue {
  if (v === undefined) return null;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string' || v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map((x) => abiToExpr(x));
  if ((v as object).constructor?.name === 'Address') return String(v);
  const out: Record<string, ExprValue> = {};
  for (const [k, x] of Object.entries(v as Record<string, AbiValue>)) out[k] = abiToExpr(x);
  return out;
}

function itemValue(item: StorageItem): ExprValue {
  if (item.decoded !== undefined) return abiToExpr(item.decoded);
  return item.value;
}

function itemKeyName(item: StorageItem): string {
  if (item.match?.kind === 'key') return item.match.name;
  if (item.match?.kind === 'map')
    return `${item.match.name}[${String(abiToExpr(item.mapKey) instanceof Uint8Array ? item.keyView.hex : renderKey(item.mapKey))}]`;
  return item.keyView.utf8 ?? `0x${item.keyView.hex}`;
}

function renderKey(v: AbiValue | undefined): string {
  const e = abiToExpr(v);
  return typeof e === 'string' || typeof e === 'bigint' ? String(e) : JSON.stringify(e, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

function compactReport(r: SimulateReport): ExprValue {
  return {
    'would-succeed': r.wouldSucceed,
    'failed-at': r.failedAt ? r.failedAt.map((n) => BigInt(n)) : null,
    message: r.failureMessage ?? null,
    'error-message': r.failure?.errorMessage ?? null,
    ...(r.failure?.source ? { line: BigInt(r.failure.source.line), file: r.failure.source.file ?? null } : {}),
    'budget-consumed': r.budget.consumed !== undefined ? BigInt(r.budget.consumed) : null,
  };
}

function reportLogs(r: SimulateReport, i: number): ExprValue[] {
  return (r.txns[i]?.logs ?? []).filter((l) => l.kind !== 'return').map((l) => l.bytes);
}

function reportEvents(r: SimulateReport): ExprValue[] {
  const out: ExprValue[] = [];
  const walk = (t: SimulateReport['txns'][number]) => {
    for (const l of t.logs) if (l.event) out.push({ name: l.event.name, args: abiToExpr(l.event.named as never) });
    t.inner.forEach(walk);
  };
  r.txns.forEach(walk);
  return out;
}

// ---------------------------------------------------------------------------------------------

interface RunContext {
  workflow: Workflow;
  baseDir: string;
  network: WorkflowNetwork;
  accounts: AccountSet;
  env: Readonly<Record<string, string | undefined>>;
  simulateOnly: boolean;
  onCompile?: RunOptions['onCompile'];
  contracts: Map<
    string,
    {
      spec?: Arc56AppSpec;
      approval?: string;
      clear?: string;
      logicsig?: string;
      lsig?: { address: string; program: Uint8Array; pcMap: PcMapping[]; lines: string[] };
      def: ContractSpec;
    }
  >;
  /** App id → knowledge, for failure locations (filled by deploys). */
  apps: Map<bigint, { knowledge: AppKnowledge; spec?: Arc56AppSpec; contract: string }>;
  /** Contract key → last app id deployed in this run (or reused from a checkpoint). */
  deployed: Map<string, bigint>;
  steps: Record<string, ExprValue>;
}

type Body = Record<string, ExprValue>;
const asObj = (v: ExprValue | undefined): Body => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Body) : {});
const asStr = (v: ExprValue | undefined, what: string): string => {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  throw new StepFailure(`${what} must be text, got ${v === null || v === undefined ? 'nothing' : typeof v}`);
};
const asBig = (v: ExprValue | undefined, what: string): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string' && /^[0-9][0-9_]*$/.test(v)) return BigInt(v.replace(/_/g, ''));
  throw new StepFailure(`${what} must be an integer, got ${v === null || v === undefined ? 'nothing' : JSON.stringify(typeof v === 'object' ? '…' : v)}`);
};

function address(ctx: RunContext, v: ExprValue | undefined, what: string): string {
  const s = asStr(v, what);
  const acct = ctx.accounts.byName.get(s);
  if (acct) return acct.address;
  if (isValidAddress(s)) return s;
  throw new StepFailure(`${what}: ${JSON.stringify(s)} is neither an account of this workflow nor an address`);
}

function scope(ctx: RunContext): Record<string, ExprValue> {
  const accounts: Record<string, ExprValue> = {};
  for (const [name, a] of ctx.accounts.byName) accounts[name] = { address: a.address };
  const contracts: Record<string, ExprValue> = {};
  for (const [key, c] of ctx.contracts) {
    const id = ctx.deployed.get(key);
    contracts[key] = c.lsig
      ? { name: key, address: c.lsig.address }
      : { name: c.def.appName, 'app-id': id ?? null, 'app-address': id !== undefined ? appAddressOf(id) : null };
  }
  const env: Record<string, ExprValue> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  return { steps: ctx.steps, accounts, contracts, vars: toExprValue(ctx.workflow.vars), env, network: ctx.network.name };
}

async function loadContracts(workflow: Workflow): Promise<RunContext['contracts']> {
  const out: RunContext['contracts'] = new Map();
  for (const [key, def] of Object.entries(workflow.contracts)) {
    const read = async (rel: string | undefined) => (rel === undefined ? undefined : readFile(contractFilePath(workflow.file, rel), 'utf8'));
    const specText = await read(def.spec);
    const entry: { spec?: Arc56AppSpec; approval?: string; clear?: string; logicsig?: string; def: ContractSpec } = { def };
    const l = await read(def.logicsig);
    if (l !== undefined) entry.logicsig = l;
    if (specText !== undefined) entry.spec = loadAppSpec(specText);
    const a = await read(def.approval);
    if (a !== undefined) entry.approval = a;
    const c = await read(def.clear);
    if (c !== undefined) entry.clear = c;
    out.set(key, entry);
  }
  return out;
}

function templateValue(v: ExprValue): TemplateValue {
  // YAML reads 1_000_000 as text; the assembler would quote it as a string.
  if (typeof v === 'string' && /^[0-9][0-9_]*$/.test(v)) return BigInt(v.replace(/_/g, ''));
  if (typeof v === 'bigint' || typeof v === 'string' || v instanceof Uint8Array) return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new StepFailure(`template values must be integers, text or bytes, got ${v === null ? 'nothing' : Array.isArray(v) ? 'a list' : typeof v}`);
}

function compileFor(ctx: RunContext, key: string, stepTemplate: Body, perms: { updatable?: boolean; deletable?: boolean }): CompiledContract {
  const c = ctx.contracts.get(key);
  if (!c) throw new StepFailure(`no contract named ${JSON.stringify(key)}`);
  const template: Record<string, TemplateValue> = {};
  const contractTemplate = asObj(resolveValue(c.def.template, scope(ctx), ['contracts', key, 'template']));
  for (const [k, v] of Object.entries(contractTemplate)) template[k] = templateValue(v);
  for (const [k, v] of Object.entries(stepTemplate)) template[k] = templateValue(v);
  const compiled = compileContract(
    {
      ...(c.approval !== undefined ? { approval: c.approval, approvalName: c.def.approval! } : {}),
      ...(c.clear !== undefined ? { clear: c.clear, clearName: c.def.clear! } : {}),
      ...(c.spec ? { spec: c.spec } : {}),
    },
    { template, ...perms },
  );
  // Compiler maps beside the TEAL or spec (Puya's `.puya.map`) make failures name user-source lines.
  const specPath = c.def.spec !== undefined ? contractFilePath(ctx.workflow.file, c.def.spec) : undefined;
  attachSourceMaps(compiled, {
    approval: c.def.approval !== undefined ? contractFilePath(ctx.workflow.file, c.def.approval) : specPath,
    clear: c.def.clear !== undefined ? contractFilePath(ctx.workflow.file, c.def.clear) : specPath,
  });
  ctx.onCompile?.(compiled, key, {
    ...(c.approval !== undefined ? { approval: resolve(ctx.baseDir, c.def.approval!) } : {}),
    ...(c.clear !== undefined ? { clear: resolve(ctx.baseDir, c.def.clear!) } : {}),
  });
  return compiled;
}

/** The contract behind an app id: named in the step, else the one deployed here with that id. */
function knownApp(ctx: RunContext, appId: bigint, contract: string | undefined): { spec?: Arc56AppSpec; knowledge?: AppKnowledge } {
  const hit = ctx.apps.get(appId);
  if (hit && (contract === undefined || hit.contract === contract)) return { ...(hit.spec ? { spec: hit.spec } : {}), knowledge: hit.knowledge };
  if (contract !== undefined) {
    const c = ctx.contracts.get(contract);
    if (!c) throw new StepFailure(`no contract named ${JSON.stringify(contract)}`);
    return { ...(c.spec ? { spec: c.spec } : {}), knowledge: { name: contract, ...(c.spec ? { spec: c.spec } : {}) } };
  }
  return {};
}

function clientFor(ctx: RunContext, appId: bigint, contract: string | undefined, sender: string): AppClient {
  const k = knownApp(ctx, appId, contract);
  const client = new AppClient({
    chain: ctx.network.chain,
    appId,
    ...(k.spec ? { spec: k.spec } : {}),
    sender,
    resolveSigner: ctx.accounts.signerFor,
    ...(contract ? { name: contract } : {}),
  });
  if (k.knowledge) client.knowledge = () => k.knowledge!;
  return client;
}

function callOptions(ctx: RunContext, b: Body, sender: string): AppCallOptions {
  const boxes = Array.isArray(b.boxes)
    ? b.boxes.map((x) => {
        if (typeof x === 'string' || x instanceof Uint8Array) return { name: typeof x === 'string' ? utf8(x) : x };
        const o = asObj(x);
        const name = o.name instanceof Uint8Array ? o.name : utf8(asStr(o.name, 'box name'));
        return { name, ...(o.app !== undefined && o.app !== null ? { appId: asBig(o.app, 'box app') } : {}) };
      })
    : [];
  const oc = onCompleteFromName(typeof b.onComplete === 'string' ? b.onComplete : undefined);
  return {
    sender,
    ...(oc !== undefined ? { onComplete: oc } : {}),
    ...(boxes.length ? { boxes } : {}),
    ...(Array.isArray(b.accounts) ? { accounts: b.accounts.map((a, i) => address(ctx, a, `accounts[${i}]`)) } : {}),
    ...(Array.isArray(b.apps) ? { apps: b.apps.map((a, i) => asBig(a, `apps[${i}]`)) } : {}),
    ...(Array.isArray(b.assets) ? { assets: b.assets.map((a, i) => asBig(a, `assets[${i}]`)) } : {}),
    ...(b.note !== undefined && b.note !== null ? { note: b.note instanceof Uint8Array ? b.note : asStr(b.note, 'note') } : {}),
    ...(b.extraFee !== undefined ? { extraFee: asBig(b.extraFee, 'extra-fee') } : {}),
    ...(b.populateResources === false ? { populateResources: false } : {}),
  };
}

/** Method arguments: account names become addresses (for `address`/`account` arguments). */
function methodArgs(ctx: RunContext, args: ExprValue | undefined): unknown[] {
  if (!Array.isArray(args)) return [];
  return args.map((a) => (typeof a === 'string' && ctx.accounts.byName.has(a) ? ctx.accounts.byName.get(a)!.address : a));
}

async function buildCallEntries(
  ctx: RunContext,
  b: Body,
  txnArgs: ComposerEntry[] = [],
): Promise<{ entries: ComposerEntry[]; callIndex: number; appId: bigint }> {
  const sender = address(ctx, b.sender, 'sender');
  const appId = asBig(b.app, 'app');
  const client = clientFor(ctx, appId, typeof b.contract === 'string' ? b.contract : undefined, sender);
  const opts = callOptions(ctx, b, sender);
  const method = typeof b.method === 'string' ? b.method : undefined;
  const args = method ? methodArgs(ctx, b.args) : Array.isArray(b.appArgs) ? b.appArgs : [];
  const built = await client.buildCall(method, args as unknown[], { ...opts, txnArgs });
  if (b.fee !== undefined && b.fee !== null) {
    // A fixed fee is taken as given: no inner-fee cover is added on top.
    const call = built.entries[built.callIndex]!;
    call.txn = { ...call.txn, fee: asBig(b.fee, 'fee') };
  }
  // Transaction arguments were placed by the caller already (they are earlier group members).
  const entries = built.entries.slice(txnArgs.length);
  return { entries, callIndex: built.callIndex - txnArgs.length, appId };
}

async function payEntry(ctx: RunContext, from: string, to: string, amount: bigint, note?: ExprValue, fee?: ExprValue): Promise<ComposerEntry> {
  const sp = await builderParams(ctx.network.chain);
  const txn = makePaymentTxn({
    sender: from,
    receiver: to,
    amount,
    suggestedParams: fee !== undefined && fee !== null ? { ...sp, fee: asBig(fee, 'fee'), flatFee: true } : sp,
    ...(note !== undefined && note !== null ? { note: note instanceof Uint8Array ? note : asStr(note, 'note') } : {}),
  });
  return { txn };
}

function composer(ctx: RunContext): GroupComposer {
  const c = new GroupComposer(ctx.network.chain, ctx.accounts.signerFor);
  for (const [id, a] of ctx.apps) c.knowApp(id, a.knowledge);
  return c;
}

interface StepOutcome {
  outputs: Body;
  detail: string;
  simulated?: boolean;
}

/** A logic signature that refused a transaction: the failing line of its TEAL, from our pc map. */
function locateLogicSig(ctx: RunContext, report: SimulateReport): SimulateReport {
  const f = report.failure;
  if (!f || f.program !== 'logicsig' || f.pc === undefined || f.source || !report.failedAt) return report;
  const sender = report.txns[report.failedAt[0]!]?.sender;
  for (const [key, c] of ctx.contracts) {
    if (!c.lsig || c.lsig.address !== sender) continue;
    const m = pcToSource(c.lsig.pcMap, f.pc);
    if (m)
      f.source = {
        file: c.def.logicsig ?? key,
        line: m.use.line + 1,
        column: m.use.utf16Column + 1,
        ...(c.lsig.lines[m.use.line] !== undefined ? { text: c.lsig.lines[m.use.line]!.trim() } : {}),
      };
  }
  return report;
}

async function sendOrSimulate(
  ctx: RunContext,
  c: GroupComposer,
  prep: { populate?: boolean; cover?: boolean } = {},
): Promise<{ report: SimulateReport; sent?: Awaited<ReturnType<GroupComposer['send']>> }> {
  const populateResources = prep.populate !== false;
  const coverInnerFees = prep.cover !== false;
  if (ctx.simulateOnly) {
    await c.prepare({ populateResources, coverInnerFees });
    const report = locateLogicSig(ctx, await c.simulate());
    if (!report.wouldSucceed) throw new StepFailure(failureSummary(report), report);
    return { report };
  }
  try {
    const sent = await c.send({ populateResources, coverInnerFees });
    return { report: sent.report, sent };
  } catch (e) {
    if (e instanceof SimulateFailedError) {
      const report = locateLogicSig(ctx, e.report as SimulateReport);
      throw new StepFailure(failureSummary(report), report);
    }
    throw e;
  }
}

async function groupEntries(
  ctx: RunContext,
  txns: ExprValue[],
): Promise<{ entries: ComposerEntry[]; calls: Array<{ index: number; appId: bigint } | undefined> }> {
  const entries: ComposerEntry[] = [];
  const calls: Array<{ index: number; appId: bigint } | undefined> = [];
  for (const [i, t] of txns.entries()) {
    const o = asObj(t);
    if (o.pay !== undefined) {
      const p = asObj(o.pay);
      entries.push(
        await payEntry(
          ctx,
          address(ctx, p.from, `txns[${i}].pay.from`),
          address(ctx, p.to, `txns[${i}].pay.to`),
          asBig(p.amount, `txns[${i}].pay.amount`),
          p.note,
          p.fee,
        ),
      );
      calls.push(undefined);
    } else {
      const b = asObj(o.call);
      const method = typeof b.method === 'string' ? b.method : undefined;
      const sender = address(ctx, b.sender, 'sender');
      const appId = asBig(b.app, 'app');
      const client = clientFor(ctx, appId, typeof b.contract === 'string' ? b.contract : undefined, sender);
      // A method's transaction arguments are the group members right before the call.
      const needed = method ? client.method(method).method.args.filter((a) => a.kind === 'transaction').length : 0;
      if (needed > entries.length)
        throw new StepFailure(`txns[${i}]: ${method} takes ${needed} transaction argument(s); put them right before the call in the group`);
      const built = await buildCallEntries(ctx, b, entries.slice(entries.length - needed));
      for (const e of built.entries) {
        if (e.txn.type === 'appl') calls.push({ index: entries.length, appId });
        else calls.push(undefined);
        entries.push(e);
      }
    }
  }
  return { entries, calls };
}

async function runStep(ctx: RunContext, step: WorkflowStep, body: Body): Promise<StepOutcome> {
  const chain = ctx.network.chain;
  switch (step.kind) {
    case 'fund': {
      const from = body.from !== undefined ? address(ctx, body.from, 'from') : ctx.network.dispenser?.address;
      if (!from) throw new StepFailure('this network has no dispenser; say `from`');
      const to = address(ctx, body.to, 'to');
      const amount = asBig(body.amount, 'amount');
      const c = composer(ctx).add(await payEntry(ctx, from, to, amount, body.note));
      const { sent } = await sendOrSimulate(ctx, c);
      return {
        outputs: { txid: sent?.txids[0] ?? null, round: sent?.confirmedRound ?? null, amount, receiver: to },
        detail: `sent ${amount} to ${to.slice(0, 8)}…`,
        simulated: !sent,
      };
    }
    case 'deploy': {
      const key = asStr(body.contract, 'contract');
      if (ctx.contracts.get(key)?.lsig)
        throw new StepFailure(`contract ${key} is a logic signature: there is no app to deploy (fund and spend from \${{ contracts.${key}.address }})`);
      const creator = address(ctx, body.creator, 'creator');
      const perms = {
        ...(typeof body.updatable === 'boolean' ? { updatable: body.updatable } : {}),
        ...(typeof body.deletable === 'boolean' ? { deletable: body.deletable } : {}),
      };
      const compiled = compileFor(ctx, key, asObj(body.template), perms);
      const def = ctx.contracts.get(key)!.def;
      const lifecycle = (v: ExprValue | undefined) =>
        v === undefined || v === null ? undefined : { method: asStr(asObj(v).method, 'method'), args: methodArgs(ctx, asObj(v).args) };
      const schema = def.schema
        ? Object.fromEntries(
            Object.entries(def.schema)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => [k, Number(v)]),
          )
        : undefined;
      let result: DeployResult;
      try {
        result = await deployApp({
          chain,
          creator,
          resolveSigner: ctx.accounts.signerFor,
          compiled,
          metadata: {
            name: typeof body.name === 'string' ? body.name : def.appName,
            version: typeof body.version === 'string' ? body.version : body.version !== undefined && body.version !== null ? String(body.version) : '1.0',
            ...perms,
          },
          ...(typeof body.onUpdate === 'string' ? { onUpdate: body.onUpdate as never } : {}),
          ...(typeof body.onSchemaBreak === 'string' ? { onSchemaBreak: body.onSchemaBreak as never } : {}),
          ...(schema ? { schema } : {}),
          ...(def.extraPages !== undefined ? { extraPages: Number(def.extraPages) } : {}),
          ...(lifecycle(body.create) ? { create: lifecycle(body.create)! } : {}),
          ...(lifecycle(body.update) ? { update: lifecycle(body.update)! } : {}),
          ...(lifecycle(body.delete) ? { delete: lifecycle(body.delete)! } : {}),
          ...(body.extraFee !== undefined ? { extraFee: asBig(body.extraFee, 'extra-fee') } : {}),
          simulateOnly: ctx.simulateOnly,
        });
      } catch (e) {
        if (e instanceof SimulateFailedError) throw new StepFailure(e.message, e.report as SimulateReport);
        if (e instanceof DeployPlanError) throw new StepFailure(e.message);
        throw e;
      }
      if (result.report && !result.report.wouldSucceed) throw new StepFailure(failureSummary(result.report), result.report);
      ctx.deployed.set(key, result.appId);
      ctx.apps.set(result.appId, { knowledge: appKnowledge(compiled, key), ...(compiled.spec ? { spec: compiled.spec } : {}), contract: key });
      const what = { create: 'created', update: 'updated', replace: 'replaced', append: 'appended', nothing: 'unchanged', fail: 'failed' }[result.action];
      return {
        outputs: {
          'app-id': result.appId,
          'app-address': result.appAddress,
          action: result.action,
          name: result.name,
          version: result.version,
          txid: result.txid ?? null,
          round: result.confirmedRound ?? null,
          return: abiToExpr(result.returnValue),
          'deleted-app-id': result.deletedAppId ?? null,
          report: result.report ? compactReport(result.report) : null,
        },
        detail: `${what} app ${result.appId}${result.deletedAppId !== undefined ? ` (deleted ${result.deletedAppId})` : ''}${result.plan.warnings.length ? ` — ${result.plan.warnings.join('; ')}` : ''}`,
        simulated: result.simulated === true,
      };
    }
    case 'call': {
      const built = await buildCallEntries(ctx, body);
      const c = composer(ctx);
      built.entries.forEach((e) => c.add(e));
      const { report, sent } = await sendOrSimulate(ctx, c, { populate: body.populateResources !== false, cover: body.fee === undefined });
      const r = report.txns[built.callIndex];
      const ret = sent?.txns[built.callIndex]?.returnValue ?? r?.returnValue;
      return {
        outputs: {
          txid: sent?.txns[built.callIndex]?.txid ?? null,
          round: sent?.confirmedRound ?? null,
          return: abiToExpr(ret),
          logs: reportLogs(report, built.callIndex),
          events: reportEvents(report),
          inner: (r?.inner ?? []).map((t) => ({ type: t.type ?? null, 'app-id': t.appId ?? null })),
          'app-id': built.appId,
          report: compactReport(report),
        },
        detail: ret !== undefined ? `returned ${renderKey(ret)}` : `called app ${built.appId}`,
        simulated: !sent,
      };
    }
    case 'group': {
      const { entries, calls } = await groupEntries(ctx, Array.isArray(body.txns) ? body.txns : []);
      const c = composer(ctx);
      entries.forEach((e) => c.add(e));
      const { report, sent } = await sendOrSimulate(ctx, c);
      return {
        outputs: {
          txids: sent ? sent.txids : [],
          round: sent?.confirmedRound ?? null,
          returns: entries.map((_, i) => (calls[i] ? abiToExpr(sent?.txns[i]?.returnValue ?? report.txns[i]?.returnValue) : null)),
          logs: entries.map((_, i) => reportLogs(report, i)),
          events: reportEvents(report),
          report: compactReport(report),
        },
        detail: `${entries.length} transactions in round ${sent?.confirmedRound ?? '(simulated)'}`,
        simulated: !sent,
      };
    }
    case 'simulate': {
      let entries: ComposerEntry[];
      let callIndex = 0;
      if (body.call !== undefined) {
        const built = await buildCallEntries(ctx, asObj(body.call));
        entries = built.entries;
        callIndex = built.callIndex;
      } else entries = (await groupEntries(ctx, Array.isArray(body.group) ? body.group : [])).entries;
      const c = composer(ctx);
      entries.forEach((e) => c.add(e));
      await c.prepare({ populateResources: true, coverInnerFees: true });
      const report = locateLogicSig(
        ctx,
        await c.simulate({
          ...(body.extraOpcodeBudget !== undefined ? { extraOpcodeBudget: Number(asBig(body.extraOpcodeBudget, 'extra-opcode-budget')) } : {}),
          ...(body.allowUnnamedResources === true ? { allowUnnamedResources: true } : {}),
        }),
      );
      const expect = typeof body.expect === 'string' ? body.expect : 'success';
      const outputs: Body = {
        'would-succeed': report.wouldSucceed,
        'failed-at': report.failedAt ? report.failedAt.map((n) => BigInt(n)) : null,
        message: report.failureMessage ?? null,
        'error-message': report.failure?.errorMessage ?? null,
        return: abiToExpr(report.txns[callIndex]?.returnValue),
        returns: report.txns.map((t) => abiToExpr(t.returnValue)),
        logs: reportLogs(report, callIndex),
        events: reportEvents(report),
        'budget-consumed': report.budget.consumed !== undefined ? BigInt(report.budget.consumed) : null,
        'budget-added': report.budget.added !== undefined ? BigInt(report.budget.added) : null,
        report: compactReport(report),
      };
      if (expect === 'success' && !report.wouldSucceed) throw new StepFailure(`expected success, but ${failureSummary(report)}`, report);
      if (expect === 'failure' && report.wouldSucceed) throw new StepFailure('expected the simulation to fail, but it would succeed', report);
      if (typeof body.message === 'string' && !report.wouldSucceed) {
        const want = body.message.toLowerCase();
        const haystack = [report.failureMessage, report.failure?.errorMessage, report.failure?.source?.text].filter(Boolean).join('\n').toLowerCase();
        if (!haystack.includes(want)) throw new StepFailure(`the failure does not mention ${JSON.stringify(body.message)}: ${failureSummary(report)}`, report);
      }
      return {
        outputs,
        detail: report.wouldSucceed
          ? `would succeed (budget ${report.budget.consumed ?? '?'})`
          : `would fail as expected: ${report.failure?.errorMessage ?? (report.failure?.source ? `${report.failure.source.file ?? 'line'}:${report.failure.source.line} ${report.failure.source.text ?? ''}`.trim() : (report.failureMessage?.split('\n')[0] ?? ''))}`,
      };
    }
    case 'read': {
      const { value, raw } = await readSubject(ctx, body);
      return { outputs: { value, raw }, detail: shortValue(value) };
    }
    case 'assert': {
      let subject: ExprValue;
      if (body.that !== undefined) subject = body.that;
      else subject = (await readSubject(ctx, body)).value;
      const comparisons: Record<string, ExprValue> = {};
      for (const k of ['equals', 'notEquals', 'greaterThan', 'lessThan', 'atLeast', 'atMost', 'contains']) {
        const v = body[k];
        if (v === undefined) continue;
        // YAML reads 10_000 as text; against an integer it means the integer.
        comparisons[k] = typeof subject === 'bigint' && typeof v === 'string' && /^[0-9][0-9_]*$/.test(v) ? BigInt(v.replace(/_/g, '')) : v;
      }
      const outcome = checkAssertion(subject, comparisons, typeof body.message === 'string' ? body.message : undefined);
      if (!outcome.passed) throw new StepFailure(`assertion failed: ${outcome.failure ?? outcome.description}`);
      return { outputs: { passed: true, value: subject }, detail: outcome.description };
    }
    case 'wait': {
      let round = (await chain.node.status()).lastRound;
      if (body.seconds !== undefined) await new Promise((r) => setTimeout(r, Number(asBig(body.seconds, 'seconds')) * 1000));
      const rounds = body.rounds !== undefined ? asBig(body.rounds, 'rounds') : 0n;
      if (rounds > 0n && !ctx.simulateOnly) {
        if (ctx.network.embedded && ctx.network.dispenser) {
          // The embedded devnet makes a block per transaction group, so rounds pass by sending.
          for (let i = 0n; i < rounds; i++) {
            const d = ctx.network.dispenser;
            const c = composer(ctx).add({ ...(await payEntry(ctx, d.address, d.address, 0n, `tealworks wait ${i}`)), signer: d.signer });
            round = (await c.send()).confirmedRound;
          }
        } else {
          const target = round + rounds;
          while (round < target) round = (await chain.node.waitForBlockAfter(round)).lastRound;
        }
      }
      return { outputs: { round }, detail: `at round ${round}` };
    }
  }
}

function shortValue(v: ExprValue): string {
  const s =
    typeof v === 'string' || typeof v === 'bigint'
      ? String(v)
      : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? `0x${toHex(x)}` : x));
  return (s ?? 'null').length > 100 ? `${s.slice(0, 97)}…` : (s ?? 'null');
}

async function readSubject(ctx: RunContext, body: Body): Promise<{ value: ExprValue; raw: ExprValue }> {
  const chain = ctx.network.chain;
  if (body.balance !== undefined) {
    const amount = await fetchBalance(chain, address(ctx, body.balance, 'balance'));
    return { value: amount, raw: amount };
  }
  const which =
    body.global !== undefined ? 'global' : body.local !== undefined ? 'local' : body.box !== undefined ? 'box' : body.boxes !== undefined ? 'boxes' : undefined;
  if (!which) throw new StepFailure('nothing to read: give global, local, box, boxes or balance');
  const o = asObj(body[which]);
  const appId = asBig(o.app, 'app');
  const spec = knownApp(ctx, appId, typeof o.contract === 'string' ? o.contract : undefined).spec;
  const one = (items: StorageItem[], key: string | undefined, storage: 'global' | 'local'): { value: ExprValue; raw: ExprValue } => {
    if (key !== undefined) {
      const k = storageKeyFor(spec, storage, key);
      const item = items.find((i) => i.key.length === k.length && i.key.every((b, j) => b === k[j]));
      if (!item) throw new StepFailure(`app ${appId} has no ${storage} key ${JSON.stringify(key)}`);
      return { value: itemValue(item), raw: item.value };
    }
    const value: Body = {};
    const raw: Body = {};
    for (const item of items) {
      value[itemKeyName(item)] = itemValue(item);
      raw[`0x${item.keyView.hex}`] = item.value;
    }
    return { value, raw };
  };
  if (which === 'global')
    return one(decodeGlobalState((await fetchApp(chain, appId)).globalState, spec), typeof o.key === 'string' ? o.key : undefined, 'global');
  if (which === 'local') {
    const who = address(ctx, o.account, 'account');
    const entries = await fetchLocalState(chain, appId, who);
    if (!entries) throw new StepFailure(`${who} has not opted in to app ${appId}`);
    return one(decodeLocalState(entries, spec), typeof o.key === 'string' ? o.key : undefined, 'local');
  }
  if (which === 'box') {
    const name = o.name instanceof Uint8Array ? o.name : storageKeyFor(spec, 'box', asStr(o.name, 'box name'));
    const value = await fetchBox(chain, appId, name);
    if (value === undefined) throw new StepFailure(`app ${appId} has no box ${JSON.stringify(typeof o.name === 'string' ? o.name : '0x…')}`);
    const item = decodeBoxes([{ name, value }], spec)[0]!;
    return { value: itemValue(item), raw: value };
  }
  const limit = o.limit !== undefined ? Number(asBig(o.limit, 'limit')) : 100;
  const prefix = o.prefix instanceof Uint8Array ? o.prefix : typeof o.prefix === 'string' ? utf8(o.prefix) : undefined;
  const names: Uint8Array[] = [];
  let next: string | undefined;
  do {
    const page = await fetchBoxNames(chain, appId, { limit: Math.min(limit, 1000), ...(next ? { next } : {}) });
    for (const n of page.names) if (!prefix || (n.length >= prefix.length && prefix.every((b, i) => n[i] === b))) names.push(n);
    next = page.next;
  } while (next && names.length < limit);
  const withValues: Array<{ name: Uint8Array; value?: Uint8Array }> = [];
  for (const name of names.slice(0, limit)) {
    const value = o.values === false ? undefined : await fetchBox(chain, appId, name);
    withValues.push(value !== undefined ? { name, value } : { name });
  }
  const items = decodeBoxes(withValues, spec);
  return {
    value: items.map((i) => ({
      name: itemKeyName(i),
      ...(i.match?.kind === 'map' ? { key: abiToExpr(i.mapKey) } : {}),
      value: i.valueView || i.decoded !== undefined ? itemValue(i) : null,
    })),
    raw: withValues.map((b) => ({ name: b.name, value: b.value ?? null })),
  };
}

// ---------------------------------------------------------------------------------------------

function positionOf(workflow: Workflow, step: WorkflowStep, e: unknown): FilePosition {
  if (e instanceof ExprPathError) return workflow.positionInString([...e.path], e.offset);
  return workflow.position(['steps', step.index, step.kind]);
}

/** Runs a workflow file and returns the summary; never throws for failing steps. */
export async function runWorkflow(file: string, options: RunOptions = {}): Promise<RunSummary> {
  const path = resolve(file);
  const env = options.env ?? process.env;
  const progress = options.onProgress ?? (() => {});
  let workflow: Workflow;
  try {
    workflow = loadWorkflow(await readFile(path, 'utf8'), path, { fileExists: existsSync });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      workflow: path,
      network: options.network ?? '?',
      steps: [],
      checkpoint: '',
      outputs: {},
      error: { message, ...(e instanceof WorkflowFileError ? { issues: e.issues } : {}) },
    };
  }
  const networkSpec = options.network ? ({ kind: 'named', name: options.network } as const) : workflow.network;
  const networkKey = options.network ?? workflow.networkKey;
  const baseDir = dirname(path);
  let network: WorkflowNetwork | undefined;
  let accounts: AccountSet | undefined;
  const summary: RunSummary = { ok: true, workflow: path, network: networkKey, steps: [], checkpoint: checkpointPath(path, networkKey), outputs: {} };
  try {
    network = await connectNetwork(networkSpec, {
      baseDir,
      ...(options.inMemory ? { inMemory: true } : {}),
      ...(options.devnet ? { devnet: options.devnet } : {}),
      env,
    });
    let currentStep: string | undefined;
    if (options.onSimulate) network = tapSimulate(network, options.onSimulate, () => currentStep);
    accounts = await resolveAccounts(workflow.accounts, network, { baseDir, networkKey, env, persistKeys: !(options.inMemory && network.embedded) });
    // An in-memory chain is gone after the run, so recording its steps would only mislead the next one.
    const ckpt = await Checkpoints.open(summary.checkpoint, path, networkKey, {
      chain: network.chainId,
      ...(options.fresh ? { fresh: true } : {}),
      ...(options.simulateOnly || (options.inMemory && network.embedded) ? { readOnly: true } : {}),
    });
    const ctx: RunContext = {
      workflow,
      baseDir,
      network,
      accounts,
      env,
      simulateOnly: options.simulateOnly === true,
      ...(options.onCompile ? { onCompile: options.onCompile } : {}),
      contracts: await loadContracts(workflow),
      apps: new Map(),
      deployed: new Map(),
      steps: {},
    };
    progress({
      type: 'start',
      workflow: path,
      network: network.name,
      steps: workflow.steps.length,
      checkpoint: summary.checkpoint,
      ...(ckpt.discarded ? { discarded: ckpt.discarded } : {}),
    });

    // Logic signatures: their addresses join the scope, and they sign for those addresses.
    for (const [key, c] of ctx.contracts) {
      if (c.logicsig === undefined) continue;
      const template: Record<string, TemplateValue> = {};
      for (const [k, v] of Object.entries(asObj(resolveValue(c.def.template, scope(ctx), ['contracts', key, 'template']))))
        template[k.startsWith('TMPL_') ? k : `TMPL_${k}`] = templateValue(v);
      let assembled;
      try {
        assembled = assemble(c.logicsig, { templateVars: template });
      } catch (e) {
        throw new StepFailure(`contract ${key} (${c.def.logicsig}): ${e instanceof Error ? e.message : String(e)}`);
      }
      const address = logicSigAddress(assembled.program).toString();
      c.lsig = { address, program: assembled.program, pcMap: assembled.sourceMap, lines: c.logicsig.split(/\r?\n/) };
      accounts.addSigner(address, new LogicSigSigner(makeLogicSig(assembled.program)));
    }

    // Accounts with `fund`: topped up to that balance on dev networks (idempotent by design).
    for (const [name, spec] of Object.entries(workflow.accounts)) {
      if (spec.fund === undefined || !network.isDev || !network.dispenser || ctx.simulateOnly) continue;
      const want = asBig(resolveValue(spec.fund, scope(ctx)), `accounts.${name}.fund`);
      const who = accounts.byName.get(name)!.address;
      const have = await fetchBalance(network.chain, who);
      if (have >= want) continue;
      const c = composer(ctx).add({ ...(await payEntry(ctx, network.dispenser.address, who, want - have)), signer: network.dispenser.signer });
      await c.send();
    }

    let stopped = false;
    for (const step of workflow.steps) {
      const started = Date.now();
      const base = { index: step.index, id: step.id, kind: step.kind, ...(step.name ? { name: step.name } : {}) };
      if (stopped) break;
      currentStep = step.id;
      if (options.stopAfter !== undefined && (step.id === options.stopAfter || step.name === options.stopAfter)) stopped = true;
      progress({ type: 'step-start', index: step.index, id: step.id, kind: step.kind, ...(step.name ? { name: step.name } : {}) });
      const finish = (s: StepSummary) => {
        summary.steps.push(s);
        progress({ type: 'step-end', step: s });
      };
      let body: Body;
      let hash = '';
      try {
        if (step.if !== undefined && !truthy(interpolate(step.if, scope(ctx)))) {
          ctx.steps[step.id] = { status: 'skipped' };
          finish({ ...base, status: 'skipped', detail: 'condition is false', durationMs: Date.now() - started });
          continue;
        }
        body = asObj(resolveStepBody(step, scope(ctx)));
        hash = stepHash(step.kind, step.kind === 'deploy' ? { body, sources: contractSources(ctx, body.contract) } : body);
        if (CHECKPOINTED.has(step.kind)) {
          const done = ckpt.completed(step.id, hash);
          if (done !== undefined) {
            const outputs = { ...asObj(done), status: 'done' };
            ctx.steps[step.id] = outputs;
            summary.outputs[step.id] = outputs;
            await restoreDeploy(ctx, step, body, outputs);
            finish({ ...base, status: 'cached', detail: 'done in an earlier run (checkpoint)', durationMs: Date.now() - started });
            continue;
          }
        }
        const outcome = await runStep(ctx, step, body);
        const outputs = { ...outcome.outputs, status: 'done' };
        ctx.steps[step.id] = outputs;
        summary.outputs[step.id] = outputs;
        if (CHECKPOINTED.has(step.kind) && !outcome.simulated && !ctx.simulateOnly) await ckpt.recordDone(step.id, hash, outcome.outputs);
        finish({
          ...base,
          status: outcome.simulated || (ctx.simulateOnly && CHECKPOINTED.has(step.kind)) ? 'simulated' : 'done',
          detail: outcome.detail,
          durationMs: Date.now() - started,
        });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const report = e instanceof StepFailure ? e.report : undefined;
        ctx.steps[step.id] = { status: 'failed' };
        if (hash && CHECKPOINTED.has(step.kind) && !ctx.simulateOnly) await ckpt.recordFailure(step.id, hash, message);
        finish({
          ...base,
          status: 'failed',
          detail: message.split('\n')[0]!,
          durationMs: Date.now() - started,
          error: { message, position: positionOf(workflow, step, e), ...(report ? { report, reportText: renderSimulateReport(report) } : {}) },
        });
        if (!step.continueOnError) {
          summary.ok = false;
          stopped = true;
        }
      }
    }
    if (!ctx.simulateOnly) await ckpt.prune(workflow.steps.map((s) => s.id));
  } catch (e) {
    summary.ok = false;
    summary.error = { message: e instanceof Error ? e.message : String(e) };
  } finally {
    await accounts?.close();
    await network?.close();
  }
  progress({ type: 'end', summary });
  return summary;
}

/** The network with its node's simulate observed (responses go to `tap` with the current step). */
function tapSimulate(network: WorkflowNetwork, tap: NonNullable<RunOptions['onSimulate']>, step: () => string | undefined): WorkflowNetwork {
  const node = network.chain.node;
  const observed = new Proxy(node, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'simulate' && typeof v === 'function') {
        return async (...args: unknown[]) => {
          const result = await (v as (...a: unknown[]) => Promise<{ raw: unknown }>).apply(target, args);
          tap(step(), result.raw);
          return result;
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return Object.assign(Object.create(Object.getPrototypeOf(network) as object) as WorkflowNetwork, network, { chain: { ...network.chain, node: observed } });
}

/** What a deploy's outcome depends on besides its YAML: the contract's files, as they are now. */
function contractSources(ctx: RunContext, key: ExprValue | undefined): ExprValue {
  const c = typeof key === 'string' ? ctx.contracts.get(key) : undefined;
  if (!c) return null;
  return [
    c.approval ?? null,
    c.clear ?? null,
    c.spec ? JSON.stringify(c.spec.json) : null,
    toExprValue(c.def.template),
    toExprValue(c.def.schema ?? null),
    toExprValue(c.def.extraPages ?? null),
  ];
}

/** A deploy reused from a checkpoint still tells later steps which contract runs at that id. */
async function restoreDeploy(ctx: RunContext, step: WorkflowStep, body: Body, outputs: Body): Promise<void> {
  if (step.kind !== 'deploy') return;
  const key = asStr(body.contract, 'contract');
  const appId = asBig(outputs['app-id'], 'app-id');
  ctx.deployed.set(key, appId);
  const perms = {
    ...(typeof body.updatable === 'boolean' ? { updatable: body.updatable } : {}),
    ...(typeof body.deletable === 'boolean' ? { deletable: body.deletable } : {}),
  };
  try {
    const compiled = compileFor(ctx, key, asObj(body.template), perms);
    ctx.apps.set(appId, { knowledge: appKnowledge(compiled, key), ...(compiled.spec ? { spec: compiled.spec } : {}), contract: key });
  } catch {
    // Knowledge only improves failure reports; a compile problem shows when the deploy reruns.
  }
}
