// VS Code entry point: starts the bundled TEAL language server over IPC and shows the active
// document's AVM version, mode and assembled size in the status bar.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node.js';
import { StatusItem, type DocumentInfo } from './status.js';
import { documentInfoNotification, documentInfoRequest } from '../../server/src/protocol.js';
import { registerCommands } from './commands.js';
import { registerContracts } from './contracts/index.js';
import { registerDebugging } from './debug/register.js';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath('dist/server.cjs');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const config = vscode.workspace.getConfiguration('tealworks');
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'teal' },
      { scheme: 'untitled', language: 'teal' },
    ],
    initializationOptions: {
      defaultMode: config.get<string>('defaultMode', 'auto'),
      lint: config.get('lint'),
      templateVariables: config.get('templateVariables'),
    },
    // Template values for diagnostics also come from tealworks.yaml and ARC-56 specs on disk.
    synchronize: { configurationSection: 'tealworks', fileEvents: vscode.workspace.createFileSystemWatcher('**/{tealworks.yaml,tealworks.yml,*.arc56.json}') },
    outputChannelName: 'Tealworks TEAL',
  };
  client = new LanguageClient('tealworks', 'Tealworks TEAL', serverOptions, clientOptions);

  registerCommands(context, () => client);
  registerContracts(context);
  registerDebugging(context);

  const status = new StatusItem();
  context.subscriptions.push(status);
  client.onNotification(documentInfoNotification, (info: DocumentInfo) => status.update(info));
  const refresh = async (editor: vscode.TextEditor | undefined) => {
    if (!editor || editor.document.languageId !== 'teal' || !client) {
      status.hide();
      return;
    }
    const info = await client.sendRequest(documentInfoRequest, { uri: editor.document.uri.toString() });
    if (info) status.update(info);
  };
  status.follow(() => vscode.window.activeTextEditor?.document.uri.toString());
  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor((e) => void refresh(e).catch(() => undefined)));

  await client.start();
  await refresh(vscode.window.activeTextEditor).catch(() => undefined);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
