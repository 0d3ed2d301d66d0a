import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testCommand, detectRunner } from '../../sdk/src/cli/commands/test.js';

// examples/counter/test: a tested contract, run by `tealworks test` (which delegates to mocha here).
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('examples/counter/test through `tealworks test`', function () {
  this.timeout(120_000);
  it('passes with the project runner', async () => {
    assert.equal(detectRunner(repoRoot), 'vitest');
    let out = '';
    const code = await testCommand.run(['--runner', 'mocha', '--', '--reporter', 'spec', 'examples/counter/test/counter.test.ts'], {
      cwd: repoRoot,
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
    });
    assert.equal(code, 0, out);
    assert.match(out, /4 passing/, out);
  });
});
