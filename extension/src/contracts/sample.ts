// "Create the sample project" for the walkthrough: copies the counter sample shipped inside the
// extension (extension/sample: approval, clear, ARC-56 spec, tealworks.yaml, README) into a folder
// the user picks, then opens it. The walkthrough step is ticked (a context key) only once the files
// exist and the approval program is open — also after the window reloads into a new folder.
import * as vscode from 'vscode';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

export const SAMPLE_FILES = ['approval.teal', 'clear.teal', 'counter.arc56.json', 'tealworks.yaml', 'README.md'] as const;

/** Context keys the walkthrough's completion events wait for. */
export const WALKTHROUGH_CONTEXT = {
  sample: 'tealworks.walkthrough.sampleCreated',
  simulated: 'tealworks.walkthrough.simulated',
  deployed: 'tealworks.walkthrough.deployed',
} as const;

const PENDING = 'tealworks.sample.pendingOpen';

/** Where the files go: the folder itself when empty (hidden files aside), else a fresh `counter-sample[-N]` inside it. */
export function sampleTarget(folder: string): string {
  const visible = readdirSync(folder).filter((n) => !n.startsWith('.'));
  if (visible.length === 0) return folder;
  for (let i = 1; ; i++) {
    const candidate = join(folder, i === 1 ? 'counter-sample' : `counter-sample-${i}`);
    if (!existsSync(candidate)) return candidate;
  }
}

function inWorkspace(path: string): boolean {
  const p = resolve(path);
  return (vscode.workspace.workspaceFolders ?? []).some((f) => {
    const root = resolve(f.uri.fsPath);
    return p === root || p.startsWith(root + sep);
  });
}

async function openApproval(dir: string): Promise<void> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(join(dir, 'approval.teal'))));
  await vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT.sample, true);
}

export async function createSampleProject(
  context: vscode.ExtensionContext,
  picked?: vscode.Uri,
  log: (m: string) => void = () => undefined,
): Promise<string | undefined> {
  let folder = picked;
  if (!folder) {
    const chosen = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: 'Create Sample Here',
      title: 'Folder for the Tealworks counter sample',
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
    });
    if (!chosen?.[0]) return undefined;
    folder = chosen[0];
  }
  if (folder.scheme !== 'file') throw new Error('the sample can only be created in a folder on this machine');
  if (!existsSync(folder.fsPath)) await mkdir(folder.fsPath, { recursive: true });
  const dir = sampleTarget(folder.fsPath);
  await mkdir(dir, { recursive: true });
  const from = vscode.Uri.joinPath(context.extensionUri, 'extension', 'sample').fsPath;
  for (const f of SAMPLE_FILES) await copyFile(join(from, f), join(dir, f));
  log(`sample project created in ${dir}`);
  if (inWorkspace(dir)) {
    await openApproval(dir);
    return dir;
  }
  // Another folder: open it (the window reloads) and finish there.
  log(`${dir} is outside the workspace (${(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).join(', ') || 'none'}): opening it`);
  await context.globalState.update(PENDING, dir);
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(dir), { forceNewWindow: false });
  return dir;
}

/** After the reload into a freshly created sample folder: open its approval program and tick the step. */
export async function resumeSample(context: vscode.ExtensionContext): Promise<void> {
  const dir = context.globalState.get<string>(PENDING);
  if (!dir || !inWorkspace(dir)) return;
  await context.globalState.update(PENDING, undefined);
  if (existsSync(join(dir, 'approval.teal'))) await openApproval(dir);
}
