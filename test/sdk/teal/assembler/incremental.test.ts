// Incremental analysis must give exactly what a full analysis gives. Seeded random edit sequences
// (lines inserted, deleted, duplicated; tokens changed; labels, macros and pragmas added and removed)
// are replayed on the conformance and corpus programs; after every edit the session's analysis is
// compared with analyze() of the same text, and the editor lexer's reuse with a fresh lex. The work
// is bounded by edit counts, never by time.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, AnalysisSession, lexTeal, relexTeal, type Analysis, type TokenInfo, type UpdateInfo } from '@tealworks/sdk/teal';
import { needShared, sharedPath } from '../../../helpers/shared.js';
import { generateProgram } from '../../../../bench/teal.bench.js';

/** mulberry32: a small seeded PRNG, so every run replays the same edits. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SNIPPETS = [
  'int 1',
  'int 7',
  'pushint 3',
  'byte 0x0102',
  'byte "k"',
  'pop',
  'dup',
  '+',
  'err',
  'retsub',
  'return',
  'b tmp_label',
  'bnz tmp_label',
  'callsub tmp_label',
  'tmp_label:',
  'other_label: int 2; pop',
  '#define TMP int 5',
  '#define TMP2 TMP; TMP; +',
  'TMP',
  'TMP2; pop',
  '#pragma version 8',
  '#pragma version 3',
  '#pragma typetrack false',
  '#pragma typetrack true',
  'intc 0',
  'intcblock 1 2',
  'intc_1',
  'bytecblock 0x01 "a"',
  'bytec 1',
  'bytec_0',
  'pushbytes 0x01',
  'txn Sender',
  'app_global_get',
  'store 3',
  'load 3',
  '// a comment',
  '',
  'frame_dig -1',
  'proto 1 1',
];

type Edit = (lines: string[], rnd: () => number) => void;

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)]!;
const at = (lines: string[], rnd: () => number) => Math.floor(rnd() * (lines.length + 1));

const EDITS: Edit[] = [
  // a snippet inserted
  (lines, rnd) => void lines.splice(at(lines, rnd), 0, pick(SNIPPETS, rnd)),
  // a line deleted
  (lines, rnd) => void (lines.length > 1 && lines.splice(Math.floor(rnd() * lines.length), 1)),
  // a line replaced by a snippet (the line count stays)
  (lines, rnd) => void (lines.length && (lines[Math.floor(rnd() * lines.length)] = pick(SNIPPETS, rnd))),
  // a line replaced by another line of the program
  (lines, rnd) => void (lines.length && (lines[Math.floor(rnd() * lines.length)] = pick(lines, rnd))),
  // a token changed: a number bumped, or a word swapped for one from elsewhere
  (lines, rnd) => {
    if (!lines.length) return;
    const i = Math.floor(rnd() * lines.length);
    const words = lines[i]!.split(' ');
    const w = Math.floor(rnd() * words.length);
    const n = Number(words[w]);
    words[w] = Number.isInteger(n) && words[w] !== '' ? String(n + 1 + Math.floor(rnd() * 3)) : pick(pick(lines, rnd).split(' '), rnd);
    lines[i] = words.join(' ');
  },
  // a line duplicated
  (lines, rnd) => {
    if (!lines.length) return;
    const i = Math.floor(rnd() * lines.length);
    lines.splice(i, 0, lines[i]!);
  },
  // a label definition renamed (or its colon removed)
  (lines, rnd) => {
    const labels = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\w+:/.test(l));
    if (!labels.length) return;
    const [l, i] = pick(labels, rnd);
    lines[i] = rnd() < 0.5 ? l.replace(/^(\w+):/, '$1_x:') : l.replace(/^(\w+):/, '$1');
  },
];

/** Replays `count` random edits on `text`; after each, the session must agree with a full analysis. */
function replay(name: string, text: string, seed: number, count: number, checkpointLines: number, kinds: Map<string, number>): void {
  const rnd = prng(seed);
  const session = new AnalysisSession({}, { checkpointLines });
  let lines = text.split('\n');
  let lexed = lexTeal(text);
  let previousText = text;
  assert.deepStrictEqual(session.update(text), analyze(text), `${name}: first analysis`);
  for (let i = 0; i < count; i++) {
    lines = lines.slice();
    pick(EDITS, rnd)(lines, rnd);
    const next = lines.join('\n');
    const got = session.update(next);
    const info = session.lastUpdate as UpdateInfo;
    for (const k of kindsOf(info, next)) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const full = analyze(next);
    assert.deepStrictEqual(got, full, `${name}: edit ${i + 1} (seed ${seed}, ${info.kind} from line ${info.fromLine})`);
    assert.deepStrictEqual(sharing(got), sharing(full), `${name}: shared tokens after edit ${i + 1}`);
    const fresh = lexTeal(next);
    assert.deepStrictEqual(lexTeal(next, lexed), fresh, `${name}: lexer reuse after edit ${i + 1}`);
    const relexed = relexTeal(previousText, lexed, next);
    assert.deepStrictEqual(relexed.lines, fresh, `${name}: re-lex of the edited lines after edit ${i + 1}`);
    // With an editor's line index for the edit's first line: the same lines and the same edit range.
    const starts = lineStarts(next);
    const hinted = relexTeal(previousText, lexed, next, (offset) => starts.indexOf(offset));
    assert.deepStrictEqual(hinted, relexed, `${name}: re-lex with a line index after edit ${i + 1}`);
    for (let l = 0; l < fresh.length; l++) {
      if (l < relexed.firstLine) assert.equal(relexed.lines[l], lexed[l], `${name}: line ${l} before the edit is the previous object`);
    }
    lexed = relexed.lines;
    previousText = next;
  }
}

/** Offsets where each line of `text` starts (lines end at `\n` only). */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/**
 * Which of the labels' tokens (definitions, references) are the very objects a statement lists:
 * equal structures are not enough, a reused part must keep what is one token one object.
 */
function sharing(a: Analysis): boolean[] {
  const listed = new Set<TokenInfo>();
  for (const s of a.statements) for (const t of s.tokens) listed.add(t);
  return a.labels.flatMap((l) => [listed.has(l.definition), ...l.references.map((r) => listed.has(r))]);
}

/**
 * How an update went, with the cases the reuse has to get right named apart: an edit that added or
 * removed lines (the reused part moves), a program with a constant block or explicit constant ops,
 * one with macros.
 */
function kindsOf(info: UpdateInfo, text: string): string[] {
  const out: string[] = [info.kind];
  if (info.kind !== 'reused') return out;
  if (info.linesAdded) out.push('reused, lines moved');
  if (/^\s*(intc|bytec)block\b/m.test(text)) out.push('reused, constant block');
  if (/^\s*(intc|bytec)(_\d| )/m.test(text)) out.push('reused, explicit constant ops');
  if (/^\s*#define\b/m.test(text)) out.push('reused, macros');
  return out;
}

function tealFiles(root: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.name.endsWith('.teal')) out.push({ name: `${prefix}${e.name}`, text: readFileSync(join(dir, e.name), 'utf8') });
    }
  };
  walk(root, '');
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

describe('teal: incremental analysis (AnalysisSession) equals a full analysis', function () {
  this.timeout(180_000);

  it('on the conformance programs, after each of a random sequence of edits', function () {
    const root = sharedPath('teal-conformance');
    needShared(this, root);
    const kinds = new Map<string, number>();
    const files = tealFiles(root);
    assert.ok(files.length >= 10);
    // These programs use explicit constant ops and blocks (intc, bytecblock, …): the session reuses
    // around an edit only where the tables are the ones the previous pass had there.
    files.forEach((f, i) => replay(f.name, f.text, 1000 + i, 15, 4, kinds));
    const seen = JSON.stringify([...kinds]);
    for (const k of ['reused, constant block', 'reused, explicit constant ops', 'reused, lines moved'])
      assert.ok((kinds.get(k) ?? 0) > 0, `no "${k}" update: ${seen}`);
  });

  it('on the corpus programs (every third), after each of a random sequence of edits', function () {
    const root = sharedPath('teal-corpus');
    needShared(this, root);
    const kinds = new Map<string, number>();
    const files = tealFiles(root).filter((_, i) => i % 3 === 0);
    assert.ok(files.length >= 20);
    files.forEach((f, i) => replay(f.name, f.text, 2000 + i, 12, 8, kinds));
    const seen = JSON.stringify([...kinds]);
    for (const k of ['reused', 'reused, lines moved', 'reused, constant block', 'reused, explicit constant ops', 'reused, macros']) {
      assert.ok((kinds.get(k) ?? 0) > 0, `no "${k}" update: ${seen}`);
    }
  });

  it('on a generated 10,000-line program with the default checkpoints', () => {
    const kinds = new Map<string, number>();
    replay('generated', generateProgram(), 7, 10, 32, kinds);
    assert.ok((kinds.get('reused') ?? 0) > 0, `update kinds: ${JSON.stringify([...kinds])}`);
    assert.ok((kinds.get('reused, lines moved') ?? 0) > 0, `update kinds: ${JSON.stringify([...kinds])}`);
  });

  it('an edit that keeps the line count re-analyses only around the edit', () => {
    const text = generateProgram();
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('int 1000'));
    const session = new AnalysisSession();
    session.update(text);
    lines[at] = 'int 1001';
    const edited = lines.join('\n');
    assert.deepStrictEqual(session.update(edited), analyze(edited));
    const info = session.lastUpdate!;
    assert.equal(info.kind, 'reused');
    assert.ok(info.fromLine <= at && info.toLine! > at && info.toLine! - info.fromLine <= 4 * 32, JSON.stringify(info));
  });

  it('an edit that adds or removes lines re-analyses only around the edit, and moves the rest', () => {
    const text = generateProgram();
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('int 1000'));
    const session = new AnalysisSession();
    session.update(text);
    const steps: [string, (ls: string[]) => void, number | undefined][] = [
      ['a line added', (ls) => void ls.splice(at, 0, 'int 7', 'pop'), 2],
      ['a line removed', (ls) => void ls.splice(at + 1, 1), -1],
      ['a line split in two', (ls) => void ls.splice(at, 1, 'int', '1000'), 1],
      ['a macro used', (ls) => void ls.splice(at, 0, 'ARG0', 'pop'), 2],
      // A new macro is in force for every line after it: the rest is analysed again.
      ['a macro defined', (ls) => void ls.splice(at, 0, '#define SEVEN int 7'), undefined],
      ['the macro removed again', (ls) => void ls.splice(at, 1), undefined],
    ];
    let current = lines;
    for (const [what, edit, added] of steps) {
      current = current.slice();
      edit(current);
      const edited = current.join('\n');
      assert.deepStrictEqual(session.update(edited), analyze(edited), what);
      const info = session.lastUpdate!;
      assert.equal(info.kind, added === undefined ? 'resumed' : 'reused', `${what}: ${JSON.stringify(info)}`);
      if (added === undefined) continue;
      assert.equal(info.linesAdded, added, what);
      assert.ok(info.fromLine <= at && info.toLine! > at && info.toLine! - info.fromLine <= 4 * 32, `${what}: ${JSON.stringify(info)}`);
    }
  });

  it('a program with constant blocks is re-analysed only around an edit that leaves the blocks as they were', () => {
    const body: string[] = [];
    for (let i = 0; i < 300; i++) body.push(`sub_${i}:`, 'intc_1', `pushint ${i}`, '+', 'bytec_0', 'pop', `bytec ${i % 3}`, 'pop', 'retsub');
    const lines = ['#pragma version 10', 'intcblock 0 1 2', 'bytecblock 0x00 0x01 "k"', 'callsub sub_0', 'intc 2', 'return', ...body];
    const session = new AnalysisSession();
    session.update(lines.join('\n'));
    const at = lines.indexOf('sub_100:');
    const edits: [string, string[], 'reused' | 'resumed'][] = [
      ['an op changed', lines.map((l, i) => (i === at + 2 ? 'pushint 77' : l)), 'reused'],
      ['a line added', [...lines.slice(0, at), 'intc_2', 'pop', ...lines.slice(at)], 'reused'],
      ['an explicit op added', [...lines.slice(0, at + 1), 'intc 3', ...lines.slice(at + 1)], 'reused'],
      // The table changes for every line after it: the rest is analysed again (no reuse), correctly.
      ['a block changed', lines.map((l, i) => (i === 1 ? 'intcblock 0 1 5' : l)), 'resumed'],
    ];
    for (const [what, edited, kind] of edits) {
      const text = edited.join('\n');
      assert.deepStrictEqual(session.update(text), analyze(text), what);
      assert.equal(session.lastUpdate!.kind, kind, `${what}: ${JSON.stringify(session.lastUpdate)}`);
    }
  });

  it('a dropped update leaves the session as it was', () => {
    const text = generateProgram(2000);
    const session = new AnalysisSession({}, { checkpointLines: 16 });
    session.update(text);
    const other = text.replace('int 1000', 'int 999');
    const steps = session.updateSteps(other);
    steps.next();
    steps.next();
    steps.return(undefined as never);
    const again = text.replace('int 3', 'int 4');
    assert.deepStrictEqual(session.update(again), analyze(again));
  });
});
