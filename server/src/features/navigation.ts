// Definition, references, highlight and rename for labels and macros, over the expanded index (so
// a label written inside a `#define` body or passed as an argument to a macro use is found too).
import {
  DocumentHighlightKind,
  ResponseError,
  ErrorCodes,
  type DocumentHighlight,
  type Location,
  type Position,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { opSpecByName } from '@tealworks/sdk/teal';
import { isAssemblerPseudoOp, isFieldName, isNamedConstant, macroNameError } from '../teal.js';
import { MAX_AVM_VERSION, PSEUDO_OP_NAMES } from '../language.js';
import type { DocumentModel } from '../document.js';
import { parseTealUint } from '@tealworks/sdk/teal';
import { occurrenceAt, occurrencesOf, symbolIndex, type Occurrence } from './symbolIndex.js';

export function definition(model: DocumentModel, pos: Position): Location[] {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ) return [];
  const defs = occurrencesOf(model, occ.kind, occ.name).filter((o) => o.definition);
  if (occ.kind === 'macro' && defs.length > 1) {
    // A redefinition replaces the body from that line on: the one in force is the last one above.
    const before = defs.filter((d) => d.range.start.line <= pos.line);
    const chosen = before[before.length - 1] ?? defs[0]!;
    return [{ uri: model.uri, range: chosen.range }];
  }
  return defs.map((d) => ({ uri: model.uri, range: d.range }));
}

export function references(model: DocumentModel, pos: Position, includeDeclaration: boolean): Location[] {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ) return [];
  return occurrencesOf(model, occ.kind, occ.name)
    .filter((o) => includeDeclaration || !o.definition)
    .map((o) => ({ uri: model.uri, range: o.range }));
}

export function highlights(model: DocumentModel, pos: Position): DocumentHighlight[] {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ) return [];
  return occurrencesOf(model, occ.kind, occ.name).map((o) => ({
    range: o.range,
    kind: o.definition ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}

function refuse(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidRequest, message);
}

export function prepareRename(model: DocumentModel, pos: Position): { range: Range; placeholder: string } {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ) throw refuse('Only labels and macros can be renamed.');
  return { range: occ.range, placeholder: occ.name };
}

/** Why `newName` cannot replace `occ`'s name, or undefined when the rename is safe. */
export function renameProblem(model: DocumentModel, occ: Pick<Occurrence, 'kind' | 'name'>, newName: string): string | undefined {
  if (newName === occ.name) return undefined;
  if (newName.length === 0) return 'The new name is empty.';
  const what = occ.kind === 'label' ? 'label' : 'macro';
  if (opSpecByName(newName)) return `'${newName}' is an opcode; a ${what} cannot take its name.`;
  if (PSEUDO_OP_NAMES.has(newName) || isAssemblerPseudoOp(newName)) return `'${newName}' is a pseudo-op; a ${what} cannot take its name.`;
  if (isNamedConstant(newName)) return `'${newName}' is a named constant; a ${what} cannot take its name.`;
  if (isFieldName(newName, MAX_AVM_VERSION) || isFieldName(newName, model.analysis?.version ?? model.avmVersion)) {
    return `'${newName}' is a field name; a ${what} cannot take its name.`;
  }
  const idx = symbolIndex(model);
  if (idx.labels.some((l) => l.name === newName)) return `A label named '${newName}' already exists.`;
  if (idx.occurrences.some((o) => o.kind === 'macro' && o.name === newName)) return `A macro named '${newName}' already exists.`;
  // Branches to a label that does not exist yet would silently start pointing at the renamed one.
  if (model.diagnostics.some((d) => d.message === `reference to undefined label "${newName}"`))
    return `Branches already refer to an undefined label '${newName}'; the rename would capture them.`;
  if (occ.kind === 'macro') {
    const problem = macroNameError(newName, model.analysis?.version ?? model.avmVersion);
    if (problem) return `Invalid macro name: ${problem}.`;
    return undefined;
  }
  // Labels are whole tokens: no separators, quotes or comment starts, and no trailing colon.
  if (/[\s;:"]/.test(newName) || newName.includes('//')) return `Invalid label name '${newName}': spaces, ';', ':', '"' and '//' are not allowed.`;
  if (newName.startsWith('#')) return `Invalid label name '${newName}': a leading '#' makes a directive.`;
  if (parseTealUint(newName) !== undefined) return `Invalid label name '${newName}': it reads as a number.`;
  return undefined;
}

export function rename(model: DocumentModel, pos: Position, newName: string): WorkspaceEdit {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ) throw refuse('Only labels and macros can be renamed.');
  const problem = renameProblem(model, occ, newName);
  if (problem) throw refuse(problem);
  const edits = occurrencesOf(model, occ.kind, occ.name).map((o) => ({ range: o.range, newText: newName }));
  return { changes: { [model.uri]: edits } };
}
