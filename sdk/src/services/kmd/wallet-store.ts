import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where sealed wallet files live. The store sees only already-encrypted text; it never holds a
 * password or a key.
 */
export interface WalletStore {
  /** Every stored wallet file, keyed by wallet id. */
  loadAll(): Promise<Map<string, string>>;
  read(id: string): Promise<string | undefined>;
  /** Replaces the wallet's file in one step: a crash leaves the old or the new file, never a mix. */
  write(id: string, text: string): Promise<void>;
  /** Human-readable location, for messages. */
  readonly location: string;
}

const SUFFIX = '.wallet.json';
const TEMP_MARK = '.tmp-';

/** One file per wallet under `<dir>`, written with temp file + fsync + rename. */
export class FileWalletStore implements WalletStore {
  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  #path(id: string): string {
    return join(this.dir, id + SUFFIX);
  }

  async loadAll(): Promise<Map<string, string>> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const out = new Map<string, string>();
    for (const name of await readdir(this.dir)) {
      if (name.includes(TEMP_MARK)) {
        // Left behind by a write that crashed before its rename; the real file is intact.
        await unlink(join(this.dir, name)).catch(() => undefined);
        continue;
      }
      if (!name.endsWith(SUFFIX)) continue;
      out.set(name.slice(0, -SUFFIX.length), await readFile(join(this.dir, name), 'utf8'));
    }
    return out;
  }

  async read(id: string): Promise<string | undefined> {
    try {
      return await readFile(this.#path(id), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async write(id: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = this.#path(id);
    const temp = `${target}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    const file = await open(temp, 'wx', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } catch (e) {
      // Disk full or an I/O error: the real file is untouched; do not leave the partial copy behind.
      await file.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw e;
    }
    await file.close();
    try {
      await rename(temp, target);
    } catch (e) {
      await unlink(temp).catch(() => undefined);
      throw e;
    }
    // Make the rename itself durable; not every platform lets a directory be fsynced.
    try {
      const dir = await open(this.dir, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch {
      /* best effort */
    }
  }
}

/** Keeps sealed files in memory: same encryption and semantics, nothing on disk (tests, throwaway devnets). */
export class MemoryWalletStore implements WalletStore {
  readonly #files = new Map<string, string>();
  readonly location = 'memory';

  async loadAll(): Promise<Map<string, string>> {
    return new Map(this.#files);
  }

  async read(id: string): Promise<string | undefined> {
    return this.#files.get(id);
  }

  async write(id: string, text: string): Promise<void> {
    this.#files.set(id, text);
  }
}
