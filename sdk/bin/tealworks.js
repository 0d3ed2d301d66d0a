#!/usr/bin/env node
// The `tealworks` command. An installed package runs its built bundle; a source checkout with no
// build runs the TypeScript sources through tsx, so `npx tealworks …` works right after `npm ci`.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli.js', import.meta.url);
let cli;
if (existsSync(bundle)) {
  cli = await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
await cli.runMain();
