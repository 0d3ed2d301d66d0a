import assert from 'node:assert/strict';
import { startSession, type Session } from './session.js';

// Broken and odd inputs: every analysis feature must answer (possibly with nothing), never fail.
const SAMPLES = [
  '',
  '\n\n',
  '#define',
  '#define x',
  ';;;\n; #define y 1',
  'b',
  'bnz nowhere; b; callsub',
  'byte "unterminated',
  '#pragma version 99\nint 1',
  '#define a a\n#define b c\n#define c b\na\nb',
  'x: y: z:\nb x\n#define x 1',
  '#pragma version 8\r\nbyte "😀"; txn Sender // é\r\nlabel😀:\r\nb label😀\r\n',
  '#pragma version 10\n#define m1 m2 m2\n#define m2 int 1; pop\nm1 m1\nswitch a b\nmatch\na:\nb:\nproto 1 1\nframe_dig -1\nretsub\n',
  '  \t int\t1  ;  ;  pop   // trailing   \n\t\t// only comment\n',
];

describe('server: analysis features on broken input (real server process)', function () {
  this.timeout(30_000);
  let s: Session;
  before(async () => {
    s = await startSession({ initializationOptions: { inlayHints: { pc: true } } });
  });
  after(async () => s?.stop());

  it('answers every request at every token position without an error', async () => {
    for (const text of SAMPLES) {
      const { uri } = await s.open(text);
      const doc = { textDocument: { uri } };
      const lines = text.split('\n');
      const whole = { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } };
      await s.request('textDocument/documentSymbol', doc);
      await s.request('textDocument/foldingRange', doc);
      await s.request('textDocument/semanticTokens/full', doc);
      await s.request('textDocument/semanticTokens/range', { ...doc, range: whole });
      await s.request('textDocument/formatting', { ...doc, options: { tabSize: 4, insertSpaces: true } });
      await s.request('textDocument/inlayHint', { ...doc, range: whole });
      await s.request('textDocument/codeLens', doc);
      await s.request('tealworks/expanded', { uri });
      await s.request('tealworks/assembled', { uri });
      await s.request('tealworks/pcLocation', { uri, pc: 3 });
      await s.request('workspace/symbol', { query: 'a' });
      for (let line = 0; line < lines.length; line++) {
        for (let character = 0; character <= lines[line]!.length; character += 2) {
          const at = s.at(uri, { line, character });
          await s.request('textDocument/definition', at);
          await s.request('textDocument/references', { ...at, context: { includeDeclaration: true } });
          await s.request('textDocument/documentHighlight', at);
          await s.request('textDocument/signatureHelp', at);
          await s.request('textDocument/selectionRange', { ...doc, positions: [{ line, character }] });
          await s.request('textDocument/codeAction', { ...doc, range: { start: { line, character }, end: { line, character } }, context: { diagnostics: [] } });
          try {
            await s.request('textDocument/prepareRename', at);
            await s.request('textDocument/rename', { ...at, newName: 'fresh_name' });
          } catch (e) {
            assert.match((e as Error).message, /Only labels and macros|already exists|Invalid/, JSON.stringify(text));
          }
        }
      }
    }
  });
});
