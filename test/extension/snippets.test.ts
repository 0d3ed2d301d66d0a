import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleCollect } from '../../sdk/src/teal/assembler/index.js';
import { opByName } from '../../sdk/src/teal/spec/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const snippets = JSON.parse(readFileSync(resolve(repoRoot, 'snippets/teal.json'), 'utf8')) as Record<
  string,
  { prefix: string; body: string[]; description: string }
>;

/** What the snippet inserts when every placeholder keeps its default (choices: the first). */
export function expandSnippet(body: string[]): string {
  return body
    .join('\n')
    .replace(/\$\{(\d+):([^}]*)\}/g, '$2')
    .replace(/\$\{(\d+)\|([^,|]*)[^}]*\|\}/g, '$2')
    .replace(/\$\{?\d+\}?/g, '');
}

describe('snippets: teal.json', () => {
  it('has the promised snippets, each with a prefix and description', () => {
    const prefixes = Object.values(snippets).map((s) => s.prefix);
    for (const p of ['abi-router', 'subroutine', 'oncompletion-switch', 'box-create', 'box-read', 'box-write', 'itxn-payment', 'itxn-appcall', 'optin-guard']) {
      assert.ok(prefixes.includes(p), p);
    }
    for (const [name, s] of Object.entries(snippets)) assert.ok(s.description.length > 10 && s.body.length > 0, name);
  });

  it('uses only opcodes that exist at v10', () => {
    for (const [name, s] of Object.entries(snippets)) {
      for (const line of expandSnippet(s.body).split('\n')) {
        const code = line.replace(/\/\/.*$/, '').trim();
        if (!code || code.startsWith('#') || code.endsWith(':')) continue;
        const op = code.split(/\s+/)[0]!;
        assert.ok(['int', 'byte', 'method', 'addr'].includes(op) || opByName(op, 10), `${name}: ${op}`);
      }
    }
  });

  for (const [name, s] of Object.entries(snippets)) {
    it(`"${name}" assembles as an application program (v10)`, () => {
      const body = expandSnippet(s.body);
      // Subroutine bodies are reached by callsub; the others are straight-line fragments.
      const program = body.startsWith('#pragma')
        ? `${body}\nint 1\n`
        : name === 'Subroutine with proto'
          ? `#pragma version 10\nint 1\nint 2\ncallsub add\nreturn\n${body}\n`
          : `#pragma version 10\n${body}\nint 1\nreturn\n`;
      const { result, diagnostics } = assembleCollect(program);
      assert.deepEqual(
        diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range.line + 1}: ${d.message}`),
        [],
        program,
      );
      assert.ok(result && result.program.length > 1);
    });
  }
});
