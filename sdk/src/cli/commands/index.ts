import type { Command } from '../command.js';
import { lspCommand } from './lsp.js';
import { assembleCommand } from './assemble.js';
import { disassembleCommand } from './disassemble.js';
import { devnetCommand } from './devnet.js';
import { runCommand } from './run.js';
import { simulateCommand } from './simulate.js';
import { deployCommand } from './deploy.js';
import { callCommand } from './call.js';
import { stateCommand } from './state.js';
import { nodeCommand } from './node-profile.js';
import { fundCommand } from './fund.js';
import { generateCommand } from './generate.js';
import { debugCommand } from './debug.js';
import { cheatCommand } from './cheat.js';
import { testCommand } from './test.js';

/** Every subcommand, in the order `tealworks help` lists them. */
export const commands: Command[] = [lspCommand, assembleCommand, disassembleCommand, devnetCommand, runCommand, simulateCommand, deployCommand, callCommand, stateCommand, debugCommand, fundCommand, cheatCommand, testCommand, generateCommand, nodeCommand];
