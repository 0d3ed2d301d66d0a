// One analysis object per open document. Every feature reads from it; it is rebuilt whole on each
// change (TEAL programs are small) and cached by document version.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { lexTeal, parseTealUint, relexTeal, statementsOf, type LexedLine, type LexToken } from '@tealworks/sdk/teal';
import { MAX_AVM_VERSION, modeBit, opAt, type Mode } from './language.js';
import { fieldByName } from '@tealworks/sdk/teal';
import { collectDiagnostics, tooLargeDiagnostic, tooLargeReason, type Analysis, type Collected, type ProgramFacts } from './teal.js';
import type { TealDiagnostic } from '@tealworks/sdk/teal';
import { substituteTemplates, templateInfoFor, templateSites, type Substituted, type TemplateInfo, type TemplateSite } from './features/templates.js';

export interface MacroDefinition {
  name: string;
  /** The name token on the `#define` line. */
  token: LexToken;
  body: LexToken[];
}

export interface DocumentModel {
  uri: string;
  version: number;
  text: string;
  lines: LexedLine[];
  /** `#pragma version` value (1 when absent, as the assembler assumes). */
  avmVersion: number;
  /** True when the document states its version. */
  versionDeclared: boolean;
  /** Known when the program uses an op or field available in only one mode, or assumed from settings. */
  mode?: Mode;
  /** True when `mode` comes from the `defaultMode` setting rather than the program. */
  modeAssumed?: boolean;
  /** Last definition of each macro in file order (redefinition replaces). */
  macros: Map<string, MacroDefinition>;
  /** Label definitions written literally in the source (`name:` at statement start). */
  labels: Map<string, LexToken>;
  /** Assembler diagnostics and facts, when the SDK assembler is available. */
  diagnostics: TealDiagnostic[];
  program?: ProgramFacts;
  /** The SDK's macro-expanded analysis: what definition, references, rename, symbols … build on. */
  analysis?: Analysis;
  /** `TMPL_*` placeholders written in the source (outside strings and comments). */
  templateSites: TemplateSite[];
  /** What is known of each template variable (value for diagnostics, its origin, the spec's type). */
  templates: Map<string, TemplateInfo>;
  /** What {@link sniffMode} found and on which line (`lines.length` when no line decides), once it ran: the next version's sniff starts at its edit. */
  sniffed?: Sniffed;
}

/** A mode sniffed from the source, and the first line that decides it (`lines.length`: none does). */
export interface Sniffed {
  mode: Mode | undefined;
  line: number;
}

export interface ModelOptions {
  /** A mode to assume when the source does not reveal one. */
  defaultMode?: Mode;
  /**
   * Build without the assembler (no diagnostics, program or analysis): for completion and hover
   * while the analysis of a fresh edit is still pending. `mode` carries over the last analysed mode.
   */
  light?: { mode?: Mode };
  /** Template values from the `tealworks.templateVariables` setting. */
  templates?: ReadonlyMap<string, TemplateInfo>;
}

/**
 * The model of one document version. `collected` is the assembler's analysis of this very text
 * when the caller already ran it (in steps, see `collectDiagnosticsSteps`); otherwise it runs here.
 * `previous` is a model of an earlier version of the same document, whose lexed lines are reused.
 */
export function buildModel(
  doc: Pick<TextDocument, 'uri' | 'version' | 'getText'> & Partial<Pick<TextDocument, 'positionAt'>>,
  options: ModelOptions = {},
  collected?: Collected,
  previous?: DocumentModel,
): DocumentModel {
  const text = doc.getText();
  const tooLarge = tooLargeReason(text);
  if (tooLarge) {
    // Not lexed, not analysed: every feature sees an empty program and answers at once.
    const empty: DocumentModel = {
      uri: doc.uri,
      version: doc.version,
      text,
      lines: [],
      avmVersion: 1,
      versionDeclared: false,
      macros: new Map(),
      labels: new Map(),
      diagnostics: [tooLargeDiagnostic(tooLarge)],
      templateSites: [],
      templates: new Map(),
    };
    if (options.defaultMode) {
      empty.mode = options.defaultMode;
      empty.modeAssumed = true;
    }
    return empty;
  }
  // Only the lines an edit touched are lexed again; and when those lines neither held nor hold a
  // directive, a label or a template placeholder (and no line was added or removed), the symbols
  // of the previous version still hold (the result is the same as building from scratch).
  // The editor's line index finds the edit's first line without counting the lines before it
  // (it also breaks lines at a lone `\r`, which TEAL does not: then the lexer counts).
  const lineAt = doc.positionAt && !text.includes('\r') ? (offset: number) => doc.positionAt!(offset).line : undefined;
  const edit = previous && previous.lines.length > 0 ? relexTeal(previous.text, previous.lines, text, lineAt) : undefined;
  const lines = edit ? edit.lines : lexTeal(text);
  let avmVersion = 1;
  let versionDeclared = false;
  let macros = new Map<string, MacroDefinition>();
  let labels = new Map<string, LexToken>();
  let sites: TemplateSite[] | undefined;
  if (
    previous &&
    edit &&
    edit.oldLastLine === edit.newLastLine &&
    plainLines(previous.lines, edit.firstLine, edit.oldLastLine) &&
    plainLines(lines, edit.firstLine, edit.newLastLine)
  ) {
    avmVersion = previous.avmVersion;
    versionDeclared = previous.versionDeclared;
    macros = previous.macros;
    labels = previous.labels;
    sites = previous.templateSites;
  } else
    for (const l of lines) {
      // A line is a directive only when its very first token starts with `#` (a leading `;` is a token).
      const first = l.tokens[0];
      if (first?.text === '#pragma' && l.tokens[1]?.text === 'version' && l.tokens[2] && !versionDeclared) {
        const v = parseTealUint(l.tokens[2].text);
        if (v !== undefined && v <= BigInt(MAX_AVM_VERSION)) {
          avmVersion = Number(v);
          versionDeclared = true;
        }
        continue;
      }
      if (first?.text === '#define') {
        const name = l.tokens[1];
        if (name && l.tokens.length >= 3) macros.set(name.text, { name: name.text, token: name, body: l.tokens.slice(2) });
        continue;
      }
      if (first?.text.startsWith('#')) continue;
      // Only each statement's first token can define a label: scan for them in place rather than
      // splitting every line into statement arrays (this runs over the whole file on each edit).
      let atStart = true;
      for (const head of l.tokens) {
        if (head.text === ';') {
          atStart = true;
          continue;
        }
        if (!atStart) continue;
        atStart = false;
        if (isLabelHead(head)) {
          const name = head.text.slice(0, -1);
          if (!labels.has(name)) labels.set(name, { ...head, text: name, end: head.end - 1 });
        }
      }
    }
  const model: DocumentModel = {
    uri: doc.uri,
    version: doc.version,
    text,
    lines,
    avmVersion,
    versionDeclared,
    macros,
    labels,
    diagnostics: [],
    templateSites: sites ?? templateSites(lines),
    templates: new Map(),
  };
  if (model.templateSites.length) model.templates = templateInfoFor(doc.uri, options.templates ?? new Map());
  let analysed = options.light ? undefined : collected;
  if (!options.light && !analysed) {
    // Placeholders are analysed as the value they will have (or a stand-in), ranges mapped back.
    const sub = substituteTemplates(text, model.templateSites, model.templates);
    analysed = collectDiagnostics(sub.text, sub.remap);
  }
  if (analysed) {
    model.diagnostics = analysed.diagnostics;
    if (analysed.analysis) model.analysis = analysed.analysis;
    if (analysed.program) model.program = analysed.program;
  }
  // The assembler sees through macros, so its verdict on the mode wins over the token sniff.
  let mode = analysed?.program?.mode;
  if (!mode) {
    // Lines before the edit decided nothing last time (or decided it before the edit, when it still holds).
    const before = previous?.sniffed;
    const same = before && edit && previous.avmVersion === avmVersion;
    if (same && before.mode && before.line < edit.firstLine) model.sniffed = before;
    else model.sniffed = sniffFrom(model, same ? Math.min(edit.firstLine, before.line) : 0);
    mode = model.sniffed.mode ?? options.light?.mode;
  }
  if (mode) model.mode = mode;
  else if (options.defaultMode) {
    model.mode = options.defaultMode;
    model.modeAssumed = true;
  }
  return model;
}

function isLabelHead(head: LexToken): boolean {
  return head.text.endsWith(':') && head.text.length > 1 && !head.text.startsWith('"');
}

/** True when lines `from`..`to` hold no directive, label definition or template placeholder. */
function plainLines(lines: readonly LexedLine[], from: number, to: number): boolean {
  for (let i = from; i <= to; i++) {
    const l = lines[i];
    if (!l) continue;
    if (l.text.includes('TMPL_') || l.tokens[0]?.text.startsWith('#')) return false;
    let atStart = true;
    for (const head of l.tokens) {
      if (head.text === ';') atStart = true;
      else if (atStart) {
        if (isLabelHead(head)) return false;
        atStart = false;
      }
    }
  }
  return true;
}

/** Each statement's tokens, with an optional leading label definition removed (from line `from` on). */
export function* instructions(model: Pick<DocumentModel, 'lines'>, from = 0): Generator<LexToken[]> {
  const lines = model.lines;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.tokens[0]?.text.startsWith('#')) continue;
    for (const st of statementsOf(l.tokens)) {
      const rest = st[0]!.text.endsWith(':') ? st.slice(1) : st;
      if (rest.length) yield rest;
    }
  }
}

/**
 * Guesses the run mode from ops and fields that exist in only one mode (e.g. `arg` → logicsig,
 * `app_global_get` → application). Undefined when nothing in the source decides it.
 */
export function sniffMode(model: Pick<DocumentModel, 'lines' | 'avmVersion'>): Mode | undefined {
  return sniffFrom(model, 0).mode;
}

/** {@link sniffMode} over lines `from`.. only, with the line that decided it. */
function sniffFrom(model: Pick<DocumentModel, 'lines' | 'avmVersion'>, from: number): Sniffed {
  const both = modeBit(undefined);
  for (const st of instructions(model, from)) {
    const op = opAt(st[0]!.text, model.avmVersion);
    if (!op) continue;
    let modes = op.modes;
    const fieldIndex = op.immediates.findIndex((imm) => imm.fieldGroup !== undefined);
    const fieldToken = fieldIndex >= 0 ? st[fieldIndex + 1] : undefined;
    const field = fieldToken ? fieldByName(op, fieldToken.text) : undefined;
    if (field) modes &= field.modes;
    if (modes !== both && modes !== 0) return { mode: modes === modeBit('logicsig') ? 'logicsig' : 'application', line: st[0]!.line };
  }
  return { mode: undefined, line: model.lines.length };
}

/**
 * What the assembler analyses for `doc`: its text with `TMPL_*` placeholders replaced by their
 * values (or stand-ins), and the function that maps the analysis's ranges back to the document.
 * The server runs this through `collectDiagnosticsSteps` and hands the result to `buildModel`.
 */
export function analysisInput(doc: Pick<TextDocument, 'uri' | 'getText'>, options: ModelOptions = {}): Substituted {
  const text = doc.getText();
  if (!text.includes('TMPL_') || tooLargeReason(text)) return { text, remap: (v) => v };
  const sites = templateSites(lexTeal(text));
  return substituteTemplates(text, sites, templateInfoFor(doc.uri, options.templates ?? new Map()));
}
