import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

// `npm run docs:coverage` in the test run: every public export keeps its `/** */` comment.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('architecture: TSDoc coverage of the public exports', function () {
  this.timeout(120_000);
  it('is at least 90%', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/docs-coverage.ts'), '--min', '90'], {
      cwd: repoRoot,
    });
    const m = /TSDoc coverage of public exports: (\d+) \/ (\d+) = ([\d.]+)%/.exec(stdout);
    assert.ok(m, stdout);
    assert.ok(Number(m[3]) >= 90, stdout);
  });
});

// The API reference (`npm run docs`, shipped in the package by prepack) converts every entry point
// sdk/package.json exports with TypeDoc's validation on (types referenced but not exported, broken
// {@link}s) and no warning: typedoc.json sets treatWarningsAsErrors. Converted and validated only;
// no HTML is written.
describe('architecture: the TypeDoc API reference', function () {
  this.timeout(300_000);
  const options = JSON.parse(readFileSync(join(repoRoot, 'typedoc.json'), 'utf8')) as {
    entryPoints: string[];
    treatWarningsAsErrors?: boolean;
    validation?: Record<string, boolean>;
  };

  it('covers every entry point of sdk/package.json', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'sdk/package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const wanted = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'sdk/src/index.ts' : `sdk/src/${k.slice(2)}/index.ts`))
      .sort();
    assert.deepEqual([...options.entryPoints].sort(), wanted);
    assert.equal(options.treatWarningsAsErrors, true);
    assert.equal(options.validation?.notExported, true);
    assert.equal(options.validation?.invalidLink, true);
  });

  it('converts and validates with no warnings', async () => {
    // By path: with the repository's baseUrl, tsx resolves a bare 'typedoc' to ./typedoc.json.
    const td = (await import(pathToFileURL(join(repoRoot, 'node_modules/typedoc/dist/index.js')).href)) as typeof import('typedoc', {
      with: { 'resolution-mode': 'import' },
    });
    const app = await td.Application.bootstrapWithPlugins({ options: join(repoRoot, 'typedoc.json') }, [new td.TSConfigReader(), new td.TypeDocReader()]);
    const messages: string[] = [];
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= td.LogLevel.Warn) messages.push(String(message));
      log(message, level);
    };
    const project = await app.convert();
    assert.ok(project, 'TypeDoc could not convert the entry points');
    app.validate(project);
    assert.deepEqual(messages, []);
    assert.equal(app.logger.hasWarnings(), false);
  });
});
