import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tealworks, algos, microAlgos, ConnectError, MinimumBalanceError, SimulateFailedError, AlgoAmount, TealworksError } from '@tealworks/sdk';
import { CallArgsError } from '@tealworks/sdk/app';
import { CounterClient } from '../../../examples/scripts/counter-client.js';
import { generateAppClient } from '../../../sdk/src/client/codegen.js';
import { loadAppSpec } from '../../../sdk/src/abi/arc56.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const counterDir = join(repoRoot, 'examples/counter/abi');

describe('client: amounts', () => {
  it('algos and microAlgos are exact', () => {
    assert.equal(algos(1.5).microAlgos, 1_500_000n);
    assert.equal(algos('0.000001').microAlgos, 1n);
    assert.equal(algos(0.1 + 0.2).microAlgos, 300_000n);
    assert.equal(algos(3n).microAlgos, 3_000_000n);
    assert.equal(microAlgos(5).microAlgos, 5n);
    assert.equal(String(algos(2.5)), '2.500000 ALGO');
    assert.ok(algos(1) instanceof AlgoAmount);
  });

  it('refuses what would lose precision, and says what to pass', () => {
    assert.throws(() => microAlgos(2 ** 60), /larger than JavaScript numbers hold exactly .*pass a bigint instead, e\.g\. 1152921504606846976n/);
    assert.throws(() => microAlgos(1.5), /use algos\(1\.5\)/);
    assert.throws(() => algos('1.0000001'), /at most 6 decimals/);
    assert.throws(() => algos(-1), /non-negative/);
  });
});

describe('client: connect errors say what to do', () => {
  let server: Server;
  let url: string;
  let status = 401;
  before(async () => {
    server = createServer((req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: status === 401 ? 'Invalid API Token' : 'not found' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('401: check the token, and where it comes from', async () => {
    status = 401;
    await assert.rejects(
      Tealworks.connect({ env: { ALGOD_SERVER: url, ALGOD_TOKEN: 'wrong' } }),
      (e: Error) =>
        e instanceof ConnectError &&
        /refused the API token \(HTTP 401\)\. Check the token: it comes from the ALGOD_TOKEN environment variable/.test(e.message) &&
        !e.message.includes('wrong') &&
        e.url === url &&
        e.hint?.startsWith('Check the token: it comes from the ALGOD_TOKEN environment variable') === true &&
        e instanceof TealworksError,
    );
  });

  it('404: which API the server speaks', async () => {
    status = 404;
    await assert.rejects(
      Tealworks.connect({ env: { ALGOD_SERVER: url } }),
      (e: Error) =>
        e instanceof ConnectError && /has no \/v2\/transactions\/params \(HTTP 404\); it does not speak the public algod \/v2 node API/.test(e.message),
    );
  });

  it('no ALGOD_SERVER: names the variables and the alternatives', async () => {
    await assert.rejects(Tealworks.connect({ env: {} }), /ALGOD_SERVER is not set: set ALGOD_SERVER .*Tealworks\.connect\.devnet\(\)/);
  });

  it('nothing listening: says so, with the URL', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(
      Tealworks.connect({ env: { ALGOD_SERVER: 'http://127.0.0.1', ALGOD_PORT: String(port) } }),
      (e: Error) => e instanceof ConnectError && e.message.startsWith(`cannot reach the env node at http://127.0.0.1:${port}`),
    );
  });

  it('a malformed URL is a connect error', async () => {
    await assert.rejects(
      Tealworks.connect.localnet({ host: 'http://127.0.0.1:1' }),
      (e: Error) => e instanceof ConnectError && /invalid service URL/.test(e.message),
    );
  });
});

describe('client: the Tealworks object on an in-process devnet', function () {
  this.timeout(60_000);
  let tw: Tealworks;
  const deployCounter = () => CounterClient.deploy(tw, { creator: tw.account.dispenser, baseDir: counterDir, approval: 'counter.teal', clear: 'clear.teal' });

  before(async () => {
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(() => tw.close());

  it('connect.devnet() in process has a dispenser; ensureFunded pays only the shortfall', async () => {
    assert.equal(tw.network.name, 'devnet');
    const a = tw.account.random();
    await tw.account.ensureFunded(a, algos(2));
    assert.ok(tw.account.lastFunding);
    assert.equal(await tw.account.balance(a), 2_100_000n); // 2 spendable + 0.1 minimum balance
    await tw.account.ensureFunded(a, algos(1));
    assert.equal(tw.account.lastFunding, undefined);
  });

  it('fromMnemonic restores the same account; logicsig gives the program address', async () => {
    const a = tw.account.random();
    assert.equal(tw.account.fromMnemonic(a.mnemonic).address, a.address);
    assert.throws(() => tw.account.fromMnemonic('not a phrase'), /not a valid 25-word key phrase/);
    const lsig = tw.account.logicsig(new Uint8Array([0x0a, 0x81, 0x01])); // #pragma version 10; int 1
    assert.match(lsig.address, /^[A-Z2-7]{58}$/);
  });

  it('fromKeyManager signs through the wallet', async () => {
    const genesis = tw.account.dispenser.address;
    const k = await tw.account.fromKeyManager(genesis);
    const paid = await tw.send.payment({ sender: k, receiver: tw.account.random(), amount: algos(1) });
    assert.ok(paid.confirmedRound > 0n);
  });

  it('send.assetCreate returns the confirmed transaction with the new id', async () => {
    const a = await tw.account.ensureFunded(tw.account.random(), algos(1));
    const made = await tw.send.assetCreate({ sender: a, total: 1000, unitName: 'TW' });
    assert.ok(made.createdAssetId! > 0n);
    assert.equal(made.txn.type, 'acfg');
  });

  it('a payment that would leave the sender below its minimum balance says whose account and by how much', async () => {
    const a = await tw.account.ensureFunded(tw.account.random(), algos(1));
    await assert.rejects(tw.send.payment({ sender: a, receiver: tw.account.dispenser, amount: algos(1.05) }), (e: Error) => {
      assert.ok(e instanceof MinimumBalanceError && e instanceof SimulateFailedError, e.message);
      assert.equal(e.address, a.address);
      assert.equal(e.appId, undefined);
      assert.match(
        e.message,
        new RegExp(`account ${a.address} would hold \\d+ micro-units, below its minimum balance of 100000: it is short by \\d+ micro-units`),
      );
      return true;
    });
  });

  it('an app account without funds for its box names the app and the shortfall', async () => {
    const counter = await CounterClient.deploy(tw, {
      creator: tw.account.dispenser,
      baseDir: counterDir,
      approval: 'counter.teal',
      clear: 'clear.teal',
      name: 'unfunded-counter',
    });
    await assert.rejects(counter.increment({ amount: 1 }), (e: Error) => {
      assert.ok(e instanceof MinimumBalanceError, e.message);
      assert.equal(e.appId, counter.appId);
      assert.match(
        e.message,
        new RegExp(
          `the account of app ${counter.appId} \\(${counter.appAddress}\\) would hold 0 micro-units, below its minimum balance of \\d+: it is short by \\d+ micro-units; fund the app account first`,
        ),
      );
      return true;
    });
  });

  it('a wrong method name lists the methods and the nearest match', async () => {
    const counter = await deployCounter();
    await assert.rejects(
      counter.app.call('incremnt', [1n]),
      (e: Error) =>
        e instanceof CallArgsError &&
        e.message === 'app Counter has no method "incremnt". Did you mean "increment"? Its methods: increment(uint64)uint64, get_count()uint64',
    );
  });

  it('typed client: a wrong argument type is a compile error, the right one runs', async () => {
    const counter = await CounterClient.deploy(tw, {
      creator: tw.account.dispenser,
      baseDir: counterDir,
      approval: 'counter.teal',
      clear: 'clear.teal',
      fund: algos(1),
      name: 'typed-counter',
    });
    // @ts-expect-error — amount is bigint | number, not text
    const wrong = () => counter.increment({ amount: 'five' });
    assert.equal(typeof wrong, 'function');
    const r = await counter.increment({ amount: 4n });
    const n: bigint | undefined = r.returnValue;
    assert.equal(n, 4n);
    assert.equal((await counter.state.global()).count, 4n);
    assert.equal(await counter.state.box.counts(tw.account.dispenser.address), 4n);
    assert.equal(await counter.state.box.counts(tw.account.random().address), undefined);
    const untyped = await tw.app.client(CounterClient.spec, counter.appId).call<bigint>('get_count', [], { sender: tw.account.dispenser.address });
    assert.equal(untyped.returnValue, 4n);
    // get_count is read-only in the spec: the typed call is answered by simulate, nothing is sent.
    const round = (await tw.node.status()).lastRound;
    const read = await counter.getCount({ sender: tw.account.dispenser.address });
    assert.equal(read.returnValue, 4n);
    assert.equal(read.simulated, true);
    assert.equal((await tw.node.status()).lastRound, round);
    const sent = await counter.getCount({ sender: tw.account.dispenser.address, sendReadonly: true });
    assert.equal(sent.returnValue, 4n);
    assert.ok(sent.confirmedRound > round, 'sendReadonly sends it');
  });

  it('tw.simulate(group) and newGroup().send()', async () => {
    const counter = await deployCounter();
    const a = await tw.account.ensureFunded(tw.account.random(), algos(1));
    const group = tw
      .newGroup()
      .payment({ sender: a, receiver: counter.appAddress, amount: algos(0.2) })
      .call(counter.app, 'increment', [2n], { sender: a.address });
    const report = await tw.simulate(group);
    assert.equal(report.wouldSucceed, true, report.failureMessage);
    const sent = await group.send();
    assert.equal(sent.txns.length, 2);
  });
});

describe('client: generated typed client', () => {
  it('examples/scripts/counter-client.ts is what `tealworks generate client` writes today', () => {
    const spec = loadAppSpec(readFileSync(join(counterDir, 'counter.arc56.json'), 'utf8'));
    assert.equal(generateAppClient(spec, { sourceName: 'counter.arc56.json' }), readFileSync(join(repoRoot, 'examples/scripts/counter-client.ts'), 'utf8'));
  });

  it('generates from an ARC-32 spec too', () => {
    const spec = loadAppSpec(readFileSync(join(repoRoot, 'test/sdk/abi/fixtures/hello.arc32.json'), 'utf8'));
    const code = generateAppClient(spec, { sourceName: 'hello.arc32.json' });
    assert.match(code, new RegExp(`export class ${spec.name.replace(/[^A-Za-z0-9]/g, '')}Client`, 'i'));
    for (const m of spec.methods) assert.ok(code.includes(JSON.stringify(m.method.signature)), m.method.signature);
  });

  it('types structs, template variables and every argument kind', () => {
    const spec = loadAppSpec({
      arcs: [56],
      name: 'shop',
      structs: {
        Item: [
          { name: 'price', type: 'uint64' },
          { name: 'label', type: 'string' },
        ],
      },
      methods: [
        {
          name: 'buy',
          args: [
            { type: 'pay', name: 'payment' },
            { type: '(uint64,string)', struct: 'Item', name: 'item' },
            { type: 'account', name: 'who' },
            { type: 'byte[]', name: 'memo' },
            { type: '(bool,address)', name: 'flags' },
          ],
          returns: { type: '(uint64,string)', struct: 'Item' },
          actions: { create: [], call: ['NoOp'] },
        },
      ],
      state: {
        schema: { global: { ints: 0, bytes: 0 }, local: { ints: 1, bytes: 0 } },
        keys: { global: {}, local: { points: { keyType: 'AVMString', valueType: 'uint64', key: 'cA==' } }, box: {} },
        maps: { global: {}, local: {}, box: {} },
      },
      bareActions: { create: ['NoOp'], call: [] },
      templateVariables: { TMPL_FEE: { type: 'uint64' } },
    });
    const code = generateAppClient(spec);
    assert.match(code, /export interface Item \{\n {2}price: bigint;\n {2}label: string;\n\}/);
    assert.match(
      code,
      /export interface ShopBuyArgs \{\n(?: *\/\*\*.*\*\/\n)? {2}payment: TxnArg<'pay'>;\n {2}item: Item;\n {2}who: string;\n {2}memo: Uint8Array \| string;\n {2}flags: readonly \[boolean, string\];\n\}/,
    );
    assert.match(code, /buy\(args: ShopBuyArgs, options\?: AppCallOptions\): Promise<AppCallResult<Item>>/);
    assert.match(code, /Transaction arguments \(pay\) are named in `args`/);
    assert.match(code, /template: \{ FEE: bigint \| number \};/);
    assert.match(code, /local: async \(address: string\): Promise<ShopLocalState>/);
  });
});
