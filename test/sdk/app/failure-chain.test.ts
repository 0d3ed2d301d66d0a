import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tealworks, algos } from '../../../sdk/src/client/index.js';
import { failureSummary, renderSimulateReport, type SimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { makeAppCallTxn } from '../../../sdk/src/txn/index.js';
import { parseArc65Error } from '../../../sdk/src/teal/source-maps.js';

// A failure two inner calls deep: an outer TEAL app calls a middle TEAL app, which calls the Puya
// hello-world app with an argument its router rejects. The report gives the whole chain, each
// level with its app, method, source line and the error.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HELLO = resolve(repoRoot, '../shared/data/fixtures/puya-examples/hello_world_arc4');

const OUTER = [
  '#pragma version 10',
  '#define CALL_APP itxn_begin; int appl; itxn_field TypeEnum; int 0; itxn_field Fee',
  'txn ApplicationID',
  'bz done',
  'CALL_APP',
  'txna ApplicationArgs 0',
  'btoi',
  'itxn_field ApplicationID',
  'txna ApplicationArgs 1',
  'itxn_field ApplicationArgs',
  'itxn_submit // call the middle app',
  'done:',
  'int 1',
  'return',
].join('\n');

const MIDDLE = [
  '#pragma version 10',
  'txn ApplicationID',
  'bz done',
  'itxn_begin',
  'int appl',
  'itxn_field TypeEnum',
  'int 0',
  'itxn_field Fee',
  'txna ApplicationArgs 0',
  'btoi',
  'itxn_field ApplicationID',
  'method "hello(string)string"',
  'itxn_field ApplicationArgs',
  'byte 0x000541 // a string whose length header says 5 but holds 1 byte',
  'itxn_field ApplicationArgs',
  'itxn_submit // call hello',
  'done:',
  'int 1',
  'return',
].join('\n');

const CLEAR = '#pragma version 10\nint 1\n';

/** Logs an ARC-65 error, then fails. */
const ARC65 = ['#pragma version 10', 'txn ApplicationID', 'bz done', 'byte "ERR:LIMIT:value too big"', 'log', 'err', 'done:', 'int 1', 'return'].join('\n');

describe('app: failure chains through inner calls', function () {
  this.timeout(120_000);
  let tw: Tealworks;

  before(async function () {
    if (!existsSync(HELLO)) return this.skip();
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(async () => {
    if (tw) await tw.close();
  });

  async function simulateCall(
    appId: bigint,
    args: Uint8Array[],
    apps: bigint[],
    knowledge: Array<[bigint, ReturnType<import('../../../sdk/src/app/client.js').AppClient['knowledge']>]>,
  ): Promise<SimulateReport> {
    const sp = await tw.node.suggestedParams();
    const txn = makeAppCallTxn({
      sender: tw.account.dispenser.address,
      appId,
      args,
      foreignApps: apps,
      suggestedParams: {
        fee: 4000n,
        flatFee: true,
        firstValid: sp.lastRound,
        lastValid: sp.lastRound + 100n,
        genesisId: sp.genesisId,
        genesisHash: sp.genesisHash,
      },
    });
    const c = tw.composer();
    for (const [id, k] of knowledge) c.knowApp(id, k);
    c.add({ txn, signer: tw.account.dispenser.signer });
    return c.simulate();
  }

  it('names every level: group index, app and name, method, source line and the error', async () => {
    const hello = await tw.app.deploy({
      creator: tw.account.dispenser,
      approval: `${HELLO}/out/HelloWorldContract.approval.teal`,
      clear: `${HELLO}/out/HelloWorldContract.clear.teal`,
      spec: `${HELLO}/out/HelloWorldContract.arc56.json`,
    });
    const middle = await tw.app.deploy({ creator: tw.account.dispenser, approval: MIDDLE, clear: CLEAR, name: 'middle', fund: algos(1) });
    const outer = await tw.app.deploy({ creator: tw.account.dispenser, approval: OUTER, clear: CLEAR, name: 'outer', fund: algos(1) });
    const u64 = (n: bigint) => {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigUint64(0, n);
      return b;
    };
    const report = await simulateCall(
      outer.appId,
      [u64(middle.appId), u64(hello.appId)],
      [middle.appId, hello.appId],
      [
        [outer.appId, outer.client.knowledge()],
        [middle.appId, middle.client.knowledge()],
        [hello.appId, hello.client.knowledge()],
      ],
    );
    assert.equal(report.wouldSucceed, false);
    assert.deepEqual(report.failedAt, [0, 0, 0]);
    const chain = report.failure!.chain!;
    assert.equal(chain.length, 3, renderSimulateReport(report));
    const [o, m, h] = chain;
    assert.deepEqual([o!.path, m!.path, h!.path], [[0], [0, 0], [0, 0, 0]]);
    assert.deepEqual(
      chain.map((f) => f.groupIndex),
      [0, 0, 0],
    );
    assert.deepEqual(
      chain.map((f) => f.appId),
      [outer.appId, middle.appId, hello.appId],
    );
    assert.deepEqual(
      chain.map((f) => f.appName),
      ['outer', 'middle', 'HelloWorldContract'],
    );
    assert.deepEqual(
      chain.map((f) => f.failing),
      [false, false, true],
    );
    // Each enclosing level stops at its itxn_submit line; the innermost at the .py line.
    assert.equal(o!.source?.line, OUTER.split('\n').indexOf('itxn_submit // call the middle app') + 1);
    assert.equal(o!.source?.text, 'itxn_submit // call the middle app');
    assert.equal(m!.source?.line, MIDDLE.split('\n').indexOf('itxn_submit // call hello') + 1);
    assert.equal(h!.source?.file, `${HELLO}/contract.py`);
    assert.equal(h!.source?.line, 10);
    assert.equal(h!.source?.text, '@arc4.abimethod');
    assert.equal(h!.method, 'hello(string)string');
    assert.equal(h!.errorMessage, 'invalid number of bytes for arc4.dynamic_array<arc4.uint8>');
    assert.match(h!.teal!.file!, /HelloWorldContract\.approval\.teal$/);
    assert.ok(o!.pc! > 0 && m!.pc! > 0);

    const text = renderSimulateReport(report);
    assert.match(
      text,
      /call chain:\n {4}txn 0 {2}app \d+ \(outer\).*at line 11 {2}itxn_submit \/\/ call the middle app {2}\(pc \d+\)\n {4}└ txn 0 → inner 0 {2}app \d+ \(middle\).*\n {6}└ txn 0 → inner 0 → inner 0 {2}app \d+ \(HelloWorldContract\) {2}hello\(string\)string {2}in HelloWorldContract\.hello\[routing\] {2}at contract\.py:10:\d+ {2}@arc4\.abimethod {2}\(pc 52, HelloWorldContract\.approval\.teal:47:5\) {2}✗ invalid number of bytes/,
    );
    assert.match(
      failureSummary(report),
      /invalid number of bytes for arc4\.dynamic_array<arc4\.uint8> \[contract\.py:10:\d+\] \(called through app \d+ \(outer\) at line 11 → app \d+ \(middle\) at line 16\)/,
    );
  });

  it('an ARC-65 logged error is named at its level', async () => {
    const app = await tw.app.deploy({ creator: tw.account.dispenser, approval: ARC65, clear: CLEAR, name: 'arc65' });
    const report = await simulateCall(app.appId, [], [], [[app.appId, app.client.knowledge()]]);
    assert.equal(report.wouldSucceed, false);
    assert.equal(report.failure!.loggedError, 'ERR:LIMIT:value too big', renderSimulateReport(report));
    assert.equal(report.failure!.chain![0]!.loggedError, 'ERR:LIMIT:value too big');
    assert.match(renderSimulateReport(report), /logged error: ERR:LIMIT:value too big/);
    assert.match(failureSummary(report), /: ERR:LIMIT:value too big \[line 6\]/);
  });

  it('parses ARC-65 errors: prefix, code and message', () => {
    assert.deepEqual(parseArc65Error('ERR:E1'), { prefix: 'ERR', code: 'E1' });
    assert.deepEqual(parseArc65Error('AER:E2:bad: really'), { prefix: 'AER', code: 'E2', message: 'bad: really' });
    assert.equal(parseArc65Error('hello'), undefined);
    assert.equal(parseArc65Error(new Uint8Array([0xff, 0xfe])), undefined);
  });
});
