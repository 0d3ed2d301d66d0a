// Issue 26 through the CLI: `tealworks test --coverage --budget-snapshot / --budget-check` over a
// project whose node:test file uses the fixture (in a child process, as users run it).
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, repoRoot, tempDir } from './helpers.js';
import { needShared, sharedPath } from '../helpers/shared.js';

const lcovParse = createRequire(import.meta.url)('lcov-parse') as (
  input: string,
  cb: (err: unknown, data: { file: string; lines: { found: number; hit: number } }[]) => void,
) => void;

describe('cli: tealworks test --coverage / --budget-snapshot / --budget-check', function () {
  this.timeout(240_000);
  let tmp: ReturnType<typeof tempDir>;
  before(() => {
    tmp = tempDir('test-reports');
    for (const f of ['counter.teal', 'clear.teal', 'counter.arc56.json']) copyFileSync(join(repoRoot, 'examples/counter/abi', f), join(tmp.path, f));
    writeFileSync(
      join(tmp.path, 'counter.test.ts'),
      `import { it, before, beforeEach, after } from 'node:test';
import { testFixture } from ${JSON.stringify(join(repoRoot, 'sdk/src/testing/index.ts'))};
const f = testFixture({ baseDir: ${JSON.stringify(tmp.path)}, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
f.install({ before, beforeEach, after });
it('increments', async () => { await f.apps.counter.call('increment', [5]); });
it('increments twice', async () => { await f.apps.counter.call('increment', [1]); await f.apps.counter.call('increment', [2]); });
`,
    );
  });
  after(() => tmp.cleanup());

  const runTests = (...flags: string[]) =>
    cli(
      [
        'test',
        '--runner',
        'node',
        ...flags,
        '--',
        '--import',
        pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
        '--test-concurrency=1',
        'counter.test.ts',
      ],
      tmp.path,
    );

  it('writes lcov (read by lcov-parse) and HTML per TEAL line, and a budget snapshot; the unchanged contract passes the check, a one-opcode change fails it', async () => {
    const first = await runTests('--coverage', '--budget-snapshot', 'budget.json');
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /coverage: \d+\/\d+ lines, \d+\/\d+ branches in 2 file\(s\)/);
    const lcov = readFileSync(join(tmp.path, 'coverage/lcov.info'), 'utf8');
    const records = await new Promise<{ file: string; lines: { found: number; hit: number } }[]>((ok, fail) =>
      lcovParse(lcov, (e, d) => (e ? fail(new Error(String(e))) : ok(d))),
    );
    const counter = records.find((r) => r.file === 'counter.teal')!;
    assert.ok(counter, lcov);
    assert.ok(
      counter.lines.hit > 10 && counter.lines.hit < counter.lines.found,
      `${counter.lines.hit}/${counter.lines.found}: the update and delete paths never ran`,
    );
    assert.ok(existsSync(join(tmp.path, 'coverage/index.html')));
    assert.match(first.stdout, /Counter\s+increment\(uint64\)uint64\s+3\s/);
    assert.match(first.stdout, /Counter\s+create bare:NoOp\s+1\s/);
    const snap = JSON.parse(readFileSync(join(tmp.path, 'budget.json'), 'utf8'));
    assert.equal(snap.version, 1);

    const same = await runTests('--budget-check', 'budget.json');
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /no figure grew/);

    const teal = readFileSync(join(tmp.path, 'counter.teal'), 'utf8');
    writeFileSync(join(tmp.path, 'counter.teal'), teal.replace('\nincrement:\n', '\nincrement:\nb increment_body\nincrement_body:\n'));
    const grown = await runTests('--budget-check', 'budget.json');
    assert.equal(grown.code, 1, grown.stdout + grown.stderr);
    assert.match(grown.stdout, /^\+ Counter increment\(uint64\)uint64: budget max (\d+) → (\d+)/m);
    const [, before, afterValue] = /budget max (\d+) → (\d+)/.exec(grown.stdout)!;
    assert.equal(Number(afterValue) - Number(before), 1);
    assert.match(grown.stderr, /budget figure\(s\) grew against budget\.json/);
  });

  it('a Puya contract: lcov also names the .py lines, through the .puya.map beside its TEAL', async function () {
    const example = sharedPath('fixtures/puya-examples/struct_in_box');
    needShared(this, example);
    cpSync(example, join(tmp.path, 'struct_in_box'), { recursive: true });
    const writable = (p: string): void => {
      chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) writable(join(p, n));
    };
    writable(join(tmp.path, 'struct_in_box'));
    writeFileSync(
      join(tmp.path, 'puya.test.ts'),
      `import { it, before, beforeEach, after } from 'node:test';
import { testFixture } from ${JSON.stringify(join(repoRoot, 'sdk/src/testing/index.ts'))};
const out = 'struct_in_box/out/ExampleContract';
const f = testFixture({ baseDir: ${JSON.stringify(tmp.path)}, apps: { sib: { spec: out + '.arc56.json', approval: out + '.approval.teal', clear: out + '.clear.teal' } } });
f.install({ before, beforeEach, after });
it('adds a user and reads it back', async () => { await f.apps.sib.call('add_user', [['alice', 1n, 0n]]); await f.apps.sib.call('get_user', [1n]); });
`,
    );
    const r = await cli(
      [
        'test',
        '--runner',
        'node',
        '--coverage',
        '--coverage-dir',
        'puya-coverage',
        '--',
        '--import',
        pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
        '--test-concurrency=1',
        'puya.test.ts',
      ],
      tmp.path,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lcov = readFileSync(join(tmp.path, 'puya-coverage/lcov.info'), 'utf8');
    const records = await new Promise<{ file: string; lines: { found: number; hit: number; details: { line: number; hit: number }[] } }[]>((ok, fail) =>
      lcovParse(lcov, (e, d) => (e ? fail(new Error(String(e))) : ok(d as never))),
    );
    const py = records.find((x) => x.file === 'struct_in_box/contract.py');
    assert.ok(py, `no record for contract.py in:\n${records.map((x) => x.file).join('\n')}`);
    assert.ok(records.some((x) => x.file === 'struct_in_box/out/ExampleContract.approval.teal'));
    const hit = (line: number) => py.lines.details.find((d) => d.line === line)?.hit;
    // add_user's assert (32) and get_user's read (13) ran; attach_asset_to_user (35-39) never did.
    assert.ok(hit(32)! > 0 && hit(13)! > 0, lcov);
    assert.equal(hit(35), 0);
    assert.equal(hit(38), 0);
  });

  it('a missing snapshot is a usage error that says how to make one', async () => {
    const r = await cli(['test', '--budget-check', 'nope.json'], tmp.path);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /write one first with --budget-snapshot/);
  });
});
