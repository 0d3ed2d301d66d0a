import type { Signer } from '../adapters/signer.js';
import type { PendingTransaction, SimulateOptions } from '../adapters/node/types.js';
import type { AbiMethod } from '../abi/method.js';
import type { Arc56Method } from '../abi/arc56.js';
import type { AbiValue } from '../abi/types.js';
import { decodeMethodReturn } from '../abi/method-call.js';
import { Address } from '../encoding/address.js';
import { encodeSignedTransaction, txid as txidOf } from '../txn/encode.js';
import { assignGroupId } from '../txn/group.js';
import { signLogicSigTransaction } from '../txn/logicsig.js';
import { OnComplete, type AppCallFields, type LogicSig, type Transaction } from '../txn/types.js';
import { decodeProgram } from '../teal/disassembler/decode.js';
import { fromBase64 } from '../encoding/base64.js';
import { bytesEqual } from '../encoding/bytes.js';
import { fromHex, toHex } from '../encoding/hex.js';
import { sha512_256 } from '../crypto/hash.js';
import { SHARED_HINT_SCOPE } from './hint-scope.js';
import type { AppChain } from './chain.js';
import { populateResources, type AppCallRefs } from './populate.js';
import { AppError, MinimumBalanceError, RekeyedSignerError, SimulateFailedError } from './errors.js';
import { appAddressOf } from './chain.js';
import { simulateOutline, type SimulateOutline } from './simulate-outline.js';
import { buildSimulateReport, failureSummary, type AppKnowledge, type SimulateReport, type TxnContext, type UnnamedResources } from './simulate-report.js';
import { settleLazy } from '../lazy.js';

/*
 * A group of transactions on its way to the chain: signers resolved per sender, inner-transaction
 * fees covered and missing resource references filled from a probing simulate, then the exact
 * group simulated as a gate (nothing is sent when it would fail), signed, sent and confirmed.
 */

/** One transaction of a group with what signs it (a signer or a logic signature) and, for reports, the method and app. */
export interface ComposerEntry {
  txn: Transaction;
  /** Who signs; else the composer's resolver is asked for the sender (or its auth address). */
  signer?: Signer;
  /** Signs with this logic signature instead (delegated when `delegator` is given). */
  lsig?: LogicSig;
  /** For reports: the ABI method called and what is known about the app. */
  method?: AbiMethod | Arc56Method;
  app?: AppKnowledge;
  label?: string;
}

/** The address a signer signs as, when it says (accounts made by the client do). */
function signerAddress(signer: Signer): string | undefined {
  const a = (signer as { address?: unknown }).address;
  return typeof a === 'string' ? a : undefined;
}

/** Finds the signer for an address (undefined when none is known). */
export type SignerResolver = (address: string) => Signer | undefined;

/**
 * Authorises with a logic signature: the escrow's own address (no `delegator`), or an account that
 * delegated to the program. Simulations run the program too, so a composer entry whose signer is
 * one of these is simulated with the real logic signature.
 */
export class LogicSigSigner implements Signer {
  /** A logic signature is the program itself: see {@link Signer.signsLocally}. */
  readonly signsLocally = true;

  constructor(readonly lsig: LogicSig) {}

  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    return indexes.map((i) => encodeSignedTransaction(signLogicSigTransaction(txns[i]!, this.lsig)));
  }
}

/** Simulate options: empty signatures, unnamed resources, more logging, extra budget, round, trace, and the apps whose TEAL to map failures to. */
export interface SimulateGroupOptions extends SimulateOptions {
  /** Default true: the trace is how a failing pc is found when the node's message lacks it. */
  execTrace?: boolean;
  /** Throw SimulateFailedError (with the report) instead of returning a failing report. */
  throwOnFailure?: boolean;
  /** Apps by id, so failures inside known apps map to source lines. */
  apps?: ReadonlyMap<bigint, AppKnowledge>;
}

/** What `GroupComposer.prepare` fills in: missing references, inner-transaction fees, a fixed extra fee. */
export interface PrepareOptions {
  /** Fill account/app/asset/box references the programs use but the transactions do not name. */
  populateResources?: boolean;
  /** Raise app-call fees to pay for the inner transactions they make. */
  coverInnerFees?: boolean;
  /** A fixed extra fee for the first app call (or first transaction). */
  extraFee?: bigint;
}

/** Options of `GroupComposer.send`: preparation, rounds to wait, extra budget. */
export interface SendOptions extends PrepareOptions {
  /** Rounds to wait for confirmation (default 10). */
  maxRounds?: number;
  /** Skip the simulate gate (not recommended). */
  skipSimulate?: boolean;
  apps?: ReadonlyMap<bigint, AppKnowledge>;
  extraOpcodeBudget?: number;
}

/** One confirmed transaction of a sent group: id, round, logs, created ids, decoded return value. */
export interface SentTxn {
  txid: string;
  confirmedRound: bigint;
  logs: Uint8Array[];
  createdAppId?: bigint;
  createdAssetId?: bigint;
  returnValue?: AbiValue;
  pending: PendingTransaction;
}

/** A sent group: transaction ids, confirmed round, each transaction's outcome, and the gate simulation. */
export interface SendResult {
  /** Ids of every transaction, in group order. */
  txids: string[];
  /** The round the group was confirmed in. */
  confirmedRound: bigint;
  /** Each transaction's outcome, in group order. */
  txns: SentTxn[];
  /** The gate simulation of exactly the group that was sent. */
  report: SimulateReport;
}

/** The report with `extra` added to its group-wide unnamed resources. */
function withGroupResources<R extends { unnamedResources?: UnnamedResources }>(report: R, extra: UnnamedResources): R {
  const u = report.unnamedResources;
  const merged: UnnamedResources = u
    ? {
        accounts: [...u.accounts, ...extra.accounts],
        assets: [...u.assets, ...extra.assets],
        apps: [...u.apps, ...extra.apps],
        boxes: [...u.boxes, ...extra.boxes],
        extraBoxRefs: u.extraBoxRefs,
        assetHoldings: u.assetHoldings,
        appLocals: u.appLocals,
      }
    : extra;
  return { ...report, unnamedResources: merged };
}

/** Resources a failure message names as missing (nodes that do not report them otherwise). */
export function resourcesInMessage(message: string): UnnamedResources | undefined {
  const u: UnnamedResources = { accounts: [], assets: [], apps: [], boxes: [], extraBoxRefs: 0, assetHoldings: [], appLocals: [] };
  const app = /app=(\d+)/.exec(message);
  const box = /box (?:reference )?0x([0-9a-fA-F]*)/i.exec(message) ?? /Box reference 0x([0-9a-fA-F]*)/.exec(message);
  if (box && app) u.boxes.push({ app: BigInt(app[1]!), name: fromHex(box[1]!) });
  const acct = /unavailable Account ([A-Z2-7]{58})/.exec(message);
  if (acct) u.accounts.push(acct[1]!);
  const ap = /unavailable App (\d+)/.exec(message);
  if (ap) u.apps.push(BigInt(ap[1]!));
  const as = /unavailable Asset (\d+)/.exec(message);
  if (as) u.assets.push(BigInt(as[1]!));
  return u.boxes.length || u.accounts.length || u.apps.length || u.assets.length ? u : undefined;
}

/** How far simulate may overpay while measuring inner-transaction fees. */
const PROBE_INNER_FEES = 64n;

function isAppCall(t: Transaction): boolean {
  return t.type === 'appl' && t.appCall !== undefined;
}

/** Per node: apps whose calls the probe changed (references or inner fees) — their sends probe first. */
const PROBED_APPS = new WeakMap<object, Set<bigint>>();

/** Whether a simulate answer shows any inner transaction (whose fees the probe would cover). */
function hasInnerTxns(raw: unknown): boolean {
  for (const g of Array.isArray(objOf(raw)['txn-groups']) ? (objOf(raw)['txn-groups'] as unknown[]) : []) {
    for (const r of Array.isArray(objOf(g)['txn-results']) ? (objOf(g)['txn-results'] as unknown[]) : []) {
      const inner = objOf(objOf(r)['txn-result'])['inner-txns'];
      if (Array.isArray(inner) && inner.length > 0) return true;
    }
  }
  return false;
}

/**
 * The program itself rejected (an `assert`, `err`, or a zero result). A strict run fails on an
 * unnamed resource with an "unavailable …" or box-reference error, never with these, so the
 * program failed before it touched anything a probe would name.
 */
function programRejected(raw: unknown): boolean {
  return /logic eval error: (assert failed|err opcode executed)|rejected by ApprovalProgram/.test(simulateOutline(raw).failureMessage ?? '');
}

/** A simulation's answer, whose report is built when first read (a rejection replaced by another simulation is never reported). */
interface Simulated {
  readonly raw: unknown;
  readonly report: SimulateReport;
}

function lazySimulated(raw: unknown, build: () => SimulateReport): Simulated {
  let report: SimulateReport | undefined;
  return {
    raw,
    get report() {
      return (report ??= build());
    },
  };
}

/**
 * Opcodes whose answers a probe's overpaid app-call fee can change: balances (the fee is paid
 * before the program runs) and, through `txn`/`gtxn`/`gtxns` with the `Fee` field, the fee itself.
 */
const FEE_SENSITIVE_OPS = new Set(['balance', 'min_balance', 'acct_params_get']);
const TXN_FIELD_OPS = new Set(['txn', 'gtxn', 'gtxns']);
const IGNORES_FEES = new WeakMap<Uint8Array, boolean>();

/** Whether no instruction of `program` reads a fee or a balance (undecodable bytes: false). */
function ignoresFees(program: Uint8Array): boolean {
  let known = IGNORES_FEES.get(program);
  if (known !== undefined) return known;
  known = true;
  try {
    for (const ins of decodeProgram(program).instructions) {
      const name = ins.op.name;
      if (FEE_SENSITIVE_OPS.has(name) || (TXN_FIELD_OPS.has(name) && ins.immediates.some((i) => i.encoding === 'uint8' && i.field?.name === 'Fee'))) {
        known = false;
        break;
      }
    }
  } catch {
    known = false;
  }
  IGNORES_FEES.set(program, known);
  return known;
}

/** The references an app call names (what a probe may add to). */
type CallRefs = Pick<AppCallFields, 'accounts' | 'foreignApps' | 'foreignAssets' | 'boxes'>;

/**
 * Per node (or per scope chains share, `SHARED_HINT_SCOPE`): the references a probe added to an
 * app call, by what the call looked like before (`refHintKey`), so the next call of the same shape
 * is simulated once with them (see `send`).
 * `null` marks a shape whose references changed from one call to the next: it is not hinted again.
 */
const REF_HINTS = new WeakMap<object, Map<string, CallRefs | null>>();
const REF_HINTS_MAX = 2048;

/** The hint table of `scope` (a node, or a scope nodes share), made on first use. */
function refHints(scope: object): Map<string, CallRefs | null> {
  let hints = REF_HINTS.get(scope);
  if (!hints) REF_HINTS.set(scope, (hints = new Map()));
  return hints;
}

const PROGRAM_KEYS = new WeakMap<Uint8Array, string>();
const NODE_KEYS = new WeakMap<object, string>();
let nodeSerial = 0;

/** A program's hash, as hex, for hint keys. */
function programKey(program: Uint8Array): string {
  let k = PROGRAM_KEYS.get(program);
  if (k === undefined) PROGRAM_KEYS.set(program, (k = toHex(sha512_256(program))));
  return k;
}

const refCount = (a: CallRefs): number => a.accounts.length + a.foreignApps.length + a.foreignAssets.length + a.boxes.length;

/** App, on-completion, selector (first argument), sender and the references as given. */
function refHintKey(t: Transaction): string | undefined {
  const a = t.appCall;
  if (!a || a.appId === 0n || a.access.length > 0) return undefined;
  const refs = [
    a.accounts.map(String).join(','),
    a.foreignApps.join(','),
    a.foreignAssets.join(','),
    a.boxes.map((b) => `${b.appId}:${toHex(b.name)}`).join(','),
  ];
  return `${a.appId}|${a.onComplete}|${a.args[0] ? toHex(a.args[0]) : ''}|${t.sender.toString()}|${refs.join('|')}`;
}

function sameBytes(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((x, i) => bytesEqual(x, b[i]!));
}

/** Unsigned (empty-signature) or logic-signed bytes, for simulate. */
function simulateBytes(entry: ComposerEntry, txn: Transaction): Uint8Array {
  if (entry.lsig) return encodeSignedTransaction(signLogicSigTransaction(txn, entry.lsig));
  return encodeSignedTransaction({ txn });
}

/** The bytes simulate is sent for a group, and the options it is simulated with. */
function simulateRequest(
  group: ReadonlyArray<Transaction | Uint8Array | ComposerEntry>,
  options: SimulateGroupOptions,
): { entries: Array<Uint8Array | ComposerEntry>; bytes: Uint8Array[]; simOptions: SimulateOptions } {
  const entries = group.map((g) => (g instanceof Uint8Array ? g : 'txn' in g ? (g as ComposerEntry) : ({ txn: g as Transaction } as ComposerEntry)));
  const unsignedPresent = entries.some((e) => !(e instanceof Uint8Array) && !e.lsig);
  const txns = entries.filter((e): e is ComposerEntry => !(e instanceof Uint8Array)).map((e) => e.txn);
  const withGroup =
    txns.length > 1 && txns.every((t) => t.group === undefined) && entries.every((e) => !(e instanceof Uint8Array)) ? assignGroupId(txns) : txns;
  let k = 0;
  const bytes = entries.map((e) => (e instanceof Uint8Array ? e : simulateBytes(e, withGroup[k++]!)));
  const simOptions: SimulateOptions = {
    allowEmptySignatures: options.allowEmptySignatures ?? unsignedPresent,
    execTrace: options.execTrace ?? true,
    ...(options.allowUnnamedResources ? { allowUnnamedResources: true } : {}),
    ...(options.allowMoreLogging ? { allowMoreLogging: true } : {}),
    ...(options.extraOpcodeBudget ? { extraOpcodeBudget: options.extraOpcodeBudget } : {}),
    ...(options.round !== undefined ? { round: options.round } : {}),
  };
  // fix-signers needs empty signatures allowed (the node refuses it otherwise).
  if (options.fixSigners && simOptions.allowEmptySignatures) simOptions.fixSigners = true;
  return { entries, bytes, simOptions };
}

/** An entry's app, method and label, for its transaction's report. */
function txnContext(e: ComposerEntry): TxnContext {
  return { ...(e.app ? { app: e.app } : {}), ...(e.method ? { method: e.method } : {}), ...(e.label ? { label: e.label } : {}) };
}

/** Simulates a group and keeps the node's raw answer next to the report (the send gate reads its inner transactions). */
async function simulateGroupRaw(
  chain: AppChain,
  group: ReadonlyArray<Transaction | Uint8Array | ComposerEntry>,
  options: SimulateGroupOptions,
): Promise<{ report: SimulateReport; raw: unknown; bytes: Uint8Array[] }> {
  const { entries, bytes, simOptions } = simulateRequest(group, options);
  const result = await chain.node.simulate(bytes, simOptions);
  const ctx = entries.map((e) => (e instanceof Uint8Array ? undefined : txnContext(e)));
  const report = buildSimulateReport(result.raw, { txns: ctx, ...(options.apps ? { apps: options.apps } : {}) });
  return { report, raw: result.raw, bytes };
}

/** Simulates any group, signed (bytes) or not (transactions), and builds the report. */
export async function simulateGroup(
  chain: AppChain,
  group: ReadonlyArray<Transaction | Uint8Array | ComposerEntry>,
  options: SimulateGroupOptions = {},
): Promise<SimulateReport> {
  const { report } = await simulateGroupRaw(chain, group, options);
  if (options.throwOnFailure && !report.wouldSucceed) throw new SimulateFailedError(failureSummary(report), report);
  return report;
}

/**
 * The error for a group that would fail: a {@link MinimumBalanceError} when an account would drop
 * below its minimum balance (naming the app it belongs to, among `appIds`, and the shortfall),
 * else a {@link SimulateFailedError}; both carry the report.
 */
export function simulateFailure(report: SimulateReport, appIds: readonly bigint[] = []): SimulateFailedError {
  const summary = failureSummary(report);
  const m = /account ([A-Z2-7]{58}) balance (\d+) below min (\d+)/.exec(report.failureMessage ?? '');
  if (!m) return new SimulateFailedError(summary, report);
  const [, address, balance, min] = m as unknown as [string, string, string, string];
  const shortBy = BigInt(min) - BigInt(balance);
  const appId = [...new Set([...appIds, ...(report.failure?.appId !== undefined ? [report.failure.appId] : [])])].find(
    (id) => id !== 0n && appAddressOf(id) === address,
  );
  const whose = appId !== undefined ? `the account of app ${appId} (${address})` : `account ${address}`;
  const fix =
    appId !== undefined ? 'fund the app account first (deploy with a fund amount, or `tealworks fund ' + address + ' AMOUNT`)' : 'fund it first, or send less';
  return new MinimumBalanceError(
    `${summary}\n${whose} would hold ${balance} micro-units, below its minimum balance of ${min}: it is short by ${shortBy} micro-units; ${fix}`,
    report,
    { address, ...(appId !== undefined ? { appId } : {}), shortBy },
  );
}

/**
 * Whether the report of a send may hold a return value for `entry` that the send did not decode:
 * its method returns one, or it names no method and its first argument may be a spec's selector.
 */
export function reportMayReturn(entry: ComposerEntry): boolean {
  const m = methodOf(entry.method);
  if (m) return m.returns.abiType !== undefined;
  return entry.txn.appCall?.args[0]?.length === 4;
}

/** The ABI method of an ARC-56 method or ABI method. */
export function methodOf(m: AbiMethod | Arc56Method | undefined): AbiMethod | undefined {
  if (!m) return undefined;
  return 'json' in m && 'method' in m ? (m as Arc56Method).method : (m as AbiMethod);
}

type Obj = Record<string, unknown>;
const objOf = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** Fee the inner transactions of one top-level result left to the group (min fee minus what each paid). */
function innerFeeShortfall(result: Obj, minFee: bigint): bigint {
  let short = 0n;
  for (const inner of Array.isArray(result['inner-txns']) ? result['inner-txns'] : []) {
    const o = objOf(inner);
    const txn = objOf(objOf(o.txn).txn);
    const fee = typeof txn.fee === 'bigint' ? txn.fee : typeof txn.fee === 'number' ? BigInt(txn.fee) : 0n;
    if (fee < minFee) short += minFee - fee;
    short += innerFeeShortfall(o, minFee);
  }
  return short;
}

/**
 * Told what a composer does, in order: each simulation (the `gate` before a send, or a `simulate`
 * the caller asked for), the transactions submitted, the group confirmed. What a transaction log
 * hangs on (`tw.log`); an observer that throws does not stop the group.
 */
export interface ComposerObserver {
  /** A simulation finished (`gate`: the one before sending; `simulate`: asked for, nothing sent). */
  simulated?(report: SimulateReport, stage: 'gate' | 'simulate', txns: readonly Transaction[]): void;
  /** The signed group was submitted. */
  submitted?(txids: readonly string[], txns: readonly Transaction[]): void;
  /** The group was confirmed. */
  confirmed?(result: SendResult): void;
  /**
   * True when `simulated` does nothing with a simulation that would succeed (a log that is off, or
   * not at `debug`). A send on a chain in this process is then not told of its passing gate, and
   * builds that report only when its result's `report` is first read.
   */
  readonly ignoresSuccess?: boolean;
}

function tell(observer: ComposerObserver | undefined, f: (o: ComposerObserver) => void): void {
  if (!observer) return;
  try {
    f(observer);
  } catch {
    // A log must never change what happens to the group.
  }
}

/** A transaction group on its way to the chain: resolves signers per sender, fills references and inner-transaction fees from a probing simulate, simulates the exact group as a gate, then signs, sends and waits for confirmation. */
export class GroupComposer {
  readonly entries: ComposerEntry[] = [];
  private apps = new Map<bigint, AppKnowledge>();

  constructor(
    readonly chain: AppChain,
    private readonly resolveSigner: SignerResolver = () => undefined,
    /** Told about simulations, submissions and confirmations (a transaction log). */
    readonly observer?: ComposerObserver,
  ) {}

  add(entry: ComposerEntry | Transaction): this {
    const e: ComposerEntry = 'txn' in entry ? { ...(entry as ComposerEntry) } : { txn: entry as Transaction };
    const signer = e.signer ?? this.resolveSigner(e.txn.sender.toString());
    if (!e.lsig && signer instanceof LogicSigSigner) e.lsig = signer.lsig;
    if (this.entries.length >= 16) throw new AppError('a group holds at most 16 transactions');
    this.entries.push(e);
    return this;
  }

  /** Knowledge of apps the group calls (also inner calls), for failure locations. */
  knowApp(appId: bigint, app: AppKnowledge): this {
    this.apps.set(appId, app);
    return this;
  }

  get transactions(): Transaction[] {
    return this.entries.map((e) => e.txn);
  }

  async simulate(options: SimulateGroupOptions = {}): Promise<SimulateReport> {
    return this.#simulate(options, 'simulate');
  }

  async #simulate(options: SimulateGroupOptions, stage: 'gate' | 'simulate'): Promise<SimulateReport> {
    const report = await simulateGroup(this.chain, this.entries, { apps: this.apps, ...options, throwOnFailure: false });
    tell(this.observer, (o) => o.simulated?.(report, stage, this.transactions));
    if (options.throwOnFailure && !report.wouldSucceed) throw new SimulateFailedError(failureSummary(report), report);
    return report;
  }

  /**
   * Probing simulate (unnamed resources allowed, app calls overpaying), then: references the
   * programs touched are added to the transactions, and app-call fees grow by what their inner
   * transactions left unpaid. Returns the probe's report.
   */
  async prepare(options: PrepareOptions): Promise<SimulateReport | undefined> {
    this.#addExtraFee(options.extraFee);
    return this.#probe(options, true);
  }

  #addExtraFee(extraFee: bigint | undefined): void {
    if (!extraFee) return;
    const target = this.entries.find((e) => isAppCall(e.txn)) ?? this.entries[0];
    if (target) target.txn = { ...target.txn, fee: target.txn.fee + extraFee };
  }

  /**
   * `fullReport`: build the probe's whole report (what `prepare` returns); else only what the
   * probe itself reads (verdict, failure message, unnamed resources), and return undefined.
   */
  async #probe(options: PrepareOptions, fullReport: boolean): Promise<SimulateReport | undefined> {
    if (!options.populateResources && !options.coverInnerFees) return undefined;
    const minFee = (await this.chain.node.suggestedParams()).minFee;
    let report: SimulateReport | undefined;
    let view: SimulateOutline | SimulateReport;
    let overpay = options.coverInnerFees === true;
    // Each round may reveal more: a node that refuses an unnamed box write names the box in its
    // failure message, and the next probe then gets further.
    for (let round = 0; round < 8; round++) {
      const probeEntries = this.entries.map((e) => (overpay && isAppCall(e.txn) ? { ...e, txn: { ...e.txn, fee: e.txn.fee + minFee * PROBE_INNER_FEES } } : e));
      // No execution trace: a probe is read for references, fees and its failure message only.
      const result = await this.chain.node.simulate(this.groupBytes(probeEntries), {
        allowEmptySignatures: true,
        fixSigners: true,
        allowUnnamedResources: options.populateResources === true,
        execTrace: false,
      });
      if (fullReport) {
        view = report = buildSimulateReport(result.raw, {
          apps: this.apps,
          txns: this.entries.map((e) => ({ ...(e.app ? { app: e.app } : {}), ...(e.method ? { method: e.method } : {}) })),
        });
      } else view = simulateOutline(result.raw);
      if (overpay && !view.wouldSucceed && /overspend|below min/i.test(view.failureMessage ?? '')) {
        // A sender too poor for the probe's generous fee: measure with the fees as they are.
        overpay = false;
        continue;
      }
      if (!options.populateResources) {
        this.coverFees(result.raw, minFee);
        return report;
      }
      const before = this.referenceCount();
      const fromMessage = view.failureMessage ? resourcesInMessage(view.failureMessage) : undefined;
      this.applyReferences(fromMessage ? withGroupResources(view, fromMessage) : view);
      if (this.referenceCount() === before || view.wouldSucceed) {
        if (options.coverInnerFees) this.coverFees(result.raw, minFee);
        break;
      }
    }
    return report;
  }

  private referenceCount(): number {
    let n = 0;
    for (const e of this.entries) {
      const a = e.txn.appCall;
      if (a) n += a.accounts.length + a.foreignApps.length + a.foreignAssets.length + a.boxes.length;
    }
    return n;
  }

  private coverFees(raw: unknown, minFee: bigint): void {
    const group = objOf((Array.isArray(objOf(raw)['txn-groups']) ? (objOf(raw)['txn-groups'] as unknown[]) : [])[0]);
    const results = (Array.isArray(group['txn-results']) ? group['txn-results'] : []).map(objOf);
    results.forEach((r, i) => {
      const e = this.entries[i];
      if (!e || !isAppCall(e.txn)) return;
      const short = innerFeeShortfall(objOf(r['txn-result']), minFee);
      if (short > 0n) e.txn = { ...e.txn, fee: e.txn.fee + short };
    });
  }

  private groupBytes(entries: readonly ComposerEntry[]): Uint8Array[] {
    const txns = entries.map((e) => ({ ...e.txn, group: undefined }) as Transaction);
    for (const t of txns) delete (t as { group?: Uint8Array }).group;
    const grouped = txns.length > 1 ? assignGroupId(txns) : txns;
    return entries.map((e, i) => simulateBytes(e, grouped[i]!));
  }

  /** Adds the references a probe reported (placement and limits by populate.ts). */
  private applyReferences(report: SimulateOutline | SimulateReport): void {
    const calls: AppCallRefs[] = [];
    this.entries.forEach((e, index) => {
      const a = e.txn.appCall;
      if (!a) return;
      calls.push({
        index,
        appId: a.appId,
        sender: e.txn.sender.toString(),
        accounts: a.accounts.map(String),
        apps: [...a.foreignApps],
        assets: [...a.foreignAssets],
        boxes: a.boxes.map((b) => ({ app: b.appId === 0n ? a.appId : b.appId, name: b.name })),
      });
    });
    if (calls.length === 0) return;
    const result = populateResources(calls, report);
    if (result.added === 0) return;
    for (const c of result.calls) {
      const e = this.entries[c.index]!;
      const a = e.txn.appCall!;
      e.txn = {
        ...e.txn,
        appCall: {
          ...a,
          accounts: c.accounts.map((x) => Address.fromString(x)),
          foreignApps: c.apps,
          foreignAssets: c.assets,
          boxes: c.boxes.map((b) => ({ appId: b.app === a.appId ? 0n : b.app, name: b.name })),
        },
      };
    }
  }

  /**
   * Signs every transaction (after grouping); order follows the group. `authorizers` maps a
   * transaction's index to the address that must sign it when that is not its sender (a rekeyed
   * account: the gate simulation reports it); that address's signer signs instead.
   */
  async sign(authorizers: ReadonlyMap<number, string> = new Map()): Promise<{ txns: Transaction[]; signed: Uint8Array[] }> {
    const plain = this.entries.map((e) => {
      const t = { ...e.txn };
      delete (t as { group?: Uint8Array }).group;
      return t;
    });
    const txns = plain.length > 1 ? assignGroupId(plain) : plain;
    const signed: Uint8Array[] = new Array(txns.length);
    const bySigner = new Map<Signer, number[]>();
    this.entries.forEach((e, i) => {
      if (e.lsig) {
        signed[i] = encodeSignedTransaction(signLogicSigTransaction(txns[i]!, e.lsig));
        return;
      }
      const sender = txns[i]!.sender.toString();
      const auth = authorizers.get(i);
      if (auth !== undefined && auth !== sender) {
        const authSigner = this.resolveSigner(auth) ?? (e.signer && signerAddress(e.signer) === auth ? e.signer : undefined);
        if (!authSigner) throw new RekeyedSignerError(i, sender, auth);
        bySigner.set(authSigner, [...(bySigner.get(authSigner) ?? []), i]);
        return;
      }
      const signer = e.signer ?? this.resolveSigner(sender);
      if (!signer)
        throw new AppError(
          `no key to sign transaction ${i} from ${sender}: pass the account itself (or a signer) with the transaction, or add its key to the client; on an in-process test chain, impersonate(address) sends as any account without its key`,
        );
      bySigner.set(signer, [...(bySigner.get(signer) ?? []), i]);
    });
    for (const [signer, indexes] of bySigner) {
      const out = await signer.sign(txns, indexes);
      indexes.forEach((idx, k) => (signed[idx] = out[k]!));
    }
    return { txns, signed };
  }

  /**
   * Whether no program the group runs reads a fee or a balance (`ignoresFees`), so a probe's
   * overpaid fee cannot change a rejection: every app call's approval program and every logic
   * signature must be known here; a clear-state call, or an app whose bytes are not known, is not.
   */
  #programsIgnoreFees(): boolean {
    return this.entries.every((e) => {
      const lsig = e.lsig ?? (e.signer instanceof LogicSigSigner ? e.signer.lsig : undefined);
      if (lsig && !ignoresFees(lsig.program)) return false;
      const a = e.txn.appCall;
      if (!a) return true;
      if (a.onComplete === OnComplete.ClearState) return false;
      const bytes = (a.appId === 0n ? e.app : (this.apps.get(a.appId) ?? e.app))?.approval?.bytes ?? (a.appId === 0n ? a.approvalProgram : undefined);
      return bytes !== undefined && ignoresFees(bytes);
    });
  }

  /** Where this chain's reference hints are kept: its node, or the scope it shares (`SHARED_HINT_SCOPE`). */
  #hintScope(): object {
    const shared = (this.chain.node as { [SHARED_HINT_SCOPE]?: object })[SHARED_HINT_SCOPE];
    return shared ?? this.chain.node;
  }

  /**
   * A call's hint key (`refHintKey`). In a shared scope it also names the app's programs by their
   * hashes when they are known here, and otherwise this node (such a call is hinted on this chain only).
   */
  #hintKey(t: Transaction, scope: object): string | undefined {
    const k = refHintKey(t);
    if (k === undefined || scope === this.chain.node) return k;
    const app = this.apps.get(t.appCall!.appId);
    const approval = app?.approval?.bytes;
    const clear = app?.clear?.bytes;
    // Both programs: a clear-state call runs the other one.
    if (approval && clear) return `${programKey(approval)}:${programKey(clear)}|${k}`;
    let node = NODE_KEYS.get(this.chain.node);
    if (node === undefined) NODE_KEYS.set(this.chain.node, (node = `node ${++nodeSerial}`));
    return `${node}|${k}`;
  }

  /** Gives each app call the references its shape needed last time (`REF_HINTS`); whether any was given. */
  #applyHints(keys: readonly (string | undefined)[], hints: Map<string, CallRefs | null> | undefined): boolean {
    if (!hints) return false;
    let any = false;
    this.entries.forEach((e, i) => {
      const k = keys[i];
      const refs = k === undefined ? undefined : hints.get(k);
      if (!refs) return;
      e.txn = {
        ...e.txn,
        appCall: {
          ...e.txn.appCall!,
          accounts: [...refs.accounts],
          foreignApps: [...refs.foreignApps],
          foreignAssets: [...refs.foreignAssets],
          boxes: [...refs.boxes],
        },
      };
      any = true;
    });
    return any;
  }

  /**
   * Prepares, simulates the exact group (throws SimulateFailedError with the report when it would
   * fail), signs, sends and waits for confirmation.
   */
  async send(options: SendOptions = {}): Promise<SendResult> {
    for (const [id, app] of options.apps ?? []) this.apps.set(id, app);
    const gate: SimulateGroupOptions = { fixSigners: true, ...(options.extraOpcodeBudget ? { extraOpcodeBudget: options.extraOpcodeBudget } : {}) };
    this.#addExtraFee(options.extraFee);
    let report: SimulateReport;
    if (!options.populateResources && !options.coverInnerFees) {
      if (this.#canSendOnce(options)) {
        // On a chain in this process, one evaluation simulates and commits. A program's own
        // rejection is what the gate would answer (the programs ran: the signatures passed);
        // anything else is simulated the usual way.
        const once = await this.#sendOnce(options, false);
        if ('txids' in once) return once;
        if (programRejected(once.raw)) {
          tell(this.observer, (o) => o.simulated?.(once.report, 'gate', this.transactions));
          throw this.#failure(once.report);
        }
      }
      report = await this.#simulate(gate, 'gate');
    } else {
      // The exact group is simulated first. When it succeeds and makes no inner transaction, a
      // probe would find no reference to add and no inner fee to cover: that simulation is the
      // gate. The same holds when the program itself rejects (assert, err) before any inner
      // transaction, as long as the probe's overpaid fee cannot change the run (no fee to cover,
      // or no program of the group reads a fee or a balance): a strict run fails on an unnamed
      // resource with its own error, never so.
      // Otherwise the probe fills the group in, and when it changed nothing the first
      // simulation (of these very bytes, on the same state) is still the gate.
      // Apps that needed the probe before are probed first (saves a simulation; same outcome),
      // unless the call is of a shape (app, method, sender, references given) whose probe added
      // references before: the group is then simulated once with them, and sent when that
      // succeeds without inner transactions. When it does not, the group as given goes the usual
      // way (a rejection is then told for the call as given); when the references did not do,
      // the shape is not hinted again.
      const appIds = this.entries.map((e) => e.txn.appCall?.appId ?? 0n).filter((id) => id !== 0n);
      let known = PROBED_APPS.get(this.chain.node);
      const given = this.entries.map((e) => e.txn);
      const scope = this.#hintScope();
      const keys = given.map((t) => this.#hintKey(t, scope));
      const strict = () => simulateGroupRaw(this.chain, this.entries, { apps: this.apps, ...gate, throwOnFailure: false });
      const finalRejection = (f: { raw: unknown }) => !hasInnerTxns(f.raw) && programRejected(f.raw) && (!options.coverInnerFees || this.#programsIgnoreFees());
      const hinted = options.populateResources === true && this.#applyHints(keys, REF_HINTS.get(scope));
      const simulateFirst = hinted || !appIds.some((id) => known?.has(id));
      let first: Awaited<ReturnType<typeof strict>> | undefined;
      if (simulateFirst && this.#canSendOnce(options)) {
        // On a chain in this process, the first simulation also commits the group when it passes
        // without inner transactions (the verdict that makes it the gate below): one evaluation.
        const once = await this.#sendOnce(options, true);
        if ('txids' in once) return once;
        // Not committed. A program's own rejection is what the first simulation would answer
        // (same group, same state; the programs ran, so the signatures passed): it stands in for
        // it. Anything else (a signature only another key can make, a reference to fill in) is
        // simulated the usual way.
        if (finalRejection(once)) {
          const bytes = simulateRequest(this.entries, gate).bytes;
          first = {
            raw: once.raw,
            bytes,
            get report() {
              return once.report;
            },
          };
        }
      }
      if (!first && simulateFirst) first = await strict();
      // The hinted group's rejection, kept: a probe that gives the same references makes it the gate.
      let hintedRejection: typeof first;
      if (hinted && first && !(simulateOutline(first.raw).wouldSucceed && !hasInnerTxns(first.raw))) {
        const rejected = finalRejection(first);
        if (!rejected) {
          const hints = refHints(scope);
          keys.forEach((k) => k !== undefined && hints.has(k) && hints.set(k, null));
        } else hintedRejection = first;
        this.entries.forEach((e, i) => (e.txn = given[i]!));
        first = rejected ? await strict() : undefined;
      }
      if (first && !hasInnerTxns(first.raw) && (simulateOutline(first.raw).wouldSucceed || finalRejection(first))) {
        report = first.report;
      } else {
        await this.#probe(options, false);
        const probed = simulateRequest(this.entries, gate).bytes;
        const unchanged = first !== undefined && sameBytes(probed, first.bytes);
        // The probe named what the hints named: the hinted simulation was of this very group.
        const asHinted = !unchanged && hintedRejection !== undefined && sameBytes(probed, hintedRejection.bytes);
        const gated = unchanged ? first! : asHinted ? hintedRejection! : await strict();
        report = gated.report;
        if (first && !unchanged) {
          if (!known) PROBED_APPS.set(this.chain.node, (known = new Set()));
          for (const id of appIds) known.add(id);
        }
        // Hints come from single app calls only: in a group, the probe may place a reference on
        // another call than the one that needed it.
        const calls = this.entries.filter((e) => e.txn.appCall);
        const i = this.entries.findIndex((e) => e.txn.appCall);
        const k = keys[i];
        const a = this.entries[i]?.txn.appCall;
        if (options.populateResources === true && calls.length === 1 && k !== undefined && a && report.wouldSucceed && !hasInnerTxns(gated.raw)) {
          const hints = refHints(scope);
          if (refCount(a) > refCount(given[i]!.appCall!) && hints.get(k) !== null) {
            if (hints.size >= REF_HINTS_MAX) hints.clear();
            hints.set(k, { accounts: [...a.accounts], foreignApps: [...a.foreignApps], foreignAssets: [...a.foreignAssets], boxes: [...a.boxes] });
          }
        }
      }
      tell(this.observer, (o) => o.simulated?.(report, 'gate', this.transactions));
    }
    if (!report.wouldSucceed && !options.skipSimulate) throw this.#failure(report);
    // A rekeyed sender: the gate simulation (fix-signers) names the address that must sign.
    const authorizers = new Map<number, string>();
    report.txns.forEach((t, i) => {
      if (t.fixedSigner !== undefined) authorizers.set(i, t.fixedSigner);
    });
    const { txns, signed } = await this.sign(authorizers);
    const submitted = await this.chain.node.submit(signed);
    return this.#confirmed(txns, submitted.txid, report, options);
  }

  /** The error a failing gate simulation throws, naming the apps of the group. */
  #failure(report: SimulateReport): SimulateFailedError {
    return simulateFailure(report, [...this.apps.keys(), ...this.entries.map((e) => e.txn.appCall?.appId ?? 0n)]);
  }

  /**
   * Whether this group can be simulated and committed in one evaluation: a chain in this process
   * offers it, no simulate-only option is asked for, and every transaction is signed here without
   * asking anyone (it is signed before its verdict is known, and again if it must go the usual way).
   */
  #canSendOnce(options: SendOptions): boolean {
    if (!this.chain.node.simulateAndSubmit || options.skipSimulate || options.extraOpcodeBudget) return false;
    return this.entries.every((e) => e.lsig !== undefined || (e.signer ?? this.resolveSigner(e.txn.sender.toString()))?.signsLocally === true);
  }

  /**
   * Signs the group as it is, then simulates it and commits it when it passes (without inner
   * transactions, with `requireNoInner`), in one evaluation (`NodeAdapter.simulateAndSubmit`).
   * Returns the sent group, or the simulation when nothing was committed.
   */
  async #sendOnce(options: SendOptions, requireNoInner: boolean): Promise<SendResult | Simulated> {
    const { txns, signed } = await this.sign();
    const out = await this.chain.node.simulateAndSubmit!(signed, { execTrace: true, commitOnlyWithoutInnerTxns: requireNoInner });
    const reportOptions = { txns: this.entries.map(txnContext), apps: new Map(this.apps) };
    if (!out.submitted) return lazySimulated(out.simulate.raw, () => buildSimulateReport(out.simulate.raw, reportOptions));
    const build = () => buildSimulateReport(out.simulate.raw, reportOptions);
    if (!this.observer?.simulated || this.observer.ignoresSuccess === true) return this.#confirmed(txns, out.submitted.txid, build, options, out.confirmed);
    const report = build();
    tell(this.observer, (o) => o.simulated?.(report, 'gate', this.transactions));
    return this.#confirmed(txns, out.submitted.txid, report, options, out.confirmed);
  }

  /**
   * After the submit: waits for the group, reads each transaction's outcome and return value
   * (`confirmed`: the outcomes, when the node gave them with the commit; `report` as a function:
   * built when the result's `report` is first read).
   */
  async #confirmed(
    txns: Transaction[],
    firstTxid: string,
    report: SimulateReport | (() => SimulateReport),
    options: SendOptions,
    confirmed?: readonly PendingTransaction[],
  ): Promise<SendResult> {
    // The node's own ids of the committed transactions, when it gave the outcomes with the commit.
    const ids = txns.map((t, i) => confirmed?.[i]?.txid ?? txidOf(t));
    tell(this.observer, (o) => o.submitted?.([...ids], txns));
    const first = confirmed?.[0] ?? (await this.chain.node.waitForConfirmation(firstTxid, { ...(options.maxRounds ? { maxRounds: options.maxRounds } : {}) }));
    const out: SentTxn[] = [];
    for (let i = 0; i < txns.length; i++) {
      const id = ids[i]!;
      const pending = i === 0 ? first : (confirmed?.[i] ?? (await this.chain.node.pending(id)));
      const logs = (pending.logs ?? []).map((l) => (typeof l === 'string' ? fromBase64(l) : l));
      const sent: SentTxn = { txid: id, confirmedRound: pending.confirmedRound, logs, pending };
      if (pending.applicationIndex) sent.createdAppId = pending.applicationIndex;
      if (pending.assetIndex) sent.createdAssetId = pending.assetIndex;
      const method = methodOf(this.entries[i]!.method);
      if (method?.returns.abiType) {
        try {
          const rv = decodeMethodReturn(method, logs);
          if (rv !== undefined) sent.returnValue = rv;
        } catch {
          // The report (built from the same program run) already explains a malformed return.
        }
      }
      out.push(sent);
    }
    const txids = out.map((t) => t.txid);
    const result: SendResult =
      typeof report === 'function'
        ? {
            txids,
            confirmedRound: first.confirmedRound,
            txns: out,
            get report() {
              return settleLazy(result, 'report', report());
            },
            set report(v) {
              settleLazy(result, 'report', v);
            },
          }
        : { txids, confirmedRound: first.confirmedRound, txns: out, report };
    tell(this.observer, (o) => o.confirmed?.(result));
    return result;
  }
}
