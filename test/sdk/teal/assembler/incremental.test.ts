// Incremental analysis must give exactly what a full analysis gives. Seeded random edit sequences
// (lines inserted, deleted, duplicated; tokens changed; labels, macros and pragmas added and removed)
// are replayed on the conformance and corpus programs; after every edit the session's analysis is
// compared with analyze() of the same text, and the editor lexer's reuse with a fresh lex. The work
// is bounded by edit counts, never by time.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, AnalysisSession, lexTeal, relexTeal, type UpdateInfo } from '@tealworks/sdk/teal';
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
    kinds.set(info.kind, (kinds.get(info.kind) ?? 0) + 1);
    assert.deepStrictEqual(got, analyze(next), `${name}: edit ${i + 1} (seed ${seed}, ${info.kind} from line ${info.fromLine})`);
    const fresh = lexTeal(next);
    assert.deepStrictEqual(lexTeal(next, lexed), fresh, `${name}: lexer reuse after edit ${i + 1}`);
    const relexed = relexTeal(previousText, lexed, next);
    assert.deepStrictEqual(relexed.lines, fresh, `${name}: re-lex of the edited lines after edit ${i + 1}`);
    lexed = relexed.lines;
    previousText = next;
  }
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
    // These programs use explicit constant ops and blocks (intc, bytecblock, …), which the session
    // never reuses around: they check that it falls back to full analyses correctly.
    files.forEach((f, i) => replay(f.name, f.text, 1000 + i, 15, 4, kinds));
  });

  it('on the corpus programs (every third), after each of a random sequence of edits', function () {
    const root = sharedPath('teal-corpus');
    needShared(this, root);
    const kinds = new Map<string, number>();
    const files = tealFiles(root).filter((_, i) => i % 3 === 0);
    assert.ok(files.length >= 20);
    files.forEach((f, i) => replay(f.name, f.text, 2000 + i, 12, 8, kinds));
    assert.ok((kinds.get('reused') ?? 0) > 0, `update kinds: ${JSON.stringify([...kinds])}`);
  });

  it('on a generated 10,000-line program with the default checkpoints', () => {
    const kinds = new Map<string, number>();
    replay('generated', generateProgram(), 7, 10, 32, kinds);
    assert.ok((kinds.get('reused') ?? 0) > 0, `update kinds: ${JSON.stringify([...kinds])}`);
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
