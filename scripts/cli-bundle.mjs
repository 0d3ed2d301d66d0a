// The esbuild options of the CLI bundle, shared by scripts/build.mjs (what ships) and the
// localnet benchmark (which measures what ships). Code splitting: the entry (cli.js) holds the
// command table; each command and the modules only some commands need are chunks under
// cli-chunks/, loaded when a command runs.
export const CLI_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  chunkNames: 'cli-chunks/[name]-[hash]',
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __twCreateRequire } from 'node:module'; const require = __twCreateRequire(import.meta.url);" },
};
