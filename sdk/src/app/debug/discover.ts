import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ProgramSourceMap } from '../../teal/source-maps.js';

/*
 * Finding source maps without configuration, where the compilers and AlgoKit put them:
 *  - beside the TEAL or the ARC-56 spec: `X.approval.puya.map` (Puya), `X.approval.teal.tok.map`,
 *    `X.approval.teal.map` (node / AlgoKit);
 *  - Puya's `out/` layout: `contract.py` with `out/<Contract>.approval.puya.map` whose `sources`
 *    point back at it (`../contract.py`), and AlgoKit's `artifacts/<name>/` folders;
 *  - AlgoKit's `.algokit/sources/<app>/approval.{puya,teal}.map` in the project.
 */

/** A source map read from a file, with its sources resolved against the map's folder. */
export interface FoundSourceMap {
  path: string;
  map: ProgramSourceMap;
  /** Which program the map is for, when its name says. */
  program?: 'approval' | 'clear';
}

/** Reads a source map file and resolves its `sources` against the map's folder. Throws `SourceMapError` for a file that is not one. */
export function loadSourceMapFile(path: string): ProgramSourceMap {
  const map = ProgramSourceMap.parse(readFileSync(path, 'utf8'));
  return map.resolveSources((s) => resolve(dirname(path), s));
}

function tryLoad(path: string): FoundSourceMap | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const map = loadSourceMapFile(path);
    const program = /\bclear\b|\.clear\./.test(basename(path)) ? 'clear' : /approval/.test(basename(path)) ? 'approval' : undefined;
    return { path, map, ...(program ? { program } : {}) };
  } catch {
    return undefined;
  }
}

/** Map file names for a program stem (`X.approval`), preferring the ones that reach user source. */
function candidates(dir: string, stem: string): string[] {
  return [`${stem}.puya.map`, `${stem}.teal.tok.map`, `${stem}.teal.map`, `${stem}.tok.map`, `${stem}.map`].map((n) => join(dir, n));
}

/**
 * The source map of a program, found beside its TEAL file (`X.approval.teal` → `X.approval.puya.map`
 * first) or its ARC-56 spec (`X.arc56.json` → `X.approval.puya.map` for `program`). Undefined when
 * there is none.
 */
export function findSourceMap(path: string, program: 'approval' | 'clear' = /clear/.test(basename(path)) ? 'clear' : 'approval'): FoundSourceMap | undefined {
  const dir = dirname(path);
  const name = basename(path);
  const stems: string[] = [];
  if (name.endsWith('.arc56.json') || name.endsWith('.arc32.json')) stems.push(`${name.replace(/\.arc(56|32)\.json$/, '')}.${program}`);
  else if (name.endsWith('.teal')) stems.push(name.replace(/\.teal$/, ''));
  else stems.push(name);
  for (const stem of stems) {
    for (const c of candidates(dir, stem)) {
      const found = tryLoad(c);
      if (found) return { ...found, program: found.program ?? program };
    }
  }
  return undefined;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Folders compilers write to for a source in `dir`: itself, `out/`, `artifacts/*` (and one level up). */
function outputFolders(dir: string): string[] {
  const out = [dir, join(dir, 'out')];
  for (const base of [dir, dirname(dir)]) {
    const artifacts = join(base, 'artifacts');
    if (isDir(artifacts)) for (const n of listDir(artifacts)) if (isDir(join(artifacts, n))) out.push(join(artifacts, n));
  }
  for (let d = dir, i = 0; i < 6; i++, d = dirname(d)) {
    const sources = join(d, '.algokit', 'sources');
    if (isDir(sources)) for (const n of listDir(sources)) if (isDir(join(sources, n))) out.push(join(sources, n));
    if (dirname(d) === d) break;
  }
  return [...new Set(out)].filter(isDir);
}

/**
 * Source maps that point into a source file (`contract.py`, `contract.algo.ts`): the maps in the
 * folders compilers write to (Puya's `out/`, AlgoKit's `artifacts/` and `.algokit/sources/`) whose
 * resolved `sources` include the file. Each comes with the TEAL and ARC-56 spec beside it, when
 * there.
 */
export function sourceMapsFor(sourceFile: string): Array<FoundSourceMap & { teal?: string; spec?: string; source: number }> {
  const target = resolve(sourceFile);
  const found: Array<FoundSourceMap & { teal?: string; spec?: string; source: number }> = [];
  for (const folder of outputFolders(dirname(target))) {
    for (const n of listDir(folder)) {
      if (!n.endsWith('.puya.map')) continue;
      const f = tryLoad(join(folder, n));
      if (!f) continue;
      const source = f.map.files.indexOf(target);
      if (source < 0) continue;
      const stem = n.replace(/\.puya\.map$/, '');
      const teal = join(folder, `${stem}.teal`);
      const specs = listDir(folder).filter((x) => x.endsWith('.arc56.json'));
      const named = `${stem.replace(/\.(approval|clear)$/, '')}.arc56.json`;
      const spec = specs.includes(named) ? join(folder, named) : specs.length === 1 ? join(folder, specs[0]!) : undefined;
      found.push({ ...f, source, ...(existsSync(teal) ? { teal } : {}), ...(spec ? { spec } : {}) });
    }
  }
  return found;
}

/** The lines of a source file the maps point into (undefined when it cannot be read). */
export function sourceLinesOf(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}

/**
 * What a report needs to name user-source lines for a program whose TEAL or spec is at `path`:
 * the source map found beside it and the lines of the files it points into. Undefined when there
 * is no map.
 */
export function sourceMapKnowledge(
  path: string,
  program?: 'approval' | 'clear',
): { sourceMap: ProgramSourceMap; sourceFiles: Map<string, readonly string[]> } | undefined {
  const found = findSourceMap(path, program);
  if (!found) return undefined;
  const sourceFiles = new Map<string, readonly string[]>();
  for (const f of found.map.files) {
    const lines = sourceLinesOf(f);
    if (lines) sourceFiles.set(f, lines);
  }
  return { sourceMap: found.map, sourceFiles };
}
