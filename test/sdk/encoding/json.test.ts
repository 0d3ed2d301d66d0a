import assert from 'node:assert/strict';
import { JsonParseError, jsonRoundTrip, parseJson, stringifyJson } from '../../../sdk/src/encoding/json.js';

describe('encoding: bigint-safe JSON', () => {
  it('keeps integers beyond 2^53 as bigint and safe ones as numbers', () => {
    const v = parseJson<{ a: unknown; b: unknown; c: unknown; d: unknown }>('{"a":18446744073709551615,"b":9007199254740991,"c":-9007199254740993,"d":1.5}');
    assert.equal(v.a, 18446744073709551615n);
    assert.equal(v.b, 9007199254740991);
    assert.equal(v.c, -9007199254740993n);
    assert.equal(v.d, 1.5);
  });

  it('round-trips uint64 extremes exactly', () => {
    const value = { amount: 18446744073709551615n, round: 1n << 60n, list: [1, 2n ** 63n, 'x'], nested: { z: -(2n ** 62n) } };
    const text = stringifyJson(value);
    assert.equal(text, '{"amount":18446744073709551615,"round":1152921504606846976,"list":[1,9223372036854775808,"x"],"nested":{"z":-4611686018427387904}}');
    assert.deepEqual(parseJson(text), value);
  });

  it('bigint: "always" and bigintKeys convert integers (also inside arrays under the key)', () => {
    assert.deepEqual(parseJson('{"a":1,"b":[2,3.5]}', { bigint: 'always' }), { a: 1n, b: [2n, 3.5] });
    const short = parseJson('{"amount":5,"ids":[1,[2]],"other":7,"f":{"amount":2.5}}', { bigintKeys: ['amount', 'ids'] });
    assert.deepEqual(short, { amount: 5n, ids: [1n, [2n]], other: 7, f: { amount: 2.5 } });
    // The exact parser (taken when a 16-digit run is present) reaches the same values.
    const long = parseJson('{"amount":5,"ids":[1,[2]],"other":7,"f":{"amount":2.5},"big":12345678901234567890}', { bigintKeys: ['amount', 'ids'] });
    assert.deepEqual(long, { amount: 5n, ids: [1n, [2n]], other: 7, f: { amount: 2.5 }, big: 12345678901234567890n });
    assert.equal(parseJson('12345678901234567890', { bigint: 'never' }), 12345678901234567000);
  });

  it('agrees with JSON.parse on ordinary documents (both parse paths)', () => {
    const docs = [
      '{"s":"a\\"b\\\\c\\n\\u00e9\\ud83d\\ude00","t":true,"f":false,"n":null,"e":[],"o":{},"x":-0.5e-3,"y":1E+2}',
      '[1,2,3,{"k":[[],[{}]]}]',
      '  "just a string"  ',
      '0',
    ];
    for (const doc of docs) {
      assert.deepEqual(parseJson(doc), JSON.parse(doc));
      // Appending a 16-digit string forces the exact parser without changing the value.
      const forced = `{"pad":"1234567890123456","v":${doc}}`;
      assert.deepEqual(parseJson(forced), JSON.parse(forced));
    }
  });

  it('exact parser agrees with JSON.parse on 300 random documents', () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.5) {
        return pick<() => unknown>([
          () => Math.floor(rand() * 1e6) * (rand() < 0.3 ? -1 : 1),
          () => (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20),
          () => 0,
          () => -0,
          () => Number.MAX_SAFE_INTEGER,
          () => pick(['', 'plain', 'quote"back\\slash', 'tab\tnl\n', 'é😀', '\u0001']),
          () => rand() < 0.5,
          () => null,
        ])();
      }
      if (r < 0.75) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, (_, i) => [`k${i}${pick(['', '-x', ' y'])}`, value(depth + 1)]));
    };
    for (let i = 0; i < 300; i++) {
      const text = JSON.stringify({ pad: '1234567890123456', v: value(0) }, null, i % 2 ? 1 : undefined);
      assert.deepEqual(parseJson(text), JSON.parse(text), text);
    }
  });

  it('reports malformed input with its position, line and column', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['{"a":1,}', 7, /expected a string key/],
      ['[1 2]', 3, /expected ',' or '\]'/],
      ['{"a" 1}', 5, /expected ':'/],
      ['{"a":tru}', 5, /unexpected character "t"/],
      ['[01]', 2, /expected ',' or '\]'/],
      ['"abc', 0, /unterminated string/],
      ['{"a":1}x', 7, /unexpected data after the value/],
      ['', 0, /unexpected end of input/],
      ['{"big":123456789012345678901,}', 29, /expected a string key/],
      ['{\n  "a": -}', 10, /expected a digit/],
      ['"a\tb"', 2, /control character/],
      ['"\\x"', 0, /invalid escape/],
    ];
    for (const [text, position, message] of cases) {
      assert.throws(
        () => parseJson(text),
        (e: unknown) => e instanceof JsonParseError && e.position === position && message.test(e.message),
        `${JSON.stringify(text)}`,
      );
    }
    try {
      parseJson('{\n  "a": -}');
    } catch (e) {
      assert.ok(e instanceof JsonParseError);
      assert.equal(e.line, 2);
      assert.equal(e.column, 9);
    }
  });

  it('stringifies like JSON.stringify for plain values, with indentation', () => {
    const value = { a: [1, 'two', null, undefined, { b: true }], c: undefined, d: { toJSON: () => 'D' }, e: Number.NaN, date: new Date(0) };
    assert.equal(stringifyJson(value), JSON.stringify(value));
    assert.equal(stringifyJson(value, { indent: 2 }), JSON.stringify(value, null, 2));
    assert.equal(stringifyJson({ x: 1n, y: [] }, { indent: 2 }), '{\n  "x": 1,\n  "y": []\n}');
  });

  it('writes bytes as base64 (or arrays) and can sort keys', () => {
    assert.equal(stringifyJson({ b: new Uint8Array([1, 2, 3]), a: 1 }, { sortKeys: true }), '{"a":1,"b":"AQID"}');
    assert.equal(stringifyJson(new Uint8Array([1, 2]), { bytes: 'array' }), '[1,2]');
  });

  it('refuses circular structures with a typed error', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    assert.throws(() => stringifyJson(a), /circular/);
  });
  it('jsonRoundTrip gives what writing and reading the text gives', () => {
    class WithToJson {
      toJSON(key: string) {
        return { key, n: 5n };
      }
    }
    const values: unknown[] = [
      { b: 1, a: [1n, 2n ** 60n, -(2n ** 53n), 2 ** 60, 1.5, 1e21, -0, Number.NaN, Infinity, undefined, null], c: undefined, d: new Uint8Array([1, 2, 250]) },
      {
        'txn-groups': [{ 'txn-results': [{ 'txn-result': { logs: [new Uint8Array([0, 1])], 'app-budget-consumed': 12n } }], 'failure-message': 'x\u2028y' }],
        version: 2n,
      },
      new Map<string, unknown>([
        ['z', 1n],
        ['y', [true, false, 'text', new WithToJson()]],
      ]),
      [undefined, () => 1, Symbol('s'), 9007199254740993n, 12345678901234567890n, '1234567890123456789'],
      { __proto__: null, 10: 'ten', 2: 'two', b: { nested: [[], {}] } },
      'plain',
      7n,
    ];
    for (const v of values) {
      for (const options of [{}, { sortKeys: true }, { bytes: 'array' as const }, { sortKeys: true, bytes: 'array' as const }]) {
        const expected = parseJson(stringifyJson(v, { ...options, indent: 2 }));
        const actual = jsonRoundTrip(v, options);
        assert.deepEqual(actual, expected);
        assert.deepEqual(JSON.stringify(Object.keys(actual ?? {})), JSON.stringify(Object.keys(expected ?? {})), 'same key order');
      }
    }
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.throws(() => jsonRoundTrip(circular), /circular/);
    assert.throws(() => jsonRoundTrip(undefined), /cannot represent/);
  });

  it('jsonRoundTrip: deep values, shared members, array keys given to toJSON, and cycles found however deep they start', () => {
    // 100 levels: deeper than the part left unchecked for cycles.
    let deep: unknown = { leaf: 1n };
    for (let i = 0; i < 100; i++) deep = i % 2 ? { [`k${i}`]: deep, i } : [deep, i];
    const shared = { s: new Uint8Array([9]) };
    const keys: string[] = [];
    const spy = { toJSON: (key: string) => (keys.push(key), { k: key }) };
    for (const v of [deep, { a: shared, b: [shared, shared] }, [[0, spy], spy]]) {
      assert.deepEqual(jsonRoundTrip(v, { sortKeys: true }), parseJson(stringifyJson(v, { sortKeys: true })));
    }
    assert.deepEqual(keys.slice(0, 2), ['1', '1'], 'an array member is given its index as text');
    for (const depth of [0, 5, 31, 32, 33, 80]) {
      const loop: Record<string, unknown> = {};
      let top: unknown = loop;
      for (let i = 0; i < depth; i++) top = { down: top };
      loop.again = { back: top };
      assert.throws(() => jsonRoundTrip(top), /circular/, `cycle starting at depth ${depth}`);
    }
  });
});
