// Seeded, bounded fuzzing of the language server over JSON-RPC: random edits of corpus programs
// (deletions, insertions of hostile fragments, duplicated lines, macro chains), each followed by a
// random mix of requests. Every request must answer (no JSON-RPC error) within the guard, and the
// server must still be running at the end. A failure reproduces from the printed seed.
import { settles } from '../helpers/hang.js';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ErrorCodes, ResponseError, type Position } from 'vscode-languageserver-protocol';
import { prng } from '../helpers/random.js';
import { applyEdits } from './session.js';
import { repoRoot, startClient, type TestClient } from './lspClient.js';
import { needShared } from '../helpers/shared.js';

const SEED = Number(process.env.TEALWORKS_FUZZ_SEED ?? 20261124);
const PROGRAMS = 10;
const EDITS_PER_PROGRAM = 30;

const FRAGMENTS = [
  '#define a b b\n#define b c c\n#define c d d\n#define d int 1; pop\n',
  '#define z z\n',
  ' ; ; ',
  'b nowhere\n',
  'callsub',
  '"unterminated',
  '// comment ',
  '#pragma version 99\n',
  '#pragma version 4\n',
  'label:\n',
  'byte 0x',
  'int 18446744073709551616\n',
  'method "f(uint64)void"\n',
  'switch a b c\n',
  '😀é\t\r\n',
  'txn ',
  'proto 1 1\nframe_dig -1\nretsub\n',
  '\n'.repeat(5),
];

function corpusPrograms(): string[] {
  const root = resolve(repoRoot, '../shared/data/teal-corpus');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.teal')) out.push(readFileSync(p, 'utf8'));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

function positionAt(text: string, offset: number): Position {
  let line = 0;
  let last = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i + 1;
    }
  }
  return { line, character: offset - last };
}

describe(`server: seeded fuzzing over JSON-RPC (seed ${SEED})`, function () {
  this.timeout(240_000);
  let client: TestClient;
  before(async function () {
    client = await startClient({ initializationOptions: { diagnosticsDelay: 0, inlayHints: { pc: true } } });
  });
  after(async () => client?.stop());

  it(`${PROGRAMS} corpus programs × ${EDITS_PER_PROGRAM} random edits: every request answers within the guard`, async function () {
    const corpus = corpusPrograms();
    needShared(this, resolve(repoRoot, '../shared/data/teal-corpus'));
    const rnd = prng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    let requests = 0;
    for (let p = 0; p < PROGRAMS; p++) {
      let text = pick(corpus);
      const uri = `file:///fuzz/p${p}.teal`;
      let version = 1;
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version, text } });
      for (let e = 0; e < EDITS_PER_PROGRAM; e++) {
        const a = Math.floor(rnd() * (text.length + 1));
        const b = Math.min(text.length, a + Math.floor(rnd() * 40));
        let newText: string;
        switch (Math.floor(rnd() * 4)) {
          case 0:
            newText = '';
            break;
          case 1:
            newText = pick(FRAGMENTS);
            break;
          case 2: {
            const lines = text.split('\n');
            newText = pick(lines) + '\n';
            break;
          }
          default:
            newText = String.fromCharCode(...Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => 32 + Math.floor(rnd() * 95)));
        }
        const range = { start: positionAt(text, a), end: positionAt(text, b) };
        text = applyEdits(text, [{ range, newText }]);
        version++;
        const published = client.nextDiagnostics(uri, version);
        await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: newText }] });
        const lines = text.split('\n');
        const line = Math.floor(rnd() * lines.length);
        const position = { line, character: Math.floor(rnd() * ((lines[line]?.length ?? 0) + 1)) };
        const doc = { textDocument: { uri } };
        const all: [string, unknown][] = [
          ['textDocument/hover', { ...doc, position }],
          ['textDocument/completion', { ...doc, position }],
          ['textDocument/definition', { ...doc, position }],
          ['textDocument/references', { ...doc, position, context: { includeDeclaration: true } }],
          ['textDocument/documentSymbol', doc],
          ['textDocument/semanticTokens/full', doc],
          ['textDocument/codeLens', doc],
          ['textDocument/foldingRange', doc],
          ['textDocument/inlayHint', { ...doc, range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } } }],
          ['textDocument/signatureHelp', { ...doc, position }],
          ['textDocument/formatting', { ...doc, options: { tabSize: 4, insertSpaces: true } }],
          ['textDocument/prepareRename', { ...doc, position }],
          ['workspace/symbol', { query: 'a' }],
        ];
        for (let r = 0; r < 3; r++) {
          const [method, params] = pick(all);
          requests++;
          try {
            await settles(`${method} after edit ${e} of program ${p} (seed ${SEED})`, client.connection.sendRequest(method, params));
          } catch (err) {
            // A refusal the protocol provides for (rename of something that is not a symbol) is an
            // answer; an internal error or a missing answer is not.
            if (!(err instanceof ResponseError && method === 'textDocument/prepareRename' && err.code === ErrorCodes.InvalidRequest)) throw err;
          }
        }
        const d = await settles(`diagnostics of version ${version} (seed ${SEED})`, published);
        assert.equal(d.version, version);
      }
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
    assert.equal(client.child.exitCode, null, 'the server is still running');
    assert.ok(requests >= PROGRAMS * EDITS_PER_PROGRAM * 3);
  });
});
