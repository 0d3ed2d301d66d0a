import assert from 'node:assert/strict';
import type { CompletionItem, Diagnostic, FoldingRange, Hover, SemanticTokens } from 'vscode-languageserver-protocol';
import { startClient, type TestClient } from './lspClient.js';
import { semanticTokensLegend } from '../../server/src/features/semanticTokens.js';
import { MAX_AVM_VERSION } from '../../sdk/src/teal/spec/versions.js';

let counter = 0;

describe('server: LSP over stdio (real server process)', function () {
  let client: TestClient;

  before(async function () {
    client = await startClient();
  });

  after(async function () {
    await client?.stop();
  });

  let lastDiagnostics: Diagnostic[] = [];

  async function open(text: string): Promise<string> {
    const uri = `file:///work/doc${++counter}.teal`;
    const diags = client.nextDiagnostics(uri, 1);
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
    lastDiagnostics = (await diags).diagnostics;
    return uri;
  }

  async function complete(uri: string, line: number, character: number): Promise<CompletionItem[]> {
    const r = await client.connection.sendRequest<CompletionItem[] | { items: CompletionItem[] }>('textDocument/completion', {
      textDocument: { uri },
      position: { line, character },
    });
    return Array.isArray(r) ? r : r.items;
  }

  const labels = (items: CompletionItem[]) => new Set(items.map((i) => i.label));

  it('initializes with incremental sync and the implemented providers', () => {
    const caps = client.initializeResult.capabilities;
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2 });
    assert.equal(caps.hoverProvider, true);
    assert.equal(caps.foldingRangeProvider, true);
    assert.deepEqual(caps.completionProvider?.triggerCharacters, [' ', '#']);
    assert.deepEqual(caps.semanticTokensProvider?.legend, semanticTokensLegend);
    assert.equal(client.initializeResult.serverInfo?.name, 'tealworks-teal');
  });

  it('completes opcodes available at the document version only', async () => {
    const v1 = await open('int 1\n\n');
    const at1 = labels(await complete(v1, 1, 0));
    assert.ok(at1.has('sha256') && at1.has('txn') && at1.has('int'), 'v1 ops and pseudo-ops');
    assert.ok(!at1.has('callsub') && !at1.has('proto') && !at1.has('box_create'), 'no later ops under v1');
    const v8 = await open('#pragma version 8\n\n');
    const at8 = labels(await complete(v8, 1, 0));
    assert.ok(at8.has('callsub') && at8.has('proto') && at8.has('box_create') && at8.has('switch'));
    assert.ok(!at8.has('box_splice'), 'box_splice arrives in v10');
  });

  it('offers immediates as snippet placeholders, with field choices', async () => {
    const uri = await open('#pragma version 10\n\n');
    const items = await complete(uri, 1, 0);
    const gtxn = items.find((i) => i.label === 'gtxn')!;
    assert.equal(gtxn.insertTextFormat, 2);
    assert.match(gtxn.insertText!, /^gtxn \$\{1:T\} \$\{2\|Sender,Fee,/);
    const bnz = items.find((i) => i.label === 'bnz')!;
    assert.equal(bnz.insertText, 'bnz ${1:label}');
    const add = items.find((i) => i.label === '+')!;
    assert.equal(add.insertText, undefined, 'no immediates, plain insert');
  });

  it('completes field names by immediate kind and version', async () => {
    const uri = await open('#pragma version 2\ntxn \nglobal \nasset_params_get \n');
    const txn = labels(await complete(uri, 1, 4));
    assert.ok(txn.has('Sender') && txn.has('ApplicationID') && txn.has('OnCompletion'));
    assert.ok(!txn.has('Nonparticipation'), 'Nonparticipation is a v5 field');
    const global = labels(await complete(uri, 2, 7));
    assert.ok(global.has('MinTxnFee') && global.has('LatestTimestamp'));
    assert.ok(!global.has('CurrentApplicationAddress'), 'a v5 field');
    const asset = labels(await complete(uri, 3, 17));
    assert.ok(asset.has('AssetTotal') && !asset.has('Sender'));
  });

  it('completes named constants after int and labels after branches', async () => {
    const uri = await open('#pragma version 8\nint \nb \nstart:\nend: int 1\n');
    const ints = labels(await complete(uri, 1, 4));
    for (const n of ['pay', 'axfer', 'appl', 'NoOp', 'OptIn', 'DeleteApplication']) assert.ok(ints.has(n), n);
    assert.ok(!ints.has('sha256'));
    const targets = labels(await complete(uri, 2, 2));
    assert.deepEqual([...targets].sort(), ['end', 'start']);
  });

  it('completes inside #define bodies like code', async () => {
    const uri = await open('#pragma version 8\n#define getSender txn \n#define two int 1; \n');
    const fields = labels(await complete(uri, 1, '#define getSender txn '.length));
    assert.ok(fields.has('Sender') && !fields.has('sha256'));
    const ops = labels(await complete(uri, 2, '#define two int 1; '.length));
    assert.ok(ops.has('sha256') && ops.has('int') && !ops.has('#define'));
  });

  it('completes directives and pragma keys', async () => {
    const uri = await open('#\n#pragma \n#pragma version \n');
    assert.deepEqual([...labels(await complete(uri, 0, 1))].sort(), ['#define', '#pragma']);
    assert.deepEqual([...labels(await complete(uri, 1, 8))].sort(), ['autosalt', 'typetrack', 'version']);
    const versions = labels(await complete(uri, 2, 16));
    assert.ok(versions.has('1') && versions.has(String(MAX_AVM_VERSION)) && !versions.has(String(MAX_AVM_VERSION + 1)));
  });

  it('filters by mode once the program reveals it', async () => {
    const sig = await open('#pragma version 8\narg 0\n\n');
    const inSig = labels(await complete(sig, 2, 0));
    assert.ok(inSig.has('arg') && !inSig.has('app_global_get') && !inSig.has('itxn_begin'));
    const app = await open('#pragma version 8\nbyte "k"\napp_global_get\n\n');
    const inApp = labels(await complete(app, 3, 0));
    assert.ok(inApp.has('app_global_get') && !inApp.has('arg'));
    const sigGlobal = await open('#pragma version 8\narg 0\nglobal \n');
    assert.ok(!labels(await complete(sigGlobal, 2, 7)).has('CurrentApplicationID'), 'app-only global field hidden in logicsig');
  });

  it('completes macros in opcode position and no opcodes in comments or strings', async () => {
    const uri = await open('#define checkSender txn Sender; global CreatorAddress; ==\n\n// sha\nbyte "sh\n');
    const items = await complete(uri, 1, 0);
    assert.ok(labels(items).has('checkSender'));
    assert.deepEqual(await complete(uri, 2, 6), []);
    assert.deepEqual(await complete(uri, 3, 8), []);
  });

  it('applies incremental changes (version bump makes new ops appear)', async () => {
    const uri = await open('#pragma version 2\n\n');
    assert.ok(!labels(await complete(uri, 1, 0)).has('proto'));
    const diags = client.nextDiagnostics(uri, 2);
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 16 }, end: { line: 0, character: 17 } }, text: '8' }],
    });
    assert.ok(labels(await complete(uri, 1, 0)).has('proto'));
    await diags;
  });

  it('handles CRLF documents and UTF-16 columns', async () => {
    const uri = await open('#pragma version 8\r\nbyte "😀"; txn \r\n');
    const fields = labels(await complete(uri, 1, 'byte "😀"; txn '.length));
    assert.ok(fields.has('Sender'));
    const hover = await client.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 12 } });
    assert.ok(hover);
    assert.deepEqual(hover.range, { start: { line: 1, character: 11 }, end: { line: 1, character: 14 } });
  });

  it('hovers opcodes, fields, constants, directives and macros', async () => {
    const uri = await open('#pragma version 8\n#define two int 2\ntwo\ntxn Fee\nsha256\nint pay\nbox_splice\n');
    const hoverAt = (line: number, character: number) =>
      client.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
    const macro = await hoverAt(2, 1);
    assert.match(JSON.stringify(macro?.contents), /#define two int 2/);
    const field = await hoverAt(3, 5);
    assert.match(JSON.stringify(field?.contents), /uint64/);
    const op = await hoverAt(4, 2);
    assert.match(JSON.stringify(op?.contents), /sha256/);
    assert.match(JSON.stringify(op?.contents), /Introduced:\*\* v1/, 'rendered by the SDK docs');
    const constant = await hoverAt(5, 5);
    assert.match(JSON.stringify(constant?.contents), /`pay`\*\* = 1/);
    const later = await hoverAt(6, 3);
    assert.match(JSON.stringify(later?.contents), /Not available at v8: introduced in v10/);
    const pragma = await hoverAt(0, 9);
    assert.match(JSON.stringify(pragma?.contents), /#pragma version N/);
    assert.equal(await hoverAt(1, 20), null, 'past the end of a line');
  });

  it('returns semantic tokens for macros, labels, opcodes and fields', async () => {
    const uri = await open('#define inc int 1; +\nloop: inc\nb loop\ntxn Fee\n');
    const tokens = await client.connection.sendRequest<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri } });
    const decoded: { line: number; start: number; length: number; type: string }[] = [];
    let line = 0;
    let start = 0;
    for (let i = 0; i < tokens.data.length; i += 5) {
      const [dl, ds, len, type] = tokens.data.slice(i, i + 4) as [number, number, number, number];
      line += dl;
      start = dl === 0 ? start + ds : ds;
      decoded.push({ line, start, length: len, type: semanticTokensLegend.tokenTypes[type]! });
    }
    const find = (l: number, s: number) => decoded.find((t) => t.line === l && t.start === s)?.type;
    assert.equal(find(0, 8), 'macro', '#define name');
    assert.equal(find(1, 0), 'label', 'label definition');
    assert.equal(find(1, 6), 'macro', 'macro use');
    assert.equal(find(2, 0), 'function', 'opcode');
    assert.equal(find(2, 2), 'label', 'branch target');
    assert.equal(find(3, 4), 'enumMember', 'field');
  });

  it('folds comment blocks', async () => {
    const uri = await open('// a\n// b\n// c\nint 1\n// lone\nint 2\n  // x\n  // y\n');
    const ranges = await client.connection.sendRequest<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(
      ranges.map((r) => [r.startLine, r.endLine, r.kind]),
      [
        [0, 2, 'comment'],
        [6, 7, 'comment'],
      ],
    );
  });

  it('answers the document-info request used by the status bar', async () => {
    const uri = await open('#pragma version 9\nbyte "k"\napp_global_get\n');
    const info = await client.connection.sendRequest<{ avmVersion: number; mode?: string; versionDeclared: boolean }>('tealworks/documentInfo', { uri });
    assert.equal(info.avmVersion, 9);
    assert.equal(info.versionDeclared, true);
    assert.equal(info.mode, 'application');
  });

  it('publishes assembler errors from inside a macro at the use site, pointing at the #define', async () => {
    const uri = await open('#pragma version 10\n#define checkArg txna ApplicationArgs 0; frobnicate; ==\nbyte "x"\ncheckArg\nreturn\n');
    const unknown = lastDiagnostics.find((d) => d.message === 'unknown opcode: frobnicate');
    assert.ok(unknown, JSON.stringify(lastDiagnostics));
    assert.equal(unknown.severity, 1);
    assert.equal(unknown.source, 'tealworks');
    assert.deepEqual(unknown.range, { start: { line: 3, character: 0 }, end: { line: 3, character: 8 } });
    assert.deepEqual(unknown.relatedInformation?.[0]?.location, { uri, range: { start: { line: 1, character: 41 }, end: { line: 1, character: 51 } } });
    assert.match(unknown.relatedInformation![0]!.message, /checkArg/);
  });

  it('reports diagnostic columns in UTF-16 on CRLF documents and clears them after a fix', async () => {
    const uri = await open('#pragma version 8\r\nbyte "😀é"; frobnicate\r\nreturn\r\n');
    const unknown = lastDiagnostics.find((d) => d.code === 'unknown-opcode');
    assert.ok(unknown, JSON.stringify(lastDiagnostics));
    const start = 'byte "😀é"; '.length;
    assert.deepEqual(unknown.range, { start: { line: 1, character: start }, end: { line: 1, character: start + 'frobnicate'.length } });
    const fixed = client.nextDiagnostics(uri, 2);
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: start }, end: { line: 1, character: start + 'frobnicate'.length } }, text: 'len' }],
    });
    assert.deepEqual((await fixed).diagnostics, []);
    const info = await client.connection.sendRequest<{ size?: number; errors: number }>('tealworks/documentInfo', { uri });
    assert.equal(info.errors, 0);
    // version byte + pushbytes 0x80 len "😀é"(6 bytes) + len + return
    assert.equal(info.size, 1 + 2 + 6 + 1 + 1);
  });

  it('applies a default mode from settings when the source does not reveal one', async () => {
    const c = await startClient({ initializationOptions: { defaultMode: 'logicsig' } });
    try {
      const uri = 'file:///mode.teal';
      const opened = c.nextDiagnostics(uri, 1);
      await c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text: '#pragma version 8\n\n' } });
      await opened;
      const ask = async () =>
        new Set(
          (await c.connection.sendRequest<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 0 } })).map(
            (i) => i.label,
          ),
        );
      const sig = await ask();
      assert.ok(sig.has('arg') && !sig.has('app_global_get'));
      const republished = c.nextDiagnostics(uri, 1);
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { tealworks: { defaultMode: 'application' } } });
      await republished;
      const app = await ask();
      assert.ok(app.has('app_global_get') && !app.has('arg'));
    } finally {
      await c.stop();
    }
  });
});
