// Classifies every source token by its role (opcode, field, label, macro, …) without assembling.
// Semantic tokens and hover share it; once the SDK analysis is wired, macro-expanded roles refine it.
import { fieldByName } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { parseTealUint, statementsOf, type LexToken } from '@tealworks/sdk/teal';
import { NAMED_INT_CONSTANTS, PSEUDO_OP_NAMES, isLabelImmediate, opAt } from '../language.js';

export type Role =
  | 'directive'
  | 'pragmaKey'
  | 'macroDefinition'
  | 'macro'
  | 'labelDefinition'
  | 'label'
  | 'opcode'
  | 'pseudoOp'
  | 'field'
  | 'constant'
  | 'number'
  | 'string'
  | 'bytes'
  | 'template';

export interface Classified extends LexToken {
  role: Role;
  /** For immediates: the opcode of the statement. */
  op?: string;
}

const NAMED = new Set(NAMED_INT_CONSTANTS.map((c) => c.name));
const BYTE_ENCODINGS = /^(base64|b64|base32|b32)(\(.*\))?$|^0x[0-9a-fA-F]*$/;

function literalRole(text: string): Role | undefined {
  if (text.startsWith('"')) return 'string';
  if (text.startsWith('TMPL_')) return 'template';
  if (BYTE_ENCODINGS.test(text)) return text.startsWith('0x') ? 'number' : 'bytes';
  if (parseTealUint(text) !== undefined) return 'number';
  return undefined;
}

const cache = new WeakMap<DocumentModel, Classified[]>();

/** Every token's role, computed once per document version (models are rebuilt on change). */
export function classify(model: DocumentModel): Classified[] {
  let out = cache.get(model);
  if (!out) cache.set(model, (out = classifyAll(model)));
  return out;
}

function classifyAll(model: DocumentModel): Classified[] {
  const out: Classified[] = [];
  for (const l of model.lines) {
    const first = l.tokens[0];
    if (first?.text.startsWith('#')) {
      out.push({ ...first, role: 'directive' });
      const rest = l.tokens.slice(1);
      if (first.text === '#pragma' && rest[0]) {
        out.push({ ...rest[0], role: 'pragmaKey' });
        for (const t of rest.slice(1)) {
          const r = literalRole(t.text);
          if (r) out.push({ ...t, role: r });
        }
      } else if (first.text === '#define' && rest[0]) {
        out.push({ ...rest[0], role: 'macroDefinition' });
        // The body is TEAL too: classify it as if it were a statement, which it becomes at use —
        // except a single value (`#define LIMIT 10`, `#define OWNER TMPL_OWNER`, `#define F Sender`),
        // which is an operand, not an opcode.
        const body = rest.slice(1);
        const only = body.length === 1 ? body[0]! : undefined;
        if (only && !opAt(only.text, model.avmVersion) && !PSEUDO_OP_NAMES.has(only.text) && !model.macros.has(only.text)) {
          out.push(singleValueRole(model, only));
          continue;
        }
        for (const st of statementsOf(body)) classifyStatement(model, st, out);
      }
      continue;
    }
    for (const st of statementsOf(l.tokens)) classifyStatement(model, st, out);
  }
  return out;
}

function classifyStatement(model: DocumentModel, st: LexToken[], out: Classified[]): void {
  let tokens = st;
  const head = tokens[0]!;
  if (head.text.endsWith(':') && head.text.length > 1 && !head.text.startsWith('"')) {
    out.push({ ...head, end: head.end - 1, text: head.text.slice(0, -1), role: 'labelDefinition' });
    tokens = tokens.slice(1);
  }
  const opToken = tokens[0];
  if (!opToken) return;
  if (model.macros.has(opToken.text)) {
    out.push({ ...opToken, role: 'macro' });
    for (const t of tokens.slice(1)) out.push(operandRole(model, t, undefined));
    return;
  }
  const op = opAt(opToken.text, model.avmVersion);
  if (!op) {
    if (PSEUDO_OP_NAMES.has(opToken.text)) {
      out.push({ ...opToken, role: 'pseudoOp' });
      for (const t of tokens.slice(1)) {
        if (opToken.text === 'int' && NAMED.has(t.text)) out.push({ ...t, role: 'constant', op: 'int' });
        else out.push(operandRole(model, t, opToken.text));
      }
    } else {
      // An op from a later version or a typo: still show it as an opcode so colouring is stable.
      out.push({ ...opToken, role: 'opcode' });
      for (const t of tokens.slice(1)) out.push(operandRole(model, t, opToken.text));
    }
    return;
  }
  out.push({ ...opToken, role: 'opcode' });
  const rest = tokens.slice(1);
  rest.forEach((t, i) => {
    const imm = op.immediates[Math.min(i, op.immediates.length - 1)];
    if (model.macros.has(t.text)) out.push({ ...t, role: 'macro', op: op.name });
    else if (imm?.fieldGroup && fieldByName(op, t.text)) out.push({ ...t, role: 'field', op: op.name });
    else if (imm && isLabelImmediate(imm.encoding)) out.push({ ...t, role: 'label', op: op.name });
    else out.push(operandRole(model, t, op.name));
  });
}

function operandRole(model: DocumentModel, t: LexToken, op: string | undefined): Classified {
  if (model.macros.has(t.text)) return { ...t, role: 'macro', ...(op ? { op } : {}) };
  const lit = literalRole(t.text);
  if (lit) return { ...t, role: lit, ...(op ? { op } : {}) };
  if (model.labels.has(t.text)) return { ...t, role: 'label', ...(op ? { op } : {}) };
  return { ...t, role: 'constant', ...(op ? { op } : {}) };
}

function singleValueRole(model: DocumentModel, t: LexToken): Classified {
  const lit = literalRole(t.text);
  if (lit) return { ...t, role: lit };
  if (NAMED.has(t.text)) return { ...t, role: 'constant', op: 'int' };
  if (model.labels.has(t.text)) return { ...t, role: 'label' };
  return { ...t, role: 'constant' };
}

/** The classified token under a position, if any. */
export function tokenAt(tokens: readonly Classified[], line: number, character: number): Classified | undefined {
  return tokens.find((t) => t.line === line && t.start <= character && character <= t.end && t.end > t.start);
}
