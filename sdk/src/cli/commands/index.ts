import type { Command } from '../command.js';

/** A subcommand by name, and how to load it. */
export interface CommandEntry {
  name: string;
  /** Imports the command's module: only the command that runs is loaded (and evaluated) at start-up. */
  load(): Promise<Command>;
}

/**
 * Every subcommand, in the order `tealworks help` lists them. Each loads on demand, so starting one
 * command (`tealworks devnet`) does not load every other command's dependencies first; in the
 * shipped bundle each is its own chunk. `name` must equal the loaded command's name
 * (test/cli checks it).
 */
export const commandEntries: readonly CommandEntry[] = [
  { name: 'lsp', load: async () => (await import('./lsp.js')).lspCommand },
  { name: 'assemble', load: async () => (await import('./assemble.js')).assembleCommand },
  { name: 'disassemble', load: async () => (await import('./disassemble.js')).disassembleCommand },
  { name: 'devnet', load: async () => (await import('./devnet.js')).devnetCommand },
  { name: 'run', load: async () => (await import('./run.js')).runCommand },
  { name: 'simulate', load: async () => (await import('./simulate.js')).simulateCommand },
  { name: 'deploy', load: async () => (await import('./deploy.js')).deployCommand },
  { name: 'call', load: async () => (await import('./call.js')).callCommand },
  { name: 'state', load: async () => (await import('./state.js')).stateCommand },
  { name: 'debug', load: async () => (await import('./debug.js')).debugCommand },
  { name: 'fund', load: async () => (await import('./fund.js')).fundCommand },
  { name: 'cheat', load: async () => (await import('./cheat.js')).cheatCommand },
  { name: 'test', load: async () => (await import('./test.js')).testCommand },
  { name: 'generate', load: async () => (await import('./generate.js')).generateCommand },
  { name: 'node', load: async () => (await import('./node-profile.js')).nodeCommand },
];

/** Every subcommand, loaded, in help order. */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(commandEntries.map((e) => e.load()));
}
