// Issue 23: the test fixture used from mocha, node:test and vitest, each in its own process:
// apps deployed once from specs named once, a clean chain per test (by revert), assertions.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const testing = join(root, 'sdk/src/testing/index.ts');
const abi = join(root, 'examples/counter/abi');

function body(hooks: string): string {
  return `
const f = testFixture({ baseDir: ${JSON.stringify(abi)}, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
f.install({ ${hooks} });
it('increments and sees the new state', async () => {
  await f.apps.counter.call('increment', [5]);
  await expectState(f.apps.counter, { global: { count: 5n } });
});
it('starts from a clean chain, and an expected failure names its message and TEAL line', async () => {
  await expectState(f.apps.counter, { global: { count: 0n } });
  await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big', line: 63 });
  f.chain.advanceRounds(10);
});
it('a state check that does not hold fails the test', async () => {
  await f.apps.counter.call('increment', [1]);
  await expectState(f.apps.counter, { global: { count: 2n } });
});
`;
}

function run(cmd: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('testing: the fixture in mocha, node:test and vitest (separate processes)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'tw-fixture-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const expectTwoPassOneFail = (r: { code: number | null; out: string }) => {
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /global count is 1, expected 2/, r.out);
    assert.doesNotMatch(r.out, /count is 5, expected 0/, r.out);
  };

  it('mocha', () => {
    const file = join(dir, 'counter.mocha.test.ts');
    writeFileSync(file, `import { testFixture, expectFailure, expectState } from ${JSON.stringify(testing)};\n${body('before, beforeEach, after')}`);
    const r = run(process.execPath, [
      '--import',
      'tsx',
      join(root, 'node_modules/mocha/bin/mocha.js'),
      '--no-config',
      '--reporter',
      'spec',
      '--timeout',
      '60000',
      file,
    ]);
    expectTwoPassOneFail(r);
    assert.match(r.out, /2 passing/, r.out);
  });

  it('node:test', () => {
    const file = join(dir, 'counter.node.test.ts');
    writeFileSync(
      file,
      `import { it, before, beforeEach, after } from 'node:test';\nimport { testFixture, expectFailure, expectState } from ${JSON.stringify(testing)};\n${body('before, beforeEach, after')}`,
    );
    const r = run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', file]);
    expectTwoPassOneFail(r);
    assert.match(r.out, /# pass 2/, r.out);
  });

  it('vitest', () => {
    const file = join(dir, 'counter.vitest.test.ts');
    writeFileSync(
      file,
      `import { it, beforeAll, beforeEach, afterAll } from ${JSON.stringify(join(root, 'node_modules/vitest/dist/index.js'))};\nimport { testFixture, expectFailure, expectState } from ${JSON.stringify(testing)};\n${body('beforeAll, beforeEach, afterAll')}`,
    );
    const r = run(process.execPath, [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      dir,
      '--testTimeout',
      '60000',
      '--hookTimeout',
      '60000',
      file,
    ]);
    expectTwoPassOneFail(r);
    assert.match(r.out, /2 passed/, r.out);
  });
});
