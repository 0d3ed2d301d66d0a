import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// encoding → crypto → txn/abi → teal → avm → ledger → services/adapters → workflow/app → client → cli.
// A folder may import only from folders of its own rank or below, and nothing may form a cycle.
const RANK: Record<string, number> = {
  '': 0, // sdk/src/*.ts (errors, index)
  encoding: 1,
  crypto: 2,
  txn: 3,
  abi: 4,
  teal: 5,
  avm: 6,
  ledger: 7,
  adapters: 8,
  services: 9,
  workflow: 10,
  app: 10,
  client: 11, // the Tealworks entry object: a facade over the layers below
  cli: 12,
  testing: 12, // @tealworks/sdk/testing: fixtures and assertions over the client's in-process chain
};
// These must also run in a browser webview: no Node built-ins, no Buffer.
const PORTABLE = new Set(['', 'encoding', 'crypto', 'txn', 'abi', 'teal', 'avm']);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../sdk/src');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

function layerOf(file: string): string {
  const rel = relative(root, file);
  return rel.includes('/') ? rel.split('/')[0]! : '';
}

const importRe = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(importRe)) out.push((m[1] ?? m[2])!);
  return out;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

describe('architecture: sdk layering', () => {
  const all = files(root);

  it('every sdk folder has a rank', () => {
    for (const f of all) assert.ok(layerOf(f) in RANK, `folder ${layerOf(f)} has no rank in the layering test`);
  });

  it('imports go only down the layers', () => {
    const bad: string[] = [];
    for (const f of all) {
      const from = layerOf(f);
      // The package's barrel files re-export layers; they are not a layer themselves.
      if (relative(root, f) === 'index.ts') continue;
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec);
        const to = layerOf(target);
        if ((RANK[to] ?? 99) > RANK[from]!) bad.push(`${relative(root, f)} imports ${spec} (${to} is above ${from || 'root'})`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('portable layers use no Node built-ins and no Buffer', () => {
    const bad: string[] = [];
    for (const f of all) {
      if (!PORTABLE.has(layerOf(f))) continue;
      const code = stripComments(readFileSync(f, 'utf8'));
      for (const spec of imports(f))
        if (spec.startsWith('node:') || ['fs', 'path', 'crypto', 'os', 'util', 'buffer'].includes(spec)) bad.push(`${relative(root, f)} imports ${spec}`);
      if (/\bBuffer\b/.test(code)) bad.push(`${relative(root, f)} uses Buffer`);
      if (/\brequire\(/.test(code)) bad.push(`${relative(root, f)} uses require()`);
    }
    assert.deepEqual(bad, []);
  });

  it('has no import cycles', () => {
    const graph = new Map<string, string[]>();
    for (const f of all) {
      graph.set(
        f,
        imports(f)
          .filter((s) => s.startsWith('.'))
          .map((s) => resolve(dirname(f), s).replace(/\.js$/, '.ts')),
      );
    }
    const state = new Map<string, 1 | 2>();
    const stack: string[] = [];
    const cycles: string[] = [];
    const visit = (n: string) => {
      state.set(n, 1);
      stack.push(n);
      for (const m of graph.get(n) ?? []) {
        if (state.get(m) === 1) cycles.push([...stack.slice(stack.indexOf(m)), m].map((p) => relative(root, p)).join(' → '));
        else if (!state.has(m)) visit(m);
      }
      stack.pop();
      state.set(n, 2);
    };
    for (const f of all) if (!state.has(f)) visit(f);
    assert.deepEqual(cycles, []);
  });
});
