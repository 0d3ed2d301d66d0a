// Hover: opcodes, fields, named constants and directives are documented by the SDK's docs renderer
// (sdk/src/teal/docs); macros show their body. The table-built fact lines are only a fallback for
// names the renderer does not know.
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { fieldByName, opSpecByName, tealMethodLines, type TealMethodLine } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { opAt, PSEUDO_OPS } from '../language.js';
import { constantMarkdown, fieldMarkdown, opcodeMarkdown } from '../teal.js';
import { classify, tokenAt } from './classify.js';
import { signature } from './completion.js';
import { macroMarkdown } from './macroInfo.js';

function fenced(text: string): string {
  return '```teal\n' + text + '\n```';
}

/** What a `TMPL_*` placeholder is, its declared type and the value diagnostics assume. */
export function templateHover(model: DocumentModel, name: string): string {
  const info = model.templates.get(name);
  const out = [
    `\`${name}\` — template variable`,
    '',
    'A deploy tool replaces it with a constant before the program is assembled, so it may stand wherever a constant can (an `int`, `byte` or `addr` value, or an immediate).',
  ];
  if (info?.type) out.push('', `Type: \`${info.type}\` (ARC-56 \`templateVariables\`)`);
  if (info?.valueText !== undefined) {
    out.push(
      '',
      `Checked with \`${info.valueText}\` from ${info.origin === 'settings' ? 'the `tealworks.templateVariables` setting' : info.originDetail ? `${info.origin}: ${info.originDetail}` : info.origin}.`,
    );
  } else {
    out.push(
      '',
      "No value known: checked with a placeholder constant of the kind its place takes. Give one in the `tealworks.templateVariables` setting, under the contract's `template:` in tealworks.yaml, or as the `value` in the ARC-56 spec; Deploy asks for it.",
    );
  }
  return out.join('\n');
}

const methodLinesCache = new WeakMap<DocumentModel, TealMethodLine[]>();

/** The `method "…"` whose `method` or signature token is at (line, character), if any. */
function methodLineAt(model: DocumentModel, line: number, character: number): TealMethodLine | undefined {
  if (!model.lines[line]?.text.includes('method')) return undefined;
  let all = methodLinesCache.get(model);
  if (!all) methodLinesCache.set(model, (all = tealMethodLines(model.text)));
  return all.find((m) => {
    if (m.line !== line) return false;
    const methodToken = model.lines[line]!.tokens.filter((t) => t.text === 'method' && t.end < m.start).pop();
    return (character >= m.start && character <= m.end) || (methodToken !== undefined && character >= methodToken.start && character <= methodToken.end);
  });
}

/** Hover Markdown for a `method "…"` line: what the selector is and what it stands for. */
export function methodLineMarkdown(m: TealMethodLine): string {
  const selector = `\`0x${m.selectorHex}\``;
  switch (m.kind) {
    case 'method':
    case 'inner': {
      const method = m.method!;
      const args = method.args.map((a) => `\`${a.type}\``).join(', ') || 'none';
      const head = m.kind === 'method' ? 'ARC-4 method' : 'ARC-4 method called through an inner transaction';
      return [
        `**${head}** \`${method.name}\``,
        '',
        `Selector ${selector} = sha512_256(\`${m.signature}\`)[0:4]`,
        '',
        `Arguments: ${args} · returns \`${method.returns.type}\``,
      ].join('\n');
    }
    case 'event':
      return [
        `**ARC-28 event** \`${m.signature}\``,
        '',
        `Selector ${selector}: the first 4 bytes of the event's log entry (no return type: not a method).`,
      ].join('\n');
    default:
      return [
        `\`${m.signature}\` is not an ARC-4 signature (\`name(args)return\` with ARC-4 types)`,
        '',
        `It still pushes ${selector} = sha512_256 of the text.`,
      ].join('\n');
  }
}

export function hover(model: DocumentModel, position: Position): Hover | null {
  const methodLine = methodLineAt(model, position.line, position.character);
  if (methodLine) {
    const start = model.lines[position.line]!.tokens.filter((t) => t.text === 'method' && t.end < methodLine.start).pop()?.start ?? methodLine.start;
    return {
      contents: { kind: MarkupKind.Markdown, value: methodLineMarkdown(methodLine) },
      range: { start: { line: position.line, character: start }, end: { line: position.line, character: methodLine.end } },
    };
  }
  const token = tokenAt(classify(model), position.line, position.character);
  if (!token) return null;
  const range = { start: { line: token.line, character: token.start }, end: { line: token.line, character: token.end } };
  const markdown = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value }, range });
  switch (token.role) {
    case 'opcode': {
      const rendered = opcodeMarkdown(token.text, model.avmVersion);
      if (rendered) return markdown(rendered);
      const op = opAt(token.text, model.avmVersion);
      if (op) return markdown(fenced(signature(op)) + `\n\n${op.spec.groups.join(', ')} · AVM v${op.spec.introduced}+`);
      const spec = opSpecByName(token.text);
      if (spec) return markdown(`\`${spec.name}\` needs AVM v${spec.introduced}; this program is v${model.avmVersion}.`);
      return null;
    }
    case 'pseudoOp': {
      const rendered = opcodeMarkdown(token.text, model.avmVersion);
      if (rendered) return markdown(rendered);
      const p = PSEUDO_OPS.find((x) => x.name === token.text);
      return p ? markdown(`\`${p.name}\` — ${p.summary}`) : null;
    }
    case 'field': {
      const spec = token.op ? opSpecByName(token.op) : undefined;
      const group = spec?.fieldGroup;
      const rendered = group ? fieldMarkdown(group, token.text, model.avmVersion, token.op) : undefined;
      if (rendered) return markdown(rendered);
      const op = token.op ? opAt(token.op, model.avmVersion) : undefined;
      const field = op ? fieldByName(op, token.text) : undefined;
      if (!field) return null;
      return markdown(`\`${token.op} ${field.name}\` → \`${field.type}\` · field ${field.value} · AVM v${field.version}+`);
    }
    case 'constant': {
      const rendered = token.op === 'int' ? constantMarkdown(token.text) : undefined;
      return rendered ? markdown(rendered) : null;
    }
    case 'template':
      return markdown(templateHover(model, token.text));
    case 'pragmaKey': {
      const line = model.lines[token.line];
      const rendered = line?.tokens[0]?.text === '#pragma' ? constantMarkdown(`#pragma ${token.text}`) : undefined;
      return rendered ? markdown(rendered) : null;
    }
    case 'macro':
    case 'macroDefinition': {
      const m = model.macros.get(token.text);
      if (!m) return null;
      const uses = model.analysis?.macros.find((x) => x.name === m.name && x.current)?.uses.filter((u) => !u.definition).length;
      return markdown(macroMarkdown(model, m, uses));
    }
    case 'directive': {
      const line = model.lines[token.line];
      const key = token.text === '#pragma' && line?.tokens[1] ? `#pragma ${line.tokens[1].text}` : token.text;
      const rendered = constantMarkdown(key) ?? constantMarkdown(token.text);
      return rendered ? markdown(rendered) : null;
    }
    default:
      return null;
  }
}
