import assert from 'node:assert/strict';
import {
  fuzz,
  arbitraryValue,
  shrinkValue,
  FuzzRandom,
  FuzzError,
  DebugRun,
  programFromTeal,
  compileContract,
  FuzzChain,
  type FuzzOptions,
  type InvariantContext,
} from '../../../sdk/src/app/index.js';
import { parseAbiType, AbiStructType, type AbiValue } from '../../../sdk/src/abi/index.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { Address, encodeAddress } from '../../../sdk/src/encoding/address.js';
import { plantedSpec, plantedTeal, CLEAR_TEAL } from './fixtures/planted.js';

const same = (a: AbiValue | undefined, b: AbiValue | undefined): boolean =>
  JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) === JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** Each planted bug: the method(s) to fuzz, the property, and what the failure must say. */
const BUGS: { name: string; method: string | string[]; options: FuzzOptions; expect: RegExp }[] = [
  { name: 'overflow (n * 2)', method: 'add_points', options: {}, expect: /\* overflowed/ },
  {
    name: 'missing sender check (anyone names the admin)',
    method: 'set_admin',
    options: { invariant: ({ before, after, sender }: InvariantContext) => before.global.admin === after.global.admin || sender === before.global.admin },
    expect: /invariant returned false/,
  },
  { name: 'box size (a longer note into a 32-byte box)', method: 'save_note', options: {}, expect: /box/i },
  {
    name: 'wrong struct field (id and balance swapped)',
    method: 'echo_user',
    options: {
      invariant: ({ call, outcome }: InvariantContext) => {
        if (outcome.kind !== 'ok') return;
        if (!same(outcome.returnValue, call.args[0]))
          throw new Error(`returned ${JSON.stringify(outcome.returnValue, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
      },
    },
    expect: /returned/,
  },
  { name: 'division by zero', method: 'ratio', options: {}, expect: /\/ 0|divide|division/i },
  { name: 'off by one (index equal to the length)', method: 'pick', options: {}, expect: /extract|range|beyond|out of/i },
  { name: 'underflow (taking more than there is)', method: 'withdraw', options: {}, expect: /- would result negative/ },
  {
    name: 'transfer credits without debiting (supply invariant over a call sequence)',
    method: ['mint', 'transfer'],
    options: {
      calls: 4,
      invariant: ({ after }: InvariantContext) => (after.maps.bal ?? []).reduce((s, e) => s + (e.value as bigint), 0n) === (after.global.supply as bigint),
    },
    expect: /invariant returned false/,
  },
  { name: 'global value too long', method: 'set_name', options: {}, expect: /too long|exceeds|length/i },
];

describe('app/fuzz: property-based tests from ARC-56', function () {
  this.timeout(240_000);
  const buggy = plantedSpec(false);
  const fixed = plantedSpec(true);

  for (const bug of BUGS) {
    it(`finds the planted bug: ${bug.name}; the fixed contract passes the same runs`, () => {
      const r = fuzz(buggy, bug.method, { runs: 200, seed: 42, ...bug.options });
      assert.equal(r.ok, false, `not found: ${r.message}`);
      const cx = r.counterexample!;
      assert.match(cx.failure.message, bug.expect, r.message);
      assert.ok(cx.calls.length <= cx.original.length);
      const good = fuzz(fixed, bug.method, { runs: Math.max(r.runs, 20), seed: 42, ...bug.options });
      assert.ok(good.ok, good.message);
    });
  }

  it('shrinks to a minimal case: the overflow threshold exactly, from account 0', () => {
    const r = fuzz(buggy, 'add_points', { runs: 100, seed: 3 });
    assert.deepEqual(r.counterexample!.calls, [{ method: 'add_points(uint64)void', args: [2n ** 63n], sender: 0 }]);
    const seq = fuzz(buggy, ['mint', 'transfer'], { runs: 200, seed: 42, calls: 4, invariant: BUGS[7]!.options.invariant! });
    // The smallest sequence that breaks the supply: mint 1, then transfer 1.
    assert.deepEqual(
      seq.counterexample!.calls.map((c) => c.method.split('(')[0]),
      ['mint', 'transfer'],
      seq.message,
    );
    assert.deepEqual(seq.counterexample!.calls[0]!.args, [1n]);
    assert.equal(seq.counterexample!.calls[1]!.args[1], 1n);
  });

  it('its shrunk seed replays deterministically, and the failing call opens in the debugger', () => {
    const first = fuzz(buggy, 'pick', { runs: 200, seed: 9 });
    const cx = first.counterexample!;
    const again = fuzz(buggy, 'pick', { replay: cx.seed });
    const third = fuzz(buggy, 'pick', { replay: cx.seed });
    assert.deepEqual(again.counterexample!.calls, cx.calls);
    assert.deepEqual(again.counterexample!.original, cx.original);
    assert.equal(again.counterexample!.debugTrace, cx.debugTrace, 'the same trace, byte for byte');
    assert.equal(third.counterexample!.debugTrace, cx.debugTrace);
    assert.match(first.message, new RegExp(`replay: '${cx.seed}'`));
    const run = DebugRun.fromSimulateResponse(parseJson(cx.debugTrace), {
      programs: [programFromTeal(plantedTeal(false), 'planted.teal'), programFromTeal(CLEAR_TEAL, 'clear.teal')],
    });
    assert.ok(run.failure, 'the debugger stops at the failure');
    const snap = run.snapshot(run.failure!.position);
    assert.equal(snap.op?.op.name, 'extract_uint64');
    assert.equal(run.location(snap.frame, snap.pc)?.file, 'planted.teal');
    assert.throws(() => fuzz(buggy, 'pick', { replay: 'nonsense' }), FuzzError);
  });

  it('a rewound chain is byte for byte the chain a fork starts with, run after run', () => {
    const spec = plantedSpec(true);
    const chain = new FuzzChain(spec, compileContract({ spec }), { senders: 2 });
    const fresh = () => {
      const f = chain.fork();
      return { hash: f.ledger.stateHash().join(','), round: f.ledger.latestRound, block: f.ledger.latestBlock.hash.join(',') };
    };
    const start = fresh();
    const outcomes: string[] = [];
    for (let run = 0; run < 3; run++) {
      const c = chain.rewind();
      assert.deepEqual({ hash: c.ledger.stateHash().join(','), round: c.ledger.latestRound, block: c.ledger.latestBlock.hash.join(',') }, start, `run ${run}`);
      const outcome = c.call(spec.getMethod('add_points'), [5n], run % 2);
      assert.equal(outcome.kind, 'ok', outcome.message);
      outcomes.push(c.ledger.latestBlock.hash.join(','));
    }
    // The same call from the same sender on the same start makes the same block.
    assert.equal(outcomes[0], outcomes[2]);
    assert.deepEqual(fresh(), start);
  });

  it('generates every ARC-4 type (structs, arrays, tuples, references) as values that encode and decode', () => {
    const rng = new FuzzRandom(1);
    const zero = encodeAddress(new Uint8Array(32));
    const ctx = { accounts: [zero], appId: 1001n, appAddress: Address.forApp(1001n).toString(), assets: [] };
    const types = [
      'uint8',
      'uint16',
      'uint64',
      'uint256',
      'uint512',
      'ufixed64x2',
      'bool',
      'byte',
      'address',
      'string',
      'byte[]',
      'byte[4]',
      'uint64[3]',
      'bool[5]',
      'bool[]',
      'string[]',
      '(uint64,string,bool[2])',
      '((uint8,address),byte[])[2]',
    ].map(parseAbiType);
    types.push(
      new AbiStructType('Outer', [
        { name: 'a', type: parseAbiType('uint64') },
        {
          name: 'inner',
          type: new AbiStructType('Inner', [
            { name: 's', type: parseAbiType('string') },
            { name: 'ok', type: parseAbiType('bool') },
          ]),
        },
      ]),
    );
    for (const t of types) {
      const seen = new Set<string>();
      for (let i = 0; i < 50; i++) {
        const v = arbitraryValue(t, rng, ctx);
        const bytes = t.encode(v);
        assert.deepEqual(t.encode(t.decode(bytes)), bytes, `${t} round trip`);
        seen.add(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x instanceof Uint8Array ? [...x] : x)));
        for (const s of shrinkValue(t, v, ctx)) t.encode(s);
      }
      assert.ok(seen.size > (t.toString() === 'bool' ? 1 : 5), `${t}: varied values (${seen.size})`);
    }
  });

  it('says clearly what it cannot fuzz', () => {
    assert.throws(() => fuzz(buggy, 'nope'), /Planted has no method "nope"/);
    const withTxnArg = plantedSpec(false);
    assert.throws(() => fuzz(withTxnArg, [] as string[]), FuzzError);
  });
});
