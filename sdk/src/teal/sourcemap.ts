import { ValidationError } from '../errors.js';
import type { PcMapping } from './types.js';
import type { Arc56ProgramSourceInfo, Arc56SourceInfoEntry } from '../abi/arc56-types.js';

/*
 * Two export formats for "which source position produced the instruction at pc":
 *  - the node's source map (`POST /v2/teal/compile?sourcemap=true`, `goal clerk compile -m`): a
 *    Source Map v3 whose "generated lines" are program counters — `mappings` has one `;`-separated
 *    entry per pc, and pcs that start an instruction get a segment (0, 0, Δline, Δcol) relative to
 *    the previous mapped instruction;
 *  - ARC-56 `sourceInfo`, which lists pcs per TEAL line.
 */

/** Source Map v3 as the node emits it. */
export interface NodeSourceMap {
  version: 3;
  file?: string;
  sourceRoot?: string;
  sources: string[];
  names: string[];
  mappings: string;
}

/** How to write a node-style source map: source names, column units, macro lines at the definition or the use. */
export interface NodeSourceMapOptions {
  /** Names for `sources` (the node puts the source file's path, relative to the map). */
  sources?: string[];
  /**
   * Column unit: 'utf8' (bytes — what the node writes, default) or 'utf16' (code units — what
   * JavaScript tooling and editors expect).
   */
  columns?: 'utf8' | 'utf16';
  /**
   * Where instructions that came out of a macro point: into the `#define` body ('definition',
   * default — what the node writes) or at the macro's use ('use').
   */
  macros?: 'definition' | 'use';
}

/** A decoded mapping: the instruction at `pc` came from `sources[source]` at (line, column), 0-based. */
export interface SourceMapEntry {
  pc: number;
  source: number;
  line: number;
  column: number;
}

/** A source map that cannot be read or does not fit the program. */
export class SourceMapError extends ValidationError {}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map<string, number>([...B64].map((c, i) => [c, i]));

/** Base64 VLQ of one signed integer (sign in the lowest bit, 5 data bits per digit, low first). */
export function encodeVlq(value: number): string {
  let v = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}

/** Decodes every VLQ number in one segment. */
export function decodeVlqSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64_INDEX.get(ch);
    if (digit === undefined) throw new SourceMapError(`invalid base64 VLQ character ${JSON.stringify(ch)} in segment ${JSON.stringify(segment)}`);
    if (shift > 30) throw new SourceMapError(`VLQ number too large in segment ${JSON.stringify(segment)}`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value % 2 === 1 ? -Math.floor(value / 2) : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw new SourceMapError(`VLQ number cut short in segment ${JSON.stringify(segment)}`);
  return out;
}

function position(m: PcMapping, options: NodeSourceMapOptions): { line: number; column: number } {
  const range = options.macros !== 'use' && m.definition ? m.definition : m.use;
  return { line: range.line, column: options.columns === 'utf16' ? range.utf16Column : range.column };
}

/** Builds the node's source map from the assembler's pc mappings. */
export function toNodeSourceMap(mappings: readonly PcMapping[], options: NodeSourceMapOptions = {}): NodeSourceMap {
  const byPc = new Map<number, PcMapping>();
  let maxPc = -1;
  for (const m of mappings) {
    if (!Number.isInteger(m.pc) || m.pc < 0) throw new SourceMapError(`pc must be a non-negative integer, got ${m.pc}`);
    if (!byPc.has(m.pc)) byPc.set(m.pc, m);
    if (m.pc > maxPc) maxPc = m.pc;
  }
  const entries: string[] = [];
  let line = 0;
  let column = 0;
  for (let pc = 0; pc <= maxPc; pc++) {
    const m = byPc.get(pc);
    if (!m) {
      entries.push('');
      continue;
    }
    const p = position(m, options);
    entries.push(encodeVlq(0) + encodeVlq(0) + encodeVlq(p.line - line) + encodeVlq(p.column - column));
    line = p.line;
    column = p.column;
  }
  return { version: 3, sources: options.sources ?? ['<source>'], names: [], mappings: entries.join(';') };
}

/**
 * Reads a node-format source map back into pc → position entries (for programs the node compiled).
 * Accepts the JSON text or the parsed object.
 */
export function parseNodeSourceMap(input: NodeSourceMap | string): SourceMapEntry[] {
  let map: unknown = input;
  if (typeof input === 'string') {
    try {
      map = JSON.parse(input);
    } catch (e) {
      throw new SourceMapError(`source map is not JSON: ${(e as Error).message}`);
    }
  }
  if (typeof map !== 'object' || map === null) throw new SourceMapError('source map must be a JSON object');
  const { version, mappings, sources } = map as Partial<NodeSourceMap>;
  if (version !== 3) throw new SourceMapError(`unsupported source map version ${JSON.stringify(version)} (expected 3)`);
  if (typeof mappings !== 'string') throw new SourceMapError('source map has no "mappings" string');
  return decodePcMappings(mappings, Array.isArray(sources) ? sources.length : 0);
}

/**
 * Decodes the `mappings` of a pc-keyed v3 map (the node's, AlgoKit's or Puya's): one `;` group per
 * pc, segment fields relative across the whole map; a pc starts at most one instruction, so the
 * first segment of a group wins. `sourceCount` bounds the source indices (0: unchecked).
 */
export function decodePcMappings(mappings: string, sourceCount: number): SourceMapEntry[] {
  const out: SourceMapEntry[] = [];
  let source = 0;
  let line = 0;
  let column = 0;
  const groups = mappings.split(';');
  for (let pc = 0; pc < groups.length; pc++) {
    const group = groups[pc]!;
    if (group === '') continue;
    let first = true;
    for (const segment of group.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlqSegment(segment);
      if (fields.length !== 1 && fields.length !== 4 && fields.length !== 5) {
        throw new SourceMapError(`segment ${JSON.stringify(segment)} at pc ${pc} has ${fields.length} fields (expected 1, 4 or 5)`);
      }
      if (fields.length === 1) continue;
      source += fields[1]!;
      line += fields[2]!;
      column += fields[3]!;
      if (source < 0 || (sourceCount > 0 && source >= sourceCount))
        throw new SourceMapError(`segment at pc ${pc} refers to source ${source}, but the map lists ${sourceCount}`);
      if (line < 0 || column < 0) throw new SourceMapError(`segment at pc ${pc} moves to a negative line or column (${line}, ${column})`);
      if (first) out.push({ pc, source, line, column });
      first = false;
    }
  }
  return out;
}

/** For each pc (index), the entry of the instruction containing it, or undefined before the first. */
export function pcLookupTable(entries: readonly SourceMapEntry[], programLength: number): (SourceMapEntry | undefined)[] {
  const sorted = [...entries].sort((a, b) => a.pc - b.pc);
  const table: (SourceMapEntry | undefined)[] = new Array(programLength);
  let k = -1;
  for (let pc = 0; pc < programLength; pc++) {
    while (k + 1 < sorted.length && sorted[k + 1]!.pc <= pc) k++;
    table[pc] = k >= 0 ? sorted[k] : undefined;
  }
  return table;
}

/** What to put in ARC-56 source info: source text and name, error messages by pc, first line number. */
export interface Arc56SourceInfoOptions {
  /** The TEAL text: lets `assert`/`err` lines with a trailing `// comment` carry it as `errorMessage`. */
  sourceText?: string;
  /** When set, each entry also gets `source: "<name>:<line>"`. */
  sourceName?: string;
  /** Extra or overriding error messages by pc. */
  errorMessages?: ReadonlyMap<number, string>;
  /**
   * Number of the first line in `teal` and `source` (default 1). ARC-56 does not say whether its
   * line numbers start at 0 or 1.
   */
  firstLine?: 0 | 1;
}

const FAILING_OP = /^\s*(?:[^\s;:"]+:\s+)?(assert|err)\b/;

function trailingComment(line: string): string | undefined {
  // Only when the line has no string literal: a `//` inside quotes is not a comment.
  if (line.includes('"')) return undefined;
  const at = line.indexOf('//');
  if (at < 0) return undefined;
  const text = line.slice(at + 2).trim();
  return text === '' ? undefined : text;
}

/**
 * Builds ARC-56 `sourceInfo` (pcOffsetMethod "none"): one entry per TEAL line holding every pc of
 * the instructions on it, ordered by first pc.
 */
export function toArc56SourceInfo(mappings: readonly PcMapping[], options: Arc56SourceInfoOptions = {}): Arc56ProgramSourceInfo {
  const lines = options.sourceText?.split(/\r\n|\n|\r/);
  const byLine = new Map<number, Arc56SourceInfoEntry>();
  const sorted = [...mappings].sort((a, b) => a.pc - b.pc);
  for (const m of sorted) {
    const line = m.use.line;
    let info = byLine.get(line);
    if (!info) {
      const number = line + (options.firstLine ?? 1);
      info = { pc: [], teal: number };
      if (options.sourceName !== undefined) info.source = `${options.sourceName}:${number}`;
      const text = lines?.[line];
      if (text !== undefined && FAILING_OP.test(text)) {
        const message = trailingComment(text);
        if (message !== undefined) info.errorMessage = message;
      }
      byLine.set(line, info);
    }
    if (!info.pc.includes(m.pc)) info.pc.push(m.pc);
    const override = options.errorMessages?.get(m.pc);
    if (override !== undefined) info.errorMessage = override;
  }
  return { sourceInfo: [...byLine.values()], pcOffsetMethod: 'none' };
}
