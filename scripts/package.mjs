// Builds the extension and language-server bundles in production mode and packs them into
// dist/tealworks.vsix with vsce (plus the lazily loaded contract-features bundle). Only those bundles are built here, so a half-finished SDK
// module elsewhere in the tree cannot block packaging the editor support.
import { build } from 'esbuild';
import { sdkSourcePlugin } from './sdk-source-plugin.mjs';
import { WEBVIEW_SCRIPTS, webviewBuildOptions } from './webview-build.mjs';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const common = {
  plugins: [sdkSourcePlugin],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  sourcemap: false,
  logLevel: 'warning',
  legalComments: 'none',
};
await Promise.all([
  build({ ...common, entryPoints: [join(root, 'extension/src/extension.ts')], outfile: join(root, 'dist/extension.cjs'), external: ['vscode'] }),
  build({ ...common, entryPoints: [join(root, 'server/src/main.ts')], outfile: join(root, 'dist/server.cjs') }),
  // The contract features, loaded by the extension after activation (extension/src/contracts/index.ts).
  build({ ...common, entryPoints: [join(root, 'extension/src/contracts/main.ts')], outfile: join(root, 'dist/contracts.cjs'), external: ['vscode'] }),
  // The debug adapter VS Code starts for `tealworks` launch configurations (contributes.debuggers).
  build({ ...common, entryPoints: [join(root, 'server/src/debug/main.ts')], outfile: join(root, 'dist/debug-adapter.cjs') }),
  // The simulate panel's webview scripts (TypeScript in extension/src/webview/), where the panel loads them.
  ...WEBVIEW_SCRIPTS.map((script) => build(webviewBuildOptions(root, script, { production: true }))),
]);

const out = join(root, 'dist/tealworks.vsix');
// The .vsix carries the user-facing README (extension/README.md), not the repository's developer README.
const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
const result = spawnSync(
  process.execPath,
  [
    vsce,
    'package',
    '--readme-path',
    'extension/README.md',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--allow-star-activation',
    '-o',
    out,
  ],
  { cwd: root, stdio: 'inherit' },
);
if (result.status !== 0) process.exit(result.status ?? 1);
const size = statSync(out).size;
console.log(`packaged ${out} (${(size / 1024).toFixed(0)} KiB)`);
if (size >= 3 * 1024 * 1024) {
  console.error('the .vsix must stay under 3 MB; check .vscodeignore');
  process.exit(1);
}
