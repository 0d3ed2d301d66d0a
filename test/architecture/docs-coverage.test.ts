import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// `npm run docs:coverage` in the test run: every public export keeps its `/** */` comment.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('architecture: TSDoc coverage of the public exports', function () {
  this.timeout(120_000);
  it('is at least 90%', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/docs-coverage.ts'), '--min', '90'], { cwd: repoRoot });
    const m = /TSDoc coverage of public exports: (\d+) \/ (\d+) = ([\d.]+)%/.exec(stdout);
    assert.ok(m, stdout);
    assert.ok(Number(m[3]) >= 90, stdout);
  });
});
