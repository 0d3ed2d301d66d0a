// The probe's outline of a simulate answer (verdict, failure message, unnamed resources) reads the
// same values the full report does, for the answers a real chain gives.
import { strict as assert } from 'node:assert';
import { Tealworks } from '../../../sdk/src/index.js';
import { buildSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { simulateOutline } from '../../../sdk/src/app/simulate-outline.js';

const ABI = 'examples/counter/abi';

describe('simulateOutline', () => {
  it('agrees with buildSimulateReport on successes, failures and unnamed box and account use', async () => {
    // Its own genesis: chains from one genesis share the references calls needed (fewer simulations).
    const tw = await Tealworks.inProcess({ seed: 'simulate-outline' });
    try {
      const raws: unknown[] = [];
      const node = tw.testChain.connection.chain.node;
      const simulate = node.simulate.bind(node);
      node.simulate = async (signed, options) => {
        const r = await simulate(signed, options);
        raws.push(r.raw);
        return r;
      };
      const app = await tw.app.deploy({
        creator: tw.testChain.accounts[0]!,
        spec: `${ABI}/counter.arc56.json`,
        approval: `${ABI}/counter.teal`,
        clear: `${ABI}/clear.teal`,
        fund: 10_000_000n,
      });
      await app.client.call('increment', [5]);
      await assert.rejects(app.client.call('increment', [50]));
      await tw.send.payment({ sender: tw.testChain.accounts[0]!, receiver: tw.testChain.accounts[1]!.address, amount: 1000n });
      await assert.rejects(tw.send.payment({ sender: tw.testChain.accounts[1]!, receiver: tw.testChain.accounts[0]!.address, amount: 10n ** 18n }));
      assert.ok(raws.length >= 6, `simulations seen: ${raws.length}`);
      let failures = 0;
      let unnamed = 0;
      for (const raw of raws) {
        const full = buildSimulateReport(raw);
        const outline = simulateOutline(raw);
        assert.equal(outline.wouldSucceed, full.wouldSucceed);
        assert.equal(outline.failureMessage, full.failureMessage);
        assert.deepEqual(outline.unnamedResources, full.unnamedResources);
        assert.deepEqual(
          outline.txns.map((t) => t.unnamedResources),
          full.txns.map((t) => t.unnamedResources),
        );
        if (!full.wouldSucceed) failures++;
        if (full.unnamedResources || full.txns.some((t) => t.unnamedResources)) unnamed++;
      }
      assert.ok(failures > 0 && unnamed > 0, `failures ${failures}, with unnamed resources ${unnamed}`);
    } finally {
      await tw.close();
    }
  });
});
