import type { Signer } from '../adapters/signer.js';
import type { Arc56AppSpec, Arc56Method } from '../abi/arc56.js';
import { encodeMethodCall } from '../abi/method-call.js';
import type { AbiMethod } from '../abi/method.js';
import type { AbiValue } from '../abi/types.js';
import { decodeArc56Value } from '../abi/arc56.js';
import { makeAppCallTxn } from '../txn/builders.js';
import { OnComplete, type Transaction } from '../txn/types.js';
import { prepareMethodArgs, resolveMethod, CallArgsError } from './call-args.js';
import { appAddressOf, builderParams, fetchApp, fetchBox, fetchBoxNames, fetchLocalState, type AppChain } from './chain.js';
import { appKnowledge, type CompiledContract } from './compile.js';
import {
  GroupComposer,
  reportMayReturn,
  type ComposerEntry,
  type ComposerObserver,
  type SendResult,
  type SignerResolver,
  type SimulateGroupOptions,
} from './composer.js';
import { settleLazy } from '../lazy.js';
import { AppError, SimulateFailedError } from './errors.js';
import { failureSummary, type AppKnowledge, type LogEntry, type SimulateReport } from './simulate-report.js';
import { decodeBoxes, decodeGlobalState, decodeLocalState, storageKeyFor, type StorageItem } from './state-decode.js';
import { utf8 } from '../encoding/bytes.js';
import { txid as txidOf } from '../txn/encode.js';
import { assignGroupId } from '../txn/group.js';

/*
 * One app, called by method name with typed arguments. Every send is simulated first (the gate in
 * GroupComposer.send); `simulate*` methods run the same group without sending. Returns, logs and
 * ARC-28 events come back decoded when the method or the app spec says how.
 */

/** Options of one app call: sender and signer, on-completion, references, boxes, note, fees, transaction arguments, extra transactions. */
export interface AppCallOptions {
  /** An address, or an account (anything with an `address`; an account's own `signer` signs unless `signer` is given). */
  sender?: string | { readonly address: string };
  signer?: Signer;
  onComplete?: OnComplete;
  accounts?: readonly string[];
  apps?: readonly bigint[];
  assets?: readonly bigint[];
  /** Box references; `appId` 0 or absent means this app. Names given as text are UTF-8. */
  boxes?: ReadonlyArray<{ appId?: bigint; name: Uint8Array | string }>;
  note?: Uint8Array | string;
  /** Fixed fee on top of the minimum. */
  extraFee?: bigint;
  /** Default true: references the program needs are filled in from a probing simulate. */
  populateResources?: boolean;
  /** Default true: the call pays for its inner transactions. */
  coverInnerFees?: boolean;
  /** Transactions for the method's transaction arguments, in order (placed before the call). */
  txnArgs?: ReadonlyArray<ComposerEntry | Transaction>;
  /** More transactions for the group, placed before (after the transaction arguments) / after the call. */
  before?: ReadonlyArray<ComposerEntry | Transaction>;
  after?: ReadonlyArray<ComposerEntry | Transaction>;
  extraOpcodeBudget?: number;
  /** Create-only. */
  create?: { compiled: CompiledContract; schema?: CompiledContract['schema']; extraPages?: number };
  /** Update-only: the new programs. */
  update?: { compiled: CompiledContract };
  /**
   * `call` of a method the spec marks read-only (`readonly: true`, a NoOp call) simulates it and
   * returns its result without sending: no fee, no block, no signature. `true` sends it anyway.
   */
  sendReadonly?: boolean;
}

/** A sent app call. `T` is the return value's type (`AbiValue` unless the caller or a typed client says). */
export interface AppCallResult<T = AbiValue> {
  appId: bigint;
  txid: string;
  /** Ids of every transaction of the group. */
  txids: string[];
  /** The round the transaction was confirmed in; 0n for a read-only call that was only simulated. */
  confirmedRound: bigint;
  returnValue?: T;
  logs: LogEntry[];
  events: Array<{ name: string; args: AbiValue[]; named: Record<string, AbiValue> }>;
  report: SimulateReport;
  /** The app created, for creates. */
  createdAppId?: bigint;
  /** True when a read-only method was simulated instead of sent (see `AppCallOptions.sendReadonly`). */
  simulated?: boolean;
  /** What was sent; absent when the call was only simulated. */
  sent?: SendResult;
}

/** What an `AppClient` needs: the chain, the app id, optionally the spec, compiled programs (for TEAL lines in failures), default sender and signers. */
export interface AppClientOptions {
  chain: AppChain;
  appId: bigint;
  spec?: Arc56AppSpec;
  /** Programs as compiled here (gives failures their TEAL lines). */
  compiled?: CompiledContract;
  name?: string;
  /** Default sender: an address, or an account (its own `signer` signs unless `signer` is given). */
  sender?: string | { readonly address: string };
  signer?: Signer;
  resolveSigner?: SignerResolver;
  /** Told about every simulation, submission and confirmation of this client's calls (a transaction log). */
  observer?: ComposerObserver;
}

const ON_COMPLETE_BY_NAME: Record<string, OnComplete> = {
  noop: OnComplete.NoOp,
  optin: OnComplete.OptIn,
  closeout: OnComplete.CloseOut,
  clear: OnComplete.ClearState,
  update: OnComplete.UpdateApplication,
  delete: OnComplete.DeleteApplication,
  clearstate: OnComplete.ClearState,
  updateapplication: OnComplete.UpdateApplication,
  deleteapplication: OnComplete.DeleteApplication,
};

/** An on-completion action from its name (`noop`, `optin`, `closeout`, `clear`, `update`, `delete`, case-insensitive). */
export function onCompleteFromName(name: string | undefined): OnComplete | undefined {
  if (name === undefined) return undefined;
  const oc = ON_COMPLETE_BY_NAME[name.toLowerCase().replace(/[-_ ]/g, '')];
  if (oc === undefined) throw new AppError(`unknown on-complete ${JSON.stringify(name)} (use noop, optin, closeout, clear, update or delete)`);
  return oc;
}

/** The address of a call's sender, given as an address or as an account. */
function senderAddress(sender: string | { readonly address: string }): string {
  if (typeof sender === 'string') return sender;
  if (sender !== null && typeof sender === 'object' && typeof sender.address === 'string') return sender.address;
  throw new AppError(`the sender must be an address or an account with an address, got ${sender === null ? 'null' : typeof sender}`);
}

/** The signer of a sender given as an account that carries one (`signer`, as every SDK account does). */
function accountSigner(sender: string | { readonly address: string } | undefined): Signer | undefined {
  if (sender === undefined || typeof sender !== 'object') return undefined;
  const signer = (sender as { readonly signer?: Partial<Signer> }).signer;
  return signer && typeof signer.sign === 'function' ? (signer as Signer) : undefined;
}

/** A client for one app: calls by method name (typed arguments, decoded returns and events), create/update/delete/opt-in, simulate without sending, and state, local state and boxes decoded by the spec. Every send is simulated first. */
export class AppClient {
  readonly chain: AppChain;
  appId: bigint;
  readonly spec: Arc56AppSpec | undefined;
  compiled: CompiledContract | undefined;
  readonly name: string | undefined;
  private readonly defaults: { sender?: string; signer?: Signer; resolveSigner?: SignerResolver; observer?: ComposerObserver };

  constructor(options: AppClientOptions) {
    this.chain = options.chain;
    this.appId = options.appId;
    this.spec = options.spec ?? options.compiled?.spec;
    this.compiled = options.compiled;
    this.name = options.name;
    const signer = options.signer ?? accountSigner(options.sender);
    this.defaults = {
      ...(options.sender ? { sender: senderAddress(options.sender) } : {}),
      ...(signer ? { signer } : {}),
      ...(options.resolveSigner ? { resolveSigner: options.resolveSigner } : {}),
      ...(options.observer ? { observer: options.observer } : {}),
    };
  }

  /** The app's account address. */
  get appAddress(): string {
    return appAddressOf(this.appId);
  }

  /** What `knowledge` last gave, and the compiled programs it was made from. */
  #knowledge: { compiled: CompiledContract | undefined; spec: unknown; approval: unknown; clear: unknown; value: AppKnowledge } | undefined;

  /**
   * The app as a composer or report knows it (name, spec, compiled programs with their source
   * maps): the same object until the programs change (an update), so read it, do not change it.
   */
  knowledge(): AppKnowledge {
    // Made once per compiled programs (every call names the app to its composer), and again
    // when they or their spec are replaced; name and the client's spec do not change.
    const c = this.compiled;
    const k = this.#knowledge;
    if (k !== undefined && k.compiled === c && k.spec === c?.spec && k.approval === c?.approval && k.clear === c?.clear) return k.value;
    const value: AppKnowledge = c ? appKnowledge(c, this.name) : { ...(this.name ? { name: this.name } : {}), ...(this.spec ? { spec: this.spec } : {}) };
    this.#knowledge = { compiled: c, spec: c?.spec, approval: c?.approval, clear: c?.clear, value };
    return value;
  }

  /** `name` or `name(args)ret`; a spec lets the short name and struct/default handling work. */
  method(text: string): { method: AbiMethod; arc56?: Arc56Method } {
    return resolveMethod(text, this.spec);
  }

  private composer(): GroupComposer {
    const c = new GroupComposer(this.chain, this.defaults.resolveSigner, this.defaults.observer);
    if (this.appId !== 0n) c.knowApp(this.appId, this.knowledge());
    return c;
  }

  /** Fills ARC-56 defaults that come from state (global, local, box). */
  private async chainDefaults(
    pending: ReturnType<typeof prepareMethodArgs>['pendingDefaults'],
    sender: string,
    arc56: Arc56Method | undefined,
    values: Array<AbiValue | undefined>,
  ): Promise<void> {
    for (const d of pending) {
      const spec = this.spec;
      if (!spec || !arc56) throw new CallArgsError(`argument ${d.index} needs its default from ${d.source}, but there is no app spec`, d.index);
      if (d.source === 'method')
        throw new CallArgsError(`argument ${d.index}: defaults read by calling another method are not supported; pass the value`, d.index);
      const storage = d.source === 'global' ? 'global' : d.source === 'local' ? 'local' : 'box';
      const key = storageKeyFor(spec, storage, d.data);
      let raw: Uint8Array | bigint | undefined;
      if (storage === 'global') raw = (await fetchApp(this.chain, this.appId)).globalState.find((e) => bytesEq(e.key, key))?.value;
      else if (storage === 'local') raw = (await fetchLocalState(this.chain, this.appId, sender))?.find((e) => bytesEq(e.key, key))?.value;
      else raw = await fetchBox(this.chain, this.appId, key);
      if (raw === undefined) throw new CallArgsError(`argument ${d.index}: its default ${d.source} key ${JSON.stringify(d.data)} is not set`, d.index);
      const arg = arc56.method.args[d.index]!;
      const type = arc56.argStructs[d.index] ?? (arg.kind === 'value' ? arg.abiType : undefined);
      if (!type || typeof raw === 'bigint') values[d.index] = raw;
      else values[d.index] = decodeArc56Value({ kind: 'abi', abi: type, text: type.toString() }, raw);
    }
  }

  /** Entries for one app call (transaction arguments and extras included), not yet sent. */
  async buildCall(
    methodText: string | undefined,
    args: readonly unknown[] = [],
    options: AppCallOptions = {},
  ): Promise<{ entries: ComposerEntry[]; callIndex: number; method?: AbiMethod; arc56?: Arc56Method }> {
    const sender = options.sender !== undefined ? senderAddress(options.sender) : this.defaults.sender;
    if (!sender) throw new AppError('the call needs a sender');
    const signer = options.signer ?? accountSigner(options.sender) ?? this.defaults.signer;
    const sp = await builderParams(this.chain);
    const isCreate = options.create !== undefined;
    const appId = isCreate ? 0n : this.appId;
    if (!isCreate && appId === 0n) throw new AppError('this client has no app id yet; create the app first');
    let appArgs: Uint8Array[] = [];
    let accounts = [...(options.accounts ?? [])];
    let foreignApps = [...(options.apps ?? [])];
    let foreignAssets = [...(options.assets ?? [])];
    let method: AbiMethod | undefined;
    let arc56: Arc56Method | undefined;
    const txnArgs = (options.txnArgs ?? []).map(toEntry);
    if (methodText !== undefined) {
      ({ method, arc56 } = this.method(methodText));
      const prepared = prepareMethodArgs(method, args, arc56);
      if (prepared.transactionArgs.length !== txnArgs.length) {
        throw new CallArgsError(`${method.signature} takes ${prepared.transactionArgs.length} transaction argument(s); ${txnArgs.length} given`);
      }
      await this.chainDefaults(prepared.pendingDefaults, sender, arc56, prepared.values);
      const enc = encodeMethodCall(method, prepared.values, { sender, appId, accounts, foreignApps, foreignAssets });
      appArgs = enc.appArgs;
      accounts = enc.accounts;
      foreignApps = enc.foreignApps;
      foreignAssets = enc.foreignAssets;
    } else if (args.length) {
      appArgs = args.map((a) =>
        a instanceof Uint8Array
          ? a
          : typeof a === 'string'
            ? utf8(a)
            : typeof a === 'bigint' || typeof a === 'number'
              ? u64Bytes(BigInt(a))
              : (() => {
                  throw new CallArgsError(`raw app arguments must be bytes, text or integers, got ${typeof a}`);
                })(),
      );
    }
    const boxes = (options.boxes ?? []).map((b) => ({ appId: b.appId ?? 0n, name: typeof b.name === 'string' ? utf8(b.name) : b.name }));
    for (const b of boxes) if (b.appId !== 0n && b.appId !== appId && !foreignApps.includes(b.appId)) foreignApps.push(b.appId);
    const compiled = options.create?.compiled ?? options.update?.compiled;
    const schema = options.create ? (options.create.schema ?? options.create.compiled.schema) : undefined;
    const onComplete = options.onComplete ?? (options.update ? OnComplete.UpdateApplication : arc56 ? defaultOnComplete(arc56, isCreate) : OnComplete.NoOp);
    const txn = makeAppCallTxn({
      sender,
      suggestedParams: sp,
      appId,
      onComplete,
      args: appArgs,
      accounts,
      foreignApps,
      foreignAssets,
      boxes,
      ...(options.note !== undefined ? { note: options.note } : {}),
      ...(compiled && (isCreate || options.update) ? { approvalProgram: compiled.approval.bytes, clearProgram: compiled.clear.bytes } : {}),
      ...(schema
        ? {
            globalSchema: { numUints: schema.globalInts, numByteSlices: schema.globalBytes },
            localSchema: { numUints: schema.localInts, numByteSlices: schema.localBytes },
          }
        : {}),
      ...(isCreate ? { extraPages: options.create!.extraPages ?? options.create!.compiled.extraPages } : {}),
    });
    const knowledge = isCreate ? appKnowledge(options.create!.compiled, this.name) : this.knowledge();
    const call: ComposerEntry = {
      txn,
      app: knowledge,
      ...((arc56 ?? method) ? { method: (arc56 ?? method)! } : {}),
      ...(signer ? { signer } : {}),
    };
    const before = [...txnArgs, ...(options.before ?? []).map(toEntry)];
    const after = (options.after ?? []).map(toEntry);
    return { entries: [...before, call, ...after], callIndex: before.length, ...(method ? { method } : {}), ...(arc56 ? { arc56 } : {}) };
  }

  /** Simulates the call without sending (never throws for a failing group unless `throwOnFailure`). */
  async simulate(
    methodText: string | undefined,
    args: readonly unknown[] = [],
    options: AppCallOptions & Omit<SimulateGroupOptions, 'apps'> = {},
  ): Promise<SimulateReport> {
    const { entries } = await this.buildCall(methodText, args, options);
    const c = this.composer();
    for (const e of entries) c.add(e);
    await c.prepare({
      populateResources: options.populateResources ?? true,
      coverInnerFees: options.coverInnerFees ?? true,
      ...(options.extraFee ? { extraFee: options.extraFee } : {}),
    });
    const sim: SimulateGroupOptions = {};
    for (const k of [
      'allowEmptySignatures',
      'allowUnnamedResources',
      'allowMoreLogging',
      'extraOpcodeBudget',
      'round',
      'execTrace',
      'fixSigners',
      'throwOnFailure',
    ] as const) {
      if (options[k] !== undefined) (sim as Record<string, unknown>)[k] = options[k];
    }
    return c.simulate(sim);
  }

  /**
   * Sends the call (simulated first; SimulateFailedError carries the report when it would fail).
   * `T` types the decoded return value for scripts without a generated client:
   * `const { returnValue } = await app.call<bigint>('increment', [5n])`.
   */
  async call<T = AbiValue>(methodText: string | undefined, args: readonly unknown[] = [], options: AppCallOptions = {}): Promise<AppCallResult<T>> {
    const { entries, callIndex, arc56 } = await this.buildCall(methodText, args, options);
    const c = this.composer();
    for (const e of entries) c.add(e);
    if (arc56?.readonly && !options.sendReadonly && entries[callIndex]!.txn.appCall?.onComplete === OnComplete.NoOp && !options.create && !options.update) {
      return this.readonlyResult<T>(c, entries, callIndex, options);
    }
    const sent = await c.send({
      populateResources: options.populateResources ?? true,
      coverInnerFees: options.coverInnerFees ?? true,
      ...(options.extraFee ? { extraFee: options.extraFee } : {}),
      ...(options.extraOpcodeBudget ? { extraOpcodeBudget: options.extraOpcodeBudget } : {}),
    });
    const t = sent.txns[callIndex]!;
    if (t.createdAppId !== undefined) this.appId = t.createdAppId;
    // Logs, events and the report come from the send's report, which a send on a chain in this
    // process builds only when it is read: they are read from it on first use.
    const logs = () => sent.report.txns[callIndex]?.logs ?? [];
    const result: AppCallResult<T> = {
      appId: t.createdAppId ?? this.appId,
      txid: t.txid,
      txids: sent.txids,
      confirmedRound: t.confirmedRound,
      get logs() {
        return settleLazy(result, 'logs', logs());
      },
      set logs(v) {
        settleLazy(result, 'logs', v);
      },
      get events() {
        const events = logs()
          .filter((l) => l.event)
          .map((l) => ({ name: l.event!.name, args: l.event!.args, named: l.event!.named }));
        return settleLazy(result, 'events', events);
      },
      set events(v) {
        settleLazy(result, 'events', v);
      },
      get report() {
        return settleLazy(result, 'report', sent.report);
      },
      set report(v) {
        settleLazy(result, 'report', v);
      },
      sent,
    };
    // The report is asked for a return value the send could not decode (an outcome without logs,
    // or no method: the report may find one through the spec's selectors).
    const rv = t.returnValue ?? (reportMayReturn(entries[callIndex]!) ? sent.report.txns[callIndex]?.returnValue : undefined);
    if (rv !== undefined) result.returnValue = rv as T;
    if (t.createdAppId !== undefined) result.createdAppId = t.createdAppId;
    return result;
  }

  /** A read-only call answered by simulating its group (unsigned, resources filled in), as AlgoKit does. */
  private async readonlyResult<T>(c: GroupComposer, entries: readonly ComposerEntry[], callIndex: number, options: AppCallOptions): Promise<AppCallResult<T>> {
    await c.prepare({
      populateResources: options.populateResources ?? true,
      coverInnerFees: options.coverInnerFees ?? true,
      ...(options.extraFee ? { extraFee: options.extraFee } : {}),
    });
    const report = await c.simulate({
      allowEmptySignatures: true,
      allowUnnamedResources: true,
      allowMoreLogging: true,
      throwOnFailure: true,
      ...(options.extraOpcodeBudget ? { extraOpcodeBudget: options.extraOpcodeBudget } : {}),
    });
    const r = report.txns[callIndex];
    const txns = c.transactions;
    const txids = (txns.length > 1 && txns.every((t) => t.group === undefined) ? assignGroupId(txns) : txns).map((t) => txidOf(t));
    const result: AppCallResult<T> = {
      appId: this.appId,
      txid: txids[callIndex]!,
      txids,
      confirmedRound: 0n,
      logs: r?.logs ?? [],
      events: (r?.logs ?? []).filter((l) => l.event).map((l) => ({ name: l.event!.name, args: l.event!.args, named: l.event!.named })),
      report,
      simulated: true,
    };
    if (r?.returnValue !== undefined) result.returnValue = r.returnValue as T;
    return result;
  }

  /** Creates the app (bare or through a create method) and points this client at it. */
  async create(compiled: CompiledContract, options: AppCallOptions & { method?: string; args?: readonly unknown[] } = {}): Promise<AppCallResult> {
    this.compiled = compiled;
    const result = await this.call(options.method, options.args ?? [], { ...options, create: { compiled, ...(options.create ?? {}) } });
    return result;
  }

  async update(compiled: CompiledContract, options: AppCallOptions & { method?: string; args?: readonly unknown[] } = {}): Promise<AppCallResult> {
    const result = await this.call(options.method, options.args ?? [], { ...options, update: { compiled } });
    this.compiled = compiled;
    return result;
  }

  async delete(options: AppCallOptions & { method?: string; args?: readonly unknown[] } = {}): Promise<AppCallResult> {
    return this.call(options.method, options.args ?? [], { ...options, onComplete: OnComplete.DeleteApplication });
  }

  async optIn(options: AppCallOptions & { method?: string; args?: readonly unknown[] } = {}): Promise<AppCallResult> {
    return this.call(options.method, options.args ?? [], { ...options, onComplete: OnComplete.OptIn });
  }

  async closeOut(options: AppCallOptions & { method?: string; args?: readonly unknown[] } = {}): Promise<AppCallResult> {
    return this.call(options.method, options.args ?? [], { ...options, onComplete: OnComplete.CloseOut });
  }

  async clear(options: AppCallOptions = {}): Promise<AppCallResult> {
    return this.call(undefined, [], { ...options, onComplete: OnComplete.ClearState });
  }

  // --- state ---

  async globalState(): Promise<StorageItem[]> {
    return decodeGlobalState((await fetchApp(this.chain, this.appId)).globalState, this.spec);
  }

  async localState(address: string): Promise<StorageItem[]> {
    const entries = await fetchLocalState(this.chain, this.appId, address);
    if (!entries) throw new AppError(`${address} has not opted in to app ${this.appId}`);
    return decodeLocalState(entries, this.spec);
  }

  /** A page of box names (decoded by the spec's box keys and maps), optionally with values. */
  async boxes(page: { limit?: number; next?: string; values?: boolean } = {}): Promise<{ items: StorageItem[]; next?: string }> {
    const { names, next } = await fetchBoxNames(this.chain, this.appId, page);
    const withValues: Array<{ name: Uint8Array; value?: Uint8Array }> = [];
    for (const name of names) {
      const value = page.values ? await fetchBox(this.chain, this.appId, name) : undefined;
      withValues.push(value !== undefined ? { name, value } : { name });
    }
    return { items: decodeBoxes(withValues, this.spec), ...(next ? { next } : {}) };
  }

  async box(name: Uint8Array | string): Promise<StorageItem | undefined> {
    const key = typeof name === 'string' ? storageKeyFor(this.spec, 'box', name) : name;
    const value = await fetchBox(this.chain, this.appId, key);
    return value === undefined ? undefined : decodeBoxes([{ name: key, value }], this.spec)[0];
  }
}

function toEntry(e: ComposerEntry | Transaction): ComposerEntry {
  return 'txn' in e && (e as ComposerEntry).txn !== undefined && !('type' in e) ? (e as ComposerEntry) : { txn: e as Transaction };
}

function defaultOnComplete(m: Arc56Method, create: boolean): OnComplete {
  const list = create ? m.actions.create : m.actions.call;
  const names = (list ?? []).map((x) => String(x).toLowerCase());
  if (names.length === 0 || names.includes('noop')) return OnComplete.NoOp;
  return onCompleteFromName(names[0]!) ?? OnComplete.NoOp;
}

function bytesEq(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function u64Bytes(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, v);
  return out;
}

/** Re-export for callers that catch simulate failures of calls. */
export { SimulateFailedError, failureSummary };
