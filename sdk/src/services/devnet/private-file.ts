import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Replaces `path` with `text` in one step, readable by the owner only (tokens, the lock record):
 * written to a temporary file beside it, then renamed over it.
 */
export function writePrivate(path: string, text: string, tmp = `${path}.tmp`): void {
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
