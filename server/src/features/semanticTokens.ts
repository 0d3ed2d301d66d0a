// Semantic tokens: the grammar colours by pattern; these add what needs the document's own
// knowledge. Roles come from the assembler's expanded statements where a token reaches one (so an
// argument of a macro use is coloured as what it becomes: a label, a field …), and from the light
// classifier elsewhere (macro bodies that are never used, broken code). Opcodes carry their
// group as a modifier (flowControl, arithmetic, …) so themes can tell kinds apart.
import { SemanticTokensBuilder, type Range, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver';
import { fieldByName } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { NAMED_INT_CONSTANTS, PSEUDO_OP_NAMES, isLabelImmediate, opAt } from '../language.js';
import { classify, type Role } from './classify.js';
import { symbolIndex } from './symbolIndex.js';

const TYPES = ['keyword', 'function', 'macro', 'enumMember', 'number', 'string', 'variable', 'label', 'comment'] as const;
const GROUP_MODIFIERS = ['flowControl', 'arithmetic', 'byteArray', 'loadingValues', 'stateAccess', 'cryptography', 'innerTransactions', 'boxAccess'] as const;
const MODIFIERS = ['declaration', 'defaultLibrary', ...GROUP_MODIFIERS] as const;

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

function groupModifier(group: string | undefined): number {
  let name: (typeof GROUP_MODIFIERS)[number] | undefined;
  switch (group) {
    case 'Flow Control':
      name = 'flowControl';
      break;
    case 'Arithmetic':
      name = 'arithmetic';
      break;
    case 'Byte Array Arithmetic':
    case 'Byte Array Logic':
    case 'Byte Array Manipulation':
      name = 'byteArray';
      break;
    case 'Loading Values':
      name = 'loadingValues';
      break;
    case 'Account Access':
    case 'Application Access':
    case 'Asset Access':
    case 'Block Access':
      name = 'stateAccess';
      break;
    case 'Cryptography':
      name = 'cryptography';
      break;
    case 'Inner Transactions':
      name = 'innerTransactions';
      break;
    case 'Box Access':
      name = 'boxAccess';
      break;
  }
  return name ? 1 << MODIFIERS.indexOf(name) : 0;
}

interface Tok {
  line: number;
  start: number;
  end: number;
  type: number;
  mods: number;
}

const NAMED = new Set(NAMED_INT_CONSTANTS.map((c) => c.name));
const cache = new WeakMap<DocumentModel, Tok[]>();

function tokensOf(model: DocumentModel): Tok[] {
  let out = cache.get(model);
  if (!out) cache.set(model, (out = build(model)));
  return out;
}

function build(model: DocumentModel): Tok[] {
  const byPos = new Map<string, Tok>();
  const key = (line: number, start: number) => `${line}:${start}`;
  const set = (line: number, start: number, end: number, type: (typeof TYPES)[number], mods: number) => {
    if (end > start) byPos.set(key(line, start), { line, start, end, type: TYPES.indexOf(type), mods });
  };
  for (const t of classify(model)) {
    const mapped = ROLE_TO_TOKEN[t.role];
    if (!mapped) continue;
    let mods = mapped[1];
    if (t.role === 'opcode') mods |= groupModifier(opAt(t.text, model.avmVersion)?.spec.groups[0]);
    set(t.line, t.start, t.end, mapped[0], mods);
  }
  // What each written token became after expansion (only tokens written at their use site).
  const version = model.analysis?.version ?? model.avmVersion;
  for (const s of model.analysis?.statements ?? []) {
    const toks = s.label ? s.tokens.slice(1) : s.tokens;
    const opTok = toks[0];
    if (!opTok) continue;
    const op = opAt(opTok.text, version);
    if (!opTok.definition && op) set(opTok.range.line, opTok.range.utf16Column, opTok.range.utf16EndColumn, 'function', 2 | groupModifier(op.spec.groups[0]));
    toks.slice(1).forEach((t, i) => {
      if (t.definition) return;
      const r = t.range;
      if (opTok.text === 'int' && NAMED.has(t.text)) return set(r.line, r.utf16Column, r.utf16EndColumn, 'enumMember', 0);
      if (!op || PSEUDO_OP_NAMES.has(opTok.text)) return;
      const imm = op.immediates[Math.min(i, op.immediates.length - 1)];
      if (imm?.fieldGroup && fieldByName(op, t.text)) set(r.line, r.utf16Column, r.utf16EndColumn, 'enumMember', 2);
      else if (imm && isLabelImmediate(imm.encoding)) set(r.line, r.utf16Column, r.utf16EndColumn, 'label', 0);
    });
  }
  for (const o of symbolIndex(model).occurrences) {
    set(o.range.start.line, o.range.start.character, o.range.end.character, o.kind === 'label' ? 'label' : 'macro', o.definition ? 1 : 0);
  }
  for (const l of model.lines) {
    if (l.commentStart !== undefined) set(l.line, l.commentStart, l.text.length, 'comment', 0);
  }
  return [...byPos.values()].sort((a, b) => a.line - b.line || a.start - b.start);
}

export function semanticTokens(model: DocumentModel, range?: Range): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  for (const t of tokensOf(model)) {
    if (range && (t.line < range.start.line || t.line > range.end.line)) continue;
    builder.push(t.line, t.start, t.end - t.start, t.type, t.mods);
  }
  return builder.build();
}
