import { linkSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TealworksError } from '../../errors.js';
import { writePrivate } from './private-file.js';

/*
 * One process at a time on a devnet data directory: two ledgers appending to one journal would
 * corrupt it. Every command that opens a data directory goes through `startDevnet`, which takes
 * this lock. Once its services listen, the holder publishes in the lock file everything another
 * process needs to use them (URLs, tokens, wallet, funded accounts), so that one-off commands
 * (`deploy`, `call`, `state` …) and `Tealworks.connect.devnet()` use the running devnet instead of
 * opening the files again. The file is owner-only, like `tokens.json`, and goes away on a clean
 * stop; one left by a process that is gone counts for nothing.
 */

/** Where `tealworks devnet` keeps its chain, under the working directory, unless told otherwise. */
export const DEFAULT_DEVNET_DATA_DIR = '.tealworks/devnet';
/** Where `tealworks devnet --localnet` keeps its chain (apart: its genesis differs). */
export const DEFAULT_LOCALNET_DATA_DIR = '.tealworks/localnet';

/** File name of the lock (and running-devnet record) inside a devnet data directory. */
export const LOCK_FILE = 'devnet.lock';

/** A service's URL and API token, as published in the lock file. */
type PublishedEndpoint = { url: string; token: string };

/** What a running devnet publishes in its lock file for other processes. */
export interface RunningDevnetRecord {
  version: 1;
  pid: number;
  genesisId: string;
  node: PublishedEndpoint;
  query: PublishedEndpoint;
  kmd: PublishedEndpoint;
  wallet: { name: string; password: string };
  /** Funded genesis accounts; amounts in microAlgos as decimal strings. */
  accounts: Array<{ address: string; genesisAmount: string }>;
}

/** What the lock file says about the process holding it. */
export interface DataDirHolder {
  pid: number;
  /** URL of the holder's node service, once its services listen. */
  node?: string;
  /** The holder's full record, once its services listen. */
  running?: RunningDevnetRecord;
}

/** The data directory is held by a live process (this one or another). */
export class DataDirInUseError extends TealworksError {
  constructor(
    readonly dir: string,
    readonly holder: DataDirHolder,
  ) {
    const name = holder.pid === process.pid ? undefined : processName(holder.pid);
    super(
      `the devnet data in ${dir} is in use by ${holder.pid === process.pid ? 'another devnet in this process' : `process ${holder.pid}${name ? ` (${name})` : ''}`}` +
        `${holder.node ? ` (serving ${holder.node})` : ''}; stop it first, or use --in-memory` +
        (holder.pid !== process.pid && !holder.node
          ? `. If process ${holder.pid} is not a devnet (after a crash its process id can be reused by an unrelated program), the lock is stale: delete ${join(dir, LOCK_FILE)} and retry`
          : ''),
    );
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Records the running services (URLs, tokens, wallet, accounts) in the lock file. */
  publish(running: Omit<RunningDevnetRecord, 'version' | 'pid'>): void;
  release(): void;
}

/** The command name of process `pid` where the system tells it (Linux `/proc`), else undefined. */
function processName(pid: number): string | undefined {
  try {
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return name.length > 0 ? name.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
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
  const text = readLockText(join(dir, LOCK_FILE));
  if (text === undefined) return undefined;
  let holder: DataDirHolder;
  try {
    const parsed = JSON.parse(text) as Partial<RunningDevnetRecord>;
    holder = { pid: Number(parsed.pid) };
    if (parsed.version === 1 && typeof parsed.node?.url === 'string' && parsed.query && parsed.kmd && parsed.wallet && Array.isArray(parsed.accounts)) {
      holder.node = parsed.node.url;
      holder.running = parsed as RunningDevnetRecord;
    }
  } catch {
    // Damaged (or, on a file system without hard links, being written right now).
    holder = { pid: Number(text.trim()) || -1 };
  }
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return undefined;
  return processAlive(holder.pid) ? holder : undefined;
}

/**
 * Takes the data directory's lock or throws `DataDirInUseError` naming the live holder. A lock
 * left behind by a process that is gone is taken over.
 *
 * Safe against other processes doing the same at the same time: the lock file appears with its
 * content in one step (a hard link to a finished temporary file, which fails if the lock exists),
 * and a stale lock is removed only by the holder of a short takeover lock, who checks again that it
 * is stale first, so a racer's fresh lock is never removed.
 */
export function lockDataDir(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, LOCK_FILE);
  const unique = `${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  const mine = `${path}.${unique}.new`;
  let diskFull = false;
  try {
    writeFileSync(mine, JSON.stringify({ pid: process.pid }) + '\n', { mode: 0o600 });
  } catch (e) {
    rmSync(mine, { force: true });
    if (!isDiskFull(e)) throw e;
    // A full disk: the lock becomes a symbolic link whose target is the record (no data block
    // needed), so a devnet can still start to serve reads.
    diskFull = true;
  }
  try {
    for (let attempt = 0; ; attempt++) {
      if (attempt >= 20) throw new TealworksError(`cannot lock the devnet data in ${dir}: another process keeps taking the lock`);
      try {
        if (diskFull) symlinkSync(JSON.stringify({ pid: process.pid }), path);
        else createLock(mine, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = dataDirHolder(dir);
      if (holder) throw new DataDirInUseError(dir, holder);
      removeStaleLock(dir, path, unique);
    }
  } finally {
    rmSync(mine, { force: true });
  }
  let released = false;
  return {
    path,
    publish(running) {
      if (released) return;
      const record: RunningDevnetRecord = { version: 1, pid: process.pid, ...running };
      try {
        writePrivate(path, JSON.stringify(record, null, 2) + '\n', `${path}.${process.pid}.tmp`);
      } catch (e) {
        // A full disk: the lock (held) stays as it is; other processes cannot find the services
        // through it until there is space, but the devnet serves what it has.
        rmSync(`${path}.${process.pid}.tmp`, { force: true });
        if (!isDiskFull(e)) throw e;
      }
    },
    release() {
      if (released) return;
      released = true;
      // Only our own lock: never one that another process holds now.
      if (lockPid(path) === process.pid) rmSync(path, { force: true });
    },
  };
}

/**
 * Creates `path` with `finished`'s content in one step; EEXIST when it exists. Where the file
 * system has no hard links, an exclusive create followed by the write (briefly empty) instead.
 */
function createLock(finished: string, path: string): void {
  try {
    linkSync(finished, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    writeFileSync(path, readFileSync(finished), { flag: 'wx', mode: 0o600 });
  }
}

/** A lock's content: the file's text, or the target of a lock taken on a full disk (a symbolic link). */
function readLockText(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') return undefined;
  }
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function isDiskFull(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The pid written in a lock file, or undefined when it is missing or unreadable. */
function lockPid(file: string): number | undefined {
  try {
    const pid = Number((JSON.parse(readLockText(file) ?? '') as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes `dir`'s lock if it is still stale, holding the takeover lock (`LOCK.takeover`, a symbolic
 * link whose target names its holder: created in one step, and needs no data block on a full
 * disk) so that checking and removing are one step for every process taking over. Whoever removes
 * the stale lock, every taker then races to create a fresh one, which only one can do.
 */
function removeStaleLock(dir: string, path: string, unique: string): void {
  const takeover = `${path}.takeover`;
  const me = `${process.pid}.${unique}`;
  for (let attempt = 0; ; attempt++) {
    try {
      createTakeover(me, takeover);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (attempt >= 5000)
      throw new TealworksError(`cannot lock the devnet data in ${dir}: ${takeover} stays taken; remove it if no tealworks process is running`);
    const holder = Number.parseInt(readLockText(takeover) ?? '', 10);
    // Left by a process that died between taking and dropping it (a few instructions): clear it.
    if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) clearAbandonedTakeover(takeover, `${path}.${unique}.aside`);
    else pause(1);
  }
  try {
    if (!dataDirHolder(dir)) rmSync(path, { force: true });
  } finally {
    if (readLockText(takeover) === me) rmSync(takeover, { force: true });
  }
}

/** Creates the takeover lock naming `me`; EEXIST when another process holds it. */
function createTakeover(me: string, takeover: string): void {
  try {
    symlinkSync(me, takeover);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    // No symbolic links here: an exclusive create (the name is written at once; it is tiny).
    writeFileSync(takeover, me, { flag: 'wx', mode: 0o600 });
  }
}

/** Moves an abandoned takeover lock aside; one that turns out to be live (a racer's new one) is put back. */
function clearAbandonedTakeover(takeover: string, aside: string): void {
  try {
    renameSync(takeover, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = readLockText(aside);
  const pid = Number.parseInt(moved ?? '', 10);
  if (moved !== undefined && Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
    try {
      createTakeover(moved, takeover);
    } catch {
      /* taken again meanwhile: the next attempt reads its holder */
    }
  }
  rmSync(aside, { force: true });
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));
/** Waits `ms` milliseconds without returning to the event loop (taking the lock is synchronous). */
function pause(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}

/**
 * The record of the devnet running on `dataDir` (from its lock file), or undefined when none is:
 * no lock, a lock whose process has exited, or a holder whose services are not listening yet.
 */
export function readRunningDevnetRecord(dataDir: string): RunningDevnetRecord | undefined {
  return dataDirHolder(dataDir)?.running;
}
