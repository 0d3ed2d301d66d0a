// The editor commands backed by the language server's custom requests: show the macro-expanded
// program, show the assembled bytes with a disassembly, and jump to the source of a pc.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';

import { assembledRequest, expandedRequest, pcLocationRequest, type PcLocation } from '../../server/src/protocol.js';

function activeTeal(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId === 'teal') return editor;
  void vscode.window.showWarningMessage('Open a TEAL file first.');
  return undefined;
}

function toRange(r: PcLocation['location']['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

/**
 * Read-only virtual documents for the expanded and assembled views: they open without a dirty
 * Untitled buffer, close without a save prompt, and re-running the command refreshes them in place.
 */
export const VIEW_SCHEME = 'tealworks-view';

class ViewDocuments implements vscode.TextDocumentContentProvider {
  readonly #texts = new Map<string, string>();
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#texts.get(uri.toString()) ?? '// This view is gone: run the command again.\n';
  }

  async show(source: vscode.Uri, kind: 'expanded' | 'assembled', text: string): Promise<void> {
    const name = source.path.split('/').pop() ?? 'program.teal';
    const uri = vscode.Uri.from({ scheme: VIEW_SCHEME, path: `/${name.replace(/\.teal$/, '')} (${kind}).teal`, query: source.toString() });
    this.#texts.set(uri.toString(), text);
    this.#changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'teal') await vscode.languages.setTextDocumentLanguage(doc, 'teal');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
}

export function registerCommands(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  const views = new ViewDocuments();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, views));
  context.subscriptions.push(
    vscode.commands.registerCommand('tealworks.showExpanded', async () => {
      const editor = activeTeal();
      const c = client();
      if (!editor || !c) return;
      const result = await c.sendRequest(expandedRequest, { uri: editor.document.uri.toString() });
      if (!result) return;
      await views.show(editor.document.uri, 'expanded', result.text);
    }),
    vscode.commands.registerCommand('tealworks.showAssembled', async () => {
      const editor = activeTeal();
      const c = client();
      if (!editor || !c) return;
      const result = await c.sendRequest(assembledRequest, { uri: editor.document.uri.toString() });
      if (!result) return;
      if (!result.hex) {
        void vscode.window.showErrorMessage(`The program does not assemble (${result.errors} ${result.errors === 1 ? 'error' : 'errors'}).`);
        return;
      }
      const hexLines = result.hex.match(/.{1,64}/g) ?? [];
      const content = [
        `// ${result.size} bytes, ${result.pages} ${result.pages === 1 ? 'page' : 'pages'} of 2048`,
        ...hexLines.map((l) => `// ${l}`),
        '',
        result.disassembly ?? '',
      ].join('\n');
      await views.show(editor.document.uri, 'assembled', content);
    }),
    vscode.commands.registerCommand('tealworks.goToPc', async (pcArg?: number) => {
      const editor = activeTeal();
      const c = client();
      if (!editor || !c) return;
      let pc = typeof pcArg === 'number' ? pcArg : undefined;
      if (pc === undefined) {
        const input = await vscode.window.showInputBox({
          prompt: 'Program counter (decimal or 0x hex)',
          validateInput: (v) => (/^(0x[0-9a-f]+|\d+)$/i.test(v.trim()) ? undefined : 'Enter a number'),
        });
        if (input === undefined) return;
        pc = Number(input.trim());
      }
      const found = await c.sendRequest(pcLocationRequest, { uri: editor.document.uri.toString(), pc });
      if (!found) {
        void vscode.window.showWarningMessage(`No instruction at pc ${pc} (does the program assemble?).`);
        return;
      }
      const range = toRange(found.location.range);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }),
  );
}
