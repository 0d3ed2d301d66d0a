// The language server's core, independent of transport: `main.ts` (stdio / node IPC) and tests
// (in-process stream pairs) both hand it a connection.
import { TextDocuments, TextDocumentSyncKind, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analysisInput, buildModel, type DocumentModel, type ModelOptions } from './document.js';
import { AnalysisSession, collectDiagnosticsSteps, type Collected } from './teal.js';
import type { Mode } from './language.js';
import { complete, resolveCompletion } from './features/completion.js';
import { diagnostics } from './features/diagnostics.js';
import { hover } from './features/hover.js';
import { semanticTokens, semanticTokensLegend } from './features/semanticTokens.js';
import { documentInfo } from './features/status.js';
import { assembledRequest, documentInfoNotification, documentInfoRequest, expandedRequest, pcLocationRequest } from './protocol.js';
import { definition, highlights, prepareRename, references, rename } from './features/navigation.js';
import { documentSymbols, flatSymbols } from './features/symbols.js';
import { WorkspaceFiles } from './features/workspaceFiles.js';
import { allFoldingRanges } from './features/folds.js';
import { selectionRanges } from './features/selection.js';
import { formatEdits } from './features/format.js';
import { inlayHints } from './features/inlayHints.js';
import { codeLenses } from './features/codeLens.js';
import { codeActions } from './features/codeActions.js';
import { signatureHelp } from './features/signatureHelp.js';
import { lints, type LintMemo } from './features/lints.js';
import { labelHover } from './features/labelHover.js';
import { readSettings, DEFAULT_SETTINGS, type FeatureSettings } from './features/settings.js';
import { assembled, expandedText, pcLocation } from './features/commands.js';
import { CodeActionKind } from 'vscode-languageserver';
import { onTemplateSourcesLoaded } from './features/templates.js';

export const SERVER_NAME = 'tealworks-teal';
/** Workspace symbols returned per file at most. */
export const MAX_SYMBOLS_PER_FILE = 1000;
export const SERVER_VERSION = '0.1.0';
/** Longest stretch of one document's analysis before other messages get their turn (ms). */
export const ANALYSIS_SLICE_MS = 10;

export interface ServerOptions {
  /** Delay between the last edit and publishing diagnostics (ms). */
  diagnosticsDelay?: number;
  /** Told the editor's process id from `initialize` (the entry point exits when it is gone). */
  onClientProcessId?: (pid: number) => void;
}

interface InitOptions {
  defaultMode?: 'auto' | Mode;
  inlayHints?: unknown;
  format?: unknown;
  /** Debounce between an edit and its diagnostics (ms); benchmarks and tests set 0. */
  diagnosticsDelay?: number;
}

export function startServer(connection: Connection, serverOptions: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const models = new Map<string, DocumentModel>();
  /** Lexed-only models of versions whose analysis has not run yet (see quickModelFor). */
  const lightModels = new Map<string, DocumentModel>();
  /** Per document: the statement lints last published, reused where the next analysis has the same statements. */
  const lintMemos = new Map<string, LintMemo>();
  /** Per document: cancels its scheduled publish. */
  const pending = new Map<string, () => void>();
  /** Per document: the incremental analysis, which re-analyses only around each edit. */
  const sessions = new Map<string, AnalysisSession>();
  let delay = serverOptions.diagnosticsDelay ?? 150;
  let modelOptions: ModelOptions = {};
  let settings: FeatureSettings = DEFAULT_SETTINGS;
  const workspaceFiles = new WorkspaceFiles();

  /** Analyses under way, per document (one version and model options each). */
  const running = new Map<string, { version: number; options: ModelOptions; model: Promise<DocumentModel | undefined> }>();

  /**
   * The analysed model of the document's current version. The assembler's analysis runs in
   * slices of at most ANALYSIS_SLICE_MS with a turn of the event loop between them, so requests
   * for other documents (and hover or completion on this one) are answered meanwhile; requests
   * that need this document's analysis wait for it, and all of them share one run.
   */
  const modelFor = (uri: string): Promise<DocumentModel | undefined> => {
    const doc = documents.get(uri);
    if (!doc) return Promise.resolve(undefined);
    const cached = models.get(uri);
    if (cached && cached.version === doc.version) return Promise.resolve(cached);
    const current = running.get(uri);
    if (current && current.version === doc.version && current.options === modelOptions) return current.model;
    const version = doc.version;
    const options = modelOptions;
    const model = (async (): Promise<DocumentModel | undefined> => {
      const input = analysisInput(doc, options);
      // Template values are substituted and the ranges mapped back in place: only a document
      // analysed as it is goes through its incremental session.
      let session: AnalysisSession | undefined;
      if (input.text === doc.getText()) {
        session = sessions.get(uri);
        if (!session) sessions.set(uri, (session = new AnalysisSession()));
      }
      const steps = collectDiagnosticsSteps(input.text, input.remap, session);
      let collected: Collected;
      let slice = performance.now();
      for (;;) {
        const r = steps.next();
        if (r.done) {
          collected = r.value;
          break;
        }
        if (performance.now() - slice < ANALYSIS_SLICE_MS) continue;
        await new Promise((resolve) => setImmediate(resolve));
        // Edited, closed or re-configured meanwhile: this run is moot, the newest version counts.
        if (documents.get(uri)?.version !== version || modelOptions !== options) return modelFor(uri);
        slice = performance.now();
      }
      const fresh = buildModel(doc, options, collected, lightModels.get(uri) ?? models.get(uri));
      models.set(uri, fresh);
      lightModels.delete(uri);
      return fresh;
    })().finally(() => {
      if (running.get(uri)?.model === model) running.delete(uri);
    });
    running.set(uri, { version, options, model });
    return model;
  };

  // Completion and hover need the text, not the assembler: right after an edit (before the
  // debounced analysis) they get a lexed-only model instead of re-analysing the document.
  const quickModelFor = (uri: string): DocumentModel | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const full = models.get(uri);
    if (full && full.version === doc.version) return full;
    const light = lightModels.get(uri);
    if (light && light.version === doc.version) return light;
    const carried = full?.mode && !full.modeAssumed ? { mode: full.mode } : {};
    const fresh = buildModel(doc, { ...modelOptions, light: carried }, undefined, light ?? full);
    lightModels.set(uri, fresh);
    return fresh;
  };

  const publish = async (uri: string) => {
    const model = await modelFor(uri).catch((e: unknown) => {
      connection.console.error(`analysing ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return undefined;
    });
    if (!model || documents.get(uri)?.version !== model.version) return;
    const lintOptions = {
      ...(modelOptions.defaultMode ? { defaultMode: modelOptions.defaultMode } : {}),
      style: settings.lint.style,
      generatedCode: settings.lint.generatedCode,
    };
    // Statements the edit left alone keep their lints (features/lints.ts).
    const memo: { previous?: LintMemo; next?: LintMemo } = {};
    const previous = lintMemos.get(uri);
    if (previous) memo.previous = previous;
    const found = lints(model, lintOptions, memo);
    if (memo.next) lintMemos.set(uri, memo.next);
    else lintMemos.delete(uri);
    void connection.sendDiagnostics({ uri, version: model.version, diagnostics: [...diagnostics(model), ...found] });
    void connection.sendNotification(documentInfoNotification, documentInfo(model));
  };

  const schedule = (uri: string) => {
    pending.get(uri)?.();
    const run = () => {
      pending.delete(uri);
      void publish(uri);
    };
    // No debounce: right after the messages already read (a 0 ms timer would still wait a millisecond).
    if (delay > 0) {
      const timer = setTimeout(run, delay);
      pending.set(uri, () => clearTimeout(timer));
    } else {
      const immediate = setImmediate(run);
      pending.set(uri, () => clearImmediate(immediate));
    }
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    if (typeof params.processId === 'number') serverOptions.onClientProcessId?.(params.processId);
    const init = (params.initializationOptions ?? {}) as InitOptions;
    if (init.defaultMode === 'logicsig' || init.defaultMode === 'application') modelOptions = { defaultMode: init.defaultMode };
    settings = readSettings(init);
    modelOptions = { ...modelOptions, templates: settings.templates };
    if (typeof init.diagnosticsDelay === 'number' && init.diagnosticsDelay >= 0) delay = init.diagnosticsDelay;
    // Clients send all sorts of roots (`file://.`, a bare path, nothing at all): an unusable one
    // only turns off the workspace-wide file scan, never initialization.
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : params.rootPath ? [params.rootPath] : []);
    workspaceFiles.setFolders(folders);
    return {
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: [' ', '#'], resolveProvider: true },
        hoverProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: semanticTokensLegend, full: true, range: true },
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        selectionRangeProvider: true,
        documentFormattingProvider: true,
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, CodeActionKind.RefactorInline] },
        signatureHelpProvider: { triggerCharacters: [' '], retriggerCharacters: [' '] },
      },
    };
  });

  // The extension synchronises the `tealworks` settings section; other clients may send nothing.
  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as { tealworks?: InitOptions } | null | undefined)?.tealworks;
    if (!section) return;
    const before = settings;
    settings = readSettings(section);
    void connection.languages.inlayHint.refresh().catch(() => undefined);
    const next: ModelOptions = section.defaultMode === 'logicsig' || section.defaultMode === 'application' ? { defaultMode: section.defaultMode } : {};
    const templatesChanged = JSON.stringify([...before.templates]) !== JSON.stringify([...settings.templates]);
    const lintChanged = before.lint.style !== settings.lint.style || before.lint.generatedCode !== settings.lint.generatedCode;
    if (next.defaultMode === modelOptions.defaultMode && !templatesChanged && !lintChanged) return;
    if (next.defaultMode !== modelOptions.defaultMode || templatesChanged) {
      models.clear();
      lightModels.clear();
    }
    modelOptions = { ...next, templates: settings.templates };
    for (const doc of documents.all()) publish(doc.uri);
  });

  // A tealworks.yaml or ARC-56 spec changed on disk (or a large one finished loading in the
  // background): template values may have, so re-analyse.
  const templateSourcesChanged = () => {
    models.clear();
    lightModels.clear();
    running.clear();
    for (const doc of documents.all()) void publish(doc.uri);
  };
  connection.onDidChangeWatchedFiles(templateSourcesChanged);
  onTemplateSourcesLoaded(templateSourcesChanged);

  documents.onDidOpen((e) => void publish(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    pending.get(e.document.uri)?.();
    pending.delete(e.document.uri);
    models.delete(e.document.uri);
    lightModels.delete(e.document.uri);
    sessions.delete(e.document.uri);
    lintMemos.delete(e.document.uri);
    running.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCompletion((params) => {
    const model = quickModelFor(params.textDocument.uri);
    return model ? complete(model, params) : [];
  });
  connection.onCompletionResolve((item) => resolveCompletion(item));
  connection.onHover((params) => {
    const model = quickModelFor(params.textDocument.uri);
    if (!model) return null;
    // Labels need the analysis: only once it exists for this version (never re-analyse for hover).
    const found = hover(model, params.position);
    return found ?? (model.analysis ? labelHover(model, params.position) : null);
  });
  connection.onFoldingRanges(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? allFoldingRanges(model) : [];
  });
  connection.languages.semanticTokens.on(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? semanticTokens(model) : { data: [] };
  });
  connection.languages.semanticTokens.onRange(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? semanticTokens(model, params.range) : { data: [] };
  });
  connection.onDefinition(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? definition(model, params.position) : [];
  });
  connection.onReferences(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? references(model, params.position, params.context.includeDeclaration) : [];
  });
  connection.onDocumentHighlight(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? highlights(model, params.position) : [];
  });
  connection.onPrepareRename(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? prepareRename(model, params.position) : null;
  });
  connection.onRenameRequest(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? rename(model, params.position, params.newName) : null;
  });
  connection.onDocumentSymbol(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? documentSymbols(model) : [];
  });
  connection.onWorkspaceSymbol(async (params) => {
    const open = (await Promise.all(documents.all().map((d) => modelFor(d.uri)))).filter((m): m is DocumentModel => m !== undefined);
    const onDisk = workspaceFiles.models(new Set(open.map((m) => m.uri)));
    // Capped per file, so one file with 100,000 labels cannot flood the answer.
    return [...open, ...onDisk].flatMap((m) => flatSymbols(m, params.query).slice(0, MAX_SYMBOLS_PER_FILE));
  });
  connection.onSelectionRanges(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? selectionRanges(model, params.positions) : [];
  });
  connection.onDocumentFormatting(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? formatEdits(model, settings.format) : [];
  });
  connection.languages.inlayHint.on(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? inlayHints(model, params.range, settings.inlayHints) : [];
  });
  connection.onCodeLens(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? codeLenses(model) : [];
  });
  connection.onCodeAction(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? codeActions(model, params) : [];
  });
  connection.onSignatureHelp(async (params) => {
    const model = await modelFor(params.textDocument.uri);
    return model ? signatureHelp(model, params.position) : null;
  });
  connection.onRequest(expandedRequest, async ({ uri }) => {
    const model = await modelFor(uri);
    return model ? { text: expandedText(model) } : null;
  });
  connection.onRequest(assembledRequest, async ({ uri }) => {
    const model = await modelFor(uri);
    return model ? assembled(model) : null;
  });
  connection.onRequest(pcLocationRequest, async ({ uri, pc }) => {
    const model = await modelFor(uri);
    return model ? pcLocation(model, pc) : null;
  });
  connection.onRequest(documentInfoRequest, async ({ uri }) => {
    const model = await modelFor(uri);
    return model ? documentInfo(model) : null;
  });

  documents.listen(connection);
  connection.listen();
}
