import { encodeMsgpack, encodeMsgpackWithPrefix, decodeMsgpack, MsgStr, toUint64, type MapKey, type MsgpackValue } from '../encoding/msgpack.js';
import { sha512_256, sha256, sha512 } from '../crypto/hash.js';
import { utf8, fromUtf8, concatBytes } from '../encoding/bytes.js';
import { fromBase32, toBase32 } from '../encoding/base32.js';
import type { SignedTransaction, Transaction } from '../txn/types.js';
import { signedTransactionToWire, signedTransactionFromWire, transactionToWire, transactionFromWire } from '../txn/wire.js';
import { bytesToSign, txidBytes } from '../txn/encode.js';
import type { ValueDelta } from '../avm/context.js';
import type { TealValue } from '../avm/ledger-view.js';
import { toHex } from '../encoding/hex.js';

type WireMap = { [key: string]: MsgpackValue };

/** A state change recorded in ApplyData (EvalDelta), keyed by the hex of the state key. */
export type DeltaMap = Map<string, { key: Uint8Array; delta: ValueDelta }>;

/** ApplyData of a confirmed transaction (protocol.md §3.3), inner transactions included. */
export interface TxnApplyData {
  closingAmount?: bigint;
  assetClosingAmount?: bigint;
  createdAssetId?: bigint;
  createdAppId?: bigint;
  globalDelta: DeltaMap;
  /** Keyed by hex address. */
  localDeltas: Map<string, { address: Uint8Array; keys: DeltaMap }>;
  logs: Uint8Array[];
  inner: InnerTxn[];
}

/** An inner transaction in a block's apply data. */
export interface InnerTxn {
  txn: Transaction;
  txid: Uint8Array;
  ad: TxnApplyData;
}

export function emptyTxnApplyData(): TxnApplyData {
  return { globalDelta: new Map(), localDeltas: new Map(), logs: [], inner: [] };
}

/** A block header: round, previous hash, seed, timestamp, genesis, rewards state, transaction commitments. */
export interface BlockHeader {
  round: bigint;
  prev: Uint8Array;
  seed: Uint8Array;
  /** sha512_256 commitment over the block's transactions (see txnCommitment). */
  txnRoot: Uint8Array;
  txnRoot256: Uint8Array;
  /**
   * SHA-512 hash of the previous block's header (`prev512`, the node's `Hash512`); absent on
   * chains written before the devnet carried it (see `HeaderScheme`) and on a first block.
   */
  prev512?: Uint8Array;
  /** SHA-512 vector commitment over the block's transactions (`txn512`); absent on legacy chains. */
  txnRoot512?: Uint8Array;
  timestamp: bigint;
  genesisId: string;
  genesisHash: Uint8Array;
  feeSink: Uint8Array;
  rewardsPool: Uint8Array;
  rewardsLevel: bigint;
  rewardsRate: bigint;
  rewardsResidue: bigint;
  rewardsRecalculationRound: bigint;
  protocol: string;
  txnCounter: bigint;
  feesCollected: bigint;
}

/** A transaction as the block holds it: the signed transaction, its id and what applying it did. */
export interface ConfirmedTxn {
  stxn: SignedTransaction;
  txid: string;
  ad: TxnApplyData;
  round: bigint;
  /** Position in the block. */
  intra: number;
}

/** A block: header and the transactions with their apply data. */
export interface Block {
  header: BlockHeader;
  txns: ConfirmedTxn[];
  /** `sha512_256("BH" || msgpack(header))`. */
  hash: Uint8Array;
}

// ---- wire forms --------------------------------------------------------------------------------

export function headerToWire(h: BlockHeader): WireMap {
  return {
    earn: h.rewardsLevel,
    fc: h.feesCollected,
    fees: h.feeSink,
    frac: h.rewardsResidue,
    gen: h.genesisId,
    gh: h.genesisHash,
    prev: h.prev,
    ...(nonZero(h.prev512) ? { prev512: h.prev512 } : {}),
    proto: h.protocol,
    rate: h.rewardsRate,
    rnd: h.round,
    rwcalr: h.rewardsRecalculationRound,
    rwd: h.rewardsPool,
    seed: h.seed,
    tc: h.txnCounter,
    ts: h.timestamp,
    txn: h.txnRoot,
    txn256: h.txnRoot256,
    ...(nonZero(h.txnRoot512) ? { txn512: h.txnRoot512 } : {}),
  };
}

/** The node leaves an all-zero digest out of the encoding (omitempty); so does the devnet. */
function nonZero(b: Uint8Array | undefined): b is Uint8Array {
  return b !== undefined && b.some((x) => x !== 0);
}

const bytesOr = (v: unknown, n: number): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(n));
const u = (v: unknown, what: string): bigint => (v === undefined ? 0n : toUint64(v, what));
const str = (v: unknown): string => (typeof v === 'string' ? v : v instanceof Uint8Array ? fromUtf8(v) : '');

export function headerFromWire(w: Record<string, unknown>): BlockHeader {
  return {
    round: u(w.rnd, 'rnd'),
    prev: bytesOr(w.prev, 32),
    seed: bytesOr(w.seed, 32),
    txnRoot: bytesOr(w.txn, 32),
    txnRoot256: bytesOr(w.txn256, 32),
    ...(w.prev512 instanceof Uint8Array ? { prev512: w.prev512 } : {}),
    ...(w.txn512 instanceof Uint8Array ? { txnRoot512: w.txn512 } : {}),
    timestamp: u(w.ts, 'ts'),
    genesisId: str(w.gen),
    genesisHash: bytesOr(w.gh, 32),
    feeSink: bytesOr(w.fees, 32),
    rewardsPool: bytesOr(w.rwd, 32),
    rewardsLevel: u(w.earn, 'earn'),
    rewardsRate: u(w.rate, 'rate'),
    rewardsResidue: u(w.frac, 'frac'),
    rewardsRecalculationRound: u(w.rwcalr, 'rwcalr'),
    protocol: str(w.proto),
    txnCounter: u(w.tc, 'tc'),
    feesCollected: u(w.fc, 'fc'),
  };
}

/** The hash of a block header (what the next block names as previous). */
export function headerHash(h: BlockHeader): Uint8Array {
  return sha512_256(headerHashInput(h));
}

/** What a header's hashes are taken over: `"BH" || msgpack(header)` (kept by the ledger, which hashes its latest header twice). */
export function headerHashInput(h: BlockHeader): Uint8Array {
  return encodeMsgpackWithPrefix(utf8('BH'), headerToWire(h));
}

/** The SHA-512 hash of a block header (`Hash512`: SHA-512 over `"BH" || msgpack(header)`), which the next block names as `prev512`. */
export function headerHash512(h: BlockHeader): Uint8Array {
  return sha512(headerHashInput(h));
}

/** The text form the node uses for block hashes (`blk-…`). */
export function blockHashText(hash: Uint8Array): string {
  return `blk-${toBase32(hash)}`;
}

/**
 * TEAL keys, byte values and logs are Go strings in the node's encoding (msgpack str, whatever
 * the bytes). `goStrings` writes them so, for bytes handed to clients (algosdk's block decoder
 * insists on str keys); without it they are bin, which our decoder (msgpackr, which turns str into
 * JS text) reads back losslessly — the form the journal and the devnet's commitments use.
 */
const goStr = (b: Uint8Array, goStrings: boolean): Uint8Array | MsgStr => (goStrings ? new MsgStr(b) : b);

function valueDeltaToWire(d: ValueDelta, goStrings: boolean): WireMap {
  if (d.action === 'delete') return { at: 3 };
  const v = d.value!;
  return typeof v === 'bigint' ? { at: 2, ui: v } : { at: 1, bs: goStr(v, goStrings) };
}

function deltaMapToWire(m: DeltaMap, goStrings: boolean): Map<MapKey, MsgpackValue> | undefined {
  if (m.size === 0) return undefined;
  const out = new Map<MapKey, MsgpackValue>();
  for (const { key, delta } of m.values()) out.set(goStr(key, goStrings), valueDeltaToWire(delta, goStrings));
  return out;
}

/**
 * Local-delta account indices as the node assigns them: 0 the sender, 1..n the `apat` accounts,
 * then any other account appended to `sa` (shared accounts).
 */
export function localDeltaIndices(txn: Transaction, ad: TxnApplyData): { index: Map<string, number>; shared: Uint8Array[] } {
  const index = new Map<string, number>();
  const shared: Uint8Array[] = [];
  const known = [txn.sender.publicKey, ...(txn.appCall?.accounts.map((a) => a.publicKey) ?? [])];
  for (const { address } of ad.localDeltas.values()) {
    const h = toHex(address);
    if (index.has(h)) continue;
    let i = known.findIndex((k) => toHex(k) === h);
    if (i < 0) {
      i = known.length + shared.length;
      shared.push(address);
    }
    index.set(h, i);
  }
  return { index, shared };
}

/**
 * ApplyData fields (`ca aca caid apid dt{gd ld sa lg itx}`), zero members left out. With
 * `goStrings` TEAL keys, byte values and logs are str as the node writes them, else bin (see goStr).
 */
export function applyDataToWire(txn: Transaction, ad: TxnApplyData, goStrings = false): WireMap {
  const w: WireMap = {};
  if (ad.assetClosingAmount) w.aca = ad.assetClosingAmount;
  if (ad.createdAppId) w.apid = ad.createdAppId;
  if (ad.closingAmount) w.ca = ad.closingAmount;
  if (ad.createdAssetId) w.caid = ad.createdAssetId;
  const dt: WireMap = {};
  const gd = deltaMapToWire(ad.globalDelta, goStrings);
  if (gd) dt.gd = gd;
  if (ad.inner.length) dt.itx = ad.inner.map((i) => ({ ...applyDataToWire(i.txn, i.ad, goStrings), txn: transactionToWire(i.txn) }));
  if (ad.localDeltas.size) {
    const { index, shared } = localDeltaIndices(txn, ad);
    const ld = new Map<number, MsgpackValue>();
    for (const [h, { keys }] of ad.localDeltas) {
      const m = deltaMapToWire(keys, goStrings);
      if (m) ld.set(index.get(h)!, m);
    }
    dt.ld = ld;
    if (shared.length) dt.sa = shared;
  }
  if (ad.logs.length) dt.lg = goStrings ? ad.logs.map((l) => new MsgStr(l)) : ad.logs;
  if (Object.keys(dt).length) w.dt = dt;
  return w;
}

/** The apply-data keys a block's signed transaction carries next to the signed transaction's own. */
export const AD_KEYS: ReadonlySet<string> = new Set(['aca', 'apid', 'ca', 'caid', 'dt', 'rs', 'rr', 'rc', 'hgi', 'hgh']);

function deltaMapFromWire(v: unknown): DeltaMap {
  const out: DeltaMap = new Map();
  if (!(v instanceof Map)) return out;
  for (const [k, d] of v as Map<unknown, Map<string, unknown>>) {
    const key = k instanceof Uint8Array ? k : utf8(String(k));
    const at = Number(d.get('at') ?? 0);
    let delta: ValueDelta;
    if (at === 3) delta = { action: 'delete' };
    else if (at === 2) delta = { action: 'set', value: u(d.get('ui'), 'ui') as TealValue };
    else {
      const bs = d.get('bs');
      delta = { action: 'set', value: bs instanceof Uint8Array ? bs : utf8(String(bs ?? '')) };
    }
    out.set(toHex(key), { key, delta });
  }
  return out;
}

function deepObject(v: unknown): unknown {
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k)] = deepObject(x);
    return o;
  }
  if (Array.isArray(v)) return v.map(deepObject);
  return v;
}

export function applyDataFromWire(txn: Transaction, w: Map<string, unknown>): TxnApplyData {
  const ad = emptyTxnApplyData();
  if (w.has('aca')) ad.assetClosingAmount = u(w.get('aca'), 'aca');
  if (w.has('apid')) ad.createdAppId = u(w.get('apid'), 'apid');
  if (w.has('ca')) ad.closingAmount = u(w.get('ca'), 'ca');
  if (w.has('caid')) ad.createdAssetId = u(w.get('caid'), 'caid');
  const dt = w.get('dt') as Map<string, unknown> | undefined;
  if (dt) {
    ad.globalDelta = deltaMapFromWire(dt.get('gd'));
    const lg = dt.get('lg');
    if (Array.isArray(lg)) ad.logs = lg.map((l) => (l instanceof Uint8Array ? l : utf8(String(l))));
    const ld = dt.get('ld');
    if (ld instanceof Map) {
      const known = [txn.sender.publicKey, ...(txn.appCall?.accounts.map((a) => a.publicKey) ?? []), ...((dt.get('sa') as Uint8Array[] | undefined) ?? [])];
      for (const [i, m] of ld as Map<unknown, unknown>) {
        const address = known[Number(i)] ?? new Uint8Array(32);
        ad.localDeltas.set(toHex(address), { address, keys: deltaMapFromWire(m) });
      }
    }
    const itx = dt.get('itx');
    if (Array.isArray(itx)) {
      ad.inner = (itx as Map<string, unknown>[]).map((m, i) => {
        const inner = transactionFromWire(deepObject(m.get('txn')), `itx[${i}].txn`);
        return { txn: inner, txid: new Uint8Array(32), ad: applyDataFromWire(inner, m) };
      });
    }
  }
  return ad;
}

/** SignedTxnInBlock: genesis fields moved to the `hgi`/`hgh` flags, ApplyData alongside. */
export function stibToWire(stxn: SignedTransaction, ad: TxnApplyData, goStrings = false): WireMap {
  const tw = transactionToWire(stxn.txn);
  const hgi = tw.gen !== undefined;
  const hgh = tw.gh !== undefined;
  delete tw.gen;
  delete tw.gh;
  const w: WireMap = { ...signedTransactionToWire(stxn, tw), ...applyDataToWire(stxn.txn, ad, goStrings) };
  if (hgi) w.hgi = true;
  if (hgh) w.hgh = true;
  return w;
}

export function stibFromWire(m: Map<string, unknown>, header: BlockHeader): { stxn: SignedTransaction; ad: TxnApplyData } {
  const plain: Record<string, unknown> = {};
  for (const [k, v] of m) if (!AD_KEYS.has(k)) plain[k] = deepObject(v);
  const txn = plain.txn as Record<string, unknown>;
  if (m.get('hgi')) txn.gen = header.genesisId;
  if (m.get('hgh')) txn.gh = header.genesisHash;
  const stxn = signedTransactionFromWire(plain, 'stib');
  return { stxn, ad: applyDataFromWire(stxn.txn, m) };
}

/** A block as the node's msgpack structure (`goStrings` writes TEAL keys as msgpack str, as the node does). */
export function blockToWire(b: Block, goStrings = false): WireMap {
  const w = headerToWire(b.header);
  if (b.txns.length) w.txns = b.txns.map((t) => stibToWire(t.stxn, t.ad, goStrings));
  return w;
}

/**
 * The block's canonical msgpack. `goStrings: true` gives the node's bytes (as
 * `/v2/blocks/{round}?format=msgpack` carries them under `block`), for clients; the default is
 * the form our own decoder reads back without loss (non-UTF-8 logs and keys included).
 */
export function encodeBlock(b: Block, options: { goStrings?: boolean } = {}): Uint8Array {
  return encodeMsgpack(blockToWire(b, options.goStrings ?? false));
}

/** Decodes a msgpack block. */
export function decodeBlock(bytes: Uint8Array): Block {
  const m = decodeMsgpack(bytes, { maps: true }) as Map<string, unknown>;
  const hw: Record<string, unknown> = {};
  for (const [k, v] of m) if (k !== 'txns') hw[k] = v;
  const header = headerFromWire(hw);
  const raw = (m.get('txns') as Map<string, unknown>[] | undefined) ?? [];
  const txns = raw.map((s, intra) => {
    const { stxn, ad } = stibFromWire(s, header);
    fillInnerIds(stxn, ad);
    return { stxn, ad, txid: toBase32(txidBytes(stxn.txn)), round: header.round, intra };
  });
  return { header, txns, hash: headerHash(header) };
}

const TX = utf8('TX');
function fillInnerIds(stxn: SignedTransaction, ad: TxnApplyData): void {
  const walk = (parent: Uint8Array, a: TxnApplyData) => {
    a.inner.forEach((it, i) => {
      it.txid = sha512_256(concatBytes(TX, parent, u64be(i), encodeMsgpack(transactionToWire(it.txn))));
      walk(it.txid, it.ad);
    });
  };
  walk(txidBytes(stxn.txn), ad);
}

function u64be(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

/**
 * How a chain's block headers are made, recorded in its data directory's genesis record so a
 * chain keeps hashing its blocks the way it was written:
 * - `1` (chains written before scheme 2): the protocol named `…/specs/tree/v42`, flat
 *   transaction commitments (see `txnCommitment`), no `prev512`/`txn512`;
 * - `2` (current): the node's v42 protocol URL and commitments: the `txn` Merkle tree, the
 *   `txn256`/`txn512` vector commitments, and `prev512`.
 */
export type HeaderScheme = 1 | 2;

/** The header scheme of new chains. */
export const HEADER_SCHEME_CURRENT: HeaderScheme = 2;

/**
 * Commitments over a block's transactions as the scheme makes them: for scheme 2 the node's
 * (see `nodeTxnCommitments`); for scheme 1 the flat hashes legacy chains were written with.
 */
export function txnCommitmentFor(txns: readonly ConfirmedTxn[], scheme: HeaderScheme): { root: Uint8Array; root256: Uint8Array; root512?: Uint8Array } {
  return scheme === 1 ? txnCommitment(txns) : nodeTxnCommitments(txns);
}

/**
 * Commitments over the block's transactions for legacy (scheme 1) chains: a flat deterministic
 * hash of the concatenated transactions in block form instead of the node's Merkle trees.
 */
export function txnCommitment(txns: readonly ConfirmedTxn[]): { root: Uint8Array; root256: Uint8Array } {
  if (txns.length === 0) return { root: new Uint8Array(32), root256: new Uint8Array(32) };
  const parts: Uint8Array[] = [];
  for (const t of txns) parts.push(encodeMsgpack(stibToWire(t.stxn, t.ad)));
  const all = concatBytes(...parts);
  return { root: sha512_256(concatBytes(utf8('TL'), all)), root256: sha256(concatBytes(utf8('TL'), all)) };
}

type HashFn = (data: Uint8Array) => Uint8Array;
const TL = utf8('TL');
const MA = utf8('MA');
const MB = utf8('MB');
const STIB = utf8('STIB');

/** One Merkle layer up: pairs hashed as `"MA" || left || right` (a missing right is zeros). */
function merkleUp(layer: Uint8Array[], h: HashFn, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < layer.length; i += 2) out.push(h(concatBytes(MA, layer[i]!, layer[i + 1] ?? new Uint8Array(size))));
  return out;
}

function merkleRoot(leaves: Uint8Array[], h: HashFn, size: number): Uint8Array {
  if (leaves.length === 0) return new Uint8Array(size);
  let layer = leaves;
  while (layer.length > 1) layer = merkleUp(layer, h, size);
  return layer[0]!;
}

/** Vector commitment: leaves padded to a power of two with `H("MB")`, placed at bit-reversed positions. */
function vectorCommitmentRoot(leaves: Uint8Array[], h: HashFn, size: number): Uint8Array {
  const n = leaves.length;
  const depth = n <= 1 ? 0 : (n - 1).toString(2).length;
  const padded = 1 << depth;
  const bottom = h(MB);
  const layer: Uint8Array[] = [];
  for (let pos = 0; pos < padded; pos++) {
    let rev = 0;
    for (let b = 0; b < depth; b++) if (pos & (1 << b)) rev |= 1 << (depth - 1 - b);
    layer.push(rev < n ? leaves[rev]! : bottom);
  }
  return merkleRoot(layer, h, size);
}

/**
 * The node's transaction commitments (v42): `txn`, a SHA-512/256 Merkle tree whose leaves hash
 * `"TL" || txid || H("STIB" || stib)`; `txn256` and `txn512`, vector commitments (SHA-256 and
 * SHA-512 trees) over leaves `"TL" || sha256("TX" || txn) || sha256("STIB" || stib)`, the
 * transactions encoded as the node encodes them in a block.
 */
export function nodeTxnCommitments(txns: readonly ConfirmedTxn[]): { root: Uint8Array; root256: Uint8Array; root512: Uint8Array } {
  const native: Uint8Array[] = [];
  const leaves256: Uint8Array[] = [];
  for (const t of txns) {
    const stib = concatBytes(STIB, encodeMsgpack(stibToWire(t.stxn, t.ad, true)));
    // The txid is sha512_256("TX" || txn): the confirmed transaction already carries it.
    native.push(sha512_256(concatBytes(TL, fromBase32(t.txid), sha512_256(stib))));
    leaves256.push(concatBytes(TL, sha256(bytesToSign(t.stxn.txn)), sha256(stib)));
  }
  return {
    root: merkleRoot(native, sha512_256, 32),
    root256: vectorCommitmentRoot(leaves256.map(sha256), sha256, 32),
    root512: vectorCommitmentRoot(leaves256.map(sha512), sha512, 64),
  };
}
