import assert from 'node:assert/strict';
import { compareBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { Ledger } from '../../../sdk/src/ledger/ledger.js';
import { BOX_PAGES, boxNameBefore, boxPageLimit, ForkState, MemoryForkCache, type ForkRemote, type RemoteBoxPage } from '../../../sdk/src/ledger/fork.js';
import { TEST_FORK_HEAD } from './fork-head.js';

/**
 * A fork reading several boxes of one app through pages of the app's boxes: every wanted name
 * inside a page's range is settled (present with its value, or absent), names outside are read by
 * a further page or one by one, and a remote without pages gets one-by-one reads. The remote is
 * an in-memory `ForkRemote` holding one app's boxes, answering pages as the node does; the same
 * over HTTP against the devnet's node service is in test/sdk/services/devnet/fork-prefetch.test.ts.
 */

const HEAD = TEST_FORK_HEAD;
const APP = 77n;

type PageCall = { after?: Uint8Array; limit: number; round?: bigint };

/** One app's boxes; pages as the node makes them (`maxPerPage` stands for the node's byte cap); `pages: false` for an older node. */
class BoxRemote implements ForkRemote {
  readonly url = HEAD.url;
  readonly pageCalls: PageCall[] = [];
  readonly boxCalls: string[] = [];
  readonly boxes: { name: Uint8Array; value: Uint8Array }[];
  boxPage?: ForkRemote['boxPage'];
  constructor(boxes: Map<string, Uint8Array>, options: { pages?: boolean; maxPerPage?: number } = {}) {
    this.boxes = [...boxes].map(([n, value]) => ({ name: utf8(n), value })).sort((x, y) => compareBytes(x.name, y.name));
    if (options.pages === false) return;
    this.boxPage = async (appId: bigint, o: PageCall): Promise<RemoteBoxPage | undefined> => {
      this.pageCalls.push(o);
      assert.equal(appId, APP);
      const after = o.after;
      const matching = this.boxes.filter((b) => !after || compareBytes(b.name, after) > 0);
      const take = Math.min(o.limit, options.maxPerPage ?? Infinity);
      const page = matching.slice(0, take);
      return { round: o.round ?? 60n, boxes: page, ...(matching.length > page.length ? { last: page[page.length - 1]!.name } : {}) };
    };
  }
  head = async () => HEAD;
  latestRound = async () => 60n;
  account = async () => ({ round: 60n, value: undefined });
  app = async () => ({ round: 60n, value: undefined });
  asset = async () => ({ round: 60n, value: undefined });
  box = async (appId: bigint, name: Uint8Array) => {
    this.boxCalls.push(new TextDecoder().decode(name));
    return { round: 60n, value: this.boxes.find((b) => toHex(b.name) === toHex(name))?.value };
  };
}

const val = (s: string) => utf8(`v-${s}`);
const boxesOf = (names: string[]) => new Map(names.map((n) => [n, val(n)]));

/** Opens a fork over the remote and prefetches the wanted boxes of the app. */
async function settle(remote: BoxRemote, wanted: string[]) {
  const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
  await fork.prefetch(wanted.map((n) => ({ kind: 'box' as const, appId: APP, name: utf8(n) })));
  return { fork, known: (n: string) => fork.has({ kind: 'box', appId: APP, name: utf8(n) }) };
}

/** What a fork holds for a box (its value, or undefined: known absent), read through a ledger over it; fails when the box was not settled. */
function valueOf(fork: ForkState, name: string): Uint8Array | undefined {
  assert.ok(fork.has({ kind: 'box', appId: APP, name: utf8(name) }), `box ${name} was settled`);
  return new Ledger({ fork }).box(APP, utf8(name));
}

describe('fork: several boxes of one app read as pages of its boxes', () => {
  it('the name just before another: no box name (up to 64 bytes) sorts between them', () => {
    assert.equal(boxNameBefore(Uint8Array.of(0)), undefined);
    assert.deepEqual(boxNameBefore(Uint8Array.of(0x61, 0)), Uint8Array.of(0x61));
    const b = boxNameBefore(utf8('b'))!;
    assert.equal(b.length, 64);
    assert.equal(b[0], 0x61);
    assert.ok(b.subarray(1).every((x) => x === 0xff));
    const long = boxNameBefore(new Uint8Array(64).fill(5))!;
    assert.equal(long.length, 64);
    assert.equal(long[63], 4);
    for (const name of [utf8('a'), utf8('box\x00\x00'), Uint8Array.of(1, 0, 0), new Uint8Array(64).fill(0xff), Uint8Array.of(0xff)]) {
      const before = boxNameBefore(name)!;
      assert.ok(compareBytes(before, name) < 0, toHex(name));
      // The names right after it: itself extended (longer than 64 bytes when it is 64 long) or `name`.
      if (before.length < 64) assert.ok(compareBytes(Uint8Array.of(...before, 0), name) >= 0);
    }
    assert.equal(boxPageLimit(10), 26);
    assert.equal(boxPageLimit(100), 200);
    assert.equal(boxPageLimit(900), 1000);
  });

  it('one page settles every wanted name in its range: present ones with their values, absent ones as absent', async () => {
    const remote = new BoxRemote(boxesOf(['b', 'd', 'f', 'h']));
    const { fork, known } = await settle(remote, ['a', 'b', 'c', 'd', 'h', 'z']);
    assert.equal(remote.pageCalls.length, 1);
    assert.deepEqual(remote.boxCalls, [], 'no box read on its own');
    assert.equal(remote.pageCalls[0]!.round, HEAD.round, 'read at the fork round');
    assert.deepEqual(remote.pageCalls[0]!.after, boxNameBefore(utf8('a')), "'a' is the smallest: the page starts just before it");
    for (const n of ['a', 'b', 'c', 'd', 'h', 'z']) assert.ok(known(n), n);
    assert.ok(known('f'), 'a box of the page nobody asked for is kept too');
    assert.deepEqual(valueOf(fork, 'b'), val('b'));
    assert.deepEqual(valueOf(fork, 'h'), val('h'));
    assert.equal(valueOf(fork, 'a'), undefined);
    assert.equal(valueOf(fork, 'c'), undefined);
    assert.equal(valueOf(fork, 'z'), undefined, 'after the last box of a complete page: absent');
    assert.equal(fork.requests.length, 1);
    assert.equal(fork.recordRound({ kind: 'box', appId: APP, name: utf8('c') }), HEAD.round);
  });

  it("the page starts right at the smallest wanted name, not at the app's first box", async () => {
    const remote = new BoxRemote(boxesOf(['a1', 'a2', 'a3', 'k', 'm']));
    const { fork } = await settle(remote, ['k', 'm']);
    assert.equal(remote.pageCalls.length, 1);
    assert.deepEqual(remote.pageCalls[0]!.after, boxNameBefore(utf8('k')));
    assert.deepEqual(valueOf(fork, 'k'), val('k'));
    assert.equal(fork.has({ kind: 'box', appId: APP, name: utf8('a1') }), false, 'boxes before the page are not read');
  });

  it("a page for the name 0x00 starts at the app's first box", async () => {
    const remote = new BoxRemote(boxesOf(['\x00', 'b']));
    const { fork } = await settle(remote, ['\x00', 'a', 'b']);
    assert.equal(remote.pageCalls.length, 1);
    assert.equal(remote.pageCalls[0]!.after, undefined);
    assert.deepEqual(valueOf(fork, '\x00'), val('\x00'));
    assert.equal(valueOf(fork, 'a'), undefined);
  });

  it('names past a full page: a second page from the next wanted name, then one by one', async () => {
    // Wanted names far apart among many unwanted boxes: each page reaches only the wanted name it starts at.
    const unwanted = Array.from({ length: 400 }, (_, i) => `u${String(i).padStart(3, '0')}`);
    const wanted = ['u000x', 'u100x', 'u200x', 'u300x', 'u399x'];
    const present = ['u000x', 'u200x', 'u399x'];
    const remote = new BoxRemote(boxesOf([...unwanted, ...present]));
    const { fork, known } = await settle(remote, wanted);
    assert.equal(remote.pageCalls.length, BOX_PAGES);
    assert.deepEqual(remote.pageCalls[1]!.after, boxNameBefore(utf8('u100x')), 'the second page starts at the next wanted name');
    assert.equal(remote.pageCalls[1]!.round, HEAD.round, 'at the round of the first page');
    assert.deepEqual(remote.boxCalls.sort(), ['u200x', 'u300x', 'u399x'], 'the rest one by one');
    for (const n of wanted) {
      assert.ok(known(n), n);
      assert.deepEqual(valueOf(fork, n), present.includes(n) ? val(n) : undefined, n);
    }
    assert.equal(fork.requests.length, BOX_PAGES + 3);
  });

  it('a page cut short by the remote (its byte cap) covers up to its last box; the next page continues', async () => {
    const remote = new BoxRemote(boxesOf(['a', 'b', 'c', 'd', 'e', 'f']), { maxPerPage: 3 });
    const { fork } = await settle(remote, ['a', 'bb', 'c', 'e', 'ff']);
    assert.equal(remote.pageCalls.length, 2);
    assert.deepEqual(remote.pageCalls[1]!.after, boxNameBefore(utf8('e')), "the first page ended at 'c'");
    assert.deepEqual(remote.boxCalls, []);
    assert.equal(valueOf(fork, 'bb'), undefined, "inside the first page's range, absent");
    assert.deepEqual(valueOf(fork, 'e'), val('e'));
    assert.equal(valueOf(fork, 'ff'), undefined);
  });

  it('a remote without pages (an older node: undefined, or no method at all) gets every box read on its own', async () => {
    for (const remote of [new BoxRemote(boxesOf(['a', 'c'])), new BoxRemote(boxesOf(['a', 'c']), { pages: false })]) {
      if (remote.boxPage) remote.boxPage = async (_id, o) => (remote.pageCalls.push(o), undefined);
      const { fork } = await settle(remote, ['a', 'b', 'c']);
      assert.deepEqual(remote.boxCalls.sort(), ['a', 'b', 'c']);
      assert.deepEqual(valueOf(fork, 'a'), val('a'));
      assert.equal(valueOf(fork, 'b'), undefined);
      assert.equal(fork.requests.length, 3, 'a refused page is not counted as a fetch');
    }
  });

  it('one wanted box of an app is read on its own; boxes already cached are not asked again', async () => {
    const remote = new BoxRemote(boxesOf(['a', 'b']));
    const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
    await fork.prefetch([{ kind: 'box', appId: APP, name: utf8('a') }]);
    assert.deepEqual(remote.boxCalls, ['a']);
    assert.equal(remote.pageCalls.length, 0);
    await fork.prefetch(['a', 'b', 'c'].map((n) => ({ kind: 'box' as const, appId: APP, name: utf8(n) })));
    assert.equal(remote.pageCalls.length, 1);
    assert.deepEqual(remote.pageCalls[0]!.after, boxNameBefore(utf8('b')), "only 'b' and 'c' were left to read");
  });
});
