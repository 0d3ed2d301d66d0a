import { Address, addressBytes, type AddressLike } from '../encoding/address.js';
import { concatBytes, utf8 } from '../encoding/bytes.js';
import { toHex, fromHex } from '../encoding/hex.js';
import { toBase64 } from '../encoding/base64.js';
import { stateKeyCounts } from './apply.js';
import { encodeMsgpack, decodeMsgpack, toUint64, type MsgpackValue } from '../encoding/msgpack.js';
import { sha512, sha512_256 } from '../crypto/hash.js';
import { decodeSignedTransactions, encodeSignedTransaction } from '../txn/encode.js';
import type { SignedTransaction } from '../txn/types.js';
import type { BlockHeaderRecord } from '../avm/ledger-view.js';
import {
  headerHash,
  headerHash512,
  headerHashInput,
  txnCommitmentFor,
  HEADER_SCHEME_CURRENT,
  type HeaderScheme,
  decodeBlock,
  encodeBlock,
  type Block,
  type BlockHeader,
  type ConfirmedTxn,
} from './block.js';
import { evaluateGroup, preverifySignatures, VerifiedCache, type EvalEnv, type EvalOptions, type GroupEvalResult } from './eval.js';
import { ForkStateMissing, LedgerDamageError, LedgerNotFoundError, LedgerRejection, LedgerStoreError, LedgerWriteError } from './errors.js';
import {
  CONSENSUS_CURRENT,
  CONSENSUS_PARAMS_V41,
  CONSENSUS_PARAMS_V42,
  DEFAULT_FEE_SINK,
  DEFAULT_GENESIS_ID,
  DEFAULT_REWARDS_POOL,
  type ConsensusParams,
} from './params.js';
import type { TealValue } from '../avm/ledger-view.js';
import { ValidationError } from '../errors.js';
import {
  LedgerState,
  emptyTouchSet,
  isEmptyAccount,
  type Participation,
  type AccountData,
  type AppData,
  type AssetData,
  type KeyValue,
  type TouchSet,
} from './state.js';
import { stateFromWire, stateHash, stateToWire, encodeSnapshot, decodeSnapshot } from './snapshot.js';
import { buildRoundDelta, stateDeltaObject, type RoundDelta } from './delta.js';
import { RoundOverlay, RoundWindow } from './window.js';
import type { ForkState } from './fork.js';
import { BlockList } from './block-list.js';
import { lazyBlock } from './lazy-block.js';

const MAX_UINT64 = (1n << 64n) - 1n;

/** An account funded at genesis: address and amount. */
export interface GenesisAccount {
  address: AddressLike;
  amount: bigint;
  /**
   * Online (participating) from genesis, as LocalNet's funded accounts are: status `Online` with
   * participation keys derived from the address (see `genesisParticipation`). Default offline.
   */
  online?: boolean;
}

/** Participation rounds of an online genesis account (LocalNet's network template's window). */
const GENESIS_VOTE_LAST = 3_000_000n;
const GENESIS_KEY_DILUTION = 10_000n;

/**
 * The participation record of an online genesis account: keys derived from its address (so a
 * follower rebuilds the same state from `/genesis`), valid from round 0 to 3,000,000, dilution 10,000.
 */
export function genesisParticipation(address: Uint8Array): Participation {
  const derive = (label: string) => sha512_256(new Uint8Array([...utf8(`tealworks genesis ${label}`), ...address]));
  return {
    voteKey: derive('vote'),
    selectionKey: derive('selection'),
    stateProofKey: sha512(new Uint8Array([...utf8('tealworks genesis state proof'), ...address])),
    voteFirst: 0n,
    voteLast: GENESIS_VOTE_LAST,
    voteKeyDilution: GENESIS_KEY_DILUTION,
  };
}

/** An account's `state` in the node's genesis document: balance, and for online accounts status and keys. */
export interface GenesisAllocState {
  algo: bigint;
  onl?: number;
  vote?: string;
  sel?: string;
  stprf?: string;
  voteFst?: bigint;
  voteLst?: bigint;
  voteKD?: bigint;
}

/** The genesis-document fields of an online genesis account (`onl: 1` and its participation). */
export function genesisParticipationState(address: Uint8Array): Omit<GenesisAllocState, 'algo'> {
  const p = genesisParticipation(address);
  return {
    onl: 1,
    vote: toBase64(p.voteKey!),
    sel: toBase64(p.selectionKey!),
    stprf: toBase64(p.stateProofKey!),
    voteFst: p.voteFirst,
    voteLst: p.voteLast,
    voteKD: p.voteKeyDilution,
  };
}

type GenesisAlloc = [address: Uint8Array, amount: bigint, online?: boolean];

/** Durable storage for a ledger (see `FileLedgerStore` in `persistence.ts`; absent = in memory). */
export interface LedgerStore {
  readSnapshot(): Uint8Array | undefined;
  /** Every complete journal record in order; a torn last record is dropped. */
  readJournal(): Uint8Array[];
  /** Appends one record and returns only once it is durable. */
  append(record: Uint8Array): void;
  /** Replaces the snapshot atomically. */
  writeSnapshot(bytes: Uint8Array): void;
  /** Deletes everything (reset). */
  clear(): void;
  close?(): void;
  /** True when the store was opened to recover a damaged data directory (see `FileLedgerStore`). */
  readonly recover?: boolean;
  /** Moves journal record `index` and everything after it aside (recovery); never deletes. */
  setAsideFrom?(index: number, reason: string): void;
  /** Moves the snapshot aside (recovery), so the state is rebuilt from the journal; never deletes. */
  setSnapshotAside?(reason: string): void;
}

/** A ledger's genesis accounts, store, consensus parameters and genesis id. */
export interface LedgerConfig {
  /**
   * @internal How a NEW chain makes its headers (default `HEADER_SCHEME_CURRENT`); a chain in a
   * data directory always keeps the scheme it was written with. Scheme 1 reproduces chains
   * written before `prev512`/`txn512` (tests of opening them).
   */
  headerScheme?: HeaderScheme;
  genesisId?: string;
  genesisAccounts?: readonly GenesisAccount[];
  feeSink?: AddressLike;
  rewardsPool?: AddressLike;
  /** Balance given to the fee sink and the rewards pool at genesis (default 1 Algo… enough for their minimum). */
  specialAccountBalance?: bigint;
  params?: ConsensusParams;
  /** Genesis block timestamp in seconds (default: the clock at creation). */
  genesisTimestamp?: bigint;
  /** Seconds since the epoch (default: `Date.now()`). Injected for deterministic tests. */
  clock?: () => bigint;
  /** Value of the transaction counter at genesis; the first created asset/app gets this + 1. */
  initialTxnCounter?: bigint;
  store?: LedgerStore;
  /** Write a snapshot every this many rounds (default 256; 0 = only on close). */
  snapshotInterval?: number;
  /** Per-round deltas kept for `delta(round)` (the node's MaxAcctLookback window; default 64). */
  deltaWindow?: number;
  /**
   * Fork a live network: the chain takes the remote's genesis id and hash, begins after the
   * remote's round at fork time, and copies state from it on first read (see `ForkState`). Genesis
   * accounts are local accounts funded on top. A fork keeps no state snapshot: a restart replays
   * its journal over the fork cache.
   */
  fork?: ForkState;
}

/** What the ledger committed for a group: the round and transaction ids (public name `LedgerSubmitResult`). */
export interface SubmitResult {
  round: bigint;
  txids: string[];
}

/** Emitted after each block commits: the block (txns with ApplyData) and its state delta. */
export interface BlockEvent {
  block: Block;
  delta: RoundDelta;
}

/** Receives each committed block with its state delta. */
export type BlockListener = (event: BlockEvent) => void;

const JOURNAL_VERSION = 1;
/**
 * Version of cheat records (see `CheatRecord`). Genesis and block records stay at version 1, so a
 * data directory written before cheats were journaled reads exactly as before.
 */
const CHEAT_RECORD_VERSION = 2;
const SNAPSHOT_VERSION = 1;

/** Deterministic genesis hash over everything that defines the chain's starting point. */
function genesisHashOf(id: string, proto: string, accounts: readonly GenesisAlloc[], sink: Uint8Array, pool: Uint8Array, ts: bigint, tc: bigint): Uint8Array {
  // An online account adds a third element, so offline-only chains keep their earlier hash.
  const w: MsgpackValue = {
    alloc: accounts.map(([a, amt, online]) => (online ? [a, amt, 1] : [a, amt])),
    fees: sink,
    id,
    network: 'tealworks-devnet',
    proto,
    rwd: pool,
    tc,
    timestamp: ts,
  };
  return sha512_256(new Uint8Array([...utf8('GE'), ...encodeMsgpack(w)]));
}

/**
 * The embedded devnet's ledger: applies transaction groups exactly as the chain's evaluator
 * does (in dev mode one block per group), answers simulate requests, serves reads, and
 * publishes a change feed of committed blocks. Portable: storage is injected.
 */
export class Ledger {
  readonly params: ConsensusParams;
  readonly genesisId: string;
  readonly genesisHash: Uint8Array;
  /** How this chain's block headers are made (see `HeaderScheme`): 1 for a chain written before `prev512`/`txn512`. */
  readonly headerScheme: HeaderScheme;
  readonly feeSink: Uint8Array;
  readonly rewardsPool: Uint8Array;
  readonly state: LedgerState;
  /** The live network this ledger forks, or undefined for a chain of its own. */
  readonly fork: ForkState | undefined;
  /** The round of the first block this ledger holds (0; a fork: the remote's round at fork time). */
  readonly firstRound: bigint;
  private readonly blocks = new BlockList();
  private readonly txIndex = new Map<string, { round: bigint; intra: number }>();
  /** The header of the block this ledger committed last and the bytes its hashes are taken over (used only while it is still the latest block). */
  #lastHeader: { header: BlockHeader; input: Uint8Array } | undefined;
  /** Rounds loaded lazily (start-up replay) whose transactions are not in txIndex yet: indexed on the first lookup that misses. */
  private unindexed: bigint[] = [];
  private readonly txids = new RoundWindow();
  private readonly leases = new RoundWindow();
  private readonly deltas = new Map<bigint, RoundDelta>();
  private readonly verified = new VerifiedCache();
  private readonly listeners = new Set<BlockListener>();
  private readonly clock: () => bigint;
  private readonly store: LedgerStore | undefined;
  private readonly snapshotInterval: number;
  private readonly deltaWindow: number;
  private readonly config: LedgerConfig;
  private timestampOffset: bigint | undefined;
  private lastSnapshotRound = 0n;
  private snapshotRetryAt = 0n;
  /** The last snapshot write that failed (the journal still holds every round); cleared by a good one. */
  snapshotError: Error | undefined;
  /**
   * Bumped by every block and by every change the change feed does not carry (cheats, reverts,
   * resets): readers that cache what they read (the query index) compare it.
   */
  generation = 0;
  private readonly marks = new Map<number, ChainMark>();
  private nextMarkId = 1;
  /** How to undo chain-level changes (recent txids, leases, seeds, impersonations) while marks exist. */
  private readonly chainUndo: (() => void)[] = [];
  private readonly seedOverrides = new Map<bigint, Uint8Array>();
  private readonly impersonated = new Set<string>();
  /** Records in the journal (the genesis record included): what a snapshot states it covers. */
  private journalRecords = 0;
  /** Journal records the last snapshot written or read covers. */
  private snapshotRecords = 0;
  /** Set while cheat records are replayed: the cheats they repeat are not journaled again. */
  private replaying = false;

  constructor(config: LedgerConfig = {}) {
    this.config = config;
    this.store = config.store;
    // A data directory remembers how its headers were made (genesis record): a chain written
    // before scheme 2 keeps its protocol name and flat commitments, so its hashes still match.
    const journal = this.store?.readJournal();
    this.headerScheme = journal?.length ? genesisRecordScheme(journal[0]!) : (config.headerScheme ?? HEADER_SCHEME_CURRENT);
    const params = config.params ?? CONSENSUS_CURRENT;
    this.params = this.headerScheme === 1 ? { ...params, protocol: legacyProtocolName(params.protocol) } : params;
    const fork = config.fork;
    this.fork = fork;
    this.firstRound = fork ? fork.head.round : 0n;
    this.genesisId = fork ? fork.head.genesisId : (config.genesisId ?? DEFAULT_GENESIS_ID);
    this.feeSink = fork ? fork.head.feeSink : addressBytes(config.feeSink ?? DEFAULT_FEE_SINK);
    this.rewardsPool = fork ? fork.head.rewardsPool : addressBytes(config.rewardsPool ?? DEFAULT_REWARDS_POOL);
    this.clock = config.clock ?? (() => BigInt(Math.floor(Date.now() / 1000)));
    this.snapshotInterval = config.snapshotInterval ?? 256;
    this.deltaWindow = config.deltaWindow ?? 64;
    this.state = new LedgerState(this.params);
    fork?.attach(this.state);
    // A data directory remembers its genesis timestamp (first journal record), so a restart
    // without an explicit timestamp rebuilds the same chain.
    const stored = journal?.length ? genesisRecordTimestamp(journal[0]!) : undefined;
    const ts = fork ? fork.head.timestamp : (config.genesisTimestamp ?? stored ?? this.clock());
    const alloc = this.genesisAlloc();
    const tc = fork ? fork.head.txnCounter : (config.initialTxnCounter ?? 1000n);
    this.genesisHash = fork ? fork.head.genesisHash : genesisHashOf(this.genesisId, this.params.protocol, alloc, this.feeSink, this.rewardsPool, ts, tc);
    this.initGenesis(alloc, ts, tc);
    if (journal?.length) {
      const gh = genesisRecordHash(journal[0]!);
      if (gh === undefined) {
        throw new LedgerDamageError(
          'the first journal record is not a genesis record. Nothing was changed; restore the data directory from a backup, or move it away to start a new chain.',
          { file: 'journal.bin', offset: 0, round: 0n },
        );
      }
      const r0 = genesisRecordRound(journal[0]!);
      if (fork && r0 !== this.firstRound) {
        throw new LedgerStoreError(
          `the data directory holds a fork of ${fork.head.url} made at round ${r0}, but the fork cache is at round ${this.firstRound}. Nothing was changed. Start with --fork-refresh to fork afresh (it drops the local chain too).`,
        );
      }
      if (toHex(gh) !== toHex(this.genesisHash)) {
        throw new LedgerStoreError(
          `the data directory holds a different chain (its genesis hash is ${toHex(gh)}, this configuration's is ${toHex(this.genesisHash)}). Nothing was changed. Start with the genesis configuration it was created with; only --reset would start over, and that deletes the chain.`,
        );
      }
    }
    if (this.store) {
      if (journal!.length === 0) this.writeGenesisRecord();
      this.load(stored !== undefined ? journal!.slice(1) : journal!);
    }
  }

  private writeGenesisRecord(): void {
    const h = this.blocks.get(this.firstRound)!.header;
    this.journalRecords = 0;
    // The genesis record needs no snapshot: the state at genesis is rebuilt from the configuration.
    this.snapshotRecords = 1;
    this.appendRecord(
      encodeMsgpack({
        gh: this.genesisHash,
        ...(this.headerScheme >= 2 ? { hs: this.headerScheme } : {}),
        r: this.firstRound,
        t: h.timestamp,
        v: JOURNAL_VERSION,
      }),
    );
  }

  /** Genesis balances: the configured accounts, plus the fee sink and rewards pool (a fork has the remote's). */
  private genesisAlloc(): GenesisAlloc[] {
    const alloc: GenesisAlloc[] = (this.config.genesisAccounts ?? []).map((g) => [addressBytes(g.address), g.amount, g.online === true]);
    if (!this.fork) {
      const special = this.config.specialAccountBalance ?? this.params.minBalance;
      alloc.push([this.feeSink, special], [this.rewardsPool, special]);
    }
    return alloc;
  }

  private initGenesis(alloc: readonly GenesisAlloc[], ts: bigint, tc: bigint): void {
    const st = this.state;
    st.clear();
    // A fork's funded genesis accounts are local keys: never asked of the remote.
    if (this.fork) for (const [a] of alloc) st.accounts.claim(toHex(a));
    for (const [a, amt, online] of alloc) {
      st.setBalance(a, st.balanceOf(a) + amt);
      if (online) {
        st.setAccountField(a, 'status', 1);
        st.setAccountField(a, 'participation', genesisParticipation(a));
      }
    }
    st.txnCounter = tc;
    st.commit();
    st.touched = emptyTouchSet();
    const empty = txnCommitmentFor([], this.headerScheme);
    const header: BlockHeader = {
      round: this.firstRound,
      prev: new Uint8Array(32),
      seed: sha512_256(this.genesisHash),
      txnRoot: empty.root,
      txnRoot256: empty.root256,
      ...(empty.root512 ? { txnRoot512: empty.root512 } : {}),
      timestamp: ts,
      genesisId: this.genesisId,
      genesisHash: this.genesisHash,
      feeSink: this.feeSink,
      rewardsPool: this.rewardsPool,
      rewardsLevel: 0n,
      rewardsRate: 0n,
      rewardsResidue: 0n,
      rewardsRecalculationRound: 500000n,
      protocol: this.fork ? this.fork.head.protocol : this.params.protocol,
      txnCounter: tc,
      feesCollected: 0n,
    };
    this.blocks.clear();
    this.blocks.push({ header, txns: [], hash: headerHash(header) });
  }

  // ---- chain position -----------------------------------------------------------------------

  get latestRound(): bigint {
    return this.blocks.latestRound;
  }

  get latestBlock(): Block {
    return this.blocks.latest;
  }

  /** Dev-mode timestamp offset (seconds added to the previous block's timestamp); undefined = wall clock. */
  setTimestampOffset(seconds: bigint | undefined): void {
    this.timestampOffset = seconds;
  }

  getTimestampOffset(): bigint | undefined {
    return this.timestampOffset;
  }

  private nextTimestamp(): bigint {
    const prev = this.latestBlock.header.timestamp;
    if (this.timestampOffset !== undefined) return prev + this.timestampOffset;
    const now = this.clock();
    return now > prev ? now : prev;
  }

  private env(round: bigint, txids: RoundOverlay, leases: RoundOverlay): EvalEnv {
    return {
      state: this.state,
      params: this.params,
      genesisId: this.genesisId,
      genesisHash: this.genesisHash,
      feeSink: this.feeSink,
      rewardsPool: this.rewardsPool,
      round,
      latestTimestamp: this.latestBlock.header.timestamp,
      headers: { header: (r) => this.headerRecord(r) },
      txids,
      leases,
      verified: this.verified,
      impersonated: this.impersonated,
    };
  }

  private headerRecord(round: bigint): BlockHeaderRecord | undefined {
    const b = this.blocks.get(round);
    if (!b) return undefined;
    const h = b.header;
    return {
      seed: this.seedOverrides.get(round) ?? h.seed,
      timestamp: h.timestamp,
      proposer: new Uint8Array(32),
      feesCollected: h.feesCollected,
      bonus: 0n,
      branch: h.prev,
      feeSink: h.feeSink,
      protocol: utf8(h.protocol),
      txnCounter: h.txnCounter,
      proposerPayout: 0n,
      sha512_256TxnCommitment: h.txnRoot,
      sha256TxnCommitment: h.txnRoot256,
    };
  }

  // ---- submit ---------------------------------------------------------------------------------

  /**
   * Checks the group's single signatures ahead of its evaluation, in parallel where the platform
   * can (Node's native verifier runs on its worker pool), and remembers those that verify: the
   * `submit`, simulation or `dryEvaluate` that follows does not check them again. Changes no state
   * and decides nothing (a signature that fails is checked again, and refused, by the evaluation).
   * A service calls it before evaluating a signed group it was sent.
   */
  async preverify(group: readonly SignedTransaction[]): Promise<void> {
    await preverifySignatures(this.verified, group, this.impersonated);
  }

  /**
   * Applies one group (signed transactions or their raw concatenated encoding) in a new block.
   * Returns once the block is committed (journaled and fsync'd when a store is configured);
   * throws `LedgerRejection` and changes nothing if any transaction fails.
   */
  submit(group: readonly SignedTransaction[] | Uint8Array, options: Pick<EvalOptions, 'skipPqAddressCheck'> = {}): SubmitResult {
    const stxns = group instanceof Uint8Array ? decodeSignedTransactions(group) : [...group];
    const block = this.commitBlock([stxns], this.nextTimestamp(), options)!;
    return { round: block.header.round, txids: block.txns.map((t) => t.txid) };
  }

  /**
   * Builds one block from several groups (interval mode; the node service's pool decides what goes
   * in). Groups that fail are left out and reported; the others commit together. No groups make an
   * empty block.
   */
  produceBlock(groups: readonly (readonly SignedTransaction[])[]): { block: Block; rejected: { index: number; error: LedgerRejection }[] } {
    const list = groups.map((g) => [...g]);
    const rejected: { index: number; error: LedgerRejection }[] = [];
    const block = this.commitBlock(list, this.nextTimestamp(), {}, rejected)!;
    return { block, rejected };
  }

  /**
   * Evaluates one signed group as the next block and commits it only when it succeeds and `accept`
   * approves the evaluation; otherwise nothing changes. Either way the evaluation is returned, with
   * the ledger's latest round before it and, for each app-state key the group wrote, the value it
   * had before (`firstValues`, keyed by `firstValueKey`). A send that wants the evaluation's
   * details (traces, logs) and the commit gets both from one evaluation; `options` may ask for a
   * trace, never for simulate's relaxations (empty signatures, unnamed resources, more budget).
   */
  submitEvaluated(
    group: readonly SignedTransaction[],
    options: Pick<EvalOptions, 'trace'>,
    accept: (result: GroupEvalResult) => boolean,
  ): { result: GroupEvalResult; round: bigint; block: Block | undefined; firstValues: ReadonlyMap<string, bigint | Uint8Array | undefined> } {
    if (this.fork) throw new ValidationError('submitEvaluated: a fork evaluates a group again after fetching the state it missed; submit it instead');
    const st = this.state;
    const round = this.latestRound;
    const gate: CommitGate = { accept };
    const firstValues = new Map<string, bigint | Uint8Array | undefined>();
    st.firstValues = firstValues;
    try {
      const block = this.commitBlock([[...group]], this.nextTimestamp(), options.trace ? { trace: options.trace } : {}, undefined, undefined, gate);
      return { result: gate.result!, round, block, firstValues };
    } finally {
      st.firstValues = undefined;
    }
  }

  /** Commits the groups in one block; undefined only when `gate` refused its single group. */
  private commitBlock(
    groups: SignedTransaction[][],
    timestamp: bigint,
    options: EvalOptions,
    rejected?: { index: number; error: LedgerRejection }[],
    replay?: { expectedHash: Uint8Array; journal?: boolean },
    gate?: CommitGate,
  ): Block | undefined {
    const st = this.state;
    const round = this.latestRound + 1n;
    const blockTxids = new RoundOverlay(this.txids);
    const blockLeases = new RoundOverlay(this.leases);
    const txns: ConfirmedTxn[] = [];
    st.touched = emptyTouchSet();
    const blockMark = st.checkpoint();
    let fees = 0n;
    const acceptedGroups: SignedTransaction[][] = [];
    for (let gi = 0; gi < groups.length; gi++) {
      const group = groups[gi]!;
      const mark = st.checkpoint();
      const touchedBefore = groups.length > 1 ? cloneTouch(st.touched) : emptyTouchSet();
      const groupTxids = new RoundOverlay(blockTxids);
      const groupLeases = new RoundOverlay(blockLeases);
      const missesBefore = this.fork?.missCount;
      const evaluated = evaluateGroup(this.env(round, groupTxids, groupLeases), group, replay ? { ...options, skipSignatures: true } : options);
      // A fork's group that read state not fetched yet was evaluated on incomplete state: it is
      // rolled back and never committed (ForkState.run fetches what it missed and runs it again).
      const r = this.fork && this.fork.missCount !== missesBefore ? { ...evaluated, failure: new ForkStateMissing(this.fork.head.url) } : evaluated;
      if (gate) gate.result = r;
      if (r.failure || (gate && !gate.accept(r))) {
        st.rollback(mark);
        st.touched = touchedBefore;
        if (gate) {
          st.rollback(blockMark);
          st.touched = emptyTouchSet();
          return undefined;
        }
        if (!rejected) {
          st.rollback(blockMark);
          // Rejections are made without a stack: the one thrown gets the caller's.
          Error.captureStackTrace?.(r.failure!);
          throw r.failure;
        }
        rejected.push({ index: gi, error: r.failure! });
        continue;
      }
      for (const [k, v] of groupTxids.added) blockTxids.set(k, v);
      for (const [k, v] of groupLeases.added) blockLeases.set(k, v);
      acceptedGroups.push(group);
      for (const t of r.txns) {
        txns.push({ stxn: t.stxn, txid: t.txid, ad: t.ad, round, intra: txns.length });
        fees += t.feesPaid;
      }
    }
    const prev = this.latestBlock;
    const seed = sha512_256(concatBytes(prev.header.seed, u64(round)));
    // A chain without a journal works its block hashes out when first read (see lazyBlock).
    if (!this.store && !replay) {
      const block = lazyBlock(prev, { round, seed, timestamp, txnCounter: st.txnCounter, feesCollected: fees }, txns, this.headerScheme);
      this.#finishCommit(block, round, txns, blockTxids, blockLeases, undefined);
      return block;
    }
    const commit = txnCommitmentFor(txns, this.headerScheme);
    const header: BlockHeader = {
      ...prev.header,
      round,
      prev: prev.hash,
      seed,
      txnRoot: commit.root,
      txnRoot256: commit.root256,
      ...(this.headerScheme >= 2
        ? { prev512: this.#lastHeader?.header === prev.header ? sha512(this.#lastHeader.input) : headerHash512(prev.header), txnRoot512: commit.root512 }
        : {}),
      timestamp,
      txnCounter: st.txnCounter,
      feesCollected: fees,
    };
    const headerInput = headerHashInput(header);
    const block: Block = { header, txns, hash: sha512_256(headerInput) };
    if (replay && toHex(replay.expectedHash) !== toHex(block.hash)) {
      st.rollback(blockMark);
      throw new LedgerStoreError(
        `journal replay of round ${round} produced a different block (expected ${toHex(replay.expectedHash)}, got ${toHex(block.hash)})`,
      );
    }
    if (this.store && (!replay || replay.journal)) {
      const record = encodeMsgpack({
        b: encodeBlock(block),
        g: acceptedGroups.map((g) => g.map(encodeSignedTransaction)),
        h: block.hash,
        r: round,
        t: timestamp,
        v: JOURNAL_VERSION,
      });
      try {
        this.appendRecord(record);
      } catch (e) {
        st.rollback(blockMark);
        st.touched = emptyTouchSet();
        throw new LedgerWriteError(`round ${round} was not committed: ${(e as Error).message}`, (e as LedgerWriteError).code, { cause: e });
      }
    }
    // The next block names this header's SHA-512 hash (prev512): over the same bytes, kept.
    this.#finishCommit(block, round, txns, blockTxids, blockLeases, { header, input: headerInput }, replay);
    return block;
  }

  /** The commit of a built block: state, indexes, the round's delta, a due snapshot, listeners. */
  #finishCommit(
    block: Block,
    round: bigint,
    txns: ConfirmedTxn[],
    blockTxids: RoundOverlay,
    blockLeases: RoundOverlay,
    lastHeader: { header: BlockHeader; input: Uint8Array } | undefined,
    replay?: { expectedHash: Uint8Array; journal?: boolean },
  ): void {
    const st = this.state;
    st.commit();
    this.txids.merge(blockTxids);
    this.leases.merge(blockLeases);
    this.txids.expireBefore(round + 1n);
    this.leases.expireBefore(round + 1n);
    this.blocks.push(block);
    this.#lastHeader = lastHeader;
    for (const t of txns) this.txIndex.set(t.txid, { round, intra: t.intra });
    this.generation++;
    const delta = buildRoundDelta(st, this.supply(), block, st.touched);
    st.touched = emptyTouchSet();
    this.deltas.set(round, delta);
    this.committedAt = Date.now();
    const old = round - BigInt(this.deltaWindow);
    this.deltas.delete(old);
    if (
      (!replay || replay.journal) &&
      this.store &&
      this.snapshotInterval > 0 &&
      round - this.lastSnapshotRound >= BigInt(this.snapshotInterval) &&
      round >= this.snapshotRetryAt
    ) {
      // The block is already durable in the journal: a snapshot that cannot be written (full disk)
      // only means a longer replay on the next start, so it must not fail this submit.
      try {
        this.snapshot();
      } catch (e) {
        this.snapshotError = e as Error;
        this.snapshotRetryAt = round + BigInt(this.snapshotInterval);
      }
    }
    this.emit({ block, delta });
  }

  private appendRecord(record: Uint8Array): void {
    this.store!.append(record);
    this.journalRecords++;
  }

  /**
   * Journals a cheat (see `CheatRecord`) on a chain kept in a store, before its effect is kept:
   * a failed write throws `LedgerWriteError` and the caller undoes the cheat. Nothing to do in
   * memory, or while the journal itself is being replayed.
   */
  private journalCheat(kind: CheatKind, args: { [k: string]: MsgpackValue }): void {
    if (!this.store || this.replaying) return;
    const record: CheatRecord = { c: kind, r: this.latestRound, v: CHEAT_RECORD_VERSION, x: args };
    try {
      this.appendRecord(encodeMsgpack(record as unknown as MsgpackValue));
    } catch (e) {
      throw new LedgerWriteError(`the ${kind} cheat was not kept: ${(e as Error).message}`, (e as LedgerWriteError).code, { cause: e });
    }
  }

  private emit(event: BlockEvent): void {
    // The block is committed whatever a listener does; a failing listener must not undo that
    // for the submitter or starve the listeners after it.
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // Listeners own their errors.
      }
    }
  }

  // ---- snapshots (test chains) ------------------------------------------------------------------

  /**
   * Remembers the whole chain state (accounts, apps, boxes, assets, blocks, round, time, recent
   * txids and leases, cheats) and returns an id for {@link revertToMark}. While any mark exists the
   * ledger keeps how to undo each change, so reverting costs what changed since the mark, not the
   * size of the chain. Marks nest. Only for a ledger kept in memory (a journal cannot be rewound).
   */
  mark(): number {
    if (this.store)
      throw new LedgerStoreError(
        'snapshots need a chain kept in memory: this one journals every round to its data directory, which cannot be rewound. Start the devnet without a data directory (in memory) to use snapshot and revert.',
      );
    if (this.marks.size === 0) {
      this.state.commit();
      this.state.keepUndo = true;
      this.txids.undo = this.leases.undo = (fn) => this.chainUndo.push(fn);
    }
    const id = this.nextMarkId++;
    this.marks.set(id, {
      state: this.state.checkpoint(),
      chain: this.chainUndo.length,
      round: this.latestRound,
      deltas: new Map(this.deltas),
      timestampOffset: this.timestampOffset,
    });
    return id;
  }

  /**
   * Restores the chain exactly as it was when `mark()` returned `id`. The mark stays usable (revert
   * to it again later); marks taken after it are dropped.
   */
  revertToMark(id: number): void {
    const m = this.marks.get(id);
    if (!m) throw new LedgerNotFoundError(`no snapshot ${id}: it was never taken, was released, or was taken after a snapshot that has since been reverted to`);
    const st = this.state;
    st.rollback(m.state);
    st.touched = emptyTouchSet();
    st.txnTouched.clear();
    while (this.chainUndo.length > m.chain) this.chainUndo.pop()!();
    for (const b of this.blocks.truncate(m.round)) for (const t of b.txns) this.txIndex.delete(t.txid);
    this.deltas.clear();
    for (const [r, d] of m.deltas) this.deltas.set(r, d);
    this.timestampOffset = m.timestampOffset;
    for (const k of [...this.marks.keys()]) if (k > id) this.marks.delete(k);
    this.committedAt = Date.now();
    this.generation++;
  }

  /** Forgets a mark; once none is left the ledger stops keeping undo information. */
  releaseMark(id: number): void {
    if (!this.marks.delete(id))
      throw new LedgerNotFoundError(
        `no snapshot ${id}: it was never taken, was released already, or was taken after a snapshot that has since been reverted to; there is nothing to release`,
      );
    if (this.marks.size > 0) return;
    this.state.keepUndo = false;
    this.state.commit();
    this.chainUndo.length = 0;
    this.txids.undo = this.leases.undo = undefined;
  }

  /** Ids of the marks that can be reverted to, oldest first. */
  markIds(): number[] {
    return [...this.marks.keys()];
  }

  private logChain(undo: () => void): void {
    if (this.marks.size > 0) this.chainUndo.push(undo);
  }

  // ---- cheats (test chains; the devnet's /v1/devnet routes) -------------------------------------

  /**
   * Runs a cheat that changes state. On a fork, a cheat that read state not fetched yet is undone
   * and refused with `ForkStateMissing` (`ForkState.run` fetches what it missed and runs it again).
   */
  private stateCheat(kind: CheatKind, args: { [k: string]: MsgpackValue }, change: () => void): void {
    const st = this.state;
    const mark = st.checkpoint();
    const missesBefore = this.fork?.missCount;
    try {
      change();
    } catch (e) {
      st.rollback(mark);
      // "does not exist" may only mean "not fetched yet".
      if (this.fork && this.fork.missCount !== missesBefore) throw new ForkStateMissing(this.fork.head.url);
      throw e;
    }
    if (this.fork && this.fork.missCount !== missesBefore) {
      st.rollback(mark);
      throw new ForkStateMissing(this.fork.head.url);
    }
    try {
      this.journalCheat(kind, args);
    } catch (e) {
      st.rollback(mark);
      throw e;
    }
    this.afterCheat();
  }

  private afterCheat(): void {
    const st = this.state;
    st.commit();
    st.touched = emptyTouchSet();
    st.txnTouched.clear();
    this.generation++;
  }

  /**
   * Cheat: adds `n` empty rounds at once (no transaction per round). The skipped blocks are made up
   * on demand: empty, each `getTimestampOffset()` seconds (0 when unset) after the one before, and
   * pointing back at the last real block. Listeners get one event, for the new latest block.
   */
  advanceRounds(n: bigint): Block {
    if (n < 1n) throw new ValidationError(`advanceRounds needs a positive number of rounds, got ${n}`);
    if (this.latestRound + n >= 1n << 64n) throw new ValidationError(`advanceRounds by ${n} would pass the largest round (2^64 - 1)`);
    const step = this.timestampOffset ?? 0n;
    const now = this.latestBlock.header.timestamp;
    if (now + n * step > MAX_UINT64)
      throw new ValidationError(
        `advanceRounds by ${n} rounds, ${step} seconds apart, from timestamp ${now} would pass the largest timestamp (2^64 - 1); advance by less, or revert to a snapshot taken earlier`,
      );
    const before = this.latestRound;
    const block = this.warp(n, step);
    try {
      this.journalCheat('warp', { h: block.hash, n, s: step });
    } catch (e) {
      this.blocks.truncate(before);
      throw e;
    }
    return this.afterWarp(block);
  }

  /** Adds the made-up rounds of a warp (see {@link advanceRounds}) to the block list. */
  private warp(n: bigint, step: bigint): Block {
    const empty = txnCommitmentFor([], this.headerScheme);
    return this.blocks.warp(n, step, empty, this.headerScheme >= 2 ? (base) => headerHash512(base.header) : undefined);
  }

  private afterWarp(block: Block): Block {
    this.txids.expireBefore(block.header.round + 1n);
    this.leases.expireBefore(block.header.round + 1n);
    this.committedAt = Date.now();
    this.generation++;
    this.emit({ block, delta: buildRoundDelta(this.state, this.supply(), block, emptyTouchSet()) });
    return block;
  }

  /**
   * Cheat: commits one empty block stamped `timestamp` (seconds), so `global LatestTimestamp` reads it.
   * As on a real chain, time never goes back: a timestamp before the latest block's is refused
   * (revert to a snapshot to go back in time).
   */
  setTime(timestamp: bigint): Block {
    if (timestamp < 0n) throw new ValidationError(`a block timestamp cannot be negative, got ${timestamp}`);
    if (timestamp > MAX_UINT64) throw new ValidationError(`a block timestamp is a uint64 (at most 2^64 - 1 seconds), got ${timestamp}`);
    const latest = this.latestBlock.header;
    if (timestamp < latest.timestamp)
      throw new ValidationError(
        `setTime to ${timestamp} would move time back: the latest block (round ${latest.round}) is stamped ${latest.timestamp}, and a chain's timestamps never decrease. Give a timestamp of at least ${latest.timestamp}, or revert to a snapshot taken before that block.`,
      );
    return this.commitBlock([], timestamp, {})!;
  }

  /** Cheat: commits one empty block `seconds` after the latest one. */
  advanceTime(seconds: bigint): Block {
    if (seconds < 0n)
      throw new ValidationError(
        `advanceTime moves time forward only, got ${seconds} seconds (a chain's timestamps never decrease: to go back, revert to a snapshot taken earlier)`,
      );
    const now = this.latestBlock.header.timestamp;
    if (now + seconds > MAX_UINT64)
      throw new ValidationError(
        `advanceTime by ${seconds} seconds from timestamp ${now} would pass the largest timestamp (2^64 - 1); advance by less, or revert to a snapshot taken earlier`,
      );
    return this.setTime(now + seconds);
  }

  /** Cheat: transactions authorized by `address` are accepted without checking their signature (everything else is checked). */
  impersonate(address: AddressLike, on = true): void {
    const a = addressBytes(address);
    const k = toHex(a);
    const had = this.impersonated.has(k);
    this.journalCheat('impersonate', { a, o: on });
    if (on) this.impersonated.add(k);
    else this.impersonated.delete(k);
    this.logChain(() => (had ? this.impersonated.add(k) : this.impersonated.delete(k)));
    this.generation++;
  }

  /** Whether {@link impersonate} is on for `address`. */
  isImpersonated(address: AddressLike): boolean {
    return this.impersonated.has(toHex(addressBytes(address)));
  }

  /** Cheat: sets an account's balance (micro-units). */
  setBalance(address: AddressLike, amount: bigint): void {
    const a = addressBytes(address);
    this.stateCheat('balance', { a, m: amount }, () => {
      if (amount < 0n || amount >= 1n << 64n) throw new ValidationError(`a balance is a uint64, got ${amount}`);
      this.state.setBalance(a, amount);
      const acct = this.state.get(a);
      if (acct && isEmptyAccount(acct)) this.state.deleteAccount(toHex(a));
    });
  }

  /** Cheat: sets (or, with undefined, removes) an account's holding of an existing asset. */
  setAssetHolding(address: AddressLike, assetId: bigint, holding: { amount: bigint; frozen?: boolean } | undefined): void {
    const args = holding
      ? { a: addressBytes(address), f: holding.frozen ?? false, i: assetId, m: holding.amount }
      : { a: addressBytes(address), d: true, i: assetId };
    this.stateCheat('holding', args, () => {
      if (!this.state.assets.has(assetId))
        throw new LedgerNotFoundError(`asset ${assetId} does not exist; create it first (cheats change holdings, not assets)`);
      if (holding && (holding.amount < 0n || holding.amount >= 1n << 64n)) throw new ValidationError(`an asset amount is a uint64, got ${holding.amount}`);
      this.state.setHolding(addressBytes(address), assetId, holding ? { amount: holding.amount, frozen: holding.frozen ?? false } : undefined);
    });
  }

  /** Cheat: sets (or, with undefined, deletes) one global state key of an existing app. */
  setGlobal(appId: bigint, key: Uint8Array, value: TealValue | undefined): void {
    this.stateCheat('global', { i: appId, k: key, ...tealValueArgs(value) }, () => {
      const app = this.state.apps.get(appId);
      if (!app) throw new LedgerNotFoundError(`app ${appId} does not exist`);
      this.checkKeyValue(key, value);
      // A journal written before this check was made is replayed as it was kept.
      if (!this.replaying) checkSchemaRoom(app.global, key, value, app.globalNumUint, app.globalNumByteSlice, `app ${appId}'s global state`);
      this.state.setGlobal(appId, key, value);
    });
  }

  /** Cheat: sets (or deletes) one local state key of an account opted in to an app. */
  setLocal(address: AddressLike, appId: bigint, key: Uint8Array, value: TealValue | undefined): void {
    const a = addressBytes(address);
    this.stateCheat('local', { a, i: appId, k: key, ...tealValueArgs(value) }, () => {
      const kv = this.state.get(a)?.locals.get(appId);
      if (!kv) throw new LedgerNotFoundError(`account ${new Address(a).toString()} is not opted in to app ${appId}; opt it in first`);
      this.checkKeyValue(key, value);
      const app = this.state.apps.get(appId);
      if (app && !this.replaying)
        checkSchemaRoom(kv, key, value, app.localNumUint, app.localNumByteSlice, `the local state of ${new Address(a).toString()} in app ${appId}`);
      this.state.setLocal(a, appId, key, value);
    });
  }

  /** Cheat: writes (or, with undefined, deletes) a box of an existing app; the app account's box totals follow. */
  setBox(appId: bigint, name: Uint8Array, value: Uint8Array | undefined): void {
    this.stateCheat('box', { i: appId, k: name, ...(value ? { b: value } : { d: true }) }, () => {
      if (!this.state.apps.has(appId)) throw new LedgerNotFoundError(`app ${appId} does not exist`);
      if (name.length < 1 || name.length > this.params.avm.maxAppKeyLen)
        throw new ValidationError(`a box name is 1 to ${this.params.avm.maxAppKeyLen} bytes, got ${name.length}`);
      if (value && value.length > this.params.maxBoxSize) throw new ValidationError(`a box holds at most ${this.params.maxBoxSize} bytes, got ${value.length}`);
      if (value) this.state.putBox(appId, name, value);
      else this.state.deleteBox(appId, name);
    });
  }

  /** Cheat: the seed `block BlkSeed` reads for `round` (default the latest round); undefined restores the real one. */
  setBlockSeed(seed: Uint8Array | undefined, round: bigint = this.latestRound): void {
    if (seed !== undefined && !(seed instanceof Uint8Array)) throw new ValidationError(`a block seed is 32 bytes (a Uint8Array), got ${typeof seed}`);
    if (seed && seed.length !== 32) throw new ValidationError(`a block seed is 32 bytes, got ${seed.length}`);
    if (!this.blocks.get(round)) throw new LedgerNotFoundError(`ledger does not have entry ${round} (latest round ${this.latestRound})`);
    this.journalCheat('seed', { q: round, ...(seed ? { s: seed } : { d: true }) });
    const old = this.seedOverrides.get(round);
    if (seed) this.seedOverrides.set(round, seed.slice());
    else this.seedOverrides.delete(round);
    this.logChain(() => (old ? this.seedOverrides.set(round, old) : this.seedOverrides.delete(round)));
    this.generation++;
  }

  private checkKeyValue(key: Uint8Array, value: TealValue | undefined): void {
    if (typeof value === 'bigint' && (value < 0n || value > MAX_UINT64)) throw new ValidationError(`a uint state value is a uint64, got ${value}`);
    if (key.length > this.params.avm.maxAppKeyLen) throw new ValidationError(`a state key is at most ${this.params.avm.maxAppKeyLen} bytes, got ${key.length}`);
    if (value instanceof Uint8Array && key.length + value.length > this.params.avm.maxAppSumKeyValueLens)
      throw new ValidationError(
        `a state key and its value are at most ${this.params.avm.maxAppSumKeyValueLens} bytes together, got ${key.length + value.length}`,
      );
  }

  /**
   * Applies a block another node of the same chain committed (follower mode): its transaction
   * groups are evaluated again (signatures are not re-checked) with the block's timestamp, and the
   * result must hash to the same header. Throws `LedgerStoreError` (and changes nothing) when the
   * block is not the next round, does not extend this chain, or evaluates differently.
   */
  applyBlock(block: Block): Block {
    const round = this.latestRound + 1n;
    if (block.header.round !== round) throw new LedgerStoreError(`block of round ${block.header.round} cannot follow round ${this.latestRound}`);
    if (toHex(block.header.genesisHash) !== toHex(this.genesisHash))
      throw new LedgerStoreError(`block of round ${round} belongs to another chain (genesis hash mismatch)`);
    if (toHex(block.header.prev) !== toHex(this.latestBlock.hash))
      throw new LedgerStoreError(`block of round ${round} does not extend this chain (previous block hash mismatch)`);
    const groups: SignedTransaction[][] = [];
    let key: string | undefined;
    for (const t of block.txns) {
      const g = t.stxn.txn.group;
      const k = g && g.some((b) => b !== 0) ? toHex(g) : undefined;
      if (k !== undefined && k === key) groups[groups.length - 1]!.push(t.stxn);
      else groups.push([t.stxn]);
      key = k;
    }
    try {
      return this.commitBlock(groups, block.header.timestamp, {}, undefined, { expectedHash: block.hash, journal: true })!;
    } catch (e) {
      if (e instanceof LedgerStoreError) throw e;
      throw new LedgerStoreError(`block of round ${round} does not apply to this ledger: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * The genesis this ledger was made from, in the node's `/genesis` shape (alloc in genesis order,
   * the fee sink and rewards pool last), enough for another ledger to rebuild the same chain.
   */
  genesis(): {
    alloc: { addr: string; comment: string; state: GenesisAllocState }[];
    fees: string;
    id: string;
    network: string;
    proto: string;
    rwd: string;
    timestamp: bigint;
    devmode: boolean;
  } {
    const special = this.config.specialAccountBalance ?? this.params.minBalance;
    const alloc = (this.config.genesisAccounts ?? []).map((g) => {
      const a = addressBytes(g.address);
      return { addr: new Address(a).toString(), comment: '', state: g.online ? { algo: g.amount, ...genesisParticipationState(a) } : { algo: g.amount } };
    });
    alloc.push(
      { addr: new Address(this.feeSink).toString(), comment: 'FeeSink', state: { algo: special } },
      { addr: new Address(this.rewardsPool).toString(), comment: 'RewardsPool', state: { algo: special } },
    );
    return {
      alloc,
      fees: new Address(this.feeSink).toString(),
      id: this.genesisId,
      network: 'tealworks-devnet',
      proto: this.params.protocol,
      rwd: new Address(this.rewardsPool).toString(),
      timestamp: this.blocks.get(this.firstRound)!.header.timestamp,
      devmode: true,
    };
  }

  // ---- simulate support ---------------------------------------------------------------------

  /**
   * Evaluates a group on top of the current state and discards every change. Used by simulate;
   * `round` only affects the validity-window check (the state is always the latest).
   */
  /** The oldest round whose state can still be simulated on (the delta window's start). */
  get oldestStateRound(): bigint {
    const back = BigInt(this.deltaWindow);
    return this.latestRound > back ? this.latestRound - back : 0n;
  }

  /** Whether the state after `round` is still held: the latest round, or one inside the delta window. */
  holdsStateAt(round: bigint): boolean {
    return round <= this.latestRound && round >= this.oldestStateRound;
  }

  /**
   * The chain as it was after `round`: a fresh in-memory ledger of the same genesis with the blocks
   * up to `round` applied again (the only way back, since committed rounds keep no undo record).
   */
  private atRound(round: bigint): Ledger {
    if (this.fork)
      throw new LedgerNotFoundError(
        `a fork holds no state before its latest round (${this.latestRound}): simulate there, or at a round of the remote network on the remote itself`,
      );
    const g0 = this.blocks.get(this.firstRound)!.header;
    const { store: _store, ...config } = this.config;
    const past = new Ledger({ ...config, genesisTimestamp: g0.timestamp, clock: this.clock });
    for (let r = this.firstRound + 1n; r <= round; r++) past.applyBlock(this.block(r));
    past.timestampOffset = this.timestampOffset;
    return past;
  }

  /**
   * Evaluates a group as the next block would, on the latest state or (with `at`) on the state
   * after an earlier round the ledger still holds, and rolls everything back.
   */
  dryEvaluate(group: readonly SignedTransaction[], options: EvalOptions, at?: bigint): { result: GroupEvalResult; round: bigint } {
    if (at !== undefined && at !== this.latestRound) {
      if (!this.holdsStateAt(at))
        throw new LedgerNotFoundError(`the state at round ${at} is not held (rounds ${this.oldestStateRound} to ${this.latestRound} are)`);
      return this.atRound(at).dryEvaluate(group, options);
    }
    const st = this.state;
    const round = this.latestRound + 1n;
    const mark = st.checkpoint();
    const touched = st.touched;
    st.touched = emptyTouchSet();
    try {
      const result = evaluateGroup(this.env(round, new RoundOverlay(this.txids), new RoundOverlay(this.leases)), [...group], options);
      return { result, round: this.latestRound };
    } finally {
      st.rollback(mark);
      st.touched = touched;
    }
  }

  // ---- change feed ----------------------------------------------------------------------------

  /** Resolves once the ledger has a block at `round` or later (`/status/wait-for-block-after`). */
  waitForRound(round: bigint, timeoutMs?: number): Promise<boolean> {
    if (this.latestRound >= round) return Promise.resolve(true);
    return new Promise((resolveWait) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const off = this.onBlock((e) => {
        if (e.block.header.round < round) return;
        off();
        if (timer) clearTimeout(timer);
        resolveWait(true);
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          off();
          resolveWait(false);
        }, timeoutMs);
      }
    });
  }

  /** Wall-clock time (ms since the epoch) the latest block was committed; for "time since last round". */
  get lastBlockCommittedAt(): number {
    return this.committedAt;
  }

  private committedAt = Date.now();

  onBlock(listener: BlockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- reads ----------------------------------------------------------------------------------

  block(round: bigint): Block {
    const b = this.blocks.get(round);
    if (!b) throw new LedgerNotFoundError(`ledger does not have entry ${round} (latest round ${this.latestRound})`);
    return b;
  }

  /** A confirmed transaction by id (any round), or undefined. */
  transaction(txid: string): ConfirmedTxn | undefined {
    let at = this.txIndex.get(txid);
    if (!at && this.unindexed.length > 0) {
      const rounds = this.unindexed;
      this.unindexed = [];
      for (const round of rounds) {
        const b = this.blocks.get(round);
        if (!b || b.header.round !== round) continue;
        for (const t of b.txns) if (!this.txIndex.has(t.txid)) this.txIndex.set(t.txid, { round, intra: t.intra });
      }
      at = this.txIndex.get(txid);
    }
    if (!at) return undefined;
    return this.blocks.get(at.round)?.txns[at.intra];
  }

  account(address: AddressLike): AccountData | undefined {
    return this.state.get(addressBytes(address));
  }

  balance(address: AddressLike): bigint {
    return this.state.balanceOf(addressBytes(address));
  }

  minBalance(address: AddressLike): bigint {
    return this.state.minBalanceOf(this.account(address));
  }

  /** The account's current totals as the node's account record reports them. */
  accountTotals(address: AddressLike): {
    minBalance: bigint;
    totalAssets: number;
    totalCreatedAssets: number;
    totalAppsOptedIn: number;
    totalCreatedApps: number;
    totalBoxes: bigint;
    totalBoxBytes: bigint;
    schema: { nui: bigint; nbs: bigint };
    extraPages: bigint;
  } {
    const a = this.account(address);
    const s = a ? this.state.schemaTotals(a) : { nui: 0n, nbs: 0n, pages: 0n };
    return {
      minBalance: this.state.minBalanceOf(a),
      totalAssets: a?.holdings.size ?? 0,
      totalCreatedAssets: a?.createdAssets.size ?? 0,
      totalAppsOptedIn: a?.locals.size ?? 0,
      totalCreatedApps: a?.createdApps.size ?? 0,
      totalBoxes: a?.totalBoxes ?? 0n,
      totalBoxBytes: a?.totalBoxBytes ?? 0n,
      schema: { nui: s.nui, nbs: s.nbs },
      extraPages: s.pages,
    };
  }

  asset(id: bigint): AssetData | undefined {
    return this.state.assets.get(id);
  }

  assetHolding(address: AddressLike, id: bigint): { amount: bigint; frozen: boolean } | undefined {
    return this.account(address)?.holdings.get(id);
  }

  app(id: bigint): AppData | undefined {
    return this.state.apps.get(id);
  }

  globalState(id: bigint): KeyValue[] {
    return [...(this.state.apps.get(id)?.global.values() ?? [])];
  }

  localState(address: AddressLike, appId: bigint): KeyValue[] | undefined {
    const kv = this.account(address)?.locals.get(appId);
    return kv ? [...kv.values()] : undefined;
  }

  box(appId: bigint, name: Uint8Array): Uint8Array | undefined {
    return this.state.getBox(appId, name);
  }

  /** Box names of an app, sorted bytewise. */
  boxNames(appId: bigint): Uint8Array[] {
    const prefix = `${appId}/`;
    const out: Uint8Array[] = [];
    for (const k of this.state.boxes.keys()) if (k.startsWith(prefix)) out.push(fromHex(k.slice(prefix.length)));
    return out.sort((a, b) => (toHex(a) < toHex(b) ? -1 : 1));
  }

  /**
   * An app's boxes as they stood after `round`, keyed by the name's hex: the latest state with the
   * box changes of every later round's delta undone. Undefined when the state at `round` is not
   * held (past the latest round, before the delta window, or before a fork's first block).
   * Changes made by cheats carry no delta, so they count as made at the round they followed.
   */
  boxesAt(appId: bigint, round: bigint): Map<string, { name: Uint8Array; value: Uint8Array }> | undefined {
    if (!this.holdsStateAt(round) || (this.fork && round < this.fork.head.round)) return undefined;
    const out = new Map<string, { name: Uint8Array; value: Uint8Array }>();
    const prefix = `${appId}/`;
    for (const k of this.state.boxes.keys()) {
      if (!k.startsWith(prefix)) continue;
      const hex = k.slice(prefix.length);
      const name = fromHex(hex);
      out.set(hex, { name, value: this.state.getBox(appId, name)! });
    }
    // Newest first, so each box ends as it was before the earliest later change to it.
    for (let r = this.latestRound; r > round; r--) {
      const d = this.deltas.get(r);
      if (!d) continue; // a warped (empty) round
      for (const kv of d.kv) {
        if (kv.appId !== appId) continue;
        const hex = toHex(kv.name);
        if (kv.oldData === undefined) out.delete(hex);
        else out.set(hex, { name: kv.name, value: kv.oldData });
      }
    }
    return out;
  }

  /** Total and online money (no rewards and no online stake on the devnet: online is 0). */
  supply(): { round: bigint; totalMoney: bigint; onlineMoney: bigint; notParticipatingMoney: bigint } {
    let total = 0n;
    let online = 0n;
    let notpart = 0n;
    for (const a of this.state.accounts.values()) {
      total += a.balance;
      if (a.status === 1) online += a.balance;
      else if (a.status === 2) notpart += a.balance;
    }
    return { round: this.latestRound, totalMoney: total, onlineMoney: online, notParticipatingMoney: notpart };
  }

  /** State delta of a round still inside the delta window. */
  delta(round: bigint): RoundDelta {
    const d = this.deltas.get(round);
    if (!d)
      throw new LedgerNotFoundError(
        `no state delta for round ${round}: outside the window of the last ${this.deltaWindow} rounds (latest ${this.latestRound})`,
      );
    return d;
  }

  /** The round's delta in the node's StateDelta shape (for `/v2/deltas/{round}`). */
  stateDelta(round: bigint): Record<string, unknown> {
    const d = this.delta(round);
    const prev = round > this.firstRound ? this.block(round - 1n).header.timestamp : d.block.header.timestamp;
    return stateDeltaObject(d, prev);
  }

  /** Digest of all account, asset, app and box state (equal state ⇔ equal hash). */
  stateHash(): Uint8Array {
    return stateHash(this.state);
  }

  addressOf(hex: string): Address {
    return new Address(fromHex(hex));
  }

  // ---- persistence ----------------------------------------------------------------------------

  /** Writes a snapshot of the current state (atomically, through the store). */
  snapshot(): void {
    if (!this.store || this.fork) return;
    const w = {
      gh: this.genesisHash,
      leases: this.leases.entries(),
      r: this.latestRound,
      state: stateToWire(this.state),
      txids: this.txids.entries(),
      // The journal records whose effects this state holds: cheats add records without rounds,
      // so the round alone does not say where the journal's replay resumes.
      jn: BigInt(this.journalRecords),
      v: SNAPSHOT_VERSION,
    };
    this.store.writeSnapshot(encodeSnapshot(w));
    this.lastSnapshotRound = this.latestRound;
    this.snapshotRecords = this.journalRecords;
    this.snapshotError = undefined;
  }

  private load(records: Uint8Array[]): void {
    const store = this.store!;
    const snapBytes = store.readSnapshot();
    let snapRound = -1n;
    let covered = 0;
    this.snapshotRecords = 1;
    if (snapBytes) {
      const snap = decodeSnapshot(snapBytes);
      if (!(snap.gh instanceof Uint8Array) || toHex(snap.gh) !== toHex(this.genesisHash)) {
        throw new LedgerStoreError(
          'the snapshot belongs to a different chain (genesis hash mismatch). Nothing was changed. Start with the genesis configuration the data directory was created with.',
        );
      }
      snapRound = toUint64(snap.r ?? 0, 'snapshot round');
      // `records` starts after the genesis record. A snapshot names how many journal records it
      // covers (the genesis record included); one written before cheat records existed does not,
      // and then its journal holds exactly one record per round.
      covered = snap.jn === undefined ? Number(snapRound - this.firstRound) : Number(toUint64(snap.jn, 'snapshot journal records')) - 1;
      if (covered > records.length) {
        const journalEnd = journalRoundAfter(records, this.firstRound);
        // The journal lost its last rounds (set aside as damaged, or cut short) but the snapshot
        // has them: its state cannot be matched with the blocks. Rebuild from the journal instead.
        const why = `the snapshot is at round ${snapRound} but the journal ends at round ${journalEnd}`;
        if (!store.recover || !store.setSnapshotAside) {
          throw new LedgerDamageError(
            `${why}: the journal records of rounds ${journalEnd + 1n}..${snapRound} are missing. Nothing was changed.${store.setSnapshotAside ? ` Start with --recover to set the snapshot aside and rebuild the state from rounds 0..${journalEnd} of the journal.` : ''}`,
            { file: 'journal.bin', offset: -1, round: journalEnd + 1n },
          );
        }
        store.setSnapshotAside(`${why}; rounds ${journalEnd + 1n}..${snapRound} have no intact journal record`);
        this.loadRecords(records, 0, -1n);
        return;
      }
      stateFromWire(this.state, snap.state as Record<string, unknown>);
      for (const [k, v] of (snap.txids as [string, unknown][] | undefined) ?? []) this.txids.set(k, toUint64(v, 'txid'));
      for (const [k, v] of (snap.leases as [string, unknown][] | undefined) ?? []) this.leases.set(k, toUint64(v, 'lease'));
      this.lastSnapshotRound = snapRound;
      this.snapshotRecords = covered + 1;
    }
    this.loadRecords(records, covered, snapRound);
  }

  /**
   * Replays the journal (the records after the genesis record) on top of a snapshot at `snapRound`
   * (-1n: none) that holds the effects of the first `covered` of them.
   */
  private loadRecords(records: Uint8Array[], covered: number, snapRound: bigint): void {
    this.journalRecords = 1;
    // Block records the snapshot covers are kept undecoded until a block is read (decoding every
    // record was most of a long chain's start-up); the store has checked their bytes, and a record
    // is told from a cheat record by its first bytes. Cheat records are decoded and replayed:
    // a warp makes its rounds again, seeds and impersonations are not in the snapshot, and state
    // cheats the snapshot covers are skipped. The last covered block record is decoded now: it
    // holding its round shows the records before it are one per round.
    let lastLazy = -1;
    let i = 0;
    const end = Math.min(covered, records.length);
    for (; i < end; i++) {
      const raw = records[i]!;
      if (isCheatRecord(raw)) this.replayRecordAt(records, i, covered);
      else {
        const round = this.latestRound + 1n;
        this.blocks.pushLazy(round, () => lazyRecordBlock(raw, round, true) as Block);
        this.unindexed.push(round);
        lastLazy = i;
      }
    }
    this.journalRecords = 1 + i;
    if (covered > 0) this.checkCovered(lastLazy < 0 ? undefined : { raw: records[lastLazy]!, round: this.blocks.lastRealRound! }, covered, snapRound);
    for (; i < records.length; i++) {
      if (!this.replayRecordAt(records, i, covered)) break;
      this.journalRecords++;
    }
    if (snapRound > this.latestRound) throw new LedgerStoreError(`snapshot is at round ${snapRound} but the journal ends at ${this.latestRound}`);
  }

  /**
   * Replays `records[i]` (a cheat record, or a block record past the snapshot). A record that
   * cannot be replayed is refused with its round, or with `recover` (past the snapshot only) moved
   * aside with everything after it: then false.
   */
  private replayRecordAt(records: readonly Uint8Array[], i: number, covered: number): boolean {
    const store = this.store!;
    const raw = records[i]!;
    const expected = this.latestRound + 1n;
    try {
      if (isCheatRecord(raw)) this.replayCheat(raw, i < covered);
      else this.replayRecord(raw);
      return true;
    } catch (e) {
      const why = `journal record of round ${expected} cannot be replayed: ${(e as Error).message}`;
      if (store.recover && store.setAsideFrom && i >= covered) {
        // Record i + 1 of the journal (record 0 is the genesis record) and everything after it.
        store.setAsideFrom(i + 1, why);
        return false;
      }
      throw new LedgerDamageError(
        `${why}. Nothing was changed.${store.setAsideFrom ? ` Start with --recover to keep rounds 0..${expected - 1n} and move the rest of the journal aside.` : ''}`,
        { file: 'journal.bin', offset: -1, round: expected },
        { cause: e },
      );
    }
  }

  /** After the records a snapshot covers: the last block record holds its round, and they end at the snapshot's round. */
  private checkCovered(lastLazy: { raw: Uint8Array; round: bigint } | undefined, covered: number, snapRound: bigint): void {
    if (lastLazy) {
      try {
        lazyRecordBlock(lastLazy.raw, lastLazy.round, false);
      } catch (e) {
        throw new LedgerDamageError(
          `journal record of round ${lastLazy.round} cannot be replayed: ${(e as Error).message}. Nothing was changed.`,
          { file: 'journal.bin', offset: -1, round: lastLazy.round },
          { cause: e },
        );
      }
    }
    if (this.latestRound !== snapRound) {
      throw new LedgerDamageError(
        `the snapshot is at round ${snapRound} but the ${covered} journal records after the genesis record it covers end at round ${this.latestRound}. Nothing was changed.${this.store!.setSnapshotAside ? ' Start with --recover to set the snapshot aside and rebuild the state from the journal.' : ''}`,
        { file: 'journal.bin', offset: -1, round: this.latestRound },
      );
    }
  }

  private replayRecord(raw: Uint8Array): void {
    let rec: Record<string, unknown>;
    try {
      // No private copy: the record's bins stay views into the journal's bytes, which nothing writes to.
      rec = decodeMsgpack(raw, { copy: false }) as Record<string, unknown>;
    } catch (e) {
      throw new LedgerStoreError(`the record is unreadable: ${(e as Error).message}`, { cause: e });
    }
    const round = toUint64(rec.r, 'journal round');
    if (round !== this.latestRound + 1n) throw new LedgerStoreError(`journal skips from round ${this.latestRound} to ${round}`);
    const groups = ((rec.g as Uint8Array[][] | undefined) ?? []).map((g) => g.map((b) => decodeSignedTransactions(b)[0]!));
    this.commitBlock(groups, toUint64(rec.t, 'journal timestamp'), {}, undefined, { expectedHash: rec.h as Uint8Array });
  }

  /**
   * Replays one cheat record (see `CheatRecord`). `covered`: the snapshot read at open already
   * holds its state change (only a warp, a seed or an impersonation is repeated then).
   */
  private replayCheat(raw: Uint8Array, covered: boolean): void {
    let rec: Record<string, unknown>;
    try {
      rec = decodeMsgpack(raw) as Record<string, unknown>;
    } catch (e) {
      throw new LedgerStoreError(`the cheat record is unreadable: ${(e as Error).message}`, { cause: e });
    }
    const v = toUint64(rec.v ?? 0, 'cheat record version');
    if (v !== BigInt(CHEAT_RECORD_VERSION))
      throw new LedgerStoreError(
        `the cheat record has version ${v}; this version of Tealworks reads version ${CHEAT_RECORD_VERSION} (a newer Tealworks wrote it?)`,
      );
    const kind = rec.c;
    if (typeof kind !== 'string' || !CHEAT_KINDS.has(kind as CheatKind))
      throw new LedgerStoreError(`the journal holds a cheat record of an unknown kind (${String(kind)})`);
    const x = (rec.x ?? {}) as Record<string, unknown>;
    if (typeof x !== 'object' || x instanceof Uint8Array || Array.isArray(x)) throw new LedgerStoreError('the cheat record has no arguments');
    const r = toUint64(rec.r ?? 0, 'cheat record round');
    const u = (k: string) => toUint64(x[k] ?? 0, `${String(kind)} cheat ${k}`);
    const bin = (k: string, optional = false): Uint8Array => {
      const b = x[k];
      if (b === undefined && optional) return new Uint8Array(0);
      if (!(b instanceof Uint8Array)) throw new LedgerStoreError(`the ${String(kind)} cheat record has no ${k}`);
      return b;
    };
    if (kind === 'warp') {
      const n = u('n');
      if (n < 1n || r !== this.latestRound + n)
        throw new LedgerStoreError(`the warp record of ${n} rounds ends at round ${r}, not after round ${this.latestRound}`);
      const block = this.warp(n, u('s'));
      if (toHex(block.hash) !== toHex(bin('h')))
        throw new LedgerStoreError(`the warp to round ${r} made a different block (expected ${toHex(bin('h'))}, got ${toHex(block.hash)})`);
      this.afterWarp(block);
      return;
    }
    if (r !== this.latestRound)
      throw new LedgerStoreError(`the ${String(kind)} cheat record was written at round ${r}, but the journal is at round ${this.latestRound}`);
    this.replaying = true;
    try {
      switch (kind) {
        case 'seed':
          return this.setBlockSeed(x.d === true ? undefined : bin('s'), u('q'));
        case 'impersonate':
          return this.impersonate(bin('a'), x.o === true);
        case 'balance':
          if (!covered) this.setBalance(bin('a'), u('m'));
          return;
        case 'holding':
          if (!covered) this.setAssetHolding(bin('a'), u('i'), x.d === true ? undefined : { amount: u('m'), frozen: x.f === true });
          return;
        case 'global':
          if (!covered) this.setGlobal(u('i'), bin('k', true), tealValueOf(x, kind));
          return;
        case 'local':
          if (!covered) this.setLocal(bin('a'), u('i'), bin('k', true), tealValueOf(x, kind));
          return;
        case 'box':
          if (!covered) this.setBox(u('i'), bin('k'), x.d === true ? undefined : bin('b', true));
          return;
        default:
          throw new LedgerStoreError(`the journal holds a cheat record of an unknown kind (${String(kind)})`);
      }
    } finally {
      this.replaying = false;
    }
  }

  /** Starts over from genesis, deleting the data directory's contents. */
  reset(): void {
    this.store?.clear();
    this.txids.clear();
    this.leases.clear();
    this.txIndex.clear();
    this.unindexed = [];
    this.deltas.clear();
    this.lastSnapshotRound = 0n;
    this.timestampOffset = undefined;
    this.marks.clear();
    this.chainUndo.length = 0;
    this.seedOverrides.clear();
    this.impersonated.clear();
    this.journalRecords = 0;
    this.snapshotRecords = 0;
    this.generation++;
    this.initGenesis(
      this.genesisAlloc(),
      this.blocks.get(this.firstRound)!.header.timestamp,
      this.fork ? this.fork.head.txnCounter : (this.config.initialTxnCounter ?? 1000n),
    );
    if (this.store) this.writeGenesisRecord();
  }

  close(): void {
    if (this.store) {
      try {
        if (this.journalRecords > this.snapshotRecords) this.snapshot();
      } catch (e) {
        // Every round is in the journal; the next start replays from the older snapshot.
        this.snapshotError = e as Error;
      }
      this.store.close?.();
    }
  }
}

/**
 * The block of a journal record kept undecoded at start-up (`decode`: decode it, else only check the
 * record's round). A record that does not hold `round` throws: it is never served as that round.
 */
function lazyRecordBlock(raw: Uint8Array, round: bigint, decode: boolean): Block | undefined {
  let rec: Record<string, unknown>;
  try {
    rec = decodeMsgpack(raw, { copy: false }) as Record<string, unknown>;
  } catch (e) {
    throw new LedgerStoreError(`the journal record of round ${round} is unreadable: ${(e as Error).message}`, { cause: e });
  }
  const r = toUint64(rec.r, 'journal round');
  if (r !== round) throw new LedgerStoreError(`the journal record expected to hold round ${round} holds round ${r}`);
  const bytes = rec.b;
  if (!(bytes instanceof Uint8Array)) throw new LedgerStoreError(`the journal record of round ${round} has no block`);
  return decode ? decodeBlock(bytes) : undefined;
}

function genesisRecordHash(raw: Uint8Array): Uint8Array | undefined {
  try {
    const rec = decodeMsgpack(raw) as Record<string, unknown>;
    if (rec.b !== undefined || !(rec.gh instanceof Uint8Array)) return undefined;
    return rec.gh;
  } catch {
    return undefined;
  }
}

/** The header scheme a genesis record names; records written before schemes existed are scheme 1. */
function genesisRecordScheme(raw: Uint8Array): HeaderScheme {
  try {
    const hs = (decodeMsgpack(raw) as Record<string, unknown>).hs;
    return hs === undefined ? 1 : (Number(hs) as HeaderScheme);
  } catch {
    return HEADER_SCHEME_CURRENT;
  }
}

/**
 * The header scheme of a chain whose genesis names `protocol`: 1 for the short `…/specs/tree/v42`
 * and `…/tree/v41` names chains written before scheme 2 used (a follower of such a chain rebuilds
 * it in that scheme), else the current one.
 */
export function headerSchemeOfProtocol(protocol: string | undefined): HeaderScheme {
  return protocol === 'https://github.com/algorandfoundation/specs/tree/v42' || protocol === 'https://github.com/algorandfoundation/specs/tree/v41'
    ? 1
    : HEADER_SCHEME_CURRENT;
}

/** Scheme-1 chains named the v41/v42 protocols by these short URLs (their genesis hashes include it). */
function legacyProtocolName(protocol: string): string {
  if (protocol === CONSENSUS_PARAMS_V42.protocol) return 'https://github.com/algorandfoundation/specs/tree/v42';
  if (protocol === CONSENSUS_PARAMS_V41.protocol) return 'https://github.com/algorandfoundation/specs/tree/v41';
  return protocol;
}

function genesisRecordRound(raw: Uint8Array): bigint {
  try {
    return toUint64((decodeMsgpack(raw) as Record<string, unknown>).r ?? 0, 'genesis round');
  } catch {
    return 0n;
  }
}

function genesisRecordTimestamp(raw: Uint8Array): bigint | undefined {
  try {
    const rec = decodeMsgpack(raw) as Record<string, unknown>;
    if (rec.b !== undefined || !(rec.gh instanceof Uint8Array)) return undefined;
    return toUint64(rec.t, 'genesis timestamp');
  } catch {
    return undefined;
  }
}

const CHEAT_KINDS = new Set(['warp', 'seed', 'impersonate', 'balance', 'holding', 'global', 'local', 'box'] as const);

/** What a cheat record repeats (see `CheatRecord`). */
type CheatKind = typeof CHEAT_KINDS extends Set<infer K> ? K : never;

/**
 * A journal record of a cheat (version 2), written before the cheat takes effect and replayed
 * in journal order at open. Keys (canonical msgpack, so `c` is always the first one, which is
 * how an open tells it from a block record, whose first key is `b`, without decoding it):
 * - `c`: the kind; `r`: the latest round after the cheat (a warp: its last round); `v`: 2;
 * - `x`: the arguments: warp `n` rounds, `s` seconds per round, `h` the hash of its last made-up
 *   block (checked when it is made again); seed `q` round, `s` seed or `d` (restore);
 *   impersonate `a` address, `o` on; balance `a`, `m`; holding `a`, `i` asset, `m`, `f` frozen or
 *   `d` (remove); global `i` app, `k` key, `t` type (1 bytes, 2 uint), `b`/`u` value or `d`;
 *   local as global plus `a`; box `i`, `k` name, `b` value or `d` (delete).
 */
interface CheatRecord {
  c: CheatKind;
  r: bigint;
  v: number;
  x: { [k: string]: MsgpackValue };
}

/** The arguments a state-key cheat record keeps for a value (undefined: delete the key). */
function tealValueArgs(value: TealValue | undefined): { [k: string]: MsgpackValue } {
  if (value === undefined) return { d: true };
  return typeof value === 'bigint' ? { t: 2, u: value } : { b: value, t: 1 };
}

function tealValueOf(x: Record<string, unknown>, kind: string): TealValue | undefined {
  if (x.d === true) return undefined;
  const t = toUint64(x.t ?? 0, `${kind} cheat value type`);
  if (t === 2n) return toUint64(x.u ?? 0, `${kind} cheat value`);
  if (t === 1n) return x.b === undefined ? new Uint8Array(0) : (x.b as Uint8Array);
  throw new LedgerStoreError(`the ${kind} cheat record has a value of unknown type ${t}`);
}

/**
 * Whether a journal record is a cheat record, told by its first bytes: a small map whose first
 * key is `c` (block records begin with `b`, the genesis record with `gh`). Canonical encoding
 * sorts keys, so no other record can begin that way.
 */
function isCheatRecord(raw: Uint8Array): boolean {
  return raw.length > 3 && (raw[0]! & 0xf0) === 0x80 && raw[1] === 0xa1 && raw[2] === 0x63;
}

/** The latest round once `records` (the journal after its genesis record) are replayed, read from the last one. */
function journalRoundAfter(records: readonly Uint8Array[], firstRound: bigint): bigint {
  if (records.length === 0) return firstRound;
  return recordRound(records[records.length - 1]!) ?? firstRound + BigInt(records.length);
}

/** @internal The round a journal record names (`r`): a block's round, the latest round after a cheat; undefined when unreadable. */
export function recordRound(raw: Uint8Array): bigint | undefined {
  try {
    return toUint64((decodeMsgpack(raw, { copy: false }) as Record<string, unknown>).r ?? 0, 'journal round');
  } catch {
    return undefined;
  }
}

/** What `Ledger.mark` remembers beside the undo logs' positions. */
interface ChainMark {
  state: number;
  chain: number;
  round: bigint;
  deltas: Map<bigint, RoundDelta>;
  timestampOffset: bigint | undefined;
}

function u64(n: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
}

function cloneTouch(t: TouchSet): TouchSet {
  return {
    accounts: new Set(t.accounts),
    assetParams: new Set(t.assetParams),
    appParams: new Set(t.appParams),
    holdings: new Set(t.holdings),
    locals: new Set(t.locals),
    kv: new Map(t.kv),
    createdAssets: new Set(t.createdAssets),
    createdApps: new Set(t.createdApps),
    deletedCreators: new Map(t.deletedCreators),
  };
}

export { LedgerRejection };

/**
 * Refuses a state cheat that would leave more integer or byte-slice keys than the app's schema
 * declares: the chain never holds such state (a program's write is rejected at the end of its call,
 * in the node's words), and the next call touching it would then fail for a reason no real chain
 * shows.
 */
function checkSchemaRoom(
  kv: ReadonlyMap<string, { value: unknown }>,
  key: Uint8Array,
  value: TealValue | undefined,
  numUint: bigint,
  numByteSlice: bigint,
  where: string,
): void {
  if (value === undefined) return;
  let [uints, bytes] = stateKeyCounts(kv);
  // The key's present value (if any) is replaced: it counts no more.
  const old = kv.get(toHex(key));
  if (old && typeof old.value === 'bigint') uints--;
  else if (old) bytes--;
  if (typeof value === 'bigint') uints++;
  else bytes++;
  if (uints > numUint)
    throw new ValidationError(
      `${where} would hold ${uints} integer keys, but its schema declares ${numUint} (store integer count ${uints} exceeds schema integer count ${numUint}): delete a key first, or deploy the app with a larger schema`,
    );
  if (bytes > numByteSlice)
    throw new ValidationError(
      `${where} would hold ${bytes} byte-slice keys, but its schema declares ${numByteSlice} (store bytes count ${bytes} exceeds schema bytes count ${numByteSlice}): delete a key first, or deploy the app with a larger schema`,
    );
}

/** What `submitEvaluated` asks of the commit: approve the evaluation, and keep it. */
interface CommitGate {
  accept(result: GroupEvalResult): boolean;
  result?: GroupEvalResult;
}
