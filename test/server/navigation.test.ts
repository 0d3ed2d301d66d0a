import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentHighlight, DocumentSymbol, Location, Range, SymbolInformation, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { applyEdits, startSession, type Session } from './session.js';

const r = (line: number, start: number, end: number): Range => ({ start: { line, character: start }, end: { line, character: end } });
const spans = (locs: { range: Range }[]) => locs.map((l) => `${l.range.start.line}:${l.range.start.character}-${l.range.end.character}`).sort();

// A label passed as an argument to a macro use, and a label named only inside a macro body.
const ROUTER = [
  '#pragma version 8', // 0
  '#define abi-route txna ApplicationArgs 0; ==; bnz', // 1
  '#define goto b done', // 2
  'byte "kickstart"', // 3
  'abi-route kickstart', // 4
  'int 0', // 5
  'goto', // 6
  'kickstart:', // 7
  'int 1', // 8
  'done:', // 9
  'int 1', // 10
  'return', // 11
  '',
].join('\n');

const NESTED = [
  '#pragma version 8', // 0
  '#define inner b done', // 1
  '#define outer int 1; inner', // 2
  '#define unused b done', // 3
  'outer', // 4
  'done:', // 5
  'int 1', // 6
  'return', // 7
  '',
].join('\n');

describe('server: definition, references, highlight and rename through macros (real server process)', function () {
  let s: Session;
  let router: string;
  let nested: string;

  before(async function () {
    s = await startSession();
    router = (await s.open(ROUTER)).uri;
    nested = (await s.open(NESTED)).uri;
  });
  after(async () => s?.stop());

  const rename = (uri: string, line: number, character: number, newName: string) =>
    s.request<WorkspaceEdit>('textDocument/rename', { ...s.at(uri, { line, character }), newName });

  it('goes from a label written as a macro-use argument to its definition', async () => {
    const defs = await s.request<Location[]>('textDocument/definition', s.at(router, { line: 4, character: 12 }));
    assert.deepEqual(spans(defs), ['7:0-9']);
  });

  it('goes from a macro use to its #define name', async () => {
    const defs = await s.request<Location[]>('textDocument/definition', s.at(router, { line: 6, character: 2 }));
    assert.deepEqual(spans(defs), ['2:8-12']);
  });

  it('finds label references in macro-use arguments and in #define bodies, not in strings', async () => {
    const kick = await s.request<Location[]>('textDocument/references', { ...s.at(router, { line: 7, character: 3 }), context: { includeDeclaration: true } });
    assert.deepEqual(spans(kick), ['4:10-19', '7:0-9']);
    const done = await s.request<Location[]>('textDocument/references', { ...s.at(router, { line: 9, character: 1 }), context: { includeDeclaration: false } });
    assert.deepEqual(spans(done), ['2:15-19'], 'the b inside the goto body');
  });

  it('finds references through nested macros and in bodies that are never used', async () => {
    const done = await s.request<Location[]>('textDocument/references', { ...s.at(nested, { line: 5, character: 0 }), context: { includeDeclaration: true } });
    assert.deepEqual(spans(done), ['1:16-20', '3:17-21', '5:0-4']);
    const inner = await s.request<Location[]>('textDocument/references', {
      ...s.at(nested, { line: 1, character: 10 }),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(spans(inner), ['1:8-13', '2:21-26']);
  });

  it('highlights definitions as writes and uses as reads', async () => {
    const hl = await s.request<DocumentHighlight[]>('textDocument/documentHighlight', s.at(router, { line: 4, character: 15 }));
    assert.deepEqual(hl.map((h) => [h.range.start.line, h.kind]).sort(), [
      [4, 2],
      [7, 3],
    ]);
  });

  it('renames a label everywhere it is written and the program assembles to the same bytes', async () => {
    const edit = await rename(router, 4, 12, 'start');
    const edits = edit.changes![router]!;
    assert.deepEqual(spans(edits), ['4:10-19', '7:0-9']);
    const renamed = applyEdits(ROUTER, edits);
    assert.match(renamed, /abi-route start\n/);
    assert.match(renamed, /\nstart:\n/);
    assert.match(renamed, /byte "kickstart"/, 'strings are untouched');
    const before = await s.request<{ hex: string }>('tealworks/assembled', { uri: router });
    const { uri } = await s.open(renamed);
    const after = await s.request<{ hex: string }>('tealworks/assembled', { uri });
    assert.equal(after.hex, before.hex);
  });

  it('renames a label inside a #define body and a macro in other bodies', async () => {
    const done = await rename(router, 9, 0, 'finish');
    assert.deepEqual(spans(done.changes![router]!), ['2:15-19', '9:0-4']);
    const inner = await rename(nested, 4, 0, 'outer2');
    assert.deepEqual(spans(inner.changes![nested]!), ['2:8-13', '4:0-5']);
    const innerFromBody = await rename(nested, 2, 23, 'jump');
    assert.deepEqual(spans(innerFromBody.changes![nested]!), ['1:8-13', '2:21-26']);
  });

  it('renames a label that a macro body defines, at its written place', async () => {
    const text = '#pragma version 8\n#define mk here: int 1\nint 0\nbnz here\nmk\nreturn\n';
    const { uri } = await s.open(text);
    const defs = await s.request<Location[]>('textDocument/definition', s.at(uri, { line: 3, character: 5 }));
    assert.deepEqual(spans(defs), ['1:11-15'], 'inside the #define, without the colon');
    const edit = await rename(uri, 3, 5, 'there');
    assert.equal(applyEdits(text, edit.changes![uri]!), '#pragma version 8\n#define mk there: int 1\nint 0\nbnz there\nmk\nreturn\n');
  });

  it('refuses a label name that undefined-label branches already use', async () => {
    const { uri } = await s.open('#pragma version 8\nint 1\nbnz later\nhere:\nint 1\n');
    await assert.rejects(rename(uri, 3, 1, 'later'), /undefined label 'later'; the rename would capture them/);
  });

  it('hovers labels with their pc and reference count', async () => {
    const h = await s.request<{ contents: { value: string } } | null>('textDocument/hover', s.at(router, { line: 4, character: 12 }));
    assert.match(h?.contents.value ?? '', /^label `kickstart` · pc \d+ · 1 reference$/);
  });

  it('prepares renames on labels and macros only', async () => {
    const ok = await s.request<{ range: Range; placeholder: string }>('textDocument/prepareRename', s.at(router, { line: 7, character: 2 }));
    assert.deepEqual(ok, { range: r(7, 0, 9), placeholder: 'kickstart' });
    await assert.rejects(s.request('textDocument/prepareRename', s.at(router, { line: 8, character: 1 })), /Only labels and macros/);
  });

  it('refuses names that would change or break the program, with a clear reason', async () => {
    const cases: [line: number, ch: number, name: string, reason: RegExp][] = [
      [7, 1, 'sha256', /opcode/],
      [7, 1, 'int', /pseudo-op/],
      [7, 1, 'Sender', /field name/],
      [7, 1, 'OptIn', /named constant/],
      [7, 1, 'done', /label named 'done' already exists/],
      [7, 1, 'goto', /macro named 'goto' already exists/],
      [7, 1, 'a b', /Invalid label name/],
      [7, 1, 'x:', /Invalid label name/],
      [7, 1, '12', /reads as a number/],
      [6, 1, '1jump', /Invalid macro name: Cannot begin macro name with number/],
      [6, 1, 'ju#mp', /Invalid macro name: # character not allowed/],
      [6, 1, 'appl', /named constant/],
      [6, 1, 'kickstart', /label named 'kickstart' already exists/],
    ];
    for (const [line, character, name, reason] of cases) {
      await assert.rejects(rename(router, line, character, name), reason, name);
    }
  });
});

const OUTLINE = [
  '#pragma version 8', // 0
  '#define two int 2', // 1
  '#define three int 3', // 2
  'callsub helper', // 3
  'pop', // 4
  'int 1', // 5
  'return', // 6
  'helper:', // 7
  'proto 0 1', // 8
  'int 1', // 9
  'bnz inner', // 10
  'inner:', // 11
  'two', // 12
  'retsub', // 13
  'other:', // 14
  'proto 0 0', // 15
  'retsub', // 16
].join('\n');

describe('server: symbols, folding and selection ranges (real server process)', function () {
  let s: Session;
  let dir: string;
  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'tealworks-ws-'));
    writeFileSync(join(dir, 'ondisk.teal'), '#pragma version 8\n#define diskMacro int 7\nb diskLabel\ndiskLabel:\ndiskMacro\nreturn\n');
    s = await startSession({ rootUri: pathToFileURL(dir).toString() });
  });
  after(async () => {
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('outlines subroutines with their inner labels, and macros', async () => {
    const { uri } = await s.open(OUTLINE);
    const syms = await s.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      syms.map((x) => [x.name, x.kind, x.range.start.line, x.range.end.line, (x.children ?? []).map((c) => c.name)]),
      [
        ['two', 14, 1, 1, []],
        ['three', 14, 2, 2, []],
        ['helper', 12, 7, 13, ['inner']],
        ['other', 12, 14, 16, []],
      ],
    );
  });

  it('does not show labels defined in a macro body at the #define line', async () => {
    const { uri } = await s.open('#pragma version 8\n#define mk here: int 1\nmk\nreturn\n');
    const syms = await s.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const here = syms.find((x) => x.name === 'here')!;
    assert.equal(here.range.start.line, 2, 'shown at the use site');
  });

  it('searches symbols in open documents and .teal files of the workspace', async () => {
    await s.open(OUTLINE, 'outline-open');
    const found = await s.request<SymbolInformation[]>('workspace/symbol', { query: 'disk' });
    assert.deepEqual(found.map((f) => f.name).sort(), ['diskLabel', 'diskMacro']);
    assert.ok(found.every((f) => f.location.uri.endsWith('/ondisk.teal')));
    const helpers = await s.request<SymbolInformation[]>('workspace/symbol', { query: 'hlpr' });
    assert.ok(helpers.some((f) => f.name === 'helper' && f.location.uri.endsWith('outline-open.teal')));
  });

  it('folds subroutines, #define groups and comment blocks', async () => {
    const { uri } = await s.open('// header\n// more\n' + OUTLINE + '\n');
    const folds = await s.request<{ startLine: number; endLine: number; kind?: string }[]>('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(
      folds.map((f) => [f.startLine, f.endLine, f.kind]),
      [
        [0, 1, 'comment'],
        [3, 4, 'region'],
        [9, 15, 'region'],
        [16, 18, 'region'],
      ],
    );
  });

  it('expands selection from token to statement to line to subroutine to document', async () => {
    const { uri } = await s.open('#pragma version 8\ncallsub f\nreturn\nf:\nproto 0 0\n  txna ApplicationArgs 0; pop  // c\nretsub\n');
    const [sel] = await s.request<{ range: Range; parent?: unknown }[]>('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [{ line: 5, character: 10 }],
    });
    const chain: Range[] = [];
    for (let x = sel as { range: Range; parent?: unknown } | undefined; x; x = x.parent as typeof x) chain.push(x.range);
    assert.deepEqual(chain, [
      r(5, 7, 22),
      r(5, 2, 24),
      r(5, 2, 35),
      { start: { line: 3, character: 0 }, end: { line: 7, character: 0 } },
      { start: { line: 0, character: 0 }, end: { line: 7, character: 0 } },
    ]);
  });
});
