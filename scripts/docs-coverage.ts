// `npm run docs:coverage`: how many public exports of @tealworks/sdk carry a TSDoc comment (`/** */`,
// which reaches the .d.ts and the API reference). Counts every name of every entry point once;
// `--min N` exits 1 below N percent; `--list` prints the undocumented names.
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'sdk/package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entries: Record<string, string> = {};
for (const key of Object.keys(pkg.exports)) {
  if (key === './package.json') continue;
  entries[key === '.' ? '@tealworks/sdk' : `@tealworks/sdk/${key.slice(2)}`] = join(root, 'sdk/src', key === '.' ? 'index.ts' : `${key.slice(2)}/index.ts`);
}

const program = ts.createProgram(Object.values(entries), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

/** True when the declaration (or, for a variable, its statement) has a `/** … *\/` comment with text. */
function documented(sym: ts.Symbol): boolean {
  if (sym.getDocumentationComment(checker).some((p) => p.text.trim() !== '')) return true;
  for (const d of sym.declarations ?? []) {
    const node = ts.isVariableDeclaration(d) ? d.parent.parent : d;
    if (ts.getJSDocCommentsAndTags(node).length > 0) return true;
  }
  return false;
}

const seen = new Map<string, { name: string; file: string; ok: boolean; entries: string[] }>();
for (const [entry, file] of Object.entries(entries)) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot load ${file}`);
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const sym = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const decl = sym.declarations?.[0];
    const where = decl ? relative(root, decl.getSourceFile().fileName) : '?';
    const key = `${where}#${sym.getName()}`;
    const prior = seen.get(key);
    if (prior) prior.entries.push(entry);
    else seen.set(key, { name: exported.getName(), file: where, ok: documented(sym), entries: [entry] });
  }
}

const all = [...seen.values()];
const ok = all.filter((e) => e.ok).length;
const pct = (100 * ok) / all.length;
const byEntry = new Map<string, { ok: number; total: number }>();
for (const e of all) {
  const k = e.entries[0]!;
  const v = byEntry.get(k) ?? { ok: 0, total: 0 };
  v.total++;
  if (e.ok) v.ok++;
  byEntry.set(k, v);
}
console.log('entry point                      documented / exports');
for (const [k, v] of byEntry) console.log(`${k.padEnd(32)} ${String(v.ok).padStart(5)} / ${String(v.total).padEnd(5)} ${((100 * v.ok) / v.total).toFixed(1)}%`);
console.log(`TSDoc coverage of public exports: ${ok} / ${all.length} = ${pct.toFixed(1)}%`);
if (process.argv.includes('--list')) for (const e of all.filter((x) => !x.ok)) console.log(`  undocumented: ${e.name} (${e.file})`);
const minArg = process.argv.indexOf('--min');
if (minArg > 0) {
  const min = Number(process.argv[minArg + 1]);
  if (pct < min) {
    console.error(`below the required ${min}%`);
    process.exitCode = 1;
  }
}
