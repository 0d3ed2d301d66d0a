// The `tealworks` debugger in VS Code: launch configuration defaults, the "Debug" CodeLens on TEAL
// files, and the commands that start a session for a file, a recorded trace, or (from the
// simulate panel) the group just simulated. The adapter itself is dist/debug-adapter.cjs
// (contributes.debuggers), a thin DAP layer over the SDK's replayable runs.
import * as vscode from 'vscode';

export const DEBUG_TYPE = 'tealworks';

/** Fills in what a minimal or empty launch configuration leaves out. */
export class TealDebugConfigurationProvider implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    // F5 without a launch.json: debug the active TEAL file.
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      // A .py / .algo.ts runs its compiled approval program (the adapter finds it through the source maps).
      if (!editor || (editor.document.languageId !== 'teal' && !/\.(py|algo\.ts)$/.test(editor.document.uri.fsPath))) {
        void vscode.window.showInformationMessage(
          'Tealworks: open a .teal file to debug it, or add a "tealworks" launch configuration naming a program or a recorded trace.',
        );
        return undefined;
      }
      config = {
        type: DEBUG_TYPE,
        request: 'launch',
        name: editor.document.languageId === 'teal' ? 'Debug TEAL program' : 'Debug contract',
        program: editor.document.uri.fsPath,
        stopOnEntry: true,
      };
    }
    if (!config.program && !config.trace) {
      void vscode.window.showErrorMessage(
        'Tealworks: the launch configuration needs "program" (a TEAL file to run) or "trace" (a recorded simulate response).',
      );
      return undefined;
    }
    config.cwd ??= folder?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return config;
  }
}

/** "Debug" above the first line of every TEAL file. */
export class TealDebugLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: '$(debug-alt) Debug',
        tooltip: 'Create this program on an in-memory ledger and step through a call to it',
        command: 'tealworks.debugFile',
        arguments: [doc.uri],
      }),
    ];
  }
}

/** Parses the argument prompt: comma-separated; numbers are uint64, 0x… hex, else text. */
export function parseArgsInput(text: string): (string | number)[] {
  const t = text.trim();
  if (!t) return [];
  return t.split(',').map((a) => {
    const s = a.trim();
    return /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : s.replace(/^"(.*)"$/, '$1');
  });
}

/**
 * Runs the adapter bundle with the extension host's own runtime (code-server's node, or VS Code's
 * Electron as node), so no `node` on the PATH is needed.
 */
export class TealDebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly adapterPath: string) {}

  createDebugAdapterDescriptor(): vscode.DebugAdapterDescriptor {
    return new vscode.DebugAdapterExecutable(process.execPath, [this.adapterPath], { env: { ELECTRON_RUN_AS_NODE: '1' } });
  }
}

export function registerDebugging(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new TealDebugAdapterFactory(context.asAbsolutePath('dist/debug-adapter.cjs'))),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new TealDebugConfigurationProvider()),
    // Files on disk only: a read-only expanded or assembled view is not the program to debug.
    vscode.languages.registerCodeLensProvider({ scheme: 'file', language: 'teal' }, new TealDebugLens()),
    vscode.commands.registerCommand('tealworks.debugFile', async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) return void vscode.window.showErrorMessage('Tealworks: open a .teal file to debug it.');
      const input = await vscode.window.showInputBox({
        title: 'Debug a call',
        prompt: 'App arguments, comma-separated (numbers are uint64, 0x… is hex, anything else is text). Empty: no arguments.',
        placeHolder: 'e.g. inc, 5',
      });
      if (input === undefined) return;
      const folder = vscode.workspace.getWorkspaceFolder(target);
      await vscode.debug.startDebugging(folder, {
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${vscode.workspace.asRelativePath(target, false)}`,
        program: target.fsPath,
        appArgs: parseArgsInput(input),
        stopOnEntry: true,
      });
    }),
    vscode.commands.registerCommand('tealworks.debugTrace', async (uri?: vscode.Uri) => {
      const picked = uri
        ? [uri]
        : await vscode.window.showOpenDialog({
            title: 'A recorded simulate response (with exec trace)',
            filters: { 'Simulate traces': ['json'] },
            canSelectMany: false,
          });
      const trace = picked?.[0];
      if (!trace) return;
      const sources = await vscode.workspace.findFiles(
        new vscode.RelativePattern(vscode.Uri.joinPath(trace, '..'), '{sources.json,sources.avm.json}'),
        undefined,
        1,
      );
      const teal = await vscode.workspace.findFiles('**/*.teal', '**/node_modules/**', 200);
      await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(trace), {
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Replay ${vscode.workspace.asRelativePath(trace, false)}`,
        trace: trace.fsPath,
        ...(sources[0] ? { sources: sources[0].fsPath } : {}),
        programs: teal.map((u) => u.fsPath),
        stopOnEntry: true,
      });
    }),
  );
}
