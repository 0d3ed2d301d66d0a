import type { LedgerStore } from './ledger.js';

/**
 * A store kept in memory: behaves like the file store (journal + snapshot) without a disk, for
 * tests of restart logic and for tools that want a ledger they can "restart" cheaply.
 */
export class MemoryLedgerStore implements LedgerStore {
  journal: Uint8Array[] = [];
  snapshotBytes: Uint8Array | undefined;

  readSnapshot(): Uint8Array | undefined {
    return this.snapshotBytes;
  }
  readJournal(): Uint8Array[] {
    return [...this.journal];
  }
  append(record: Uint8Array): void {
    this.journal.push(record.slice());
  }
  writeSnapshot(bytes: Uint8Array): void {
    this.snapshotBytes = bytes.slice();
  }
  clear(): void {
    this.journal = [];
    this.snapshotBytes = undefined;
  }
}
