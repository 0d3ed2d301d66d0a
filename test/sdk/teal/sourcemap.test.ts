import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProgramSourceMap } from 'algosdk';
import { assemble } from '../../../sdk/src/teal/index.js';
import {
  SourceMapError,
  decodeVlqSegment,
  encodeVlq,
  parseNodeSourceMap,
  pcLookupTable,
  toArc56SourceInfo,
  toNodeSourceMap,
} from '../../../sdk/src/teal/sourcemap.js';
import type { PcMapping, SourceRange } from '../../../sdk/src/teal/types.js';
import { needShared } from '../../helpers/shared.js';

function range(line: number, column: number, utf16Column = column): SourceRange {
  return { line, column, endColumn: column + 1, utf16Column, utf16EndColumn: utf16Column + 1 };
}

function at(pc: number, line: number, column: number, utf16Column = column): PcMapping {
  return { pc, use: range(line, column, utf16Column) };
}

// Worked by hand: segment fields are (0, 0, Δline, Δcol) against the previous mapped pc.
//   pc1 (1,0): Δ(1,0)   → A A C A
//   pc3 (2,0): Δ(1,0)   → A A C A
//   pc4 (2,5): Δ(0,5)   → A A A K     (5 → 10 → 'K')
//   pc6 (0,2): Δ(-2,-3) → A A F H     (−2 → 5 → 'F', −3 → 7 → 'H')
//   pc7 (20,3): Δ(20,1) → A A oB C    (20 → 40 = 0b1_01000 → 'o' (8|32), 'B')
const HAND = [at(1, 1, 0), at(3, 2, 0), at(4, 2, 5), at(6, 0, 2), at(7, 20, 3)];
const HAND_MAPPINGS = ';AACA;;AACA;AAAK;;AAFH;AAoBC';

describe('teal source maps: node format', () => {
  it('encodes base64 VLQ numbers', () => {
    assert.equal(encodeVlq(0), 'A');
    assert.equal(encodeVlq(1), 'C');
    assert.equal(encodeVlq(-1), 'D');
    assert.equal(encodeVlq(15), 'e');
    assert.equal(encodeVlq(16), 'gB');
    assert.equal(encodeVlq(-16), 'hB');
    assert.equal(encodeVlq(1000), 'w+B');
    for (const v of [0, 1, -1, 15, 16, -16, 511, 512, -513, 123456, -987654]) assert.deepEqual(decodeVlqSegment(encodeVlq(v)), [v]);
  });

  it('matches the hand-computed mappings', () => {
    const map = toNodeSourceMap(HAND, { sources: ['prog.teal'] });
    assert.deepEqual(map, { version: 3, sources: ['prog.teal'], names: [], mappings: HAND_MAPPINGS });
    // The node's JSON key order.
    assert.equal(JSON.stringify(map), `{"version":3,"sources":["prog.teal"],"names":[],"mappings":"${HAND_MAPPINGS}"}`);
  });

  it('round-trips through parseNodeSourceMap', () => {
    const parsed = parseNodeSourceMap(JSON.stringify(toNodeSourceMap(HAND)));
    assert.deepEqual(
      parsed,
      HAND.map((m) => ({ pc: m.pc, source: 0, line: m.use.line, column: m.use.column })),
    );
  });

  it('agrees with algosdk ProgramSourceMap', () => {
    const map = toNodeSourceMap(HAND, { sources: ['prog.teal'] });
    const theirs = new ProgramSourceMap(map);
    assert.deepEqual(theirs.getPcs(), [1, 3, 4, 6, 7]);
    for (const m of HAND) {
      const loc = theirs.getLocationForPc(m.pc);
      assert.deepEqual([loc?.line, loc?.column, loc?.sourceIndex], [m.use.line, m.use.column, 0], `pc ${m.pc}`);
    }
    // And we read algosdk-style maps the same way: a map of a random walk.
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const walk: PcMapping[] = [];
    for (let pc = 1; pc < 400; pc += 1 + rand(4)) walk.push(at(pc, rand(300), rand(80)));
    const ours = parseNodeSourceMap(toNodeSourceMap(walk));
    const sdk = new ProgramSourceMap(toNodeSourceMap(walk));
    for (const e of ours) {
      const loc = sdk.getLocationForPc(e.pc);
      assert.deepEqual([loc?.line, loc?.column], [e.line, e.column]);
    }
    assert.equal(ours.length, walk.length);
  });

  it('points macro output into the #define (as the node does) unless asked for the use site', () => {
    const plain: PcMapping = { pc: 1, use: range(0, 10, 6) };
    const fromMacro: PcMapping = { ...plain, definition: range(3, 2) };
    assert.equal(toNodeSourceMap([plain]).mappings, ';AAAU');
    assert.equal(toNodeSourceMap([plain], { columns: 'utf16' }).mappings, ';AAAM');
    assert.equal(toNodeSourceMap([fromMacro]).mappings, ';AAGE');
    assert.equal(toNodeSourceMap([fromMacro], { macros: 'use' }).mappings, ';AAAU');
  });

  it('gives an empty mapping for no instructions', () => {
    assert.equal(toNodeSourceMap([]).mappings, '');
    assert.deepEqual(parseNodeSourceMap(toNodeSourceMap([])), []);
  });

  it('reports malformed maps as SourceMapError', () => {
    assert.throws(() => parseNodeSourceMap('not json'), SourceMapError);
    assert.throws(() => parseNodeSourceMap('{"version":2,"mappings":""}'), /unsupported source map version 2/);
    assert.throws(() => parseNodeSourceMap('{"version":3}'), /no "mappings"/);
    assert.throws(() => parseNodeSourceMap('{"version":3,"sources":[],"mappings":";AA!A"}'), /invalid base64 VLQ character "!"/);
    assert.throws(() => parseNodeSourceMap('{"version":3,"sources":[],"mappings":";AAg"}'), /cut short/);
    assert.throws(() => parseNodeSourceMap('{"version":3,"sources":[],"mappings":";AAD"}'), /3 fields/);
    assert.throws(() => parseNodeSourceMap('{"version":3,"sources":[],"mappings":";AADA"}'), /negative line/);
    assert.throws(() => parseNodeSourceMap('{"version":3,"sources":["a"],"mappings":";ACAA"}'), /refers to source 1/);
  });

  it('looks up the instruction containing any pc', () => {
    const table = pcLookupTable(parseNodeSourceMap(toNodeSourceMap(HAND)), 9);
    assert.deepEqual(
      table.map((e) => e?.pc),
      [undefined, 1, 1, 3, 4, 4, 6, 7, 7],
    );
  });
});

describe('teal source maps: sdk-testing fixtures', function () {
  const dir = resolve(
    dirname(fileURLToPath(import.meta.url)),
    '../../../../shared/data/fixtures/algorand-sdk-testing/features/resources/v2algodclient_responsejsons',
  );
  before(function () {
    needShared(this, dir);
  });

  it('reads the node map of sourcemap.json as sourcemap.feature expects', () => {
    const map = readFileSync(resolve(dir, 'sourcemap.json'), 'utf8');
    const table = pcLookupTable(parseNodeSourceMap(map), 52);
    // The feature's pc:line string; pc 0 (the version byte) has no mapping, which it shows as 0.
    const expected =
      '0:0;1:7;2:7;3:7;4:7;5:7;6:7;7:7;8:7;9:7;10:7;11:7;12:7;13:7;14:7;15:7;16:7;17:7;18:7;19:7;20:7;21:7;22:7;23:7;24:7;25:7;26:7;27:7;28:7;29:8;30:9;31:9;32:9;33:10;34:10;35:10;36:11;37:12;38:12;39:13;40:14;41:14;42:14;43:15;44:16;45:17;46:17;47:18;48:18;49:19;50:20;51:21';
    assert.equal(table.map((e, pc) => `${pc}:${e?.line ?? 0}`).join(';'), expected);
    // "the last pc associated with a line"
    const lastPc = (line: number): number => table.reduce((last, e, pc) => ((e?.line ?? 0) === line ? pc : last), -1);
    assert.deepEqual([lastPc(0), lastPc(7), lastPc(9), lastPc(21)], [0, 28, 32, 51]);
  });

  it('reads the two-source sourcemap-test map as sourcemapv2 expects', () => {
    const entries = parseNodeSourceMap(readFileSync(resolve(dir, 'sourcemapv2/sourcemap-test.teal.tok.map'), 'utf8'));
    assert.deepEqual(
      entries.map((e) => [e.pc, e.line, e.column, e.source]),
      [
        [4, 3, 0, 0],
        [6, 3, 19, 0],
        [8, 3, 26, 0],
        [9, 3, 30, 0],
        [12, 6, 4, 0],
        [14, 6, 11, 0],
        [16, 6, 18, 0],
        [17, 7, 4, 0],
        [19, 7, 11, 0],
        [20, 7, 18, 0],
        [21, 1, 21, 1],
        [22, 1, 25, 1],
        [23, 11, 4, 0],
        [24, 12, 4, 0],
      ],
    );
  });

  it('our assembler and exporter produce the same pcs, lines and columns', () => {
    // The fixture splits one program in two files: put the macro back at lib.teal's line 1.
    const lines = readFileSync(resolve(dir, 'sourcemapv2/sourcemap-test.teal'), 'utf8').split('\n');
    lines[1] = readFileSync(resolve(dir, 'sourcemapv2/lib.teal'), 'utf8').split('\n')[1]!;
    const ours = parseNodeSourceMap(toNodeSourceMap(assemble(lines.join('\n')).sourceMap));
    const theirs = parseNodeSourceMap(readFileSync(resolve(dir, 'sourcemapv2/sourcemap-test.teal.tok.map'), 'utf8'));
    assert.deepEqual(
      ours.map((e) => [e.pc, e.line, e.column]),
      theirs.map((e) => [e.pc, e.line, e.column]),
    );
  });
});

describe('teal source maps: ARC-56 sourceInfo', () => {
  const source = ['#pragma version 10', 'txn ApplicationID', 'bz create; int 1', 'assert // must be positive', 'create:', 'err // "no" // never'].join('\n');
  const maps = [at(1, 1, 0), at(3, 2, 0), at(6, 2, 11), at(8, 3, 0), at(9, 5, 0)];

  it('groups pcs by TEAL line (1-based) and takes error messages from assert/err comments', () => {
    assert.deepEqual(toArc56SourceInfo(maps, { sourceText: source }), {
      sourceInfo: [
        { pc: [1], teal: 2 },
        { pc: [3, 6], teal: 3 },
        { pc: [8], teal: 4, errorMessage: 'must be positive' },
        // A string literal on the line makes the comment ambiguous: left out.
        { pc: [9], teal: 6 },
      ],
      pcOffsetMethod: 'none',
    });
  });

  it('adds source names and explicit error messages', () => {
    const info = toArc56SourceInfo(maps, { sourceName: 'app.teal', errorMessages: new Map([[1, 'no app id']]) });
    assert.deepEqual(info.sourceInfo[0], { pc: [1], teal: 2, source: 'app.teal:2', errorMessage: 'no app id' });
    assert.equal(info.sourceInfo[2]!.errorMessage, undefined);
    assert.equal(info.sourceInfo[2]!.source, 'app.teal:4');
    const zeroBased = toArc56SourceInfo(maps, { sourceName: 'app.teal', firstLine: 0 });
    assert.deepEqual([zeroBased.sourceInfo[0]!.teal, zeroBased.sourceInfo[0]!.source], [1, 'app.teal:1']);
  });
});
