// Rewrites the products' imports of SDK sources (`../../sdk/src/<layer>/…`) to the package's public
// entry points (`@tealworks/sdk`, `@tealworks/sdk/<layer>`), keeping local names: a name the entry
// point exports under another name is imported as `Public as Local`. Re-runnable after merges.
//
//   npx tsx scripts/codemod-sdk-imports.ts           rewrite extension/, server/, examples/
//   npx tsx scripts/codemod-sdk-imports.ts --check   only report; exit 1 when something is left
//
// A name no entry point exports is reported and its import left as it was: export it from its
// layer's index.ts (with a doc comment), then run the codemod again.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sdkSrc = join(root, 'sdk/src');
const PRODUCTS = ['extension/src', 'server/src', 'examples'];
const check = process.argv.includes('--check');

const pkg = JSON.parse(readFileSync(join(root, 'sdk/package.json'), 'utf8')) as { exports: Record<string, unknown> };
/** Entry point specifier → its barrel file. */
const entries = new Map<string, string>();
for (const key of Object.keys(pkg.exports)) {
  if (key === './package.json') continue;
  entries.set(key === '.' ? '@tealworks/sdk' : `@tealworks/sdk/${key.slice(2)}`, join(sdkSrc, key === '.' ? 'index.ts' : `${key.slice(2)}/index.ts`));
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    if (n === 'node_modules' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ts|mts|tsx)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const productFiles = PRODUCTS.flatMap((d) => walk(join(root, d)));
const DEEP = /^(?:\.\.?\/)+(?:.*\/)?sdk\/src\/(.+?)(?:\.js|\.ts)?$/;

/** The absolute SDK source file a deep specifier names. */
function deepTarget(from: string, spec: string): string | undefined {
  if (!DEEP.test(spec)) return undefined;
  const abs = resolve(dirname(from), spec).replace(/\.js$/, '.ts');
  if (!abs.startsWith(sdkSrc + '/')) return undefined;
  return abs.endsWith('.ts') ? abs : `${abs}.ts`;
}

/** The entry point for a source file: its layer's subpath, or the root for sdk/src/*.ts. */
function entryFor(file: string): string {
  const rel = relative(sdkSrc, file);
  const layer = rel.includes('/') ? rel.split('/')[0]! : '';
  const spec = layer ? `@tealworks/sdk/${layer}` : '@tealworks/sdk';
  return entries.has(spec) ? spec : '@tealworks/sdk';
}

// Which deep modules are imported, to load them with the barrels in one program.
const deepFiles = new Set<string>();
for (const f of productFiles) {
  const text = readFileSync(f, 'utf8');
  for (const m of text.matchAll(/['"]((?:\.\.?\/)+[^'"]*sdk\/src\/[^'"]+)['"]/g)) {
    const t = deepTarget(f, m[1]!);
    if (t) deepFiles.add(t);
  }
}
const program = ts.createProgram([...entries.values(), ...deepFiles], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

function declId(sym: ts.Symbol): string {
  const t = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  const d = t.declarations?.[0];
  return d ? `${d.getSourceFile().fileName}:${d.pos}` : `?${t.getName()}`;
}

const moduleExports = new Map<string, Map<string, string>>(); // file → name → declaration id
function exportsOf(file: string): Map<string, string> {
  let m = moduleExports.get(file);
  if (m) return m;
  m = new Map();
  const sf = program.getSourceFile(file);
  const sym = sf && checker.getSymbolAtLocation(sf);
  if (sym) for (const e of checker.getExportsOfModule(sym)) m.set(e.getName(), declId(e));
  moduleExports.set(file, m);
  return m;
}

/** Entry → declaration id → the public name. */
const publicNames = new Map<string, Map<string, string>>();
for (const [spec, file] of entries) {
  const byDecl = new Map<string, string>();
  for (const [name, id] of exportsOf(file)) if (!byDecl.has(id) || byDecl.get(id) !== name) byDecl.set(id, byDecl.get(id) ?? name);
  for (const [name, id] of exportsOf(file)) if (name === [...exportsOf(file)].find(([, i]) => i === id)?.[0]) byDecl.set(id, name);
  publicNames.set(spec, byDecl);
}

function publicName(entry: string, deepFile: string, name: string): string | undefined {
  const id = exportsOf(deepFile).get(name);
  if (!id) return undefined;
  const names = publicNames.get(entry)!;
  // Prefer the same name when the entry exports the declaration under it.
  if (exportsOf(entries.get(entry)!).get(name) === id) return name;
  return names.get(id);
}

const problems: string[] = [];
let changedFiles = 0;
let rewritten = 0;

for (const file of productFiles) {
  const text = readFileSync(file, 'utf8');
  if (!/sdk\/src\//.test(text)) continue;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const where = (n: ts.Node) => `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;

  const namedRewrite = (
    spec: ts.StringLiteral,
    deep: string,
    elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[] | undefined,
    node: ts.Node,
  ): void => {
    const entry = entryFor(deep);
    const local: typeof edits = [];
    if (elements) {
      for (const el of elements) {
        const imported = (el.propertyName ?? el.name).getText(sf);
        const localName = el.name.getText(sf);
        const pub = publicName(entry, deep, imported);
        if (!pub) {
          problems.push(`${where(el)}: ${imported} (from ${relative(root, deep)}) is not exported by ${entry}`);
          continue;
        }
        if (pub !== imported) {
          const typePrefix = el.isTypeOnly ? 'type ' : '';
          local.push({ start: el.getStart(sf), end: el.getEnd(), text: `${typePrefix}${pub} as ${localName}` });
        }
      }
    } else if (deep !== entries.get(entry)) {
      problems.push(`${where(node)}: namespace or side-effect import of ${relative(root, deep)}; import named exports instead`);
      return;
    }
    if (elements?.some((el) => !publicName(entry, deep, (el.propertyName ?? el.name).getText(sf)))) return;
    edits.push(...local, { start: spec.getStart(sf), end: spec.getEnd(), text: `'${entry}'` });
    rewritten++;
  };

  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const deep = deepTarget(file, node.moduleSpecifier.text);
      if (deep) {
        let elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[] | undefined;
        if (ts.isImportDeclaration(node)) {
          const b = node.importClause?.namedBindings;
          if (b && ts.isNamedImports(b) && !node.importClause?.name) elements = b.elements;
        } else if (node.exportClause && ts.isNamedExports(node.exportClause)) elements = node.exportClause.elements;
        namedRewrite(node.moduleSpecifier, deep, elements, node);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const deep = deepTarget(file, node.argument.literal.text);
      if (deep) {
        const entry = entryFor(deep);
        const q = node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier.text : undefined) : undefined;
        const pub = q ? publicName(entry, deep, q) : undefined;
        if (!q || !pub) problems.push(`${where(node)}: import('${node.argument.literal.text}')${q ? `.${q}` : ''} has no public equivalent in ${entry}`);
        else {
          edits.push({ start: node.argument.literal.getStart(sf), end: node.argument.literal.getEnd(), text: `'${entry}'` });
          if (pub !== q) edits.push({ start: node.qualifier!.getStart(sf), end: node.qualifier!.getEnd(), text: pub });
          rewritten++;
        }
      }
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const lit = node.arguments[0];
      const deep = deepTarget(file, lit.text);
      if (deep) {
        const entry = entryFor(deep);
        // `const { a, b } = await import('…')`: the names must be public under the same names.
        let decl: ts.Node = node.parent;
        if (ts.isAwaitExpression(decl)) decl = decl.parent;
        const names =
          ts.isVariableDeclaration(decl) && ts.isObjectBindingPattern(decl.name)
            ? decl.name.elements.map((e) => (e.propertyName ?? e.name).getText(sf))
            : undefined;
        const missing = names ? names.filter((n) => publicName(entry, deep, n) !== n) : ['(not a destructuring)'];
        if (missing.length)
          problems.push(`${where(node)}: dynamic import of ${relative(root, deep)}: ${missing.join(', ')} not public under that name in ${entry}`);
        else {
          edits.push({ start: lit.getStart(sf), end: lit.getEnd(), text: `'${entry}'` });
          rewritten++;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (edits.length === 0) continue;
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  if (out !== text) {
    changedFiles++;
    if (!check) writeFileSync(file, out);
  }
}

console.log(`${check ? 'would rewrite' : 'rewrote'} ${rewritten} import(s) in ${changedFiles} file(s)`);
for (const p of problems) console.log(`  left as is: ${p}`);
if (problems.length || (check && changedFiles)) process.exitCode = 1;
