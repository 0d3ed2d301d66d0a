import assert from 'node:assert/strict';
import type { CodeAction, CodeLens, Diagnostic, InlayHint, SemanticTokens, SignatureHelp, TextEdit } from 'vscode-languageserver-protocol';
import { semanticTokensLegend } from '../../server/src/features/semanticTokens.js';
import { applyEdits, startSession, type Session } from './session.js';

const PROGRAM = [
  '#pragma version 8', // 0
  '#define isAppl txn TypeEnum; int 6; ==', // 1
  'txn OnCompletion', // 2
  'int 1', // 3
  '==', // 4
  'isAppl', // 5
  '&&', // 6
  '  txn TypeEnum   // the type', // 7
  'int 6 // six', // 8
  '== ;assert', // 9
  'b next', // 10
  'next:', // 11
  'int 1', // 12
  'return', // 13
  'int 2', // 14
  '',
].join('\n');

function decode(tokens: SemanticTokens) {
  const out: { line: number; start: number; length: number; type: string; mods: string[] }[] = [];
  let line = 0;
  let start = 0;
  for (let i = 0; i < tokens.data.length; i += 5) {
    const [dl, ds, len, type, mods] = tokens.data.slice(i, i + 5) as [number, number, number, number, number];
    line += dl;
    start = dl === 0 ? start + ds : ds;
    out.push({
      line,
      start,
      length: len,
      type: semanticTokensLegend.tokenTypes[type]!,
      mods: semanticTokensLegend.tokenModifiers.filter((_, b) => mods & (1 << b)),
    });
  }
  return out;
}

describe('server: editing features over the analysis (real server process)', function () {
  let s: Session;
  let uri: string;
  let diagnostics: Diagnostic[];
  before(async function () {
    s = await startSession({ initializationOptions: { inlayHints: { pc: true } } });
    ({ uri, diagnostics } = await s.open(PROGRAM));
  });
  after(async () => s?.stop());

  const whole = { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } };

  it('colours from the expanded program: macro-use arguments, opcode kinds, comments', async () => {
    const { uri: u } = await s.open('#pragma version 8\n#define get txn\n#define route int 1; bnz\nget Sender // who\npop\nroute done\ndone:\nint 1\n');
    const toks = decode(await s.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri: u } }));
    const at = (line: number, start: number) => toks.find((t) => t.line === line && t.start === start);
    assert.equal(at(3, 0)?.type, 'macro');
    assert.deepEqual([at(3, 4)?.type, at(3, 4)?.mods], ['enumMember', ['defaultLibrary']], 'field passed to a macro use');
    assert.equal(at(3, 11)?.type, 'comment');
    assert.equal(at(5, 6)?.type, 'label', 'label passed to a macro use');
    assert.deepEqual(at(2, 21)?.mods, ['defaultLibrary', 'flowControl'], 'bnz in the body');
    assert.deepEqual(at(4, 0)?.mods, ['defaultLibrary', 'flowControl'], 'pop');
    assert.deepEqual(at(6, 0)?.mods, ['declaration']);
    const ranged = decode(
      await s.request<SemanticTokens>('textDocument/semanticTokens/range', {
        textDocument: { uri: u },
        range: { start: { line: 5, character: 0 }, end: { line: 5, character: 10 } },
      }),
    );
    assert.deepEqual(
      ranged.map((t) => [t.line, t.start, t.type]),
      [
        [5, 0, 'macro'],
        [5, 6, 'label'],
      ],
    );
  });

  it('formats: indentation, single spaces, aligned trailing comments, idempotent', async () => {
    const edits = await s.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = applyEdits(PROGRAM, edits);
    assert.equal(
      formatted,
      [
        '#pragma version 8',
        '#define isAppl txn TypeEnum; int 6; ==',
        '    txn OnCompletion',
        '    int 1',
        '    ==',
        '    isAppl',
        '    &&',
        '    txn TypeEnum // the type',
        '    int 6        // six',
        '    ==; assert',
        '    b next',
        'next:',
        '    int 1',
        '    return',
        '    int 2',
        '',
      ].join('\n'),
    );
    const { uri: again } = await s.open(formatted);
    assert.deepEqual(await s.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri: again }, options: { tabSize: 4, insertSpaces: true } }), []);
    const a = await s.request<{ hex: string }>('tealworks/assembled', { uri });
    const b = await s.request<{ hex: string }>('tealworks/assembled', { uri: again });
    assert.equal(b.hex, a.hex);
  });

  it('takes the indentation from settings', async () => {
    const c = await startSession({ initializationOptions: { format: { indent: 2 } } });
    try {
      const { uri: u } = await c.open('#pragma version 8\nint 1\n  // note\nreturn\n');
      const edits = await c.request<TextEdit[]>('textDocument/formatting', { textDocument: { uri: u }, options: { tabSize: 4, insertSpaces: true } });
      assert.equal(applyEdits('#pragma version 8\nint 1\n  // note\nreturn\n', edits), '#pragma version 8\n  int 1\n  // note\n  return\n');
    } finally {
      await c.stop();
    }
  });

  it('shows stack depth, pc and constant names as inlay hints', async () => {
    const hints = await s.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: whole });
    const labels = hints.map((h) => `${h.position.line}:${h.position.character} ${h.label as string}`);
    assert.ok(labels.includes('2:16 pc 5 · stack 1'), labels.join('\n'));
    assert.ok(labels.includes('3:5 = OptIn'));
    assert.ok(labels.includes('8:5 = appl'));
    assert.ok(labels.includes('5:6 pc 9 · stack 2'), 'a macro use line: state after its last statement');
    assert.ok(labels.includes('10:6 pc 19'), 'no stack height once the code is dead');
    assert.ok(!labels.some((l) => l.startsWith('1:')), 'nothing on #define lines');
  });

  it('turns hint kinds off through settings', async () => {
    await s.client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { tealworks: { inlayHints: { pc: false, stackDepth: false, constants: true } } },
    });
    const hints = await s.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: whole });
    assert.deepEqual(hints.map((h) => h.label).sort(), ['= OptIn', '= appl']);
    await s.client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { tealworks: { inlayHints: { pc: true, stackDepth: true, constants: true } } },
    });
  });

  it('puts program size and reference counts in code lenses', async () => {
    const lenses = await s.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command?.title]),
      [
        [0, '26 bytes · 1 page'],
        [11, '1 reference'],
      ],
    );
    const { uri: big } = await s.open('#pragma version 8\nbyte 0x' + '00'.repeat(3000) + '\npop\nint 1\n');
    const [size] = await s.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: big } });
    assert.equal(size!.command!.title, '3007 bytes · 2 pages');
  });

  it('publishes lint warnings with distinct codes', async () => {
    const codes = diagnostics.map((d) => `${d.range.start.line}:${d.code}`).sort();
    assert.deepEqual(codes, ['10:branch-to-next-line', '14:unreachable-code']);
    const { diagnostics: more } = await s.open('// header\nint 1\n#pragma version 8\n');
    assert.ok(more.some((d) => d.code === 'pragma-version-placement' && d.range.start.line === 2));
    const { diagnostics: none } = await s.open('int 1\n');
    assert.deepEqual(
      none.map((d) => d.code),
      ['pragma-version-missing'],
    );
    const { diagnostics: unused } = await s.open('#pragma version 8\nint 1\nbnz used\nunused:\nused:\nint 1\n');
    assert.deepEqual(
      unused.map((d) => [d.code, d.range.start.line]),
      [['unused-label', 3]],
    );
  });

  it('does not call labels used only inside macros unused', async () => {
    const { diagnostics: d } = await s.open(
      '#pragma version 8\n#define abi-route txna ApplicationArgs 0; ==; bnz\n#define never b viaBody\nbyte "x"\nabi-route kickstart\nint 1\nreturn\nkickstart:\nviaBody:\nint 1\n',
    );
    assert.deepEqual(
      d.filter((x) => x.code === 'unused-label'),
      [],
    );
  });

  it('warns about ops and fields the program mode does not allow', async () => {
    const { diagnostics: app } = await s.open('#pragma version 8\n#define first arg 0\nbyte "k"\napp_global_get\nfirst\npop\n');
    const mode = app.filter((d) => d.code === 'mode');
    assert.equal(mode.length, 1);
    assert.match(mode[0]!.message, /arg is not allowed in an application/);
    assert.equal(mode[0]!.range.start.line, 4, 'at the macro use');
    assert.equal(mode[0]!.relatedInformation?.[0]?.location.range.start.line, 1, 'pointing into the #define');
    const c = await startSession({ initializationOptions: { defaultMode: 'logicsig' } });
    try {
      const { diagnostics: sig } = await c.open('#pragma version 8\nglobal CurrentApplicationID\npop\nint 1\nbyte "k"\napp_global_get\n');
      assert.match(sig.find((d) => d.range.start.line === 5)?.message ?? '', /app_global_get is not allowed in a logicsig/);
      const m = sig.find((d) => d.code === 'mode');
      assert.match(m?.message ?? '', /global CurrentApplicationID is not available in a logicsig \(mode from the tealworks.defaultMode setting\)/);
    } finally {
      await c.stop();
    }
  });

  it('offers quick fixes: create a missing label, raise #pragma version', async () => {
    const text = '#pragma version 4\nint 1\nbnz missing\nint 2\nbox_create\nint 1\n';
    const { uri: u, diagnostics: d } = await s.open(text);
    const undef = d.find((x) => /undefined label/.test(x.message))!;
    const [create] = await s.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: u },
      range: undef.range,
      context: { diagnostics: [undef] },
    });
    assert.equal(create?.title, "Create label 'missing' at the end of the program");
    assert.equal(applyEdits(text, create!.edit!.changes![u]!), text + 'missing:\n');
    const version = d.find((x) => /introduced in v8/.test(x.message))!;
    const [raise] = await s.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: u },
      range: version.range,
      context: { diagnostics: [version] },
    });
    assert.equal(raise?.title, 'Raise #pragma version to 8');
    assert.equal(raise?.isPreferred, true);
    assert.match(applyEdits(text, raise!.edit!.changes![u]!), /^#pragma version 8\n/);
  });

  it('offers named constants for compared numbers and inlining a macro use', async () => {
    const actionsAt = (line: number, character: number) =>
      s.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line, character }, end: { line, character } },
        context: { diagnostics: [] },
      });
    const [named] = await actionsAt(3, 4);
    assert.equal(named?.title, 'Replace 1 with OptIn');
    const renamed = applyEdits(PROGRAM, named!.edit!.changes![uri]!);
    assert.match(renamed, /\nint OptIn\n/);
    const [inline] = await actionsAt(5, 2);
    assert.equal(inline?.title, "Inline macro 'isAppl'");
    const inlined = applyEdits(PROGRAM, inline!.edit!.changes![uri]!);
    assert.match(inlined, /\ntxn TypeEnum; int 6; ==\n&&/);
    const before = await s.request<{ hex: string }>('tealworks/assembled', { uri });
    for (const text of [renamed, inlined]) {
      const { uri: u } = await s.open(text);
      assert.equal((await s.request<{ hex: string }>('tealworks/assembled', { uri: u })).hex, before.hex, 'same bytes');
    }
  });

  it('completes right after an edit from the text alone, keeping the analysed mode', async () => {
    // The mode shows only through a macro, which the text-only sniff cannot see.
    const text = '#pragma version 8\n#define get app_global_get\nbyte "k"\nget\n\n';
    const { uri: u } = await s.open(text);
    await s.client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: u, version: 2 },
      contentChanges: [{ range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: '#define two int 2\n' }],
    });
    const items = await s.request<{ label: string }[]>('textDocument/completion', s.at(u, { line: 5, character: 0 }));
    const names = new Set(items.map((i) => i.label));
    assert.ok(names.has('two'), 'the macro typed a moment ago');
    assert.ok(names.has('app_global_put') && !names.has('arg'), 'still filtered as an application');
  });

  it('gives signature help for immediates and stack arguments', async () => {
    const { uri: u } = await s.open('#pragma version 8\napp_global_get_ex \ngtxn 0 \nint \n');
    const help = (line: number, character: number) => s.request<SignatureHelp | null>('textDocument/signatureHelp', s.at(u, { line, character }));
    const ex = (await help(1, 18))!;
    assert.equal(ex.signatures[0]!.label, 'app_global_get_ex  A: uint64, B: stateKey → X: any, Y: bool');
    assert.equal(ex.activeParameter, 0);
    const params = ex.signatures[0]!.parameters!.map((p) => ex.signatures[0]!.label.slice(...(p.label as [number, number])));
    assert.deepEqual(params, ['A: uint64', 'B: stateKey']);
    const g = (await help(2, 7))!;
    assert.equal(g.signatures[0]!.label, 'gtxn T F  → X: any');
    assert.equal(g.activeParameter, 1, 'second immediate');
    assert.match(JSON.stringify(g.signatures[0]!.documentation), /Introduced/);
    assert.equal((await help(3, 4))!.signatures[0]!.label, 'int value  → uint64');
  });

  it('shows the expanded program, the assembled bytes and maps a pc to its source', async () => {
    const { text } = await s.request<{ text: string }>('tealworks/expanded', { uri });
    assert.ok(!/isAppl/.test(text));
    assert.match(text, /\n {4}txn OnCompletion\n {4}int 1\n {4}==\n {4}txn TypeEnum\n {4}int 6\n {4}==\n {4}&&\n/);
    const { uri: e } = await s.open(text);
    const original = await s.request<{ hex: string; disassembly: string; size: number; pages: number }>('tealworks/assembled', { uri });
    assert.equal((await s.request<{ hex: string }>('tealworks/assembled', { uri: e })).hex, original.hex, 'expanded text assembles to the same bytes');
    assert.equal(original.hex, '0820020106311922123110231210311023124442000022438102');
    assert.equal(original.size, 26);
    assert.match(original.disassembly, /^#pragma version 8\nintcblock 1 6\ntxn OnCompletion\n/);
    const fromMacro = await s.request<{
      location: { range: { start: { line: number } } };
      definition?: { range: { start: { line: number; character: number } } };
      pc: number;
    }>('tealworks/pcLocation', { uri, pc: 11 });
    assert.equal(fromMacro.location.range.start.line, 5, 'the macro use');
    assert.deepEqual(fromMacro.definition?.range.start, { line: 1, character: 29 }, 'the int inside #define');
    const mid = await s.request<{ pc: number; location: { range: { start: { line: number } } } }>('tealworks/pcLocation', { uri, pc: 6 });
    assert.deepEqual([mid.pc, mid.location.range.start.line], [5, 2], 'a pc inside an instruction maps to that instruction');
    const { uri: broken } = await s.open('#pragma version 8\nfrobnicate\n');
    assert.deepEqual(await s.request('tealworks/assembled', { uri: broken }), { errors: 1 });
  });
});
