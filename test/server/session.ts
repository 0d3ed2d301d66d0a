// Shared helpers for the analysis-feature suites: one real server process per suite, documents
// opened with unique URIs, and typed requests.
import type { Diagnostic, Position } from 'vscode-languageserver-protocol';
import { startClient, type TestClient } from './lspClient.js';

let counter = 0;

export interface Session {
  client: TestClient;
  /** Opens a document and waits for its first diagnostics. */
  open(text: string, name?: string): Promise<{ uri: string; diagnostics: Diagnostic[] }>;
  request<T>(method: string, params: unknown): Promise<T>;
  at(uri: string, position: Position): { textDocument: { uri: string }; position: Position };
  stop(): Promise<void>;
}

export async function startSession(options: Parameters<typeof startClient>[0] = {}): Promise<Session> {
  const client = await startClient(options);
  return {
    client,
    async open(text, name) {
      const uri = `file:///work/${name ?? `analysis${++counter}`}.teal`;
      const diags = client.nextDiagnostics(uri, 1);
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
      return { uri, diagnostics: (await diags).diagnostics };
    },
    request<T>(method: string, params: unknown) {
      return client.connection.sendRequest<T>(method, params);
    },
    at(uri, position) {
      return { textDocument: { uri }, position };
    },
    stop: () => client.stop(),
  };
}

/** Applies LSP text edits to a string (edits must not overlap). */
export function applyEdits(text: string, edits: readonly { range: { start: Position; end: Position }; newText: string }[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: Position) => (lineStarts[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}
