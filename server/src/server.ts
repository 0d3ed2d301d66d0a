// The language server's core, independent of transport: `main.ts` (stdio / node IPC) and tests
// (in-process stream pairs) both hand it a connection.
import {
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { buildModel, type DocumentModel, type ModelOptions } from './document.js';
import type { Mode } from './language.js';
import { complete, resolveCompletion } from './features/completion.js';
import { diagnostics } from './features/diagnostics.js';
import { foldingRanges } from './features/folding.js';
import { hover } from './features/hover.js';
import { semanticTokens, semanticTokensLegend } from './features/semanticTokens.js';
import { documentInfo, documentInfoNotification, documentInfoRequest } from './features/status.js';

export const SERVER_NAME = 'tealworks-teal';
export const SERVER_VERSION = '0.1.0';

export interface ServerOptions {
  /** Delay between the last edit and publishing diagnostics (ms). */
  diagnosticsDelay?: number;
}

interface InitOptions {
  defaultMode?: 'auto' | Mode;
}

export function startServer(connection: Connection, serverOptions: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const models = new Map<string, DocumentModel>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const delay = serverOptions.diagnosticsDelay ?? 150;
  let modelOptions: ModelOptions = {};

  const modelFor = (uri: string): DocumentModel | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const cached = models.get(uri);
    if (cached && cached.version === doc.version) return cached;
    const fresh = buildModel(doc, modelOptions);
    models.set(uri, fresh);
    return fresh;
  };

  const publish = (uri: string) => {
    const model = modelFor(uri);
    if (!model) return;
    void connection.sendDiagnostics({ uri, version: model.version, diagnostics: diagnostics(model) });
    void connection.sendNotification(documentInfoNotification, documentInfo(model));
  };

  const schedule = (uri: string) => {
    clearTimeout(pending.get(uri));
    pending.set(
      uri,
      setTimeout(() => {
        pending.delete(uri);
        publish(uri);
      }, delay),
    );
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as InitOptions;
    if (init.defaultMode === 'logicsig' || init.defaultMode === 'application') modelOptions = { defaultMode: init.defaultMode };
    return {
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: [' ', '#'], resolveProvider: true },
        hoverProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: semanticTokensLegend, full: true },
      },
    };
  });

  // The extension synchronises the `tealworks` settings section; other clients may send nothing.
  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as { tealworks?: InitOptions } | null | undefined)?.tealworks;
    if (!section) return;
    const next: ModelOptions = section.defaultMode === 'logicsig' || section.defaultMode === 'application' ? { defaultMode: section.defaultMode } : {};
    if (next.defaultMode === modelOptions.defaultMode) return;
    modelOptions = next;
    models.clear();
    for (const doc of documents.all()) publish(doc.uri);
  });

  documents.onDidOpen((e) => publish(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    clearTimeout(pending.get(e.document.uri));
    pending.delete(e.document.uri);
    models.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCompletion((params) => {
    const model = modelFor(params.textDocument.uri);
    return model ? complete(model, params) : [];
  });
  connection.onCompletionResolve((item) => resolveCompletion(item));
  connection.onHover((params) => {
    const model = modelFor(params.textDocument.uri);
    return model ? hover(model, params.position) : null;
  });
  connection.onFoldingRanges((params) => {
    const model = modelFor(params.textDocument.uri);
    return model ? foldingRanges(model) : [];
  });
  connection.languages.semanticTokens.on((params) => {
    const model = modelFor(params.textDocument.uri);
    return model ? semanticTokens(model) : { data: [] };
  });
  connection.onRequest(documentInfoRequest, ({ uri }) => {
    const model = modelFor(uri);
    return model ? documentInfo(model) : null;
  });

  documents.listen(connection);
  connection.listen();
}
