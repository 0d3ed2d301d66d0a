import type { Transaction, TransactionType } from '../txn/types.js';
import { txidBytes } from '../txn/encode.js';
import { CONSENSUS_V42, type ConsensusLimits } from '../txn/limits.js';
import type { LedgerView, TealValue } from './ledger-view.js';
import type { FieldSpec, VersionedOp } from '../teal/spec/opcodes.js';
import type { RunMode } from './errors.js';
import type { StackValue } from './value.js';
import type { TraceOptions, TraceRecorder } from './trace.js';

export type Handler = (cx: EvalContext, ins: Instr) => void;

/** One decoded instruction. Immediates are parsed once, so executing never re-reads the bytes. */
export interface Instr {
  pc: number;
  /** pc of the following instruction. */
  next: number;
  name: string;
  op: VersionedOp;
  fn: Handler;
  /** Fixed cost, or -1 when it depends on the stack (computed by `costOf`). */
  cost: number;
  nargs: number;
  argKinds: readonly number[];
  /** Whether any result may be a byte string (those are checked against the 4096-byte limit). */
  checkResult: boolean;
  nreturns: number;
  /** Raw integer immediates (uint8, int8, varuint), in order. */
  imm: number[];
  bigImm?: number | bigint;
  bytes?: Uint8Array;
  uints?: (number | bigint)[];
  bytesList?: Uint8Array[];
  target?: number;
  targets?: number[];
  field?: FieldSpec;
  /** Handler-specific data prepared once at decode time. */
  data?: unknown;
  /** What a trace reports it pops when that does not depend on the stack, else -1 (see `tracePops`). */
  tracePops: number;
  /** Whether it may write or delete app state (a trace records the change; see `stateIntent`). */
  writesState: boolean;
}

export interface CompiledProgram {
  bytes: Uint8Array;
  version: number;
  mode: RunMode;
  /** Indexed by pc; undefined between instruction starts. */
  code: (Instr | undefined)[];
  /** First instruction pc (after the version varint). */
  start: number;
  /** Sum of fixed costs, as the v1–v3 static check counts them. */
  staticCost: number;
}

/** An inner transaction under construction: every settable field, whatever the type turns out to be. */
export interface InnerDraft {
  type?: TransactionType;
  sender: Uint8Array;
  fee: bigint;
  firstValid: bigint;
  lastValid: bigint;
  note?: Uint8Array;
  rekeyTo?: Uint8Array;
  receiver?: Uint8Array;
  amount: bigint;
  closeRemainderTo?: Uint8Array;
  votePK?: Uint8Array;
  selectionPK?: Uint8Array;
  stateProofPK?: Uint8Array;
  voteFirst: bigint;
  voteLast: bigint;
  voteKeyDilution: bigint;
  nonparticipation: boolean;
  xferAsset: bigint;
  assetAmount: bigint;
  assetSender?: Uint8Array;
  assetReceiver?: Uint8Array;
  assetCloseTo?: Uint8Array;
  configAsset: bigint;
  total: bigint;
  decimals: bigint;
  defaultFrozen: boolean;
  unitName?: Uint8Array;
  assetName?: Uint8Array;
  url?: Uint8Array;
  metadataHash?: Uint8Array;
  manager?: Uint8Array;
  reserve?: Uint8Array;
  freeze?: Uint8Array;
  clawback?: Uint8Array;
  freezeAsset: bigint;
  freezeAccount?: Uint8Array;
  frozen: boolean;
  appId: bigint;
  onComplete: number;
  rejectVersion: bigint;
  args: Uint8Array[];
  accounts: Uint8Array[];
  approval?: Uint8Array;
  clear?: Uint8Array;
  assets: bigint[];
  apps: bigint[];
  globalNumUint: number;
  globalNumByteSlice: number;
  localNumUint: number;
  localNumByteSlice: number;
  extraPages: number;
}

/** A change to one state key, as EvalDelta records it: set (bytes or uint) or delete. */
export interface ValueDelta {
  action: 'set' | 'delete';
  value?: TealValue;
}

/** What executing one transaction produced, beyond balance changes (the node's ApplyData). */
export interface ApplyData {
  logs: Uint8Array[];
  createdAssetId?: bigint;
  createdAppId?: bigint;
  closingAmount?: bigint;
  innerTxns: InnerTxnResult[];
  /** Keys are hex of the state key. */
  globalDelta: Map<string, { key: Uint8Array; delta: ValueDelta }>;
  /** Keyed by hex account address, then hex key. */
  localDeltas: Map<string, { address: Uint8Array; keys: Map<string, { key: Uint8Array; delta: ValueDelta }> }>;
  /** Final scratch space of the program that ran for this transaction (for gload/gloads). */
  scratch?: StackValue[];
}

/** An inner transaction an app issued, with its apply data and nested inner transactions. */
export interface InnerTxnResult {
  txn: Transaction;
  txid: Uint8Array;
  ad: ApplyData;
}

export function emptyApplyData(): ApplyData {
  return { logs: [], innerTxns: [], globalDelta: new Map(), localDeltas: new Map() };
}

/** Numbers the node's consensus parameters fix; overridable for tests and future versions. */
export interface AvmLimits {
  maxAppProgramCost: number;
  logicSigMaxCost: number;
  maxLogCalls: number;
  maxLogSize: number;
  maxInnerTransactions: number;
  maxTxGroupSize: number;
  maxAppCallDepth: number;
  minTxnFee: bigint;
  minBalance: bigint;
  maxTxnLife: bigint;
  bytesPerBoxReference: number;
  maxBoxSize: number;
  maxAppKeyLen: number;
  maxAppBytesValueLen: number;
  maxAppSumKeyValueLens: number;
  maxAppArgs: number;
  maxAppTotalArgLen: number;
  maxAppTxnForeignAccounts: number;
  maxAppTxnForeignAssets: number;
  maxAppTxnForeignApps: number;
  maxAppTotalTxnReferences: number;
  maxAppProgramLen: number;
  maxExtraAppProgramPages: number;
  maxTxnNoteBytes: number;
  assetCreateMinBalance: bigint;
  assetOptInMinBalance: bigint;
  /**
   * The consensus parameters these limits were derived from (`avmLimitsFor`): per-byte fee rules,
   * asset and schema limits of inner transactions, the low-resource rule, the protocol's AVM
   * version. V42 by default.
   */
  txnLimits: ConsensusLimits;
}

/**
 * The interpreter's limits for one protocol, every number read from that protocol's consensus
 * parameters: the note, argument and program-page ceilings are the absolute ones (V42: 4096 /
 * 16384 / 7 extra pages), as the node applies them to inner transactions.
 */
export function avmLimitsFor(c: ConsensusLimits): AvmLimits {
  return {
    maxAppProgramCost: c.maxAppProgramCost,
    logicSigMaxCost: c.logicSigMaxCost,
    maxLogCalls: c.maxLogCalls,
    maxLogSize: c.maxLogSize,
    maxInnerTransactions: c.maxInnerTransactions,
    maxTxGroupSize: c.maxTxGroupSize,
    maxAppCallDepth: c.maxAppCallDepth,
    minTxnFee: c.minTxnFee,
    minBalance: c.minBalance,
    maxTxnLife: BigInt(c.maxTxnLife),
    bytesPerBoxReference: c.bytesPerBoxReference,
    maxBoxSize: c.maxBoxSize,
    maxAppKeyLen: c.maxAppKeyLen,
    maxAppBytesValueLen: c.maxAppBytesValueLen,
    maxAppSumKeyValueLens: c.maxAppSumKeyValueLens,
    maxAppArgs: c.maxAppArgs,
    maxAppTotalArgLen: c.maxAbsoluteAppTotalArgLen,
    maxAppTxnForeignAccounts: c.maxAppTxnAccounts,
    maxAppTxnForeignAssets: c.maxAppTxnForeignAssets,
    maxAppTxnForeignApps: c.maxAppTxnForeignApps,
    maxAppTotalTxnReferences: c.maxAppTotalTxnReferences,
    maxAppProgramLen: c.programPageSize,
    maxExtraAppProgramPages: c.maxAbsoluteExtraProgramPages,
    maxTxnNoteBytes: c.maxAbsoluteNoteBytes,
    assetCreateMinBalance: c.minBalance,
    assetOptInMinBalance: c.minBalance,
    txnLimits: c,
  };
}

/** The current protocol's (V42) interpreter limits: the same numbers the ledger and devnet use (public name `DEFAULT_AVM_LIMITS`). */
export const DEFAULT_LIMITS: AvmLimits = Object.freeze(avmLimitsFor(CONSENSUS_V42));

/** A mutable number shared by every program of a group (pooled budgets). */
export interface Pool {
  v: number;
}

/** A subroutine frame (callsub/proto). */
export interface Frame {
  retPc: number;
  height: number;
  clear: boolean;
  args: number;
  returns: number;
}

/** Resources a group may touch (foreign arrays, access lists, v9 sharing). */
export interface Availability {
  accounts: Set<string>;
  assets: Set<bigint>;
  apps: Set<bigint>;
  holdings: Set<string>;
  locals: Set<string>;
  boxes: Set<string>;
  /** Apps created in this group (their accounts and boxes become available). */
  createdApps: Set<bigint>;
  createdAssets: Set<bigint>;
}

/** Resources reached only because simulate's `allow-unnamed-resources` was on. */
export interface UnnamedResources {
  accounts: Map<string, Uint8Array>;
  assets: Set<bigint>;
  apps: Set<bigint>;
  /** `newApp`: the box belongs to an app created in the group, so it cannot be named ahead of time. */
  boxes: Map<string, { app: bigint; name: Uint8Array; newApp?: boolean }>;
  holdings: Map<string, { account: Uint8Array; asset: bigint }>;
  locals: Map<string, { account: Uint8Array; app: bigint }>;
  /** Empty box references needed beyond the named ones (I/O budget, boxes of apps created in the group). */
  extraBoxRefs: number;
  /**
   * Group report only: per top-level transaction, what programs without group sharing (no v9+
   * frame on the stack) reached; those must be named by that transaction itself.
   */
  perTxn?: UnnamedResources[];
}

/** Decides and records unnamed access under simulate's `allow-unnamed-resources` (see unnamed.ts). */
export interface UnnamedAccessPolicy {
  /** Top-level transaction being evaluated. */
  rootIndex: number;
  beginProgram(version: number, callerVersions: Iterable<number>): void;
  availableAccount(addr: Uint8Array): boolean;
  availableAsset(id: bigint): boolean;
  availableApp(id: bigint): boolean;
  allowsHolding(account: Uint8Array, asset: bigint): boolean;
  allowsLocal(account: Uint8Array, app: bigint): boolean;
  availableBox(app: bigint, name: Uint8Array, newApp: boolean): boolean;
  ioSurplus(amount: number): boolean;
  reconcileWriteBudget(dirtyBytes: number): boolean;
  maxPossibleIOBudget(): number;
}

/** State shared by all programs evaluated for one top-level group. */
export interface GroupState {
  txns: Transaction[];
  ad: ApplyData[];
  lsigArgs: (Uint8Array[] | undefined)[];
  ledger: LedgerView;
  limits: AvmLimits;
  maxVersion: number;
  minVersion: number;
  appPool: Pool;
  lsigPool: Pool;
  appBudgetAdded: number;
  innersLeft: Pool;
  feeCredit: bigint;
  /** Fraction of a microAlgo (over 1e12) already paid by earlier fee round-ups in this group tree. */
  feeResidue: bigint;
  ioBudget: number;
  dirtyBytes: number;
  /** Boxes whose size already counts in dirtyBytes. */
  dirtyBoxes: Set<string>;
  available: Availability;
  txids: (Uint8Array | undefined)[];
  maxLogCalls: number;
  maxLogSize: number;
  allowUnnamedResources: boolean;
  /** What unnamed access reached (reported by simulate); empty unless allowed. */
  unnamed: UnnamedResources;
  /** Present only when unnamed access is allowed. */
  unnamedPolicy: UnnamedAccessPolicy | undefined;
  /** Empty box references not yet spent letting an app created in the group reach a box. */
  emptyBoxRefsLeft: number;
  traceEnabled: boolean;
  traceOptions: TraceOptions;
  /** Set once any app program has begun: the read-budget check happens at the first one. */
  readBudgetChecked: boolean;
}

export type { TraceOptions };

const GENERIC_SEED = new Uint8Array(0);
function genericArray(zeros: number): StackValue[] {
  const a: StackValue[] = [GENERIC_SEED];
  a.length = 0;
  for (let i = 0; i < zeros; i++) a.push(0);
  return a;
}

/** The running state of one program. */
export class EvalContext {
  // Both arrays start in V8's generic elements kind (they will hold bytes too): an array that
  // begins as small-integers-only is transitioned on the first byte string, and handlers
  // optimised for one kind deoptimise for the other, which costs far more than the op itself.
  stack: StackValue[] = genericArray(0);
  sp = 0;
  scratch: StackValue[] = genericArray(256);
  intc: (number | bigint)[] = [];
  bytec: Uint8Array[] = [];
  pc = 0;
  nextPc = 0;
  frames: Frame[] = [];
  /** Set by callsub when it lands on a proto (which requires arriving that way). */
  fromCallsub = false;
  cost = 0;
  logSize = 0;
  /** Inner transactions being assembled between itxn_begin and itxn_submit. */
  innerDrafts: InnerDraft[] | undefined;
  /** The most recently submitted inner group (itxn/gitxn read it). */
  lastInnerGroup: InnerTxnResult[] = [];
  trace: TraceRecorder | undefined;
  /** This frame (or a same-creator callee it delegated to) read or wrote a family-shared box. */
  touchedFamilyShared = false;
  /** The family re-entrancy walk passed once; its answer cannot change while ancestors are suspended. */
  familyReentrancyChecked = false;
  readonly version: number;
  readonly mode: RunMode;
  readonly pool: Pool;
  readonly ledger: LedgerView;
  readonly txn: Transaction;
  readonly ad: ApplyData;

  constructor(
    readonly program: CompiledProgram,
    readonly group: GroupState,
    readonly groupIndex: number,
    /** For inner app calls, the inner group being executed; for top level, the group's txns. */
    readonly txnGroup: Transaction[],
    readonly adGroup: ApplyData[],
    readonly appId: bigint,
    readonly path: readonly number[],
    readonly caller: EvalContext | undefined,
    readonly clearState: boolean,
    readonly lsigArgs: Uint8Array[] | undefined,
  ) {
    this.version = program.version;
    this.mode = program.mode;
    this.pool = program.mode === 'app' ? group.appPool : group.lsigPool;
    this.ledger = group.ledger;
    this.txn = txnGroup[groupIndex]!;
    this.ad = adGroup[groupIndex]!;
  }

  /** Transaction ids of `txnGroup`, computed on first use (inner groups supply theirs). */
  txids: (Uint8Array | undefined)[] = [];

  txidOf(i: number): Uint8Array {
    let id = this.txids[i];
    if (!id) this.txids[i] = id = txidBytes(this.txnGroup[i]!);
    return id;
  }

  get depth(): number {
    let d = 0;
    for (let c = this.caller; c; c = c.caller) d++;
    return d;
  }

  remainingBudget(): number {
    if (this.clearState) return this.group.limits.maxAppProgramCost - this.cost;
    return this.pool.v;
  }

  push(v: StackValue): void {
    this.stack[this.sp++] = v;
  }

  pop(): StackValue {
    return this.stack[--this.sp]!;
  }
}
