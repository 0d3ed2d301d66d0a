import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromBase64Lenient } from '../../../sdk/src/encoding/base64.js';
import { fromHex, toHex } from '../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { DecodeError, ValidationError } from '../../../sdk/src/errors.js';
import { decodeMsgpack, decodeMsgpackSequence, encodeMsgpack, encodeMsgpackWithPrefix, toUint64 } from '../../../sdk/src/encoding/msgpack.js';
import { needShared } from '../../helpers/shared.js';

const hex = (v: Parameters<typeof encodeMsgpack>[0]) => toHex(encodeMsgpack(v));

describe('encoding: canonical msgpack', () => {
  it('writes unsigned integers in their smallest form, for numbers and bigints alike', () => {
    const cases: [number | bigint, string][] = [
      [0, '00'],
      [127, '7f'],
      [128, 'cc80'],
      [255, 'ccff'],
      [256, 'cd0100'],
      [65535, 'cdffff'],
      [65536, 'ce00010000'],
      [0xffffffff, 'ceffffffff'],
      [0x100000000, 'cf0000000100000000'],
      [Number.MAX_SAFE_INTEGER, 'cf001fffffffffffff'],
    ];
    for (const [v, want] of cases) {
      assert.equal(hex(v), want, `number ${v}`);
      assert.equal(hex(BigInt(v)), want, `bigint ${v}`);
    }
    assert.equal(hex((1n << 64n) - 1n), 'cfffffffffffffffff');
    assert.equal(hex(1n << 62n), 'cf4000000000000000', 'never the signed int64 form for non-negative values');
  });

  it('writes negative integers in signed forms and rejects what does not fit', () => {
    assert.equal(hex(-1), 'ff');
    assert.equal(hex(-33), 'd0df');
    assert.equal(hex(-129), 'd1ff7f');
    assert.equal(hex(-(2n ** 40n)), 'd3ffffff0000000000');
    assert.throws(() => encodeMsgpack(1n << 64n), ValidationError);
    assert.throws(() => encodeMsgpack(1.5), /no floats/);
    assert.throws(() => encodeMsgpack(2 ** 60), /bigint/);
  });

  it('writes strings as str and bytes as bin, with every length class', () => {
    assert.equal(hex('pay'), 'a3706179');
    assert.equal(hex('é'), 'a2c3a9');
    assert.equal(hex('a'.repeat(32)).slice(0, 4), 'd920');
    assert.equal(hex('a'.repeat(256)).slice(0, 6), 'da0100');
    assert.equal(hex(new Uint8Array([1, 2])), 'c4020102');
    assert.equal(hex(new Uint8Array(256)).slice(0, 6), 'c50100');
    assert.equal(hex(new Uint8Array(65536)).slice(0, 10), 'c600010000');
    assert.equal(hex(true), 'c3');
  });

  it('sorts map keys bytewise (UTF-8 order, not UTF-16 order) and works for Maps and objects', () => {
    assert.equal(hex({ b: 1, a: 2, aa: 3 }), '83a16102a2616103a16201');
    assert.equal(
      hex(
        new Map<string, number>([
          ['b', 1],
          ['a', 2],
        ]),
      ),
      '82a16102a16201',
    );
    // U+FF61 (ef bd a1) sorts before U+1F600 (f0 9f 98 80) in UTF-8, the opposite of UTF-16 order.
    const keys = Object.keys(decodeMsgpack(encodeMsgpack({ '\u{1F600}': 1, '\uFF61': 2 })) as object);
    assert.deepEqual(keys, ['\uFF61', '\u{1F600}']);
    assert.equal(
      hex(
        new Map<number, number>([
          [10, 1],
          [2, 2],
        ]),
      ),
      '8202020a01',
      'integer keys sort numerically',
    );
  });

  it('omits zero values in maps recursively, never inside arrays', () => {
    assert.equal(hex({ a: 0, b: 0n, c: '', d: false, e: new Uint8Array(0), f: [], g: undefined, h: null, i: 1 }), '81a16901');
    assert.equal(hex({ apar: { t: 0, m: new Uint8Array(0) }, x: 1 }), '81a17801', 'an all-zero nested map disappears');
    assert.equal(hex({ a: { b: { c: 0 } } }), '80');
    assert.equal(hex([0, {}, false]), '930080c2', 'array elements stay, even empty ones');
    assert.equal(hex({ al: [{}] }), '81a2616c9180', 'an empty access entry is kept as an empty map');
  });

  it('uses map16 for maps of 16+ entries and array16 for long arrays', () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 20; i++) big[`k${String(i).padStart(2, '0')}`] = i + 1;
    assert.equal(hex(big).slice(0, 6), 'de0014');
    assert.deepEqual(decodeMsgpack(encodeMsgpack(big)), big);
    assert.equal(hex(new Array(16).fill(1)).slice(0, 6), 'dc0010');
  });

  it('prefixes in one buffer for domain-separated hashing', () => {
    assert.equal(toHex(encodeMsgpackWithPrefix(utf8('TX'), { a: 1 })), '545881a16101');
  });

  it('matches algosdk canonical encoding on nested structures', () => {
    const value = new Map<string, unknown>([
      ['txlist', [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)]],
      ['z', 1n << 40n],
      [
        'm',
        new Map<string, unknown>([
          ['y', 'str'],
          ['x', 300],
        ]),
      ],
    ]);
    assert.equal(toHex(encodeMsgpack(value as never)), toHex(algosdk.msgpackRawEncode(value)));
  });

  it('small inputs share a private slab: bins of different decodes never overlap, and no input shows through', () => {
    // Many small decodes in a row (they share slabs), across several slabs, both decoders, and a
    // large input (copied alone) in between.
    const decoded: { bin: Uint8Array; input: Uint8Array; want: number[] }[] = [];
    for (let i = 0; i < 3000; i++) {
      const n = 1 + ((i * 37) % 300);
      const want = Array.from({ length: n }, (_, j) => (i + j) & 0xff);
      const input = encodeMsgpack({ b: new Uint8Array(want), i } as never);
      const v = decodeMsgpack(input, i % 2 ? { maps: true } : {}) as Map<string, unknown> | { b: Uint8Array };
      const bin = (v instanceof Map ? v.get('b') : v.b) as Uint8Array;
      decoded.push({ bin, input, want });
      if (i === 1500) decodeMsgpack(encodeMsgpack({ big: new Uint8Array(64 * 1024).fill(1) } as never));
    }
    for (const d of decoded) d.input.fill(0xee);
    const spans = new Map<ArrayBufferLike, [number, number][]>();
    for (const { bin, input, want } of decoded) {
      assert.deepEqual([...bin], want);
      assert.notEqual(bin.buffer, input.buffer);
      if (bin.length === 0) continue;
      const list = spans.get(bin.buffer) ?? [];
      list.push([bin.byteOffset, bin.byteOffset + bin.length]);
      spans.set(bin.buffer, list);
    }
    for (const list of spans.values()) {
      list.sort((a, b) => a[0] - b[0]);
      for (let k = 1; k < list.length; k++) assert.ok(list[k]![0] >= list[k - 1]![1], 'two decoded bins overlap');
    }
  });

  it('decodes any valid encoding: ints as number or bigint, bins as plain Uint8Array copies', () => {
    const bytes = fromHex('83a161cf0000000100000000a162d0ffa163c403010203');
    const v = decodeMsgpack(bytes) as { a: bigint; b: number; c: Uint8Array };
    assert.equal(v.a, 1n << 32n);
    assert.equal(v.b, -1);
    assert.equal(v.c.constructor, Uint8Array);
    bytes[bytes.length - 1] = 9;
    assert.deepEqual([...v.c], [1, 2, 3], 'decoded bytes do not alias the input');
    // A Node Buffer input is copied too, and yields plain Uint8Arrays.
    const fromBuffer = decodeMsgpack(Buffer.from(bytes)) as { c: Uint8Array };
    assert.equal(fromBuffer.c.constructor, Uint8Array);
    const views = decodeMsgpack(bytes, { copy: false }) as { c: Uint8Array };
    bytes[bytes.length - 1] = 7;
    assert.equal(views.c[2], 7, 'copy: false returns views into the input');
    // Non-canonical but valid forms are accepted (uint8 for a fixint value).
    assert.equal(decodeMsgpack(fromHex('cc05')), 5);
    assert.equal(toUint64(5, 'x'), 5n);
    assert.equal(toUint64(1n << 63n, 'x'), 1n << 63n);
    assert.throws(
      () => toUint64(-1, 'fee'),
      (e: unknown) => e instanceof DecodeError && /fee/.test((e as Error).message),
    );
  });

  it('decodes maps with integer keys as Map when asked', () => {
    const m = decodeMsgpack(
      encodeMsgpack(
        new Map([
          [1, 'a'],
          [7, 'b'],
        ]),
      ),
      { maps: true },
    ) as Map<number, string>;
    assert.deepEqual(
      [...m.entries()],
      [
        [1, 'a'],
        [7, 'b'],
      ],
    );
  });

  it('decodes concatenated values and reports broken input as DecodeError', () => {
    const seq = new Uint8Array([...encodeMsgpack({ a: 1 }), ...encodeMsgpack({ b: 2 })]);
    assert.deepEqual(decodeMsgpackSequence(seq), [{ a: 1 }, { b: 2 }]);
    assert.throws(() => decodeMsgpack(fromHex('82a161')), DecodeError);
    assert.throws(() => decodeMsgpack(new Uint8Array(0)), /empty/);
  });

  it('round-trips seeded random structures and agrees with algosdk byte for byte', () => {
    let s = 12345;
    const rnd = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s % n;
    };
    const gen = (depth: number): unknown => {
      switch (rnd(depth > 2 ? 5 : 7)) {
        case 0:
          return rnd(2) ? rnd(1000000) + 1 : BigInt(rnd(1000000)) * 4294967296n + 1n;
        case 1:
          return 'k' + 'x'.repeat(rnd(40));
        case 2:
          return new Uint8Array(rnd(300) + 1).fill(rnd(256));
        case 3:
          return true;
        case 4:
          return rnd(100) + 1;
        case 5:
          return Array.from({ length: 1 + rnd(5) }, () => gen(depth + 1));
        default: {
          const m = new Map<string, unknown>();
          // Non-empty, zero-free values only: algosdk's raw encoder does not omit empties.
          for (let i = 1 + rnd(6); i > 0; i--) m.set('f' + rnd(30), gen(depth + 1));
          return m;
        }
      }
    };
    for (let i = 0; i < 300; i++) {
      const v = new Map([['root', gen(0)]]);
      const ours = encodeMsgpack(v as never);
      assert.equal(toHex(ours), toHex(algosdk.msgpackRawEncode(v)), `case ${i}`);
      assert.equal(toHex(encodeMsgpack(decodeMsgpack(ours, { maps: true }) as never)), toHex(ours));
    }
  });

  it('re-encodes recorded node responses byte for byte (they are canonical protocol structs)', function () {
    const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/data/fixtures/algorand-sdk-testing/features/resources');
    const files = [
      'generated_responses_231/algod_PendingTransactionResponse_0.base64',
      'generated_responses/algod_applications_PendingTransactionResponse_1.base64',
      'stateproof/v2_algod_GetBlock_transaction.base64',
    ];
    needShared(this, dir);
    for (const f of files) {
      const raw = fromBase64Lenient(readFileSync(resolve(dir, f), 'utf8').replace(/\s+/g, ''));
      const decoded = decodeMsgpack(raw, { maps: true });
      assert.equal(toHex(encodeMsgpack(decoded as never)), toHex(raw), f);
    }
  });

  it('encodes maps keyed by byte strings (txid-keyed deltas) in bytewise key order', () => {
    const m = new Map<Uint8Array, number>([
      [new Uint8Array([2]), 1],
      [new Uint8Array([1, 5]), 2],
    ]);
    // [1,5] sorts before [2]: 82 | c4 02 01 05 → 02 | c4 01 02 → 01
    assert.equal(hex(m as never), '82c402010502c4010201');
  });
});
