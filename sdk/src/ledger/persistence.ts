// The only ledger module that touches the file system: the state machine itself stays portable
// and receives this store through `LedgerConfig.store`.
//
// Guarantees (docs/storage.md states them for users):
// - A submit returns only after its journal record is written and fsync'd.
// - Opening never truncates, rewrites or deletes anything. A damaged or partial journal record, or
//   a snapshot whose checksum does not match, stops the open with a `LedgerDamageError` naming the
//   file, the byte offset and the round; with `recover: true` the damaged part is moved aside into
//   a new file (never deleted) and every intact round before it is kept.
// - A failed write (ENOSPC, EIO …) throws `LedgerWriteError` and leaves the journal as it was
//   before that write (the partial record is cut back off), so later records are never written
//   after garbage.
// - Every journal record is checked before it is replayed or served. To keep opening a long chain
//   fast, each snapshot write also leaves a checkpoint (`journal.verified`): the length of the
//   journal prefix that was intact then and one SHA-256 over it. An open hashes that prefix in one
//   pass; when it matches, its records are known intact without a hash per record, and only the
//   records after it are checked one by one. A checkpoint that is missing, damaged or does not match
//   (the journal changed under it) only means the slow path: every record checked, as before.
import { createHash, type Hash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { sha512_256 } from '../crypto/hash.js';
import { LedgerDamageError, LedgerStoreError, LedgerWriteError } from './errors.js';
import { recordRound, type LedgerStore } from './ledger.js';
import { ForkCacheError, type ForkCacheStore } from './fork.js';

const JOURNAL = 'journal.bin';
const SNAPSHOT = 'snapshot.bin';
const SNAPSHOT_TMP = 'snapshot.bin.tmp';
const MAGIC = 0x54574a31; // "TWJ1"
const HEADER = 12; // magic u32 | length u32 | checksum u32
const SNAP_MAGIC = 0x54575332; // "TWS2"
const CHECKPOINT = 'journal.verified';
const CHECKPOINT_TMP = 'journal.verified.tmp';
const CHECK_MAGIC = 0x5457564b; // "TWVK"
const CHECK_SIZE = 48; // magic u32 | records u32 | prefix length u64 | sha256 of the prefix (32 bytes)
const SNAP_HEADER = 40; // magic u32 | length u32 | sha512/256 of the payload (32 bytes)
/** No journal record comes near this; a larger length field is damage, not a record. */
const MAX_RECORD = 256 * 1024 * 1024;

/**
 * The file-system calls the store makes. Tests substitute failing versions (ENOSPC, EIO) to
 * check that a failed write changes nothing; everything else uses `node:fs`.
 */
export type StoreFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'closeSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'fstatSync'
  | 'readFileSync'
  | 'existsSync'
  | 'renameSync'
  | 'rmSync'
  | 'mkdirSync'
  | 'writeFileSync'
>;

function checksum(payload: Uint8Array): number {
  const h = sha512_256(payload);
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
}

/** Frames one journal record: magic, length and a checksum so a torn or garbled record is detectable. */
export function frameRecord(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC);
  v.setUint32(4, payload.length);
  v.setUint32(8, checksum(payload));
  out.set(payload, HEADER);
  return out;
}

/** Where and why a journal image stops being a sequence of intact records. */
export interface JournalDamage {
  /** Byte offset of the first damaged or partial record. */
  offset: number;
  /** `partial`: the file ends inside the record (an interrupted write); `damaged`: bad header or checksum. */
  kind: 'partial' | 'damaged';
  detail: string;
  /** Intact-looking records found after the damage (they cannot be replayed without the damaged one). */
  recordsAfter: number;
}

function recordAt(bytes: Uint8Array, v: DataView, off: number, verifiedUpTo = 0): { end: number } | { error: JournalDamage['kind']; detail: string } {
  if (off + HEADER > bytes.length) return { error: 'partial', detail: `the file ends ${bytes.length - off} bytes into a ${HEADER}-byte record header` };
  const magic = v.getUint32(off);
  if (magic !== MAGIC)
    return { error: 'damaged', detail: `record header has magic 0x${magic.toString(16).padStart(8, '0')} instead of 0x${MAGIC.toString(16)}` };
  const len = v.getUint32(off + 4);
  if (len > MAX_RECORD) return { error: 'damaged', detail: `record header declares an impossible length of ${len} bytes` };
  if (off + HEADER + len > bytes.length) return { error: 'partial', detail: `the file ends ${bytes.length - off - HEADER} bytes into a ${len}-byte record` };
  const end = off + HEADER + len;
  // A record inside a prefix a checkpoint vouches for was checked when that prefix was first read or written.
  if (end > verifiedUpTo && checksum(bytes.subarray(off + HEADER, end)) !== v.getUint32(off + 8))
    return { error: 'damaged', detail: `checksum mismatch in a ${len}-byte record` };
  return { end };
}

/**
 * Intact records of a journal image (views into `bytes`), their offsets, the length of the intact
 * prefix and the first damage. `verifiedUpTo`: records ending at or before this offset are known
 * intact (a matching checkpoint) and their checksums are not computed again; their headers still are read.
 */
export function parseJournal(bytes: Uint8Array, verifiedUpTo = 0): { records: Uint8Array[]; offsets: number[]; validLength: number; damage?: JournalDamage } {
  const records: Uint8Array[] = [];
  const offsets: number[] = [];
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let off = 0;
  // The vouched-for prefix holds exactly the bytes that were checked before, headers included:
  // only the record boundaries are needed from it (a tight loop: it runs once, before any JIT).
  while (off + HEADER <= verifiedUpTo) {
    const end = off + HEADER + v.getUint32(off + 4);
    if (end > verifiedUpTo) break;
    offsets.push(off);
    records.push(bytes.subarray(off + HEADER, end));
    off = end;
  }
  while (off < bytes.length) {
    const r = recordAt(bytes, v, off, verifiedUpTo);
    if ('error' in r) {
      // Count what lies beyond, for the report: scan for later records that check out.
      let recordsAfter = 0;
      for (let p = off + 1; p + HEADER <= bytes.length; p++) {
        if (v.getUint32(p) !== MAGIC) continue;
        const next = recordAt(bytes, v, p);
        if ('end' in next) {
          recordsAfter++;
          p = next.end - 1;
        }
      }
      return { records, offsets, validLength: off, damage: { offset: off, kind: r.error, detail: r.detail, recordsAfter } };
    }
    offsets.push(off);
    // Views, not copies: the image is read once per open and nothing writes to it.
    records.push(bytes.subarray(off + HEADER, r.end));
    off = r.end;
  }
  return { records, offsets, validLength: off };
}

/** Wraps snapshot bytes with a magic, a length and a full SHA-512/256 of the payload. */
export function frameSnapshot(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(SNAP_HEADER + payload.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, SNAP_MAGIC);
  v.setUint32(4, payload.length);
  out.set(sha512_256(payload), 8);
  out.set(payload, SNAP_HEADER);
  return out;
}

/** The payload of a framed snapshot, or why it cannot be trusted. */
export function unframeSnapshot(bytes: Uint8Array): { payload: Uint8Array } | { error: string } {
  if (bytes.length < SNAP_HEADER) return { error: `the file is ${bytes.length} bytes, shorter than its ${SNAP_HEADER}-byte header` };
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0) !== SNAP_MAGIC) return { error: 'the header is not a Tealworks snapshot header (damaged, or written by an older version)' };
  const len = v.getUint32(4);
  if (SNAP_HEADER + len !== bytes.length) return { error: `the header declares ${len} payload bytes but the file holds ${bytes.length - SNAP_HEADER}` };
  const payload = bytes.subarray(SNAP_HEADER);
  const want = bytes.subarray(8, SNAP_HEADER);
  const got = sha512_256(payload);
  for (let i = 0; i < 32; i++) if (want[i] !== got[i]) return { error: 'checksum mismatch' };
  return { payload };
}

export interface FileLedgerStoreOptions {
  /**
   * Open a damaged data directory by moving the damaged part aside (journal tail into
   * `journal.bin.damaged-<time>`, a bad snapshot into `snapshot.bin.damaged-<time>`) and keeping
   * every intact round. Without it a damaged directory is refused and left untouched.
   */
  recover?: boolean;
  /** File-system calls (tests inject failures here). */
  fs?: StoreFs;
}

const stamp = (): string => new Date().toISOString().replace(/[:.]/g, '-');

/**
 * A data directory holding an append-only block journal (each record fsync'd before the submit
 * that produced it returns) and a checksummed snapshot replaced atomically (temp file, fsync,
 * rename). Record n of the journal holds round n (record 0 is the genesis record). Each snapshot
 * write and a clean close also leave `journal.verified`, a checkpoint that lets the next open check
 * the journal's records in one hash instead of one per record (a shortcut only: without it, or when
 * it does not match, every record is checked).
 */
export class FileLedgerStore implements LedgerStore {
  private fd: number | undefined;
  /** Length of the journal's durable, intact prefix (where the next record goes). */
  private size: number | undefined;
  /** A failed write left bytes past `size` that could not be cut off yet. */
  private dirty = false;
  private offsets: number[] = [];
  /**
   * SHA-256 over the journal's intact prefix `[0, size)`, fed only with bytes whose records were
   * checked (at open) or framed here (appends): what a checkpoint states. Undefined when the prefix
   * is not known that way (recovery cut the journal): then no checkpoint is written.
   */
  private digest: Hash | undefined;
  /** The journal length the checkpoint on disk states (undefined: none, or not known to match). */
  private checkpointAt: number | undefined;
  private readonly fs: StoreFs;
  readonly recover: boolean;
  /** What `recover` moved aside while opening, one sentence each (empty when nothing was damaged). */
  readonly recovered: string[] = [];
  /**
   * Journal bytes the last `readJournal` took as intact on the checkpoint's word (one hash over
   * them matched), without a hash per record; 0 when every record was checked.
   */
  checkpointedBytes = 0;

  constructor(
    readonly dir: string,
    options: FileLedgerStoreOptions = {},
  ) {
    this.fs = options.fs ?? nodeFs;
    this.recover = options.recover ?? false;
    try {
      this.fs.mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new LedgerStoreError(`cannot create data directory ${dir}: ${(e as Error).message}`, { cause: e });
    }
  }

  get journalPath(): string {
    return join(this.dir, JOURNAL);
  }

  get snapshotPath(): string {
    return join(this.dir, SNAPSHOT);
  }

  /** The journal checkpoint written beside each snapshot (see the notes at the top of this module). */
  get checkpointPath(): string {
    return join(this.dir, CHECKPOINT);
  }

  private open(): number {
    if (this.fd === undefined) {
      this.fd = this.fs.openSync(this.journalPath, 'a');
      this.size ??= this.fs.fstatSync(this.fd).size;
    }
    return this.fd;
  }

  readSnapshot(): Uint8Array | undefined {
    const p = this.snapshotPath;
    if (!this.fs.existsSync(p)) return undefined;
    const bytes = new Uint8Array(this.fs.readFileSync(p));
    const r = unframeSnapshot(bytes);
    if ('payload' in r) return r.payload.slice();
    if (!this.recover) {
      throw new LedgerDamageError(
        `${p} is damaged (${r.error}). Nothing was changed. The journal holds every round, so start the devnet with --recover ("tealworks devnet --recover") to set the snapshot aside and rebuild the state from the journal (no round is lost).`,
        { file: p, offset: 0 },
      );
    }
    this.setSnapshotAside(`snapshot ${p} was damaged (${r.error})`);
    return undefined;
  }

  /** Moves the snapshot to `snapshot.bin.damaged-<time>` (recovery): the state is rebuilt from the journal. */
  setSnapshotAside(reason: string): void {
    const p = this.snapshotPath;
    const aside = `${p}.damaged-${stamp()}`;
    this.fs.renameSync(p, aside);
    this.recovered.push(`${reason}; the snapshot was moved to ${aside}; the state is rebuilt from the journal`);
  }

  readJournal(): Uint8Array[] {
    const p = this.journalPath;
    if (!this.fs.existsSync(p)) {
      this.size = 0;
      this.offsets = [];
      this.digest = createHash('sha256');
      return [];
    }
    // A view of the buffer read (no second copy of a long journal); nothing else holds it.
    const file = this.fs.readFileSync(p);
    const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    let trusted = this.trustedPrefix(bytes);
    let parsed = parseJournal(bytes, trusted?.length ?? 0);
    if (
      trusted &&
      !(parsed.offsets.length > trusted.records
        ? parsed.offsets[trusted.records] === trusted.length
        : parsed.offsets.length === trusted.records && parsed.validLength === trusted.length)
    ) {
      // The checkpoint's own fields disagree with the records it hashed (a damaged checkpoint): check every record.
      trusted = undefined;
      parsed = parseJournal(bytes);
    }
    const { records, offsets, validLength, damage } = parsed;
    this.offsets = offsets;
    this.size = bytes.length;
    // Every record in [0, validLength) has now been checked (directly, or through the checkpoint).
    const digest = trusted ? trusted.hash.update(bytes.subarray(trusted.length, validLength)) : createHash('sha256').update(bytes.subarray(0, validLength));
    if (damage) {
      // The first round the damaged record could hold: the one after the round the last intact
      // record names (blocks, warps and other cheats all name theirs), so a warp before it counts.
      const round = records.length === 0 ? 0 : Number((recordRound(records[records.length - 1]!) ?? BigInt(records.length - 1)) + 1n);
      const what =
        `${p}: the record of round ${round} at byte offset ${damage.offset} is ${damage.kind === 'partial' ? 'incomplete' : 'damaged'} (${damage.detail}); ` +
        `${bytes.length - damage.offset} bytes from there on${damage.recordsAfter ? ` (${damage.recordsAfter} more intact-looking record${damage.recordsAfter === 1 ? '' : 's'})` : ''} cannot be replayed`;
      if (records.length === 0) {
        throw new LedgerDamageError(
          `${what}. Nothing was changed. The genesis record defines the chain, so it cannot be recovered from this file: restore the data directory from a backup, or move it away to start a new chain.`,
          { file: p, offset: damage.offset, round: 0n },
        );
      }
      if (!this.recover) {
        throw new LedgerDamageError(
          `${what}. Nothing was changed. Start the devnet with --recover ("tealworks devnet --recover") to keep rounds 0..${round - 1} and move the rest aside into a separate file (nothing is deleted), or restore the data directory from a backup.`,
          { file: p, offset: damage.offset, round: BigInt(round) },
        );
      }
      this.setAside(validLength, `${what}`);
    }
    // (After a recovery cut at `validLength` the hash still covers exactly the journal.)
    this.digest = digest;
    this.checkpointAt = trusted?.length;
    this.checkpointedBytes = trusted?.length ?? 0;
    return records;
  }

  /**
   * The journal prefix the checkpoint vouches for, when the checkpoint is well-formed and the
   * prefix still hashes to what it states (the hash state is returned to continue from); otherwise
   * undefined, and every record is checked.
   */
  private trustedPrefix(bytes: Uint8Array): { length: number; records: number; hash: Hash } | undefined {
    let raw: Uint8Array;
    try {
      if (!this.fs.existsSync(this.checkpointPath)) return undefined;
      raw = new Uint8Array(this.fs.readFileSync(this.checkpointPath));
    } catch {
      return undefined;
    }
    if (raw.length !== CHECK_SIZE) return undefined;
    const v = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    if (v.getUint32(0) !== CHECK_MAGIC) return undefined;
    const length = Number(v.getBigUint64(8));
    if (length > bytes.length) return undefined;
    const hash = createHash('sha256').update(bytes.subarray(0, length));
    const got = hash.copy().digest();
    for (let i = 0; i < 32; i++) if (got[i] !== raw[16 + i]) return undefined;
    return { length, records: v.getUint32(4), hash };
  }

  /**
   * Writes the checkpoint for the journal as it is now (atomically: temp file, rename). It is only
   * a shortcut for the next open, so a failure is ignored: that open then checks every record.
   */
  private writeCheckpoint(): void {
    if (!this.digest || this.dirty || this.size === undefined) return;
    const out = new Uint8Array(CHECK_SIZE);
    const v = new DataView(out.buffer);
    v.setUint32(0, CHECK_MAGIC);
    v.setUint32(4, this.offsets.length);
    v.setBigUint64(8, BigInt(this.size));
    out.set(this.digest.copy().digest(), 16);
    const tmp = join(this.dir, CHECKPOINT_TMP);
    try {
      this.fs.writeFileSync(tmp, out, { mode: 0o600 });
      this.fs.renameSync(tmp, this.checkpointPath);
      this.checkpointAt = this.size;
    } catch {
      try {
        this.fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing depends on it.
      }
    }
  }

  /**
   * Moves the journal from record `index` on into `journal.bin.damaged-<time>` (fsync'd before the
   * journal is cut), so a ledger that cannot replay that record keeps everything before it.
   */
  setAsideFrom(index: number, reason: string): void {
    const offset = this.offsets[index];
    if (offset === undefined) return;
    this.setAside(offset, reason);
    this.offsets.length = index;
  }

  private setAside(offset: number, reason: string): void {
    const p = this.journalPath;
    const bytes = new Uint8Array(this.fs.readFileSync(p));
    const aside = `${p}.damaged-${stamp()}`;
    const out = this.fs.openSync(aside, 'wx', 0o600);
    try {
      const tail = bytes.subarray(offset);
      let off = 0;
      while (off < tail.length) off += this.fs.writeSync(out, tail, off, tail.length - off);
      this.fs.fsyncSync(out);
    } finally {
      this.fs.closeSync(out);
    }
    fsyncDir(this.fs, this.dir);
    const fd = this.fs.openSync(p, 'r+');
    try {
      this.fs.ftruncateSync(fd, offset);
      this.fs.fsyncSync(fd);
    } finally {
      this.fs.closeSync(fd);
    }
    this.size = offset;
    // What the running hash covered is gone; no checkpoint until the next open checks every record.
    this.digest = undefined;
    this.recovered.push(`${reason}; those ${bytes.length - offset} bytes were moved to ${aside}`);
  }

  append(record: Uint8Array): void {
    const framed = frameRecord(record);
    let fd: number;
    try {
      fd = this.open();
      if (this.dirty) this.cutBack(fd);
    } catch (e) {
      throw writeError(`cannot write the journal ${this.journalPath}`, e);
    }
    try {
      let off = 0;
      while (off < framed.length) off += this.fs.writeSync(fd, framed, off, framed.length - off);
      this.fs.fsyncSync(fd);
    } catch (e) {
      // Leave the file as it was before this write, so the next record never follows garbage.
      this.dirty = true;
      try {
        this.cutBack(fd);
      } catch {
        // Retried before the next append; an open after a crash here sees a partial record.
      }
      throw writeError(`could not write to the journal ${this.journalPath}`, e);
    }
    this.offsets.push(this.size!);
    this.size! += framed.length;
    this.digest?.update(framed);
  }

  private cutBack(fd: number): void {
    this.fs.ftruncateSync(fd, this.size!);
    this.fs.fsyncSync(fd);
    this.dirty = false;
  }

  writeSnapshot(bytes: Uint8Array): void {
    writeFramedAtomically(
      this.fs,
      this.dir,
      SNAPSHOT_TMP,
      this.snapshotPath,
      bytes,
      `could not write the snapshot in ${this.dir} (the previous snapshot and the journal are intact)`,
    );
    this.writeCheckpoint();
  }

  clear(): void {
    this.close();
    for (const f of [JOURNAL, SNAPSHOT, SNAPSHOT_TMP, CHECKPOINT, CHECKPOINT_TMP]) this.fs.rmSync(join(this.dir, f), { force: true });
    fsyncDir(this.fs, this.dir);
    this.size = 0;
    this.offsets = [];
    this.dirty = false;
    this.digest = createHash('sha256');
    this.checkpointAt = undefined;
  }

  close(): void {
    // A journal opened without a checkpoint (written by an older version, or after a recovery)
    // gets one now, so the next open is fast even when no new snapshot was due.
    if (this.checkpointAt !== this.size) this.writeCheckpoint();
    if (this.fd !== undefined) {
      try {
        if (this.dirty) this.cutBack(this.fd);
      } catch {
        // An open after this sees the partial record and reports it.
      }
      this.fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/** Writes a framed file atomically: temp file, fsync, rename, directory fsync; a failure leaves the old file intact. */
function writeFramedAtomically(fs: StoreFs, dir: string, tmpName: string, path: string, bytes: Uint8Array, failure: string): void {
  const tmp = join(dir, tmpName);
  const framed = frameSnapshot(bytes);
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      let off = 0;
      while (off < framed.length) off += fs.writeSync(fd, framed, off, framed.length - off);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // The old file is intact either way.
    }
    throw writeError(failure, e);
  }
  fsyncDir(fs, dir);
}

const FORK_CACHE = 'fork-cache.bin';

/**
 * A fork's cache of fetched records in a data directory (`fork-cache.bin`, checksummed like a
 * snapshot), replaced atomically on every write: a failed fetch or write never leaves a
 * half-written cache.
 */
export class FileForkCache implements ForkCacheStore {
  readonly path: string;
  constructor(
    readonly dir: string,
    private readonly fs: StoreFs = nodeFs,
  ) {
    this.fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = join(dir, FORK_CACHE);
  }

  read(): Uint8Array | undefined {
    if (!this.fs.existsSync(this.path)) return undefined;
    const got = unframeSnapshot(new Uint8Array(this.fs.readFileSync(this.path)));
    if ('error' in got)
      throw new ForkCacheError(
        `the fork cache ${this.path} is damaged (${got.error}). Nothing was changed. Start with --fork-refresh to drop it and fetch afresh.`,
      );
    return got.payload;
  }

  write(bytes: Uint8Array): void {
    writeFramedAtomically(
      this.fs,
      this.dir,
      `${FORK_CACHE}.tmp`,
      this.path,
      bytes,
      `could not write the fork cache in ${this.dir} (the previous cache is intact)`,
    );
  }

  clear(): void {
    for (const f of [FORK_CACHE, `${FORK_CACHE}.tmp`]) this.fs.rmSync(join(this.dir, f), { force: true });
  }
}

function writeError(what: string, e: unknown): LedgerWriteError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const hint =
    code === 'ENOSPC'
      ? 'the disk is full; free some space and retry'
      : code === 'EDQUOT'
        ? 'the disk quota is exhausted; free some space and retry'
        : 'check the disk and retry';
  return new LedgerWriteError(`${what}: ${(e as Error)?.message ?? String(e)} (${hint})`, code, { cause: e });
}

function fsyncDir(fs: StoreFs, dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some platforms cannot open directories for syncing; the rename is still atomic there.
  }
}
