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
  for (const l of idx.labels) {
    const refs = idx.occurrences.filter((o) => o.kind === 'label' && o.name === l.name && !o.definition).length;
    const what = idx.subroutines.has(l.name) ? 'subroutine · ' : '';
    out.push({ range: l.site, command: { title: `${what}${refs} ${refs === 1 ? 'reference' : 'references'}`, command: '' } });
  }
  return out;
}
