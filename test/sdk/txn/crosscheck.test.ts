import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { bytesEqual } from '../../../sdk/src/encoding/bytes.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import {
  OnComplete,
  buildAccessList,
  computeGroupId,
  decodeSignedTransaction,
  decodeTransaction,
  encodeSignedTransaction,
  encodeTransaction,
  makeAppCallTxn,
  makeAssetConfigTxn,
  makeAssetCreateTxn,
  makeAssetDestroyTxn,
  makeAssetFreezeTxn,
  makeAssetTransferTxn,
  makeKeyRegTxn,
  makePaymentTxn,
  signTransactionToBytes,
  transactionFromWire,
  txid,
  type AccessReference,
  type CommonParams,
  type Transaction,
} from '../../../sdk/src/txn/index.js';
import { decodeMsgpack, encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { fromBase64Lenient } from '../../../sdk/src/encoding/base64.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sdkTesting } from './fixtures.js';
import { prng } from '../../helpers/random.js';
import { needShared } from '../../helpers/shared.js';

/**
 * Differential test against algosdk v3: seeded random transactions of every type with every
 * optional field, built by both SDKs from the same description. Encodings, txids, signatures and
 * group ids must be identical, and algosdk's bytes must decode through ours to our own object.
 */

const TOTAL = 10_000;
const SIGN_EVERY = 80; // algosdk signs in pure JS (~8 ms each); a sample of 125 signatures is compared
const DEEP_EVERY = 4; // full object comparison on a quarter; the rest compare re-encodings
const SEED = 0x7ea1;

class Gen {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const r = (this.next() * 4294967296) >>> 0;
      out[i] = r;
      if (i + 1 < n) out[i + 1] = r >>> 8;
      if (i + 2 < n) out[i + 2] = r >>> 16;
      if (i + 3 < n) out[i + 3] = r >>> 24;
    }
    return out;
  }
  /** Spread over every integer width so each msgpack uint form is exercised. */
  u64(): bigint {
    switch (this.int(6)) {
      case 0:
        return BigInt(this.int(128));
      case 1:
        return BigInt(128 + this.int(128));
      case 2:
        return BigInt(256 + this.int(65280));
      case 3:
        return BigInt(65536 + this.int(0xfffeffff));
      case 4:
        return (BigInt(this.int(0x100000)) << 32n) | BigInt(this.int(0x100000000));
      default:
        return (1n << 64n) - 1n - BigInt(this.int(1000));
    }
  }
  id(): bigint {
    const v = this.u64();
    return v === 0n ? 1n : v;
  }
  addr(): Address {
    return new Address(this.bytes(32));
  }
  str(maxBytes: number): string {
    const n = this.int(maxBytes + 1);
    const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_';
    let s = '';
    for (let i = 0; i < n; i++) s += chars[this.int(chars.length)];
    // Occasionally a multi-byte character, kept within the byte limit.
    if (n >= 2 && this.chance(0.1)) s = s.slice(0, n - 2) + 'é';
    return s;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

interface Case {
  ours: Transaction;
  theirs: algosdk.Transaction;
  signer: Ed25519KeyPair;
}

/** algosdk's own Address from our key bytes (skips two checksum computations per address). */
function their(a: Address): algosdk.Address;
function their(a: Address | undefined): algosdk.Address | undefined;
function their(a: Address | undefined): algosdk.Address | undefined {
  return a === undefined ? undefined : new algosdk.Address(a.publicKey);
}

const KEYS = Array.from({ length: 4 }, (_, i) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(i + 1)));

function header(g: Gen, signer: Ed25519KeyPair) {
  // Rekeyed senders: sometimes the signer is not the sender (then sgnr is set on both sides).
  const sender = g.chance(0.8) ? new Address(signer.publicKey) : g.addr();
  const firstValid = g.u64() >> 1n;
  const lastValid = firstValid + BigInt(g.int(1001));
  const fee = g.chance(0.1) ? 0n : g.u64() >> 8n;
  const note = g.chance(0.5) ? g.bytes(g.chance(0.1) ? g.int(1025) : g.int(64)) : undefined;
  const genesisId = g.chance(0.7) ? g.pick(['mainnet-v1.0', 'testnet-v1.0', 'devnet-v33.0', 'x']) : undefined;
  const genesisHash = g.chance(0.9) ? g.bytes(32) : undefined;
  const lease = g.chance(0.3) ? g.bytes(32) : undefined;
  const rekeyTo = g.chance(0.2) ? g.addr() : undefined;
  const ours: CommonParams = { sender, note, lease, rekeyTo, suggestedParams: { fee, flatFee: true, firstValid, lastValid, genesisId, genesisHash } };
  const theirs = {
    sender: their(sender),
    note,
    lease,
    rekeyTo: their(rekeyTo),
    suggestedParams: { fee, flatFee: true, minFee: 1000n, firstValid, lastValid, genesisID: genesisId, genesisHash },
  };
  return { ours, theirs };
}

function makeCase(g: Gen, kind: number): Case {
  const signer = g.pick(KEYS);
  const { ours: h, theirs: th } = header(g, signer);
  const A = algosdk.TransactionType;
  switch (kind) {
    case 0: {
      const receiver = g.addr();
      const amount = g.u64();
      const close = g.chance(0.3) ? g.addr() : undefined;
      return {
        signer,
        ours: makePaymentTxn({ ...h, receiver, amount, closeRemainderTo: close }),
        theirs: new algosdk.Transaction({ ...th, type: A.pay, paymentParams: { receiver: their(receiver), amount, closeRemainderTo: their(close) } }),
      };
    }
    case 1: {
      const mode = g.int(3);
      if (mode === 0) {
        const voteKey = g.bytes(32);
        const selectionKey = g.bytes(32);
        const stateProofKey = g.chance(0.7) ? g.bytes(64) : undefined;
        const voteFirst = g.u64() >> 2n;
        const voteLast = voteFirst + 1n + BigInt(g.int(1_000_000));
        const voteKeyDilution = g.id();
        return {
          signer,
          ours: makeKeyRegTxn({ ...h, voteKey, selectionKey, stateProofKey, voteFirst, voteLast, voteKeyDilution }),
          theirs: new algosdk.Transaction({
            ...th,
            type: A.keyreg,
            keyregParams: { voteKey, selectionKey, stateProofKey, voteFirst, voteLast, voteKeyDilution },
          }),
        };
      }
      const nonParticipation = mode === 2;
      return {
        signer,
        ours: makeKeyRegTxn({ ...h, nonParticipation }),
        theirs: new algosdk.Transaction({ ...th, type: A.keyreg, keyregParams: { nonParticipation } }),
      };
    }
    case 2: {
      const mode = g.int(3);
      const roles = () => ({
        manager: g.chance(0.6) ? g.addr() : undefined,
        reserve: g.chance(0.6) ? g.addr() : undefined,
        freeze: g.chance(0.6) ? g.addr() : undefined,
        clawback: g.chance(0.6) ? g.addr() : undefined,
      });
      const str = (a: Address | undefined) => their(a);
      if (mode === 0) {
        const r = roles();
        const p = {
          total: g.u64(),
          decimals: g.int(20),
          defaultFrozen: g.chance(0.5),
          unitName: g.chance(0.8) ? g.str(8) : undefined,
          assetName: g.chance(0.8) ? g.str(32) : undefined,
          url: g.chance(0.6) ? g.str(96) : undefined,
          metadataHash: g.chance(0.5) ? g.bytes(32) : undefined,
        };
        return {
          signer,
          ours: makeAssetCreateTxn({ ...h, ...p, ...r }),
          theirs: new algosdk.Transaction({
            ...th,
            type: A.acfg,
            assetConfigParams: {
              total: p.total,
              decimals: p.decimals,
              defaultFrozen: p.defaultFrozen,
              unitName: p.unitName,
              assetName: p.assetName,
              assetURL: p.url,
              assetMetadataHash: p.metadataHash,
              manager: str(r.manager),
              reserve: str(r.reserve),
              freeze: str(r.freeze),
              clawback: str(r.clawback),
            },
          }),
        };
      }
      const assetId = g.id();
      if (mode === 1) {
        const r = roles();
        return {
          signer,
          ours: makeAssetConfigTxn({ ...h, assetId, ...r }),
          theirs: new algosdk.Transaction({
            ...th,
            type: A.acfg,
            assetConfigParams: { assetIndex: assetId, manager: str(r.manager), reserve: str(r.reserve), freeze: str(r.freeze), clawback: str(r.clawback) },
          }),
        };
      }
      return {
        signer,
        ours: makeAssetDestroyTxn({ ...h, assetId }),
        theirs: new algosdk.Transaction({ ...th, type: A.acfg, assetConfigParams: { assetIndex: assetId } }),
      };
    }
    case 3: {
      const assetId = g.id();
      const mode = g.int(4); // opt-in, transfer, clawback, close-out
      const receiver = mode === 0 ? (h.sender as Address) : g.addr();
      const amount = mode === 0 ? 0n : g.u64();
      const assetSender = mode === 2 ? g.addr() : undefined;
      const close = mode === 3 ? g.addr() : undefined;
      return {
        signer,
        ours: makeAssetTransferTxn({ ...h, assetId, receiver, amount, assetSender, closeRemainderTo: close }),
        theirs: new algosdk.Transaction({
          ...th,
          type: A.axfer,
          assetTransferParams: { assetIndex: assetId, receiver: their(receiver), amount, assetSender: their(assetSender), closeRemainderTo: their(close) },
        }),
      };
    }
    case 4: {
      const assetId = g.id();
      const target = g.addr();
      const frozen = g.chance(0.5);
      return {
        signer,
        ours: makeAssetFreezeTxn({ ...h, assetId, freezeTarget: target, frozen }),
        theirs: new algosdk.Transaction({ ...th, type: A.afrz, assetFreezeParams: { assetIndex: assetId, freezeTarget: their(target), frozen } }),
      };
    }
    default:
      return appCase(g, signer, h, th);
  }
}

function appCase(g: Gen, signer: Ed25519KeyPair, h: CommonParams, th: ReturnType<typeof header>['theirs']): Case {
  const create = g.chance(0.25);
  const appId = create ? 0n : g.id();
  const onComplete = create ? g.pick([OnComplete.NoOp, OnComplete.OptIn]) : (g.int(6) as OnComplete);
  const withPrograms = create || onComplete === OnComplete.UpdateApplication;
  const extraPages = create && g.chance(0.3) ? g.int(4) : 0;
  const pageBytes = 2048 * (1 + extraPages);
  const approvalProgram = withPrograms ? g.bytes(1 + g.int(Math.min(pageBytes - 1, 300))) : undefined;
  const clearProgram = withPrograms ? g.bytes(1 + g.int(50)) : undefined;
  const args = Array.from({ length: g.int(17) }, () => g.bytes(g.int(100)));
  const globalSchema = create && g.chance(0.7) ? { numUints: g.int(33), numByteSlices: g.int(32) } : undefined;
  const localSchema = create && g.chance(0.7) ? { numUints: g.int(9), numByteSlices: g.int(8) } : undefined;
  const rejectVersion = g.chance(0.2) ? BigInt(1 + g.int(20)) : 0n;
  let accounts: Address[] = [];
  let foreignApps: bigint[] = [];
  let foreignAssets: bigint[] = [];
  let boxes: { appId: bigint; name: Uint8Array }[] = [];
  const refs: AccessReference[] = [];
  const theirRefs: algosdk.ResourceReference[] = [];
  if (g.chance(0.35)) {
    // Access list: built from references by both SDKs' layout rules.
    const n = 1 + g.int(8);
    const addrPool = [g.addr(), g.addr()];
    const idPool = [g.id(), g.id(), g.id()];
    for (let i = 0; i < n; i++) {
      const k = g.int(7);
      const a = g.pick(addrPool);
      const id = g.pick(idPool);
      const name = g.bytes(1 + g.int(20));
      const zeroAddr = g.chance(0.3);
      const own = g.chance(0.3) && appId !== 0n;
      if (k === 0) {
        refs.push({ address: a });
        theirRefs.push({ address: their(a) });
      } else if (k === 1) {
        refs.push({ assetId: id });
        theirRefs.push({ assetIndex: id });
      } else if (k === 2) {
        refs.push({ appId: id });
        theirRefs.push({ appIndex: id });
      } else if (k === 3) {
        refs.push({ holding: { address: zeroAddr ? undefined : a, assetId: id } });
        theirRefs.push({ holding: { address: zeroAddr ? algosdk.Address.zeroAddress() : their(a), assetIndex: id } });
      } else if (k === 4) {
        const app = own ? appId : id;
        refs.push({ locals: { address: zeroAddr ? undefined : a, appId: app } });
        theirRefs.push({ locals: { address: zeroAddr ? algosdk.Address.zeroAddress() : their(a), appIndex: app } });
      } else if (k === 5) {
        const app = own ? appId : id;
        refs.push({ box: { appId: app, name } });
        theirRefs.push({ box: { appIndex: app, name } });
      } else {
        refs.push({ empty: true });
        theirRefs.push({});
      }
    }
    // Keep within the 16-entry limit after layout.
    while (buildAccessList(appId, refs).length > 16) {
      refs.pop();
      theirRefs.pop();
    }
  } else {
    let budget = 8;
    const take = (max: number) => {
      const n = g.int(Math.min(max, budget) + 1);
      budget -= n;
      return n;
    };
    accounts = Array.from({ length: take(8) }, () => g.addr());
    foreignApps = Array.from({ length: take(8) }, () => g.id());
    foreignAssets = Array.from({ length: take(8) }, () => g.id());
    boxes = Array.from({ length: take(8) }, () => {
      const which = g.int(3);
      const id = which === 0 || foreignApps.length === 0 ? 0n : which === 1 && appId !== 0n ? appId : g.pick(foreignApps);
      return { appId: id, name: g.bytes(g.int(65)) };
    });
  }
  const access = refs.length ? buildAccessList(appId, refs) : undefined;
  const ours = makeAppCallTxn({
    ...h,
    appId,
    onComplete,
    approvalProgram,
    clearProgram,
    args,
    accounts,
    foreignApps,
    foreignAssets,
    boxes,
    access,
    globalSchema,
    localSchema,
    extraPages,
    rejectVersion,
  });
  const theirs = new algosdk.Transaction({
    ...th,
    type: algosdk.TransactionType.appl,
    appCallParams: {
      appIndex: appId,
      onComplete: onComplete as number as algosdk.OnApplicationComplete,
      approvalProgram,
      clearProgram,
      appArgs: args,
      accounts: accounts.map((a) => their(a)),
      foreignApps,
      foreignAssets,
      boxes: boxes.map((b) => ({ appIndex: b.appId, name: b.name })),
      access: theirRefs.length ? theirRefs : undefined,
      numGlobalInts: globalSchema?.numUints,
      numGlobalByteSlices: globalSchema?.numByteSlices,
      numLocalInts: localSchema?.numUints,
      numLocalByteSlices: localSchema?.numByteSlices,
      extraPages,
      rejectVersion,
    },
  });
  return { signer, ours, theirs };
}

describe('txn: cross-check against algosdk v3', function () {
  this.timeout(60_000);

  it(`${TOTAL} seeded random transactions of every type: same bytes, txids, signatures, group ids; algosdk bytes decode to our objects`, () => {
    const g = new Gen(SEED);
    const kinds = 6;
    const seen = new Map<string, number>();
    let signed = 0;
    let groups = 0;
    let pending: Case[] = [];
    let groupSize = 1 + g.int(16);
    for (let i = 0; i < TOTAL; i++) {
      const c = makeCase(g, i % kinds);
      const ourBytes = encodeTransaction(c.ours);
      const theirBytes = c.theirs.toByte();
      if (!bytesEqual(ourBytes, theirBytes)) {
        assert.fail(`case ${i} (${c.ours.type}) encodes differently:\n ours   ${toHex(ourBytes)}\n theirs ${toHex(theirBytes)}`);
      }
      assert.equal(txid(c.ours), c.theirs.txID(), `case ${i} txid`);
      const decoded = decodeTransaction(theirBytes);
      if (i % DEEP_EVERY === 0) assert.deepEqual(decoded, c.ours, `case ${i}: algosdk bytes decode to our object`);
      else assert.ok(bytesEqual(encodeTransaction(decoded), theirBytes), `case ${i}: decode/encode round trip`);
      const key = `${c.ours.type}${c.ours.type === 'appl' ? (c.ours.appCall!.access.length ? '+al' : '+refs') : ''}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (i % SIGN_EVERY === 0) {
        const sk = new Uint8Array(64);
        sk.set(c.signer.seed);
        sk.set(c.signer.publicKey, 32);
        const theirs = c.theirs.signTxn(sk);
        const ours = signTransactionToBytes(c.ours, c.signer);
        assert.ok(bytesEqual(ours.blob, theirs), `case ${i} signed bytes`);
        assert.deepEqual(decodeSignedTransaction(theirs).txn, c.ours);
        signed++;
      }
      pending.push(c);
      if (pending.length === groupSize) {
        const ourGid = computeGroupId(pending.map((p) => p.ours));
        const theirGid = algosdk.computeGroupID(pending.map((p) => p.theirs));
        assert.equal(toHex(ourGid), toHex(theirGid), `group ending at case ${i}`);
        groups++;
        pending = [];
        groupSize = 1 + g.int(16);
      }
    }
    assert.ok(signed >= TOTAL / SIGN_EVERY);
    assert.ok(groups > 100);
    for (const t of ['pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl+refs', 'appl+al']) assert.ok((seen.get(t) ?? 0) > 100, `covered ${t}`);
  });

  it('heartbeat transactions (decode-only type): algosdk reads our encoding back to the same bytes and txid', () => {
    const g = new Gen(SEED + 1);
    for (let i = 0; i < 50; i++) {
      const wire = {
        fee: g.u64() >> 8n,
        fv: 1000 + g.int(1000),
        gh: g.bytes(32),
        hb: {
          a: g.bytes(32),
          c: g.chance(0.5),
          kd: g.u64(),
          prf: { p: g.bytes(32), p1s: g.bytes(64), p2: g.bytes(32), p2s: g.bytes(64), s: g.bytes(64) },
          sd: g.bytes(32),
          vid: g.bytes(32),
        },
        lv: 3000,
        snd: g.bytes(32),
        type: 'hb',
      };
      const ours = transactionFromWire(wire);
      const bytes = encodeTransaction(ours);
      const theirs = algosdk.decodeUnsignedTransaction(bytes);
      assert.equal(toHex(theirs.toByte()), toHex(bytes));
      assert.equal(txid(ours), theirs.txID());
      assert.deepEqual(decodeTransaction(bytes), ours);
    }
  });

  it('a recorded state proof block: canonical re-encode of the whole block, typed stpf round trip, same txid as algosdk', function () {
    const path = resolve(sdkTesting, 'resources/stateproof/v2_algod_GetBlock_transaction.base64');
    needShared(this, path);
    const raw = fromBase64Lenient(readFileSync(path, 'utf8').replace(/\s+/g, ''));
    const block = decodeMsgpack(raw, { maps: true }) as Map<string, Map<string, unknown>>;
    assert.equal(toHex(encodeMsgpack(block as never)), toHex(raw), 'the node encoding is canonical and ours reproduces it');
    const entry = (block.get('block')!.get('txns') as Map<string, unknown>[])[0]!;
    const stxnBytes = encodeMsgpack(entry as never);
    const stxn = decodeSignedTransaction(stxnBytes);
    assert.equal(stxn.txn.type, 'stpf');
    assert.equal(toHex(encodeSignedTransaction(stxn)), toHex(stxnBytes));
    assert.equal(txid(stxn.txn), algosdk.decodeSignedTransaction(stxnBytes).txn.txID());
  });

  it('a state proof transaction keeps its uint-keyed maps through decode/encode', () => {
    // Minimal stpf with a reveals map keyed by position (uint keys), as blocks carry them.
    const wire = new Map<string, unknown>([
      [
        'sp',
        new Map<string, unknown>([
          [
            'r',
            new Map<number, unknown>([
              [3, new Map([['p', new Map([['s', 7]])]])],
              [1, new Map([['p', new Map([['s', 9]])]])],
            ]),
          ],
          ['w', 12345],
        ]),
      ],
      [
        'spmsg',
        new Map<string, unknown>([
          ['b', new Uint8Array([1, 2, 3])],
          ['f', 256],
          ['l', 512],
        ]),
      ],
      ['sptype', 0],
      ['snd', new Uint8Array(32).fill(7)],
      ['fv', 1000],
      ['lv', 2000],
      ['type', 'stpf'],
    ]);
    const txn = transactionFromWire(wire);
    const bytes = encodeTransaction(txn);
    const back = decodeMsgpack(bytes, { maps: true }) as Map<string, Map<string, unknown>>;
    const r = back.get('sp')!.get('r') as Map<number, unknown>;
    assert.deepEqual([...r.keys()], [1, 3], 'uint keys stay uints, sorted numerically');
  });
});
