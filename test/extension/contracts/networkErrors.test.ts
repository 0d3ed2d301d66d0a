import assert from 'node:assert/strict';
import { NetworkError, TimeoutError } from '../../../sdk/src/adapters/http/errors.js';
import { describeNetworkError, endpointOf, errorMessageFor } from '../../../extension/src/contracts/networkErrors.js';

const refused = (url: string, code = 'ECONNREFUSED') =>
  new NetworkError({ method: 'GET', url, code, retryable: true, requestNotSent: true, detail: `connect ${code} 127.0.0.1:4001` });

describe('extension contracts: network errors in words', () => {
  it('explains a refused connection per network, with what to do and the notification buttons', () => {
    const local = describeNetworkError(refused('http://localhost:4001/v2/transactions/params'), 'localnet')!;
    assert.equal(
      local.message,
      'Cannot reach localnet: nothing answers at http://localhost:4001. Start LocalNet (algokit localnet start), or set tealworks.localnet.host to where it runs; the embedded devnet needs no set-up.',
    );
    assert.deepEqual(local.actions, ['Open Settings', 'Switch to Devnet']);
    assert.doesNotMatch(local.message, /ECONNREFUSED/);
    const custom = describeNetworkError(refused('https://node.example.net/v2/status'), 'testnet')!;
    assert.match(
      custom.message,
      /^Cannot reach testnet: nothing answers at https:\/\/node\.example\.net\. Check that its node is running and that the testnet entry of tealworks\.networks has the right URL\.$/,
    );
    assert.deepEqual(custom.actions, ['Open Settings', 'Switch Network']);
    assert.deepEqual(describeNetworkError(refused('http://127.0.0.1:5555/v2/status'), 'devnet')!.actions, ['Start Devnet']);
  });

  it('says a host name was not found (a typo or offline), a timeout, no route', () => {
    assert.equal(
      describeNetworkError(refused('https://tesnet-api.example/v2/status', 'ENOTFOUND'), 'testnet')!.message,
      'Cannot reach testnet: the host name in https://tesnet-api.example was not found. Check the URL (the testnet entry of tealworks.networks), and that you are online.',
    );
    assert.match(
      describeNetworkError(new TimeoutError({ method: 'GET', url: 'http://10.0.0.9:4001/v2/status', timeoutMs: 5000 }), 'localnet')!.message,
      /^localnet did not answer in time at http:\/\/10\.0\.0\.9:4001\. .*offline.*tealworks\.localnet\.host/,
    );
    assert.match(
      describeNetworkError(refused('http://10.0.0.9:4001/x', 'ENETUNREACH'), 'localnet')!.message,
      /no route to that host\. Check that you are online/,
    );
  });

  it('finds the failure through wrapping errors; anything else is shown as it is', () => {
    const wrapped = new Error('simulate failed', { cause: refused('http://localhost:4001/v2/transactions/simulate') });
    assert.match(errorMessageFor(wrapped, 'localnet'), /^Cannot reach localnet/);
    assert.equal(describeNetworkError(new Error('logic eval error: assert failed pc=12'), 'localnet'), undefined);
    assert.equal(errorMessageFor(new Error('txn 0: amount: not a number'), 'devnet'), 'txn 0: amount: not a number');
    assert.equal(endpointOf('https://user@node.example.net:8443/v2/status?x=1'), 'https://node.example.net:8443');
  });
});
