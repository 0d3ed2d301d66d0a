/** A `tealworks` subcommand. Commands write through `io` so tests can run them in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Working directory that relative paths are resolved against. */
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Returns the process exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** An error whose message is meant for the user as is: printed without a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }

  /** Holds for a usage error from another copy of this module too (same registered brand). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[USAGE_BRAND] === true;
  }
}

const USAGE_BRAND = Symbol.for('tealworks.cli.usage-error');
Object.defineProperty(UsageError.prototype, USAGE_BRAND, { value: true });
