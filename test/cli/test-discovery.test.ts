// `tealworks test` with no files named, as docs/testing.md has a new user run it: it finds the
// project's *.test.ts files and loads them through the project's tsx, under mocha and node:test;
// a project with no test files, or TypeScript tests without a loader, is told what to do.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTestFiles, prepareRunnerArgs } from '../../sdk/src/cli/commands/test.js';
import { cli, repoRoot, tempDir } from './helpers.js';

const testing = JSON.stringify(join(repoRoot, 'sdk/src/testing/index.ts'));

/** A counter test using TypeScript-only syntax (`as bigint`), so it needs a TypeScript loader. */
function counterTest(imports: string): string {
  return `${imports}
import { testFixture, expectFailure } from ${testing};
const f = testFixture({ baseDir: ${JSON.stringify('BASE')}, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
f.install({ before, beforeEach, after });
describe('counter', () => {
  it('increments', async () => {
    const r = await f.apps.counter.call('increment', [5]);
    const value = r.returnValue as bigint;
    if (value !== 5n) throw new Error('got ' + String(value));
  });
  it('refuses a big step', async () => {
    await expectFailure(f.apps.counter.call('increment', [1000]), { message: 'too big' });
  });
});
`;
}

function project(name: string, runner: 'mocha' | 'node', withModules: boolean) {
  const dir = tempDir(name);
  writeFileSync(
    join(dir.path, 'package.json'),
    JSON.stringify({ name, type: 'module', devDependencies: runner === 'mocha' ? { mocha: '*', tsx: '*' } : { tsx: '*' } }),
  );
  if (withModules) symlinkSync(join(repoRoot, 'node_modules'), join(dir.path, 'node_modules'), 'dir');
  mkdirSync(join(dir.path, 'test'));
  for (const f of ['counter.teal', 'clear.teal', 'counter.arc56.json']) copyFileSync(join(repoRoot, 'examples/counter/abi', f), join(dir.path, 'test', f));
  const imports = runner === 'node' ? "import { describe, it, before, beforeEach, after } from 'node:test';" : '';
  writeFileSync(join(dir.path, 'test', 'counter.test.ts'), counterTest(imports).replace('"BASE"', JSON.stringify(join(dir.path, 'test'))));
  return dir;
}

describe('cli: tealworks test finds and loads TypeScript tests', function () {
  this.timeout(180_000);

  it('lists *.test / *.spec files outside node_modules, build output and dot-folders', () => {
    const dir = tempDir('find-tests');
    try {
      for (const d of ['test/unit', 'node_modules/x', 'dist', '.cache', 'src']) mkdirSync(join(dir.path, d), { recursive: true });
      for (const f of [
        'test/unit/a.test.ts',
        'test/b.spec.mjs',
        'src/c.test.js',
        'node_modules/x/d.test.ts',
        'dist/e.test.js',
        '.cache/f.test.ts',
        'src/helper.ts',
      ])
        writeFileSync(join(dir.path, f), '');
      assert.deepEqual(findTestFiles(dir.path), ['src/c.test.js', 'test/b.spec.mjs', 'test/unit/a.test.ts']);
    } finally {
      dir.cleanup();
    }
  });

  it('mocha: runs the discovered TypeScript test through tsx', async () => {
    const dir = project('discover-mocha', 'mocha', true);
    try {
      const r = await cli(['test'], dir.path);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /2 passing/);
    } finally {
      dir.cleanup();
    }
  });

  it('node:test: runs the discovered TypeScript test through tsx', async () => {
    const dir = project('discover-node', 'node', true);
    try {
      const r = await cli(['test', '--runner', 'node', '--', '--test-concurrency=1'], dir.path);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /# pass 2/);
    } finally {
      dir.cleanup();
    }
  });

  it('says what to do when there are no test files, or TypeScript tests and no loader', async () => {
    const empty = tempDir('no-tests');
    const bare = project('no-loader', 'node', false);
    try {
      writeFileSync(join(empty.path, 'package.json'), '{"name":"empty"}');
      const none = await cli(['test'], empty.path);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /found no test files under .*; name them after --, e\.g\. tealworks test -- test\/app\.test\.ts/);
      if (!(process.features as { typescript?: unknown }).typescript) {
        const noLoader = await cli(['test', '--runner', 'node'], bare.path);
        assert.equal(noLoader.code, 2);
        assert.match(noLoader.stderr, /TypeScript test files need a loader .*npm install --save-dev tsx/);
      }
      // A loader the user names is kept, and files they name are not added to.
      assert.deepEqual(prepareRunnerArgs('node', bare.path, ['--import', 'tsx', 'test/counter.test.ts']), ['--import', 'tsx', 'test/counter.test.ts']);
      assert.deepEqual(prepareRunnerArgs('vitest', bare.path, []), []);
    } finally {
      empty.cleanup();
      bare.cleanup();
    }
  });
});
