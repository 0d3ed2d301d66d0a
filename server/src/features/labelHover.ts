// Hover for labels (the token-level hover knows nothing about them): what the name is, its pc in
// the assembled program and how often it is used, counting uses inside macros.
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { occurrenceAt, symbolIndex } from './symbolIndex.js';

export function labelHover(model: DocumentModel, pos: Position): Hover | null {
  const occ = occurrenceAt(model, pos.line, pos.character);
  if (!occ || occ.kind !== 'label') return null;
  const idx = symbolIndex(model);
  const entry = idx.labels.find((l) => l.name === occ.name);
  if (!entry) return null;
  const refs = idx.occurrences.filter((o) => o.kind === 'label' && o.name === occ.name && !o.definition).length;
  const what = idx.subroutines.has(occ.name) ? 'subroutine' : 'label';
  const facts = [`${refs} ${refs === 1 ? 'reference' : 'references'}`];
  if (entry.pc !== undefined) facts.unshift(`pc ${entry.pc}`);
  if (entry.fromMacro) facts.push(`created where a macro is used (line ${entry.site.start.line + 1})`);
  return { contents: { kind: MarkupKind.Markdown, value: `${what} \`${occ.name}\` · ${facts.join(' · ')}` }, range: occ.range };
}
