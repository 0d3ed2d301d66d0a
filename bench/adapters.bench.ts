import { Worker } from 'node:worker_threads';
import algosdk from 'algosdk';
import { AlgodAdapter } from '../sdk/src/adapters/node/algod.js';
import { QueryClient } from '../sdk/src/adapters/query/client.js';
import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { startDevnet } from '../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../sdk/src/services/kmd/index.js';
import { assemble } from '../sdk/src/teal/index.js';
import { makePaymentTxn, type SuggestedParams } from '../sdk/src/txn/builders.js';
import { logicSigAddress, makeLogicSig, signLogicSigTransaction } from '../sdk/src/txn/logicsig.js';
import { signTransaction } from '../sdk/src/txn/sign.js';
import { median, medianMs, opsPerSecond, latencyEntry, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

/**
 * The fake services run in a worker thread so that serving requests does not compete with the
 * client under test for the main event loop. Bodies are prepared once, so both clients see the
 * same server cost.
 */
const SERVER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { total, pageSize, status, makeTxn } = workerData;
const build = new Function('i', makeTxn);
const txns = [];
for (let i = 0; i < total; i++) txns.push(JSON.stringify(build(i)));
const pages = new Map();
function page(start, limit) {
  const key = start + ':' + limit;
  let body = pages.get(key);
  if (!body) {
    const end = Math.min(total, start + limit);
    const next = end > start ? ',"next-token":"' + end + '"' : '';
    body = '{"current-round":' + (total + 10) + next + ',"transactions":[' + txns.slice(start, end).join(',') + ']}';
    pages.set(key, body);
  }
  return body;
}
const statusBody = JSON.stringify(status);
const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  req.resume();
  let body;
  if (u.pathname === '/v2/status') body = statusBody;
  else if (u.pathname.startsWith('/v2/transactions/')) body = '{"current-round":' + (total + 10) + ',"transaction":' + txns[7] + '}';
  else if (u.pathname === '/v2/transactions') body = page(Number(u.searchParams.get('next') || 0), Number(u.searchParams.get('limit') || pageSize));
  else { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', (m) => { if (m === 'stop') server.close(() => process.exit(0)); });
`;

const SENDER = 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI';
const RECEIVER = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
// Body of `new Function('i', …)` in the worker: one realistic indexer payment record (ids are
// base32-like, as real ones are, so no record carries an unrealistically long digit run).
const MAKE_TXN = `return {
  'close-rewards': 0, 'closing-amount': 0, 'confirmed-round': 1000 + Math.floor(i / 50), fee: 1000, 'first-valid': 900 + Math.floor(i / 50),
  'genesis-hash': 'SGO1GKSzyE7IEPItTxCByw9x8FmnrCDexi9/cOUJOiI=', 'genesis-id': 'testnet-v1.0', id: ('TX' + i.toString(32).toUpperCase().replace(/[01]/g, 'Q').replace(/[89]/g, 'Z')).padEnd(52, 'A'),
  'intra-round-offset': i % 50, 'last-valid': 1900 + Math.floor(i / 50), note: 'aGVsbG8=',
  'payment-transaction': { amount: 1000000 + i, 'close-amount': 0, receiver: '${RECEIVER}' },
  'receiver-rewards': 0, 'round-time': 1700000000 + i, sender: '${SENDER}', 'sender-rewards': 0,
  signature: { sig: 'gqNzaWfEQPhUAZ3xkDDcc8FvOVo6UinzmKBCqs0woYSfodlmBMfQvGbeUx3Srxy3dyJDzv7rLm26BRv9FnL2/AuT7NYfiAWjdHhui6NhbXTNA+ilY2xvc2Q==' },
  'tx-type': 'pay'
};`;

const STATUS = {
  'catchup-time': 0,
  'last-round': 6222190,
  'last-version': 'https://github.com/algorandfoundation/specs/tree/abc',
  'next-version': 'https://github.com/algorandfoundation/specs/tree/abc',
  'next-version-round': 6222191,
  'next-version-supported': true,
  'stopped-at-unsupported-round': false,
  'time-since-last-round': 3491829964,
};

async function startServer(total: number, pageSize: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const worker = new Worker(SERVER_SOURCE, { eval: true, workerData: { total, pageSize, status: STATUS, makeTxn: MAKE_TXN } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      worker.postMessage('stop');
      await new Promise((r) => worker.once('exit', r));
    },
  };
}

/**
 * Measures ours and the peer in alternating rounds and keeps each side's median, so load drifting
 * on a shared machine during the run does not favour whichever side went first.
 */
async function alternating(measureOurs: () => Promise<number>, measurePeer: () => Promise<number>, rounds = 3): Promise<[number, number]> {
  const ours: number[] = [];
  const peer: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(await measureOurs());
    peer.push(await measurePeer());
  }
  return [median(ours), median(peer)];
}

let sink: unknown;
export function lastResult(): unknown {
  return sink;
}

const TOTAL = 20_000;
const PAGE = 1000;

const DEVNET_TXNS = 100_000;
const DEVNET_BLOCK = 1000;
const DEVNET_ESCROWS = 8;

/**
 * Paging through 100k transactions served by the embedded devnet's query service (real service,
 * same process): ours (`for await`) vs algosdk's Indexer next-token loop. The transactions go in
 * straight through the ledger API, paid from logic-sig escrows so loading is not bound by ed25519.
 */
async function devnetPaging(): Promise<BenchEntry[]> {
  const d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: DEVNET_ESCROWS, kdf: TEST_SCRYPT });
  try {
    const wallet = d.wallets.findWallet(d.wallet.name)!;
    const handle = await d.wallets.initHandle(wallet.id, d.wallet.password);
    const keys = await Promise.all(
      d.accounts.map(async (a) => Ed25519KeyPair.fromSeed((await d.wallets.exportKey(handle, d.wallet.password, a.address)).subarray(0, 32))),
    );
    const addrs = keys.map((k) => new Address(k.publicKey));
    const sp = (): SuggestedParams => ({
      fee: 1000n,
      flatFee: true,
      firstValid: d.ledger.latestRound,
      lastValid: d.ledger.latestRound + 1000n,
      genesisId: d.ledger.genesisId,
      genesisHash: d.ledger.genesisHash,
    });
    const escrows = Array.from({ length: DEVNET_ESCROWS }, (_, i) => makeLogicSig(assemble(`#pragma version 10\nint ${i + 1}\npop\nint 1`).program));
    const escrowAddrs = escrows.map((l) => logicSigAddress(l.program));
    d.ledger.produceBlock(
      escrowAddrs.map((to, i) => [
        signTransaction(makePaymentTxn({ sender: addrs[i]!, receiver: to, amount: 10_000_000_000n, suggestedParams: sp() }), keys[i]!),
      ]),
    );
    const loadStart = performance.now();
    for (let b = 0; b < DEVNET_TXNS / DEVNET_BLOCK; b++) {
      const p = sp();
      const groups = Array.from({ length: DEVNET_BLOCK }, (_, i) => {
        const k = (b * DEVNET_BLOCK + i) % DEVNET_ESCROWS;
        return [
          signLogicSigTransaction(
            makePaymentTxn({
              sender: escrowAddrs[k]!,
              receiver: escrowAddrs[(k + 3) % DEVNET_ESCROWS]!,
              amount: BigInt(1000 + i),
              note: utf8(`n${b}:${i}`),
              suggestedParams: p,
            }),
            escrows[k]!,
          ),
        ];
      });
      const { rejected } = d.ledger.produceBlock(groups);
      if (rejected.length) throw new Error(`load: ${rejected[0]!.error.message}`);
    }
    const loadS = (performance.now() - loadStart) / 1000;
    // Only the loaded escrow payments: the genesis and funding transactions stay out of the count.
    const minRound = d.ledger.latestRound - BigInt(DEVNET_TXNS / DEVNET_BLOCK) + 1n;
    const url = new URL(d.query.url);
    const query = new QueryClient({ url: d.query.url, token: d.query.token, retry: false });
    const indexer = new algosdk.Indexer({ 'X-Indexer-API-Token': d.query.token }, `${url.protocol}//${url.hostname}`, Number(url.port));
    const pageOurs = (prefetch: boolean) =>
      medianMs(async () => {
        let n = 0;
        for await (const t of query.transactions({ minRound }, { pageSize: PAGE, prefetch })) {
          sink = t;
          n++;
        }
        if (n !== DEVNET_TXNS) throw new Error(`ours paged ${n} of ${DEVNET_TXNS}`);
      }, 3);
    const pagePeer = () =>
      medianMs(async () => {
        let n = 0;
        let next: string | undefined;
        for (;;) {
          let req = indexer.searchForTransactions().minRound(minRound).limit(PAGE);
          if (next) req = req.nextToken(next);
          const page = await req.do();
          for (const t of page.transactions) {
            sink = t;
            n++;
          }
          if (!page.nextToken || page.transactions.length === 0) break;
          next = page.nextToken;
        }
        if (n !== DEVNET_TXNS) throw new Error(`algosdk paged ${n} of ${DEVNET_TXNS}`);
      }, 3);
    const out: BenchEntry[] = [];
    const total = DEVNET_TXNS.toLocaleString('en-US');
    const [ours, peer] = await alternating(() => pageOurs(false), pagePeer, 1);
    out.push(
      latencyEntry(
        `devnet query service: page through ${total} txns (${PAGE}/page)`,
        'ms',
        ours,
        peer,
        `${((DEVNET_TXNS / ours) * 1000).toFixed(0)} txn/s ours; server in the same process; ${total} loaded via the ledger in ${loadS.toFixed(1)} s`,
      ),
    );
    const [ahead, peer2] = await alternating(() => pageOurs(true), pagePeer, 1);
    out.push(latencyEntry(`same, ours with one-page prefetch`, 'ms', ahead, peer2, `${((DEVNET_TXNS / ahead) * 1000).toFixed(0)} txn/s ours`));
    await query.close();
    return out;
  } finally {
    await d.stop();
  }
}

const bench: BenchModule = {
  name: 'adapters',
  description: 'HTTP adapters on keep-alive against local fake services and the embedded devnet query service (100k txns), ours vs algosdk Algodv2/Indexer',
  async run(): Promise<BenchEntry[]> {
    const out: BenchEntry[] = [];
    const server = await startServer(TOTAL, PAGE);
    try {
      const token = 'a'.repeat(64);
      const ours = new AlgodAdapter({ url: server.url, token, retry: false });
      const peer = new algosdk.Algodv2(token, 'http://127.0.0.1', server.port);

      const [oursSeq, peerSeq] = await alternating(
        () =>
          opsPerSecond(
            async () => {
              sink = await ours.status();
            },
            { minTimeMs: 200, samples: 3 },
          ),
        () =>
          opsPerSecond(
            async () => {
              sink = await peer.status().do();
            },
            { minTimeMs: 200, samples: 3 },
          ),
      );
      out.push(throughputEntry('node status, sequential', 'req/s', oursSeq, peerSeq));

      const inFlight = 16;
      const [oursPar, peerPar] = await alternating(
        () =>
          opsPerSecond(
            async () => {
              sink = await Promise.all(Array.from({ length: inFlight }, () => ours.status()));
            },
            { minTimeMs: 200, samples: 3, unitsPerCall: inFlight },
          ),
        () =>
          opsPerSecond(
            async () => {
              sink = await Promise.all(Array.from({ length: inFlight }, () => peer.status().do()));
            },
            { minTimeMs: 200, samples: 3, unitsPerCall: inFlight },
          ),
      );
      out.push(throughputEntry(`node status, ${inFlight} in flight`, 'req/s', oursPar, peerPar));
      await ours.close();

      const query = new QueryClient({ url: server.url, token, retry: false });
      const indexer = new algosdk.Indexer(token, 'http://127.0.0.1', server.port);
      const [oursLookup, peerLookup] = await alternating(
        () =>
          opsPerSecond(
            async () => {
              sink = await query.lookupTransaction('TX7');
            },
            { minTimeMs: 200, samples: 3 },
          ),
        () =>
          opsPerSecond(
            async () => {
              sink = await indexer.lookupTransactionByID('TX7').do();
            },
            { minTimeMs: 200, samples: 3 },
          ),
      );
      out.push(throughputEntry('query transaction lookup, sequential', 'req/s', oursLookup, peerLookup));

      const pageOurs = (prefetch: boolean) =>
        medianMs(async () => {
          let n = 0;
          for await (const t of query.transactions({}, { pageSize: PAGE, prefetch })) {
            sink = t;
            n++;
          }
          if (n !== TOTAL) throw new Error(`ours paged ${n} of ${TOTAL}`);
        }, 3);
      const pagePeer = () =>
        medianMs(async () => {
          let n = 0;
          let next: string | undefined;
          for (;;) {
            let req = indexer.searchForTransactions().limit(PAGE);
            if (next) req = req.nextToken(next);
            const page = await req.do();
            for (const t of page.transactions) {
              sink = t;
              n++;
            }
            if (!page.nextToken || page.transactions.length === 0) break;
            next = page.nextToken;
          }
          if (n !== TOTAL) throw new Error(`algosdk paged ${n} of ${TOTAL}`);
        }, 3);
      const [oursPaging, peerPaging] = await alternating(() => pageOurs(false), pagePeer);
      out.push(
        latencyEntry(
          `page through ${TOTAL.toLocaleString('en-US')} txns (${PAGE}/page)`,
          'ms',
          oursPaging,
          peerPaging,
          `${((TOTAL / oursPaging) * 1000).toFixed(0)} txn/s ours`,
        ),
      );
      const [oursAhead, peerAgain] = await alternating(() => pageOurs(true), pagePeer);
      out.push(latencyEntry(`same, ours with one-page prefetch`, 'ms', oursAhead, peerAgain, `${((TOTAL / oursAhead) * 1000).toFixed(0)} txn/s ours`));
      await query.close();
    } finally {
      await server.stop();
    }
    out.push(...(await devnetPaging()));
    return out;
  },
};

export default bench;
