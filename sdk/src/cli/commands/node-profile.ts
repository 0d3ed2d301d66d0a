// `tealworks node profile list|set`: the node's configuration profiles, written to a data
// directory's config.json (node-service.md "Configuration profiles").
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ArgReader } from '../args.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { NODE_CONFIG_FILE, NODE_PROFILES, nodeProfile, writeNodeConfig } from '../../services/devnet/index.js';
import { DEFAULT_DATA_DIR } from './devnet.js';

const USAGE =
  'tealworks node profile list\n' +
  `       tealworks node profile set <profile> [-d DATA_DIR] [-y]   (DATA_DIR defaults to ${DEFAULT_DATA_DIR})\n` +
  '  set writes the profile into DATA_DIR/config.json, asking before it replaces an existing file (-y: do not ask).';

/** How the command asks before overwriting; tests pass their own. */
export interface Prompter {
  /** False when nobody can answer (stdin is not a terminal). */
  interactive: boolean;
  ask(question: string): Promise<string>;
}

const terminalPrompter = (): Prompter => ({
  interactive: process.stdin.isTTY === true,
  async ask(question) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
});

function list(io: CliIo): number {
  const width = Math.max(...NODE_PROFILES.map((p) => p.name.length));
  for (const p of NODE_PROFILES) io.stdout(`${p.name.padEnd(width)}  ${p.description}\n`);
  return 0;
}

async function set(args: string[], io: CliIo, prompter: Prompter): Promise<number> {
  const argv = new ArgReader(args);
  let name: string | undefined;
  let data: string | undefined;
  let yes = false;
  for (let a = argv.next(); a !== undefined; a = argv.next()) {
    if (a === '-d' || a === '--datadir' || a === '--data') data = argv.value();
    else if (a === '-y' || a === '--yes') yes = true;
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (name === undefined) name = a;
    else throw new UsageError(`unexpected argument "${a}"`);
  }
  if (name === undefined) throw new UsageError(`which profile? one of ${NODE_PROFILES.map((p) => p.name).join(', ')}`);
  const profile = nodeProfile(name);
  const dir = resolve(io.cwd, data ?? DEFAULT_DATA_DIR);
  const path = join(dir, NODE_CONFIG_FILE);
  if (existsSync(path) && !yes) {
    if (!prompter.interactive) {
      io.stderr(
        `tealworks node profile set: ${path} already exists and there is no terminal to confirm overwriting it; rerun with -y to overwrite. Nothing was written.\n`,
      );
      return 1;
    }
    const answer = (await prompter.ask(`A ${NODE_CONFIG_FILE} file already exists at ${path}\nOverwrite it with the ${profile.name} profile? (Y/n) `))
      .trim()
      .toLowerCase();
    if (answer !== '' && answer !== 'y' && answer !== 'yes') {
      io.stdout(`Kept the existing ${path}; nothing was written.\n`);
      return answer === 'n' || answer === 'no' ? 0 : 1;
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeNodeConfig(dir, profile.settings);
  const keys = Object.keys(profile.settings);
  io.stdout(
    `Wrote the ${profile.name} profile to ${path}${keys.length ? `: ${keys.map((k) => `${k}=${JSON.stringify(profile.settings[k])}`).join(', ')}` : ' (default settings)'}\n`,
  );
  if (profile.settings.EnableFollowMode)
    io.stdout(`Start the follower with: tealworks devnet --data ${dir} --follow <source node URL> --follow-token <its token>\n`);
  return 0;
}

/** Runs `tealworks node <args>`. */
export async function runNode(args: string[], io: CliIo, prompter: Prompter = terminalPrompter()): Promise<number> {
  const [group, action, ...rest] = args;
  if (group !== 'profile')
    throw new UsageError(group === undefined ? 'missing subcommand: node profile list|set' : `unknown subcommand "${group}": node profile list|set`);
  if (action === 'list') {
    if (rest.length) throw new UsageError(`profile list takes no arguments, got "${rest[0]}"`);
    return list(io);
  }
  if (action === 'set') return set(rest, io, prompter);
  throw new UsageError(action === undefined ? 'missing action: node profile list|set' : `unknown action "${action}": node profile list|set`);
}

/** The `tealworks node` command (configuration profiles). */
export const nodeCommand: Command = {
  name: 'node',
  summary: "Node configuration profiles: list them, or write one into a data directory's config.json",
  usage: USAGE,
  run: (args, io) => runNode(args, io),
};
