import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningDevnet, ServiceEndpoint } from './devnet.js';
import { processAlive } from './lock.js';

/*
 * How other processes find a devnet that `tealworks devnet` keeps running: while it runs, its data
 * directory holds `running.json` with the services' URLs and tokens, the funded accounts and the
 * process id (owner-only permissions, like tokens.json). It is removed on a clean stop; a file left
 * by a process that is gone is ignored.
 */

/** File name of the running-devnet record inside a data directory. */
export const RUNNING_DEVNET_FILE = 'running.json';

/** What a running devnet tells other processes about itself. */
export interface RunningDevnetRecord {
  version: 1;
  pid: number;
  genesisId: string;
  node: ServiceEndpoint;
  query: ServiceEndpoint;
  kmd: ServiceEndpoint;
  wallet: { name: string; password: string };
  accounts: Array<{ address: string; genesisAmount: string }>;
}

/** Writes `running.json` for a devnet with a data directory; returns a function that removes it. */
export function writeRunningDevnetRecord(devnet: RunningDevnet, pid: number = process.pid): () => void {
  if (!devnet.dataDir) return () => {};
  const path = join(devnet.dataDir, RUNNING_DEVNET_FILE);
  const record: RunningDevnetRecord = {
    version: 1,
    pid,
    genesisId: devnet.genesisId,
    node: devnet.node,
    query: devnet.query,
    kmd: devnet.keyManager,
    wallet: devnet.wallet,
    accounts: devnet.accounts.map((a) => ({ address: a.address, genesisAmount: String(a.genesisAmount) })),
  };
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return () => {
    // Only our own record: a later devnet on the same directory may have replaced it.
    const now = readRunningDevnetRecord(devnet.dataDir!, { checkProcess: false });
    if (now?.pid === pid) rmSync(path, { force: true });
  };
}


/**
 * The record of the devnet running on `dataDir`, or undefined when none is (no file, an unreadable
 * one, or one whose process has exited).
 */
export function readRunningDevnetRecord(dataDir: string, options: { checkProcess?: boolean } = {}): RunningDevnetRecord | undefined {
  const path = join(dataDir, RUNNING_DEVNET_FILE);
  if (!existsSync(path)) return undefined;
  let record: RunningDevnetRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as RunningDevnetRecord;
  } catch {
    return undefined;
  }
  if (record?.version !== 1 || typeof record.node?.url !== 'string' || !Number.isInteger(record.pid)) return undefined;
  if (options.checkProcess !== false && !processAlive(record.pid)) return undefined;
  return record;
}
