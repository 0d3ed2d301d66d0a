// Runs a tealworks.yaml workflow with the SDK's engine: progress in a notification, every event in
// the "Tealworks Workflows" output channel, and the steps of the last run in the Workflow Results view.
import * as vscode from 'vscode';
import type { RunSummary, StepSummary } from '@tealworks/sdk/workflow';
import { workflowEventLine } from './workflowText.js';
import type { ContractSession } from './session.js';

/** Codicons (and theme colours) for step statuses in the tree; the output channel keeps its text marks. */
const STATUS_ICON: Record<string, [string, string?]> = {
  done: ['pass', 'testing.iconPassed'],
  cached: ['history'],
  simulated: ['beaker'],
  skipped: ['debug-step-over'],
  failed: ['error', 'testing.iconFailed'],
};

export class WorkflowResultsTree implements vscode.TreeDataProvider<StepSummary | string> {
  readonly #emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.#emitter.event;
  summary: RunSummary | undefined;

  set(summary: RunSummary): void {
    this.summary = summary;
    this.#emitter.fire(undefined);
  }

  getTreeItem(s: StepSummary | string): vscode.TreeItem {
    if (typeof s === 'string') return new vscode.TreeItem(s);
    const t = new vscode.TreeItem(`${s.id}${s.name ? ` — ${s.name}` : ''}`);
    const icon = STATUS_ICON[s.status];
    t.iconPath = icon ? new vscode.ThemeIcon(icon[0], icon[1] ? new vscode.ThemeColor(icon[1]) : undefined) : new vscode.ThemeIcon('circle-outline');
    t.description = `${s.status}${s.detail ? ` · ${s.detail}` : ''}`;
    t.tooltip = s.error ? s.error.message : s.detail;
    if (s.error?.position) {
      const p = s.error.position;
      t.command = {
        command: 'vscode.open',
        title: 'Show step',
        arguments: [
          vscode.Uri.file(p.file),
          { selection: new vscode.Range(Math.max(0, p.line - 1), Math.max(0, p.column - 1), Math.max(0, p.line - 1), Math.max(0, p.column - 1)) },
        ],
      };
    }
    return t;
  }

  getChildren(s?: StepSummary | string): Array<StepSummary | string> {
    if (s) return [];
    // Empty: the view's welcome content (package.json viewsWelcome) offers Run Workflow.
    if (!this.summary) return [];
    const head = `${this.summary.ok ? 'Passed' : 'Failed'} on ${this.summary.network}${this.summary.error ? `: ${this.summary.error.message}` : ''}`;
    return [head, ...this.summary.steps];
  }
}

/** Runs a workflow; returns its summary and file (the caller links the apps it deployed). */
export async function runWorkflowCommand(
  session: ContractSession,
  results: WorkflowResultsTree,
  channel: vscode.OutputChannel,
  arg?: unknown,
): Promise<{ summary: RunSummary; file: string } | undefined> {
  let uri = arg instanceof vscode.Uri ? arg : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!uri && active && /(^|\/)(tealworks\.ya?ml|[^/]+\.workflow\.ya?ml)$/.test(active.path)) uri = active;
  if (!uri) {
    const files = await vscode.workspace.findFiles('**/{tealworks.yaml,tealworks.yml,*.workflow.yaml,*.workflow.yml}', '**/node_modules/**', 100);
    if (!files.length) throw new Error('no tealworks.yaml or *.workflow.yaml in this workspace');
    const pick =
      files.length === 1
        ? { uri: files[0]! }
        : await vscode.window.showQuickPick(
            files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f })),
            { placeHolder: 'Workflow to run' },
          );
    if (!pick) return undefined;
    uri = pick.uri;
  }
  const { runWorkflow } = await import('@tealworks/sdk/workflow');
  // A workflow on the devnet reuses the extension's devnet, so its apps show up in the views.
  const devnet = session.isDevnet ? (session.devnet ?? (await session.startDevnet())) : undefined;
  channel.show(true);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Workflow ${vscode.workspace.asRelativePath(uri)}`, cancellable: false },
    (progress) =>
      runWorkflow(uri!.fsPath, {
        ...(devnet ? { devnet } : {}),
        // Every event, the closing 'end' (passed / failed) included, reaches the channel once.
        onProgress: (e) => {
          channel.appendLine(workflowEventLine(e));
          if (e.type === 'step-start') progress.report({ message: `${e.id} (${e.kind})` });
        },
      }),
  );
  results.set(summary);
  if (summary.ok) void vscode.window.showInformationMessage(`Workflow passed (${summary.steps.length} steps)`);
  else void vscode.window.showErrorMessage(`Workflow failed${summary.error ? `: ${summary.error.message}` : ''}; see the Tealworks Workflows output`);
  return { summary, file: uri.fsPath };
}
