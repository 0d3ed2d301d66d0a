// Completion from the opcode table: opcodes available at the document's version (and mode, when
// known) with snippet placeholders for their immediates, field names by immediate kind, named
// constants after `int`, labels after branches, macros everywhere an instruction token may go, and
// directive keywords.
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type CompletionParams } from 'vscode-languageserver';
import { fieldsAt, modeAllows, opsAt, statementsOf, type VersionedOp } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { DIRECTIVES, MAX_AVM_VERSION, NAMED_INT_CONSTANTS, PRAGMAS, PSEUDO_OPS, isLabelImmediate, modeBit, opAt } from '../language.js';
import { opcodeMarkdown } from '../teal.js';
import { cursorContext } from './context.js';
import { macroKind, type MacroKind } from './macroInfo.js';

export interface CompletionData {
  op?: string;
  version?: number;
}

/** Escapes text for use inside an LSP snippet (outside or inside a choice). */
export function snippetEscape(text: string, inChoice = false): string {
  return text.replace(inChoice ? /[$}\\,|]/g : /[$}\\]/g, (c) => `\\${c}`);
}

export function signature(op: VersionedOp): string {
  const imms = op.immediates.map((i) => i.name).join(' ');
  const args = op.args.length ? op.args.join(', ') : '';
  const rets = op.returns.length ? op.returns.join(', ') : '';
  return `${op.name}${imms ? ' ' + imms : ''}  (${args}) → (${rets})`;
}

function immediatePlaceholder(op: VersionedOp, index: number, version: number, mode: number): string {
  const imm = op.immediates[index]!;
  const n = index + 1;
  if (imm.fieldGroup) {
    const names = fieldsAt(op, version)
      .filter((f) => modeAllows(f.modes, mode))
      .map((f) => snippetEscape(f.name, true));
    if (names.length) return `\${${n}|${names.join(',')}|}`;
  }
  if (imm.encoding === 'labels') return `\${${n}:labels}`;
  if (isLabelImmediate(imm.encoding)) return `\${${n}:label}`;
  return `\${${n}:${snippetEscape(imm.name)}}`;
}

const opcodeItemCache = new Map<string, CompletionItem[]>();

/** The opcode list depends only on version and mode, so it is built once per pair. */
function opcodeItems(model: DocumentModel): CompletionItem[] {
  const key = `${model.avmVersion}:${modeBit(model.mode)}`;
  let items = opcodeItemCache.get(key);
  if (!items) opcodeItemCache.set(key, (items = buildOpcodeItems(model.avmVersion, modeBit(model.mode))));
  // Copies: the client may mutate items (resolve fills documentation).
  return items.map((i) => ({ ...i }));
}

function buildOpcodeItems(version: number, mode: number): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const op of opsAt(version)) {
    if (!modeAllows(op.modes, mode)) continue;
    const placeholders = op.immediates.map((_, i) => immediatePlaceholder(op, i, version, mode));
    const item: CompletionItem = {
      label: op.name,
      kind: CompletionItemKind.Function,
      detail: signature(op),
      labelDetails: { description: op.spec.groups[0] ?? '' },
      data: { op: op.name, version } satisfies CompletionData,
    };
    if (placeholders.length) {
      item.insertText = `${snippetEscape(op.name)} ${placeholders.join(' ')}`;
      item.insertTextFormat = InsertTextFormat.Snippet;
    }
    items.push(item);
  }
  for (const p of PSEUDO_OPS) {
    items.push({
      label: p.name,
      kind: CompletionItemKind.Keyword,
      detail: `${p.name} (pseudo-op): ${p.summary}`,
      insertText: `${p.name} ${p.snippet}`,
      insertTextFormat: InsertTextFormat.Snippet,
    });
  }
  return items;
}

/** Macros whose expansion fits where the cursor is (`fits` sees what each macro stands for). */
function macroItems(model: DocumentModel, fits: (kind: MacroKind) => boolean = () => true): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const m of model.macros.values()) {
    if (!fits(macroKind(model, m))) continue;
    out.push({ label: m.name, sortText: `z${m.name}`, kind: CompletionItemKind.Constant, detail: `#define ${m.name} ${m.body.map((t) => t.text).join(' ')}` });
  }
  return out;
}

/** A macro that is code (a statement or several), or whose body the server cannot classify. */
const isCode = (k: MacroKind) => k.kind === 'code' || k.kind === 'other';
const isUint = (k: MacroKind) => k.kind === 'constant' && k.uint;

/** The statement before the cursor's (same line before a `;`, or the last one on earlier lines). */
function previousStatement(model: DocumentModel, line: number, character: number): string[] | undefined {
  for (let l = line; l >= 0 && l >= line - 50; l--) {
    const lexed = model.lines[l];
    if (!lexed || lexed.tokens[0]?.text.startsWith('#')) continue;
    const tokens = l === line ? lexed.tokens.filter((t) => t.end <= character) : lexed.tokens;
    const statements = statementsOf(tokens)
      .map((st) => (st[0]!.text.endsWith(':') ? st.slice(1) : st))
      .filter((st) => st.length > 0);
    // On the cursor's line the last statement is the one being typed.
    if (l === line) statements.pop();
    const last = statements[statements.length - 1];
    if (last) return last.map((t) => t.text);
  }
  return undefined;
}

/** TypeEnum or OnCompletion when the previous statement reads that field (`txn TypeEnum`, `gtxn 0 OnCompletion` …). */
function comparedField(prev: readonly string[] | undefined): 'TypeEnum' | 'OnCompletion' | undefined {
  const field = prev?.find((t) => t === 'TypeEnum' || t === 'OnCompletion');
  return field && /^(g?i?txn|gtxns|itxn)$/.test(prev![0]!) ? (field as 'TypeEnum' | 'OnCompletion') : undefined;
}

function labelItems(model: DocumentModel): CompletionItem[] {
  return [...model.labels.keys()].map((name) => ({ label: name, kind: CompletionItemKind.Reference, detail: 'label' }));
}

function directiveItems(model: DocumentModel, tokens: { text: string }[], index: number): CompletionItem[] {
  if (index === 0) return DIRECTIVES.map((d) => ({ label: d, kind: CompletionItemKind.Keyword }));
  if (tokens[0]?.text !== '#pragma') return [];
  if (index === 1) return PRAGMAS.map((p) => ({ label: p, kind: CompletionItemKind.Keyword }));
  if (index === 2 && tokens[1]?.text === 'version') {
    const items: CompletionItem[] = [];
    for (let v = MAX_AVM_VERSION; v >= 1; v--) items.push({ label: String(v), kind: CompletionItemKind.Value, sortText: String(100 - v).padStart(3, '0') });
    return items;
  }
  if (index === 2 && (tokens[1]?.text === 'typetrack' || tokens[1]?.text === 'autosalt')) {
    return ['true', 'false'].map((b) => ({ label: b, kind: CompletionItemKind.Value }));
  }
  void model;
  return [];
}

export function complete(model: DocumentModel, params: Pick<CompletionParams, 'position'>): CompletionItem[] {
  const ctx = cursorContext(model, params.position.line, params.position.character);
  if (ctx.kind === 'comment' || ctx.kind === 'string') return [];
  if (ctx.kind === 'directive') {
    // A `#define` body is TEAL that runs at each use: complete it like code.
    if (ctx.tokens[0]?.text === '#define' && ctx.index >= 2) {
      const body = ctx.tokens.slice(2);
      const lastSemi = body.map((t) => t.text).lastIndexOf(';');
      let statement = body.slice(lastSemi + 1);
      if (statement[0]?.text.endsWith(':')) statement = statement.slice(1);
      return instructionItems(model, statement, false);
    }
    return directiveItems(model, ctx.tokens, ctx.index);
  }
  const prev = ctx.index === 1 ? previousStatement(model, params.position.line, params.position.character) : undefined;
  return instructionItems(model, ctx.tokens, ctx.lineStart, prev);
}

/**
 * Items for the next token of a statement whose earlier tokens are `tokens` (no label, no `;`):
 * only what fits there (an integer after `int`, the op's own fields, labels after a branch), and
 * only the macros whose expansion does.
 */
function instructionItems(model: DocumentModel, tokens: readonly { text: string }[], lineStart: boolean, prev?: readonly string[]): CompletionItem[] {
  const ctx = { tokens, index: tokens.length };
  if (ctx.index === 0) {
    const items = [...opcodeItems(model), ...macroItems(model, isCode)];
    // A directive may start a line, but not after a label or `;`.
    if (lineStart) {
      for (const d of DIRECTIVES) items.push({ label: d, kind: CompletionItemKind.Keyword });
    }
    return items;
  }
  const opToken = ctx.tokens[0]!;
  const version = model.avmVersion;
  const mode = modeBit(model.mode);
  if (opToken.text === 'int' || opToken.text === 'pushint') {
    if (ctx.index !== 1) return [];
    // After `txn TypeEnum` only type names fit the comparison; after `txn OnCompletion`, actions.
    const compared = comparedField(prev);
    const named =
      opToken.text === 'int'
        ? NAMED_INT_CONSTANTS.filter((c) => !compared || c.kind === compared).map((c) => ({
            label: c.name,
            kind: CompletionItemKind.EnumMember,
            detail: `${c.kind} = ${c.value}`,
          }))
        : [];
    const fits = (k: MacroKind) =>
      isUint(k) && (opToken.text === 'int' || k.kind !== 'constant' || !k.named) && (!compared || k.kind !== 'constant' || !k.named || k.named === compared);
    return [...named, ...macroItems(model, fits)];
  }
  if (opToken.text === 'byte' || opToken.text === 'pushbytes' || opToken.text === 'method') {
    if (ctx.index !== 1) return [];
    return macroItems(model, (k) => k.kind === 'constant' && k.bytes && (opToken.text !== 'method' || !k.uint));
  }
  if (opToken.text === 'addr') {
    if (ctx.index !== 1) return [];
    return macroItems(model, (k) => (k.kind === 'word' && k.word.length === 58) || (k.kind === 'constant' && k.template === true));
  }
  const op = opAt(opToken.text, version);
  // A macro used as an op: its arguments are whatever its body takes.
  if (!op) return model.macros.has(opToken.text) ? macroItems(model) : [];
  const imm = op.immediates[ctx.index - 1];
  const labelList = op.immediates[op.immediates.length - 1]?.encoding === 'labels';
  if (!imm && !labelList) return [];
  if (imm?.fieldGroup) {
    const valid = fieldsAt(op, version).filter((f) => modeAllows(f.modes, mode));
    const names = new Set(valid.map((f) => f.name));
    // Table order (by field number) puts the everyday fields (Sender, Fee, …) first.
    const fields = valid.map((f, i) => ({
      label: f.name,
      kind: CompletionItemKind.EnumMember,
      detail: `${f.type} (v${f.version}+, field ${f.value})`,
      sortText: `a${String(i).padStart(3, '0')}`,
    }));
    return [...fields, ...macroItems(model, (k) => k.kind === 'word' && names.has(k.word))];
  }
  if (!imm || isLabelImmediate(imm.encoding)) return [...labelItems(model), ...macroItems(model, (k) => k.kind === 'word' && model.labels.has(k.word))];
  // Number immediates (slots, indexes, depths) and constants (pushint, pushbytes): by kind.
  if (imm.encoding === 'bytes' || imm.encoding === 'bytesList') return macroItems(model, (k) => k.kind === 'constant' && k.bytes);
  return macroItems(model, (k) => k.kind === 'constant' && k.uint && !k.named);
}

export function resolveCompletion(item: CompletionItem): CompletionItem {
  const data = item.data as CompletionData | undefined;
  if (data?.op && data.version) {
    const md = opcodeMarkdown(data.op, data.version);
    if (md) item.documentation = { kind: MarkupKind.Markdown, value: md };
  }
  return item;
}
