import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CLI_BUNDLE_OPTIONS } from '../scripts/cli-bundle.mjs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import algosdk from 'algosdk';
import { request } from 'undici';
import { AlgodAdapter } from '../sdk/src/adapters/node/algod.js';
import { decodeBlockResponse, decodePendingResponse, decodeStateDelta } from '../sdk/src/adapters/node/typed-decode.js';
import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { encodeMsgpack } from '../sdk/src/encoding/msgpack.js';
import { encodeBlock, Ledger } from '../sdk/src/ledger/index.js';
import { startDevnet, LOCALNET_TOKEN } from '../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../sdk/src/services/kmd/index.js';
import { confirmedPending } from '../sdk/src/services/node/algod/pending.js';
import { buildStateDelta, deltaToMsgpack } from '../sdk/src/services/node/state-delta.js';
import { assemble } from '../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makeAssetCreateTxn, makeAssetOptInTxn, makeAssetTransferTxn, makePaymentTxn } from '../sdk/src/txn/builders.js';
import { encodeSignedTransaction } from '../sdk/src/txn/encode.js';
import { signTransaction } from '../sdk/src/txn/sign.js';
import { logicSigAddress, makeLogicSig, signLogicSigTransaction } from '../sdk/src/txn/logicsig.js';
import { latencyEntry, median, medianMs, opsPerSecond, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let sink: unknown;

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** The CLI bundle as the package ships it (scripts/cli-bundle.mjs's options: cli.js and its chunks, minified), built into a scratch directory. */
async function cliBundle(dir: string): Promise<string> {
  await build({
    ...CLI_BUNDLE_OPTIONS,
    entryPoints: { cli: resolve(repoRoot, 'sdk/src/cli/main.ts') },
    outdir: dir,
    minify: true,
    keepNames: true,
    logLevel: 'warning',
  });
  const main = join(dir, 'main.mjs');
  writeFileSync(main, `const cli = await import(${JSON.stringify(join(dir, 'cli.js'))});\nawait cli.runMain();\n`);
  return main;
}

/** `tealworks devnet --localnet` as an installed user runs it: process spawn until `/v2/status` answers 200. */
async function startToHealthy(argv: string[], chain: string[] = ['--in-memory']): Promise<number> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(process.execPath, [...argv, 'devnet', '--localnet', ...chain, '--ports', ports.join(',')], { cwd: tmpdir(), stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (;;) {
      if (gone) throw new Error(`the devnet process exited before it became healthy (${argv.join(' ')})`);
      try {
        const r = await request(`http://127.0.0.1:${ports[0]}/v2/status`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
        await r.body.dump();
        if (r.statusCode === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 30_000) throw new Error('devnet --localnet did not become healthy within 30 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const PERSISTED_ROUNDS = 10_000;

/**
 * A `--localnet` data directory holding a chain of PERSISTED_ROUNDS rounds (one payment with a
 * note in each, from a logic-sig escrow), closed cleanly as a user's devnet would be.
 */
async function persistedChain(dir: string): Promise<string> {
  const data = join(dir, 'chain');
  const d = await startDevnet({ dataDir: data, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT });
  try {
    const wallet = d.wallets.findWallet(d.wallet.name)!;
    const handle = await d.wallets.initHandle(wallet.id, d.wallet.password);
    const key = Ed25519KeyPair.fromSeed((await d.wallets.exportKey(handle, d.wallet.password, d.accounts[0]!.address)).subarray(0, 32));
    const lsig = makeLogicSig(assemble('#pragma version 10\nint 1').program);
    const escrow = logicSigAddress(lsig.program);
    const sp = () => ({
      fee: 1000n,
      flatFee: true,
      firstValid: d.ledger.latestRound,
      lastValid: d.ledger.latestRound + 1000n,
      genesisId: d.ledger.genesisId,
      genesisHash: d.ledger.genesisHash,
    });
    d.ledger.produceBlock([
      [signTransaction(makePaymentTxn({ sender: new Address(key.publicKey), receiver: escrow, amount: 10_000_000_000n, suggestedParams: sp() }), key)],
    ]);
    while (d.ledger.latestRound < BigInt(PERSISTED_ROUNDS)) {
      const txn = makePaymentTxn({ sender: escrow, receiver: escrow, amount: 0n, note: utf8(`round ${d.ledger.latestRound}`), suggestedParams: sp() });
      d.ledger.produceBlock([[signLogicSigTransaction(txn, lsig)]]);
    }
  } finally {
    await d.stop();
  }
  return data;
}

/** A block of `n` transactions: payments with notes, app calls with global/local deltas, logs and an inner payment, asset transfers. */
export function bigBlock(n: number): { block: Uint8Array; pending: Uint8Array; delta: Uint8Array } {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(5));
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
  const prog = assemble(`#pragma version 10
txn ApplicationID
bz ok
txn OnCompletion
int OptIn
==
bnz ok
byte "counter"
byte "counter"
app_global_get
int 1
+
app_global_put
txn Sender
byte "mine"
txna ApplicationArgs 0
app_local_put
byte "called with an argument"
log
itxn_begin
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
int 1
itxn_field Amount
itxn_submit
ok:
int 1`).program;
  l.submit([
    signTransaction(
      makeAppCreateTxn({
        sender: a,
        approvalProgram: prog,
        clearProgram: assemble('#pragma version 10\nint 1').program,
        globalSchema: { numUints: 1, numByteSlices: 0 },
        localSchema: { numUints: 0, numByteSlices: 1 },
        suggestedParams: sp(),
      }),
      key,
    ),
  ]);
  const appId = l.block(l.latestRound).txns[0]!.ad.createdAppId!;
  l.submit([signTransaction(makePaymentTxn({ sender: a, receiver: Address.forApp(appId), amount: 10n ** 9n, suggestedParams: sp() }), key)]);
  l.submit([signTransaction(makeAppCallTxn({ sender: a, appId, onComplete: 1, suggestedParams: sp() } as Parameters<typeof makeAppCallTxn>[0]), key)]);
  l.submit([signTransaction(makeAssetCreateTxn({ sender: a, total: 10n ** 12n, decimals: 0, unitName: 'B', assetName: 'Bench', suggestedParams: sp() }), key)]);
  const assetId = l.block(l.latestRound).txns[0]!.ad.createdAssetId!;
  const groups = [];
  for (let i = 0; i < n; i++) {
    const p = sp();
    const t =
      i % 3 === 0
        ? makeAppCallTxn({ sender: a, appId, args: [utf8(`arg ${i}`)], note: utf8(`call ${i}`), suggestedParams: p })
        : i % 3 === 1
          ? makePaymentTxn({ sender: a, receiver: a, amount: BigInt(i), note: utf8(`payment number ${i}`), suggestedParams: p })
          : makeAssetTransferTxn({ sender: a, receiver: a, assetId, amount: BigInt(i), suggestedParams: p });
    groups.push([signTransaction(t, key)]);
  }
  const { block, rejected } = l.produceBlock(groups);
  if (rejected.length) throw new Error(`bench block: ${rejected[0]!.error.message}`);
  const raw = encodeBlock(block, { goStrings: true });
  const wrapped = new Uint8Array(7 + raw.length);
  wrapped.set([0x81, 0xa5, ...utf8('block')]);
  wrapped.set(raw, 7);
  const call = block.txns[0]!;
  const pending = encodeMsgpack(confirmedPending(call, 'msgpack') as never);
  const delta = deltaToMsgpack(buildStateDelta(l.delta(l.latestRound), l.block(l.latestRound - 1n).header.timestamp));
  void makeAssetOptInTxn;
  return { block: wrapped, pending, delta };
}

/** Ours and the peer in alternating rounds, each side's median kept. */
async function paired(ours: () => unknown, peer: () => unknown, unitsPerCall: number, rounds = 3): Promise<[number, number]> {
  const o: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < rounds; i++) {
    o.push(await opsPerSecond(ours, { unitsPerCall, minTimeMs: 300, samples: 3 }));
    p.push(await opsPerSecond(peer, { unitsPerCall, minTimeMs: 300, samples: 3 }));
  }
  return [median(o), median(p)];
}

async function sendAndConfirm(): Promise<BenchEntry[]> {
  const d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 2, kdf: TEST_SCRYPT });
  try {
    const wallet = d.wallets.findWallet(d.wallet.name)!;
    const handle = await d.wallets.initHandle(wallet.id, d.wallet.password);
    const seed = await d.wallets.exportKey(handle, d.wallet.password, d.accounts[0]!.address);
    const key = Ed25519KeyPair.fromSeed(seed.subarray(0, 32));
    const from = new Address(key.publicKey);
    const to = d.accounts[1]!.address;
    const port = Number(new URL(d.node.url).port);
    const algod = new algosdk.Algodv2(LOCALNET_TOKEN, 'http://127.0.0.1', port);
    const ours = new AlgodAdapter({ url: d.node.url, token: LOCALNET_TOKEN, retry: false });
    let n = 0;
    // Both sides send the same kind of pre-signed payment (signing is not what is measured).
    const next = (): Uint8Array => {
      const r = d.ledger.latestRound;
      const t = makePaymentTxn({
        sender: from,
        receiver: to,
        amount: 1n,
        note: utf8(`bench ${n++}`),
        suggestedParams: { fee: 1000n, flatFee: true, firstValid: r, lastValid: r + 1000n, genesisId: d.ledger.genesisId, genesisHash: d.ledger.genesisHash },
      });
      return encodeSignedTransaction(signTransaction(t, key));
    };
    const BATCH = 20;
    // A batch is signed for the next 1,000 rounds; one the other side's runs have aged past most of
    // that window is signed again (rarely: it takes 50 runs of the other side).
    const pre = (): { round: bigint; txns: Uint8Array[] } => ({ round: d.ledger.latestRound, txns: Array.from({ length: BATCH }, next) });
    const fresh = (b: { round: bigint; txns: Uint8Array[] }) => (d.ledger.latestRound - b.round > 900n ? pre() : b);
    let batchOurs = pre();
    let batchPeer = pre();
    const [o, p] = await paired(
      async () => {
        batchOurs = fresh(batchOurs);
        for (const s of batchOurs.txns) {
          const { txid } = await ours.submit(s);
          sink = await ours.waitForConfirmation(txid);
        }
        batchOurs = pre();
      },
      async () => {
        batchPeer = fresh(batchPeer);
        for (const s of batchPeer.txns) {
          const { txid } = await algod.sendRawTransaction(s).do();
          sink = await algosdk.waitForConfirmation(algod, txid, 4);
        }
        batchPeer = pre();
      },
      BATCH,
    );
    await ours.close();
    return [
      throughputEntry(
        'send-and-confirm payments via /v2 (dev mode, sequential)',
        'txn/s',
        o,
        p,
        'ours: AlgodAdapter.submit + waitForConfirmation; peer: algosdk sendRawTransaction + waitForConfirmation; same in-process devnet --localnet',
      ),
    ];
  } finally {
    await d.stop();
  }
}

const bench: BenchModule = {
  name: 'localnet',
  description:
    'devnet --localnet: process start to healthy /v2/status, send-and-confirm through /v2, typed decoding of blocks, deltas and pending responses, ours vs algosdk',
  async run() {
    const out: BenchEntry[] = [];
    const scratch = mkdtempSync(join(tmpdir(), 'tw-localnet-bench-'));
    try {
      const main = await cliBundle(scratch);
      const starts: number[] = [];
      for (let i = 0; i < 7; i++) starts.push(await startToHealthy([main]));
      out.push(
        latencyEntry(
          '`tealworks devnet --localnet` process start to first healthy /v2/status',
          'ms',
          median(starts),
          null,
          `median of 7, the shipped CLI bundle (minified); min ${Math.min(...starts).toFixed(0)} ms`,
        ),
      );
      const fromSource: number[] = [];
      const tsxLoader = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
      for (let i = 0; i < 3; i++) fromSource.push(await startToHealthy(['--import', tsxLoader, resolve(repoRoot, 'sdk/src/cli/main.ts')]));
      out.push(latencyEntry('same, from a source checkout through tsx', 'ms', median(fromSource), null, 'median of 3; includes compiling TypeScript on load'));
      const chain = await persistedChain(scratch);
      const persisted: number[] = [];
      for (let i = 0; i < 5; i++) persisted.push(await startToHealthy([main], ['--data', chain]));
      out.push(
        latencyEntry(
          `\`tealworks devnet --localnet\` cold start on a persisted ${PERSISTED_ROUNDS.toLocaleString('en-US')}-round chain, to healthy /v2/status`,
          'ms',
          median(persisted),
          null,
          `median of 5, the shipped CLI bundle; min ${Math.min(...persisted).toFixed(0)} ms`,
        ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    const inProcess: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 } });
      inProcess.push(performance.now() - t);
      await d.stop();
    }
    out.push(
      latencyEntry('startDevnet({ localnet: true }) in process, to listening', 'ms', median(inProcess), null, 'median of 7 (tests and tools that embed it)'),
    );

    out.push(...(await sendAndConfirm()));

    const { block, pending, delta } = bigBlock(1000);
    const [bo, bp] = await paired(
      () => (sink = decodeBlockResponse(block)),
      () => (sink = algosdk.decodeMsgpack(block, algosdk.modelsv2.BlockResponse)),
      1,
    );
    out.push(
      throughputEntry(
        `decode block, 1000 txns (${Math.round(block.length / 1024)} KiB msgpack)`,
        'blocks/s',
        bo,
        bp,
        'ours: typed decoder → typed header/transactions/ApplyData; peer: algosdk.decodeMsgpack(BlockResponse)',
      ),
    );
    const reps = 200;
    const [po, pp] = await paired(
      () => {
        for (let i = 0; i < reps; i++) sink = decodePendingResponse(pending);
      },
      () => {
        for (let i = 0; i < reps; i++) sink = algosdk.decodeMsgpack(pending, algosdk.modelsv2.PendingTransactionResponse);
      },
      reps,
    );
    out.push(
      throughputEntry(
        `decode pending-transaction response (app call with deltas, logs, inner txn; ${pending.length} B)`,
        'resp/s',
        po,
        pp,
        'peer: algosdk.decodeMsgpack(PendingTransactionResponse)',
      ),
    );
    let peerDelta: (() => unknown) | undefined;
    try {
      algosdk.decodeMsgpack(delta, algosdk.LedgerStateDelta);
      peerDelta = () => (sink = algosdk.decodeMsgpack(delta, algosdk.LedgerStateDelta));
    } catch {
      peerDelta = undefined;
    }
    if (peerDelta) {
      const [dO, dP] = await paired(() => (sink = decodeStateDelta(delta)), peerDelta, 1);
      out.push(
        throughputEntry(
          `decode state delta of that round (${Math.round(delta.length / 1024)} KiB)`,
          'deltas/s',
          dO,
          dP,
          'peer: algosdk.decodeMsgpack(LedgerStateDelta)',
        ),
      );
    } else {
      const ms = await medianMs(() => (sink = decodeStateDelta(delta)));
      out.push(
        latencyEntry(`decode state delta of that round (${Math.round(delta.length / 1024)} KiB)`, 'ms', ms, null, 'algosdk could not decode this delta'),
      );
    }
    return out;
  },
};

export function lastResult(): unknown {
  return sink;
}

export default bench;
