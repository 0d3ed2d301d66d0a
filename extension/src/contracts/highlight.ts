// Marks the instruction a simulation failed at: an error diagnostic and a line decoration at the
// use site (a macro's use, not its #define), cleared on the next simulation or when the file changes.
import * as vscode from 'vscode';

export class FailureHighlight implements vscode.Disposable {
  readonly #diagnostics = vscode.languages.createDiagnosticCollection('tealworks-simulate');
  readonly #decoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('inputValidation.errorBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorError.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  #current: { uri: vscode.Uri; line: number } | undefined;
  readonly #subs: vscode.Disposable[] = [];

  constructor() {
    this.#subs.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.#paint()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.#current && e.document.uri.toString() === this.#current.uri.toString() && e.contentChanges.length) this.clear();
      }),
    );
  }

  clear(): void {
    this.#current = undefined;
    this.#diagnostics.clear();
    this.#paint();
  }

  /** `line` and `column` are 1-based, as in the simulate report. */
  show(uri: vscode.Uri, line: number, column: number, message: string, definition?: { line: number; column: number }): void {
    this.#diagnostics.clear();
    const range = new vscode.Range(line - 1, Math.max(0, column - 1), line - 1, 10_000);
    const d = new vscode.Diagnostic(range, `Simulation failed here: ${message}`, vscode.DiagnosticSeverity.Error);
    d.source = 'tealworks simulate';
    if (definition)
      d.relatedInformation = [
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(uri, new vscode.Position(definition.line - 1, definition.column - 1)),
          'the failing instruction comes from this macro definition',
        ),
      ];
    this.#diagnostics.set(uri, [d]);
    this.#current = { uri, line: line - 1 };
    this.#paint();
  }

  #paint(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const on = this.#current && editor.document.uri.toString() === this.#current.uri.toString();
      editor.setDecorations(this.#decoration, on ? [new vscode.Range(this.#current!.line, 0, this.#current!.line, 0)] : []);
    }
  }

  dispose(): void {
    this.#diagnostics.dispose();
    this.#decoration.dispose();
    for (const s of this.#subs) s.dispose();
  }
}

/** Opens `uri` and selects the line (1-based), revealing it in the middle of the editor. */
export async function revealLine(uri: vscode.Uri, line: number, column = 1): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
  const pos = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenter);
}
