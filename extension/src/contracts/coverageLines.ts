// Covered and missed lines for the editor gutter, from lcov files (what `tealworks test --coverage`
// writes: TEAL files, and the `.py` / `.algo.ts` files Puya's source maps point into). Plain
// functions over the SDK's lcov reader, so they are tested without VS Code.
import { parseLcovLines } from '@tealworks/sdk/app';

/** Line hits per file (absolute, `/`-separated paths), 1-based lines as lcov writes them. */
export type CoverageByFile = Map<string, Map<number, number>>;

/** An lcov file to read: where it is (absolute) and its text. */
export interface LcovInput {
  path: string;
  text: string;
}

const slash = (p: string): string => p.replace(/\\/g, '/');

function dirOf(p: string): string {
  const s = slash(p);
  const i = s.lastIndexOf('/');
  return i <= 0 ? '/' : s.slice(0, i);
}

/** Joins a folder and a relative path, folding `.` and `..`. */
function joinPath(base: string, rel: string): string {
  const parts = slash(base).split('/');
  for (const seg of slash(rel).split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') {
      if (parts.length > 1) parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/') || '/';
}

const isAbsolutePath = (p: string): boolean => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

/**
 * The file an lcov `SF:` entry names. Absolute entries stand as they are; relative ones are tried
 * against the workspace folders (`tealworks test` names files relative to where it ran), then the
 * lcov file's folder and its parent (`coverage/lcov.info` beside the project); the first that
 * exists wins, else the entry stays relative (matched by path suffix later).
 */
export function resolveLcovSource(entry: string, lcovPath: string, workspaceFolders: readonly string[], exists: (path: string) => boolean): string {
  if (isAbsolutePath(entry)) return slash(entry);
  const lcovDir = dirOf(lcovPath);
  for (const base of [...workspaceFolders, lcovDir, dirOf(lcovDir)]) {
    const candidate = joinPath(base, entry);
    if (exists(candidate)) return candidate;
  }
  return slash(entry);
}

/**
 * Reads lcov files into line hits per file. The same file in several lcov files (or records)
 * adds up: a line counts as covered when any run covered it (hits are summed).
 */
export function coverageFromLcov(inputs: readonly LcovInput[], workspaceFolders: readonly string[], exists: (path: string) => boolean): CoverageByFile {
  const out: CoverageByFile = new Map();
  for (const input of inputs) {
    for (const [entry, lines] of parseLcovLines(input.text)) {
      const file = resolveLcovSource(entry, input.path, workspaceFolders, exists);
      let mine = out.get(file);
      if (!mine) out.set(file, (mine = new Map()));
      for (const [line, hits] of lines) mine.set(line, (mine.get(line) ?? 0) + hits);
    }
  }
  return out;
}

/**
 * The line hits for a document at `path` (absolute): its own entry, else a relative entry that
 * is a whole-segment suffix of the path (an lcov written elsewhere). Undefined when none.
 */
export function coverageFor(coverage: CoverageByFile, path: string): Map<number, number> | undefined {
  const p = slash(path);
  const exact = coverage.get(p);
  if (exact) return exact;
  for (const [file, lines] of coverage) if (!isAbsolutePath(file) && p.endsWith(`/${file.replace(/^\.\//, '')}`)) return lines;
  return undefined;
}

/** Which lines (0-based, ascending) the gutter marks covered and missed; lines past the document's end are left out. */
export function gutterLines(hits: ReadonlyMap<number, number>, lineCount: number): { covered: number[]; missed: number[] } {
  const covered: number[] = [];
  const missed: number[] = [];
  for (const [line, n] of [...hits].sort((a, b) => a[0] - b[0])) {
    if (line < 1 || line > lineCount) continue;
    (n > 0 ? covered : missed).push(line - 1);
  }
  return { covered, missed };
}

/** A one-line summary for the status bar: `Coverage 9/12 lines (75%)`. */
export function coverageSummary(hits: ReadonlyMap<number, number>): string {
  const total = hits.size;
  const hit = [...hits.values()].filter((n) => n > 0).length;
  return `Coverage ${hit}/${total} line${total === 1 ? '' : 's'}${total ? ` (${Math.round((100 * hit) / total)}%)` : ''}`;
}

/** The hover text of a marked line. */
export function lineHover(hits: number): string {
  return hits > 0
    ? `Covered: ran ${hits} time${hits === 1 ? '' : 's'} in the last coverage run`
    : 'Not covered: no test ran this line in the last coverage run';
}
