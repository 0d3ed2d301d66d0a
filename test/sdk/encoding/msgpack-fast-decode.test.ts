import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Unpackr } from 'msgpackr';
import { fromBase64Lenient } from '../../../sdk/src/encoding/base64.js';
import { decodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { FALLBACK, fastDecodeMaps } from '../../../sdk/src/encoding/msgpack-fast-decode.js';
import { DecodeError } from '../../../sdk/src/errors.js';
import { needShared, sharedPath } from '../../helpers/shared.js';

/** The decoder the fast path stands in for, configured as decodeMsgpack's Map mode. */
const reference = new Unpackr({ useRecords: false, mapsAsObjects: false, int64AsType: 'bigint' });

function referenceDecode(bytes: Uint8Array): { value?: unknown; error?: string } {
  try {
    return { value: reference.unpack(new Uint8Array(bytes)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A small deterministic generator, so failures reproduce. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** Writes msgpack by hand, in every width (including non-minimal ones msgpackr accepts). */
function writer() {
  const out: number[] = [];
  const u = (v: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) out.push(Math.floor(v / 2 ** (8 * i)) & 0xff);
  };
  return { out, u };
}

function randomMsgpack(rand: (n: number) => number, depth = 0): number[] {
  const { out, u } = writer();
  const kind = rand(depth > 3 ? 14 : 18);
  const len = (max: number) => rand(max);
  const strBytes = (n: number) => {
    for (let i = 0; i < n; i++) {
      const r = rand(10);
      out.push(r < 6 ? 0x61 + rand(26) : r < 8 ? 0x20 + rand(95) : rand(256));
    }
  };
  switch (kind) {
    case 0:
      out.push(rand(128));
      break;
    case 1:
      out.push(0xe0 + rand(32));
      break;
    case 2:
      out.push([0xc0, 0xc2, 0xc3][rand(3)]!);
      break;
    case 3: {
      const t = [0xcc, 0xcd, 0xce, 0xcf][rand(4)]!;
      out.push(t);
      const w = { 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8 }[t]!;
      for (let i = 0; i < w; i++) out.push(rand(256));
      break;
    }
    case 4: {
      const t = [0xd0, 0xd1, 0xd2, 0xd3][rand(4)]!;
      out.push(t);
      const w = { 0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8 }[t]!;
      for (let i = 0; i < w; i++) out.push(rand(256));
      break;
    }
    case 5:
      out.push(0xca);
      for (let i = 0; i < 4; i++) out.push(rand(256));
      break;
    case 6:
      out.push(0xcb);
      for (let i = 0; i < 8; i++) out.push(rand(256));
      break;
    case 7: {
      const n = len(32);
      out.push(0xa0 | n);
      strBytes(n);
      break;
    }
    case 8: {
      const n = len(300);
      const t = [0xd9, 0xda, 0xdb][rand(3)]!;
      if (t === 0xd9 && n > 255) {
        out.push(0xda);
        u(n, 2);
      } else {
        out.push(t);
        u(n, { 0xd9: 1, 0xda: 2, 0xdb: 4 }[t]!);
      }
      // Sometimes a UTF-8 text, a BOM, or raw bytes (Go strings holding arbitrary bytes).
      if (n >= 3 && rand(4) === 0) {
        out.push(0xef, 0xbb, 0xbf);
        strBytes(n - 3);
      } else strBytes(n);
      break;
    }
    case 9: {
      const n = len(70);
      const t = [0xc4, 0xc5, 0xc6][rand(3)]!;
      out.push(t);
      u(n, { 0xc4: 1, 0xc5: 2, 0xc6: 4 }[t]!);
      for (let i = 0; i < n; i++) out.push(rand(256));
      break;
    }
    case 10:
    case 11:
    case 12:
    case 13: {
      // Short ASCII strings from a small set (map keys repeat in real responses).
      const word = ['amt', 'snd', 'rcv', 'txn', 'sig', 'gh', 'fv', 'lv', 'type', 'appl', 'x'.repeat(24), 'y'.repeat(25)][rand(12)]!;
      out.push(0xa0 | word.length);
      for (const c of word) out.push(c.charCodeAt(0));
      break;
    }
    case 14:
    case 15: {
      const n = len(6);
      const t = rand(3);
      if (t === 0) out.push(0x90 | n);
      else if (t === 1) {
        out.push(0xdc);
        u(n, 2);
      } else {
        out.push(0xdd);
        u(n, 4);
      }
      for (let i = 0; i < n; i++) out.push(...randomMsgpack(rand, depth + 1));
      break;
    }
    default: {
      const n = len(6);
      const t = rand(3);
      if (t === 0) out.push(0x80 | n);
      else if (t === 1) {
        out.push(0xde);
        u(n, 2);
      } else {
        out.push(0xdf);
        u(n, 4);
      }
      for (let i = 0; i < 2 * n; i++) out.push(...randomMsgpack(rand, depth + 1));
      break;
    }
  }
  return out;
}

/**
 * A digest of a decoded tree's exact structure: Map entries in order, the kind of every value
 * (number vs bigint, plain Uint8Array vs other views), lengths and bytes.
 */
function structuralDigest(value: unknown): string {
  const h = createHash('sha256');
  const walk = (v: unknown): void => {
    if (v instanceof Map) {
      h.update(`M${v.size}(`);
      for (const [k, x] of v) {
        walk(k);
        walk(x);
      }
      h.update(')');
    } else if (Array.isArray(v)) {
      h.update(`A${v.length}(`);
      v.forEach(walk);
      h.update(')');
    } else if (v instanceof Uint8Array) {
      h.update(`B${v.constructor.name}${v.length}:`);
      h.update(v);
    } else if (typeof v === 'string') h.update(`S${v.length}:${v}`);
    else if (typeof v === 'bigint') h.update(`I${v};`);
    else if (typeof v === 'number') h.update(`N${Object.is(v, -0) ? '-0' : String(v)};`);
    else h.update(`V${String(v)};`);
  };
  walk(value);
  return h.digest('hex');
}

/**
 * The digests of the recorded responses as decoded before the decoder was tuned for issue 31
 * (main at 6ac0a20): any change to what these decode to shows here, whatever msgpackr does.
 */
const RECORDED_DIGESTS: Record<string, string> = {
  'generated_responses/groupdelta-betanet_23963123.base64': '6ef8c1222424249886835ed6c86670afb3a7f3ce83e9015cd0f9b62aa9175a74',
  'generated_responses/statedelta_betanet_23963123.base64': '68955de321a2422fceec2c796f834c12e0b363c8434efb309af108226a52b06f',
  'stateproof/v2_algod_GetBlock_transaction.base64': '8a6321a048cbf6200fb8f9b909890f038f6051ef8b363cef72f46d7797d3e69e',
  'generated_responses_231/algod_PendingTransactionResponse_0.base64': '1ee0303df2e96bf63497d84c5648b9aec053f6fb02862f4b8db1dfc27ca55a98',
};

describe('encoding: msgpack Map-mode fast path', () => {
  it('decodes random msgpack (every type and width) exactly as msgpackr does', () => {
    const rand = rng(31);
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = Uint8Array.from(randomMsgpack(rand));
      const want = referenceDecode(bytes);
      assert.equal(want.error, undefined, `case ${i}: generated msgpack should be valid`);
      const got = fastDecodeMaps(new Uint8Array(bytes));
      assert.notEqual(got, FALLBACK, `case ${i}: valid input without extensions is decoded on the fast path`);
      fast++;
      assert.ok(isDeepStrictEqual(got, want.value), `case ${i}: ${Buffer.from(bytes).toString('hex').slice(0, 200)}`);
      // Through the public function too, with and without the input copy.
      assert.ok(isDeepStrictEqual(decodeMsgpack(bytes, { maps: true }), want.value));
      assert.ok(isDeepStrictEqual(decodeMsgpack(bytes, { maps: true, copy: false }), want.value));
    }
    assert.equal(fast, 3000);
  });

  it('truncated, extended, corrupted or trailing input gives msgpackr’s value or error', () => {
    const rand = rng(7);
    let declined = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = Uint8Array.from(randomMsgpack(rand));
      let mutated: Uint8Array;
      const how = rand(4);
      if (how === 0) mutated = bytes.subarray(0, rand(bytes.length));
      else if (how === 1) mutated = Uint8Array.from([...bytes, rand(256)]);
      else {
        mutated = bytes.slice();
        for (let k = 0; k < 1 + rand(3); k++) mutated[rand(mutated.length)] = how === 2 ? rand(256) : [0xc1, 0xc7, 0xd4, 0xd6, 0xd8, 0xdf, 0xdb][rand(7)]!;
      }
      if (mutated.length === 0) continue;
      const want = referenceDecode(mutated);
      const fast = fastDecodeMaps(new Uint8Array(mutated));
      if (fast === FALLBACK) declined++;
      else assert.ok(want.error === undefined && isDeepStrictEqual(fast, want.value), `case ${i}: fast path answered where msgpackr says ${want.error}`);
      let got: { value?: unknown; error?: string };
      try {
        got = { value: decodeMsgpack(mutated, { maps: true }) };
      } catch (e) {
        assert.ok(e instanceof DecodeError);
        got = { error: e.message };
      }
      if (want.error !== undefined) assert.equal(got.error, `invalid msgpack: ${want.error}`, `case ${i}`);
      else assert.ok(isDeepStrictEqual(got.value, want.value), `case ${i}`);
    }
    assert.ok(declined > 100, 'the mutations exercise the fallback');
  });

  it('non-UTF-8 str bytes (TEAL keys in state deltas) decode as msgpackr decodes them', () => {
    const rand = rng(99);
    for (let i = 0; i < 2000; i++) {
      const n = i < 300 ? i : rand(400);
      const body = Uint8Array.from({ length: n }, () => (rand(3) === 0 ? 0x80 + rand(128) : rand(256)));
      if (i % 5 === 0 && n >= 3) body.set([0xef, 0xbb, 0xbf]);
      const head = n < 32 ? [0xa0 | n] : n < 256 ? [0xd9, n] : [0xda, n >> 8, n & 0xff];
      // A map keyed by the string, in a small and a large message (msgpackr reads those differently).
      for (const pad of [0, 300]) {
        const bytes = Uint8Array.from([0x82, ...head, ...body, 0x01, 0xa1, 0x70, 0xc5, pad >> 8, pad & 0xff, ...new Array<number>(pad).fill(0)]);
        const want = referenceDecode(bytes);
        const got = fastDecodeMaps(new Uint8Array(bytes));
        assert.notEqual(got, FALLBACK);
        assert.ok(isDeepStrictEqual(got, want.value), `length ${n} pad ${pad}`);
      }
    }
  });

  it('bins are views into the decoded source, plain Uint8Arrays; copy:false views the caller’s bytes', () => {
    const bytes = Uint8Array.from([0x92, 0xc4, 0x03, 1, 2, 3, 0xc4, 0x00]);
    const shared = decodeMsgpack(bytes, { maps: true, copy: false }) as Uint8Array[];
    assert.equal(shared[0]!.constructor, Uint8Array);
    assert.equal(shared[0]!.buffer, bytes.buffer);
    assert.equal(shared[0]!.byteOffset, 3);
    const copied = decodeMsgpack(bytes, { maps: true }) as Uint8Array[];
    assert.notEqual(copied[0]!.buffer, bytes.buffer);
    bytes[3] = 9;
    assert.deepEqual([...copied[0]!], [1, 2, 3]);
    assert.deepEqual([...shared[0]!], [9, 2, 3]);
    // A Node Buffer input: bins still come out as plain Uint8Arrays.
    const fromBuffer = decodeMsgpack(Buffer.from([0xc4, 0x01, 7]), { maps: true, copy: false }) as Uint8Array;
    assert.equal(fromBuffer.constructor, Uint8Array);
    assert.deepEqual([...fromBuffer], [7]);
  });

  it('decodes the recorded node responses exactly as msgpackr does, on the fast path', function () {
    const dir = sharedPath('fixtures/algorand-sdk-testing/features/resources');
    needShared(this, dir);
    const files = [
      'generated_responses/groupdelta-betanet_23963123.base64',
      'generated_responses/statedelta_betanet_23963123.base64',
      'stateproof/v2_algod_GetBlock_transaction.base64',
      'generated_responses_231/algod_PendingTransactionResponse_0.base64',
    ];
    for (const f of files) {
      const raw = fromBase64Lenient(readFileSync(`${dir}/${f}`, 'utf8').replace(/\s+/g, ''));
      const got = fastDecodeMaps(new Uint8Array(raw));
      assert.notEqual(got, FALLBACK, f);
      assert.ok(isDeepStrictEqual(got, referenceDecode(raw).value), f);
    }
  });
  it('decodes the recorded node responses to the same trees as before (structural digests), in every mode', function () {
    const dir = sharedPath('fixtures/algorand-sdk-testing/features/resources');
    needShared(this, dir);
    for (const [f, want] of Object.entries(RECORDED_DIGESTS)) {
      const raw = fromBase64Lenient(readFileSync(`${dir}/${f}`, 'utf8').replace(/\s+/g, ''));
      // Twice each: the second decode meets a warm interning cache.
      for (let round = 0; round < 2; round++) {
        assert.equal(structuralDigest(decodeMsgpack(raw, { maps: true })), want, `${f} (default)`);
        assert.equal(structuralDigest(decodeMsgpack(raw, { maps: true, copy: false })), want, `${f} (copy: false)`);
      }
    }
  });

  it('interned strings that share a slot’s sampled bytes, or evict each other, stay exact', () => {
    const rand = rng(2031);
    // Same length, same first and last four bytes, different middles; some at the very end of
    // the input (where the last word cannot be read whole), and enough distinct ones to evict.
    for (let i = 0; i < 400; i++) {
      const n = 1 + rand(31);
      const words: number[][] = [];
      const baseWord = Array.from({ length: n }, () => 0x61 + rand(26));
      for (let k = 0; k < 6; k++) {
        const w = baseWord.slice();
        if (n > 8) w[4 + rand(n - 8)] = 0x41 + rand(26);
        else if (n > 0) w[rand(n)] = 0x41 + rand(26);
        words.push(w);
      }
      const entries = words.flatMap((w, k) => [0xa0 | n, ...w, k]);
      const tail = words[rand(words.length)]!;
      const bytes = Uint8Array.from([0x92, 0x80 | words.length, ...entries, 0xa0 | n, ...tail]);
      const want = referenceDecode(bytes);
      for (let round = 0; round < 2; round++) {
        const got = fastDecodeMaps(new Uint8Array(bytes));
        assert.notEqual(got, FALLBACK);
        assert.ok(isDeepStrictEqual(got, want.value), `case ${i}`);
      }
    }
    // Many distinct short keys (more than the cache holds), decoded twice in a different order.
    const keys = Array.from({ length: 6000 }, (_, i) => `k${i.toString(36)}_${'z'.repeat(i % 20)}`);
    for (const order of [keys, [...keys].reverse()]) {
      const body = order.flatMap((k, i) => [0xa0 | k.length, ...Buffer.from(k), i & 0x7f]);
      const bytes = Uint8Array.from([0xde, order.length >> 8, order.length & 0xff, ...body]);
      assert.ok(isDeepStrictEqual(fastDecodeMaps(bytes), referenceDecode(bytes).value));
    }
  });
});
