import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import algosdk from 'algosdk';
import { fromBase64Lenient } from '../sdk/src/encoding/base64.js';
import { decodeMsgpack } from '../sdk/src/encoding/msgpack.js';
import { Ed25519KeyPair, nativeEd25519Available } from '../sdk/src/crypto/ed25519.js';
import {
  OnComplete,
  decodeSignedTransaction,
  encodeSignedTransaction,
  encodeTransaction,
  makeAppCallTxn,
  makePaymentTxn,
  signTransaction,
  signTransactionToBytes,
  txid,
  type Transaction,
} from '../sdk/src/txn/index.js';
import { median, opsPerSecond, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

const here = dirname(fileURLToPath(import.meta.url));
const resources = resolve(here, '../../shared/data/fixtures/algorand-sdk-testing/features/resources');

const seed = new Uint8Array(32).fill(7);
const key = Ed25519KeyPair.fromSeed(seed);
const sk = new Uint8Array(64);
sk.set(seed);
sk.set(key.publicKey, 32);
const sender = new algosdk.Address(key.publicKey).toString();
const receiver = 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI';
const genesisHash = new Uint8Array(32).fill(3);
const BATCH = 20;

function ourPayment(i: number): Transaction {
  return makePaymentTxn({
    sender,
    receiver,
    amount: 1000 + i,
    note: new Uint8Array([i & 0xff, 1, 2, 3]),
    suggestedParams: { fee: 0, flatFee: false, firstValid: 1000 + i, lastValid: 2000 + i, genesisId: 'testnet-v1.0', genesisHash },
  });
}

function theirPayment(i: number): algosdk.Transaction {
  return algosdk.makePaymentTxnWithSuggestedParamsFromObject({
    sender,
    receiver,
    amount: 1000 + i,
    note: new Uint8Array([i & 0xff, 1, 2, 3]),
    suggestedParams: { fee: 0, flatFee: false, minFee: 1000, firstValid: 1000 + i, lastValid: 2000 + i, genesisID: 'testnet-v1.0', genesisHash },
  });
}

const appArgs = [new Uint8Array([1, 2, 3, 4]), new Uint8Array(32).fill(5), new Uint8Array(8).fill(9)];

function ourAppCall(i: number): Transaction {
  return makeAppCallTxn({
    sender,
    appId: 1234 + i,
    onComplete: OnComplete.NoOp,
    args: appArgs,
    accounts: [receiver],
    foreignApps: [77, 88],
    foreignAssets: [31566704],
    boxes: [{ appId: 0, name: 'box' }],
    suggestedParams: { fee: 1000, flatFee: true, firstValid: 1000 + i, lastValid: 2000 + i, genesisId: 'testnet-v1.0', genesisHash },
  });
}

function theirAppCall(i: number): algosdk.Transaction {
  return algosdk.makeApplicationNoOpTxnFromObject({
    sender,
    appIndex: 1234 + i,
    appArgs,
    accounts: [receiver],
    foreignApps: [77, 88],
    foreignAssets: [31566704],
    boxes: [{ appIndex: 0, name: new TextEncoder().encode('box') }],
    suggestedParams: { fee: 1000, flatFee: true, minFee: 1000, firstValid: 1000 + i, lastValid: 2000 + i, genesisID: 'testnet-v1.0', genesisHash },
  });
}

function largestRecordedMsgpack(): { name: string; bytes: Uint8Array }[] {
  const files = [
    'generated_responses/groupdelta-betanet_23963123.base64',
    'generated_responses/statedelta_betanet_23963123.base64',
    'stateproof/v2_algod_GetBlock_transaction.base64',
    'generated_responses_231/algod_PendingTransactionResponse_0.base64',
  ];
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const f of files) {
    const path = resolve(resources, f);
    if (!existsSync(path)) continue;
    out.push({ name: f.split('/').pop()!.replace('.base64', ''), bytes: fromBase64Lenient(readFileSync(path, 'utf8').replace(/\s+/g, '')) });
  }
  return out;
}

/**
 * Measures ours and the peer in alternating short rounds and takes each side's median, so a
 * loaded machine slows both sides alike instead of skewing whichever ran during a busy spell.
 */
async function paired(
  ours: () => unknown,
  peer: () => unknown,
  opts: { unitsPerCall: number; minTimeMs?: number; peerMinTimeMs?: number },
): Promise<[number, number]> {
  const o: number[] = [];
  const p: number[] = [];
  for (let round = 0; round < 7; round++) {
    o.push(await opsPerSecond(ours, { unitsPerCall: opts.unitsPerCall, minTimeMs: opts.minTimeMs ?? 150, samples: 1 }));
    p.push(await opsPerSecond(peer, { unitsPerCall: opts.unitsPerCall, minTimeMs: opts.peerMinTimeMs ?? opts.minTimeMs ?? 150, samples: 1 }));
  }
  return [median(o), median(p)];
}

async function pairedWithExtra(
  ours: () => unknown,
  peer: () => unknown,
  extra: () => unknown,
  opts: { unitsPerCall: number },
): Promise<[number, number, number]> {
  const o: number[] = [];
  const p: number[] = [];
  const x: number[] = [];
  for (let round = 0; round < 7; round++) {
    o.push(await opsPerSecond(ours, { unitsPerCall: opts.unitsPerCall, minTimeMs: 150, samples: 1 }));
    p.push(await opsPerSecond(peer, { unitsPerCall: opts.unitsPerCall, minTimeMs: 150, samples: 1 }));
    x.push(await opsPerSecond(extra, { unitsPerCall: opts.unitsPerCall, minTimeMs: 150, samples: 1 }));
  }
  return [median(o), median(p), median(x)];
}

const bench: BenchModule = {
  name: 'txn',
  description: `transaction layer vs algosdk v3 (signing path: ${nativeEd25519Available() ? 'native ed25519' : 'pure JS ed25519'})`,
  async run(): Promise<BenchEntry[]> {
    const entries: BenchEntry[] = [];
    const opts = { unitsPerCall: BATCH };
    let n = 0;
    let k = 0;

    // Build + sign + encode: the whole path from parameters to submittable bytes.
    const [oursSign, theirsSign] = await paired(
      () => {
        for (let i = 0; i < BATCH; i++) signTransactionToBytes(ourPayment(n++ & 1023), key);
      },
      () => {
        for (let i = 0; i < BATCH; i++) theirPayment(n++ & 1023).signTxn(sk);
      },
      { ...opts, peerMinTimeMs: 300 },
    );
    entries.push(throughputEntry('build+sign+encode payment (per-byte fee)', 'txn/s', oursSign, theirsSign));
    const [oursApp, theirsApp] = await paired(
      () => {
        for (let i = 0; i < BATCH; i++) encodeSignedTransaction(signTransaction(ourAppCall(n++ & 1023), key));
      },
      () => {
        for (let i = 0; i < BATCH; i++) theirAppCall(n++ & 1023).signTxn(sk);
      },
      { ...opts, peerMinTimeMs: 300 },
    );
    entries.push(throughputEntry('build+sign+encode app call', 'txn/s', oursApp, theirsApp));

    // Pre-built transactions for the remaining figures (half payments, half app calls).
    const ours = Array.from({ length: 256 }, (_, i) => (i % 2 ? ourAppCall(i) : ourPayment(i)));
    const theirs = Array.from({ length: 256 }, (_, i) => (i % 2 ? theirAppCall(i) : theirPayment(i)));
    const pair = async (name: string, unit: string, o: () => unknown, t: () => unknown, note?: string) => {
      const [a, b] = await paired(o, t, opts);
      entries.push(throughputEntry(name, unit, a, b, note));
    };
    await pair(
      'txid',
      'txid/s',
      () => {
        for (let i = 0; i < BATCH; i++) txid(ours[k++ & 255]!);
      },
      () => {
        for (let i = 0; i < BATCH; i++) theirs[k++ & 255]!.txID();
      },
    );
    await pair(
      'encode transaction',
      'txn/s',
      () => {
        for (let i = 0; i < BATCH; i++) encodeTransaction(ours[k++ & 255]!);
      },
      () => {
        for (let i = 0; i < BATCH; i++) theirs[k++ & 255]!.toByte();
      },
    );
    const ourStxns = ours.map((t) => signTransaction(t, key));
    const theirStxns = theirs.map((t) => algosdk.decodeSignedTransaction(t.signTxn(sk)));
    const blobs = ourStxns.map(encodeSignedTransaction);
    await pair(
      'encode signed txn',
      'stxn/s',
      () => {
        for (let i = 0; i < BATCH; i++) encodeSignedTransaction(ourStxns[k++ & 255]!);
      },
      () => {
        for (let i = 0; i < BATCH; i++) algosdk.encodeMsgpack(theirStxns[k++ & 255]!);
      },
    );
    await pair(
      'decode signed txn (typed)',
      'stxn/s',
      () => {
        for (let i = 0; i < BATCH; i++) decodeSignedTransaction(blobs[k++ & 255]!);
      },
      () => {
        for (let i = 0; i < BATCH; i++) algosdk.decodeSignedTransaction(blobs[k++ & 255]!);
      },
    );

    // Raw msgpack decode of recorded node responses (largest first), Map mode on both sides.
    // algosdk returns bins as views into the input, so the like-for-like figure is our
    // `copy: false`; the default (one private copy of the input) is reported too.
    for (const { name, bytes } of largestRecordedMsgpack()) {
      const reps = Math.max(1, Math.round(200_000 / bytes.length));
      const [o, t, c] = await pairedWithExtra(
        () => {
          for (let i = 0; i < reps; i++) decodeMsgpack(bytes, { maps: true, copy: false });
        },
        () => {
          for (let i = 0; i < reps; i++) algosdk.msgpackRawDecodeAsMap(bytes);
        },
        () => {
          for (let i = 0; i < reps; i++) decodeMsgpack(bytes, { maps: true });
        },
        { unitsPerCall: (reps * bytes.length) / 1e6 },
      );
      const label = `msgpack decode ${name} (${Math.round(bytes.length / 1024)} KiB)`;
      entries.push(throughputEntry(label, 'MB/s', o, t, 'Map mode, bins as views (both sides)'));
      entries.push(throughputEntry(`${label}, default (input copied)`, 'MB/s', c, t, 'our default: decoded bins never alias the input'));
    }
    return entries;
  },
};

export default bench;
