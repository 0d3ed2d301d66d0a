import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CliIo } from '../../sdk/src/cli/command.js';
import { runCli } from '../../sdk/src/cli/main.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const sharedData = resolve(repoRoot, '../shared/data');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `tealworks ARGS` in-process with captured output. */
export async function cli(args: string[], cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** Runs `tealworks ARGS` as a real process (node + tsx), as users do. */
export function cliProcess(args: string[], cwd: string): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      // tsx by absolute URL: `--import tsx` would be resolved from `cwd`, a temporary folder.
      ['--import', pathToFileURL(resolve(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href, resolve(repoRoot, 'sdk/src/cli/main.ts'), ...args],
      { cwd, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

export function tempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), `tealworks-${prefix}-`));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
