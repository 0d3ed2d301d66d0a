import assert from 'node:assert/strict';
import {
  checkNetworkName,
  checkServiceUrl,
  customProfile,
  localnetProfileFor,
  needsConfirmation,
  parseCustomNetworks,
  secretKey,
  settingsMoveEndpoints,
} from '../../../extension/src/contracts/networks.js';

describe('extension contracts: networks and profiles', () => {
  it('accepts http(s) service URLs and refuses credentials, queries and other schemes', () => {
    assert.equal(checkServiceUrl(' https://node.example.net/ ', 'node'), 'https://node.example.net');
    assert.throws(() => checkServiceUrl('ftp://x', 'node'), /only http and https/);
    assert.throws(() => checkServiceUrl('https://user:secret@x', 'node'), /token prompt/);
    assert.throws(() => checkServiceUrl('https://x/?token=abc', 'node'), /query or fragment/);
    assert.throws(() => checkServiceUrl('not a url', 'node'), /is not a URL/);
  });

  it('checks network names', () => {
    assert.equal(checkNetworkName(' testnet ', []), 'testnet');
    assert.throws(() => checkNetworkName('devnet', []), /built in/);
    assert.throws(() => checkNetworkName('t', ['t']), /already exists/);
    assert.throws(() => checkNetworkName('', []), /give the network a name/);
    assert.throws(() => checkNetworkName('   ', []), /give the network a name/);
    assert.throws(() => checkNetworkName('no/slash', []), /1-40/);
    assert.throws(() => checkNetworkName('TestNet', ['testnet']), /a network named testnet already exists/);
    assert.throws(() => checkNetworkName('LocalNet', []), /built in/);
  });

  it('refuses URLs no node can be at: no host, spaces, the API path typed in', () => {
    assert.equal(checkServiceUrl('http://algod:4001', 'node'), 'http://algod:4001');
    assert.equal(checkServiceUrl('http://[::1]:4001/', 'node'), 'http://[::1]:4001');
    assert.equal(checkServiceUrl('https://node.example.net/algod', 'node'), 'https://node.example.net/algod');
    assert.throws(() => checkServiceUrl('http://-/', 'node URL'), /node URL: "-" is not a host name/);
    assert.throws(() => checkServiceUrl('http://a..b', 'node URL'), /is not a host name/);
    assert.throws(() => checkServiceUrl('https://node.example.net/v2', 'node URL'), /leave out \/v2: the client adds the API path itself/);
    assert.throws(() => checkServiceUrl('https://node.example.net/ v2', 'node URL'), /no spaces/);
  });

  it('applies the same name rules to the setting: blank and repeated names are reported', () => {
    const { networks, problems } = parseCustomNetworks([
      { name: ' ', nodeUrl: 'https://a.example' },
      { name: 't', nodeUrl: 'https://a.example' },
      { name: 'T', nodeUrl: 'https://b.example' },
    ]);
    assert.deepEqual(
      networks.map((n) => n.name),
      ['t'],
    );
    assert.match(problems[0]!, /\[0\].*give the network a name/);
    assert.match(problems[1]!, /\[2\].*already exists/);
  });

  it('reads the setting leniently and reports bad entries', () => {
    const { networks, problems } = parseCustomNetworks([
      { name: 'testnet', nodeUrl: 'https://n.example', queryUrl: 'https://q.example', api: 'algod' },
      { name: 'bad' },
      { name: 'x', nodeUrl: 'gopher://y' },
    ]);
    assert.deepEqual(networks, [{ name: 'testnet', nodeUrl: 'https://n.example', queryUrl: 'https://q.example' }]);
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /\[1\].*needs name and nodeUrl/);
  });

  it('puts tokens from secret storage into the profile, query falling back to the node token', () => {
    const p = customProfile({ name: 't', nodeUrl: 'https://n', queryUrl: 'https://q' }, { nodeToken: 'abc' });
    assert.deepEqual(p, { name: 't', node: { api: 'algod', url: 'https://n', token: 'abc' }, query: { url: 'https://q', token: 'abc' } });
    assert.equal(localnetProfileFor(undefined).node.url, 'http://localhost:4001');
    assert.equal(localnetProfileFor('http://10.0.0.2/').node.url, 'http://10.0.0.2:4001');
  });

  it('asks before sending anywhere but the devnet; secret keys are per network', () => {
    assert.equal(needsConfirmation('devnet'), false);
    assert.equal(needsConfirmation('localnet'), true);
    assert.equal(needsConfirmation('mainnet'), true);
    assert.equal(secretKey('testnet', 'nodeToken'), 'tealworks.testnet.nodeToken');
    assert.notEqual(secretKey('local', 'mnemonic', 'A'), secretKey('local', 'mnemonic', 'B'));
  });

  it('applies a changed tealworks.localnet.host or custom network URL to the active network at once (E11)', () => {
    // What VS Code's affectsConfiguration answers for a change of tealworks.localnet.host.
    const hostChanged = (section: string) => section === 'tealworks' || section === 'tealworks.localnet' || section === 'tealworks.localnet.host';
    const networksChanged = (section: string) => section === 'tealworks' || section === 'tealworks.networks';
    assert.equal(settingsMoveEndpoints('localnet', hostChanged), true);
    assert.equal(settingsMoveEndpoints('localnet', networksChanged), false);
    assert.equal(settingsMoveEndpoints('staging', networksChanged), true);
    assert.equal(settingsMoveEndpoints('staging', hostChanged), false);
    // The embedded devnet's endpoints are its own: no setting moves them.
    assert.equal(settingsMoveEndpoints('devnet', hostChanged), false);
    assert.equal(settingsMoveEndpoints('devnet', networksChanged), false);
  });
});
