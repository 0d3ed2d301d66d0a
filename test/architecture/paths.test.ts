// ARCHITECTURE.md is the newcomer's map: every file or folder it names must exist, so a move or a
// rename that forgets the map fails here instead of sending the next person grepping.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '../helpers/shared.js';

const TOP = ['sdk/', 'server/', 'extension/', 'test/', 'scripts/', 'examples/', 'docs/', 'bench/', 'syntaxes/', 'snippets/', '.ci/'];
const SDK_LAYERS = [
  'encoding/',
  'crypto/',
  'txn/',
  'abi/',
  'teal/',
  'avm/',
  'ledger/',
  'adapters/',
  'services/',
  'app/',
  'workflow/',
  'client/',
  'cli/',
  'testing/',
];

/** Paths named in backticks: repository paths, and `layer/file` paths inside `sdk/src`. */
function namedPaths(text: string): { named: string; path: string }[] {
  const out: { named: string; path: string }[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const named = m[1]!.replace(/^(bash|npx tsx) /, '');
    // Placeholders and globs name a kind of file, not one file.
    if (/[<>*…]/.test(named) || named.includes('://')) continue;
    const clean = named.replace(/[.,:;]+$/, '');
    if (TOP.some((t) => clean.startsWith(t))) out.push({ named, path: resolve(repoRoot, clean) });
    else if (SDK_LAYERS.some((l) => clean.startsWith(l))) out.push({ named, path: resolve(repoRoot, 'sdk/src', clean) });
  }
  return out;
}

describe('architecture: ARCHITECTURE.md names only paths that exist', () => {
  it('every path it names is in the repository', () => {
    const text = readFileSync(resolve(repoRoot, 'ARCHITECTURE.md'), 'utf8');
    const paths = namedPaths(text);
    assert.ok(paths.length > 40, `only ${paths.length} paths found: the extraction is broken`);
    const missing = paths.filter((p) => !existsSync(p.path)).map((p) => p.named);
    assert.deepEqual([...new Set(missing)], [], 'ARCHITECTURE.md names paths that do not exist');
  });
});
