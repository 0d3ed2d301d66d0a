import { parseJson, stringifyJson } from '../../encoding/json.js';
import { assemble } from '../../teal/assembler/index.js';
import { parseNodeSourceMap, toNodeSourceMap, type NodeSourceMap } from '../../teal/sourcemap.js';
import { AssembleError } from '../../teal/types.js';
import { ProgramSourceMap } from '../../teal/source-maps.js';
import type { TemplateValue } from '../../teal/assembler/results.js';
import { programTraceHash, DebugTraceError, type DebugProgramSource } from './replay.js';

/*
 * Program sources for a recorded run, and the AVM Debugger's file formats:
 *  - a `*.trace.avm.json` is a simulate response with an exec trace, as JSON;
 *  - a sources description (`sources.avm.json` / `sources.json`) lists
 *    `{"txn-group-sources": [{"hash": <base64 program hash>, "sourcemap-location": <path>}]}`;
 *  - each source map is the node's (Source Map v3, one `;` group per pc).
 * Reading files is the caller's business: these functions take text.
 */

/**
 * A TEAL program assembled here: bytes, hash and the macro-aware pc map. `templateVars` fills
 * `TMPL_*` placeholders first (as the deploy did); the lines stay the file's own, since a
 * substitution never adds or removes lines.
 */
export function programFromTeal(text: string, file?: string, templateVars?: Record<string, TemplateValue>): DebugProgramSource {
  let assembled;
  try {
    assembled = assemble(text, templateVars && Object.keys(templateVars).length ? { templateVars } : {});
  } catch (e) {
    if (e instanceof AssembleError) throw new DebugTraceError(`${file ?? 'program'} does not assemble: ${e.message}`);
    throw e;
  }
  return {
    hash: programTraceHash(assembled.program),
    bytes: assembled.program,
    pcMap: assembled.sourceMap,
    lines: text.split(/\r?\n/),
    ...(file !== undefined ? { file } : {}),
  };
}

/** An entry of a sources description. */
export interface SourceDescriptionEntry {
  hash: string;
  sourcemapLocation: string;
}

/** Reads the AVM Debugger's sources description. */
export function parseSourcesDescription(text: string): SourceDescriptionEntry[] {
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (e) {
    throw new DebugTraceError(`sources description is not JSON: ${(e as Error).message}`);
  }
  const list = (doc as { 'txn-group-sources'?: unknown })?.['txn-group-sources'];
  if (!Array.isArray(list)) throw new DebugTraceError('sources description has no "txn-group-sources" list');
  return list.map((e, i) => {
    const o = e as { hash?: unknown; 'sourcemap-location'?: unknown };
    if (typeof o?.hash !== 'string' || typeof o['sourcemap-location'] !== 'string')
      throw new DebugTraceError(`txn-group-sources[${i}] needs "hash" and "sourcemap-location" strings`);
    return { hash: o.hash, sourcemapLocation: o['sourcemap-location'] };
  });
}

/**
 * A program known through a node source map. `resolve` turns the map's `sources` entries into
 * file paths; when `teal` (the first source's text) is given and assembles to the same hash, the
 * result also carries bytes and our macro-aware pc map (so ops, costs and logs are exact).
 */
export function programFromSourceMap(
  hash: string,
  mapText: string,
  resolve: (source: string) => string,
  teal?: { text: string; file: string },
): DebugProgramSource {
  const model = ProgramSourceMap.parse(mapText);
  if (model.kind === 'puya') {
    // A map into the user's own source: locations come from it; TEAL (when it assembles to this
    // program) adds bytes, so ops, costs and logs are exact.
    model.resolveSources(resolve);
    let program: DebugProgramSource = { hash };
    if (teal) {
      try {
        const p = programFromTeal(teal.text, teal.file);
        if (p.hash === hash) program = p;
      } catch {
        // Without TEAL the map still gives lines.
      }
    }
    return { ...program, userMap: model, ...(program.file === undefined && model.files[0] !== undefined ? { file: model.files[0] } : {}) };
  }
  const map = parseJson<NodeSourceMap>(mapText);
  const entries = parseNodeSourceMap(map);
  const files = (map.sources ?? []).map((s) => resolve((map.sourceRoot ?? '') + s));
  if (teal) {
    try {
      const p = programFromTeal(teal.text, teal.file);
      if (p.hash === hash) return p;
    } catch {
      // Sources that no longer assemble still give lines through the map.
    }
  }
  return { hash, sourceMap: entries, sourceMapFiles: files, ...(files[0] !== undefined ? { file: files[0] } : {}) };
}

/** A simulate response as the AVM Debugger's `*.trace.avm.json` (bigint-safe JSON, bytes in base64). */
export function toAvmDebuggerTrace(response: unknown): string {
  return stringifyJson(response, { indent: 2, bytes: 'base64' });
}

/** The files that let the AVM Debugger (and us) find sources for a run's programs. */
export function avmDebuggerSources(programs: ReadonlyArray<{ program: DebugProgramSource; mapName: string; sourceName: string }>): {
  description: string;
  maps: Map<string, string>;
} {
  const maps = new Map<string, string>();
  const entries: { hash: string; 'sourcemap-location': string }[] = [];
  for (const { program, mapName, sourceName } of programs) {
    if (!program.pcMap || !program.bytes) continue;
    const hash = program.hash ?? programTraceHash(program.bytes);
    maps.set(mapName, JSON.stringify(toNodeSourceMap(program.pcMap, { sources: [sourceName], macros: 'use' })));
    entries.push({ hash, 'sourcemap-location': mapName });
  }
  return { description: JSON.stringify({ 'txn-group-sources': entries }, null, 2), maps };
}

/**
 * A TEAL program assembled here, with the compiler's map into the user's source when one is found
 * beside the TEAL (Puya's `.puya.map`): locations, breakpoints and stepping then use that source.
 */
export function programWithUserMap(program: DebugProgramSource, userMap: ProgramSourceMap | undefined): DebugProgramSource {
  if (!userMap || userMap.kind !== 'puya') return program;
  if (program.bytes) {
    const last = userMap.pcs(userMap.baseFor({ bytes: program.bytes })).pop();
    if (last !== undefined && last >= program.bytes.length) return program;
  }
  return { ...program, userMap };
}
