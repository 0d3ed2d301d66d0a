/**
 * Generates syntaxes/teal.tmLanguage.json (scope source.teal) from the opcode table, so the
 * grammar's opcode and field alternations track every AVM version the toolchain knows.
 *
 *   npm run gen:grammar            (writes the file)
 *   npx tsx scripts/gen-grammar.ts --check   (exits 1 when the committed file is stale)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGrammar } from './grammar/teal-grammar.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(repo, 'syntaxes/teal.tmLanguage.json');
const text = JSON.stringify(buildGrammar(), null, 2) + '\n';

if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== text) {
    console.error('syntaxes/teal.tmLanguage.json is stale: run npm run gen:grammar');
    process.exit(1);
  }
  console.log('grammar up to date');
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
