// Editor precision over a real server process (issue 30: E8 method lines, E19 broken pragma,
// E20 typed completion / signature help / macro hover, E22 stack heights past labels).
import assert from 'node:assert/strict';
import type { CodeAction, CompletionItem, CompletionList, Hover, InlayHint, SignatureHelp } from 'vscode-languageserver-protocol';
import { MAX_AVM_VERSION } from '../../sdk/src/teal/spec/versions.js';
import { applyEdits, startSession, type Session } from './session.js';

const BODY = ['txn ApplicationID', 'bz create', 'txn OnCompletion', 'int NoOp', '==', 'assert', 'txna ApplicationArgs 0', 'pop', 'byte "k"', 'app_global_get', 'log', 'create:', 'int 1', 'return', ''].join('\n');

describe('server: editor precision (issue 30, real server process)', function () {
  let s: Session;
  before(async () => {
    s = await startSession({ initializationOptions: { inlayHints: { stackDepth: true } } });
  });
  after(async () => s?.stop());

  describe('E19: a broken #pragma line', () => {
    for (const line of ['#pragma', '#pragma version', '#pragma version x', '#pragma versio 10', '#pragma version 99']) {
      it(`"${line}" gives one diagnostic and checks the rest as the latest version`, async () => {
        const text = `${line}\n${BODY}`;
        const { uri, diagnostics } = await s.open(text);
        assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.message).join('\n'));
        const d = diagnostics[0]!;
        assert.equal(d.range.start.line, 0);
        assert.match(d.message, new RegExp(`write \`#pragma version ${MAX_AVM_VERSION}\``));
        const actions = await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
        const fix = actions.find((a) => a.isPreferred);
        assert.equal(fix?.title, `Set #pragma version ${MAX_AVM_VERSION} (the latest AVM version)`);
        const fixed = applyEdits(text, fix!.edit!.changes![uri]!);
        assert.equal(fixed.split('\n')[0], `#pragma version ${MAX_AVM_VERSION}`);
        const again = await s.open(fixed);
        assert.deepEqual(again.diagnostics, []);
      });
    }

    it('a program with no #pragma at all: raise to the op\'s version, or (preferred) the latest', async () => {
      const text = 'int 1\nint 2\nbox_create\n';
      const { uri, diagnostics } = await s.open(text);
      const d = diagnostics.find((x) => /introduced in v8/.test(x.message))!;
      const actions = await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
      assert.deepEqual(actions.map((a) => a.title), ['Raise #pragma version to 8', `Set #pragma version ${MAX_AVM_VERSION} (the latest AVM version)`]);
      assert.equal(actions.find((a) => a.isPreferred)?.title, `Set #pragma version ${MAX_AVM_VERSION} (the latest AVM version)`);
      assert.match(applyEdits(text, actions[1]!.edit!.changes![uri]!), new RegExp(`^#pragma version ${MAX_AVM_VERSION}\\nint 1`));
    });
  });
});

export type { CompletionItem, CompletionList, Hover, InlayHint, SignatureHelp };
