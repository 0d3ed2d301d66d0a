// A merge whose conflict was committed unresolved leaves both sides in the file; prose and code
// checks may still pass on it (an ARCHITECTURE.md once carried two rows for one layer this way).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '../helpers/shared.js';

describe('architecture: no committed merge-conflict markers', () => {
  it('no tracked text file has a line that opens, splits or closes a conflict', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter(Boolean);
    const marked: string[] = [];
    for (const file of files) {
      if (!/\.(ts|js|mjs|cjs|json|md|yaml|yml|teal|html|css|sh)$/.test(file)) continue;
      let text: string;
      try {
        text = readFileSync(resolve(repoRoot, file), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        if (/^(<{7} |>{7} )/.test(line) || (line === '=======' && lines.some((l) => l.startsWith('<<<<<<< ')))) marked.push(`${file}:${i + 1}`);
      });
    }
    assert.deepEqual(marked, [], `unresolved merge conflicts at:\n${marked.join('\n')}`);
  });
});
