// Editor precision over a real server process (issue 30: E8 method lines, E19 broken pragma,
// E20 typed completion / signature help / macro hover, E22 stack heights past labels).
import assert from 'node:assert/strict';
import type { CodeAction, CompletionItem, CompletionList, Hover, InlayHint, SignatureHelp } from 'vscode-languageserver-protocol';
import algosdk from 'algosdk';
import { MAX_AVM_VERSION } from '../../sdk/src/teal/spec/versions.js';
import { applyEdits, startSession, type Session } from './session.js';

const BODY = [
  'txn ApplicationID',
  'bz create',
  'txn OnCompletion',
  'int NoOp',
  '==',
  'assert',
  'txna ApplicationArgs 0',
  'pop',
  'byte "k"',
  'app_global_get',
  'log',
  'create:',
  'int 1',
  'return',
  '',
].join('\n');

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

    it("a program with no #pragma at all: raise to the op's version, or (preferred) the latest", async () => {
      const text = 'int 1\nint 2\nbox_create\n';
      const { uri, diagnostics } = await s.open(text);
      const d = diagnostics.find((x) => /introduced in v8/.test(x.message))!;
      const actions = await s.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
      assert.deepEqual(
        actions.map((a) => a.title),
        ['Raise #pragma version to 8', `Set #pragma version ${MAX_AVM_VERSION} (the latest AVM version)`],
      );
      assert.equal(actions.find((a) => a.isPreferred)?.title, `Set #pragma version ${MAX_AVM_VERSION} (the latest AVM version)`);
      assert.match(applyEdits(text, actions[1]!.edit!.changes![uri]!), new RegExp(`^#pragma version ${MAX_AVM_VERSION}\\nint 1`));
    });
  });
  describe('E20: typed completion, signature help, macro hover', () => {
    const MACROS = [
      '#pragma version 10',
      '#define ONLY_OWNER txn Sender; byte "owner"; app_global_get; ==; assert', // 1
      '#define RETURN_PREFIX 0x151f7c75', // 2
      '#define COUNT "count"', // 3
      '#define LIMIT 100', // 4
      '#define WHO Sender', // 5
      '#define TO_DONE done', // 6
      '#define IS_CALL isAppl; ONLY_OWNER', // 7
      '#define isAppl txn TypeEnum; int appl; ==', // 8
      '#define APPL appl', // 9
      '', // 10
      'done:', // 11
      '', // 12
    ].join('\n');
    const labelsOf = (r: CompletionItem[] | CompletionList | null) => (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);
    async function completeAfter(prefix: string, before = '') {
      const text = `${MACROS}${before}${prefix}`;
      const { uri } = await s.open(text);
      const lines = text.split('\n');
      return labelsOf(await s.request('textDocument/completion', s.at(uri, { line: lines.length - 1, character: lines[lines.length - 1]!.length })));
    }
    const MACRO_NAMES = ['ONLY_OWNER', 'RETURN_PREFIX', 'COUNT', 'LIMIT', 'WHO', 'TO_DONE', 'IS_CALL', 'isAppl', 'APPL'];
    const macrosIn = (labels: string[]) => labels.filter((l) => MACRO_NAMES.includes(l)).sort();

    it('offers only macros whose expansion fits the place', async () => {
      assert.deepEqual(macrosIn(await completeAfter('int ')), ['APPL', 'LIMIT', 'RETURN_PREFIX']);
      assert.deepEqual(macrosIn(await completeAfter('pushint ')), ['LIMIT', 'RETURN_PREFIX']);
      assert.deepEqual(macrosIn(await completeAfter('byte ')), ['COUNT', 'RETURN_PREFIX']);
      assert.deepEqual(macrosIn(await completeAfter('txn ')), ['WHO']);
      assert.deepEqual(macrosIn(await completeAfter('b ')), ['TO_DONE']);
      assert.deepEqual(macrosIn(await completeAfter('load ')), ['LIMIT', 'RETURN_PREFIX']);
      assert.deepEqual(macrosIn(await completeAfter('')), ['IS_CALL', 'ONLY_OWNER', 'isAppl']);
    });

    it('after `txn TypeEnum`, `int` offers type names only; after `txn OnCompletion`, actions only', async () => {
      const types = await completeAfter('int ', 'txn TypeEnum\n');
      assert.ok(types.includes('appl') && types.includes('pay'));
      assert.ok(!types.includes('NoOp') && !types.includes('OptIn'));
      const actions = await completeAfter('int ', 'txn OnCompletion; ');
      assert.ok(actions.includes('NoOp') && actions.includes('DeleteApplication'));
      assert.ok(!actions.includes('appl') && !actions.includes('APPL'));
      const both = await completeAfter('int ');
      assert.ok(both.includes('appl') && both.includes('NoOp'));
    });

    it("txn fields are the op's own: txna offers array fields only", async () => {
      const txna = await completeAfter('txna ');
      assert.ok(txna.includes('ApplicationArgs') && txna.includes('Accounts'));
      assert.ok(!txna.includes('Sender') && !txna.includes('Amount'));
    });

    it('signature help shows the signature once (as its label, not again in the documentation)', async () => {
      const text = `${MACROS}app_global_get `;
      const { uri } = await s.open(text);
      const lines = text.split('\n');
      const help = await s.request<SignatureHelp>(
        'textDocument/signatureHelp',
        s.at(uri, { line: lines.length - 1, character: lines[lines.length - 1]!.length }),
      );
      const sig = help.signatures[0]!;
      assert.match(sig.label, /^app_global_get/);
      const doc = typeof sig.documentation === 'string' ? sig.documentation : (sig.documentation?.value ?? '');
      assert.match(doc, /global state/);
      assert.ok(!doc.includes('app_global_get  A'), doc);
      assert.ok(!doc.includes('```'), doc);
    });

    it('macro hover shows the expansion and the stack effect', async () => {
      const { uri } = await s.open(`${MACROS}IS_CALL\nreturn\nONLY_OWNER\n`);
      const hoverAt = async (line: number, character: number) =>
        ((await s.request<Hover>('textDocument/hover', s.at(uri, { line, character })))?.contents as { value: string }).value;
      const owner = await hoverAt(1, 10);
      assert.match(owner, /#define ONLY_OWNER txn Sender; byte "owner"; app_global_get; ==; assert/);
      assert.match(owner, /\*\*Stack:\*\* `nothing → nothing`/);
      const call = await hoverAt(7, 10);
      assert.match(call, /Expands to:\n```teal\ntxn TypeEnum\nint appl\n==\ntxn Sender\nbyte "owner"\napp_global_get\n==\nassert\n```/);
      assert.match(call, /`nothing → X: bool`/);
      const use = await hoverAt(14, 2);
      assert.match(use, /#define ONLY_OWNER/);
      assert.match(use, /Used 1 time outside other macros\./);
      assert.match(await hoverAt(2, 10), /Stands for `0x151f7c75`, a constant that reads as an integer after `int` and as bytes after `byte`/);
      assert.match(await hoverAt(3, 10), /a byte-string constant/);
    });
  });
  describe('E22: stack-height inlay hints past labels and branches', () => {
    const hintsOf = async (text: string) => {
      const { uri } = await s.open(text);
      const hints = await s.request<InlayHint[]>('textDocument/inlayHint', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } },
      });
      const out = new Map<number, string>();
      for (const h of hints) out.set(h.position.line, typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));
      return out;
    };

    it('continues after labels reached by branches, switch arms and subroutine calls', async () => {
      const text = [
        '#pragma version 10', // 0
        'txn ApplicationID', // 1
        'bz create', // 2
        'int 7', // 3
        'int 1', // 4
        'switch one two', // 5
        'int 0; b done', // 6
        'one:', // 7
        'int 2', // 8
        'b done', // 9
        'two:', // 10
        'int 2', // 11
        'callsub double', // 12
        'done:', // 13
        '+', // 14
        'return', // 15
        'create:', // 16
        'int 1', // 17
        'return', // 18
        'double:', // 19
        'proto 1 1', // 20
        'frame_dig -1', // 21
        'dup', // 22
        '+', // 23
        'retsub', // 24
        '',
      ].join('\n');
      const h = await hintsOf(text);
      assert.equal(h.get(5), 'stack 1');
      assert.equal(h.get(8), 'stack 2', 'a switch arm');
      assert.equal(h.get(11), 'stack 2');
      assert.equal(h.get(12), 'stack 2', 'after a call through its proto');
      assert.equal(h.get(6), undefined, 'no height after an unconditional branch');
      assert.equal(h.get(14), 'stack 1', 'after the label every path reaches with the same height');
      assert.equal(h.get(17), 'stack 1', 'after a label reached by bz');
    });

    it("says nothing where paths disagree, and uses the subroutine's retsub height without proto", async () => {
      const text = [
        '#pragma version 8',
        'int 1',
        'bnz two',
        'int 1',
        'two:',
        'int 3',
        'callsub push2',
        'pop',
        'int 1',
        'return',
        'push2:',
        'int 1',
        'int 2',
        'retsub',
        '',
      ].join('\n');
      const h = await hintsOf(text);
      assert.equal(h.get(5), undefined, 'heights 0 and 1 meet at two:');
      const straight = [
        '#pragma version 8',
        'int 1',
        'bnz two',
        'two:',
        'int 3',
        'callsub push2',
        'pop',
        'int 1',
        'return',
        'push2:',
        'int 1',
        'int 2',
        'retsub',
        '',
      ].join('\n');
      const g = await hintsOf(straight);
      assert.equal(g.get(4), 'stack 1');
      assert.equal(g.get(5), 'stack 3', 'callsub adds what its retsub leaves');
      assert.equal(g.get(6), 'stack 2');
    });
  });
  describe('E8: method lines', () => {
    it('hover on `method "…"` shows the selector and signature; an event prefix says so', async () => {
      const text = [
        '#pragma version 10',
        'txna ApplicationArgs 0',
        'method "add(uint64,uint64)uint64"',
        '==',
        'method "Added(uint64)"',
        'log',
        'int 1',
        '',
      ].join('\n');
      const { uri } = await s.open(text);
      const at = async (line: number, character: number) => s.request<Hover>('textDocument/hover', s.at(uri, { line, character }));
      const onString = await at(2, 12);
      const value = (onString.contents as { value: string }).value;
      const selector = Buffer.from(algosdk.ABIMethod.fromSignature('add(uint64,uint64)uint64').getSelector()).toString('hex');
      assert.match(value, /\*\*ARC-4 method\*\* `add`/);
      assert.ok(value.includes(`Selector \`0x${selector}\` = sha512_256(\`add(uint64,uint64)uint64\`)[0:4]`), value);
      assert.match(value, /Arguments: `uint64`, `uint64` · returns `uint64`/);
      assert.deepEqual(onString.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 33 } });
      const onKeyword = await at(2, 3);
      assert.equal((onKeyword.contents as { value: string }).value, value);
      assert.match(((await at(4, 12)).contents as { value: string }).value, /\*\*ARC-28 event\*\* `Added\(uint64\)`/);
    });
  });
});

export type { CompletionItem, CompletionList, Hover, InlayHint, SignatureHelp };
