// Builds every shipped artifact with esbuild: the extension and language-server bundles (CommonJS,
// what VS Code loads), the simulate panel's webview scripts, the CLI bundle, and the SDK's per-file
// ES modules.
import { build } from 'esbuild';
import { sdkSourcePlugin } from './sdk-source-plugin.mjs';
import { WEBVIEW_SCRIPTS, webviewBuildOptions } from './webview-build.mjs';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { CLI_BUNDLE_OPTIONS } from './cli-bundle.mjs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const production = process.argv.includes('--production');
const common = {
  plugins: [sdkSourcePlugin],
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  keepNames: true,
  logLevel: 'warning',
};

const jobs = [];
const entry = (p) => join(root, p);

if (existsSync(entry('extension/src/extension.ts'))) {
  jobs.push(
    build({ ...common, entryPoints: [entry('extension/src/extension.ts')], outfile: entry('dist/extension.cjs'), format: 'cjs', external: ['vscode'] }),
  );
  jobs.push(
    build({ ...common, entryPoints: [entry('extension/src/contracts/main.ts')], outfile: entry('dist/contracts.cjs'), format: 'cjs', external: ['vscode'] }),
  );
  for (const script of WEBVIEW_SCRIPTS) jobs.push(build(webviewBuildOptions(root, script, { production })));
}
if (existsSync(entry('server/src/main.ts'))) {
  jobs.push(build({ ...common, entryPoints: [entry('server/src/main.ts')], outfile: entry('dist/server.cjs'), format: 'cjs' }));
  // A copy beside the CLI bundle so `tealworks lsp` works from the published sdk package too.
  jobs.push(build({ ...common, entryPoints: [entry('server/src/main.ts')], outfile: entry('sdk/dist/server.cjs'), format: 'cjs' }));
}
if (existsSync(entry('server/src/debug/main.ts'))) {
  // The debug adapter: for the extension (dist/) and beside the CLI for `tealworks debug --dap`.
  jobs.push(build({ ...common, entryPoints: [entry('server/src/debug/main.ts')], outfile: entry('dist/debug-adapter.cjs'), format: 'cjs' }));
  jobs.push(build({ ...common, entryPoints: [entry('server/src/debug/main.ts')], outfile: entry('sdk/dist/debug-adapter.cjs'), format: 'cjs' }));
}
// The CLI: sdk/dist/cli.js and, beside it, the chunks it loads on demand (each command, and the
// HTTP client), so `tealworks devnet` reads and compiles only the code it runs.
rmSync(entry('sdk/dist/cli-chunks'), { recursive: true, force: true });
jobs.push(build({ ...common, ...CLI_BUNDLE_OPTIONS, entryPoints: { cli: entry('sdk/src/cli/main.ts') }, outdir: entry('sdk/dist') }));

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
jobs.push(
  build({
    entryPoints: sources(entry('sdk/src')),
    outdir: entry('sdk/dist'),
    outbase: entry('sdk/src'),
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    bundle: false,
    logLevel: 'warning',
  }),
);

await Promise.all(jobs);
console.log(`built ${jobs.length} bundle groups${production ? ' (production)' : ''}`);
