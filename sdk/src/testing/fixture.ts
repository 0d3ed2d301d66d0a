import type { AmountLike } from '../client/amount.js';
import type { LocalAccount } from '../client/accounts.js';
import type { AppSpecInput, AppDeployment } from '../client/app-manager.js';
import type { InProcessChain, InProcessOptions } from '../client/in-process.js';
import { Tealworks } from '../client/tealworks.js';
import type { AppClient } from '../app/client.js';
import type { TemplateValue } from '../teal/assembler/results.js';
import { SimulateFailedError } from '../app/errors.js';
import { renderSimulateReport, type SimulateReport } from '../app/simulate-report.js';
import { TestingError } from './errors.js';
import { TealworksError } from '../errors.js';
import { ADOPT_DEPLOYMENT, loadSpec, type AppDeployInput } from '../client/app-manager.js';
import type { CompiledContract } from '../app/compile.js';
import type { Block } from '../ledger/block.js';
import type { SignedTransaction } from '../txn/types.js';
import { toHex } from '../encoding/hex.js';
import { ASSUME_NEW_DEPLOYMENT } from '../app/deploy.js';
import { ReportSession } from '../app/report-session.js';
import type { AppKnowledge, ProgramKnowledge } from '../app/simulate-report.js';
import type { CoverageProgram } from '../app/coverage.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Set by `tealworks test --coverage` / `--budget…`: the folder where each test process leaves its
 * session (coverage and budget) for the command to merge.
 */
export const REPORT_DIR_ENV = 'TEALWORKS_REPORT_DIR';
let sessionFiles = 0;

/** An app the fixture deploys once, before the first test: its spec and programs, named once. */
export interface FixtureApp {
  /** ARC-56 / ARC-32 spec (object, JSON text or file path). */
  spec: AppSpecInput;
  /** Approval program (TEAL text or `.teal` path); default: the spec's own source. */
  approval?: string;
  /** Clear-state program; default: the spec's own source. */
  clear?: string;
  /** Values of the programs' `TMPL_` variables, by name with or without the `TMPL_` prefix. */
  template?: Record<string, TemplateValue>;
  /** Deploy-time permissions: `TMPL_UPDATABLE` / `TMPL_DELETABLE` become 1 or 0 (default false, as for any deploy). */
  updatable?: boolean;
  deletable?: boolean;
  /** Keep at least this much in the app account (default 1 unit = 1 000 000 micro-units). */
  fund?: AmountLike;
  /** Which funded account creates it (index into `accounts`, default 0). */
  creator?: number;
  /** Deploy name (default: the spec's name). Deploys are idempotent by creator and name, so two apps of a fixture with the same creator need different names (setup refuses otherwise). */
  name?: string;
}

/** Options of {@link testFixture}: the chain's options plus the apps to deploy and where their files are. */
export interface FixtureOptions<A extends string> extends InProcessOptions {
  apps?: Record<A, FixtureApp>;
  /** Base folder for relative spec and program paths (default: the working directory). */
  baseDir?: string;
}

/** The hooks of a test runner the fixture installs itself in (mocha, node:test and vitest all have them). */
export interface RunnerHooks {
  before?: (fn: () => Promise<void>) => unknown;
  beforeAll?: (fn: () => Promise<void>) => unknown;
  beforeEach: (fn: () => void) => unknown;
  after?: (fn: () => Promise<void>) => unknown;
  afterAll?: (fn: () => Promise<void>) => unknown;
}

/**
 * A chain for a test file: made once (accounts funded, apps deployed), then reset to that point
 * before every test by reverting a snapshot, which costs what the test changed.
 *
 * @example
 * ```ts
 * import { before, beforeEach, after } from 'node:test';   // or mocha's / vitest's hooks
 * const f = testFixture({ apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
 * f.install({ before, beforeEach, after });
 * it('counts', async () => {
 *   await f.apps.counter.call('increment', [5]);
 *   await expectState(f.apps.counter, { global: { count: 5n } });
 * });
 * ```
 */
export class TestFixture<A extends string = string> {
  readonly #options: FixtureOptions<A>;
  #tw: (Tealworks & { readonly testChain: InProcessChain }) | undefined;
  #apps: Record<A, AppClient> | undefined;
  #deployments: Record<A, AppDeployment> | undefined;
  #base: number | undefined;
  #session: { session: ReportSession; detach: () => void } | undefined;
  #settingUp: Promise<void> | undefined;
  #tornDown = false;

  constructor(options: FixtureOptions<A> = {}) {
    this.#options = options;
  }

  /** The client on the chain (after `setup`). */
  get tw(): Tealworks & { readonly testChain: InProcessChain } {
    if (!this.#tw) throw this.#notSetUp();
    return this.#tw;
  }

  #notSetUp(): TestingError {
    return new TestingError(
      this.#tornDown
        ? 'the fixture was torn down (teardown() ran, e.g. in an after/afterAll hook): call setup() again before using it, or keep its use inside the tests'
        : 'the fixture is not set up yet: call setup() in a before/beforeAll hook (or use install())',
    );
  }

  /** The chain: snapshots and cheats. */
  get chain(): InProcessChain {
    return this.tw.testChain;
  }

  /** Funded accounts (the first one creates the apps unless an app says otherwise). */
  get accounts(): readonly LocalAccount[] {
    return this.chain.accounts;
  }

  /** A client per deployed app, by the name given in `apps`. */
  get apps(): Record<A, AppClient> {
    void this.tw; // throws with guidance when not set up
    return this.#apps!;
  }

  /** The deploy result per app (ids, addresses, the create's report). */
  get deployments(): Record<A, AppDeployment> {
    void this.tw; // throws with guidance when not set up
    return this.#deployments!;
  }

  /** Makes the chain, deploys the apps and takes the snapshot every test starts from. */
  async setup(): Promise<void> {
    if (this.#tw) return;
    // Two setup() calls at once make one chain.
    this.#settingUp ??= this.#setup().finally(() => (this.#settingUp = undefined));
    return this.#settingUp;
  }

  async #setup(): Promise<void> {
    this.#tornDown = false;
    const { apps, baseDir } = this.#options;
    const entries = Object.entries(apps ?? {}) as [A, FixtureApp][];
    for (const [name, app] of entries)
      if (app === null || typeof app !== 'object' || app.spec === undefined)
        throw new TestingError(`app ${name}: give it as { spec, approval?, clear?, … } (the spec is required), got ${app === null ? 'null' : typeof app}`);
    const tw = await Tealworks.inProcess({ accounts: 3, ...this.#chainOptions() });
    const made = { tw };
    try {
      made.tw = await this.#deploy(tw, entries, baseDir);
    } catch (e) {
      // A failed setup leaves nothing running.
      this.#session?.detach();
      this.#session = undefined;
      await made.tw.close().catch(() => undefined);
      throw e;
    }
  }

  async #deploy(
    tw: Tealworks & { readonly testChain: InProcessChain },
    entries: [A, FixtureApp][],
    baseDir: string | undefined,
  ): Promise<Tealworks & { readonly testChain: InProcessChain }> {
    if (process.env[REPORT_DIR_ENV]) {
      const session = new ReportSession();
      this.#session = { session, detach: session.attach(tw.testChain.ledger) };
    }
    // A chain of its own ledger or a fork may hold earlier deployments: those are looked up.
    const fresh = this.#options.ledger === undefined && this.#options.fork === undefined;
    // Deploys are idempotent by creator and name: two apps with both the same would be one app.
    const deployed = new Map<string, A>();
    const inputs: [A, AppDeployInput][] = [];
    for (const [name, app] of entries) {
      const index = app.creator ?? 0;
      const creator = tw.testChain.accounts[index];
      if (!creator) throw new TestingError(`app ${name}: creator index ${index} has no funded account (the chain has ${tw.testChain.accounts.length})`);
      let deployName: string;
      try {
        deployName = app.name || loadSpec(app.spec, baseDir ?? process.cwd()).name;
      } catch (e) {
        throw this.#deployError(name, e);
      }
      const other = deployed.get(`${creator.address}/${deployName}`);
      if (other !== undefined)
        throw new TestingError(
          `apps ${other} and ${name} both deploy as ${JSON.stringify(deployName)} from account ${index}, so they would be the same app: give one of them its own \`name\` (or another \`creator\`)`,
        );
      deployed.set(`${creator.address}/${deployName}`, name);
      inputs.push([
        name,
        {
          creator,
          spec: app.spec,
          ...(app.approval !== undefined ? { approval: app.approval } : {}),
          ...(app.clear !== undefined ? { clear: app.clear } : {}),
          ...(app.template ? { template: app.template } : {}),
          ...(app.updatable !== undefined ? { updatable: app.updatable } : {}),
          ...(app.deletable !== undefined ? { deletable: app.deletable } : {}),
          ...(app.name ? { name: app.name } : {}),
          fund: app.fund ?? 1_000_000n,
          ...(baseDir ? { baseDir } : {}),
          // The chain was made from genesis just now, and each creator deploys each name once.
          ...(fresh ? { [ASSUME_NEW_DEPLOYMENT]: true } : {}),
        },
      ]);
    }
    // A fixture of the same description set up before in this process: its deploys' blocks are
    // replayed on this fresh chain of the same genesis, and kept only when they leave the very
    // state they left then (round, state hash, latest block hash). Otherwise (or on a first
    // setup) the apps are deployed, and their blocks recorded.
    // A transaction log that is on writes the deploys' lines: those fixtures deploy.
    const key = fresh && !this.#session && tw.log.level === 'off' ? replayKey(this.#options, inputs) : undefined;
    const record = key !== undefined ? DEPLOY_RECORDS.get(key) : undefined;
    let deployments = record ? replayDeploys(tw, record, inputs) : undefined;
    if (record && !deployments) {
      // The replay may have left blocks behind: the apps are deployed on a chain of their own.
      DEPLOY_RECORDS.delete(key!);
      await tw.close();
      const again = await Tealworks.inProcess({ accounts: 3, ...this.#chainOptions() });
      try {
        return await this.#deploy(again, entries, baseDir);
      } catch (e) {
        await again.close().catch(() => undefined);
        throw e;
      }
    }
    if (!deployments) {
      const blocks: SignedTransaction[][][] = [];
      const stop = key !== undefined ? tw.testChain.ledger.onBlock((ev) => blocks.push(groupsOf(ev.block))) : undefined;
      deployments = {} as Record<A, AppDeployment>;
      try {
        for (const [name, input] of inputs) {
          try {
            deployments[name] = await tw.app.deploy(input);
          } catch (e) {
            if (e instanceof TestingError) throw e;
            throw this.#deployError(name, e);
          }
        }
      } finally {
        stop?.();
      }
      if (key !== undefined) recordDeploys(key, tw, blocks, deployments);
    }
    const clients = {} as Record<A, AppClient>;
    for (const [name] of inputs) {
      const d = deployments[name];
      clients[name] = d.client;
      this.#session?.session.knowApp(d.appId, withPaths(d.client.knowledge(), baseDir ?? process.cwd()));
    }
    this.#apps = clients;
    this.#deployments = deployments;
    this.#tw = tw;
    this.#base = tw.testChain.snapshot();
    return tw;
  }

  /** The chain's own options (without the apps and their folder). */
  #chainOptions(): InProcessOptions {
    return chainOptionsOf(this.#options);
  }

  /** A deploy's failure, told for the app. */
  #deployError(name: string, e: unknown): unknown {
    const explainedError = explained(e, `deploying app ${name} failed`);
    if (explainedError !== e || !(e instanceof TealworksError)) return explainedError;
    return new TestingError(`deploying app ${name} failed: ${e.message}`, { cause: e });
  }

  /** Puts the chain back as `setup` left it (revert to the base snapshot). */
  reset(): void {
    if (this.#base === undefined) throw this.#notSetUp();
    this.chain.revert(this.#base);
  }

  /** Closes the chain's in-process services. */
  async teardown(): Promise<void> {
    // A setup still under way finishes first, so its chain is closed too.
    await this.#settingUp?.catch(() => undefined);
    const tw = this.#tw;
    if (tw) this.#tornDown = true;
    this.#tw = undefined;
    this.#base = undefined;
    const recorded = this.#session;
    this.#session = undefined;
    if (recorded) {
      recorded.detach();
      const dir = process.env[REPORT_DIR_ENV];
      if (dir) writeFileSync(join(dir, `session-${process.pid}-${++sessionFiles}.json`), recorded.session.toJSON());
    }
    await tw?.close();
  }

  /** Installs setup / reset / teardown as the runner's before(All) / beforeEach / after(All) hooks. */
  install(hooks: RunnerHooks): this {
    const before = hooks.beforeAll ?? hooks.before;
    const after = hooks.afterAll ?? hooks.after;
    if (!before) throw new TestingError("install() needs the runner's before (mocha, node:test) or beforeAll (vitest) hook");
    before(() => this.setup());
    hooks.beforeEach(() => this.reset());
    if (after) after(() => this.teardown());
    return this;
  }
}

/**
 * The app's knowledge with its TEAL file names made absolute (coverage names files by them), and
 * with Puya's `X.puya.map` beside a program's `X.teal` as the coverage's high-level map, so lcov
 * also names the `.py` / `.algo.ts` lines.
 */
function withPaths(app: AppKnowledge, baseDir: string): AppKnowledge {
  const fix = (p: ProgramKnowledge | undefined): ProgramKnowledge | undefined => {
    if (!p?.sourceName) return p;
    const abs = isAbsolute(p.sourceName) ? p.sourceName : resolve(baseDir, p.sourceName);
    if (!existsSync(abs)) return p;
    return { ...p, sourceName: abs, ...highLevelBeside(abs) } as ProgramKnowledge;
  };
  const approval = fix(app.approval);
  const clear = fix(app.clear);
  return { ...app, ...(approval ? { approval } : {}), ...(clear ? { clear } : {}) };
}

/** Puya's source map beside a TEAL file (`X.approval.teal` → `X.approval.puya.map`), as coverage reads it; `{}` when there is none or it is not JSON. */
function highLevelBeside(tealPath: string): Pick<CoverageProgram, 'highLevel'> {
  const mapPath = tealPath.replace(/\.teal$/, '') + '.puya.map';
  if (mapPath === tealPath || !existsSync(mapPath)) return {};
  try {
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as NonNullable<CoverageProgram['highLevel']>['map'];
    return Array.isArray(map.sources) && typeof map.mappings === 'string' ? { highLevel: { map, baseDir: dirname(mapPath) } } : {};
  } catch {
    return {};
  }
}

/** A fixture for a test file: see {@link TestFixture}. */
export function testFixture<A extends string = string>(options: FixtureOptions<A> = {}): TestFixture<A> {
  return new TestFixture(options);
}

/**
 * A failure with the simulate report spelled out (failing transaction, TEAL line through macros,
 * the spec's error message, logs), for a test runner to print.
 */
export class SimulateReportError extends TestingError {
  readonly report: SimulateReport;
  constructor(message: string, report: SimulateReport, options?: { cause?: unknown }) {
    super(`${message}\n${renderSimulateReport(report)}`, options);
    this.report = report;
  }
}

/** `e` with its simulate report in the message when it has one; else `e` itself. */
export function explained(e: unknown, context?: string): unknown {
  if (e instanceof SimulateFailedError && e.report && typeof e.report === 'object') {
    return new SimulateReportError(context ? `${context}: ${e.message}` : e.message, e.report as SimulateReport, { cause: e });
  }
  return e;
}

/**
 * Awaits `work` (a promise, or a function that starts it); when it fails in simulation, rethrows
 * with the whole simulate report in the message.
 */
export async function withReport<T>(work: Promise<T> | (() => Promise<T>)): Promise<T> {
  try {
    return await startWork(work, 'withReport');
  } catch (e) {
    throw explained(e);
  }
}

/**
 * The promise of a test helper's `work`: the promise itself, or what the function returns (a
 * function that throws gives a rejected promise). Throws a `TestingError` for anything else.
 */
export function startWork<T>(work: Promise<T> | (() => Promise<T>), helper: string): Promise<T> {
  if (typeof work === 'function') return Promise.resolve().then(() => work());
  if (work === null || typeof work !== 'object' || typeof (work as Partial<Promise<T>>).then !== 'function') {
    throw new TestingError(`${helper} takes the call's promise or a function returning it, got ${work === null ? 'null' : typeof work}`);
  }
  return work;
}

/** A fixture's deploys on a fresh chain: their blocks, the state they left and the deployments. */
interface DeployRecord {
  /** Each block's groups, in order. */
  blocks: SignedTransaction[][][];
  round: bigint;
  stateHash: string;
  blockHash: string;
  /** Each app's deployment without its client, and the programs it deployed. */
  apps: Map<string, { result: Omit<AppDeployment, 'client'>; compiled: CompiledContract }>;
}

/**
 * Deploys of fixtures set up in this process, by description (`replayKey`): test files of one
 * project often declare the same fixture, and the bench and watch modes set one up again and
 * again. Bounded; each record holds its blocks and deploy results, not its chain.
 */
const DEPLOY_RECORDS = new Map<string, DeployRecord>();
const DEPLOY_RECORDS_MAX = 16;

/** The signed groups of a block, in order. */
function groupsOf(block: Block): SignedTransaction[][] {
  const groups: SignedTransaction[][] = [];
  let last: string | undefined;
  for (const t of block.txns) {
    const g = t.stxn.txn.group ? toHex(t.stxn.txn.group) : undefined;
    if (g !== undefined && g === last) groups[groups.length - 1]!.push(t.stxn);
    else groups.push([t.stxn]);
    last = g;
  }
  return groups;
}

/**
 * What makes two fixtures' deploys the same: the chain's options, and each app's deploy input
 * with the text of every file it names (a spec, a program). Undefined when an input is not text
 * (a parsed spec) or cannot be read: those fixtures are deployed each time.
 */
function replayKey(options: FixtureOptions<string>, inputs: readonly [string, AppDeployInput][]): string | undefined {
  const chain = chainOptionsOf(options);
  const base = resolve(options.baseDir ?? process.cwd());
  const file = (v: unknown): unknown => {
    if (typeof v !== 'string') return NOT_TEXT;
    const path = resolve(base, v.trim());
    if (v.includes('\n') || !existsSync(path)) return v;
    try {
      return [v, readFileSync(path, 'utf8')];
    } catch {
      return NOT_TEXT; // a folder, a file that cannot be read: the deploy says what is wrong
    }
  };
  const apps = inputs.map(([name, input]) => {
    const { creator, spec, approval, clear, baseDir: _b, ...rest } = input;
    void _b;
    return [
      name,
      typeof creator === 'string' ? creator : creator.address,
      file(spec),
      approval === undefined ? null : file(approval),
      clear === undefined ? null : file(clear),
      rest,
    ];
  });
  if (apps.some((a) => a.includes(NOT_TEXT))) return undefined;
  try {
    return JSON.stringify([chain, base, apps], (_k, v: unknown) =>
      typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? `0x${toHex(v)}` : typeof v === 'symbol' ? String(v) : v,
    );
  } catch {
    return undefined;
  }
}
const NOT_TEXT = Symbol('not text');

function recordDeploys(
  key: string,
  tw: Tealworks & { readonly testChain: InProcessChain },
  blocks: SignedTransaction[][][],
  deployments: Record<string, AppDeployment>,
): void {
  const apps = new Map<string, { result: Omit<AppDeployment, 'client'>; compiled: CompiledContract }>();
  for (const [name, d] of Object.entries(deployments)) {
    if (!d.client.compiled) return;
    // Copied without its client (the record keeps what the deploy said, not the chain it ran on),
    // the report built now for the same reason.
    const { client: _client, ...result } = d;
    void _client;
    apps.set(name, { result, compiled: d.client.compiled });
  }
  const ledger = tw.testChain.ledger;
  if (DEPLOY_RECORDS.size >= DEPLOY_RECORDS_MAX) DEPLOY_RECORDS.delete(DEPLOY_RECORDS.keys().next().value!);
  DEPLOY_RECORDS.set(key, { blocks, round: ledger.latestRound, stateHash: tw.testChain.stateHash(), blockHash: toHex(ledger.latestBlock.hash), apps });
}

/** The record's blocks replayed on `tw`'s fresh chain, and the deployments; undefined when anything differs. */
function replayDeploys(
  tw: Tealworks & { readonly testChain: InProcessChain },
  record: DeployRecord,
  inputs: readonly [string, AppDeployInput][],
): Record<string, AppDeployment> | undefined {
  const ledger = tw.testChain.ledger;
  try {
    for (const groups of record.blocks) if (ledger.produceBlock(groups).rejected.length) return undefined;
  } catch {
    return undefined;
  }
  if (ledger.latestRound !== record.round || tw.testChain.stateHash() !== record.stateHash || toHex(ledger.latestBlock.hash) !== record.blockHash)
    return undefined;
  const out: Record<string, AppDeployment> = {};
  for (const [name, input] of inputs) {
    const earlier = record.apps.get(name);
    let d: AppDeployment | undefined;
    try {
      d = earlier && tw.app[ADOPT_DEPLOYMENT](input, earlier);
    } catch {
      return undefined; // the deploy tells what went wrong
    }
    if (!d) return undefined;
    out[name] = d;
  }
  return out;
}

/** A fixture's options for its chain: all but the apps and their folder. */
function chainOptionsOf(options: FixtureOptions<string>): InProcessOptions {
  const { apps: _apps, baseDir: _base, ...chain } = options;
  void _apps;
  void _base;
  return chain;
}
