import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPCODES } from '../../sdk/src/teal/spec/index.js';
import { buildGrammar } from '../../scripts/grammar/teal-grammar.js';
import { MiniTokenizer, type Grammar, type ScopedToken } from './miniTextmate.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const grammarPath = resolve(repoRoot, 'syntaxes/teal.tmLanguage.json');
const grammar = JSON.parse(readFileSync(grammarPath, 'utf8')) as Grammar;

/** Each sample line with (token text → a scope it must carry). */
const SAMPLES: [line: string, expected: [text: string, scope: string][]][] = [
  [
    '#pragma version 10',
    [
      ['#pragma', 'keyword.control.directive.pragma.teal'],
      ['version', 'keyword.other.pragma-key.teal'],
      ['10', 'constant.numeric.decimal.teal'],
    ],
  ],
  ['#pragma typetrack false', [['false', 'constant.language.boolean.teal']]],
  [
    '#define -> ; store',
    [
      ['#define', 'keyword.control.directive.define.teal'],
      ['->', 'entity.name.function.macro.teal'],
      ['store', 'support.function.loading.teal'],
    ],
  ],
  ['#foo bar', [['#foo', 'invalid.illegal.unknown-directive.teal']]],
  [
    'main: txn Sender // who',
    [
      ['main', 'entity.name.label.teal'],
      ['txn', 'support.function.loading.teal'],
      ['Sender', 'support.constant.field.teal'],
      ['// who', 'comment.line.double-slash.teal'],
    ],
  ],
  [
    'bnz done; b loop',
    [
      ['bnz', 'keyword.control.flow.teal'],
      ['done', 'entity.name.label.reference.teal'],
      ['b', 'keyword.control.flow.teal'],
      ['loop', 'entity.name.label.reference.teal'],
    ],
  ],
  [
    'switch a b c // x',
    [
      ['switch', 'keyword.control.flow.teal'],
      ['a', 'entity.name.label.reference.teal'],
      ['c', 'entity.name.label.reference.teal'],
      ['// x', 'comment.line.double-slash.teal'],
    ],
  ],
  [
    'int 1; int 2; +; ==; b==; b|',
    [
      ['+', 'keyword.operator.arithmetic.teal'],
      ['==', 'keyword.operator.arithmetic.teal'],
      ['b==', 'keyword.operator.byte-arithmetic.teal'],
      ['b|', 'keyword.operator.byte-logic.teal'],
    ],
  ],
  [
    'int pay; int OptIn',
    [
      ['int', 'keyword.other.pseudo-op.teal'],
      ['pay', 'support.constant.named.teal'],
      ['OptIn', 'support.constant.named.teal'],
    ],
  ],
  [
    'int 0x1F; int 0b101; int 017',
    [
      ['1F', 'constant.numeric.hex.teal'],
      ['0b101', 'constant.numeric.binary.teal'],
      ['017', 'constant.numeric.octal.teal'],
    ],
  ],
  [
    'byte "a\\"b // not comment"',
    [
      ['"', 'punctuation.definition.string.begin.teal'],
      ['\\"', 'constant.character.escape.teal'],
    ],
  ],
  [
    'byte base64 AA//AA== // c',
    [
      ['base64', 'storage.type.encoding.teal'],
      ['AA//AA==', 'string.unquoted.base64.teal'],
      ['// c', 'comment.line.double-slash.teal'],
    ],
  ],
  [
    'byte b32(MFRGG===)',
    [
      ['b32', 'storage.type.encoding.teal'],
      ['MFRGG===', 'string.unquoted.base32.teal'],
    ],
  ],
  [
    'addr AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    [
      ['addr', 'keyword.other.pseudo-op.teal'],
      ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'constant.other.address.teal'],
    ],
  ],
  ['int TMPL_AMOUNT', [['TMPL_AMOUNT', 'variable.other.template.teal']]],
  [
    'box_create; itxn_submit; sha512_256; callsub f',
    [
      ['box_create', 'support.function.box-access.teal'],
      ['itxn_submit', 'support.function.inner-transaction.teal'],
      ['sha512_256', 'support.function.crypto.teal'],
      ['f', 'entity.name.label.reference.teal'],
    ],
  ],
];

function check(tokenize: (line: string) => ScopedToken[]) {
  const failures: string[] = [];
  for (const [line, expected] of SAMPLES) {
    const tokens = tokenize(line);
    for (const [text, scope] of expected) {
      if (!tokens.some((t) => t.text === text && t.scopes.includes(scope))) {
        failures.push(
          `${JSON.stringify(line)}: ${JSON.stringify(text)} should be ${scope}; got ${JSON.stringify(tokens.map((t) => [t.text, t.scopes.slice(1)]))}`,
        );
      }
    }
  }
  assert.deepEqual(failures, []);
}

function* regexes(node: unknown, path = ''): Generator<[string, string]> {
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'match' || k === 'begin' || k === 'end') && typeof v === 'string') yield [`${path}.${k}`, v];
    else yield* regexes(v, `${path}.${k}`);
  }
}

function* includes(node: unknown): Generator<string> {
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === 'include' && typeof v === 'string') yield v;
    else yield* includes(v);
  }
}

describe('grammar: teal.tmLanguage.json', () => {
  it('is the committed output of scripts/gen-grammar.ts', () => {
    assert.equal(readFileSync(grammarPath, 'utf8'), JSON.stringify(buildGrammar(), null, 2) + '\n', 'run npm run gen:grammar');
  });

  it('has scope source.teal and every include resolves', () => {
    assert.equal(grammar.scopeName, 'source.teal');
    for (const inc of includes(grammar)) assert.ok(inc.startsWith('#') && grammar.repository[inc.slice(1)], `include ${inc}`);
  });

  it('every regex compiles as a JS RegExp', () => {
    let n = 0;
    for (const [where, source] of regexes(grammar)) {
      assert.doesNotThrow(() => new RegExp(source), where);
      n++;
    }
    assert.ok(n > 20);
  });

  it('names every opcode of the table as a whole token, and every field', () => {
    const tok = new MiniTokenizer(grammar);
    const missing: string[] = [];
    for (const op of OPCODES) {
      const t = tok.tokenizeLine(op.name).find((x) => x.text === op.name);
      if (!t || !t.scopes.some((s) => s.startsWith('keyword.') || s.startsWith('support.function.'))) missing.push(op.name);
    }
    assert.deepEqual(missing, []);
    const fieldPattern = new RegExp(grammar.repository.field!.match!);
    const fields = new Set(OPCODES.flatMap((o) => (o.fields ?? []).map((f) => f.name)));
    for (const f of fields) assert.ok(fieldPattern.test(f) && fieldPattern.exec(f)![1] === f, f);
  });

  it('scopes sample lines as expected (JS-regex tokenizer)', () => {
    const tok = new MiniTokenizer(grammar);
    check((line) => tok.tokenizeLine(line));
  });

  it('scopes sample lines as expected (vscode-textmate + oniguruma)', async function () {
    const require = createRequire(import.meta.url);
    let textmate: any;
    let onig: any;
    try {
      textmate = require('vscode-textmate');
      onig = require('vscode-oniguruma');
    } catch {
      console.log('    (skipped: vscode-textmate / vscode-oniguruma are not installed; the JS-regex check above still ran)');
      this.skip();
    }
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({ createOnigScanner: (s: string[]) => new onig.OnigScanner(s), createOnigString: (s: string) => new onig.OnigString(s) }),
      loadGrammar: async () => grammar,
    });
    const g = await registry.loadGrammar('source.teal');
    check((line) => {
      const r = g.tokenizeLine(line, textmate.INITIAL);
      return r.tokens.map((t: { startIndex: number; endIndex: number; scopes: string[] }) => ({
        text: line.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
      }));
    });
  });
});
