import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError, type CliIo, type Command } from './command.js';
import { commandEntries, type CommandEntry } from './commands/index.js';
import { TealworksError } from '../errors.js';

export const VERSION = '0.1.0';

function help(list: Command[]): string {
  const width = Math.max(...list.map((c) => c.name.length), 4);
  const lines = ['Usage: tealworks <command> [options]', '', 'Commands:'];
  for (const c of list) lines.push(`  ${c.name.padEnd(width)}  ${c.summary}`);
  lines.push(`  ${'help'.padEnd(width)}  Show help for a command`, '', 'Run `tealworks help <command>` for its options.');
  return lines.join('\n') + '\n';
}

/**
 * Runs one `tealworks` command line through `io`; returns the exit code. `list` replaces the
 * built-in commands (tests); the built-in ones load on demand, only the one that runs.
 */
export async function runCli(argv: string[], io: CliIo, list?: Command[]): Promise<number> {
  const entries: readonly CommandEntry[] = list ? list.map((c) => ({ name: c.name, load: () => Promise.resolve(c) })) : commandEntries;
  const all = async (): Promise<Command[]> => Promise.all(entries.map((e) => e.load()));
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(help(await all()));
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (name === 'help') {
    const target = await entries.find((e) => e.name === rest[0])?.load();
    io.stdout(target ? `${target.summary}\n\nUsage: ${target.usage}\n` : help(await all()));
    return 0;
  }
  const command = await entries.find((e) => e.name === name)?.load();
  if (!command) {
    io.stderr(`tealworks: unknown command "${name}". Run \`tealworks help\` for the list.\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.summary}\n\nUsage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`tealworks ${command.name}: ${(e as Error).message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    if (e instanceof TealworksError) {
      io.stderr(`tealworks ${command.name}: ${(e as Error).message}\n`);
      return 1;
    }
    // Unexpected: still no stack trace for the user unless they ask for it.
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(`tealworks ${command.name}: internal error: ${message}\n`);
    if (process.env.TEALWORKS_DEBUG) io.stderr(`${(e as Error).stack ?? ''}\n`);
    return 70;
  }
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Runs the CLI on this process's arguments and sets the exit code; the `tealworks` bin calls it. */
export function runMain(argv: string[] = process.argv.slice(2)): Promise<void> {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
  };
  return runCli(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`tealworks: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 70;
    },
  );
}

if (isMain()) void runMain();
