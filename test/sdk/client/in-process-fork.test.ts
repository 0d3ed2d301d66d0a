import assert from 'node:assert/strict';
import { Tealworks } from '../../../sdk/src/index.js';
import { InProcessChain } from '../../../sdk/src/client/in-process.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { addressBytes } from '../../../sdk/src/encoding/address.js';
import { startDevnet, type RunningDevnet } from '../../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../../sdk/src/services/kmd/index.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makeAppUpdateTxn } from '../../../sdk/src/txn/builders.js';
import type { Ledger } from '../../../sdk/src/ledger/index.js';

/**
 * The in-process chain as a fork of a live network (a devnet on a socket stands in for it):
 * snapshots and cheats work on forked state, e.g. impersonating a real app's creator to update it.
 */

const COUNTER = (step: number) =>
  assemble(`#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int UpdateApplication
==
bnz update
byte "count"
byte "count"
app_global_get
int ${step}
+
app_global_put
int 1
return
update:
txn Sender
global CreatorAddress
==
return
create:
byte "count"
int 1
app_global_put
int 1
return`).program;
const CLEAR = assemble('#pragma version 10\nint 1').program;

const params = (l: Ledger) => ({
  fee: 1000n,
  flatFee: true,
  firstValid: l.latestRound,
  lastValid: l.latestRound + 1000n,
  genesisId: l.genesisId,
  genesisHash: l.genesisHash,
});
const count = (l: Ledger, appId: bigint) => l.globalState(appId).find((kv) => new TextDecoder().decode(kv.key) === 'count')?.value;

describe('in-process chain: fork option (snapshots and cheats on a fork)', function () {
  this.timeout(60_000);
  let remote: RunningDevnet;
  let appId: bigint;
  let creator: string;

  before(async () => {
    remote = await startDevnet({ inMemory: true, kdf: TEST_SCRYPT });
    // The remote's app, created by a wallet key of the remote (never known to the fork).
    creator = remote.accounts[0]!.address;
    const l = remote.ledger;
    // Written straight into the remote's ledger with impersonation (the remote stands in for a live network).
    l.impersonate(creator, true);
    l.submit([
      {
        txn: makeAppCreateTxn({
          sender: creator,
          approvalProgram: COUNTER(1),
          clearProgram: CLEAR,
          globalSchema: { numUints: 1, numByteSlices: 0 },
          suggestedParams: params(l),
        }),
      },
    ]);
    appId = l.block(l.latestRound).txns[0]!.ad.createdAppId!;
    l.impersonate(creator, false);
  });
  after(async () => {
    await remote.stop();
  });

  it("Tealworks.inProcess({ fork }) takes the remote's genesis and state; the client sends on it", async () => {
    const tw = await Tealworks.inProcess({ fork: { url: remote.node.url, token: remote.node.token } });
    const chain = tw.testChain;
    assert.equal(chain.ledger.genesisId, remote.ledger.genesisId);
    assert.deepEqual(chain.ledger.genesisHash, remote.ledger.genesisHash);
    assert.equal(chain.round, remote.ledger.latestRound);
    const [alice] = chain.accounts;
    const l = chain.ledger;
    await tw.send.transaction(makeAppCallTxn({ sender: alice!.address, appId, suggestedParams: params(l) }));
    assert.equal(count(l, appId), 2n);
    assert.equal(count(remote.ledger, appId), 1n, 'the remote is never written');
    assert.ok(chain.fork!.requests.some((r) => r.resource === `app ${appId}`));
    await tw.close();
  });

  it("impersonates a real app's creator to update it locally; snapshots revert it", async () => {
    const tw = await Tealworks.inProcess({ fork: { url: remote.node.url, token: remote.node.token } });
    const chain = tw.testChain;
    const l = chain.ledger;
    const [alice] = chain.accounts;
    const snap = chain.snapshot();
    chain.impersonate(creator);
    await tw.send.transaction(makeAppUpdateTxn({ sender: creator, appId, approvalProgram: COUNTER(100), clearProgram: CLEAR, suggestedParams: params(l) }));
    await tw.send.transaction(makeAppCallTxn({ sender: alice!.address, appId, suggestedParams: params(l) }));
    assert.equal(count(l, appId), 101n);
    chain.revert(snap);
    assert.equal(count(l, appId), 1n, 'reverted to the forked state');
    assert.deepEqual(l.app(appId)!.approvalProgram, COUNTER(1));
    await tw.send.transaction(makeAppCallTxn({ sender: alice!.address, appId, note: utf8('after revert'), suggestedParams: params(l) }));
    assert.equal(count(l, appId), 2n);
    await tw.close();
  });

  it('a cheat on state not fetched yet is refused with what to do; after fetch() it works', async () => {
    const chain = await InProcessChain.open({ fork: { url: remote.node.url, token: remote.node.token } });
    assert.throws(() => chain.setGlobal(appId, 'count', 7n), /has not fetched .* yet; nothing was changed\. Fetch it first: await chain\.fetch/);
    assert.deepEqual(chain.fork!.origin({ kind: 'app', id: appId }), { source: 'unfetched' });
    await chain.fetch({ apps: [appId] });
    const fetchedAt = chain.fork!.recordRound({ kind: 'app', id: appId });
    assert.deepEqual(chain.fork!.origin({ kind: 'app', id: appId }), { source: 'remote', round: fetchedAt });
    chain.setGlobal(appId, 'count', 7n);
    assert.deepEqual(chain.fork!.origin({ kind: 'app', id: appId }), { source: 'local' }, 'changed on the fork');
    assert.deepEqual(
      chain.fork!.origin({ kind: 'account', address: addressBytes(chain.accounts[0]!.address) }),
      { source: 'local' },
      'a funded genesis account is local',
    );
    assert.equal(count(chain.ledger, appId), 7n);
    // The creator's balance is the remote's until a cheat changes it locally.
    await chain.fetch({ accounts: [creator] });
    const remoteBalance = remote.ledger.balance(creator);
    assert.equal(chain.ledger.balance(creator), remoteBalance);
    chain.setBalance(creator, 5n);
    assert.equal(chain.ledger.balance(creator), 5n);
    assert.equal(remote.ledger.balance(creator), remoteBalance);
    assert.throws(() => InProcessChain.create({ fork: { url: remote.node.url } }), /opened asynchronously/);
    await chain.close();
  });
});
