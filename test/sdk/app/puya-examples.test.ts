import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tealworks, algos, readGlobalState } from '../../../sdk/src/client/index.js';
import type { AppClient } from '../../../sdk/src/app/client.js';
import { SimulateFailedError } from '../../../sdk/src/app/errors.js';
import { renderSimulateReport, type SimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { makeAppCallTxn } from '../../../sdk/src/txn/index.js';

// Failing calls on the nine Puya examples, deployed on the devnet from the TEAL Puya shipped: the
// report names the `.py` line (through the `.puya.map` found beside the TEAL) and the spec's
// error message for the failing pc.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EXAMPLES = resolve(repoRoot, '../shared/data/fixtures/puya-examples');
const present = existsSync(EXAMPLES);

interface Example {
  dir: string;
  contract: string;
  source: string;
  create?: { method: string; args: unknown[] };
}

const ex = (dir: string, contract: string, source = 'contract.py', create?: Example['create']): Example => ({
  dir,
  contract,
  source,
  ...(create ? { create } : {}),
});

function files(e: Example) {
  const out = `${EXAMPLES}/${e.dir}/out/${e.contract}`;
  return { approval: `${out}.approval.teal`, clear: `${out}.clear.teal`, spec: `${out}.arc56.json`, source: `${EXAMPLES}/${e.dir}/${e.source}` };
}

/** 1-based number of the first line matching `pattern` (after the first line matching `after`, when given). */
function lineOf(file: string, pattern: RegExp, after?: RegExp): number {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const from = after ? lines.findIndex((l) => after.test(l)) : 0;
  const i = lines.findIndex((l, k) => k >= from && pattern.test(l));
  assert.ok(i >= 0, `${basename(file)} has a line matching ${pattern}`);
  return i + 1;
}

describe('app: failures in Puya examples name the .py line and the spec message', function () {
  this.timeout(240_000);
  let tw: Tealworks;

  before(async function () {
    if (!present) return this.skip();
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(async () => {
    if (tw) await tw.close();
  });

  async function deploy(e: Example): Promise<AppClient> {
    const f = files(e);
    const d = await tw.app.deploy({
      creator: tw.account.dispenser,
      approval: f.approval,
      clear: f.clear,
      spec: f.spec,
      fund: algos(1),
      ...(e.create ? { create: e.create } : {}),
    });
    return d.client;
  }

  /** A call with raw application arguments (selector first): how a client with a wrong encoder would call. */
  async function rawCall(app: AppClient, method: string, args: Uint8Array[]): Promise<SimulateReport> {
    const sp = await tw.node.suggestedParams();
    const sel = app.spec!.getMethod(method).method.selector;
    const txn = makeAppCallTxn({
      sender: tw.account.dispenser.address,
      appId: app.appId,
      args: [sel, ...args],
      suggestedParams: {
        fee: 1000n,
        flatFee: true,
        firstValid: sp.lastRound,
        lastValid: sp.lastRound + 100n,
        genesisId: sp.genesisId,
        genesisHash: sp.genesisHash,
      },
    });
    const c = tw.composer().knowApp(app.appId, app.knowledge());
    c.add({ txn, signer: tw.account.dispenser.signer });
    return c.simulate();
  }

  async function failing(p: Promise<unknown>): Promise<SimulateReport> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof SimulateFailedError, String(err));
      return err.report as SimulateReport;
    }
    assert.fail('the call was expected to fail');
  }

  function expectFailure(report: SimulateReport, e: Example, line: RegExp | [RegExp, RegExp], message: string): void {
    const f = files(e);
    assert.equal(report.wouldSucceed, false);
    const failure = report.failure!;
    assert.ok(failure.userSource, `a .py location for ${e.dir}:\n${renderSimulateReport(report)}`);
    assert.equal(failure.userSource.file, f.source);
    assert.equal(failure.userSource.line, Array.isArray(line) ? lineOf(f.source, line[1], line[0]) : lineOf(f.source, line), renderSimulateReport(report));
    assert.equal(failure.errorMessage, message);
    // The TEAL line stays known beside it.
    assert.equal(failure.source?.file, f.approval);
    const last = failure.chain!.at(-1)!;
    assert.equal(last.failing, true);
    assert.equal(last.source?.file, f.source);
    assert.equal(last.errorMessage, message);
    assert.equal(last.appName, JSON.parse(readFileSync(f.spec, 'utf8')).name);
    const text = renderSimulateReport(report);
    assert.match(text, new RegExp(`at ${f.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${failure.userSource.line}:`));
    assert.ok(text.includes(message));
  }

  it('amm: set_governor from another account fails in _check_is_governor', async () => {
    const e = ex('amm', 'ConstantProductAMM');
    const app = await deploy(e);
    const other = await tw.account.ensureFunded(tw.account.random(), algos(1));
    const r = await failing(app.call('set_governor', [other.address], { sender: other.address, signer: other.signer }));
    expectFailure(r, e, [/def _check_is_governor/, /^\s*assert \($/], 'Only the account set in global_state.governor may call this method');
    assert.equal(r.failure!.subroutine, 'ConstantProductAMM._check_is_governor');
    // The app's state as the inspector shows it: decoded by the ARC-56 spec Puya wrote.
    const state = await readGlobalState(app);
    assert.equal(state.governor, tw.account.dispenser.address);
    assert.equal(state.pool_token, 0n);
  });

  it('arc_28: emit_swapped with a 3-byte uint64 fails in the ARC-4 router', async () => {
    const e = ex('arc_28', 'EventEmitter');
    const app = await deploy(e);
    const r = await rawCall(app, 'emit_swapped', [new Uint8Array(3), new Uint8Array(8)]);
    expectFailure(r, e, /^\s*@arc4\.abimethod$/, 'invalid number of bytes for arc4.uint64');
  });

  it('auction: opt_into_asset by someone other than the creator', async () => {
    const e = ex('auction', 'Auction');
    const app = await deploy(e);
    const other = await tw.account.ensureFunded(tw.account.random(), algos(1));
    const asset = await tw.send.assetCreate({ sender: tw.account.dispenser, total: 10, unitName: 'AU' });
    const r = await failing(app.call('opt_into_asset', [asset.createdAssetId!], { sender: other.address, signer: other.signer }));
    expectFailure(r, e, /Only creator can opt in to ASA/, 'Only creator can opt in to ASA');
  });

  it('box_storage: set_boxes with a short uint64', async () => {
    const e = ex('box_storage', 'BoxContract');
    const app = await deploy(e);
    const r = await rawCall(app, 'set_boxes', [new Uint8Array(2), new Uint8Array([0, 0]), new Uint8Array([0, 0])]);
    expectFailure(r, e, /^\s*@arc4\.abimethod/, 'invalid number of bytes for arc4.uint64');
  });

  it('hello_world_arc4: hello with a string whose length header lies', async () => {
    const e = ex('hello_world_arc4', 'HelloWorldContract');
    const app = await deploy(e);
    const r = await rawCall(app, 'hello', [new Uint8Array([0, 5, 65])]);
    expectFailure(r, e, /^\s*@arc4\.abimethod$/, 'invalid number of bytes for arc4.dynamic_array<arc4.uint8>');
  });

  it('merkle: verify with a leaf of 31 bytes', async () => {
    const e = ex('merkle', 'MerkleTree', 'contract.py', { method: 'create', args: [new Uint8Array(32)] });
    const app = await deploy(e);
    const r = await rawCall(app, 'verify', [new Uint8Array([0, 0]), new Uint8Array(31)]);
    assert.equal(r.wouldSucceed, false);
    const msg = r.failure!.errorMessage!;
    assert.match(msg, /^invalid number of bytes for /);
    expectFailure(r, e, /^\s*@arc4\.abimethod$/, msg);
  });

  it('struct_in_box: get_user for an id with no box fails at its assert in read_from_box', async () => {
    const e = ex('struct_in_box', 'ExampleContract');
    const app = await deploy(e);
    const r = await failing(app.call('get_user', [99n], { sendReadonly: false }));
    expectFailure(r, e, /User with that id does not exist/, 'User with that id does not exist');
    // Puya inlined read_from_box into the method's routing subroutine.
    assert.equal(r.failure!.subroutine, 'ExampleContract.get_user[routing]');
  });

  it('tictactoe: a second join_game finds the host already has a challenger', async () => {
    const e = ex('tictactoe', 'TicTacToeContract', 'tictactoe.py', { method: 'new_game', args: [[0n, 0n]] });
    const app = await deploy(e);
    await app.call('join_game', [[1n, 1n]]);
    const r = await failing(app.call('join_game', [[2n, 2n]]));
    expectFailure(r, e, /Host already has a challenger/, 'Host already has a challenger');
  });

  it('voting: a create whose end time is before its start time', async () => {
    const e = ex('voting', 'VotingRoundApp', 'voting.py');
    const f = files(e);
    const err = await tw.app
      .deploy({
        creator: tw.account.dispenser,
        approval: f.approval,
        clear: f.clear,
        spec: f.spec,
        create: { method: 'create', args: ['vote', new Uint8Array(32), 'cid', 200n, 100n, [1], 1n, 'url'] },
      })
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    assert.ok(err instanceof SimulateFailedError, String(err));
    expectFailure(err.report as SimulateReport, e, /End time should be after start time/, 'End time should be after start time');
  });
});
