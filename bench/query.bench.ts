import { request } from 'undici';
import { Address } from '../sdk/src/encoding/address.js';
import { toBase32 } from '../sdk/src/encoding/base32.js';
import { toBase64 } from '../sdk/src/encoding/base64.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { emptyTxnApplyData, type Block, type BlockHeader, type ConfirmedTxn } from '../sdk/src/ledger/block.js';
import { serve } from '../sdk/src/services/http/server.js';
import { QueryIndex, createQueryService, type TxnFilter } from '../sdk/src/services/query/index.js';
import { transactionJson } from '../sdk/src/services/query/render.js';
import { OnComplete, type Transaction } from '../sdk/src/txn/types.js';
import { latencyEntry, median, type BenchEntry, type BenchModule } from './lib.js';

const ACCOUNTS = 10_000;
const TXNS_PER_BLOCK = 1000;
const ASSETS = [1001n, 1002n, 1003n, 1004n, 1005n, 1006n, 1007n, 1008n, 1009n, 1010n];
const APPS = [2001n, 2002n, 2003n, 2004n, 2005n];
const T0 = 1_700_000_000;

/** Deterministic pseudo-random numbers so both sizes see the same mix. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

interface Synthetic {
  index: QueryIndex;
  addresses: Address[];
  txids: string[];
  buildMs: number;
}

/**
 * Synthetic chain written straight into the index (no ledger, no signing): 70% payments, 20%
 * asset transfers over 10 assets, 10% app calls over 5 apps (half of them logging); one note in
 * ten starts with "tag:", one in ten thousand with "rare:".
 */
export function synthesize(total: number): Synthetic {
  const rand = rng(42);
  const addresses = Array.from({ length: ACCOUNTS }, (_, i) => {
    const k = new Uint8Array(32);
    new DataView(k.buffer).setUint32(0, i * 2654435761);
    new DataView(k.buffer).setUint32(28, i);
    return new Address(k);
  });
  const sig = new Uint8Array(64).fill(1);
  const gh = new Uint8Array(32).fill(2);
  const ad = emptyTxnApplyData();
  const logAd = { ...emptyTxnApplyData(), logs: [utf8('hello')] };
  const index = new QueryIndex();
  const txids: string[] = [];
  const blocks: Block[] = [];
  const blockCount = Math.ceil(total / TXNS_PER_BLOCK);
  let made = 0;
  for (let r = 0; r <= blockCount; r++) {
    const round = BigInt(r);
    const header: BlockHeader = {
      round,
      prev: gh,
      seed: gh,
      txnRoot: gh,
      txnRoot256: gh,
      timestamp: BigInt(T0 + r * 3),
      genesisId: 'bench',
      genesisHash: gh,
      feeSink: gh,
      rewardsPool: gh,
      rewardsLevel: 0n,
      rewardsRate: 0n,
      rewardsResidue: 0n,
      rewardsRecalculationRound: 0n,
      protocol: 'future',
      txnCounter: 0n,
      feesCollected: 0n,
    };
    const txns: ConfirmedTxn[] = [];
    const count = r === 0 ? 0 : Math.min(TXNS_PER_BLOCK, total - made);
    for (let i = 0; i < count; i++, made++) {
      const sender = addresses[Math.floor(rand() * ACCOUNTS)]!;
      const other = addresses[Math.floor(rand() * ACCOUNTS)]!;
      const kind = rand();
      const t: Transaction = { type: 'pay', sender, fee: 1000n, firstValid: round, lastValid: round + 1000n, genesisHash: gh };
      let txnAd = ad;
      if (kind < 0.7) t.payment = { receiver: other, amount: BigInt(Math.floor(rand() * 10_000_000)) };
      else if (kind < 0.9) {
        t.type = 'axfer';
        t.assetTransfer = { assetId: ASSETS[Math.floor(rand() * ASSETS.length)]!, amount: BigInt(Math.floor(rand() * 1000)), receiver: other };
      } else {
        t.type = 'appl';
        const app = APPS[Math.floor(rand() * APPS.length)]!;
        t.appCall = {
          appId: app,
          onComplete: OnComplete.NoOp,
          args: [],
          accounts: [],
          foreignApps: [],
          foreignAssets: [],
          boxes: [],
          access: [],
          extraPages: 0,
          rejectVersion: 0n,
        };
        if (rand() < 0.5) txnAd = logAd;
      }
      const n = rand();
      if (n < 0.1) t.note = utf8(`tag:${made}`);
      else if (n < 0.1001) t.note = utf8(`rare:${made}`);
      const idBytes = new Uint8Array(32);
      new DataView(idBytes.buffer).setUint32(0, made + 1);
      new DataView(idBytes.buffer).setUint32(28, made * 7919);
      const txid = toBase32(idBytes);
      if (made % 997 === 0) txids.push(txid);
      txns.push({ stxn: { txn: t, sig }, txid, ad: txnAd, round, intra: i });
    }
    blocks.push({ header, txns, hash: gh });
  }
  // Only the indexing is timed, not the making of the synthetic transactions.
  const started = performance.now();
  for (const b of blocks) index.addBlock(b);
  return { index, addresses, txids, buildMs: performance.now() - started };
}

interface QueryCase {
  name: string;
  filter: (rand: () => number, s: Synthetic) => { f: TxnFilter; descending: boolean };
}

const CASES: QueryCase[] = [
  { name: 'address (any role, newest first)', filter: (r, s) => ({ f: { address: s.addresses[Math.floor(r() * ACCOUNTS)]!.publicKey }, descending: true }) },
  {
    name: 'address + role=sender + tx-type=pay',
    filter: (r, s) => ({ f: { address: s.addresses[Math.floor(r() * ACCOUNTS)]!.publicKey, role: 'sender', txType: 'pay' }, descending: true }),
  },
  {
    name: 'tx-type=axfer + asset-id + amount > x',
    filter: (r) => ({ f: { txType: 'axfer', assetId: ASSETS[Math.floor(r() * ASSETS.length)]!, currencyGreaterThan: 900n }, descending: false }),
  },
  { name: 'currency-greater-than (native)', filter: () => ({ f: { currencyGreaterThan: 9_900_000n }, descending: false }) },
  {
    name: 'min-round..max-round window',
    filter: (r, s) => {
      const at = BigInt(Math.floor(r() * Number(s.index.latestRound)));
      return { f: { minRound: at, maxRound: at + 5n }, descending: false };
    },
  },
  {
    name: 'time window + application-id',
    filter: (r, s) => {
      const at = T0 + Math.floor(r() * Number(s.index.latestRound)) * 3;
      return { f: { afterTime: at, beforeTime: at + 300, appId: APPS[0]! }, descending: false };
    },
  },
  { name: 'note-prefix (common)', filter: () => ({ f: { notePrefix: utf8('tag:') }, descending: false }) },
  { name: 'note-prefix (rare)', filter: () => ({ f: { notePrefix: utf8('rare:') }, descending: false }) },
  { name: 'currency-greater-than matching nothing (walks every row)', filter: () => ({ f: { currencyGreaterThan: 20_000_000n }, descending: false }) },
  { name: 'txid', filter: (r, s) => ({ f: { txid: s.txids[Math.floor(r() * s.txids.length)]! }, descending: false }) },
  { name: 'sig-type=msig (no match)', filter: () => ({ f: { sigType: 'msig' }, descending: false }) },
];

/** p50 of search plus rendering of the page (the service's work without HTTP). */
function measure(s: Synthetic, c: QueryCase, runs: number): { p50: number; rows: number } {
  const rand = rng(7);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs + 2; i++) {
    const { f, descending } = c.filter(rand, s);
    const start = performance.now();
    const page = s.index.txns.search(f, { descending, limit: 1000 });
    for (const e of page.roots) transactionJson(e, s.index.txns.header(e.round)!);
    const ms = performance.now() - start;
    if (i >= 2) times.push(ms);
    rows += page.roots.length;
  }
  return { p50: median(times), rows: Math.round(rows / (runs + 2)) };
}

async function measureHttp(s: Synthetic, runs: number): Promise<BenchEntry[]> {
  const service = await serve(createQueryService({ index: s.index }));
  const out: BenchEntry[] = [];
  try {
    const paths: [string, (r: () => number) => string][] = [
      ['http: /v2/transactions?address=… (limit 1000)', (r) => `/v2/transactions?address=${s.addresses[Math.floor(r() * ACCOUNTS)]!.toString()}`],
      [
        'http: /v2/transactions?tx-type=axfer&asset-id=…&currency-greater-than=900',
        (r) => `/v2/transactions?tx-type=axfer&asset-id=${ASSETS[Math.floor(r() * ASSETS.length)]}&currency-greater-than=900`,
      ],
      ['http: /v2/transactions?note-prefix=… (limit 100)', () => `/v2/transactions?limit=100&note-prefix=${encodeURIComponent(toBase64(utf8('tag:')))}`],
      ['http: /v2/transactions/{txid}', (r) => `/v2/transactions/${s.txids[Math.floor(r() * s.txids.length)]}`],
    ];
    for (const [name, path] of paths) {
      const rand = rng(11);
      const times: number[] = [];
      for (let i = 0; i < runs + 2; i++) {
        const start = performance.now();
        const res = await request(`${service.url}${path(rand)}`);
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`${name}: status ${res.statusCode}`);
        if (i >= 2) times.push(performance.now() - start);
      }
      out.push(latencyEntry(`1M ${name}`, 'ms p50', median(times), null, 'end to end incl. JSON'));
    }
  } finally {
    await service.close();
  }
  return out;
}

const bench: BenchModule = {
  name: 'query',
  description: 'query service: filtered transaction searches over 100k and 1M indexed transactions (p50 ms, search + render; no peer)',
  async run() {
    const entries: BenchEntry[] = [];
    for (const [label, size] of [
      ['100k', 100_000],
      ['1M', 1_000_000],
    ] as const) {
      const s = synthesize(size);
      entries.push(
        latencyEntry(`${label} index build`, 'ms', s.buildMs, null, `${s.index.txns.size} rows, ${((s.buildMs * 1000) / s.index.txns.size).toFixed(1)} µs/row`),
      );
      for (const c of CASES) {
        const { p50, rows } = measure(s, c, 15);
        entries.push(latencyEntry(`${label} ${c.name}`, 'ms p50', p50, null, `${rows} rows/page`));
      }
      if (size === 1_000_000) entries.push(...(await measureHttp(s, 20)));
    }
    return entries;
  },
};

export default bench;
