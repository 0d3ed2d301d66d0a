// The README's Neovim set-up, as written, in a real headless Neovim: the block for the installed
// version (0.11+, 0.8-0.10 or 0.7) with only the server path filled in, then a TEAL file with a
// typo. Diagnostics, hover and the "did you mean" quick fix must come through, and the server must
// exit with Neovim. Skipped when `nvim` is not installed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './lspClient.js';

function nvimVersion(): [number, number] | undefined {
  try {
    const m = /NVIM v(\d+)\.(\d+)/.exec(execFileSync('nvim', ['--version'], { encoding: 'utf8' }));
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  } catch {
    return undefined;
  }
}

/** The README's Lua block whose first line is `-- tealworks: <label>`. */
function readmeBlock(label: string): string {
  const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');
  for (const [, body] of readme.matchAll(/```lua\n([\s\S]*?)```/g)) if (body!.startsWith(`-- tealworks: ${label}\n`)) return body!;
  throw new Error(`README has no Lua block for ${label}`);
}

describe('README Neovim set-up in a real headless Neovim', function () {
  this.timeout(90_000);
  const version = nvimVersion();
  let dir: string;

  before(function () {
    if (!version) {
      console.log('      (skipped: nvim is not installed)');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'tw-nvim-'));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('gives diagnostics, hover and quick fixes, and the server exits with Neovim', async () => {
    const [major, minor] = version!;
    const label = major > 0 || minor >= 11 ? 'neovim 0.11+' : minor >= 8 ? 'neovim 0.8-0.10' : 'neovim 0.7';
    // The bundle `npm run build` makes, built here into the temp folder.
    const server = join(dir, 'dist', 'server.cjs');
    await build({ entryPoints: [resolve(repoRoot, 'server/src/main.ts')], outfile: server, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
    const setup = readmeBlock(label).replaceAll('/absolute/path/to/tealworks/dist/server.cjs', server);
    writeFileSync(join(dir, 'init.lua'), setup);
    const teal = join(dir, 'counter.teal');
    writeFileSync(teal, '#pragma version 10\nitn 1\nint TMPL_FEE\nreturn\n');
    const out = join(dir, 'result.json');
    writeFileSync(
      join(dir, 'check.lua'),
      `
local result = { label = ${JSON.stringify(label)} }
vim.cmd('edit ${teal}')
result.filetype = vim.bo.filetype
result.attached = vim.wait(20000, function() return #vim.lsp.get_active_clients() > 0 end, 50)
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
vim.fn.writefile({ vim.fn.json_encode(result) }, '${out}')
vim.cmd('qa!')
`,
    );
    const run = spawnSync('nvim', ['--headless', '-i', 'NONE', '-n', '-u', join(dir, 'init.lua'), '-c', `luafile ${join(dir, 'check.lua')}`], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, `nvim exited with ${run.status}: ${run.stderr}`);
    const r = JSON.parse(readFileSync(out, 'utf8')) as { filetype: string; attached: boolean; diagnostics: { line: number; message: string }[]; hover?: string; actions?: string[] };
    console.log(`      ${label} (nvim ${major}.${minor}): ${r.diagnostics.length} diagnostic(s), hover ${r.hover ? 'ok' : 'missing'}, ${r.actions?.length ?? 0} action(s)`);
    assert.equal(r.filetype, 'avmteal');
    assert.equal(r.attached, true);
    assert.deepEqual(r.diagnostics.map((d) => [d.line, d.message]), [[1, 'unknown opcode: itn']], 'TMPL_FEE is not an error');
    assert.match(r.hover ?? '', /`TMPL_FEE` — template variable/);
    assert.ok(r.actions?.includes("Did you mean 'int'? (opcode)"), JSON.stringify(r.actions));
    // The server went away with Neovim (stdin closed): no orphan keeps the bundle open.
    await new Promise((res) => setTimeout(res, 1500));
    const left = spawnSync('pgrep', ['-f', server], { encoding: 'utf8' }).stdout.trim();
    assert.equal(left, '', `server still running: ${left}`);
  });
});
