// `tealworks test [--runner mocha|vitest|node] [runner args…]`: runs a project's contract tests
// with the runner the project already uses.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError, type CliIo, type Command } from '../command.js';

const USAGE = `tealworks test [--runner mocha|vitest|node] [-- runner arguments…]
  Runs the project's tests with its own runner: vitest or mocha when package.json depends on
  them, else node's built-in runner (node --test). Tests use @tealworks/sdk/testing (docs/testing.md).`;

/** Which runner a project uses, from its package.json (vitest, then mocha, else node:test). */
export function detectRunner(cwd: string): 'mocha' | 'vitest' | 'node' {
  const file = join(cwd, 'package.json');
  if (!existsSync(file)) return 'node';
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`${file} is not valid JSON`);
  }
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (deps.vitest) return 'vitest';
  if (deps.mocha) return 'mocha';
  return 'node';
}

/** The command line that runs the tests with `runner`. */
export function runnerCommand(runner: 'mocha' | 'vitest' | 'node', args: string[]): { command: string; args: string[] } {
  switch (runner) {
    case 'vitest':
      return { command: 'npx', args: ['--no-install', 'vitest', 'run', ...args] };
    case 'mocha':
      return { command: 'npx', args: ['--no-install', 'mocha', ...args] };
    case 'node':
      return { command: process.execPath, args: ['--test', ...args] };
  }
}

export const testCommand: Command = {
  name: 'test',
  summary: "Run the project's contract tests with its own runner (mocha, vitest or node --test)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    let runner: 'mocha' | 'vitest' | 'node' | undefined;
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--runner') {
        const v = args[++i];
        if (v !== 'mocha' && v !== 'vitest' && v !== 'node') throw new UsageError('--runner is mocha, vitest or node');
        runner = v;
      } else if (a === '--') rest.push(...args.slice(i + 1)), (i = args.length);
      else rest.push(a);
    }
    const chosen = runner ?? detectRunner(io.cwd);
    const { command, args: argv } = runnerCommand(chosen, rest);
    return new Promise<number>((resolve) => {
      const child = spawn(command, argv, { cwd: io.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      child.stdout.on('data', (d: Buffer) => io.stdout(d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => io.stderr(d.toString('utf8')));
      child.on('error', (e) => {
        io.stderr(`tealworks test: could not start ${chosen} (${e.message}); install it in the project or pick another with --runner\n`);
        resolve(2);
      });
      child.on('close', (code) => resolve(code ?? 1));
    });
  },
};
