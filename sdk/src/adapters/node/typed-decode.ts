import { Address } from '../../encoding/address.js';
import { decodeMsgpack } from '../../encoding/msgpack.js';
import { DecodeError } from '../../errors.js';
import { AD_KEYS, emptyTxnApplyData, headerFromWire, type BlockHeader, type DeltaMap, type TxnApplyData } from '../../ledger/block.js';
import type { ValueDelta } from '../../avm/context.js';
import type { TealValue } from '../../avm/ledger-view.js';
import { emptyAppCallFields, signedTransactionFromWire, transactionFromWire } from '../../txn/wire.js';
import { OnComplete, type SignedTransaction, type Transaction } from '../../txn/types.js';
import { toHex } from '../../encoding/hex.js';

/*
 * Typed decoders for the node's large msgpack answers (blocks, pending-transaction responses,
 * state deltas): a cursor walks the bytes and fills the SDK's typed records directly, without
 * first building msgpackr's generic tree and converting it. Byte values are views into the
 * response body (as algosdk's are). Rare members (state-proof and heartbeat transactions, asset
 * parameters, access lists, multisig and logic signatures) are handed to the generic decoder for
 * just that sub-value, so every valid answer decodes and none is silently truncated.
 */

const TEXT = new TextDecoder();

/** A msgpack cursor. Every read checks bounds and type and throws DecodeError naming the offset. */
export class MsgReader {
  readonly buf: Uint8Array;
  readonly #dv: DataView;
  pos: number;

  constructor(buf: Uint8Array, pos = 0) {
    this.buf = buf;
    this.#dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = pos;
  }

  fail(what: string): never {
    throw new DecodeError(`invalid msgpack at byte ${this.pos}: ${what}`);
  }

  #need(n: number): void {
    if (this.pos + n > this.buf.length) this.fail('unexpected end of input');
  }

  #byte(): number {
    this.#need(1);
    return this.buf[this.pos++]!;
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  peek(): number {
    this.#need(1);
    return this.buf[this.pos]!;
  }

  /** True (and consumed) when the next value is nil. */
  nil(): boolean {
    if (this.peek() === 0xc0) {
      this.pos++;
      return true;
    }
    return false;
  }

  mapLen(): number {
    const b = this.#byte();
    if (b >= 0x80 && b <= 0x8f) return b & 0x0f;
    if (b === 0xde) return this.#u16();
    if (b === 0xdf) return this.#u32();
    if (b === 0xc0) return 0;
    this.pos--;
    return this.fail(`expected a map, got 0x${b.toString(16)}`);
  }

  arrLen(): number {
    const b = this.#byte();
    if (b >= 0x90 && b <= 0x9f) return b & 0x0f;
    if (b === 0xdc) return this.#u16();
    if (b === 0xdd) return this.#u32();
    if (b === 0xc0) return 0;
    this.pos--;
    return this.fail(`expected an array, got 0x${b.toString(16)}`);
  }

  #u16(): number {
    this.#need(2);
    const v = this.#dv.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  #u32(): number {
    this.#need(4);
    const v = this.#dv.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  #strLen(b: number): number {
    if (b >= 0xa0 && b <= 0xbf) return b & 0x1f;
    if (b === 0xd9 || b === 0xc4) return this.#byte();
    if (b === 0xda || b === 0xc5) return this.#u16();
    if (b === 0xdb || b === 0xc6) return this.#u32();
    this.pos--;
    return this.fail(`expected a string or bytes, got 0x${b.toString(16)}`);
  }

  /** A str or bin as a view into the input. */
  bytes(): Uint8Array {
    const n = this.#strLen(this.#byte());
    this.#need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A str or bin of exactly `len` bytes. */
  fixed(len: number, what: string): Uint8Array {
    const b = this.bytes();
    if (b.length !== len) this.fail(`${what}: expected ${len} bytes, got ${b.length}`);
    return b;
  }

  /** A map key or other short text (ASCII fast path). */
  str(): string {
    const n = this.#strLen(this.#byte());
    this.#need(n);
    const start = this.pos;
    this.pos += n;
    if (n <= 16) {
      let s = '';
      for (let i = start; i < start + n; i++) {
        const c = this.buf[i]!;
        if (c > 0x7f) return TEXT.decode(this.buf.subarray(start, start + n));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return TEXT.decode(this.buf.subarray(start, start + n));
  }

  /** An unsigned integer as bigint (uint64 range). */
  u64(): bigint {
    const b = this.#byte();
    if (b <= 0x7f) return BigInt(b);
    switch (b) {
      case 0xcc:
        return BigInt(this.#byte());
      case 0xcd:
        return BigInt(this.#u16());
      case 0xce:
        return BigInt(this.#u32());
      case 0xcf: {
        this.#need(8);
        const v = this.#dv.getBigUint64(this.pos);
        this.pos += 8;
        return v;
      }
      case 0xc0:
        return 0n;
    }
    this.pos--;
    return this.fail(`expected an unsigned integer, got 0x${b.toString(16)}`);
  }

  /** A small unsigned integer as a number. */
  small(): number {
    const v = this.u64();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`${v} is too large here`);
    return Number(v);
  }

  bool(): boolean {
    const b = this.#byte();
    if (b === 0xc3) return true;
    if (b === 0xc2 || b === 0xc0) return false;
    this.pos--;
    return this.fail(`expected a boolean, got 0x${b.toString(16)}`);
  }

  /** Skips one value (of any type). */
  skip(): void {
    const b = this.#byte();
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return;
    if (b >= 0x80 && b <= 0x8f) return this.#skipN((b & 0x0f) * 2);
    if (b >= 0x90 && b <= 0x9f) return this.#skipN(b & 0x0f);
    if (b >= 0xa0 && b <= 0xbf) return this.#advance(b & 0x1f);
    switch (b) {
      case 0xc4:
      case 0xd9:
        return this.#advance(this.#byte());
      case 0xc5:
      case 0xda:
        return this.#advance(this.#u16());
      case 0xc6:
      case 0xdb:
        return this.#advance(this.#u32());
      case 0xc7:
        return this.#advance(this.#byte() + 1);
      case 0xc8:
        return this.#advance(this.#u16() + 1);
      case 0xc9:
        return this.#advance(this.#u32() + 1);
      case 0xca:
        return this.#advance(4);
      case 0xcb:
        return this.#advance(8);
      case 0xcc:
      case 0xd0:
        return this.#advance(1);
      case 0xcd:
      case 0xd1:
        return this.#advance(2);
      case 0xce:
      case 0xd2:
        return this.#advance(4);
      case 0xcf:
      case 0xd3:
        return this.#advance(8);
      case 0xd4:
        return this.#advance(2);
      case 0xd5:
        return this.#advance(3);
      case 0xd6:
        return this.#advance(5);
      case 0xd7:
        return this.#advance(9);
      case 0xd8:
        return this.#advance(17);
      case 0xdc:
        return this.#skipN(this.#u16());
      case 0xdd:
        return this.#skipN(this.#u32());
      case 0xde:
        return this.#skipN(this.#u16() * 2);
      case 0xdf:
        return this.#skipN(this.#u32() * 2);
    }
    this.pos--;
    this.fail(`unknown type byte 0x${b.toString(16)}`);
  }

  #advance(n: number): void {
    this.#need(n);
    this.pos += n;
  }

  #skipN(n: number): void {
    for (let i = 0; i < n; i++) this.skip();
  }

  /** The raw bytes of the next value (skipped). */
  span(): Uint8Array {
    const start = this.pos;
    this.skip();
    return this.buf.subarray(start, this.pos);
  }

  /** The next value through the generic decoder (for rare members). */
  generic(options: { maps?: boolean } = {}): unknown {
    return decodeMsgpack(this.span(), { copy: false, ...options });
  }
}

// ---- transactions ---------------------------------------------------------------------------------

const ZERO32 = new Uint8Array(32);

function isZero(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

function addr(r: MsgReader, what: string): Address {
  return new Address(r.fixed(32, what));
}

function optAddr(r: MsgReader, what: string): Address | undefined {
  const b = r.fixed(32, what);
  return isZero(b) ? undefined : new Address(b);
}

function schema(r: MsgReader): { numUints: number; numByteSlices: number } | undefined {
  let numUints = 0;
  let numByteSlices = 0;
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    if (k === 'nui') numUints = r.small();
    else if (k === 'nbs') numByteSlices = r.small();
    else r.skip();
  }
  return numUints || numByteSlices ? { numUints, numByteSlices } : undefined;
}

/** One transaction map. Falls back to the generic decoder (for that map only) on rare members. */
export function readTransaction(r: MsgReader): Transaction {
  const start = r.pos;
  const n = r.mapLen();
  const zero = new Address(ZERO32);
  const txn: Transaction = { type: 'pay', sender: zero, fee: 0n, firstValid: 0n, lastValid: 0n };
  // One pass: members go into per-type records created on first use; the type is checked at the end.
  let type = '';
  let pay: NonNullable<Transaction['payment']> | undefined;
  let acfg: NonNullable<Transaction['assetConfig']> | undefined;
  let axfer: NonNullable<Transaction['assetTransfer']> | undefined;
  let afrz: NonNullable<Transaction['assetFreeze']> | undefined;
  let app: NonNullable<Transaction['appCall']> | undefined;
  const P = () => (pay ??= { receiver: zero, amount: 0n });
  const X = () => (axfer ??= { assetId: 0n, amount: 0n, receiver: zero });
  const F = () => (afrz ??= { assetId: 0n, account: zero, frozen: false });
  const A = () => (app ??= emptyAppCallFields());
  let rawBoxes: { i: number; n: Uint8Array }[] | undefined;
  for (let i = 0; i < n; i++) {
    const k = r.str();
    switch (k) {
      case 'type':
        type = r.str();
        break;
      case 'snd':
        txn.sender = addr(r, 'snd');
        break;
      case 'fee':
        txn.fee = r.u64();
        break;
      case 'fv':
        txn.firstValid = r.u64();
        break;
      case 'lv':
        txn.lastValid = r.u64();
        break;
      case 'note': {
        const b = r.bytes();
        if (b.length) txn.note = b;
        break;
      }
      case 'gen': {
        const s = r.str();
        if (s) txn.genesisId = s;
        break;
      }
      case 'gh': {
        const b = r.fixed(32, 'gh');
        if (!isZero(b)) txn.genesisHash = b;
        break;
      }
      case 'grp': {
        const b = r.fixed(32, 'grp');
        if (!isZero(b)) txn.group = b;
        break;
      }
      case 'lx': {
        const b = r.fixed(32, 'lx');
        if (!isZero(b)) txn.lease = b;
        break;
      }
      case 'rekey': {
        const a = optAddr(r, 'rekey');
        if (a) txn.rekeyTo = a;
        break;
      }
      case 'rcv':
        P().receiver = addr(r, 'rcv');
        break;
      case 'amt':
        P().amount = r.u64();
        break;
      case 'close': {
        const a = optAddr(r, 'close');
        if (a) P().closeRemainderTo = a;
        else P();
        break;
      }
      case 'caid':
        (acfg ??= { assetId: 0n }).assetId = r.u64();
        break;
      case 'xaid':
        X().assetId = r.u64();
        break;
      case 'aamt':
        X().amount = r.u64();
        break;
      case 'asnd': {
        const a = optAddr(r, 'asnd');
        if (a) X().assetSender = a;
        else X();
        break;
      }
      case 'arcv':
        X().receiver = addr(r, 'arcv');
        break;
      case 'aclose': {
        const a = optAddr(r, 'aclose');
        if (a) X().closeTo = a;
        else X();
        break;
      }
      case 'faid':
        F().assetId = r.u64();
        break;
      case 'fadd':
        F().account = addr(r, 'fadd');
        break;
      case 'afrz':
        F().frozen = r.bool();
        break;
      case 'apid':
        A().appId = r.u64();
        break;
      case 'apan': {
        const oc = r.small();
        if (oc > OnComplete.DeleteApplication) r.fail(`unknown on-completion ${oc}`);
        A().onComplete = oc;
        break;
      }
      case 'apaa': {
        const c = r.arrLen();
        const l = A().args;
        for (let j = 0; j < c; j++) l.push(r.bytes());
        break;
      }
      case 'apat': {
        const c = r.arrLen();
        const l = A().accounts;
        for (let j = 0; j < c; j++) l.push(addr(r, 'apat'));
        break;
      }
      case 'apas': {
        const c = r.arrLen();
        const l = A().foreignAssets;
        for (let j = 0; j < c; j++) l.push(r.u64());
        break;
      }
      case 'apfa': {
        const c = r.arrLen();
        const l = A().foreignApps;
        for (let j = 0; j < c; j++) l.push(r.u64());
        break;
      }
      case 'apbx': {
        A();
        rawBoxes = [];
        const c = r.arrLen();
        for (let j = 0; j < c; j++) {
          const b: { i: number; n: Uint8Array } = { i: 0, n: new Uint8Array(0) };
          for (let m = r.mapLen(); m > 0; m--) {
            const bk = r.str();
            if (bk === 'i') b.i = r.small();
            else if (bk === 'n') b.n = r.bytes();
            else r.fail(`unknown box reference field ${bk}`);
          }
          rawBoxes.push(b);
        }
        break;
      }
      case 'apls': {
        const s = schema(r);
        if (s) A().localSchema = s;
        else A();
        break;
      }
      case 'apgs': {
        const s = schema(r);
        if (s) A().globalSchema = s;
        else A();
        break;
      }
      case 'apap': {
        const b = r.bytes();
        if (b.length) A().approvalProgram = b;
        else A();
        break;
      }
      case 'apsu': {
        const b = r.bytes();
        if (b.length) A().clearProgram = b;
        else A();
        break;
      }
      case 'apep':
        A().extraPages = r.small();
        break;
      case 'aprv':
        A().rejectVersion = r.u64();
        break;
      default:
        // keyreg, asset parameters, access lists, state proofs, heartbeats: the generic path.
        r.pos = start;
        return transactionFromWire(r.generic(), 'txn');
    }
  }
  const owners = (pay ? 1 : 0) + (acfg ? 1 : 0) + (axfer ? 1 : 0) + (afrz ? 1 : 0) + (app ? 1 : 0);
  const ok =
    owners === 0
      ? type === 'pay' || type === 'acfg' || type === 'axfer' || type === 'afrz' || type === 'appl'
      : (type === 'pay' && pay) || (type === 'acfg' && acfg) || (type === 'axfer' && axfer) || (type === 'afrz' && afrz) || (type === 'appl' && app);
  if (!ok || owners > 1) {
    // A mismatch (or an unknown type): let the generic path report it precisely.
    const end = r.pos;
    r.pos = start;
    const t = transactionFromWire(r.generic(), 'txn');
    r.pos = end;
    return t;
  }
  txn.type = type as Transaction['type'];
  switch (type) {
    case 'pay':
      txn.payment = P();
      break;
    case 'acfg':
      txn.assetConfig = acfg ?? { assetId: 0n };
      break;
    case 'axfer':
      txn.assetTransfer = X();
      break;
    case 'afrz':
      txn.assetFreeze = F();
      break;
    case 'appl': {
      const ap = A();
      txn.appCall = ap;
      if (rawBoxes) {
        ap.boxes = rawBoxes.map((b) => {
          if (b.i === 0) return { appId: 0n, name: b.n };
          const appId = ap.foreignApps[b.i - 1];
          if (appId === undefined) r.fail(`box index ${b.i} is beyond foreign apps (${ap.foreignApps.length})`);
          return { appId, name: b.n };
        });
      }
      break;
    }
  }
  return txn;
}

/** A signed transaction map (`txn`, `sig`; other signature kinds through the generic path). */
export function readSignedTransaction(r: MsgReader): SignedTransaction {
  const start = r.pos;
  const n = r.mapLen();
  let txn: Transaction | undefined;
  let sig: Uint8Array | undefined;
  let authAddress: Address | undefined;
  for (let i = 0; i < n; i++) {
    const k = r.str();
    if (k === 'txn') txn = readTransaction(r);
    else if (k === 'sig') sig = r.fixed(64, 'sig');
    else if (k === 'sgnr') authAddress = optAddr(r, 'sgnr');
    else {
      r.pos = start;
      return signedTransactionFromWire(r.generic(), 'stxn');
    }
  }
  if (!txn) r.fail('signed transaction without txn');
  const s: SignedTransaction = { txn };
  if (sig && !isZero(sig)) s.sig = sig;
  if (authAddress) s.authAddress = authAddress;
  return s;
}

// ---- apply data -----------------------------------------------------------------------------------

function readValueDelta(r: MsgReader): ValueDelta {
  let at = 0;
  let bs: Uint8Array | undefined;
  let ui = 0n;
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    if (k === 'at') at = r.small();
    else if (k === 'bs') bs = r.bytes();
    else if (k === 'ui') ui = r.u64();
    else r.skip();
  }
  if (at === 3) return { action: 'delete' };
  if (at === 2) return { action: 'set', value: ui as TealValue };
  return { action: 'set', value: (bs ?? new Uint8Array(0)) as TealValue };
}

function readDeltaMap(r: MsgReader): DeltaMap {
  const out: DeltaMap = new Map();
  for (let n = r.mapLen(); n > 0; n--) {
    const key = r.bytes();
    out.set(toHex(key), { key, delta: readValueDelta(r) });
  }
  return out;
}

/** An EvalDelta (`dt`) into `ad`; local deltas are resolved against the transaction's accounts. */
function readEvalDelta(r: MsgReader, ad: TxnApplyData, txn: () => Transaction | undefined): void {
  let ld: [number, DeltaMap][] | undefined;
  let sa: Uint8Array[] = [];
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    switch (k) {
      case 'gd':
        ad.globalDelta = readDeltaMap(r);
        break;
      case 'lg': {
        const c = r.arrLen();
        for (let i = 0; i < c; i++) ad.logs.push(r.bytes());
        break;
      }
      case 'ld': {
        ld = [];
        for (let m = r.mapLen(); m > 0; m--) ld.push([r.small(), readDeltaMap(r)]);
        break;
      }
      case 'sa': {
        const c = r.arrLen();
        sa = [];
        for (let i = 0; i < c; i++) sa.push(r.fixed(32, 'sa'));
        break;
      }
      case 'itx': {
        const c = r.arrLen();
        for (let i = 0; i < c; i++) {
          const inner = readStib(r);
          ad.inner.push({ txn: inner.stxn.txn, txid: new Uint8Array(32), ad: inner.ad });
        }
        break;
      }
      default:
        r.skip();
    }
  }
  if (ld) {
    const t = txn();
    const known = [t?.sender.publicKey ?? ZERO32, ...(t?.appCall?.accounts.map((a) => a.publicKey) ?? []), ...sa];
    for (const [i, keys] of ld) {
      const address = known[i] ?? new Uint8Array(32);
      ad.localDeltas.set(toHex(address), { address, keys });
    }
  }
}

/** A block's SignedTxnInBlock (or an inner transaction): the signed transaction and its ApplyData. */
export interface DecodedStib {
  stxn: SignedTransaction;
  ad: TxnApplyData;
  /** The genesis id / hash were stripped into the block header (`hgi` / `hgh`). */
  hgi: boolean;
  hgh: boolean;
}

function readStib(r: MsgReader): DecodedStib {
  const start = r.pos;
  const ad = emptyTxnApplyData();
  let txn: Transaction | undefined;
  let sig: Uint8Array | undefined;
  let authAddress: Address | undefined;
  let hgi = false;
  let hgh = false;
  let generic = false;
  let dtAt = -1;
  const n = r.mapLen();
  for (let i = 0; i < n; i++) {
    const k = r.str();
    switch (k) {
      case 'txn':
        txn = readTransaction(r);
        break;
      case 'sig':
        sig = r.fixed(64, 'sig');
        break;
      case 'sgnr':
        authAddress = optAddr(r, 'sgnr');
        break;
      case 'hgi':
        hgi = r.bool();
        break;
      case 'hgh':
        hgh = r.bool();
        break;
      case 'ca':
        ad.closingAmount = r.u64();
        break;
      case 'aca':
        ad.assetClosingAmount = r.u64();
        break;
      case 'apid':
        ad.createdAppId = r.u64();
        break;
      case 'caid':
        ad.createdAssetId = r.u64();
        break;
      case 'dt':
        dtAt = r.pos;
        r.skip();
        break;
      case 'rs':
      case 'rr':
      case 'rc':
        r.skip();
        break;
      default:
        generic = true;
        r.skip();
    }
  }
  const end = r.pos;
  let stxn: SignedTransaction;
  if (generic || !txn) {
    // msig / lsig / pqsig: the whole signed transaction through the generic decoder.
    const whole = new MsgReader(r.buf, start).generic() as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const k of Object.keys(whole)) if (!AD_KEYS.has(k)) plain[k] = whole[k];
    stxn = signedTransactionFromWire(plain, 'stib');
  } else {
    stxn = { txn };
    if (sig && !isZero(sig)) stxn.sig = sig;
    if (authAddress) stxn.authAddress = authAddress;
  }
  if (dtAt >= 0) {
    r.pos = dtAt;
    readEvalDelta(r, ad, () => stxn.txn);
  }
  r.pos = end;
  return { stxn, ad, hgi, hgh };
}

// ---- blocks ---------------------------------------------------------------------------------------

/** A block as `/v2/blocks/{round}?format=msgpack` carries it, decoded into typed records. */
export interface DecodedBlock {
  header: BlockHeader;
  /** The payset; genesis id/hash are restored into each transaction where `hgi`/`hgh` say so. */
  txns: DecodedStib[];
}

const HEADER_KEYS = new Set([
  'earn',
  'fc',
  'fees',
  'frac',
  'gen',
  'gh',
  'prev',
  'proto',
  'rate',
  'rnd',
  'rwcalr',
  'rwd',
  'seed',
  'tc',
  'ts',
  'txn',
  'txn256',
  'prev512',
  'txn512',
]);

function readBlockBody(r: MsgReader): DecodedBlock {
  const hw: Record<string, unknown> = {};
  let txnsAt = -1;
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    if (k === 'txns') {
      txnsAt = r.pos;
      r.skip();
    } else if (k === 'gen' || k === 'proto') hw[k] = r.str();
    else if (k === 'fees' || k === 'gh' || k === 'prev' || k === 'rwd' || k === 'seed' || k === 'txn' || k === 'txn256' || k === 'prev512' || k === 'txn512')
      hw[k] = r.bytes();
    else if (HEADER_KEYS.has(k)) hw[k] = r.u64();
    else r.skip();
  }
  const header = headerFromWire(hw);
  const txns: DecodedStib[] = [];
  if (txnsAt >= 0) {
    const end = r.pos;
    r.pos = txnsAt;
    const c = r.arrLen();
    for (let i = 0; i < c; i++) {
      const s = readStib(r);
      if (s.hgi) s.stxn.txn.genesisId = header.genesisId;
      if (s.hgh) s.stxn.txn.genesisHash = header.genesisHash;
      txns.push(s);
    }
    r.pos = end;
  }
  return { header, txns };
}

/** `{block, cert?}` (what the node answers) or a bare block map. */
export function decodeBlockResponse(bytes: Uint8Array): DecodedBlock {
  const r = new MsgReader(bytes);
  const start = r.pos;
  const n = r.mapLen();
  for (let i = 0; i < n; i++) {
    const k = r.str();
    if (k === 'block') return readBlockBody(r);
    if (k === 'rnd' || k === 'gen' || k === 'ts') {
      r.pos = start;
      return readBlockBody(r);
    }
    r.skip();
  }
  return r.fail('no block in the response');
}

// ---- pending-transaction responses -------------------------------------------------------------

/** One entry of `global-state-delta` / `local-state-delta` (key and bytes base64 text, as the node writes them). */
export interface DecodedEvalDelta {
  key: string;
  action: number;
  bytes?: string;
  uint?: bigint;
}

/** PendingTransactionResponse with a typed signed transaction. */
export interface DecodedPending {
  txn: SignedTransaction;
  poolError: string;
  confirmedRound?: bigint;
  assetIndex?: bigint;
  applicationIndex?: bigint;
  closingAmount?: bigint;
  assetClosingAmount?: bigint;
  senderRewards?: bigint;
  receiverRewards?: bigint;
  closeRewards?: bigint;
  logs?: Uint8Array[];
  globalStateDelta?: DecodedEvalDelta[];
  localStateDelta?: { address: string; delta: DecodedEvalDelta[] }[];
  innerTxns?: DecodedPending[];
}

function readEvalDeltaList(r: MsgReader): DecodedEvalDelta[] {
  const out: DecodedEvalDelta[] = [];
  for (let c = r.arrLen(); c > 0; c--) {
    const e: DecodedEvalDelta = { key: '', action: 0 };
    for (let n = r.mapLen(); n > 0; n--) {
      const k = r.str();
      if (k === 'key') e.key = r.str();
      else if (k === 'value') {
        for (let m = r.mapLen(); m > 0; m--) {
          const vk = r.str();
          if (vk === 'action') e.action = r.small();
          else if (vk === 'bytes') e.bytes = r.str();
          else if (vk === 'uint') e.uint = r.u64();
          else r.skip();
        }
      } else r.skip();
    }
    out.push(e);
  }
  return out;
}

function readPending(r: MsgReader): DecodedPending {
  const p = { poolError: '' } as DecodedPending;
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    switch (k) {
      case 'txn':
        p.txn = readSignedTransaction(r);
        break;
      case 'pool-error':
        p.poolError = r.str();
        break;
      case 'confirmed-round':
        p.confirmedRound = r.u64();
        break;
      case 'asset-index':
        p.assetIndex = r.u64();
        break;
      case 'application-index':
        p.applicationIndex = r.u64();
        break;
      case 'closing-amount':
        p.closingAmount = r.u64();
        break;
      case 'asset-closing-amount':
        p.assetClosingAmount = r.u64();
        break;
      case 'sender-rewards':
        p.senderRewards = r.u64();
        break;
      case 'receiver-rewards':
        p.receiverRewards = r.u64();
        break;
      case 'close-rewards':
        p.closeRewards = r.u64();
        break;
      case 'logs': {
        const c = r.arrLen();
        p.logs = [];
        for (let i = 0; i < c; i++) p.logs.push(r.bytes());
        break;
      }
      case 'global-state-delta':
        p.globalStateDelta = readEvalDeltaList(r);
        break;
      case 'local-state-delta': {
        p.localStateDelta = [];
        for (let c = r.arrLen(); c > 0; c--) {
          const e = { address: '', delta: [] as DecodedEvalDelta[] };
          for (let m = r.mapLen(); m > 0; m--) {
            const lk = r.str();
            if (lk === 'address') e.address = r.str();
            else if (lk === 'delta') e.delta = readEvalDeltaList(r);
            else r.skip();
          }
          p.localStateDelta.push(e);
        }
        break;
      }
      case 'inner-txns': {
        const c = r.arrLen();
        p.innerTxns = [];
        for (let i = 0; i < c; i++) p.innerTxns.push(readPending(r));
        break;
      }
      default:
        r.skip();
    }
  }
  if (!p.txn) r.fail('pending transaction response without txn');
  return p;
}

/** `GET /v2/transactions/pending/{txid}?format=msgpack`. */
export function decodePendingResponse(bytes: Uint8Array): DecodedPending {
  return readPending(new MsgReader(bytes));
}

// ---- state deltas ---------------------------------------------------------------------------------

/** One account of a round's state delta (`Accts.Accts[i]`): the fields clients read. */
export interface DecodedDeltaAccount {
  address: Uint8Array;
  status: number;
  microAlgos: bigint;
  authAddr?: Uint8Array;
  totalAppSchema: { nui: bigint; nbs: bigint };
  totalAssets: bigint;
  totalAssetParams: bigint;
  totalAppLocalStates: bigint;
  totalAppParams: bigint;
  totalBoxes: bigint;
  totalBoxBytes: bigint;
}

/** A round's ledger state delta (`/v2/deltas/{round}?format=msgpack`), its large parts typed. */
export interface DecodedStateDelta {
  accounts: DecodedDeltaAccount[];
  /** Box changes: raw key (`bx:` + 8-byte app id + name) and new value (undefined: deleted). */
  kvMods: { key: Uint8Array; value?: Uint8Array }[];
  /** Transactions committed in the round: raw 32-byte id, position, last valid round. */
  txids: { txid: Uint8Array; intra: number; lastValid: bigint }[];
  /** Everything else (header, totals, creatables, asset and app resources), generically decoded (maps as `Map`). */
  rest: Record<string, unknown>;
}

function readDeltaAccount(r: MsgReader): DecodedDeltaAccount {
  const a: DecodedDeltaAccount = {
    address: ZERO32,
    status: 0,
    microAlgos: 0n,
    totalAppSchema: { nui: 0n, nbs: 0n },
    totalAssets: 0n,
    totalAssetParams: 0n,
    totalAppLocalStates: 0n,
    totalAppParams: 0n,
    totalBoxes: 0n,
    totalBoxBytes: 0n,
  };
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    switch (k) {
      case 'Addr':
        a.address = r.fixed(32, 'Addr');
        break;
      case 'Status':
        a.status = r.small();
        break;
      case 'MicroAlgos':
        a.microAlgos = r.u64();
        break;
      case 'AuthAddr': {
        const b = r.fixed(32, 'AuthAddr');
        if (!isZero(b)) a.authAddr = b;
        break;
      }
      case 'TotalAppSchema':
        for (let m = r.mapLen(); m > 0; m--) {
          const sk = r.str();
          if (sk === 'nui') a.totalAppSchema.nui = r.u64();
          else if (sk === 'nbs') a.totalAppSchema.nbs = r.u64();
          else r.skip();
        }
        break;
      case 'TotalAssets':
        a.totalAssets = r.u64();
        break;
      case 'TotalAssetParams':
        a.totalAssetParams = r.u64();
        break;
      case 'TotalAppLocalStates':
        a.totalAppLocalStates = r.u64();
        break;
      case 'TotalAppParams':
        a.totalAppParams = r.u64();
        break;
      case 'TotalBoxes':
        a.totalBoxes = r.u64();
        break;
      case 'TotalBoxBytes':
        a.totalBoxBytes = r.u64();
        break;
      default:
        r.skip();
    }
  }
  return a;
}

/** Decodes a state delta; the account list, box changes and txids without the generic tree. */
export function decodeStateDelta(bytes: Uint8Array): DecodedStateDelta {
  const r = new MsgReader(bytes);
  const out: DecodedStateDelta = { accounts: [], kvMods: [], txids: [], rest: {} };
  for (let n = r.mapLen(); n > 0; n--) {
    const k = r.str();
    if (k === 'Accts') {
      for (let m = r.mapLen(); m > 0; m--) {
        const ak = r.str();
        if (ak === 'Accts') {
          for (let c = r.arrLen(); c > 0; c--) out.accounts.push(readDeltaAccount(r));
        } else out.rest[`Accts.${ak}`] = r.generic({ maps: true });
      }
    } else if (k === 'KvMods') {
      for (let m = r.mapLen(); m > 0; m--) {
        const key = r.bytes();
        let value: Uint8Array | undefined;
        for (let f = r.mapLen(); f > 0; f--) {
          const fk = r.str();
          if (fk === 'Data') value = r.nil() ? undefined : r.bytes();
          else r.skip();
        }
        out.kvMods.push(value === undefined ? { key } : { key, value });
      }
    } else if (k === 'Txids') {
      for (let m = r.mapLen(); m > 0; m--) {
        const txid = r.bytes();
        let lastValid = 0n;
        let intra = 0;
        for (let f = r.mapLen(); f > 0; f--) {
          const fk = r.str();
          if (fk === 'LastValid') lastValid = r.u64();
          else if (fk === 'Intra') intra = r.small();
          else r.skip();
        }
        out.txids.push({ txid, intra, lastValid });
      }
    } else out.rest[k] = r.generic({ maps: true });
  }
  return out;
}
