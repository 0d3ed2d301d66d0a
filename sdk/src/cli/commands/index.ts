import type { Command } from '../command.js';

/** Every subcommand, in the order `tealworks help` lists them. */
export const commands: Command[] = [];
