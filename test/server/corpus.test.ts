import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { repoRoot } from './lspClient.js';
import { applyEdits, startSession, type Session } from './session.js';
import { needShared } from '../helpers/shared.js';

const data = resolve(repoRoot, '../shared/data');
const corpusRoot = join(data, 'teal-corpus');
const conformanceRoot = join(data, 'teal-conformance');

/** Corpus files that do not assemble upstream either (checked by hand), with the error they must get. */
const KNOWN_INVALID: Record<string, RegExp> = {
  'nullun+algorand-teal-examples/_examples__boxes__approval.teal': /^reference to undefined label "existed"$/,
  'nullun+algorand-teal-examples/_examples__calling__approval.teal': /^duplicate label "not_update"$/,
};

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

describe('server: real-world TEAL over LSP (corpus and conformance programs)', function () {
  this.timeout(60_000);
  let s: Session;
  before(async function () {
    needShared(this, corpusRoot);
    needShared(this, conformanceRoot);
    s = await startSession();
  });
  after(async () => s?.stop());

  it('publishes no errors for the valid corpus programs, and no unjustified unused labels', async () => {
    const files = tealFiles(corpusRoot);
    assert.ok(files.length >= 80, `corpus has ${files.length} programs`);
    const problems: string[] = [];
    for (const f of files) {
      const { diagnostics } = await s.open(f.text, `corpus/${f.name.replace(/[^\w.+-]/g, '_')}`);
      const errors = diagnostics.filter((d) => d.severity === 1);
      const expected = KNOWN_INVALID[f.name];
      if (expected) {
        if (!errors.some((e) => expected.test(e.message))) problems.push(`${f.name}: expected ${expected}`);
        continue;
      }
      for (const e of errors) problems.push(`${f.name}:${e.range.start.line + 1}: ${e.message}`);
      // A label is "unused" only when neither code nor any macro body or macro argument names it.
      for (const w of diagnostics.filter((d) => d.code === 'unused-label')) {
        const name = /label '(.*)' is never/.exec(w.message)![1]!;
        const mentioned = f.text.split('\n').some(
          (line, i) =>
            i !== w.range.start.line &&
            line
              .split('//')[0]!
              .split(/[\s;]+/)
              .includes(name),
        );
        if (mentioned) problems.push(`${f.name}:${w.range.start.line + 1}: ${w.message}, yet the name appears elsewhere`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('formats every corpus and conformance program without changing its bytes (conformance: still the golden bytes), idempotently', async () => {
    const golden = (name: string) => readFileSync(join(conformanceRoot, name.replace(/\.teal$/, '.hex')), 'utf8').trim();
    const files = [
      ...tealFiles(corpusRoot).map((f) => ({ ...f, name: `corpus/${f.name}` })),
      ...tealFiles(conformanceRoot).map((f) => ({ ...f, name: `conformance/${f.name}`, golden: golden(f.name) })),
    ];
    const problems: string[] = [];
    let changed = 0;
    let assembledCount = 0;
    for (const f of files) {
      const slug = f.name.replace(/[^\w.+-]/g, '_');
      const { uri } = await s.open(f.text, `fmt/${slug}`);
      const edits = await s.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } });
      if (edits.length) changed++;
      const formatted = applyEdits(f.text, edits);
      const { uri: again } = await s.open(formatted, `fmt2/${slug}`);
      const before = await s.request<{ hex?: string }>('tealworks/assembled', { uri });
      const after = await s.request<{ hex?: string }>('tealworks/assembled', { uri: again });
      if (before.hex !== after.hex) problems.push(`${f.name}: bytes changed`);
      if ('golden' in f && after.hex !== f.golden) problems.push(`${f.name}: formatted program differs from the golden bytes`);
      if (before.hex) assembledCount++;
      const second = await s.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri: again }, options: { tabSize: 4, insertSpaces: true } });
      if (second.length) problems.push(`${f.name}: not idempotent (${second.length} more edits, first at line ${second[0]!.range.start.line + 1})`);
    }
    assert.deepEqual(problems, []);
    assert.ok(changed > files.length / 2, `formatting changed ${changed} of ${files.length} files`);
    assert.ok(assembledCount >= files.length - Object.keys(KNOWN_INVALID).length, `${assembledCount} assembled`);
  });
});
