import { decodeSignedTransactions, txid as txidOf } from '../../txn/encode.js';
import { concatBytes } from '../../encoding/bytes.js';
import { encodeMsgpack } from '../../encoding/msgpack.js';
import { AdapterError, HttpError, NetworkError, ProtocolError, TimeoutError } from '../http/errors.js';
import { ConfirmationTimeoutError, TransactionNotFoundError, TransactionRejectedError } from './errors.js';
import type {
  AccountInfo,
  AppInfo,
  AssetInfo,
  BlockInfo,
  BoxValue,
  CompileResult,
  NodeStatus,
  PendingTransaction,
  SimulateOptions,
  SimulateResult,
  SubmitResult,
  SuggestedParams,
  Supply,
  WaitOptions,
} from './types.js';

/** What the rest of the SDK needs from a node, whichever API the node speaks. */
export interface NodeAdapter {
  /** `node-service` (/v1 + follower /v2, node-service.md) or `algod` (public /v2 node API). */
  readonly kind: 'node-service' | 'algod';
  status(): Promise<NodeStatus>;
  /** Resolves once a block after `round` exists. */
  waitForBlockAfter(round: bigint, options?: { signal?: AbortSignal }): Promise<NodeStatus>;
  suggestedParams(): Promise<SuggestedParams>;
  /**
   * Submits one signed transaction or a group (each element an encoded signed transaction, or the
   * pre-concatenated bytes). Never re-sends blindly: after an ambiguous failure the node is asked
   * whether the transaction arrived before anything is sent again.
   */
  submit(signed: Uint8Array | readonly Uint8Array[], options?: { signal?: AbortSignal }): Promise<SubmitResult>;
  /** Pending-pool lookup; throws {@link TransactionNotFoundError} when the node does not know the txid. */
  pending(txid: string): Promise<PendingTransaction>;
  /** Follows a transaction until committed; a pool error ends the wait with {@link TransactionRejectedError}. */
  waitForConfirmation(txid: string, options?: WaitOptions): Promise<PendingTransaction>;
  account(address: string): Promise<AccountInfo>;
  asset(id: bigint): Promise<AssetInfo>;
  application(id: bigint): Promise<AppInfo>;
  box(appId: bigint, name: Uint8Array): Promise<BoxValue>;
  block(round: bigint): Promise<BlockInfo>;
  supply(): Promise<Supply>;
  simulate(signed: readonly Uint8Array[], options?: SimulateOptions): Promise<SimulateResult>;
  /**
   * Only on a chain in this process (`Tealworks.inProcess()`): simulates the signed group with
   * `options` and, when it succeeds (and, with `commitOnlyWithoutInnerTxns`, made no inner
   * transaction), commits it as the next block, from one evaluation. `simulate` is the answer
   * {@link NodeAdapter.simulate} gives for the same group on the same state; `submitted` is set
   * when the group was committed, with `confirmed`: each transaction's answer as
   * {@link NodeAdapter.pending} gives it now. Only the trace option may be given: the block runs
   * as the chain runs it.
   */
  simulateAndSubmit?(
    signed: readonly Uint8Array[],
    options: Pick<SimulateOptions, 'execTrace'> & { commitOnlyWithoutInnerTxns?: boolean },
  ): Promise<{ simulate: SimulateResult; submitted?: SubmitResult; confirmed?: PendingTransaction[] }>;
  /** Follower mode: the current sync round, or undefined when none is set. */
  getSyncRound(): Promise<bigint | undefined>;
  setSyncRound(round: bigint): Promise<void>;
  unsetSyncRound(): Promise<void>;
  /** Follower mode: the ledger state delta of a round, decoded from msgpack with `Map`s (its keys are not all strings). */
  deltas(round: bigint): Promise<unknown>;
  compile?(source: string): Promise<CompileResult>;
  disassemble?(program: Uint8Array): Promise<string>;
  close(): Promise<void>;
}

/** Signed transactions as one byte string, as the node's submit endpoint takes them. */
export function joinSigned(signed: Uint8Array | readonly Uint8Array[]): Uint8Array {
  return signed instanceof Uint8Array ? signed : concatBytes(...signed);
}

/** Id of the first transaction in raw signed bytes, or undefined when the bytes do not decode. */
export function firstTxid(raw: Uint8Array): string | undefined {
  try {
    const stxns = decodeSignedTransactions(raw);
    return txidOf(stxns[0]!.txn);
  } catch {
    return undefined;
  }
}

/** Failures after which we cannot tell whether the node took the transaction. */
function outcomeUnknown(error: unknown): boolean {
  if (error instanceof TimeoutError || error instanceof ProtocolError) return true;
  if (error instanceof NetworkError) return !error.requestNotSent;
  if (error instanceof HttpError) return error.retryable;
  return false;
}

/** The state of a pending lookup: committed (round > 0), rejected (pool error) or still pending. */
export function pendingState(confirmedRound: bigint, poolError: string): PendingTransaction['state'] {
  if (confirmedRound > 0n) return 'committed';
  return poolError ? 'rejected' : 'in-pool';
}

/**
 * The submission and confirmation rules both node APIs share; subclasses supply the wire calls.
 */
export abstract class BaseNodeAdapter implements NodeAdapter {
  abstract readonly kind: 'node-service' | 'algod';
  /** Submission attempts (first send plus re-sends after the node confirmed it has not seen the txn). */
  protected submitAttempts = 3;
  protected submitBackoffMs = 200;

  abstract status(): Promise<NodeStatus>;
  abstract waitForBlockAfter(round: bigint, options?: { signal?: AbortSignal }): Promise<NodeStatus>;
  abstract suggestedParams(): Promise<SuggestedParams>;
  abstract pending(txid: string): Promise<PendingTransaction>;
  abstract account(address: string): Promise<AccountInfo>;
  abstract asset(id: bigint): Promise<AssetInfo>;
  abstract application(id: bigint): Promise<AppInfo>;
  abstract box(appId: bigint, name: Uint8Array): Promise<BoxValue>;
  abstract block(round: bigint): Promise<BlockInfo>;
  abstract supply(): Promise<Supply>;
  abstract simulate(signed: readonly Uint8Array[], options?: SimulateOptions): Promise<SimulateResult>;
  abstract getSyncRound(): Promise<bigint | undefined>;
  abstract setSyncRound(round: bigint): Promise<void>;
  abstract unsetSyncRound(): Promise<void>;
  abstract deltas(round: bigint): Promise<unknown>;
  abstract close(): Promise<void>;
  /** One POST of the raw bytes, without retries; returns the node's txid. */
  protected abstract postRaw(raw: Uint8Array, signal?: AbortSignal): Promise<string>;

  async submit(signed: Uint8Array | readonly Uint8Array[], options: { signal?: AbortSignal } = {}): Promise<SubmitResult> {
    const raw = joinSigned(signed);
    if (raw.length === 0) throw new AdapterError('nothing to submit: no signed transaction bytes');
    const txid = firstTxid(raw);
    let lastError: unknown;
    for (let attempt = 0; attempt < this.submitAttempts; attempt++) {
      try {
        return { txid: await this.postRaw(raw, options.signal) };
      } catch (e) {
        lastError = e;
        if (!outcomeUnknown(e) || txid === undefined) throw e;
      }
      if (lastError instanceof HttpError && lastError.retryAfterMs !== undefined) await sleep(Math.min(lastError.retryAfterMs, 5_000));
      else await sleep(this.submitBackoffMs * 2 ** attempt * Math.random());
      let found: PendingTransaction;
      try {
        found = await this.pending(txid);
      } catch (e) {
        if (e instanceof TransactionNotFoundError) continue; // Provably not there: sending again is safe.
        throw lastError;
      }
      if (found.state === 'rejected') throw new TransactionRejectedError(txid, found.poolError);
      return { txid, recoveredAfterFailure: true };
    }
    throw lastError;
  }

  async waitForConfirmation(txid: string, options: WaitOptions = {}): Promise<PendingTransaction> {
    const maxRounds = options.maxRounds ?? 10;
    // Asked before the status: a dev-mode node has committed the group before submit returned,
    // and where the wait starts matters only when it has not.
    const settled = async (): Promise<PendingTransaction | undefined> => {
      if (options.signal?.aborted) throw new AdapterError(`waiting for ${txid} was aborted`);
      const p = await this.pending(txid);
      if (p.state === 'committed') return p;
      if (p.state === 'rejected') throw new TransactionRejectedError(txid, p.poolError);
      return undefined;
    };
    const first = await settled();
    if (first) return first;
    const start = (await this.status()).lastRound;
    let round = start;
    for (;;) {
      if (round >= start + BigInt(maxRounds)) throw new ConfirmationTimeoutError(txid, maxRounds, round);
      const st = await this.waitForBlockAfter(round, options.signal ? { signal: options.signal } : {});
      round = st.lastRound > round ? st.lastRound : round + 1n;
      const p = await settled();
      if (p) return p;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The simulate request in msgpack, with the caller's signed transactions spliced in byte for byte
 * (re-encoding could change a non-canonical signature's meaning).
 */
export function simulateRequestBody(signed: readonly Uint8Array[], options: SimulateOptions = {}): Uint8Array {
  const entries: [string, Uint8Array][] = [];
  const add = (key: string, value: boolean | number | bigint | undefined | Record<string, boolean>) => {
    if (value === undefined || value === false || value === 0 || value === 0n) return;
    entries.push([key, encodeMsgpack(value)]);
  };
  add('allow-empty-signatures', options.allowEmptySignatures);
  add('allow-unnamed-resources', options.allowUnnamedResources);
  add('allow-more-logging', options.allowMoreLogging);
  add('extra-opcode-budget', options.extraOpcodeBudget);
  add('round', options.round);
  add('fix-signers', options.fixSigners);
  if (options.execTrace) add('exec-trace-config', { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true });
  const n = signed.length;
  const arrayHeader = n < 16 ? Uint8Array.of(0x90 | n) : Uint8Array.of(0xdc, n >> 8, n & 0xff);
  entries.push(['txn-groups', concatBytes(Uint8Array.of(0x91, 0x81), encodeMsgpack('txns'), arrayHeader, ...signed)]);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return concatBytes(Uint8Array.of(0x80 | entries.length), ...entries.flatMap(([k, v]) => [encodeMsgpack(k), v]));
}
