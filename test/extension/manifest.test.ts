import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statusText, statusTooltip } from '../../extension/src/statusText.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string) => readFileSync(resolve(repoRoot, p), 'utf8');
const pkg = JSON.parse(read('package.json'));

describe('extension: manifest and language configuration', () => {
  it('activates on TEAL files and loads the CommonJS bundle', () => {
    assert.ok(pkg.activationEvents.includes('onLanguage:teal'));
    assert.equal(pkg.main, './dist/extension.cjs');
  });

  it('contributes the teal language, grammar and snippets with paths that exist', () => {
    const c = pkg.contributes;
    const lang = c.languages.find((l: { id: string }) => l.id === 'teal');
    assert.ok(lang.extensions.includes('.teal'));
    assert.ok(existsSync(resolve(repoRoot, lang.configuration)));
    const grammar = c.grammars.find((g: { language: string }) => g.language === 'teal');
    assert.equal(grammar.scopeName, 'source.teal');
    assert.equal(JSON.parse(read(grammar.path)).scopeName, grammar.scopeName);
    const snippets = c.snippets.find((s: { language: string }) => s.language === 'teal');
    assert.ok(existsSync(resolve(repoRoot, snippets.path)));
    assert.deepEqual(c.configuration.properties['tealworks.defaultMode'].enum, ['auto', 'logicsig', 'application']);
  });

  it('keeps TEAL tokens whole under the word pattern', () => {
    const config = JSON.parse(read('language-configuration.json'));
    assert.equal(config.comments.lineComment, '//');
    const word = new RegExp(config.wordPattern, 'g');
    const words = (line: string) => line.match(word) ?? [];
    assert.deepEqual(words('int TMPL_AMOUNT'), ['int', 'TMPL_AMOUNT']);
    assert.deepEqual(words('main_loop: b main_loop'), ['main_loop:', 'b', 'main_loop']);
    assert.deepEqual(words('#define a+b<=?_x ; ->;%&|~!^*/'), ['#define', 'a+b<=?_x', '->', '%&|~!^*/']);
    assert.deepEqual(words('byte "x y"'), ['byte', 'x', 'y']);
  });

  it('packs only the bundles, grammar, snippets, configuration and docs (.vscodeignore)', () => {
    const lines = read('.vscodeignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**', 'exclude everything first');
    const included = lines.slice(1).map((l) => {
      assert.ok(l.startsWith('!'), l);
      return l.slice(1);
    });
    for (const f of [
      'dist/extension.cjs',
      'dist/server.cjs',
      'syntaxes/teal.tmLanguage.json',
      'snippets/teal.json',
      'language-configuration.json',
      'package.json',
      'extension/media/icon.png',
      'extension/sample/approval.teal',
      'extension/sample/counter.arc56.json',
      'extension/sample/tealworks.yaml',
    ]) {
      assert.ok(included.includes(f), f);
    }
    // The .vsix README is the user-facing one (vsce --readme-path), not the repository's.
    assert.ok(!included.includes('README.md'), 'the developer README stays out of the .vsix');
    assert.match(read('scripts/package.mjs'), /'--readme-path',\s*'extension\/README\.md'/);
    assert.ok(read('extension/README.md').includes('Get started in five minutes'));
    assert.ok(included.every((f) => !f.includes('*') && !f.startsWith('node_modules') && !f.endsWith('.map')));
  });
});

describe('extension: status bar wording', () => {
  it('shows version, mode and size', () => {
    assert.equal(statusText({ uri: 'u', avmVersion: 10, versionDeclared: true, mode: 'application', size: 312, errors: 0 }), 'TEAL v10 · app · 312 B');
    assert.equal(statusText({ uri: 'u', avmVersion: 1, versionDeclared: false, errors: 2 }), 'TEAL v1 (default) · 2 errors');
    assert.equal(statusText({ uri: 'u', avmVersion: 8, versionDeclared: true, mode: 'logicsig', errors: 1 }), 'TEAL v8 · logicsig · 1 error');
    assert.equal(
      statusText({ uri: 'u', avmVersion: 8, versionDeclared: true, mode: 'logicsig', modeAssumed: true, size: 3, errors: 0 }),
      'TEAL v8 · logicsig? · 3 B',
    );
    assert.match(statusTooltip({ uri: 'u', avmVersion: 1, versionDeclared: false, errors: 0 }), /no #pragma version/);
  });
});
