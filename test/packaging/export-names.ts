import ts from 'typescript';
import { relative } from 'node:path';

/**
 * Every name the given entry points export, with the declarations it stands for: a name exported
 * by two entry points must be the same declaration (re-exported), not two different things.
 * Works on `.d.ts` files (the built package) as well as on sources.
 */
export function exportMeanings(entries: Record<string, string>, options: ts.CompilerOptions = {}): Map<string, Map<string, string[]>> {
  const program = ts.createProgram(Object.values(entries), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    ...options,
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, Map<string, string[]>>();
  const base = Object.values(entries)[0]!.replace(/[^/]*$/, '');
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`cannot load ${file}`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const sym of checker.getExportsOfModule(moduleSymbol)) {
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const decl = target.declarations?.[0];
      const id = decl ? `${relative(base, decl.getSourceFile().fileName)}#${target.getName()}@${decl.pos}` : `?${target.getName()}`;
      const byId = out.get(sym.getName()) ?? new Map<string, string[]>();
      byId.set(id, [...(byId.get(id) ?? []), entry]);
      out.set(sym.getName(), byId);
    }
  }
  return out;
}

/** Names that mean two or more different things across the entry points, with where. */
export function namesWithTwoMeanings(meanings: Map<string, Map<string, string[]>>): string[] {
  const bad: string[] = [];
  for (const [name, byId] of meanings) {
    if (byId.size > 1) bad.push(`${name}: ${[...byId].map(([id, where]) => `${id.replace(/@\d+$/, '')} (${where.join(', ')})`).join(' vs ')}`);
  }
  return bad.sort();
}
