// The extension in a real desktop VS Code: diagnostics at the macro use site, hover docs,
// completion — through VS Code's own command API rather than the UI.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const stop = Date.now() + ms;
  while (Date.now() < stop) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function registerSuite(): void {
  describe('Tealworks extension (desktop VS Code)', () => {
    let doc: vscode.TextDocument;

    before(async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'the runner opens a workspace');
      doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'macro-error.teal'));
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'teal');
    });

    it('reports the macro error at the use site', async () => {
      const diags = await until(() => {
        const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.message.includes('frobnicate'));
        return d.length ? d : undefined;
      }, 'diagnostics');
      assert.equal(diags[0]!.range.start.line, 5);
      assert.equal(diags[0]!.relatedInformation?.[0]?.location.range.start.line, 1);
    });

    it('shows opcode docs on hover', async () => {
      const hovers = await until(async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(3, 2));
        return h.length ? h : undefined;
      }, 'hover');
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
      assert.match(text, /sha256/);
      assert.match(text, /Introduced/);
    });

    it('completes fields after txn', async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(7, 0), 'txn ');
      await vscode.workspace.applyEdit(edit);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(7, 4));
      assert.ok(list.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'ApplicationID'));
    });
  });
}
