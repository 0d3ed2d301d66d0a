import { UsageError } from './command.js';

/**
 * Walks a command's argument words. A word `--flag=value` is read as the flag with its value
 * attached; otherwise a flag's value is the word after it.
 */
export class ArgReader {
  private index = -1;
  private inline: string | undefined;
  private flag = '';

  constructor(private readonly args: readonly string[]) {}

  /** The next flag or operand, without any `=value` part; undefined when none is left. */
  next(): string | undefined {
    const word = this.args[++this.index];
    this.inline = undefined;
    if (word === undefined) return undefined;
    const eq = word.indexOf('=');
    if (word.startsWith('--') && eq > 0) {
      this.inline = word.slice(eq + 1);
      this.flag = word.slice(0, eq);
    } else this.flag = word;
    return this.flag;
  }

  /** The value of the flag just read; empty or missing values are a usage error. */
  value(): string {
    const v = this.inline ?? this.args[++this.index];
    if (v === undefined || v === '') throw new UsageError(`${this.flag} needs a value`);
    return v;
  }
}
