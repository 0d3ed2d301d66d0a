// `.teal` files on disk under the workspace folders, for workspace symbol search. Files are
// re-read only when their modification time changes; the walk is bounded so a huge folder (or a
// node_modules tree) cannot stall the server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildModel, type DocumentModel } from '../document.js';

const MAX_FILES = 2000;
/** Time one workspace/symbol request may spend analysing files not cached yet; the rest wait for the next request. */
const BUILD_BUDGET_MS = 1000;
const MAX_BYTES = 1 << 20;
const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.venv']);

export function folderPath(uri: string): string | undefined {
  if (typeof uri !== 'string' || uri === '') return undefined;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(uri) || /^[a-z]:[\\/]/i.test(uri)) return resolve(uri);
  if (!uri.toLowerCase().startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    // `file://./x` and `file:.` put a relative path where the host or path goes.
    const rest = decodeURIComponent(uri.replace(/^file:(\/\/)?/i, ''));
    return rest.startsWith('.') ? resolve(rest) : undefined;
  }
}

export class WorkspaceFiles {
  private folders: string[] = [];
  private cache = new Map<string, { mtime: number; model: DocumentModel }>();

  /**
   * Accepts `file:` URIs and plain paths; relative ones (`file://.`, `.`) resolve against the
   * server's working directory, and anything else unusable is skipped rather than thrown.
   */
  setFolders(uris: readonly string[]): void {
    this.folders = uris.map(folderPath).filter((p): p is string => p !== undefined);
  }

  /** Models of every `.teal` file found, except those the editor has open (`skip`, by URI). */
  models(skip: ReadonlySet<string>): DocumentModel[] {
    const out: DocumentModel[] = [];
    const deadline = performance.now() + BUILD_BUDGET_MS;
    for (const path of this.files()) {
      const uri = pathToFileURL(path).toString();
      if (skip.has(uri)) continue;
      try {
        const st = statSync(path);
        if (st.size > MAX_BYTES) continue;
        const hit = this.cache.get(path);
        if (hit && hit.mtime === st.mtimeMs) {
          out.push(hit.model);
          continue;
        }
        if (performance.now() > deadline) continue;
        const text = readFileSync(path, 'utf8');
        const model = buildModel({ uri, version: 0, getText: () => text });
        this.cache.set(path, { mtime: st.mtimeMs, model });
        out.push(model);
      } catch {
        // Unreadable or vanished between listing and reading: not a symbol source.
      }
    }
    return out;
  }

  private files(): string[] {
    const found: string[] = [];
    const stack = [...this.folders];
    while (stack.length && found.length < MAX_FILES) {
      const dir = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.isDirectory()) {
          if (!SKIP.has(e.name) && !e.name.startsWith('.')) stack.push(join(dir, e.name));
        } else if (e.isFile() && e.name.endsWith('.teal')) found.push(join(dir, e.name));
      }
    }
    return found.slice(0, MAX_FILES);
  }
}
