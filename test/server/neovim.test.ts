// The README's Neovim set-ups, as written, in real headless Neovims: the block for each Neovim's
// version (0.11+, 0.8-0.10 or 0.7) with only the server path filled in, then a TEAL file with a
// typo. Diagnostics, hover and the "did you mean" quick fix must come through, and the server must
// exit with Neovim.
//
// TEALWORKS_NVIM lists the Neovims to run, colon-separated (default: `nvim` on PATH, skipped when
// it is not installed). TEALWORKS_NVIM_LSPCONFIG lists nvim-lspconfig checkouts; the README's
// lspconfig block then runs in every listed Neovim the checkout supports (it says which at
// start-up). scripts/neovim/get-neovim.sh unpacks newer Debian suites' Neovims:
//   TEALWORKS_NVIM=nvim:/opt/nvim-0.10/bin/nvim:/opt/nvim-0.12/bin/nvim npx mocha test/server/neovim.test.ts
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './lspClient.js';

type Version = [major: number, minor: number];

function nvimVersion(bin: string): Version | undefined {
  try {
    const m = /NVIM v(\d+)\.(\d+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 }));
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  } catch {
    return undefined;
  }
}

const atLeast = ([major, minor]: Version, [wantMajor, wantMinor]: Version) => major > wantMajor || (major === wantMajor && minor >= wantMinor);

/** The README block written for this Neovim version, or undefined when the README has none. */
function builtinLabel(v: Version): string | undefined {
  if (atLeast(v, [0, 11])) return 'neovim 0.11+';
  if (atLeast(v, [0, 8])) return 'neovim 0.8-0.10';
  if (atLeast(v, [0, 7])) return 'neovim 0.7';
  return undefined;
}

/** The oldest Neovim an nvim-lspconfig checkout accepts, from the check it runs at start-up. */
function lspconfigMinimum(checkout: string): Version {
  const sources = ['lua/lspconfig.lua', 'plugin/lspconfig.lua']
    .map((f) => join(checkout, f))
    .filter(existsSync)
    .map((f) => readFileSync(f, 'utf8'));
  if (sources.length === 0) throw new Error(`${checkout} is not an nvim-lspconfig checkout (no lua/lspconfig.lua)`);
  let min: Version = [0, 5];
  for (const text of sources) {
    for (const m of text.matchAll(/minimum_neovim_version = '(\d+)\.(\d+)'|has\(? ?'nvim-(\d+)\.(\d+)'\)? ~= 1/g)) {
      const v: Version = [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])];
      if (atLeast(v, min)) min = v;
    }
  }
  return min;
}

/** The README's Lua block whose first line is `-- tealworks: <label>`. */
function readmeBlock(label: string): string {
  const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');
  for (const [, body] of readme.matchAll(/```lua\n([\s\S]*?)```/g)) if (body!.startsWith(`-- tealworks: ${label}\n`)) return body!;
  throw new Error(`README has no Lua block for ${label}`);
}

const list = (value: string | undefined) => (value ?? '').split(':').filter((s) => s !== '');
const binaries = list(process.env.TEALWORKS_NVIM);
const explicit = binaries.length > 0;
if (!explicit) binaries.push('nvim');
const lspconfigs = list(process.env.TEALWORKS_NVIM_LSPCONFIG);

describe('README Neovim set-ups in real headless Neovims', function () {
  this.timeout(120_000);
  const nvims = binaries.map((bin) => ({ bin, version: nvimVersion(bin) }));
  let dir: string;
  let server: string;
  let runs = 0;

  before(async function () {
    if (!explicit && !nvims[0]!.version) {
      console.log('      (skipped: nvim is not installed; TEALWORKS_NVIM lists Neovims to test)');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'tw-nvim-'));
    // The bundle `npm run build` makes, built here into the temp folder.
    server = join(dir, 'dist', 'server.cjs');
    await build({
      entryPoints: [resolve(repoRoot, 'server/src/main.ts')],
      outfile: server,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'warning',
    });
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  /** Runs one README block in one Neovim and checks what a user would see. */
  async function check(bin: string, version: Version, label: string, inProject: boolean, runtimePath?: string): Promise<void> {
    const run = join(dir, `run-${++runs}`);
    // In a project (a tealworks.yaml two levels up, Neovim started in the file's folder) or a lone
    // file with no project marker anywhere above it.
    const project = join(run, 'project');
    const folder = inProject ? join(project, 'contracts') : run;
    mkdirSync(folder, { recursive: true });
    if (inProject) writeFileSync(join(project, 'tealworks.yaml'), 'name: counter\n');
    // Only the server path is filled in; an lspconfig checkout goes on the runtime path first, as
    // a plugin manager would put it.
    let setup = readmeBlock(label).replaceAll('/absolute/path/to/tealworks/dist/server.cjs', server);
    if (runtimePath) setup = `vim.opt.runtimepath:prepend(${JSON.stringify(runtimePath)})\n${setup}`;
    writeFileSync(join(run, 'init.lua'), setup);
    const teal = join(folder, 'counter.teal');
    writeFileSync(teal, '#pragma version 10\nitn 1\nint TMPL_FEE\nreturn\n');
    const out = join(run, 'result.json');
    writeFileSync(
      join(run, 'check.lua'),
      `
local result = { label = ${JSON.stringify(label)} }
local clients = vim.lsp.get_clients or vim.lsp.get_active_clients
vim.cmd('edit ${teal}')
result.filetype = vim.bo.filetype
result.attached = vim.wait(20000, function() return #clients({ bufnr = 0 }) > 0 end, 50)
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(result.diagnostics, { line = d.lnum, message = d.message, severity = d.severity }) end
local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 6 } }
local hover = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000) or {}
for _, r in pairs(hover) do if r.result and r.result.contents then result.hover = r.result.contents.value end end
local d = vim.diagnostic.get(0)[1]
if d then
  local ctx = { diagnostics = { { range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }, message = d.message, severity = d.severity, source = d.source } } }
  local actions = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(0) }, range = ctx.diagnostics[1].range, context = ctx }, 10000) or {}
  result.actions = {}
  for _, r in pairs(actions) do for _, a in ipairs(r.result or {}) do table.insert(result.actions, a.title) end end
end
result.clients = #clients()
for _, c in ipairs(clients()) do result.root = c.config.root_dir end
result.messages = vim.fn.execute('messages')
vim.fn.writefile({ vim.fn.json_encode(result) }, '${out}')
vim.cmd('qa!')
`,
    );
    // A clean home: no user configuration, plugins or state of the machine's user take part.
    const home = join(run, 'home');
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
      XDG_CACHE_HOME: join(home, 'cache'),
    };
    const nvim = spawnSync(bin, ['--headless', '-i', 'NONE', '-n', '-u', join(run, 'init.lua'), '-c', `luafile ${join(run, 'check.lua')}`], {
      cwd: folder,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(nvim.status, 0, `${bin} exited with ${nvim.status}: ${nvim.stderr}`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as {
      filetype: string;
      attached: boolean;
      clients: number;
      diagnostics: { line: number; message: string }[];
      hover?: string;
      actions?: string[];
      messages: string;
      root?: string;
    };
    const messages = `${r.messages}\n${nvim.stderr}`.trim();
    const what = runtimePath ? `${label} ${basename(runtimePath)}` : label;
    console.log(
      `      ${what} in nvim ${version.join('.')}, ${inProject ? 'project' : 'lone file'}: root ${r.root ?? '(none)'}, ${r.diagnostics.length} diagnostic(s), hover ${r.hover ? 'ok' : 'missing'}, ${r.actions?.length ?? 0} action(s)${messages ? `; messages: ${messages.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
    );
    assert.equal(r.filetype, 'avmteal');
    assert.equal(r.attached, true);
    assert.equal(r.clients, 1, 'one tealworks client');
    // The project folder when there is one; otherwise the 0.7 and 0.8-0.10 blocks fall back to the
    // working folder, and the others start the server for the single file, with no root.
    const root = label === 'neovim 0.7' ? folder : inProject ? project : label === 'neovim 0.8-0.10' ? folder : undefined;
    assert.equal(r.root, root, 'root folder');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.line, d.message]),
      [[1, 'unknown opcode: itn']],
      'TMPL_FEE is not an error',
    );
    assert.match(r.hover ?? '', /`TMPL_FEE` — template variable/);
    assert.ok(r.actions?.includes("Did you mean 'int'? (opcode)"), JSON.stringify(r.actions));
    // Our own set-ups are current in the Neovim they are written for: nothing deprecated, no errors.
    if (!runtimePath) assert.doesNotMatch(messages, /deprecat|error/i);
    // The server went away with Neovim (stdin closed): no orphan keeps the bundle open.
    await new Promise((res) => setTimeout(res, 1500));
    const left = spawnSync('pgrep', ['-f', server], { encoding: 'utf8' }).stdout.trim();
    assert.equal(left, '', `server still running: ${left}`);
  }

  for (const { bin, version } of nvims) {
    const name = version ? `nvim ${version.join('.')} (${bin})` : bin;
    const label = version && builtinLabel(version);
    it(`${label ?? 'the README set-up'} in ${name}: diagnostics, hover, quick fix, server exits with Neovim`, async function () {
      if (!version) assert.fail(`TEALWORKS_NVIM names ${bin}, which does not run as Neovim (\`${bin} --version\` failed)`);
      if (!label) assert.fail(`the README has no set-up for Neovim ${version.join('.')} (0.7 is the oldest covered)`);
      await check(bin, version, label, true);
      await check(bin, version, label, false);
    });
    for (const checkout of lspconfigs) {
      const min = lspconfigMinimum(checkout);
      if (!version) continue;
      const title = `nvim-lspconfig ${basename(checkout)} in ${name}`;
      // Listed as pending, so a pair the checkout refuses is visible rather than silently dropped.
      if (!atLeast(version, min)) it(`${title} (the checkout needs Neovim ${min.join('.')})`);
      else
        it(title, async () => {
          await check(bin, version, 'nvim-lspconfig', true, checkout);
          await check(bin, version, 'nvim-lspconfig', false, checkout);
        });
    }
  }
});
