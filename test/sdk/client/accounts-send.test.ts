import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tealworks, algos, RekeyedSignerError, SimulateFailedError, type LocalAccount } from '@tealworks/sdk';
import { failureSummary } from '@tealworks/sdk/app';
import { startDevnet, type RunningDevnet } from '../../../sdk/src/services/devnet/index.js';

// Issue 27: rekeyed senders, a stable dispenser, connect.devnet() beside a --localnet devnet,
// account.fromEnvironment, the missing send.* kinds and the transaction log, on real devnets.

const KDF = { N: 1 << 10, r: 8, p: 1 };

describe('client: rekeyed accounts send through tw.send and tw.newGroup()', function () {
  this.timeout(60_000);
  let tw: Tealworks;
  before(async () => {
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(() => tw.close());

  it('tw.account.rekey: later sends from the account are signed by the auth account', async () => {
    const alice = await tw.account.ensureFunded(tw.account.random(), algos(5));
    const bob = tw.account.random();
    await tw.account.rekey(alice, bob);
    const plain = async () =>
      (
        await tw
          .composer()
          .add((await tw.newGroup().payment({ sender: alice, receiver: bob, amount: 1n }).compose()).entries[0]!.txn)
          .simulate()
      ).failureMessage ?? '';
    assert.match(await plain(), new RegExp(`should have been authorized by ${bob.address}`));
    const paid = await tw.send.payment({ sender: alice, receiver: bob, amount: algos(1) });
    assert.ok(paid.confirmedRound > 0n);
    const sent = await tw
      .newGroup()
      .payment({ sender: alice, receiver: bob, amount: algos(0.5) })
      .payment({ sender: alice.address, receiver: bob, amount: algos(0.25) })
      .send();
    assert.equal(sent.txns.length, 2);
    assert.equal(await tw.account.balance(bob), 1_750_000n);
    // Undo: alice signs for herself again.
    await tw.account.rekey(alice, alice);
    assert.equal(await plain(), '');
    assert.ok((await tw.send.payment({ sender: alice, receiver: bob, amount: 1n })).confirmedRound > 0n);
  });

  it('a client that did not see the rekey finds the auth address by simulating (fix-signers)', async () => {
    const alice = await tw.account.ensureFunded(tw.account.random(), algos(3));
    const bob = tw.account.random();
    await tw.send.payment({ sender: alice, receiver: alice, amount: 0n, rekeyTo: bob });
    const fresh = await Tealworks.connect({
      env: { ALGOD_SERVER: tw.network.profile.node.url, ALGOD_TOKEN: tw.network.profile.node.token, NODE_API: 'node-service' },
    });
    try {
      const a = fresh.account.fromMnemonic((alice as LocalAccount).mnemonic);
      // The auth account is unknown to this client: the error names it and says what to do.
      await assert.rejects(fresh.send.payment({ sender: a, receiver: alice, amount: 1n }), (e: Error) => {
        assert.ok(e instanceof RekeyedSignerError, e.message);
        assert.equal(e.authAddress, bob.address);
        assert.match(e.message, new RegExp(`must be signed by ${bob.address}: the account was rekeyed to it`));
        return true;
      });
      fresh.account.fromMnemonic(bob.mnemonic);
      const report = await fresh.newGroup().payment({ sender: a, receiver: alice, amount: 1n }).simulate();
      assert.equal(report.wouldSucceed, true, report.failureMessage);
      assert.equal(report.txns[0]?.fixedSigner, bob.address);
      assert.ok((await fresh.send.payment({ sender: a, receiver: alice, amount: 1n })).confirmedRound > 0n);
    } finally {
      await fresh.close();
    }
  });

  it("the node's authorization failure carries a hint naming the auth address", async () => {
    const alice = await tw.account.ensureFunded(tw.account.random(), algos(2));
    const bob = tw.account.random();
    await tw.account.rekey(alice, bob);
    const c = tw.composer().add({ txn: (await tw.newGroup().payment({ sender: alice, receiver: bob, amount: 1n }).compose()).entries[0]!.txn });
    const report = await c.simulate(); // no fix-signers: the node reports who should have signed
    assert.equal(report.wouldSucceed, false);
    const summary = failureSummary(report);
    assert.match(summary, new RegExp(`should have been authorized by ${bob.address}`));
    assert.match(summary, new RegExp(`hint: the sender was rekeyed: its auth address is ${bob.address}, so ${bob.address} must sign, not ${alice.address}`));
    await assert.rejects(
      c.simulate({ throwOnFailure: true }),
      (e: Error) => e instanceof SimulateFailedError && e.message.includes(`its auth address is ${bob.address}`),
    );
  });
});

describe('client: send.* for every everyday transaction kind', function () {
  this.timeout(60_000);
  let tw: Tealworks;
  before(async () => {
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(() => tw.close());

  it('asset freeze, clawback, config and opt-out', async () => {
    const issuer = await tw.account.ensureFunded(tw.account.random(), algos(5));
    const holder = await tw.account.ensureFunded(tw.account.random(), algos(2));
    const { createdAssetId: asset } = await tw.send.assetCreate({
      sender: issuer,
      total: 100,
      unitName: 'FRZ',
      manager: issuer,
      freeze: issuer,
      clawback: issuer,
    });
    await tw.send.assetOptIn({ sender: holder, assetId: asset! });
    await tw.send.assetTransfer({ sender: issuer, receiver: holder, assetId: asset!, amount: 10 });
    await tw.send.assetFreeze({ sender: issuer, assetId: asset!, account: holder, frozen: true });
    await assert.rejects(
      tw.send.assetTransfer({ sender: holder, receiver: issuer, assetId: asset!, amount: 1 }),
      (e: Error) => e instanceof SimulateFailedError && /frozen/.test(e.message),
    );
    await tw.send.assetTransfer({ sender: issuer, receiver: issuer, clawbackFrom: holder, assetId: asset!, amount: 4 });
    await tw.send.assetFreeze({ sender: issuer, assetId: asset!, account: holder, frozen: false });
    await tw.send.assetConfig({ sender: issuer, assetId: asset!, manager: issuer, freeze: issuer });
    const params = (await tw.node.asset(asset!)).params;
    assert.equal(params.clawback, undefined, 'a role left out is cleared');
    assert.equal(params.freeze, issuer.address);
    await tw.send.assetOptOut({ sender: holder, assetId: asset! });
    const after = await tw.node.account(holder.address);
    assert.equal(
      after.assets.find((h) => h.assetId === asset),
      undefined,
      'the holding is gone',
    );
    const issuerHolding = (await tw.node.account(issuer.address)).assets?.find((h) => h.assetId === asset);
    assert.equal(issuerHolding?.amount, 100n, 'what the holder had went back to the creator');
  });

  it('appCreate, appCall and keyRegistration', async () => {
    const a = await tw.account.ensureFunded(tw.account.random(), algos(2));
    const approve = new Uint8Array([0x0a, 0x81, 0x01]); // #pragma version 10; int 1
    const made = await tw.send.appCreate({ sender: a, approvalProgram: approve, clearProgram: approve, schema: { globalInts: 1 } });
    assert.ok(made.createdAppId! > 0n);
    const called = await tw.send.appCall({ sender: a, appId: made.createdAppId!, args: ['hello', 7n] });
    assert.deepEqual(called.txn.appCall?.args[1], new Uint8Array([0, 0, 0, 0, 0, 0, 0, 7]));
    await tw.send.appCall({ sender: a, appId: made.createdAppId!, onComplete: 'delete' });
    await assert.rejects(tw.node.application(made.createdAppId!));
    const off = await tw.send.keyRegistration({ sender: a });
    assert.equal(off.txn.type, 'keyreg');
    const sent = await tw
      .newGroup()
      .appCall({ sender: a, appId: 0, approvalProgram: approve, clearProgram: approve })
      .keyRegistration({ sender: a, nonParticipation: false })
      .send()
      .catch((e: Error) => e);
    assert.ok(sent instanceof Error || sent.txns.length === 2);
  });
});

describe('client: the transaction log', function () {
  this.timeout(60_000);

  it('info: sends and confirmations; debug: the simulate report of a failure', async () => {
    const lines: string[] = [];
    const tw = await Tealworks.connect.devnet({ inProcess: true, log: { level: 'info', sink: (l) => lines.push(l) } });
    try {
      const a = await tw.account.ensureFunded(tw.account.random(), algos(1));
      assert.ok(
        lines.some((l) => /^\[tealworks\] sent pay \d+ from [A-Z2-7]{6}…[A-Z2-7]{4} \(txn [A-Z2-7]{52}\)$/.test(l)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((l) => /^\[tealworks\] confirmed in round \d+: txn [A-Z2-7]{52}$/.test(l)),
        lines.join('\n'),
      );
      assert.ok(!lines.some((l) => /would succeed/.test(l)), 'successful simulations only at debug');
      lines.length = 0;
      tw.log.level = 'debug';
      await assert.rejects(tw.send.payment({ sender: a, receiver: tw.account.random(), amount: algos(5) }));
      assert.ok(
        lines.some((l) => /simulated before sending pay 5000000 from .*: simulation failed at txn 0: .*overspend/.test(l)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((l) => /Simulation: would FAIL at txn 0/.test(l)),
        lines.join('\n'),
      );
      assert.ok(!lines.some((l) => /^\[tealworks\] sent/.test(l)), 'nothing was sent');
    } finally {
      await tw.close();
    }
  });

  it('TEALWORKS_LOG sets the level; a wrong level is a clear error', async () => {
    await assert.rejects(Tealworks.connect.devnet({ inProcess: true, env: { TEALWORKS_LOG: 'loud' } }), /TEALWORKS_LOG is "loud"; use one of off, info, debug/);
  });
});

describe('client: dispensers and devnets found from one run to the next', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-issue27-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the wallet dispenser is the same account after it paid (equal genesis accounts)', async () => {
    const devnet: RunningDevnet = await startDevnet({ inMemory: true, accounts: 3, kdf: KDF });
    try {
      const env = {
        ALGOD_SERVER: devnet.node.url,
        ALGOD_TOKEN: devnet.node.token,
        NODE_API: 'node-service',
        KMD_SERVER: devnet.keyManager.url,
        KMD_TOKEN: devnet.keyManager.token,
      };
      const first = await Tealworks.connect({ env });
      const d1 = first.account.dispenser.address;
      await first.account.fund(first.account.random(), algos(10));
      await first.close();
      const second = await Tealworks.connect({ env });
      try {
        assert.equal(second.account.dispenser.address, d1);
      } finally {
        await second.close();
      }
    } finally {
      await devnet.stop();
    }
  });

  it('connect.devnet() next to a running `tealworks devnet --localnet` uses it', async () => {
    const cwd = process.cwd();
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    const devnet = await startDevnet({ dataDir: join(project, '.tealworks/localnet'), localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: KDF });
    process.chdir(project);
    try {
      const tw = await Tealworks.connect.devnet({ env: {} });
      try {
        assert.equal(tw.network.inProcess, false);
        assert.equal((await tw.node.suggestedParams()).genesisId, 'dockernet-v1');
        assert.equal(tw.account.dispenser.address, devnet.accounts[0]!.address);
      } finally {
        await tw.close();
      }
    } finally {
      process.chdir(cwd);
      await devnet.stop();
    }
  });

  it('account.fromEnvironment: NAME_MNEMONIC, else a funded key-manager wallet per name', async () => {
    const tw = await Tealworks.connect.devnet({ inProcess: true, env: { DEPLOYER_MNEMONIC: '' } });
    try {
      const known = tw.account.random();
      const fromVar = await Tealworks.connect.devnet({ inProcess: true, env: { DEPLOYER_MNEMONIC: known.mnemonic } });
      assert.equal((await fromVar.account.fromEnvironment('deployer')).address, known.address);
      await fromVar.close();
      const made = await tw.account.fromEnvironment('deployer', { fund: algos(50) });
      assert.equal(await tw.account.balance(made), 50_000_000n);
      const again = await tw.account.fromEnvironment('deployer');
      assert.equal(again.address, made.address);
      assert.equal(await tw.account.balance(made), 50_000_000n, 'funded once');
      assert.ok((await tw.send.payment({ sender: again, receiver: known, amount: algos(1) })).confirmedRound > 0n);
      await assert.rejects(tw.account.fromEnvironment('bad name'), /an account name is letters, digits/);
    } finally {
      await tw.close();
    }
  });
});
