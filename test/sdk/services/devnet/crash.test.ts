import { HANG_GUARD_MS } from '../../../helpers/hang.js';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import algosdk from 'algosdk';
import { request } from 'undici';
import { fromBase64 } from '../../../../sdk/src/encoding/base64.js';
import { toHex } from '../../../../sdk/src/encoding/hex.js';
import { Ledger, MemoryLedgerStore } from '../../../../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../../../../sdk/src/ledger/persistence.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const TSX_LOADER = pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

interface Endpoint {
  url: string;
  token: string;
}
interface Launched {
  child: ChildProcess;
  node: Endpoint;
  query: Endpoint;
  kmd: Endpoint;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

/** Starts the real CLI on a data directory and resolves once it printed its three services. */
async function launch(dataDir: string, extra: string[] = []): Promise<Launched> {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, resolve(repoRoot, 'sdk/src/cli/main.ts'), 'devnet', '--data', dataDir, '--ports', '0,0,0', '--accounts', '2', ...extra],
    {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!/Press Ctrl\+C to stop\./.test(out)) {
    const ended = await Promise.race([exit.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 25))]);
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`devnet did not start:\n${out}\n${err}`);
    }
  }
  const service = (name: string): Endpoint => {
    const m = new RegExp(`^  ${name}\\s+(http://\\S+)\\s+token ([0-9a-f]{64})$`, 'm').exec(out);
    assert.ok(m, `${name} line in:\n${out}`);
    return { url: m[1]!, token: m[2]! };
  };
  return { child, node: service('node'), query: service('query'), kmd: service('kmd'), exit, stderr: () => err };
}

async function getJson(e: Endpoint, header: string, path: string): Promise<{ status: number; body: any }> {
  const res = await request(e.url + path, { headers: { [header]: e.token } });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.statusCode, body };
}

const nodeGet = (l: Launched, path: string) => getJson(l.node, 'X-Node-API-Token', path);

async function params(l: Launched): Promise<algosdk.SuggestedParams> {
  const p = (await nodeGet(l, '/v1/transactions/params')).body as { genesisID: string; genesishashb64: string; lastRound: number; minFee: number };
  return {
    fee: BigInt(p.minFee),
    minFee: BigInt(p.minFee),
    flatFee: true,
    firstValid: BigInt(p.lastRound),
    lastValid: BigInt(p.lastRound) + 1000n,
    genesisID: p.genesisID,
    genesisHash: fromBase64(p.genesishashb64),
  };
}

async function submit(l: Launched, signed: Uint8Array): Promise<{ status: number; text: string }> {
  const res = await request(`${l.node.url}/v1/transactions`, {
    method: 'POST',
    headers: { 'X-Node-API-Token': l.node.token, 'content-type': 'application/x-binary' },
    body: signed,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

describe('devnet: kill -9 mid-burst and restart on the same data directory', function () {
  this.timeout(60_000);
  let dir: string;
  const running: Launched[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-crash-'));
  });
  after(async () => {
    for (const l of running) if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged transaction and the state of the last acknowledged round', async () => {
    const first = await launch(dir);
    running.push(first);

    // Burst senders: fresh keys funded from the default wallet through the key manager.
    const kmd = new algosdk.Kmd(
      { 'X-KMD-API-Token': first.kmd.token } as never,
      `http://${new URL(first.kmd.url).hostname}`,
      Number(new URL(first.kmd.url).port),
    );
    const wallets = (await kmd.listWallets()) as { wallets: { id: string; name: string }[] };
    const handle = (
      (await kmd.initWalletHandle(wallets.wallets.find((w) => w.name === 'unencrypted-default-wallet')!.id, '')) as { wallet_handle_token: string }
    ).wallet_handle_token;
    const funder = ((await kmd.listKeys(handle)) as { addresses: string[] }).addresses[0]!;
    const senders = Array.from({ length: 4 }, () => algosdk.generateAccount());
    for (const s of senders) {
      const pay = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
        sender: funder,
        receiver: s.addr,
        amount: 100_000_000n,
        suggestedParams: await params(first),
      });
      assert.equal((await submit(first, (await kmd.signTransaction(handle, '', pay)) as Uint8Array)).status, 200);
    }
    const sp = await params(first);

    // Four writers submit payments back to back; a poller samples the devnet's state hash. The
    // process is killed once enough transactions were acknowledged, with requests in flight.
    const acked: string[] = [];
    const samples: { round: bigint; stateHash: string }[] = [];
    let stop = false;
    let n = 0;
    const writer = async (s: algosdk.Account) => {
      while (!stop) {
        const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
          sender: s.addr,
          receiver: funder,
          amount: 1000n,
          note: new TextEncoder().encode(`burst ${n++}`),
          suggestedParams: sp,
        });
        try {
          const r = await submit(first, txn.signTxn(s.sk));
          if (r.status === 200) acked.push(JSON.parse(r.text).txId);
          else assert.fail(`submission refused: ${r.text}`);
        } catch (e) {
          if (stop) return; // the connection died with the process
          throw e;
        }
      }
    };
    const poller = async () => {
      while (!stop) {
        try {
          const r = await nodeGet(first, '/v1/devnet/state-hash');
          samples.push({ round: BigInt(r.body.round), stateHash: r.body.stateHash });
        } catch (e) {
          if (stop) return;
          throw e;
        }
      }
    };
    const killer = (async () => {
      while (acked.length < 100) await new Promise((r) => setTimeout(r, 2));
      first.child.kill('SIGKILL');
      stop = true;
    })();
    await Promise.all([...senders.map(writer), poller(), killer]);
    const { signal } = await first.exit;
    assert.equal(signal, 'SIGKILL');
    assert.ok(acked.length >= 100);
    const last = samples.at(-1)!;
    assert.ok(last && last.round > 4n, 'state hash sampled during the burst');

    // A write cut by the kill is an unacknowledged partial record: --recover sets it aside.
    const second = await launch(dir, ['--recover']);
    running.push(second);
    const after = (await nodeGet(second, '/v1/devnet/state-hash')).body as { round: number; stateHash: string };
    assert.ok(BigInt(after.round) >= last.round, `restart at round ${after.round}, sampled ${last.round} before the kill`);
    // At most the groups in flight at the kill (one per writer) may have made it in unacknowledged.
    assert.ok(BigInt(after.round) <= BigInt(4 + 1 + acked.length + senders.length), 'no invented rounds');
    if (BigInt(after.round) === last.round) assert.equal(after.stateHash, last.stateHash);

    for (const txid of acked) {
      const n = await nodeGet(second, `/v1/transaction/${txid}`);
      assert.equal(n.status, 200, `node service finds ${txid}`);
      assert.ok(n.body.round > 0, 'confirmed');
      const q = await getJson(second.query, 'X-Indexer-API-Token', `/v2/transactions/${txid}`);
      assert.equal(q.status, 200, `query service finds ${txid}`);
      assert.equal(q.body.transaction['confirmed-round'], n.body.round);
    }

    second.child.kill('SIGTERM');
    assert.equal((await second.exit).code, 0, second.stderr());

    // Replaying the journal up to the sampled round gives the state hash reported before the kill.
    const genesis = JSON.parse(readFileSync(join(dir, 'genesis.json'), 'utf8')) as { accounts: { address: string; amount: string }[] };
    const journal = new FileLedgerStore(join(dir, 'ledger')).readJournal();
    const replay = (rounds: bigint) => {
      const store = new MemoryLedgerStore();
      store.journal = journal.slice(0, Number(rounds) + 1); // the genesis record, then one per round
      return new Ledger({ genesisAccounts: genesis.accounts.map((a) => ({ address: a.address, amount: BigInt(a.amount) })), store });
    };
    const atSample = replay(last.round);
    assert.equal(atSample.latestRound, last.round);
    assert.equal(toHex(atSample.stateHash()), last.stateHash);
    assert.equal(toHex(replay(BigInt(after.round)).stateHash()), after.stateHash, 'the restarted devnet holds the replayed state');
  });
});
