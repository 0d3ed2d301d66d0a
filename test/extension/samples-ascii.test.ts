// What the extension and the examples ship as TEAL (sample project, example contracts, snippet
// bodies, TEAL blocks in the walkthrough) is plain ASCII: a typographic dash or quote pasted into a
// user's program is a lexing surprise at best, and the reference assembler takes no such text.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(name)) out.push(path);
  }
  return out;
}

/** "line:column U+XXXX" for each non-ASCII character of `text`. */
function nonAscii(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (let c = 0; c < line.length; c++) {
      const code = line.charCodeAt(c);
      if (code > 0x7e || (code < 0x20 && code !== 0x09 && code !== 0x0d)) out.push(`${i + 1}:${c + 1} U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
    }
  });
  return out;
}

describe('shipped TEAL samples are ASCII', () => {
  it('the sample project and the example contracts', () => {
    const files = [
      ...filesUnder(resolve(repoRoot, 'extension/sample'), (n) => n.endsWith('.teal')),
      ...filesUnder(resolve(repoRoot, 'examples'), (n) => n.endsWith('.teal')),
    ];
    assert.ok(
      files.some((f) => f.endsWith('extension/sample/approval.teal')),
      'the sample approval program is checked',
    );
    for (const f of files) assert.deepEqual(nonAscii(readFileSync(f, 'utf8')), [], relative(repoRoot, f));
  });

  it('the snippet bodies', () => {
    const snippets = JSON.parse(readFileSync(resolve(repoRoot, 'snippets/teal.json'), 'utf8')) as Record<string, { body: string[] }>;
    for (const [name, s] of Object.entries(snippets)) assert.deepEqual(nonAscii(s.body.join('\n')), [], name);
  });

  it('TEAL code blocks in the walkthrough and the sample README', () => {
    const docs = [...filesUnder(resolve(repoRoot, 'extension/walkthrough'), (n) => n.endsWith('.md')), resolve(repoRoot, 'extension/sample/README.md')];
    for (const f of docs) {
      const blocks = [...readFileSync(f, 'utf8').matchAll(/```teal\n([\s\S]*?)```/g)].map((m) => m[1]!);
      for (const b of blocks) assert.deepEqual(nonAscii(b), [], relative(repoRoot, f));
    }
  });
});
