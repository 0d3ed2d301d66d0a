import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TealworksError } from '../../errors.js';

/*
 * One process at a time on a devnet data directory: two ledgers appending to one journal would
 * corrupt it. Every command that opens a data directory goes through `startDevnet`, which takes
 * this lock; the holder publishes its service URLs in the lock file so that one-off commands
 * (`deploy`, `call`, `state` …) can use the running devnet instead of opening the files again.
 */

export const LOCK_FILE = 'devnet.lock';

/** What the lock file says about the process holding it. */
export interface DataDirHolder {
  pid: number;
  /** Service URLs, once the holder's services listen (tokens stay in `tokens.json`). */
  node?: string;
  query?: string;
  kmd?: string;
}

/** The data directory is held by a live process (this one or another). */
export class DataDirInUseError extends TealworksError {
  constructor(
    readonly dir: string,
    readonly holder: DataDirHolder,
  ) {
    super(
      `the devnet data in ${dir} is in use by ${holder.pid === process.pid ? 'another devnet in this process' : `process ${holder.pid}`}` +
        `${holder.node ? ` (serving ${holder.node})` : ''}; stop it first, or use --in-memory`,
    );
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Records the running services' URLs in the lock file. */
  publish(endpoints: { node: string; query: string; kmd: string }): void;
  release(): void;
}

/** True while process `pid` exists (ours, or another user's). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of `dir`'s lock, if any (a lock left by a process that is gone does not count). */
export function dataDirHolder(dir: string): DataDirHolder | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, LOCK_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let holder: DataDirHolder;
  try {
    const parsed = JSON.parse(text) as Partial<DataDirHolder>;
    holder = { ...parsed, pid: Number(parsed.pid) };
  } catch {
    // Being written right now (it is created empty, then filled), or damaged.
    holder = { pid: Number(text.trim()) || -1 };
  }
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return undefined;
  return processAlive(holder.pid) ? holder : undefined;
}

/**
 * Takes the data directory's lock or throws `DataDirInUseError` naming the live holder. A lock
 * left behind by a process that is gone is taken over.
 */
export function lockDataDir(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid }) + '\n', { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = dataDirHolder(dir);
      if (holder) throw new DataDirInUseError(dir, holder);
      rmSync(path, { force: true });
      continue;
    }
    let released = false;
    return {
      path,
      publish(endpoints) {
        if (released) return;
        const tmp = `${path}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify({ pid: process.pid, ...endpoints }) + '\n', { mode: 0o600 });
        renameSync(tmp, path);
      },
      release() {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      },
    };
  }
  throw new TealworksError(`cannot lock the devnet data in ${dir}: another process keeps taking the lock`);
}
