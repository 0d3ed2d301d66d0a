// A minimal LSP client for tests: spawns the real server over stdio and speaks JSON-RPC to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestClient {
  connection: MessageConnection;
  child: ChildProcess;
  /** Resolves with the next diagnostics published for `uri` at `version` (or any version). */
  nextDiagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams>;
  notifications: { method: string; params: unknown }[];
  initializeResult: InitializeResult;
  stop(): Promise<void>;
}

export async function startClient(options: { args?: string[]; initializationOptions?: unknown; rootUri?: string } = {}): Promise<TestClient> {
  const args = options.args ?? ['--import', 'tsx', resolve(repoRoot, 'server/src/main.ts'), '--stdio'];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const notifications: { method: string; params: unknown }[] = [];
  const waiters: { uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification((method, params) => {
    notifications.push({ method, params });
    if (method !== 'textDocument/publishDiagnostics') return;
    const p = params as PublishDiagnosticsParams;
    const i = waiters.findIndex((w) => w.uri === p.uri && (w.version === undefined || w.version === p.version));
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(p);
  });
  connection.listen();
  const initializeResult = await connection.sendRequest<InitializeResult>('initialize', {
    processId: process.pid,
    rootUri: options.rootUri ?? null,
    capabilities: { textDocument: { completion: { completionItem: { snippetSupport: true } } } },
    initializationOptions: options.initializationOptions ?? {},
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    child,
    notifications,
    initializeResult,
    nextDiagnostics(uri, version) {
      return new Promise((res) => waiters.push(version === undefined ? { uri, resolve: res } : { uri, version, resolve: res }));
    },
    async stop() {
      await connection.sendRequest('shutdown');
      const exited = new Promise<void>((res) => child.once('exit', () => res()));
      await connection.sendNotification('exit');
      await exited;
      connection.dispose();
    },
  };
}
