import { formatMicroAlgos } from '../txn/microalgos.js';
import { AvmGroupEvaluator, LogicError, programVersion } from '../avm/index.js';
import type { ApplyData as AvmApplyData, TraceOptions, UnnamedResources } from '../avm/context.js';
import type { ProgramTrace } from '../avm/trace.js';
import { encodeAddress } from '../encoding/address.js';
import { toBase32 } from '../encoding/base32.js';
import { toBase64 } from '../encoding/base64.js';
import { bytesEqual, concatBytes, isAllZero, utf8 } from '../encoding/bytes.js';
import { fromHex, toHex } from '../encoding/hex.js';
import { ed25519Verify, ed25519VerifyAsync, signedHere } from '../crypto/ed25519.js';
import { programHashIsOnCurve } from '../teal/oncurve.js';
import { OFF_CURVE_VERSION } from '../teal/spec/versions.js';
import { bytesToSign } from '../txn/encode.js';
import { computeGroupId } from '../txn/group.js';
import { groupUsage, requiredFee } from '../txn/fees.js';
import { logicSigAddress, multisigProgramMessage } from '../txn/logicsig.js';
import { multisigAddressOf, verifyMultisig } from '../txn/multisig.js';
import { TxnValidationError } from '../txn/errors.js';
import { TealworksError } from '../errors.js';
import { validateTransaction } from '../txn/validate.js';
import type { SignedTransaction, Transaction } from '../txn/types.js';
import { OnComplete } from '../txn/types.js';
import { sha512_256 } from '../crypto/hash.js';
import { applyTransaction, checkSchemas, finishAppCall, type ApplyContext } from './apply.js';
import { emptyTxnApplyData, type TxnApplyData } from './block.js';
import { ApplyError, LedgerRejection, type RejectionKind } from './errors.js';
import type { ConsensusParams } from './params.js';
import { isEmptyAccount, type LedgerState } from './state.js';
import { StateView, type HeaderSource } from './view.js';
import type { RoundOverlay } from './window.js';
import { transactionWellFormedError } from '../avm/well-formed.js';

/** Everything one round's evaluation needs besides the state itself. */
export interface EvalEnv {
  state: LedgerState;
  params: ConsensusParams;
  genesisId: string;
  genesisHash: Uint8Array;
  feeSink: Uint8Array;
  rewardsPool: Uint8Array;
  /** The round being built. */
  round: bigint;
  /** Timestamp of the latest committed block (`global LatestTimestamp`). */
  latestTimestamp: bigint;
  headers: HeaderSource;
  /** Recent txids (base32) → last valid round: duplicate detection. Written as groups apply. */
  txids: RoundOverlay;
  /** `senderHex/leaseHex` → last valid round of the transaction holding the lease. */
  leases: RoundOverlay;
  /**
   * Signature material already verified (as the node's verified-transaction cache): a group
   * simulated and then submitted, or simulated repeatedly, is checked once.
   */
  verified?: VerifiedCache;
  /**
   * Authorizers (hex of the address) whose signatures are not checked: a test chain's
   * `impersonate` cheat. Everything else about their transactions still is.
   */
  impersonated?: ReadonlySet<string>;
}

/** Keys of (txid, signature material) pairs that verified; bounded. */
export class VerifiedCache {
  private readonly keys = new Set<string>();
  constructor(private readonly limit = 16384) {}
  has(k: string): boolean {
    return this.keys.has(k);
  }
  add(k: string): void {
    if (this.keys.size >= this.limit) this.keys.clear();
    this.keys.add(k);
  }
}

/**
 * The cache key of a transaction's signature material: only for one signed by a single key (a
 * non-zero signature) or by a multisig, and nothing else. A transaction with more than one kind
 * of material, an empty signature or a logic signature is checked in full every time (so its
 * refusal never depends on what was checked before).
 */
function sigMaterialKey(txid: string, stxn: SignedTransaction): string | undefined {
  if (stxn.lsig || (stxn.sig && stxn.msig)) return undefined;
  if (stxn.sig && isAllZero(stxn.sig)) return undefined;
  if (stxn.sig) return `${txid}/s/${toHex(stxn.sig)}/${stxn.authAddress ? toHex(stxn.authAddress.publicKey) : ''}`;
  if (stxn.msig)
    return `${txid}/m/${stxn.msig.threshold}/${stxn.msig.subsigs.map((x) => toHex(x.publicKey) + (x.signature ? toHex(x.signature) : '-')).join('.')}/${stxn.authAddress ? toHex(stxn.authAddress.publicKey) : ''}`;
  return undefined;
}

/**
 * Checks the single signatures of `group` that `cache` does not hold yet, in parallel where the
 * platform can (Node's native verifier runs on its worker pool), and adds those that verify, so
 * the group's evaluation that follows finds them checked. Decides nothing: a signature that does
 * not verify is not added and is checked again by the evaluation, which fails with the node's
 * error. Multisig and logic signatures, and a group with fewer than two signatures to check, are
 * left to the evaluation.
 */
export async function preverifySignatures(cache: VerifiedCache, group: readonly SignedTransaction[], impersonated?: ReadonlySet<string>): Promise<void> {
  const todo: { who: Uint8Array; message: Uint8Array; sig: Uint8Array; key: string }[] = [];
  for (const stxn of group) {
    // A single-key signature only (sigMaterialKey has no key for other mixes or an empty one).
    if (!stxn.sig || isImpersonated({ impersonated }, stxn)) continue;
    const message = bytesToSign(stxn.txn);
    // One this process made checks at once: nothing to do ahead, nothing to remember.
    if (madeHereAlone(stxn, message)) continue;
    const key = sigMaterialKey(toBase32(sha512_256(message)), stxn);
    if (key !== undefined && !cache.has(key)) todo.push({ who: claimedAuthorizer(stxn), message, sig: stxn.sig, key });
  }
  // One signature gains nothing from another thread: the evaluation checks it as it goes.
  if (todo.length < 2) return;
  await Promise.all(
    todo.map(({ who, message, sig, key }) =>
      ed25519VerifyAsync(who, message, sig).then((ok) => {
        if (ok) cache.add(key);
      }),
    ),
  );
}

/** Options of a group evaluation on the ledger (simulate-style relaxations, traces, extra budget). */
export interface EvalOptions {
  allowEmptySignatures?: boolean;
  fixSigners?: boolean;
  allowMoreLogging?: boolean;
  allowUnnamedResources?: boolean;
  extraBudget?: number;
  trace?: TraceOptions;
  /** Journal replay: signatures were checked when the block was first made. */
  skipSignatures?: boolean;
  /** The node's `skip-pq-address-check`: accept v13+ escrow programs whose hash is on the curve. */
  skipPqAddressCheck?: boolean;
}

export interface TxnEvalResult {
  stxn: SignedTransaction;
  txid: string;
  ad: TxnApplyData;
  appBudgetConsumed: number;
  logicSigBudgetConsumed: number;
  /** Fee of the transaction plus all its inner transactions. */
  feesPaid: bigint;
  approvalTrace?: ProgramTrace;
  clearTrace?: ProgramTrace;
  clearRollbackError?: string;
  /** The ClearState program failed or rejected, so its own changes were rolled back (the account is still cleared). */
  clearRolledBack?: boolean;
  lsigTrace?: ProgramTrace;
  approvalProgram?: Uint8Array;
  clearProgram?: Uint8Array;
  lsigProgram?: Uint8Array;
  /** Simulate's fix-signers: the address that must sign, when it differs from the one given. */
  fixedSigner?: Uint8Array;
}

/** What evaluating a group produced: the per-transaction results, the state changes, or the failure. */
export interface GroupEvalResult {
  txns: TxnEvalResult[];
  failure?: LedgerRejection;
  appBudgetAdded: number;
  appBudgetConsumed: number;
  groupUsage: bigint;
  groupFeesPaid: bigint;
  /** Resources programs reached only because unnamed access was allowed (simulate). */
  unnamed?: UnnamedResources;
}

const addr = (b: Uint8Array): string => encodeAddress(b);
const PROGRAM_PREFIX = utf8('Program');

class Fail extends Error {
  constructor(
    readonly kind: RejectionKind,
    message: string,
    readonly path?: readonly number[],
  ) {
    // Caught below and reported as a LedgerRejection: no stack needed.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

function fail(kind: RejectionKind, message: string, path?: readonly number[]): never {
  throw new Fail(kind, message, path);
}

/** Converts the interpreter's ApplyData (and its inner tree) into the ledger's. */
export function fromAvmApplyData(ad: AvmApplyData, extra?: Partial<TxnApplyData>, view?: StateView): TxnApplyData {
  return {
    ...(ad.closingAmount !== undefined ? { closingAmount: ad.closingAmount } : {}),
    ...(ad.createdAssetId !== undefined ? { createdAssetId: ad.createdAssetId } : {}),
    ...(ad.createdAppId !== undefined ? { createdAppId: ad.createdAppId } : {}),
    ...extra,
    globalDelta: ad.globalDelta,
    localDeltas: ad.localDeltas,
    logs: ad.logs,
    inner: ad.innerTxns.map((i) => {
      const aca = view?.innerAssetClosing.get(i.txn);
      return { txn: i.txn, txid: i.txid, ad: fromAvmApplyData(i.ad, aca !== undefined ? { assetClosingAmount: aca } : undefined, view) };
    }),
  };
}

function sumInnerFees(ad: TxnApplyData): bigint {
  let s = 0n;
  for (const i of ad.inner) s += i.txn.fee + sumInnerFees(i.ad);
  return s;
}

function checkWellFormed(env: EvalEnv, txn: Transaction): void {
  const p = env.params;
  if (txn.type === 'stpf' || txn.type === 'hb') fail('malformed', `transaction type ${txn.type} is produced by the network and cannot be submitted here`);
  // The node's own well-formedness rules and messages first; our validator's stricter shape checks after.
  const malformed = transactionWellFormedError(txn, p.txn);
  if (malformed !== undefined) fail('malformed', malformed);
  try {
    validateTransaction(txn, { limits: p.txn });
  } catch (e) {
    if (e instanceof TxnValidationError) fail('malformed', e.message);
    throw e;
  }
  if (txn.sender.isZero()) fail('malformed', 'transaction cannot have zero sender');
  if (bytesEqual(txn.sender.publicKey, env.rewardsPool)) fail('malformed', 'transaction from incentive pool is invalid');
  if (txn.type === 'pay' && bytesEqual(txn.sender.publicKey, env.feeSink)) {
    const to = txn.payment!.receiver.publicKey;
    if (!bytesEqual(to, env.rewardsPool))
      fail('malformed', `cannot spend from fee sink's address ${addr(env.feeSink)} to non incentive pool address ${addr(to)}`);
    if (txn.payment!.closeRemainderTo) fail('malformed', `cannot close fee sink ${addr(env.feeSink)} to ${txn.payment!.closeRemainderTo}`);
  }
  if (txn.genesisId !== undefined && txn.genesisId !== env.genesisId) {
    fail('genesis', `tx.GenesisID <${txn.genesisId}> does not match expected <${env.genesisId}>`);
  }
  if (!txn.genesisHash) fail('genesis', 'required tx.GenesisHash is missing');
  if (!bytesEqual(txn.genesisHash, env.genesisHash)) {
    fail('genesis', `tx.GenesisHash <${toBase32(txn.genesisHash)}> does not match expected <${toBase32(env.genesisHash)}>`);
  }
  if (env.round < txn.firstValid || env.round > txn.lastValid) {
    fail('txn-dead', `txn dead: round ${env.round} outside of ${txn.firstValid}--${txn.lastValid}`);
  }
}

/** The address the signature material speaks for (before comparing with the account's auth address). */
function claimedAuthorizer(stxn: SignedTransaction): Uint8Array {
  return (stxn.authAddress ?? stxn.txn.sender).publicKey;
}

/**
 * Whether the transaction's only signature material is a (non-empty) signature this process made
 * by its authorizer's key over it: `verifySignature` would pass it, and finds the same memo.
 */
function madeHereAlone(stxn: SignedTransaction, message: Uint8Array): boolean {
  return (
    stxn.sig !== undefined &&
    stxn.msig === undefined &&
    stxn.lsig === undefined &&
    !isAllZero(stxn.sig) &&
    signedHere(claimedAuthorizer(stxn), message, stxn.sig)
  );
}

/** Whether the cheat `impersonate` covers the transaction's authorizer (its signature is not checked). */
function isImpersonated(env: Pick<EvalEnv, 'impersonated'>, stxn: SignedTransaction): boolean {
  return env.impersonated !== undefined && env.impersonated.size > 0 && env.impersonated.has(toHex(claimedAuthorizer(stxn)));
}

/**
 * Checks the cryptographic part of authorization: exactly one of sig/msig/lsig, valid for the
 * claimed authorizer. Logic programs themselves run later, with the group's pooled budget.
 */
function verifySignature(env: EvalEnv, stxn: SignedTransaction, index: number, opts: EvalOptions, message: Uint8Array): void {
  if (isImpersonated(env, stxn)) return;
  const kinds = (stxn.sig && !isAllZero(stxn.sig) ? 1 : 0) + (stxn.msig ? 1 : 0) + (stxn.lsig ? 1 : 0);
  if (kinds === 0) {
    if (opts.allowEmptySignatures) return;
    fail('signature', 'signedtxn has no sig');
  }
  if (kinds > 1) fail('signature', 'signedtxn should only have one of Sig or Msig or LogicSig');
  const who = claimedAuthorizer(stxn);
  if (stxn.sig) {
    if (!ed25519Verify(who, message, stxn.sig)) fail('signature', "At least one signature didn't pass verification");
    return;
  }
  if (stxn.msig) {
    if (!bytesEqual(multisigAddressOf(stxn.msig).publicKey, who))
      fail('signature', 'multisig address does not match the authorizer: MultisigVerify: wrong address');
    if (!verifyMultisig(stxn.msig, message)) fail('signature', "At least one signature didn't pass verification");
    return;
  }
  const lsig = stxn.lsig!;
  if (lsig.msig) fail('signature', 'LogicSig Msig field is no longer supported; use LMsig');
  if (lsig.sig) {
    if (!ed25519Verify(who, concatBytes(PROGRAM_PREFIX, lsig.program), lsig.sig)) {
      fail('signature', "At least one signature didn't pass verification");
    }
    return;
  }
  if (lsig.lmsig) {
    if (!bytesEqual(multisigAddressOf(lsig.lmsig).publicKey, who))
      fail('signature', 'multisig address does not match the authorizer: MultisigVerify: wrong address');
    if (!verifyMultisig(lsig.lmsig, multisigProgramMessage(multisigAddressOf(lsig.lmsig), lsig.program))) {
      fail('signature', "At least one signature didn't pass verification");
    }
    return;
  }
  if (!bytesEqual(logicSigAddress(lsig.program).publicKey, who)) fail('signature', 'LogicNot signed and not a Logic-only account');
  if (env.params.offCurveEscrowRule && !opts.skipPqAddressCheck) {
    let version = 0;
    try {
      version = programVersion(lsig.program).version;
    } catch {
      version = 0;
    }
    if (version >= OFF_CURVE_VERSION && programHashIsOnCurve(lsig.program)) {
      fail(
        'signature',
        `transaction ${index}: TEAL v${version} LogicSig program hash is an Edwards25519 point and should not be used; set skip-pq-address-check=true to submit anyway`,
      );
    }
  }
}

/** The address an empty-signature txn would need (fix-signers), or the one its signature claims. */
function actualAuthorizer(stxn: SignedTransaction): Uint8Array {
  const noSig = !(stxn.sig && !isAllZero(stxn.sig)) && !stxn.msig && !stxn.lsig;
  if (noSig) return claimedAuthorizer(stxn);
  if (stxn.lsig && !stxn.lsig.sig && !stxn.lsig.lmsig && !stxn.authAddress) return logicSigAddress(stxn.lsig.program).publicKey;
  return claimedAuthorizer(stxn);
}

const leaseKey = (txn: Transaction): string => `${toHex(txn.sender.publicKey)}/${toHex(txn.lease!)}`;

/**
 * Evaluates one group against the state in `env`, in place. On failure the state is left dirty:
 * the caller rolls it back to its checkpoint (the ledger does, so a failed group changes nothing).
 */
export function evaluateGroup(env: EvalEnv, group: readonly SignedTransaction[], opts: EvalOptions = {}): GroupEvalResult {
  const st = env.state;
  const results: TxnEvalResult[] = group.map((stxn) => ({
    stxn,
    txid: '',
    ad: emptyTxnApplyData(),
    appBudgetConsumed: 0,
    logicSigBudgetConsumed: 0,
    feesPaid: stxn.txn.fee,
  }));
  const out: GroupEvalResult = { txns: results, appBudgetAdded: 0, appBudgetConsumed: 0, groupUsage: 0n, groupFeesPaid: 0n };
  let current = 0;
  let evaluator: AvmGroupEvaluator | undefined;
  try {
    const n = group.length;
    if (n === 0) fail('group', 'empty txgroup');
    if (n > env.params.maxTxGroupSize) fail('group', `transaction group size ${n} exceeds protocol max ${env.params.maxTxGroupSize}`);
    const txns = group.map((s) => s.txn);
    // Each transaction's signed bytes: its id, and the message its signature is checked against.
    const messages = txns.map(bytesToSign);
    results.forEach((r, i) => (r.txid = toBase32(sha512_256(messages[i]!))));
    // Group membership.
    const anyGroup = txns.some((t) => t.group && !isAllZero(t.group));
    if (n > 1 || anyGroup) {
      const gid = computeGroupId(txns, env.params.txn);
      for (let i = 0; i < n; i++) {
        current = i;
        const g = txns[i]!.group;
        if (!g || isAllZero(g)) fail('group', `transactionGroup: [${i}] had zero Group but was submitted in a group of ${n}`);
        if (!bytesEqual(g, gid)) fail('group', `transactionGroup: incomplete group: ${toBase64(g)} != ${toBase64(gid)}`);
      }
    }
    const seen = new Set<string>();
    const groupLeases = new Set<string>();
    for (let i = 0; i < n; i++) {
      current = i;
      const txn = txns[i]!;
      checkWellFormed(env, txn);
      const id = results[i]!.txid;
      if (seen.has(id) || env.txids.has(id)) fail('duplicate', `transaction already in ledger: ${id}`);
      seen.add(id);
      if (txn.lease && !isAllZero(txn.lease)) {
        const lk = leaseKey(txn);
        const held = env.leases.get(lk);
        if ((held !== undefined && held >= env.round) || groupLeases.has(lk)) {
          fail('lease', `transaction ${id} using an overlapping lease (sender, lease):(${addr(txn.sender.publicKey)}, ${toBase64(txn.lease)})`);
        }
        groupLeases.add(lk);
      }
    }
    // Fees pool across the group (V42 usage-based minimum).
    current = 0;
    const usage = groupUsage(group, env.params.txn);
    out.groupUsage = usage;
    const need = requiredFee([...group], env.params.txn);
    let total = 0n;
    for (const t of txns) total += t.fee;
    if (total < need) {
      const whole = usage / 1_000_000n;
      const frac = (usage % 1_000_000n).toString().padStart(6, '0');
      fail(
        'fee',
        `txgroup with ${formatMicroAlgos(total)} fees is less than ${formatMicroAlgos(need)} (usage=${whole}.${frac} * base=${formatMicroAlgos(env.params.minTxnFee)})`,
      );
    }
    if (!opts.skipSignatures) {
      for (let i = 0; i < n; i++) {
        current = i;
        // A single signature this process made passes as it is (what the check would find), and is
        // not remembered: a test chain would otherwise hold a key for every transaction it sent.
        // An impersonated authorizer's signature is not checked: nothing about it is remembered.
        const s = group[i]!;
        if (madeHereAlone(s, messages[i]!)) continue;
        const key = env.verified && !isImpersonated(env, s) ? sigMaterialKey(results[i]!.txid, s) : undefined;
        if (key && env.verified!.has(key)) continue;
        verifySignature(env, group[i]!, i, opts, messages[i]!);
        if (key) env.verified!.add(key);
      }
    }
    const cx: ApplyContext = { state: st, feeSink: env.feeSink };
    const view = new StateView(
      st,
      cx,
      {
        round: env.round,
        latestTimestamp: env.latestTimestamp,
        genesisHash: env.genesisHash,
        payoutsEnabled: false,
        payoutsGoOnlineFee: 0n,
        payoutsPercent: 0n,
        payoutsMinBalance: 0n,
        payoutsMaxBalance: 0n,
      },
      env.headers,
    );
    const hasPrograms = group.some((s) => s.lsig || s.txn.type === 'appl');
    if (hasPrograms) {
      evaluator = new AvmGroupEvaluator(group, view, {
        maxVersion: env.params.maxAvmVersion,
        limits: env.params.avm,
        ...(opts.extraBudget ? { extraBudget: opts.extraBudget } : {}),
        ...(opts.allowMoreLogging ? { allowMoreLogging: true } : {}),
        ...(opts.allowUnnamedResources ? { allowUnnamedResources: true } : {}),
        ...(opts.trace ? { trace: opts.trace } : {}),
      });
      out.appBudgetAdded = evaluator.state.appBudgetAdded;
    }
    // Logic signatures run before anything is applied.
    for (let i = 0; i < n; i++) {
      const lsig = group[i]!.lsig;
      if (!lsig) continue;
      current = i;
      const r = evaluator!.evalLogicSig(i);
      const res = results[i]!;
      res.logicSigBudgetConsumed = r.cost;
      res.lsigProgram = lsig.program;
      if (r.trace) res.lsigTrace = r.trace;
      if (r.error) fail('logic', r.error.message);
      if (!r.approved) fail('logic', 'rejected by logic');
    }
    // Apply in order.
    for (let i = 0; i < n; i++) {
      current = i;
      const stxn = group[i]!;
      const txn = stxn.txn;
      const res = results[i]!;
      st.txnTouched.clear();
      const expected = st.get(txn.sender.publicKey)?.authAddr ?? txn.sender.publicKey;
      const actual = actualAuthorizer(stxn);
      if (!bytesEqual(expected, actual)) {
        const unsigned = !(stxn.sig && !isAllZero(stxn.sig)) && !stxn.msig && !stxn.lsig;
        if (unsigned && opts.fixSigners) res.fixedSigner = expected;
        else fail('signature', `should have been authorized by ${addr(expected)} but was actually authorized by ${addr(actual)}`);
      } else if (opts.fixSigners && stxn.authAddress && !bytesEqual(stxn.authAddress.publicKey, expected)) {
        res.fixedSigner = expected;
      }
      const effects = applyTransaction(cx, txn);
      if (txn.type === 'appl') {
        runApp(env, cx, view, evaluator!, i, res, effects.createdAppId, out);
      } else {
        res.ad = { ...emptyTxnApplyData(), ...effects };
      }
      res.feesPaid = txn.fee + sumInnerFees(res.ad);
      checkMinBalances(env);
      env.txids.set(res.txid, txn.lastValid);
      if (txn.lease && !isAllZero(txn.lease)) env.leases.set(leaseKey(txn), txn.lastValid);
    }
    out.appBudgetAdded = evaluator ? evaluator.state.appBudgetAdded : 0;
    out.appBudgetConsumed = results.reduce((s, r) => s + r.appBudgetConsumed, 0);
    out.groupFeesPaid = results.reduce((s, r) => s + r.feesPaid, 0n);
  } catch (e) {
    out.appBudgetAdded = evaluator ? evaluator.state.appBudgetAdded : 0;
    out.appBudgetConsumed = results.reduce((s, r) => s + r.appBudgetConsumed, 0);
    const id = results[current]?.txid || undefined;
    if (e instanceof Fail) out.failure = new LedgerRejection(e.kind, e.message, e.path ?? [current], id);
    else if (e instanceof ApplyError) out.failure = new LedgerRejection(e.kind, e.message, [current], id);
    else if (e instanceof LogicError) out.failure = new LedgerRejection('logic', e.message, e.groupPath, id, { cause: e });
    else if (e instanceof TealworksError) out.failure = new LedgerRejection('malformed', e.message, [current], id, { cause: e });
    else throw e;
  }
  if (opts.allowUnnamedResources && evaluator) out.unnamed = evaluator.state.unnamed;
  return out;
}

function runApp(
  env: EvalEnv,
  cx: ApplyContext,
  view: StateView,
  ev: AvmGroupEvaluator,
  i: number,
  res: TxnEvalResult,
  createdAppId: bigint | undefined,
  out: GroupEvalResult,
): void {
  const st = env.state;
  const txn = res.stxn.txn;
  const call = txn.appCall!;
  const appId = createdAppId ?? call.appId;
  const clear = call.onComplete === OnComplete.ClearState;
  const extra = createdAppId !== undefined ? { createdAppId } : {};
  if (clear && !st.apps.has(appId)) {
    // The app is gone: clearing only drops the local state.
    finishAppCall(cx, txn, appId);
    res.ad = { ...emptyTxnApplyData(), ...extra };
    return;
  }
  const app = st.apps.get(appId);
  if (clear) res.clearProgram = app?.clearStateProgram;
  else res.approvalProgram = createdAppId !== undefined ? call.approvalProgram : app?.approvalProgram;
  const mark = st.checkpoint();
  const poolBefore = ev.state.appPool.v;
  const addedBefore = ev.state.appBudgetAdded;
  const r = ev.evalApp(i, createdAppId !== undefined ? { createdAppId } : {});
  res.appBudgetConsumed = ev.state.appBudgetAdded - addedBefore + (poolBefore - ev.state.appPool.v);
  out.appBudgetAdded = ev.state.appBudgetAdded;
  const avmAd = ev.state.ad[i]!;
  if (clear) {
    if (r.trace) res.clearTrace = r.trace;
    if (!r.approved) {
      // A failing ClearState program still clears; only its own changes are discarded.
      st.rollback(mark);
      avmAd.globalDelta.clear();
      avmAd.localDeltas.clear();
      avmAd.logs.length = 0;
      res.clearRolledBack = true;
      if (r.error) res.clearRollbackError = r.error.reason;
    } else {
      checkSchemas(cx, appId);
    }
    finishAppCall(cx, txn, appId);
    res.ad = fromAvmApplyData(avmAd, extra, view);
    return;
  }
  if (r.trace) res.approvalTrace = r.trace;
  res.ad = fromAvmApplyData(avmAd, extra, view);
  if (r.error) throw r.error;
  if (!r.approved) fail('logic', 'transaction rejected by ApprovalProgram');
  checkSchemas(cx, appId);
  finishAppCall(cx, txn, appId);
}

/** After each top-level transaction: empty accounts vanish, every other touched one must hold its minimum. */
function checkMinBalances(env: EvalEnv): void {
  const st = env.state;
  const sink = toHex(env.feeSink);
  const pool = toHex(env.rewardsPool);
  for (const k of st.txnTouched) {
    if (k === sink || k === pool) continue;
    const a = st.accounts.get(k);
    if (!a) continue;
    if (isEmptyAccount(a)) {
      st.deleteAccount(k);
      continue;
    }
    const min = st.minBalanceOf(a);
    if (a.balance < min) {
      fail('below-min', `account ${encodeAddress(fromHex(k))} balance ${a.balance} below min ${min} (${a.holdings.size} assets)`);
    }
  }
}
