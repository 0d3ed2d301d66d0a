// Signature help while typing a statement: the opcode's immediates then its stack arguments, from
// the opcode table, with the SDK docs renderer's text as documentation.
import { MarkupKind, type ParameterInformation, type Position, type SignatureHelp } from 'vscode-languageserver';
import { opcodeSignature } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { opAt } from '../language.js';
import { opcodeMarkdown } from '../teal.js';
import { cursorContext } from './context.js';

const PSEUDO: Record<string, { label: string; params: string[] }> = {
  int: { label: 'int value  → uint64', params: ['value'] },
  byte: { label: 'byte value  → []byte', params: ['value'] },
  addr: { label: 'addr address  → [32]byte', params: ['address'] },
  method: { label: 'method signature  → [4]byte', params: ['signature'] },
};

function paramsIn(label: string, names: readonly string[], from: number): { params: ParameterInformation[]; end: number } {
  const params: ParameterInformation[] = [];
  let at = from;
  for (const n of names) {
    const i = label.indexOf(n, at);
    if (i < 0) continue;
    params.push({ label: [i, i + n.length] });
    at = i + n.length;
  }
  return { params, end: at };
}

export function signatureHelp(model: DocumentModel, pos: Position): SignatureHelp | null {
  const ctx = cursorContext(model, pos.line, pos.character);
  if (ctx.kind !== 'instruction' || ctx.tokens.length === 0) return null;
  const name = ctx.tokens[0]!.text;
  const immIndex = ctx.index - 1;
  const pseudo = PSEUDO[name];
  if (pseudo) {
    const { params } = paramsIn(pseudo.label, pseudo.params, name.length);
    return {
      signatures: [{ label: pseudo.label, parameters: params, ...docs(name, model) }],
      activeSignature: 0,
      activeParameter: Math.min(immIndex, params.length - 1),
    };
  }
  const version = model.analysis?.version ?? model.avmVersion;
  const op = opAt(name, version);
  if (!op) return null;
  const label = opcodeSignature(op.name, op);
  const imms = paramsIn(
    label,
    op.immediates.map((i) => i.name),
    op.name.length,
  );
  const args = paramsIn(
    label,
    op.args.map((t, i) => `${String.fromCharCode(65 + i)}: ${t}`),
    imms.end,
  );
  const parameters = [...imms.params, ...args.params];
  // Past the immediates the next thing the op needs is its stack arguments.
  const active = immIndex < op.immediates.length ? immIndex : op.immediates.length;
  return {
    signatures: [{ label, parameters, ...docs(op.name, model) }],
    activeSignature: 0,
    activeParameter: parameters.length ? Math.min(active, parameters.length - 1) : 0,
  };
}

/**
 * The op's docs without the signature block they open with: the signature is the help's own
 * label, and clients show the label above the documentation (it was printed twice).
 */
function docs(name: string, model: DocumentModel) {
  const md = opcodeMarkdown(name, model.analysis?.version ?? model.avmVersion)?.replace(/^```teal\n[\s\S]*?\n```\s*/, '');
  return md ? { documentation: { kind: MarkupKind.Markdown, value: md } } : {};
}
