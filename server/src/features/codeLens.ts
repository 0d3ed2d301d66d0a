// Code lenses: the assembled size (bytes and 2048-byte pages) above the first line, and the number
// of references above each label and subroutine (counting uses inside macros).
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';
import { symbolIndex } from './symbolIndex.js';

export const PAGE_SIZE = 2048;

export function codeLenses(model: DocumentModel): CodeLens[] {
  const out: CodeLens[] = [];
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const program = model.analysis?.program;
  if (program) {
    const pages = Math.max(1, Math.ceil(program.length / PAGE_SIZE));
    out.push({ range: top, command: { title: `${program.length} bytes · ${pages} ${pages === 1 ? 'page' : 'pages'}`, command: '' } });
  } else out.push({ range: top, command: { title: 'does not assemble', command: '' } });
  const idx = symbolIndex(model);
  // One pass over the occurrences: linear in the number of labels and references.
  const counts = new Map<string, number>();
  for (const o of idx.occurrences) if (o.kind === 'label' && !o.definition) counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
  for (const l of idx.labels) {
    const refs = counts.get(l.name) ?? 0;
    const what = idx.subroutines.has(l.name) ? 'subroutine · ' : '';
    out.push({ range: l.site, command: { title: `${what}${refs} ${refs === 1 ? 'reference' : 'references'}`, command: '' } });
  }
  return out;
}
