// `npm pack` / `npm publish` of @tealworks/sdk run this first (its `prepack`): a clean sdk/dist
// with the ES modules, the CLI and language-server bundles, the .d.ts declarations and the TypeDoc
// API reference, so a packed tarball always works, always has types and carries its reference.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
rmSync(join(root, 'sdk/dist'), { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production'], { stdio: 'inherit', cwd: root });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'sdk/tsconfig.build.json')], { stdio: 'inherit', cwd: root });
// The API reference ships in the package (sdk/dist/api/index.html): typedoc.json writes it there.
// typedoc's package exports do not include its bin: take the file from the install.
const typedoc = join(root, 'node_modules/typedoc/bin/typedoc');
execFileSync(process.execPath, [typedoc], { stdio: 'inherit', cwd: root });
// docs/testing.md's first test starts from the counter example: it ships so an installed package has it.
cpSync(join(root, 'examples/counter/abi'), join(root, 'sdk/dist/examples/counter'), { recursive: true });
console.log('sdk/dist ready: modules, CLI, language server, declarations, API reference (dist/api), the counter example (dist/examples)');
