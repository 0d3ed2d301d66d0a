// Issue 18's language-server half: template variables wherever a constant can stand (with values
// from settings, tealworks.yaml or the ARC-56 spec), style lints as faded hints that never fire on
// compiler output, no warning on ARC-28 event selectors, "did you mean" quick fixes, single-value
// `#define`s coloured as values, and initialization with unusual root URIs. All over a real server
// process speaking JSON-RPC.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic, Hover, SemanticTokens } from 'vscode-languageserver-protocol';
import { semanticTokensLegend } from '../../server/src/features/semanticTokens.js';
import { STYLE_LINT_CODES } from '../../server/src/features/lints.js';
import { closest, editDistance } from '../../server/src/features/didYouMean.js';
import { substituteTemplates, templateSites, valueTextOf } from '../../server/src/features/templates.js';
import { lexTeal as lex } from '../../sdk/src/teal/lexer.js';
import { repoRoot, startClient } from './lspClient.js';
import { applyEdits, startSession, type Session } from './session.js';
import { needShared } from '../helpers/shared.js';

const data = resolve(repoRoot, '../shared/data');

/** Programs in ../shared/data that are not valid compiler output (broken on purpose, or not assembling upstream). */
const NOT_VALID = [/fixtures\/.*\/invalid\.teal$/, /_examples__boxes__approval\.teal$/, /_examples__calling__approval\.teal$/];

function tealUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.teal')) out.push(join(dir, e.name));
    }
  };
  walk(root);
  return out.sort();
}

const tokenTypeAt = (tokens: SemanticTokens, line: number, character: number): string | undefined => {
  let l = 0;
  let c = 0;
  for (let i = 0; i < tokens.data.length; i += 5) {
    const [dl, dc, len, type] = tokens.data.slice(i, i + 4) as [number, number, number, number];
    l += dl;
    c = dl === 0 ? c + dc : dc;
    if (l === line && c <= character && character < c + len) return semanticTokensLegend.tokenTypes[type];
  }
  return undefined;
};

describe('server: quiet on generated code, template variables, did-you-mean (issue 18)', function () {
  this.timeout(120_000);
  let s: Session;
  before(async () => {
    s = await startSession();
  });
  after(async () => s?.stop());

  it('reports zero style warnings over every valid compiler-output program in ../shared/data (hints only)', async function () {
    needShared(this, data);
    const files = tealUnder(data).filter((f) => !NOT_VALID.some((re) => re.test(f)));
    assert.ok(files.length >= 100, `${files.length} programs`);
    let hints = 0;
    let warnings = 0;
    const styleWarnings: string[] = [];
    for (const f of files) {
      const { diagnostics } = await s.open(readFileSync(f, 'utf8'), `data/${f.slice(data.length + 1).replace(/[^\w.+-]/g, '_')}`);
      for (const d of diagnostics) {
        if (d.severity === 4) hints++;
        if (d.severity === 2) warnings++;
        if (STYLE_LINT_CODES.has(String(d.code)) && (d.severity ?? 1) <= 2) styleWarnings.push(`${f}:${d.range.start.line + 1}: ${d.message}`);
        if (/ARC-4 ABI method signature.*return type ""/.test(d.message))
          styleWarnings.push(`${f}:${d.range.start.line + 1}: event selector warned: ${d.message}`);
      }
    }
    console.log(`      ${files.length} programs: ${warnings} warnings (assembler and mode), ${hints} style hints, 0 style warnings expected`);
    assert.deepEqual(styleWarnings, []);
  });

  it('makes style lints hints tagged unnecessary; the entry label is never unused; settings raise or silence them', async () => {
    const text = '#pragma version 8\nstart:\nint 1\nbnz used\nb next\nnext:\nunused:\nused:\nint 1\nreturn\nint 2\n';
    const { diagnostics } = await s.open(text);
    const style = diagnostics.filter((d) => STYLE_LINT_CODES.has(String(d.code)));
    assert.deepEqual(
      style.map((d) => [d.code, d.range.start.line]).sort(),
      [
        ['branch-to-next-line', 4],
        ['unreachable-code', 10],
        ['unused-label', 6],
      ].sort(),
    );
    for (const d of style) {
      assert.equal(d.severity, 4, `${d.code} is a hint`);
      assert.deepEqual(d.tags, [1], `${d.code} is tagged Unnecessary`);
    }
    assert.ok(!style.some((d) => /'start'/.test(d.message)), 'the entry label is not unused');
    const c = await startClient({ initializationOptions: { lint: { style: 'warning' } } });
    try {
      const uri = 'file:///work/raised.teal';
      const next = c.nextDiagnostics(uri);
      await c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
      const raised = (await next).diagnostics.filter((d) => STYLE_LINT_CODES.has(String(d.code)));
      assert.equal(raised.length, 3);
      assert.ok(raised.every((d) => d.severity === 2));
      const again = c.nextDiagnostics(uri);
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { tealworks: { lint: { style: 'off' } } } });
      assert.deepEqual(
        (await again).diagnostics.filter((d) => STYLE_LINT_CODES.has(String(d.code))),
        [],
      );
    } finally {
      await c.stop();
    }
  });

  it('gives files with a compiler header no style lints (unless tealworks.lint.generatedCode)', async () => {
    const body = '#pragma version 8\nb next\nnext:\nunused:\nint 1\nreturn\nint 2\n';
    for (const header of [
      '//tealish version git+https://github.com/Hipo/tealish.git@df4b0130',
      '// This TEAL was generated by TEALScript v0.90.0',
      '// Generated by PyTeal',
    ]) {
      const { diagnostics } = await s.open(`${header}\n${body}`);
      assert.deepEqual(
        diagnostics.filter((d) => STYLE_LINT_CODES.has(String(d.code))),
        [],
        header,
      );
    }
    const { diagnostics: handWritten } = await s.open(`// my counter\n${body}`);
    assert.equal(handWritten.filter((d) => STYLE_LINT_CODES.has(String(d.code))).length, 3);
  });

  it('does not warn on an ARC-28 event selector, still warns on a bad method signature', async () => {
    const { diagnostics } = await s.open('#pragma version 10\nmethod "Incremented(address,uint64)"\npop\nmethod "bad(uint65)void"\npop\nint 1\n');
    assert.deepEqual(
      diagnostics.map((d) => d.range.start.line),
      [3],
    );
    assert.match(diagnostics[0]!.message, /invalid argument type "uint65"/);
  });

  it('accepts TMPL_ placeholders wherever a constant can stand, and says so on hover', async () => {
    const text =
      '#pragma version 10\nint TMPL_A\npushint TMPL_D\n+\npop\nbyte TMPL_B\naddr TMPL_C\nconcat\nextract TMPL_E 2\n#define OWNER TMPL_OWNER\nbyte OWNER\nconcat\npop\ntxna Accounts TMPL_I\npop\nint 1\nreturn\n';
    const { uri, diagnostics } = await s.open(text);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 1),
      [],
      'no errors for placeholders',
    );
    const h = await s.request<Hover>('textDocument/hover', s.at(uri, { line: 1, character: 6 }));
    const md = (h.contents as { value: string }).value;
    assert.match(md, /`TMPL_A` — template variable/);
    assert.match(md, /No value known/);
    assert.deepEqual(h.range, { start: { line: 1, character: 4 }, end: { line: 1, character: 10 } });
  });

  it('checks with the values from settings, mapping ranges back onto the placeholder', async () => {
    const c = await startClient({ initializationOptions: { templateVariables: { E: 300, TMPL_NOTE: 'hi' } } });
    try {
      const uri = 'file:///work/tmpl-settings.teal';
      const text = '#pragma version 10\nbyte TMPL_NOTE; extract TMPL_E 2; pop; int 1\n';
      const next = c.nextDiagnostics(uri);
      await c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
      const errors = (await next).diagnostics.filter((d) => d.severity === 1);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      // `extract 300 2` is out of range; the error sits on the placeholder as written.
      assert.deepEqual(errors[0]!.range, { start: { line: 1, character: 24 }, end: { line: 1, character: 30 } });
      const hover = await c.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 26 } });
      assert.match((hover.contents as { value: string }).value, /Checked with `300` from the `tealworks.templateVariables` setting/);
    } finally {
      await c.stop();
    }
  });

  it('reads values and types from the ARC-56 spec and tealworks.yaml beside the program', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-tmpl-'));
    try {
      mkdirSync(join(dir, 'abi'));
      writeFileSync(
        join(dir, 'abi', 'app.arc56.json'),
        JSON.stringify({
          name: 'app',
          templateVariables: {
            FEE: { type: 'uint64', value: Buffer.from([0, 0, 0, 0, 0, 0, 1, 44]).toString('base64') },
            NAME: { type: 'AVMBytes' },
            LEN: { type: 'uint64' },
          },
        }),
      );
      writeFileSync(join(dir, 'tealworks.yaml'), 'contracts:\n  app:\n    approval: abi/app.teal\n    template:\n      LEN: 999\n');
      const text = '#pragma version 10\nint TMPL_FEE\npop\nbyte TMPL_NAME\nextract 0 TMPL_LEN\npop\nint 1\n';
      writeFileSync(join(dir, 'abi', 'app.teal'), text);
      const uri = pathToFileURL(join(dir, 'abi', 'app.teal')).toString();
      const next = s.client.nextDiagnostics(uri);
      await s.client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
      const errors = (await next).diagnostics.filter((d) => d.severity === 1);
      // LEN = 999 from tealworks.yaml does not fit extract's one-byte length.
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0]!.range.start.line, 4);
      const fee = await s.request<Hover>('textDocument/hover', s.at(uri, { line: 1, character: 6 }));
      const feeMd = (fee.contents as { value: string }).value;
      assert.match(feeMd, /Type: `uint64`/);
      assert.match(feeMd, /Checked with `300` from ARC-56 spec/);
      const len = await s.request<Hover>('textDocument/hover', s.at(uri, { line: 4, character: 12 }));
      assert.match((len.contents as { value: string }).value, /Checked with `999` from tealworks.yaml.*contracts\.app\.template/s);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('offers "did you mean" quick fixes for an unknown opcode, field or label', async () => {
    const text = '#pragma version 10\nitn 1\ntxn Sendr\nbnz mian\nmain:\nint 1\n';
    const { uri, diagnostics } = await s.open(text);
    const fixes = async (d: Diagnostic) =>
      (await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })).filter((a) =>
        a.title.startsWith('Did you mean'),
      );
    const byLine = (line: number) => diagnostics.find((d) => d.range.start.line === line && d.severity === 1)!;
    const op = await fixes(byLine(1));
    assert.equal(op[0]?.title, "Did you mean 'int'? (opcode)");
    assert.equal(op[0]?.isPreferred, true);
    assert.equal(applyEdits(text, op[0]!.edit!.changes![uri]!).split('\n')[1], 'int 1');
    const field = await fixes(byLine(2));
    assert.equal(field[0]?.title, "Did you mean 'Sender'? (field)");
    const label = await fixes(byLine(3));
    assert.equal(label[0]?.title, "Did you mean 'main'? (label)");
    assert.equal(applyEdits(text, label[0]!.edit!.changes![uri]!).split('\n')[3], 'bnz main');
  });

  it('colours a single-value #define as a value, not an opcode', async () => {
    const { uri } = await s.open('#pragma version 8\n#define LIMIT 10\n#define NAME "x"\n#define OWNER TMPL_OWNER\n#define TWO pop\nint LIMIT\n');
    const toks = await s.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.equal(tokenTypeAt(toks, 1, 14), 'number');
    assert.equal(tokenTypeAt(toks, 2, 13), 'string');
    assert.equal(tokenTypeAt(toks, 3, 15), 'variable');
    assert.equal(tokenTypeAt(toks, 4, 12), 'function', 'a real instruction body stays an opcode');
  });

  for (const [what, rootUri] of [
    ['a relative file://. root', 'file://.'],
    ['a relative path root', '.'],
    ['no root at all', undefined],
  ] as const) {
    it(`initializes with ${what} and keeps every feature on`, async () => {
      const c = await startClient(rootUri ? { rootUri } : {});
      try {
        const caps = c.initializeResult.capabilities;
        assert.ok(caps.hoverProvider && caps.completionProvider && caps.workspaceSymbolProvider);
        const uri = 'file:///work/root-test.teal';
        const next = c.nextDiagnostics(uri);
        await c.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'teal', version: 1, text: '#pragma version 8\nitn 1\n' },
        });
        assert.equal((await next).diagnostics[0]?.message, 'unknown opcode: itn');
        await c.connection.sendRequest('workspace/symbol', { query: 'x' });
      } finally {
        await c.stop();
      }
    });
  }
});

describe('server: template substitution and suggestions (units)', () => {
  it('maps ranges after a longer substitution back to the original columns', () => {
    const text = 'addr TMPL_C; int 1; int x';
    const sites = templateSites(lex(text));
    const sub = substituteTemplates(text, sites, new Map());
    assert.ok(sub.text.startsWith('addr AAAA'));
    const at = sub.text.indexOf('int x') + 4;
    const r = sub.remap({ line: 0, column: at, endColumn: at + 1, utf16Column: at, utf16EndColumn: at + 1 });
    assert.deepEqual(r, { line: 0, column: 24, endColumn: 25, utf16Column: 24, utf16EndColumn: 25 });
    const onSite = sub.remap({ line: 0, column: 5, endColumn: 5 + 58, utf16Column: 5, utf16EndColumn: 63 });
    assert.deepEqual([onSite.utf16Column, onSite.utf16EndColumn], [5, 11]);
  });

  it('ignores placeholders in strings and comments; turns setting values into TEAL text', () => {
    assert.deepEqual(
      templateSites(lex('byte "TMPL_X" // TMPL_Y\nint TMPL_Z')).map((x) => [x.name, x.op]),
      [['TMPL_Z', 'int']],
    );
    assert.equal(valueTextOf(5), '5');
    assert.equal(valueTextOf('0x01ff'), '0x01ff');
    assert.equal(valueTextOf('hello'), '"hello"');
    assert.equal(valueTextOf('1_000'), '1000');
    assert.equal(valueTextOf('${{ accounts.a.address }}'), undefined);
    assert.equal(valueTextOf(-1), undefined);
  });

  it('suggests by edit distance, transpositions included', () => {
    assert.equal(editDistance('itn', 'int'), 1);
    assert.deepEqual(closest('Sendr', ['Sender', 'Fee', 'Receiver']), ['Sender']);
    assert.deepEqual(closest('zzzzzz', ['Sender']), []);
  });
});
