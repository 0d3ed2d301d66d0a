import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { AlgodAdapter } from '../sdk/src/adapters/node/algod.js';
import {
  ForkState,
  Ledger,
  MemoryForkCache,
  simulate,
  type AppData,
  type AssetData,
  type ForkHead,
  type ForkRemote,
  type RemoteAccount,
  type RemoteBoxPage,
  type RemoteRead,
} from '../sdk/src/ledger/index.js';
import { encodeSignedTransaction } from '../sdk/src/txn/encode.js';
import { AlgodForkRemote } from '../sdk/src/services/devnet/fork-remote.js';
import { startNodeService } from '../sdk/src/services/node/service.js';
import { assemble } from '../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn } from '../sdk/src/txn/builders.js';
import { signTransaction } from '../sdk/src/txn/sign.js';
import { assignGroupId } from '../sdk/src/txn/group.js';
import type { SignedTransaction } from '../sdk/src/txn/types.js';
import { latencyEntry, median, type BenchEntry, type BenchModule } from './lib.js';

/*
 * A fork's first call to an app with 10 boxes (every record fetched from the remote: the sender,
 * the app, its account, the fee sink and the boxes, the ten boxes as one page of the app's boxes:
 * 5 requests) and the same call again (all cached), with a node service on this machine as the remote.
 *
 * The peer is what a user does without a fork: ask the remote node to simulate the same group over
 * HTTP (through the SDK's algod adapter, the leanest client that decodes the answer). The remote
 * runs in this process, so its serving work (for the peer's simulate and for the fork's reads
 * alike) is on the same thread as ours.
 *
 * Two further rows compare the fork with itself: the first call fetching lazily (no batched
 * prefetch: each evaluation pass fetches what the last one missed), and the cached call against the
 * same evaluator on the remote's ledger without a fork or HTTP, which shows what the fork layer
 * costs (not a peer: the same code minus the fork, so its ratio is left out).
 */

const BOXES = 10;
/** The modelled network round trip of the delayed rows (ms). */
const RTT_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sums ten boxes (box0..box9) and logs the sum. */
const APPROVAL = `#pragma version 10
txn ApplicationID
bz ok
int 0
store 0
int 0
store 1
loop:
load 0
int ${BOXES}
==
bnz done
byte "box"
load 0
itob
concat
box_get
assert
btoi
load 1
+
store 1
load 0
int 1
+
store 0
b loop
done:
load 1
itob
log
ok:
int 1`;

async function run(): Promise<BenchEntry[]> {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(9));
  const a = new Address(key.publicKey);
  const l = new Ledger({ genesisAccounts: [{ address: a, amount: 10n ** 15n }] });
  const sp = () => ({
    fee: 2000n,
    flatFee: true,
    firstValid: l.latestRound,
    lastValid: l.latestRound + 1000n,
    genesisId: l.genesisId,
    genesisHash: l.genesisHash,
  });
  l.submit([
    signTransaction(
      makeAppCreateTxn({
        sender: a,
        approvalProgram: assemble(APPROVAL).program,
        clearProgram: assemble('#pragma version 10\nint 1').program,
        suggestedParams: sp(),
      }),
      key,
    ),
  ]);
  const appId = l.block(l.latestRound).txns[0]!.ad.createdAppId!;
  l.submit([signTransaction(makePaymentTxn({ sender: a, receiver: Address.forApp(appId), amount: 10n ** 9n, suggestedParams: sp() }), key)]);
  const names = Array.from({ length: BOXES }, (_, i) => {
    const n = new Uint8Array(11);
    n.set(utf8('box'));
    new DataView(n.buffer).setBigUint64(3, BigInt(i));
    return n;
  });
  // The remote's boxes are written directly into its state (a setup step, not what is measured).
  for (const [i, name] of names.entries()) {
    const v = new Uint8Array(8);
    new DataView(v.buffer).setBigUint64(0, BigInt(i + 1));
    l.state.putBox(appId, name, v);
  }
  l.state.commit();
  const token = 'b'.repeat(64);
  const node = await startNodeService({ ledger: l, apiToken: token, host: '127.0.0.1', port: 0 });
  // One call names at most 8 boxes: a second call in the group names the other two.
  const group: SignedTransaction[] = assignGroupId([
    makeAppCallTxn({ sender: a, appId, boxes: names.slice(0, 8).map((name) => ({ appId, name })), note: utf8('first'), suggestedParams: sp() }),
    makeAppCallTxn({ sender: a, appId, boxes: names.slice(8).map((name) => ({ appId, name })), note: utf8('second'), suggestedParams: sp() }),
  ]).map((t) => signTransaction(t, key));
  const request = { 'txn-groups': [{ txns: group }] };
  // The leanest client that still decodes the answer: the SDK's algod adapter (algosdk's
  // simulateTransactions does the same job more slowly, which would flatter the ratios).
  const algod = new AlgodAdapter({ url: node.url, token });
  const signed = group.map(encodeSignedTransaction);
  const peerCall = async () => {
    const r = await algod.simulate(signed);
    if (!r.wouldSucceed) throw new Error(`the remote's simulate failed: ${r.failureMessage}`);
  };
  const remote = new WaveCounter(new AlgodForkRemote({ url: node.url, token }));
  try {
    const cold: number[] = [];
    const lazy: number[] = [];
    const warm: number[] = [];
    const peer: number[] = [];
    const plain: number[] = [];
    let requests = 0;
    let touched = 0;
    let coldWaves = 0;
    let coldInFlight = 0;
    let lazyWaves = 0;
    const open = async () => {
      const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
      const forked = new Ledger({ fork });
      return { fork, call: () => fork.run(() => simulate(forked, request)) };
    };
    const WARMUP = 3;
    for (let s = 0; s < WARMUP + 15; s++) {
      const keep = s >= WARMUP;
      // Cold, batched: what the fork's node routes do (prefetch what the group names, then run).
      const { fork, call } = await open();
      remote.reset();
      let t = performance.now();
      await fork.prefetchGroups([group]);
      const first = await call();
      if (keep) cold.push(performance.now() - t);
      const failure = (first['txn-groups'] as { 'failure-message'?: string }[])[0]!['failure-message'];
      if (failure) throw new Error(`the forked call failed: ${failure}`);
      requests = fork.requests.length;
      touched = fork.groupResources([group]).length;
      coldWaves = remote.waves;
      coldInFlight = remote.maxInFlight;
      // Cold, lazy: the same fork code without the batched prefetch.
      const lazyFork = await open();
      remote.reset();
      t = performance.now();
      await lazyFork.call();
      if (keep) lazy.push(performance.now() - t);
      lazyWaves = remote.waves;
      // Cached call, the peer's simulate and the unforked evaluator, interleaved.
      for (let i = 0; i < 10; i++) {
        t = performance.now();
        await call();
        const w = performance.now() - t;
        t = performance.now();
        await peerCall();
        const p = performance.now() - t;
        t = performance.now();
        simulate(l, request);
        const u = performance.now() - t;
        if (keep) {
          warm.push(w);
          peer.push(p);
          plain.push(u);
        }
      }
      if (fork.requests.length !== requests) throw new Error('the cached call made requests');
    }
    // The same first calls with a modelled network round trip added to every request, the fork's
    // reads and the peer's simulate alike: what batching buys against a remote that is not on this
    // machine (a local remote's answers cost CPU on this thread rather than waiting, so waves matter less there).
    const coldRtt: number[] = [];
    const lazyRtt: number[] = [];
    const peerRtt: number[] = [];
    remote.delayMs = RTT_MS;
    for (let s = 0; s < 7; s++) {
      const batched = await open();
      let t = performance.now();
      await batched.fork.prefetchGroups([group]);
      await batched.call();
      coldRtt.push(performance.now() - t);
      const lazyFork = await open();
      t = performance.now();
      await lazyFork.call();
      lazyRtt.push(performance.now() - t);
      t = performance.now();
      await sleep(RTT_MS);
      await peerCall();
      peerRtt.push(performance.now() - t);
    }
    remote.delayMs = 0;
    // The peer has no cold state to fetch (the node holds it all): its figure is its ordinary simulate.
    const coldMs = median(cold);
    const lazyMs = median(lazy);
    const warmMs = median(warm);
    const peerMs = median(peer);
    const plainMs = median(plain);
    return [
      latencyEntry(
        'fork: first call to a forked app with 10 boxes (cold, fetched from a local remote)',
        'ms',
        coldMs,
        peerMs,
        `peer: the remote simulating the same group over HTTP; ${requests} remote requests for ${touched} resources in ${coldWaves} wave(s), up to ${coldInFlight} in flight at once`,
      ),
      latencyEntry(
        'fork: first call, batched prefetch vs lazy fetching',
        'ms',
        coldMs,
        lazyMs,
        `peer: the same fork without the batched prefetch (${lazyWaves} serial waves of requests, one per evaluation pass that missed)`,
      ),
      latencyEntry(
        `fork: first call with a ${RTT_MS} ms round trip per request (modelled)`,
        'ms',
        median(coldRtt),
        median(peerRtt),
        `peer: the remote's simulate over HTTP, also delayed ${RTT_MS} ms; the fork's ${requests} requests go out in ${coldWaves} wave(s), up to ${coldInFlight} at once`,
      ),
      latencyEntry(
        `fork: first call, batched prefetch vs lazy fetching, ${RTT_MS} ms round trip per request (modelled)`,
        'ms',
        median(coldRtt),
        median(lazyRtt),
        `peer: the same fork without the batched prefetch (${lazyWaves} serial waves)`,
      ),
      latencyEntry('fork: the same call again (cached)', 'ms', warmMs, peerMs, 'peer: the remote simulating the same group over HTTP; 0 remote requests'),
      {
        name: 'fork: the cached call vs the same evaluator without a fork (overhead check)',
        unit: 'ms',
        ours: warmMs,
        peer: plainMs,
        ratio: null,
        note: `not a peer: simulate on the remote's own ledger in this process, no HTTP; fork layer cost ${(((warmMs - plainMs) / plainMs) * 100).toFixed(0)}%`,
      },
      {
        name: 'fork: remote requests of the first call per resource touched',
        unit: 'requests/resource',
        ours: requests / touched,
        peer: null,
        ratio: null,
        note: `a check, not a peer comparison (1 would be one request per resource): ${requests} requests, ${touched} resources (sender, app, app account, fee sink, 10 boxes read as one page)`,
      },
    ];
  } finally {
    await algod.close();
    await node.close();
  }
}

/** A fork remote that counts waves of requests: a wave starts when a request goes out while none is in flight. */
class WaveCounter implements ForkRemote {
  readonly url: string;
  waves = 0;
  /** Most requests in flight at once since the last reset. */
  maxInFlight = 0;
  #inFlight = 0;
  readonly #inner: ForkRemote;
  constructor(inner: ForkRemote) {
    this.#inner = inner;
    this.url = inner.url;
  }
  /** Added before each request is sent: a modelled network round trip. */
  delayMs = 0;
  reset(): void {
    this.waves = 0;
    this.maxInFlight = 0;
  }
  async #count<T>(f: () => Promise<T>): Promise<T> {
    if (this.#inFlight++ === 0) this.waves++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    try {
      if (this.delayMs) await sleep(this.delayMs);
      return await f();
    } finally {
      this.#inFlight--;
    }
  }
  head(): Promise<ForkHead> {
    return this.#inner.head();
  }
  latestRound(): Promise<bigint> {
    return this.#count(() => this.#inner.latestRound());
  }
  account(address: Uint8Array): Promise<RemoteRead<RemoteAccount>> {
    return this.#count(() => this.#inner.account(address));
  }
  app(id: bigint): Promise<RemoteRead<AppData>> {
    return this.#count(() => this.#inner.app(id));
  }
  asset(id: bigint): Promise<RemoteRead<AssetData>> {
    return this.#count(() => this.#inner.asset(id));
  }
  box(appId: bigint, name: Uint8Array): Promise<RemoteRead<Uint8Array>> {
    return this.#count(() => this.#inner.box(appId, name));
  }
  boxPage(appId: bigint, options: { after?: Uint8Array; limit: number; round?: bigint }): Promise<RemoteBoxPage | undefined> {
    return this.#count(() => this.#inner.boxPage!(appId, options));
  }
}

const mod: BenchModule = {
  name: 'fork',
  description: 'a fork of a live network: first (fetching) and cached call to an app with 10 boxes, against a local remote',
  run,
};
export default mod;
