// Coverage in the editor: covered and missed lines marked in the gutter (and the overview ruler)
// from the workspace's lcov files (`coverage/lcov.info`, or wherever `tealworks test --coverage
// --coverage-dir` wrote it), for TEAL files and for the `.py` / `.algo.ts` files the lcov names
// through Puya's source maps. The files are watched: a new coverage run repaints open editors.
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { coverageFor, coverageFromLcov, coverageSummary, gutterLines, lineHover, type CoverageByFile } from './coverageLines.js';

/** Where lcov files are looked for; `node_modules` is left out. */
export const LCOV_GLOB = '**/lcov.info';
const SHOWN_KEY = 'tealworks.coverage.shown';

/** The gutter decorations and their lcov watcher; `toggle` shows or hides them. */
export class CoverageGutter implements vscode.Disposable {
  readonly #covered: vscode.TextEditorDecorationType;
  readonly #missed: vscode.TextEditorDecorationType;
  readonly #status = vscode.window.createStatusBarItem('tealworks.coverage', vscode.StatusBarAlignment.Right, 90);
  readonly #disposables: vscode.Disposable[] = [];
  #coverage: CoverageByFile = new Map();
  #files: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #shown: boolean;

  constructor(
    extensionUri: vscode.Uri,
    private readonly state: vscode.Memento,
    private readonly log: (line: string) => void,
  ) {
    const icon = (name: string) => vscode.Uri.joinPath(extensionUri, 'extension/media', name);
    this.#covered = vscode.window.createTextEditorDecorationType({
      gutterIconPath: icon('coverage-covered.svg'),
      gutterIconSize: 'contain',
      overviewRulerColor: 'rgba(46, 160, 67, 0.8)',
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      isWholeLine: true,
      backgroundColor: 'rgba(46, 160, 67, 0.10)',
    });
    this.#missed = vscode.window.createTextEditorDecorationType({
      gutterIconPath: icon('coverage-missed.svg'),
      gutterIconSize: 'contain',
      overviewRulerColor: 'rgba(218, 54, 51, 0.8)',
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      isWholeLine: true,
      backgroundColor: 'rgba(218, 54, 51, 0.12)',
    });
    this.#shown = state.get<boolean>(SHOWN_KEY, true);
    this.#status.name = 'Tealworks coverage';
    this.#status.command = 'tealworks.toggleCoverage';
    const watcher = vscode.workspace.createFileSystemWatcher(LCOV_GLOB);
    const reload = () => this.#scheduleReload();
    this.#disposables.push(
      this.#covered,
      this.#missed,
      this.#status,
      watcher,
      watcher.onDidCreate(reload),
      watcher.onDidChange(reload),
      watcher.onDidDelete(reload),
      vscode.window.onDidChangeVisibleTextEditors(() => this.paint()),
      vscode.window.onDidChangeActiveTextEditor(() => this.paint()),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
    );
    void this.reload();
  }

  /** Whether the gutter shows coverage now. */
  get shown(): boolean {
    return this.#shown;
  }

  /** The lcov files the coverage was read from (absolute paths). */
  get files(): readonly string[] {
    return this.#files;
  }

  #scheduleReload(): void {
    // A coverage run writes the file in one go, but the watcher may fire create and change.
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.reload();
    }, 200);
  }

  /** Reads every lcov file in the workspace again and repaints the visible editors. */
  async reload(): Promise<void> {
    try {
      const uris = await vscode.workspace.findFiles(LCOV_GLOB, '**/node_modules/**', 50);
      const inputs = [];
      for (const uri of uris) {
        try {
          inputs.push({ path: uri.fsPath, text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) });
        } catch (e) {
          this.log(`coverage: cannot read ${uri.fsPath}: ${(e as Error).message}`);
        }
      }
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
      this.#coverage = coverageFromLcov(inputs, folders, existsSync);
      this.#files = inputs.map((i) => i.path);
      if (inputs.length)
        this.log(
          `coverage: read ${inputs.map((i) => vscode.workspace.asRelativePath(i.path, false)).join(', ')} (${this.#coverage.size} source file${this.#coverage.size === 1 ? '' : 's'})`,
        );
    } catch (e) {
      this.log(`coverage: ${(e as Error).message}`);
    }
    this.paint();
  }

  /** Shows or hides the coverage (remembered per workspace); returns whether it is shown now. */
  async toggle(): Promise<boolean> {
    this.#shown = !this.#shown;
    await this.state.update(SHOWN_KEY, this.#shown);
    if (this.#shown) await this.reload();
    else this.paint();
    return this.#shown;
  }

  /** Paints (or clears) the decorations of every visible editor and the status bar item. */
  paint(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const hits = this.#shown && editor.document.uri.scheme === 'file' ? coverageFor(this.#coverage, editor.document.uri.fsPath) : undefined;
      if (!hits) {
        editor.setDecorations(this.#covered, []);
        editor.setDecorations(this.#missed, []);
        continue;
      }
      const { covered, missed } = gutterLines(hits, editor.document.lineCount);
      const ranges = (lines: number[]) => lines.map((l) => ({ range: new vscode.Range(l, 0, l, 0), hoverMessage: lineHover(hits.get(l + 1) ?? 0) }));
      editor.setDecorations(this.#covered, ranges(covered));
      editor.setDecorations(this.#missed, ranges(missed));
    }
    const active = vscode.window.activeTextEditor?.document;
    const hits = this.#shown && active?.uri.scheme === 'file' ? coverageFor(this.#coverage, active.uri.fsPath) : undefined;
    if (hits) {
      this.#status.text = `$(shield) ${coverageSummary(hits)}`;
      this.#status.tooltip = `From ${this.#files.map((f) => vscode.workspace.asRelativePath(f, false)).join(', ')}. Click to hide coverage.`;
      this.#status.show();
    } else this.#status.hide();
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    for (const d of this.#disposables) d.dispose();
  }
}
