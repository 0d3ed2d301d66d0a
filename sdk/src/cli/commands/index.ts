import type { Command } from '../command.js';
import { lspCommand } from './lsp.js';
import { assembleCommand } from './assemble.js';
import { disassembleCommand } from './disassemble.js';

/** Every subcommand, in the order `tealworks help` lists them. */
export const commands: Command[] = [lspCommand, assembleCommand, disassembleCommand];
