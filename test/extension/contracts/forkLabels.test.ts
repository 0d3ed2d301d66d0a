import assert from 'node:assert/strict';
import { forkDescription, forkTooltip, originLabel, withOrigin } from '../../../extension/src/contracts/forkLabels.js';

describe('extension contracts: fork labels (Networks view, state inspector)', () => {
  const status = {
    url: 'http://127.0.0.1:4001',
    genesisId: 'testnet-v1.0',
    forkRound: 100n,
    remoteRound: 100n,
    movedOn: false,
    cached: 1,
    requests: 3,
    laterRecords: 0,
  };

  it('describes the devnet that forks a network, and says when the remote moved on', () => {
    assert.equal(forkDescription('testnet', status), 'fork of testnet @ 100');
    assert.equal(forkDescription(undefined, { ...status, remoteRound: 120n, movedOn: true }), 'fork of http://127.0.0.1:4001 @ 100 (remote moved on)');
    const tip = forkTooltip('testnet', { ...status, remoteRound: 120n, movedOn: true });
    assert.match(tip, /Fork of testnet \(http:\/\/127\.0\.0\.1:4001\), genesis testnet-v1\.0/);
    assert.match(tip, /1 record cached; 3 remote requests this session/);
    assert.match(tip, /The remote is at round 120/);
  });

  it("labels state as the remote's (with its round) or local", () => {
    assert.equal(originLabel({ source: 'remote', round: 42n }), 'remote @ 42');
    assert.equal(originLabel({ source: 'local' }), 'local');
    assert.equal(originLabel({ source: 'unfetched' }), 'remote (not read yet)');
    assert.equal(originLabel(undefined), '');
    assert.equal(withOrigin('uint64', { source: 'local' }), 'uint64 · local');
    assert.equal(withOrigin('', { source: 'remote', round: 1n }), 'remote @ 1');
    assert.equal(withOrigin('3', undefined), '3');
  });
});
