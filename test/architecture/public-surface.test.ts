import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Our products use the SDK as its users do: only through `@tealworks/sdk` and the subpaths its
// package.json exports, never by reaching into sdk/src. `scripts/codemod-sdk-imports.ts` rewrites
// deep imports to the entry points (run it after merging code that adds some).

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PRODUCTS = ['extension/src', 'server/src', 'examples'];
const pkg = JSON.parse(readFileSync(join(repoRoot, 'sdk/package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entryPoints = new Set(Object.keys(pkg.exports).map((k) => (k === '.' ? '@tealworks/sdk' : `@tealworks/sdk/${k.slice(2)}`)));

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|mts|js|mjs|cjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Every module specifier: static imports/exports, dynamic import(), import types, require(). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

describe('architecture: products use the SDK only through its public entry points', () => {
  const all = PRODUCTS.flatMap((d) => files(join(repoRoot, d)));

  it('no product file imports SDK sources by path', () => {
    const bad: string[] = [];
    for (const f of all) {
      for (const m of readFileSync(f, 'utf8').matchAll(SPECIFIER)) if (/(^|\/)sdk\/(src|dist)\//.test(m[1]!)) bad.push(`${relative(repoRoot, f)}: ${m[1]}`);
    }
    assert.deepEqual(bad, [], 'run `npx tsx scripts/codemod-sdk-imports.ts` to rewrite these to @tealworks/sdk entry points');
  });

  it('every @tealworks/sdk import names an exported entry point', () => {
    const bad: string[] = [];
    for (const f of all) {
      for (const m of readFileSync(f, 'utf8').matchAll(SPECIFIER))
        if (m[1]!.startsWith('@tealworks/sdk') && !entryPoints.has(m[1]!)) bad.push(`${relative(repoRoot, f)}: ${m[1]}`);
    }
    assert.deepEqual(bad, []);
  });

  it('the products do use the package (the check is not vacuous)', () => {
    const users = all.filter((f) => /['"]@tealworks\/sdk/.test(readFileSync(f, 'utf8')));
    assert.ok(users.length >= 20, `only ${users.length} product files import @tealworks/sdk`);
  });
});
