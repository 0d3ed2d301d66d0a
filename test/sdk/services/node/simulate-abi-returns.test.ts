// Issue 14, item 3: simulate's per-transaction results carry decoded ABI return values
// (node-service.md "Simulate"), over HTTP against the devnet's node service.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import algosdk from 'algosdk';
import { request } from 'undici';
import { fromBase64, toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { decodeMsgpack, encodeMsgpack } from '../../../../sdk/src/encoding/msgpack.js';
import { stringifyJson } from '../../../../sdk/src/encoding/json.js';
import { methodSelector } from '../../../../sdk/src/abi/method.js';
import { loadAppSpec } from '../../../../sdk/src/abi/arc56.js';
import { compileContract, deployApp, builderParams } from '../../../../sdk/src/app/index.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn } from '../../../../sdk/src/txn/builders.js';
import { signedTransactionToNodeJson } from '../../../../sdk/src/txn/json.js';
import { signedTransactionToWire } from '../../../../sdk/src/txn/wire.js';
import type { Transaction } from '../../../../sdk/src/txn/types.js';
import { assignGroupId } from '../../../../sdk/src/txn/group.js';
import { startDevnet, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { connectNetwork, type WorkflowNetwork } from '../../../../sdk/src/workflow/connect.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const read = (p: string) => readFileSync(resolve(root, p), 'utf8');

const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// add(uint64,uint64)uint64, point()(uint64,address) and short()uint64 (logs a 2-byte "uint64").
const POINT_OWNER = new Address(new Uint8Array(32).fill(7));
const APPROVAL = `#pragma version 10
txn ApplicationID
bz ok
txna ApplicationArgs 0
method "add(uint64,uint64)uint64"
==
bnz add
txna ApplicationArgs 0
method "point()(uint64,address)"
==
bnz point
txna ApplicationArgs 0
method "short()uint64"
==
bnz short
byte "not a return value"
log
b ok
add:
byte 0x151f7c75
txna ApplicationArgs 1
btoi
txna ApplicationArgs 2
btoi
+
itob
concat
log
b ok
point:
byte 0x151f7c75${hex(u64(42n))}${hex(POINT_OWNER.publicKey)}
log
b ok
short:
byte 0x151f7c750102
log
ok:
int 1
return
`;

const ARC4 = {
  name: 'Calc',
  methods: [
    { name: 'add', args: [{ type: 'uint64' }, { type: 'uint64' }], returns: { type: 'uint64' } },
    { name: 'short', args: [], returns: { type: 'uint64' } },
  ],
};

function arc56WithPoint(): Record<string, unknown> {
  const base = JSON.parse(read('examples/counter/abi/counter.arc56.json')) as Record<string, unknown>;
  return {
    ...base,
    name: 'Geometry',
    structs: {
      Point: [
        { name: 'x', type: 'uint64' },
        { name: 'owner', type: 'address' },
      ],
    },
    methods: [{ name: 'point', args: [], returns: { type: '(uint64,address)', struct: 'Point' }, actions: { create: [], call: ['NoOp'] }, readonly: true }],
  };
}

describe('node service: simulate returns decoded ABI return values (issue 14 item 3)', function () {
  this.timeout(30000);
  let d: RunningDevnet;
  let net: WorkflowNetwork;
  let me: string;
  let appId: bigint;

  before(async () => {
    d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
    net = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: root, devnet: d });
    me = net.dispenser!.address;
    const sp = await builderParams(net.chain);
    const create = makeAppCreateTxn({
      sender: me,
      approvalProgram: assemble(APPROVAL).program,
      clearProgram: assemble('#pragma version 10\nint 1').program,
      suggestedParams: sp,
    });
    const signed = await net.dispenser!.signer.sign([create], [0]);
    const sent = await net.chain.node.submit(signed);
    appId = (await net.chain.node.pending(sent.txid)).applicationIndex!;
  });
  after(async () => {
    await net?.close();
    await d?.stop();
  });

  const call = async (args: Uint8Array[], target = appId): Promise<Transaction> =>
    makeAppCallTxn({ sender: me, appId: target, args, suggestedParams: await builderParams(net.chain) });

  async function simulate(txns: Transaction[], extra: Record<string, unknown> = {}): Promise<{ status: number; json: any; text: string }> {
    const group = txns.length > 1 ? assignGroupId(txns) : txns;
    const body = stringifyJson({
      'txn-groups': [{ txns: group.map((t) => signedTransactionToNodeJson({ txn: t })) }],
      'allow-empty-signatures': true,
      ...extra,
    });
    const res = await request(`${d.node.url}/v1/transactions/simulate`, {
      method: 'POST',
      headers: { 'X-Node-API-Token': d.node.token, 'content-type': 'application/json' },
      body,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, text };
  }
  const abiReturn = (r: { json: any }, i = 0) => r.json['txn-groups'][0]['txn-results'][i]['abi-return'];

  it('without a known method: the raw bytes after the return prefix only; calls without a return log get nothing', async () => {
    const r = await simulate([await call([methodSelector('add(uint64,uint64)uint64'), u64(2n), u64(3n)]), await call([new Uint8Array([1, 2, 3, 4])])]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(abiReturn(r, 0), { raw: toBase64(u64(5n)) });
    assert.equal(abiReturn(r, 1), undefined);
  });

  it('typed from an ARC-4 contract given in the request (app-specs)', async () => {
    const r = await simulate([await call([methodSelector('add(uint64,uint64)uint64'), u64(2n), u64(40n)])], { 'app-specs': [ARC4] });
    assert.deepEqual(abiReturn(r), { raw: toBase64(u64(42n)), method: 'add(uint64,uint64)uint64', type: 'uint64', value: 42 });
  });

  it('typed from an ARC-56 spec given in the request: structs by field name, addresses as text', async () => {
    const r = await simulate(
      [await call([methodSelector('point()(uint64,address)')]), await call([methodSelector('add(uint64,uint64)uint64'), u64(1n), u64(1n)])],
      { 'app-specs': [arc56WithPoint(), ARC4] },
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(abiReturn(r, 0), {
      raw: abiReturn(r, 0).raw,
      method: 'point()(uint64,address)',
      type: '(uint64,address)',
      value: { x: 42, owner: POINT_OWNER.toString() },
    });
    assert.equal(hex(fromBase64(abiReturn(r, 0).raw)), hex(u64(42n)) + hex(POINT_OWNER.publicKey));
    assert.equal(abiReturn(r, 1).value, 2);
  });

  it("bytes that do not decode as the method's type: raw plus an error", async () => {
    const r = await simulate([await call([methodSelector('short()uint64')])], { 'app-specs': [ARC4] });
    const a = abiReturn(r);
    assert.equal(a.raw, toBase64(new Uint8Array([1, 2])));
    assert.equal(a.method, 'short()uint64');
    assert.equal(a.value, undefined);
    assert.match(a.error, /does not decode as uint64/);
  });

  it('msgpack request and response: the spec as JSON text, raw as bin', async () => {
    const t = await call([methodSelector('add(uint64,uint64)uint64'), u64(7n), u64(8n)]);
    const body = encodeMsgpack({
      'txn-groups': [{ txns: [signedTransactionToWire({ txn: t })] }],
      'allow-empty-signatures': true,
      'app-specs': [JSON.stringify(ARC4)],
    });
    const res = await request(`${d.node.url}/v1/transactions/simulate?format=msgpack`, {
      method: 'POST',
      headers: { 'X-Node-API-Token': d.node.token, 'content-type': 'application/msgpack' },
      body,
    });
    assert.equal(res.statusCode, 200);
    const m = decodeMsgpack(new Uint8Array(await res.body.arrayBuffer())) as any;
    const a = m['txn-groups'][0]['txn-results'][0]['abi-return'];
    assert.deepEqual(a.raw, u64(15n));
    assert.equal(a.method, 'add(uint64,uint64)uint64');
    assert.equal(a.value, 15);
  });

  it('interop: algosdk v3 reads a simulate response carrying abi-return (msgpack)', async () => {
    const url = new URL(d.node.url);
    const algod = new algosdk.Algodv2({ 'X-Node-API-Token': d.node.token }, `${url.protocol}//${url.hostname}`, url.port);
    const signed = await net.dispenser!.signer.sign([await call([methodSelector('add(uint64,uint64)uint64'), u64(20n), u64(22n)])], [0]);
    const resp = await algod.simulateRawTransactions(signed).do();
    const logs = resp.txnGroups[0]!.txnResults[0]!.txnResult.logs!;
    assert.equal(hex(logs[logs.length - 1]!), '151f7c75' + hex(u64(42n)));
  });

  it('bad app-specs are 400 with the reason', async () => {
    const t = await call([methodSelector('add(uint64,uint64)uint64'), u64(1n), u64(1n)]);
    const notList = await simulate([t], { 'app-specs': { name: 'x' } });
    assert.equal(notList.status, 400);
    assert.match(notList.text, /app-specs must be an array/);
    const bad = await simulate([t], { 'app-specs': [{ hello: 1 }] });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /app-specs\[0\] is neither an ARC-56\/ARC-32 spec nor an ARC-4 contract/);
  });

  it('a refused simulate request answers as the public node API does: 400 with {"message": …}, which algosdk shows', async () => {
    const res = await request(`${d.node.url}/v1/transactions/simulate`, {
      method: 'POST',
      headers: { 'X-Node-API-Token': d.node.token, 'content-type': 'application/json' },
      body: '{"txn-groups": 5}',
    });
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(await res.body.json(), { message: 'txn-groups must be an array of {txns: [...]}' });
    // The evaluator's refusals too; algosdk puts the body's message into the error it throws.
    const url = new URL(d.node.url);
    const algod = new algosdk.Algodv2({ 'X-Node-API-Token': d.node.token }, `${url.protocol}//${url.hostname}`, url.port);
    const signed = await net.dispenser!.signer.sign([await call([methodSelector('add(uint64,uint64)uint64'), u64(1n), u64(2n)])], [0]);
    const simReq = new algosdk.modelsv2.SimulateRequest({
      txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: signed.map((b) => algosdk.decodeSignedTransaction(b)) })],
      extraOpcodeBudget: 10_000_000,
    });
    await assert.rejects(algod.simulateTransactions(simReq).do(), (e: Error) => {
      assert.match(e.message, /Received status 400 \(Bad Request\): extra budget 10000000 > simulation extra budget limit 320000/);
      return true;
    });
  });

  it('typed from the spec registered at deploy through our tools (deployApp → PUT /v1/devnet/apps/{id}/spec)', async () => {
    const spec = loadAppSpec(read('examples/counter/abi/counter.arc56.json'));
    const compiled = compileContract(
      { approval: read('examples/counter/abi/counter.teal'), clear: read('examples/counter/abi/clear.teal'), spec },
      { updatable: false, deletable: false },
    );
    const resolveSigner = (a: string) => (a === me ? net.dispenser!.signer : undefined);
    const deployed = await deployApp({
      chain: net.chain,
      creator: me,
      resolveSigner,
      compiled,
      metadata: { name: 'abi-returns', version: '1', updatable: false, deletable: false },
    });
    const registered = await request(`${d.node.url}/v1/devnet/apps/${deployed.appId}/spec`, { headers: { 'X-Node-API-Token': d.node.token } });
    assert.equal(registered.statusCode, 200);
    assert.equal(((await registered.body.json()) as { name: string }).name, spec.name);
    const r = await simulate([await call([methodSelector('get_count()uint64')], deployed.appId)]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json['txn-groups'][0].failed_at, []);
    assert.deepEqual(abiReturn(r), { raw: toBase64(u64(0n)), method: 'get_count()uint64', type: 'uint64', value: 0 });
    // Another app's registration does not apply.
    assert.equal(abiReturn(await simulate([await call([methodSelector('add(uint64,uint64)uint64'), u64(1n), u64(2n)])])).method, undefined);
  });

  it('the registration operation: 404 for an unknown app, 400 for a bad spec or id', async () => {
    const put = async (path: string, body: string) => {
      const res = await request(`${d.node.url}${path}`, {
        method: 'PUT',
        headers: { 'X-Node-API-Token': d.node.token, 'content-type': 'application/json' },
        body,
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    assert.equal((await put('/v1/devnet/apps/999999/spec', JSON.stringify(ARC4))).status, 404);
    assert.equal((await put(`/v1/devnet/apps/${appId}/spec`, '{not json')).status, 400);
    assert.equal((await put('/v1/devnet/apps/x/spec', JSON.stringify(ARC4))).status, 400);
    const ok = await put(`/v1/devnet/apps/${appId}/spec`, JSON.stringify(ARC4));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(JSON.parse(ok.text).methods, ['add(uint64,uint64)uint64', 'short()uint64']);
    const r = await simulate([await call([methodSelector('add(uint64,uint64)uint64'), u64(1n), u64(2n)])]);
    assert.equal(abiReturn(r).value, 3);
    const noSpec = await request(`${d.node.url}/v1/devnet/apps/12345/spec`, { headers: { 'X-Node-API-Token': d.node.token } });
    assert.equal(noSpec.statusCode, 404);
    await noSpec.body.text();
  });
});
