import type { Arc56AppSpec, Arc56Method } from '../../abi/arc56.js';
import { encodeMethodCall } from '../../abi/method-call.js';
import type { AbiValue } from '../../abi/types.js';
import { Ed25519KeyPair } from '../../crypto/ed25519.js';
import { Address } from '../../encoding/address.js';
import { parseJson, stringifyJson } from '../../encoding/json.js';
import { Ledger } from '../../ledger/ledger.js';
import type { Block } from '../../ledger/block.js';
import { simulate, type SimulateRequest, type SimulateResponse } from '../../ledger/simulate.js';
import { simulateResponseToWire } from '../../services/node/simulate-wire.js';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn, type SuggestedParams } from '../../txn/builders.js';
import { signTransaction } from '../../txn/sign.js';
import { OnComplete, type Transaction } from '../../txn/types.js';
import { decodeMethodReturn } from '../../abi/method-call.js';
import type { CompiledContract } from '../compile.js';
import { decodeBoxes, decodeGlobalState, decodeLocalState, type StorageItem } from '../state-decode.js';
import { arr, bytesOf, obj } from '../response-read.js';
import { readUnnamedResources } from '../simulate-report.js';

/*
 * The chain a fuzz run uses: a fresh in-process ledger per run (deterministic keys, clock and
 * ids, so a seed replays exactly), the app created by account 0 and funded, and one method call
 * at a time — simulated with an exec trace (for failures, coverage and the debugger), then, when
 * it succeeds, submitted with the references the simulation found.
 */

/** One account of a fuzz chain: its key and address. */
export interface FuzzAccount {
  key: Ed25519KeyPair;
  address: string;
}

/** How a call ended: success, a deliberate rejection (assert, err, approval returned 0), or a panic (any other AVM error). */
export type CallOutcomeKind = 'ok' | 'rejected' | 'panic';

/** The result of one call on a fuzz chain. */
export interface CallOutcome {
  kind: CallOutcomeKind;
  /** The node's failure message (rejections and panics). */
  message?: string;
  returnValue?: AbiValue;
  logs: Uint8Array[];
  /** The simulate response in the node's JSON shape (exec trace included): what coverage, budget and the debugger read. */
  response: Record<string, unknown>;
  /** Change of the sender's plus the app account's minimum balance (0 for a failed call). */
  minBalanceChange: bigint;
}

/** Spec-decoded app state at one point: named keys by name, maps as key/value lists, and the raw items. */
export interface FuzzState {
  global: Record<string, AbiValue>;
  /** Per account address. */
  local: Record<string, Record<string, AbiValue>>;
  box: Record<string, AbiValue>;
  /** Map name → entries, for global, local (per account) and box maps alike. */
  maps: Record<string, { key: AbiValue; value: AbiValue; account?: string }[]>;
  /** Every item as decoded (raw views included), for keys the spec does not name. */
  items: StorageItem[];
  /** The app account's balance in micro-units. */
  appBalance: bigint;
}

const DELIBERATE = /assert failed|err opcode executed|rejected by ApprovalProgram/;

/** Classifies a failure message: deliberate rejections versus AVM panics. */
export function classifyFailure(message: string): Exclude<CallOutcomeKind, 'ok'> {
  return DELIBERATE.test(message) ? 'rejected' : 'panic';
}

function seedKey(i: number): Ed25519KeyPair {
  const seed = new Uint8Array(32);
  seed[0] = 0x7a;
  seed[1] = i;
  return Ed25519KeyPair.fromSeed(seed);
}

/** What a fuzz chain starts from: the deployed app's blocks, replayed into each fresh ledger. */
interface ChainStart {
  accounts: FuzzAccount[];
  blocks: Block[];
  appId: bigint;
  time: bigint;
}

/**
 * A fresh ledger with the app deployed: the chain one fuzz run calls. The first chain of a spec
 * creates the app by signed transactions; `fork()` gives further fresh chains by replaying those
 * blocks (no signatures to check again), which is what makes thousands of runs affordable.
 */
export class FuzzChain {
  readonly ledger: Ledger;
  readonly accounts: FuzzAccount[];
  readonly appId: bigint;
  readonly appAddress: string;
  private time: bigint;
  private readonly start: ChainStart;

  /**
   * Creates the ledger with `senders` funded accounts, creates the app from account 0 (a bare
   * NoOp create, or `create` when given), funds the app account and opts every sender in when the
   * spec allows a bare opt-in and keeps local state.
   */
  constructor(
    readonly spec: Arc56AppSpec,
    readonly compiled: CompiledContract,
    options: { senders: number; create?: { method: Arc56Method; args: AbiValue[] } },
    from?: ChainStart,
  ) {
    this.accounts =
      from?.accounts ??
      Array.from({ length: Math.max(1, options.senders) }, (_, i) => {
        const key = seedKey(i);
        return { key, address: new Address(key.publicKey).toString() };
      });
    this.time = 1_700_000_000n;
    this.ledger = new Ledger({
      genesisAccounts: this.accounts.map((a) => ({ address: a.key.publicKey, amount: 1_000_000_000_000n })),
      genesisTimestamp: this.time,
      clock: () => (this.time += 1n),
    });
    if (from) {
      for (const b of from.blocks) this.ledger.applyBlock(b);
      this.time = from.time;
      this.appId = from.appId;
      this.appAddress = Address.forApp(this.appId).toString();
      this.start = from;
      return;
    }
    const creator = this.accounts[0]!;
    const s = compiled.schema;
    const create = options.create ? encodeMethodCall(options.create.method.method, options.create.args, { sender: creator.address, appId: 0n }) : undefined;
    const txn = makeAppCreateTxn({
      sender: creator.address,
      suggestedParams: this.params(),
      onComplete: OnComplete.NoOp,
      approvalProgram: compiled.approval.bytes,
      clearProgram: compiled.clear.bytes,
      globalSchema: { numUints: s.globalInts, numByteSlices: s.globalBytes },
      localSchema: { numUints: s.localInts, numByteSlices: s.localBytes },
      extraPages: compiled.extraPages,
      ...(create ? { args: create.appArgs, accounts: create.accounts, foreignApps: create.foreignApps, foreignAssets: create.foreignAssets } : {}),
    });
    const created = this.ledger.submit([signTransaction(txn, creator.key)]);
    this.appId = this.ledger.transaction(created.txids[0]!)!.ad.createdAppId!;
    this.appAddress = Address.forApp(this.appId).toString();
    this.ledger.submit([
      signTransaction(
        makePaymentTxn({ sender: creator.address, receiver: this.appAddress, amount: 100_000_000n, suggestedParams: this.params() }),
        creator.key,
      ),
    ]);
    if (spec.json.bareActions?.call?.includes('OptIn') && s.localInts + s.localBytes > 0) {
      for (const a of this.accounts)
        this.ledger.submit([
          signTransaction(makeAppCallTxn({ sender: a.address, appId: this.appId, onComplete: OnComplete.OptIn, suggestedParams: this.params() }), a.key),
        ]);
    }
    const blocks: Block[] = [];
    for (let r = 1n; r <= this.ledger.latestRound; r++) blocks.push(this.ledger.block(r));
    this.start = { accounts: this.accounts, blocks, appId: this.appId, time: this.time };
  }

  /** A fresh chain in the state this one started in (app created, funded, senders opted in). */
  fork(): FuzzChain {
    return new FuzzChain(this.spec, this.compiled, { senders: this.accounts.length }, this.start);
  }

  #startMark: number | undefined;

  /**
   * This very chain back in the state it started in, byte for byte, by a snapshot revert: it costs
   * what the calls since changed, where `fork()` replays the set-up blocks. The first call
   * remembers the state, so make it before any call. For one run at a time: a run that keeps the
   * chain while the next one rewinds it sees that run's state; `fork()` gives independent chains.
   */
  rewind(): this {
    if (this.#startMark === undefined) this.#startMark = this.ledger.mark();
    else this.ledger.revertToMark(this.#startMark);
    this.time = this.start.time;
    return this;
  }

  /** Suggested params for the next transaction (flat fee). */
  params(fee = 1000n): SuggestedParams {
    return {
      fee,
      flatFee: true,
      firstValid: this.ledger.latestRound,
      lastValid: this.ledger.latestRound + 1000n,
      genesisId: this.ledger.genesisId,
      genesisHash: this.ledger.genesisHash,
    };
  }

  /**
   * Calls a method from account `sender`: simulates with an exec trace (`full` adds stack, scratch
   * and state changes, for the debugger), and submits the call when it succeeds.
   */
  call(method: Arc56Method, args: readonly AbiValue[], sender: number, trace: 'pcs' | 'full' = 'pcs', fee = 4000n): CallOutcome {
    const from = this.accounts[sender % this.accounts.length]!;
    const enc = encodeMethodCall(method.method, args, { sender: from.address, appId: this.appId });
    const build = (extra: { accounts?: string[]; apps?: bigint[]; assets?: bigint[]; boxes?: { appId: bigint; name: Uint8Array }[] } = {}): Transaction =>
      makeAppCallTxn({
        sender: from.address,
        appId: this.appId,
        onComplete: OnComplete.NoOp,
        args: enc.appArgs,
        accounts: [...enc.accounts, ...(extra.accounts ?? [])],
        foreignApps: [...enc.foreignApps, ...(extra.apps ?? [])],
        foreignAssets: [...enc.foreignAssets, ...(extra.assets ?? [])],
        ...(extra.boxes?.length ? { boxes: extra.boxes } : {}),
        suggestedParams: this.params(fee),
      });
    const txn = build();
    const full = trace === 'full';
    const request = {
      'txn-groups': [{ txns: [{ txn }] }],
      'allow-empty-signatures': true,
      'allow-unnamed-resources': true,
      'exec-trace-config': { enable: true, ...(full ? { 'stack-change': true, 'scratch-change': true, 'state-change': true } : {}) },
    } as unknown as SimulateRequest;
    const raw: SimulateResponse = simulate(this.ledger, request);
    const response = parseJson<Record<string, unknown>>(stringifyJson(simulateResponseToWire(raw, request, 'json')));
    const group = obj(arr(response['txn-groups'])[0]);
    const message = typeof group['failure-message'] === 'string' && group['failure-message'] !== '' ? group['failure-message'] : undefined;
    const result = obj(obj(arr(group['txn-results'])[0])['txn-result']);
    const logs = arr(result.logs)
      .map(bytesOf)
      .filter((b): b is Uint8Array => b !== undefined);
    if (message !== undefined) return { kind: classifyFailure(message), message, logs, response, minBalanceChange: 0n };
    const mbrBefore = this.ledger.minBalance(from.address) + this.ledger.minBalance(this.appAddress);
    // Name what the simulation reached without references, then commit the call.
    const unnamed = readUnnamedResources(group['unnamed-resources-accessed']);
    const refs = {
      accounts: [...(unnamed?.accounts ?? [])],
      apps: [...(unnamed?.apps ?? [])],
      assets: [...(unnamed?.assets ?? [])],
      boxes: (unnamed?.boxes ?? []).map((b) => ({ appId: b.app, name: b.name })),
    };
    for (const h of unnamed?.appLocals ?? []) if (h.account !== from.address && !refs.accounts.includes(h.account)) refs.accounts.push(h.account);
    for (const h of unnamed?.assetHoldings ?? []) if (h.account !== from.address && !refs.accounts.includes(h.account)) refs.accounts.push(h.account);
    for (let i = 0; i < (unnamed?.extraBoxRefs ?? 0); i++) refs.boxes.push({ appId: 0n, name: new Uint8Array(0) });
    this.ledger.submit([signTransaction(build(refs), from.key)]);
    const out: CallOutcome = {
      kind: 'ok',
      logs,
      response,
      minBalanceChange: this.ledger.minBalance(from.address) + this.ledger.minBalance(this.appAddress) - mbrBefore,
    };
    if (method.method.returns.abiType) {
      const v = decodeMethodReturn(method.method, logs);
      if (v !== undefined) out.returnValue = v;
    }
    return out;
  }

  /** The app's state now, decoded by the spec. */
  state(): FuzzState {
    const spec = this.spec;
    const out: FuzzState = { global: {}, local: {}, box: {}, maps: {}, items: [], appBalance: this.ledger.balance(this.appAddress) };
    const put = (items: StorageItem[], target: Record<string, AbiValue>, account?: string): void => {
      for (const it of items) {
        out.items.push(it);
        const value = it.decoded ?? it.value;
        if (it.match?.kind === 'key') target[it.match.name] = value;
        else if (it.match?.kind === 'map') (out.maps[it.match.name] ??= []).push({ key: it.mapKey ?? it.key, value, ...(account ? { account } : {}) });
      }
    };
    put(decodeGlobalState(this.ledger.globalState(this.appId), spec), out.global);
    for (const a of this.accounts) {
      const l = this.ledger.localState(a.address, this.appId);
      if (l) put(decodeLocalState(l, spec), (out.local[a.address] = {}), a.address);
    }
    put(
      decodeBoxes(
        this.ledger.boxNames(this.appId).map((name) => ({ name, value: this.ledger.box(this.appId, name)! })),
        spec,
      ),
      out.box,
    );
    return out;
  }
}
