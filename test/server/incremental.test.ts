// The server's document models after an edit are built from the previous version's (lines re-lexed
// only where the edit touched them, symbols kept when the edit touched none, the assembler's
// analysis through the document's AnalysisSession). Seeded random edits on corpus programs: after
// each one, the incremental model must equal a model built from scratch. Bounded by edit counts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { buildModel, type DocumentModel } from '../../server/src/document.js';
import { lints, type LintMemo } from '../../server/src/features/lints.js';
import { AnalysisSession, collectDiagnostics, collectDiagnosticsSteps } from '../../server/src/teal.js';
import { diagnostics } from '../../server/src/features/diagnostics.js';
import { needShared, sharedPath } from '../helpers/shared.js';

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
  'pop',
  'dup',
  'b next_one',
  'next_one:',
  '#define M int 3',
  'M',
  '#pragma version 6',
  'byte TMPL_X',
  '// note',
  '',
  'txn Sender\r',
  'app_global_get',
  'arg 0',
  'txna ApplicationArgs 0',
  'err',
  'b next_two',
  'next_two:',
];

function edit(lines: string[], rnd: () => number): void {
  const i = Math.floor(rnd() * lines.length);
  const r = rnd();
  if (r < 0.2) lines.splice(i, 0, SNIPPETS[Math.floor(rnd() * SNIPPETS.length)]!);
  else if (r < 0.35 && lines.length > 1) lines.splice(i, 1);
  else if (r < 0.6) lines[i] = SNIPPETS[Math.floor(rnd() * SNIPPETS.length)]!;
  else if (r < 0.75) lines[i] = `${lines[i]} `;
  // The same text again (a version bump with no change): nothing is lexed or sniffed again.
  else if (r < 0.8) return;
  else lines[i] = lines[Math.floor(rnd() * lines.length)]!;
}

function symbols(m: DocumentModel) {
  return {
    lines: m.lines,
    avmVersion: m.avmVersion,
    versionDeclared: m.versionDeclared,
    macros: m.macros,
    labels: m.labels,
    templateSites: m.templateSites,
    mode: m.mode,
  };
}

function collect(text: string, session: AnalysisSession) {
  const steps = collectDiagnosticsSteps(text, (v) => v, session);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

describe('server: incremental document models equal models built from scratch', function () {
  this.timeout(180_000);

  it('after each of a random sequence of edits on corpus programs', function () {
    const root = sharedPath('teal-corpus');
    needShared(this, root);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.teal')) files.push(join(dir, e.name));
      }
    };
    walk(root);
    files.sort();
    const chosen = files.filter((_, i) => i % 6 === 0);
    assert.ok(chosen.length >= 10);
    let reused = 0;
    let moved = 0;
    chosen.forEach((file, n) => {
      const rnd = prng(300 + n);
      let lines = readFileSync(file, 'utf8').split('\n');
      const session = new AnalysisSession({}, { checkpointLines: 8 });
      let text = lines.join('\n');
      let light = buildModel({ uri: 'file:///x.teal', version: 0, getText: () => text }, { light: {} });
      let full = buildModel({ uri: 'file:///x.teal', version: 0, getText: () => text }, {}, collect(text, session));
      const memos: (LintMemo | undefined)[] = [];
      for (let i = 1; i <= 12; i++) {
        lines = lines.slice();
        edit(lines, rnd);
        const t = lines.join('\n');
        text = t;
        const doc = { uri: 'file:///x.teal', version: i, getText: () => t };
        // The server's documents have a line index (positionAt), which the re-lex uses to find the edit's line.
        const editorDoc = TextDocument.create('file:///x.teal', 'teal', i, t);
        const nextLight = buildModel(editorDoc, { light: {} }, undefined, light);
        assert.deepStrictEqual(symbols(nextLight), symbols(buildModel(doc, { light: {} })), `${file}: light model after edit ${i}`);
        const nextFull = buildModel(editorDoc, {}, collect(t, session), full);
        if (session.lastUpdate?.kind === 'reused') {
          reused++;
          if (session.lastUpdate.linesAdded) moved++;
        }
        const scratch = buildModel(doc, {}, collectDiagnostics(t));
        assert.deepStrictEqual(symbols(nextFull), symbols(scratch), `${file}: model after edit ${i}`);
        assert.deepStrictEqual(diagnostics(nextFull), diagnostics(scratch), `${file}: diagnostics after edit ${i}`);
        assert.deepStrictEqual(nextFull.analysis, scratch.analysis, `${file}: analysis after edit ${i}`);
        // As the server lints: each version from the previous one's memo.
        for (const [k, defaultMode] of ([undefined, 'logicsig'] as const).entries()) {
          const options = defaultMode ? { defaultMode, style: 'warning' as const } : {};
          const memo: { previous?: LintMemo; next?: LintMemo } = {};
          if (memos[k]) memo.previous = memos[k];
          assert.deepStrictEqual(lints(nextFull, options, memo), lints(scratch, options), `${file}: lints after edit ${i}`);
          memos[k] = memo.next;
        }
        light = nextLight;
        full = nextFull;
      }
    });
    // The reuse was exercised, edits that add or remove lines included.
    assert.ok(reused > 0 && moved > 0, `reused ${reused}, after a line count change ${moved}`);
  });
});
