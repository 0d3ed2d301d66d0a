import assert from 'node:assert/strict';
import { AppLinks, appSourceLabel, linkMovedText, LINKS_KEY, type LinkStore } from '../../../extension/src/contracts/links.js';

/** An in-memory Memento, JSON round-tripped like VS Code's workspace state. */
function memento(): LinkStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(k: string, d: T) => (data.has(k) ? (JSON.parse(data.get(k)!) as T) : d),
    update: async (k: string, v: unknown) => void data.set(k, JSON.stringify(v)),
  };
}

const G1 = 'Z2VuZXNpcy1vbmU=';
const G2 = 'Z2VuZXNpcy10d28=';

describe('extension contracts: app links keyed by chain (genesis hash)', () => {
  it('links an app with its source and spec on one chain only', async () => {
    const links = new AppLinks(memento());
    await links.observe('devnet', G1);
    await links.link(G1, 'devnet', 1001n, { source: 'approval.teal', spec: 'counter.arc56.json', via: 'deploy' });
    assert.equal(links.appForSource(G1, 'approval.teal'), 1001n);
    assert.deepEqual(links.get(G1, 1001n), { source: 'approval.teal', spec: 'counter.arc56.json', via: 'deploy' });
    assert.deepEqual(links.apps(G1), [1001n]);
    // Another chain — or no chain known yet — sees nothing.
    assert.equal(links.appForSource(G2, 'approval.teal'), undefined);
    assert.deepEqual(links.apps(G2), []);
    assert.deepEqual(links.apps(undefined), []);
  });

  it('drops the links of a chain that is gone when its network comes back with another genesis', async () => {
    const store = memento();
    const links = new AppLinks(store);
    await links.observe('devnet', G1);
    await links.link(G1, 'devnet', 1001n, { source: 'approval.teal' });
    // The in-memory devnet restarted: a new chain whose ids start at 1001 again.
    assert.deepEqual(await links.observe('devnet', G2), [G1]);
    assert.equal(links.appForSource(G2, 'approval.teal'), undefined, 'never a stale link to a different app 1001');
    assert.deepEqual(links.chains(), []);
    await links.link(G2, 'devnet', 1001n, { source: 'other.teal' });
    assert.equal(links.sourceForApp(G2, 1001n), 'other.teal');
    // Survives a reload (state is persisted as JSON).
    assert.equal(new AppLinks(store).sourceForApp(G2, 1001n), 'other.teal');
    assert.ok(store.data.has(LINKS_KEY));
  });

  it('keeps a chain that another network still runs, and a persisted chain seen again', async () => {
    const links = new AppLinks(memento());
    await links.observe('localnet', G1);
    await links.observe('devnet', G1);
    await links.link(G1, 'devnet', 5n, { source: 'a.teal' });
    assert.deepEqual(await links.observe('devnet', G2), [], 'localnet still runs G1');
    assert.equal(links.appForSource(G1, 'a.teal'), 5n);
    assert.deepEqual(await links.observe('localnet', G1), []);
    assert.equal(links.appForSource(G1, 'a.teal'), 5n);
  });

  it('points a source at its newest deploy and says the link moved; older deploys keep source and spec; unlink and dropChain', async () => {
    const links = new AppLinks(memento());
    assert.equal(await links.link(G1, 'devnet', 1001n, { source: 'approval.teal', spec: 's.json' }), undefined);
    assert.equal(await links.link(G1, 'devnet', 1001n, { source: 'approval.teal', spec: 's.json' }), undefined, 'linking the same app again moves nothing');
    assert.equal(await links.link(G1, 'devnet', 1002n, { source: 'approval.teal', spec: 's.json' }), 1001n);
    assert.equal(links.appForSource(G1, 'approval.teal'), 1002n);
    // The earlier app keeps its spec decoding (link per app id).
    assert.deepEqual(links.get(G1, 1001n), { source: 'approval.teal', spec: 's.json' });
    assert.equal(links.sourceForApp(G1, 1001n), 'approval.teal');
    assert.deepEqual([links.isCurrent(G1, 1001n), links.isCurrent(G1, 1002n)], [false, true]);
    assert.deepEqual(
      [appSourceLabel('approval.teal', false), appSourceLabel('approval.teal', true), appSourceLabel(undefined, true)],
      ['approval.teal (earlier deploy)', 'approval.teal', ''],
    );
    assert.equal(
      linkMovedText('approval.teal', 1001n, 1002n),
      'approval.teal was deployed again: its Call lens now calls app 1002. App 1001, deployed from it earlier, stays in the State Inspector with its spec.',
    );
    // A workflow linking the earlier app again moves the lens back to it.
    assert.equal(await links.link(G1, 'devnet', 1001n, { source: 'approval.teal', via: 'workflow' }), 1002n);
    assert.equal(links.appForSource(G1, 'approval.teal'), 1001n);
    await links.unlink(G1, 1001n);
    assert.equal(links.appForSource(G1, 'approval.teal'), 1002n, 'the lens falls back to the other deploy');
    assert.deepEqual(links.apps(G1), [1002n]);
    await links.unlink(G1, 1002n);
    assert.deepEqual(links.apps(G1), []);
    await links.link(G1, 'devnet', 1001n, { spec: 's.json' });
    await links.unlink(G1, 1002n);
    assert.deepEqual(links.apps(G1), [1001n]);
    await links.dropChain(G1);
    assert.deepEqual(links.apps(G1), []);
  });
});
