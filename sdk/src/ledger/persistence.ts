// The only ledger module that touches the file system: the state machine itself stays portable
// and receives this store through `LedgerConfig.store`.
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha512_256 } from '../crypto/hash.js';
import { LedgerStoreError } from './errors.js';
import type { LedgerStore } from './ledger.js';

const JOURNAL = 'journal.bin';
const SNAPSHOT = 'snapshot.bin';
const SNAPSHOT_TMP = 'snapshot.bin.tmp';
const MAGIC = 0x54574a31; // "TWJ1"
const HEADER = 12; // magic u32 | length u32 | checksum u32

function checksum(payload: Uint8Array): number {
  const h = sha512_256(payload);
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
}

/** Frames one journal record: magic, length and a checksum so a torn or garbled tail is detectable. */
export function frameRecord(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC);
  v.setUint32(4, payload.length);
  v.setUint32(8, checksum(payload));
  out.set(payload, HEADER);
  return out;
}

/** Complete records of a journal image and the length of its valid prefix. */
export function parseJournal(bytes: Uint8Array): { records: Uint8Array[]; validLength: number } {
  const records: Uint8Array[] = [];
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let off = 0;
  while (off + HEADER <= bytes.length) {
    if (v.getUint32(off) !== MAGIC) break;
    const len = v.getUint32(off + 4);
    if (off + HEADER + len > bytes.length) break;
    const payload = bytes.subarray(off + HEADER, off + HEADER + len);
    if (checksum(payload) !== v.getUint32(off + 8)) break;
    records.push(payload.slice());
    off += HEADER + len;
  }
  return { records, validLength: off };
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open directories for syncing; the rename is still atomic there.
  }
}

/**
 * A data directory holding an append-only block journal (each record fsync'd before the submit
 * that produced it returns) and a snapshot replaced atomically (temp file, fsync, rename). A
 * crash at any point leaves either the old or the new snapshot and a journal whose torn last
 * record, if any, is cut off on the next open.
 */
export class FileLedgerStore implements LedgerStore {
  private fd: number | undefined;

  constructor(readonly dir: string) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new LedgerStoreError(`cannot create data directory ${dir}: ${(e as Error).message}`, { cause: e });
    }
  }

  private journalPath(): string {
    return join(this.dir, JOURNAL);
  }

  private open(): number {
    if (this.fd === undefined) this.fd = openSync(this.journalPath(), 'a');
    return this.fd;
  }

  readSnapshot(): Uint8Array | undefined {
    const p = join(this.dir, SNAPSHOT);
    if (!existsSync(p)) return undefined;
    return new Uint8Array(readFileSync(p));
  }

  readJournal(): Uint8Array[] {
    const p = this.journalPath();
    if (!existsSync(p)) return [];
    const bytes = new Uint8Array(readFileSync(p));
    const { records, validLength } = parseJournal(bytes);
    if (validLength < bytes.length) {
      // Cut the torn tail so the next append starts on a record boundary.
      const fd = openSync(p, 'r+');
      try {
        ftruncateSync(fd, validLength);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    return records;
  }

  append(record: Uint8Array): void {
    const fd = this.open();
    const framed = frameRecord(record);
    let off = 0;
    while (off < framed.length) off += writeSync(fd, framed, off, framed.length - off);
    fsyncSync(fd);
  }

  writeSnapshot(bytes: Uint8Array): void {
    const tmp = join(this.dir, SNAPSHOT_TMP);
    const fd = openSync(tmp, 'w');
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(this.dir, SNAPSHOT));
    fsyncDir(this.dir);
  }

  clear(): void {
    this.close();
    for (const f of [JOURNAL, SNAPSHOT, SNAPSHOT_TMP]) rmSync(join(this.dir, f), { force: true });
    fsyncDir(this.dir);
  }

  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
