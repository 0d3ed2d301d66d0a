// The simulate panel's webview scripts: TypeScript sources in extension/src/webview/, bundled by
// esbuild to the paths the panel loads (extension/media/*.js, generated, not in git). One list, used
// by scripts/build.mjs, scripts/package.mjs and the render tests (test/extension/webview/).
import { join } from 'node:path';

/** Entry (repository-relative) → output the panel's HTML names (simulatePanel.ts). */
export const WEBVIEW_SCRIPTS = [
  { entry: 'extension/src/webview/argForm.ts', outfile: 'extension/media/argForm.js' },
  { entry: 'extension/src/webview/simulate.ts', outfile: 'extension/media/simulate.js' },
];

/**
 * esbuild options for one webview script: a browser IIFE with no imports left (the page's strict CSP
 * allows only these nonce'd files), readable unless `production`.
 */
export function webviewBuildOptions(root, script, { production = false } = {}) {
  return {
    entryPoints: [join(root, script.entry)],
    outfile: join(root, script.outfile),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: production,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
}
