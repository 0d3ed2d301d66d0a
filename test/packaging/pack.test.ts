import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { exportMeanings, namesWithTwoMeanings } from './export-names.js';

// The SDK as users get it: `npm pack` (whose prepack builds modules, bundles and declarations),
// installed from the tarball into an empty project, then typechecked and run there.

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
const SUBPATHS = ['encoding', 'crypto', 'txn', 'abi', 'teal', 'avm', 'ledger', 'services', 'adapters', 'workflow', 'app', 'client', 'testing'];

const CONSUMER_TS = `import { Tealworks, algos, type ConfirmedTransaction } from '@tealworks/sdk';
import { assemble } from '@tealworks/sdk/teal';
import { AppClient } from '@tealworks/sdk/app';
import { CounterClient } from './counter-client.js';

const tw = await Tealworks.connect.devnet({ inProcess: true });
const a = await tw.account.ensureFunded(tw.account.random(), algos(1));
const paid: ConfirmedTransaction = await tw.send.payment({ sender: a, receiver: tw.account.random(), amount: algos(0.5) });
const counter = await CounterClient.deploy(tw, { creator: tw.account.dispenser, approval: 'counter.teal', clear: 'clear.teal', baseDir: import.meta.dirname, fund: algos(1) });
// @ts-expect-error a wrong argument type is a compile error
void (() => counter.increment({ amount: 'two' }));
const r = await counter.increment({ amount: 2n });
const count: bigint | undefined = r.returnValue;
console.log(JSON.stringify({ round: String(paid.confirmedRound), program: assemble('#pragma version 10\\nint 1').program.length, client: typeof AppClient, count: String(count) }));
await tw.close();
`;

const CONSUMER_MJS = `import { Tealworks, microAlgos } from '@tealworks/sdk';
import { disassemble } from '@tealworks/sdk/teal';
import { profileFromEnv } from '@tealworks/sdk/adapters';
const tw = await Tealworks.connect.devnet({ inProcess: true });
const b = tw.account.random();
await tw.send.payment({ sender: tw.account.dispenser, receiver: b, amount: microAlgos(123456) });
console.log(JSON.stringify({ balance: String(await tw.account.balance(b)), teal: disassemble(new Uint8Array([10, 129, 1])).trim().split('\\n').length, env: profileFromEnv({}) === undefined }));
await tw.close();
`;

const LEGACY_TS = `import { Tealworks } from '@tealworks/sdk';
import { assemble } from '@tealworks/sdk/teal';
import type { AppClient } from '@tealworks/sdk/app';
export type Client = AppClient;
export const ok: boolean = typeof Tealworks.connect.devnet === 'function' && assemble('int 1').program.length > 0;
`;

const tsconfig = (extra: object) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules/@types')],
      ...extra,
    },
  });

describe('packaging: the packed SDK installs, typechecks and runs', function () {
  this.timeout(300_000);
  let dir: string;
  let project: string;
  const distExisted = existsSync(join(repoRoot, 'sdk/dist'));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-pack-'));
    await run('npm', ['pack', '--pack-destination', dir], { cwd: join(repoRoot, 'sdk'), maxBuffer: 1 << 26 });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack made no tarball');
    project = join(dir, 'project');
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: project, maxBuffer: 1 << 26 });
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    // Without a build, `tealworks` runs the sources: leave the checkout as it was.
    if (!distExisted) rmSync(join(repoRoot, 'sdk/dist'), { recursive: true, force: true });
  });

  it('has modules, declarations and bundles for every entry point', () => {
    const pkg = join(project, 'node_modules/@tealworks/sdk');
    for (const f of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli.js',
      'dist/server.cjs',
      'bin/tealworks.js',
      'README.md',
      // docs/testing.md copies its first test's contract from here
      ...['counter.arc56.json', 'counter.teal', 'clear.teal'].map((f) => `dist/examples/counter/${f}`),
      ...SUBPATHS.flatMap((s) => [`dist/${s}/index.js`, `dist/${s}/index.d.ts`]),
    ])
      assert.ok(existsSync(join(pkg, f)), `${f} is missing from the package`);
  });

  it('a generated typed client and a TypeScript script typecheck (NodeNext) and run; a wrong argument is a compile error', async () => {
    for (const f of ['counter.arc56.json', 'counter.teal', 'clear.teal']) copyFileSync(join(repoRoot, 'examples/counter/abi', f), join(project, f));
    await run(join(project, 'node_modules/.bin/tealworks'), ['generate', 'client', 'counter.arc56.json', '-o', 'counter-client.ts'], { cwd: project });
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(join(project, 'tsconfig.json'), tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext' }));
    await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch((e: { stdout: string }) => assert.fail(`tsc: ${e.stdout}`));
    const { stdout } = await run(process.execPath, ['--import', tsxLoader, 'consumer.ts'], {
      cwd: project,
      env: { ...process.env, TEALWORKS_DEVNET_DIR: join(dir, 'none') },
    });
    assert.deepEqual(JSON.parse(stdout), { round: JSON.parse(stdout).round, program: 3, client: 'function', count: '2' });
  });

  it("the declarations compile under strict NodeNext with TypeScript's default lib and no skipLibCheck", async () => {
    // No `lib`, no skipLibCheck, no Node types: `Symbol.asyncDispose` must still be known.
    writeFileSync(join(project, 'strict.ts'), LEGACY_TS);
    const strict = {
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: [] },
      files: ['strict.ts'],
    };
    writeFileSync(join(project, 'tsconfig.strict.json'), JSON.stringify(strict));
    await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.strict.json')], { cwd: project }).catch((e: { stdout: string }) =>
      assert.fail(`tsc: ${e.stdout}`),
    );
  });

  it('subpaths resolve under the older module resolution (typesVersions)', async () => {
    writeFileSync(join(project, 'legacy.ts'), LEGACY_TS);
    writeFileSync(
      join(project, 'tsconfig.legacy.json'),
      tsconfig({ module: 'ESNext', moduleResolution: 'node10', files: undefined }).replace('}}', '}, "files": ["legacy.ts"]}'),
    );
    await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.legacy.json')], { cwd: project }).catch((e: { stdout: string }) =>
      assert.fail(`tsc: ${e.stdout}`),
    );
  });

  it('a plain Node ESM script runs', async () => {
    writeFileSync(join(project, 'consumer.mjs'), CONSUMER_MJS);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    assert.deepEqual(JSON.parse(stdout), { balance: '123456', teal: 2, env: true });
  });

  it("docs/testing.md's first test, followed as written: the shipped counter, the doc's test file, `tealworks test` (mocha + tsx)", async () => {
    const doc = readFileSync(join(repoRoot, 'docs/testing.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## 2. A first test'), doc.indexOf('## 3.'));
    assert.match(section, /cp node_modules\/@tealworks\/sdk\/dist\/examples\/counter\/\* test\//);
    const testFile = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(testFile, 'no TypeScript block in section 2');
    const user = join(dir, 'first-test');
    mkdirSync(join(user, 'test'), { recursive: true });
    writeFileSync(join(user, 'package.json'), JSON.stringify({ name: 'first-test', private: true, type: 'module', devDependencies: { mocha: '*', tsx: '*' } }));
    // The installed SDK, and mocha and tsx as the doc's install line would bring them.
    mkdirSync(join(user, 'node_modules/@tealworks'), { recursive: true });
    symlinkSync(join(project, 'node_modules/@tealworks/sdk'), join(user, 'node_modules/@tealworks/sdk'), 'dir');
    for (const m of ['mocha', 'tsx']) symlinkSync(join(repoRoot, 'node_modules', m), join(user, 'node_modules', m), 'dir');
    mkdirSync(join(user, 'node_modules/.bin'));
    symlinkSync(join(repoRoot, 'node_modules/mocha/bin/mocha.js'), join(user, 'node_modules/.bin/mocha'));
    cpSync(join(user, 'node_modules/@tealworks/sdk/dist/examples/counter'), join(user, 'test'), { recursive: true });
    writeFileSync(join(user, 'test/counter.test.ts'), testFile);
    const { stdout } = await run(join(project, 'node_modules/.bin/tealworks'), ['test'], { cwd: user, maxBuffer: 1 << 24 }).catch(
      (e: { stdout: string; stderr: string }) => assert.fail(`tealworks test failed:\n${e.stdout}\n${e.stderr}`),
    );
    assert.match(stdout, /2 passing/);
  });

  it('tealworks --version', async () => {
    const { stdout } = await run(join(project, 'node_modules/.bin/tealworks'), ['--version'], { cwd: project });
    assert.equal(stdout.trim(), '0.1.0');
  });

  it('no exported name means two different things across the entry points (built .d.ts)', () => {
    const pkg = join(project, 'node_modules/@tealworks/sdk/dist');
    const entries: Record<string, string> = { '.': join(pkg, 'index.d.ts') };
    for (const s of SUBPATHS) entries[s] = join(pkg, s, 'index.d.ts');
    const meanings = exportMeanings(entries);
    assert.ok(meanings.size > 500, `only ${meanings.size} names found`);
    assert.deepEqual(namesWithTwoMeanings(meanings), []);
  });
});
