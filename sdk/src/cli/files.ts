import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './command.js';

/** Why a file could not be read or written: the OS code when there is one (ENOENT, EACCES …). */
export function fileErrorReason(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/**
 * Commands' file I/O, relative to the working directory. A failure is reported to the user as
 * `NAME: cannot read|write: REASON` and comes back as undefined / false, for exit code 1.
 */
export async function readInputBytes(io: CliIo, name: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(resolve(io.cwd, name)));
  } catch (e) {
    io.stderr(`${name}: cannot read: ${fileErrorReason(e)}\n`);
    return undefined;
  }
}

export async function readInputText(io: CliIo, name: string): Promise<string | undefined> {
  try {
    return await readFile(resolve(io.cwd, name), 'utf8');
  } catch (e) {
    io.stderr(`${name}: cannot read: ${fileErrorReason(e)}\n`);
    return undefined;
  }
}

export async function writeOutput(io: CliIo, name: string, data: string | Uint8Array): Promise<boolean> {
  try {
    await writeFile(resolve(io.cwd, name), data);
    return true;
  } catch (e) {
    io.stderr(`${name}: cannot write: ${fileErrorReason(e)}\n`);
    return false;
  }
}
