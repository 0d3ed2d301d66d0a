// Code actions: quick fixes for an unknown opcode, field or label ("did you mean …?"), for
// "reference to undefined label" (create it) and "introduced in vN" (raise `#pragma version`), plus refactorings at the cursor: a number compared with TypeEnum or
// OnCompletion → its name, and inlining one macro use (one level: the body as written).
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { namedNumbers } from './namedConstants.js';
import { suggestionsFor } from './didYouMean.js';
import { contains, lspRange, occurrenceAt } from './symbolIndex.js';
import { LATEST_AVM_VERSION, latestPragma } from './pragma.js';

const UNDEFINED_LABEL = /^reference to undefined label "(.*)"$/;
const INTRODUCED = /introduced in v(\d+)/;

function edit(model: DocumentModel, edits: TextEdit[]) {
  return { changes: { [model.uri]: edits } };
}

function bodyText(tokens: readonly { text: string }[]): string {
  let out = '';
  for (const t of tokens) out = out === '' ? t.text : t.text === ';' ? out + ';' : `${out} ${t.text}`;
  return out;
}

export function raiseVersionEdit(model: DocumentModel, version: number): TextEdit {
  const line = model.lines.findIndex((l) => l.tokens[0]?.text === '#pragma' && l.tokens[1]?.text === 'version' && l.tokens[2]);
  if (line >= 0) {
    const t = model.lines[line]!.tokens[2]!;
    return { range: { start: { line, character: t.start }, end: { line, character: t.end } }, newText: String(version) };
  }
  // A bare `#pragma` or `#pragma version` with no number: complete that line, not a second one.
  const bare = model.lines.findIndex(
    (l) => l.tokens[0]?.text === '#pragma' && (l.tokens.length === 1 || (l.tokens[1]?.text === 'version' && l.tokens.length === 2)),
  );
  if (bare >= 0) {
    const toks = model.lines[bare]!.tokens;
    return {
      range: { start: { line: bare, character: toks[0]!.start }, end: { line: bare, character: toks[toks.length - 1]!.end } },
      newText: `#pragma version ${version}`,
    };
  }
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: `#pragma version ${version}\n` };
}

export function codeActions(model: DocumentModel, params: Pick<CodeActionParams, 'range' | 'context'>): CodeAction[] {
  const out: CodeAction[] = [];
  const raised = new Set<number>();
  for (const d of params.context.diagnostics as Diagnostic[]) {
    // "Did you mean …?": replace the unknown opcode, field or label with a close known name.
    const suggestion = d.relatedInformation?.length ? undefined : suggestionsFor(model, d);
    suggestion?.names.forEach((name, k) => {
      out.push({
        title: `Did you mean '${name}'? (${suggestion.kind})`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        ...(k === 0 ? { isPreferred: true } : {}),
        edit: edit(model, [{ range: d.range, newText: name }]),
      });
    });
    const undefinedLabel = UNDEFINED_LABEL.exec(d.message);
    if (undefinedLabel) {
      const name = undefinedLabel[1]!;
      const last = model.lines.length - 1;
      const lastText = model.lines[last]?.text ?? '';
      const newText = `${lastText.trim() === '' ? '' : '\n'}${name}:\n`;
      out.push({
        title: `Create label '${name}' at the end of the program`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        edit: edit(model, [{ range: { start: { line: last, character: lastText.length }, end: { line: last, character: lastText.length } }, newText }]),
      });
      continue;
    }
    // A broken version line (features/pragma.ts says which): write the latest version there.
    if (d.code === 'pragma' && d.message.includes(latestPragma())) {
      out.push({
        title: `Set ${latestPragma()} (the latest AVM version)`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: true,
        edit: edit(model, [{ range: d.range, newText: latestPragma() }]),
      });
      continue;
    }
    const introduced = INTRODUCED.exec(d.message);
    if (introduced) {
      const version = Number(introduced[1]);
      if (raised.has(version) || version <= (model.analysis?.version ?? model.avmVersion)) continue;
      raised.add(version);
      // With a version declared the smallest raise keeps the program's target; without one the
      // program was assembled as v1 by default, and a new program wants the latest.
      const declared = model.versionDeclared;
      out.push({
        title: `Raise #pragma version to ${version}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        ...(declared ? { isPreferred: true } : {}),
        edit: edit(model, [raiseVersionEdit(model, version)]),
      });
      if (version < LATEST_AVM_VERSION && !raised.has(LATEST_AVM_VERSION)) {
        raised.add(LATEST_AVM_VERSION);
        out.push({
          title: `Set #pragma version ${LATEST_AVM_VERSION} (the latest AVM version)`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          ...(declared ? {} : { isPreferred: true }),
          edit: edit(model, [raiseVersionEdit(model, LATEST_AVM_VERSION)]),
        });
      } else if (version === LATEST_AVM_VERSION && !declared) {
        out[out.length - 1]!.isPreferred = true;
      }
    }
  }

  const { line, character } = params.range.start;
  for (const n of namedNumbers(model)) {
    const r = lspRange(n.token.range);
    if (!contains(r, line, character)) continue;
    out.push({ title: `Replace ${n.token.text} with ${n.name}`, kind: CodeActionKind.RefactorRewrite, edit: edit(model, [{ range: r, newText: n.name }]) });
  }

  const occ = occurrenceAt(model, line, character);
  if (occ?.kind === 'macro' && !occ.definition && !occ.inMacroBody) {
    const info = model.analysis?.macros.find((m) =>
      m.uses.some((u) => !u.definition && u.range.line === occ.range.start.line && u.range.utf16Column === occ.range.start.character),
    );
    if (info) {
      out.push({
        title: `Inline macro '${info.name}'`,
        kind: CodeActionKind.RefactorInline,
        edit: edit(model, [{ range: occ.range, newText: bodyText(info.body) }]),
      });
    }
  }
  return out;
}
