// Warnings beyond what the assembler rejects, each with its own code: unused labels, unreachable
// code, a `b` to the very next line, `#pragma version` placement, and ops or fields the program's
// mode does not allow. All run on the expanded analysis, so a label used only inside a macro body
// or as an argument of a macro use is not "unused".
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import { fieldByName, modeAllows } from '@tealworks/sdk/teal';
import type { TokenInfo } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { modeBit, opAt, type Mode } from '../language.js';
import { lspRange } from './symbolIndex.js';

export const LINT_CODES = {
  unusedLabel: 'unused-label',
  unreachable: 'unreachable-code',
  branchToNext: 'branch-to-next-line',
  pragmaPlacement: 'pragma-version-placement',
  pragmaMissing: 'pragma-version-missing',
  mode: 'mode',
} as const;

function warning(range: Diagnostic['range'], message: string, code: string, unnecessary = false): Diagnostic {
  const d: Diagnostic = { severity: DiagnosticSeverity.Warning, range, message, source: 'tealworks', code };
  if (unnecessary) d.tags = [DiagnosticTag.Unnecessary];
  return d;
}

function withOrigin(d: Diagnostic, uri: string, t: TokenInfo): Diagnostic {
  if (t.definition) {
    const chain = t.macros?.length ? ` (${t.macros.join(' → ')})` : '';
    d.relatedInformation = [{ location: { uri, range: lspRange(t.definition) }, message: `expanded from this macro definition${chain}` }];
  }
  return d;
}

export interface LintOptions {
  /** The `tealworks.defaultMode` setting: when set, the program is checked against it. */
  defaultMode?: Mode;
}

export function lints(model: DocumentModel, options: LintOptions = {}): Diagnostic[] {
  const a = model.analysis;
  if (!a) return [];
  const out: Diagnostic[] = [];
  // Straight from the analysis (no full index): this runs on every edit.
  for (const l of a.labels) {
    if (l.references.length || l.macroBodyMentions.length) continue;
    const site = lspRange(l.definition.range, l.definition.definition === undefined);
    out.push(warning(site, `label '${l.name}' is never referenced`, LINT_CODES.unusedLabel, true));
  }

  // Dead statements: the assembler records no stack state for code it considers unreachable.
  let run: { first: TokenInfo; last: TokenInfo } | undefined;
  const flush = () => {
    if (!run) return;
    const range = { start: lspRange(run.first.range).start, end: lspRange(run.last.range).end };
    out.push(warning(range, 'unreachable code', LINT_CODES.unreachable, true));
    run = undefined;
  };
  for (const s of a.statements) {
    if (s.label) flush();
    if (!s.op || s.stackBefore) {
      if (s.op) flush();
      continue;
    }
    const toks = s.label ? s.tokens.slice(1) : s.tokens;
    const first = toks[0]!;
    const last = toks[toks.length - 1]!;
    if (run) run.last = last;
    else run = { first, last };
  }
  flush();

  a.statements.forEach((s, i) => {
    if (s.op !== 'b') return;
    const target = s.tokens[s.tokens.length - 1]!;
    for (let j = i + 1; j < a.statements.length; j++) {
      const n = a.statements[j]!;
      if (n.label === target.text) {
        const opTok = s.tokens[s.label ? 1 : 0]!;
        out.push(withOrigin(warning(lspRange(opTok.range), `branch to '${target.text}', which is the next instruction anyway`, LINT_CODES.branchToNext, true), model.uri, opTok));
        return;
      }
      if (n.op || !n.label) return;
    }
  });

  const pragmaLine = model.lines.findIndex((l) => l.tokens[0]?.text === '#pragma' && l.tokens[1]?.text === 'version');
  const firstCode = model.lines.findIndex((l) => l.tokens.length > 0);
  if (pragmaLine < 0) {
    if (firstCode >= 0) {
      const l = model.lines[firstCode]!;
      const range = { start: { line: firstCode, character: l.tokens[0]!.start }, end: { line: firstCode, character: l.tokens[l.tokens.length - 1]!.end } };
      out.push(warning(range, 'no #pragma version: the program assembles as v1', LINT_CODES.pragmaMissing));
    }
  } else if (firstCode < pragmaLine) {
    const l = model.lines[pragmaLine]!;
    const range = { start: { line: pragmaLine, character: l.tokens[0]!.start }, end: { line: pragmaLine, character: l.tokens[l.tokens.length - 1]!.end } };
    out.push(warning(range, '#pragma version should come before anything else in the program', LINT_CODES.pragmaPlacement));
  }

  // A configured mode states what the file is meant to be; otherwise the assembler's inference
  // (application as soon as any app-only op or field appears) decides.
  const mode = options.defaultMode ?? model.mode;
  if (mode) {
    const bit = modeBit(mode);
    const modeName = mode === 'logicsig' ? 'a logicsig' : 'an application';
    const why = options.defaultMode ? ' (mode from the tealworks.defaultMode setting)' : '';
    for (const s of a.statements) {
      if (!s.op) continue;
      const op = opAt(s.op, a.version);
      if (!op) continue;
      const toks = s.label ? s.tokens.slice(1) : s.tokens;
      const opTok = toks[0]!;
      if (!modeAllows(op.modes, bit)) {
        out.push(withOrigin(warning(lspRange(opTok.range), `${op.name} is not allowed in ${modeName}${why}`, LINT_CODES.mode), model.uri, opTok));
        continue;
      }
      const fi = op.immediates.findIndex((imm) => imm.fieldGroup !== undefined);
      const fTok = fi >= 0 ? toks[fi + 1] : undefined;
      const field = fTok ? fieldByName(op, fTok.text) : undefined;
      if (fTok && field && !modeAllows(field.modes, bit)) {
        out.push(withOrigin(warning(lspRange(fTok.range), `${op.name} ${field.name} is not available in ${modeName}${why}`, LINT_CODES.mode), model.uri, fTok));
      }
    }
  }
  return out;
}
