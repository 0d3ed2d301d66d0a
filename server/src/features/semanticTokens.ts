// Semantic tokens: the grammar colours by pattern; these add what needs the document's own
// knowledge (which words are macros, which are labels, fields valid for the statement's opcode).
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { classify, type Role } from './classify.js';

const TYPES = ['keyword', 'function', 'macro', 'enumMember', 'number', 'string', 'variable', 'label'] as const;
const MODIFIERS = ['declaration', 'defaultLibrary'] as const;

export const semanticTokensLegend: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

const ROLE_TO_TOKEN: Record<Role, [type: (typeof TYPES)[number], modifiers: number] | undefined> = {
  directive: ['keyword', 0],
  pragmaKey: ['keyword', 0],
  macroDefinition: ['macro', 1],
  macro: ['macro', 0],
  labelDefinition: ['label', 1],
  label: ['label', 0],
  opcode: ['function', 2],
  pseudoOp: ['keyword', 0],
  field: ['enumMember', 2],
  constant: ['enumMember', 0],
  number: ['number', 0],
  string: ['string', 0],
  bytes: ['string', 0],
  template: ['variable', 0],
};

export function semanticTokens(model: DocumentModel): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  const tokens = [...classify(model)].sort((a, b) => a.line - b.line || a.start - b.start);
  for (const t of tokens) {
    const mapped = ROLE_TO_TOKEN[t.role];
    if (!mapped || t.end <= t.start) continue;
    builder.push(t.line, t.start, t.end - t.start, TYPES.indexOf(mapped[0]), mapped[1]);
  }
  return builder.build();
}
