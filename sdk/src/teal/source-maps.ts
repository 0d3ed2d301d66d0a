import { cblocksOffset } from '../abi/cblocks.js';
import { SourceMapError, parseNodeSourceMap, type NodeSourceMap } from './sourcemap.js';
import type { PcMapping } from './types.js';

/*
 * One model for "which source line produced the instruction at pc", whatever wrote the map:
 *  - our assembler (TEAL, through `#define`: the use site and the macro body);
 *  - the node / AlgoKit's `.teal.tok.map` / `.teal.map` (Source Map v3 over TEAL, one `;` group per pc);
 *  - Puya's `.puya.map` (Algorand Python and Algorand TypeScript): the same v3 layout over the
 *    contract's own source, plus `pc_events` (per pc: the subroutine starting there, the op, the
 *    subroutine it calls, whether it returns, the error it raises) and `op_pc_offset` (how many
 *    constant-block instructions come before the pcs the map counts, so template values can
 *    change those blocks without invalidating the map).
 * Reading files is the caller's business: this module takes text or parsed JSON.
 */

/** What wrote a program's source map. */
export type ProgramSourceMapKind = 'assembler' | 'teal-map' | 'puya';

/** One pc's event in a Puya map (`pc_events`), with the compiler's names kept as they are. */
export interface PuyaPcEvent {
  /** The subroutine that starts at this pc (fully qualified, e.g. `examples.auction.contract.Auction.bid`). */
  subroutine?: string;
  block?: string;
  /** The TEAL instruction (with its comment). */
  op?: string;
  /** The subroutine this instruction calls. */
  callsub?: string;
  /** The instruction returns from its subroutine. */
  retsub?: boolean;
  /** The error message the instruction fails with. */
  error?: string;
  params?: Record<string, string>;
  stackIn?: string[];
  stackOut?: string[];
  definedOut?: string[];
}

/** A source position of a pc: file (as the map names it, resolved when a resolver was given), 0-based line and column. */
export interface MappedPosition {
  /** Index into the map's `sources`. */
  source: number;
  file?: string;
  /** 0-based. */
  line: number;
  /** 0-based. */
  column: number;
  /** For assembler maps: where the `#define` body is, when the instruction came from a macro. */
  definition?: { line: number; column: number };
}

interface Entry extends MappedPosition {
  /** pc as the map counts it (before the constant-block offset). */
  mapPc: number;
}

function objectOf(input: unknown, what: string): Record<string, unknown> {
  let v = input;
  if (typeof input === 'string') {
    try {
      v = JSON.parse(input);
    } catch (e) {
      throw new SourceMapError(`${what} is not JSON: ${(e as Error).message}`);
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SourceMapError(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

function eventOf(raw: unknown): PuyaPcEvent {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const e: PuyaPcEvent = {};
  if (typeof o.subroutine === 'string') e.subroutine = o.subroutine;
  if (typeof o.block === 'string') e.block = o.block;
  if (typeof o.op === 'string') e.op = o.op;
  if (typeof o.callsub === 'string') e.callsub = o.callsub;
  if (o.retsub === true) e.retsub = true;
  if (typeof o.error === 'string') e.error = o.error;
  if (typeof o.params === 'object' && o.params !== null) e.params = o.params as Record<string, string>;
  const si = stringList(o.stack_in);
  if (si) e.stackIn = si;
  const so = stringList(o.stack_out);
  if (so) e.stackOut = so;
  const d = stringList(o.defined_out);
  if (d) e.definedOut = d;
  return e;
}

/**
 * A program's source map, whatever wrote it: pc → file, line and column; line → pcs (for
 * breakpoints and CodeLenses); for Puya maps also the subroutine and error of each pc.
 *
 * pcs given to its methods are real program pcs. Maps that count from after the constant blocks
 * (Puya's `op_pc_offset`, ARC-56 "cblocks") need the base: pass the program bytes, or a trace's
 * first pcs, to `baseFor` and hand the result to the lookups.
 */
export class ProgramSourceMap {
  /** Map pc → entry. */
  private readonly byPc = new Map<number, Entry>();
  private readonly sorted: Entry[];
  private resolved: string[];

  private constructor(
    readonly kind: ProgramSourceMapKind,
    /** The `sources` entries as the map names them. */
    readonly sources: readonly string[],
    entries: Entry[],
    /** Puya: constant-block instructions before the pcs the map counts (0: the map counts real pcs). */
    readonly opPcOffset: number,
    /** Puya: per map pc, its event. */
    readonly events: ReadonlyMap<number, PuyaPcEvent>,
  ) {
    for (const e of entries) if (!this.byPc.has(e.mapPc)) this.byPc.set(e.mapPc, e);
    this.sorted = [...this.byPc.values()].sort((a, b) => a.mapPc - b.mapPc);
    this.resolved = [...sources];
  }

  /** Our assembler's pc map over one TEAL file (`file`: its name or path). */
  static fromAssembler(pcMap: readonly PcMapping[], file?: string): ProgramSourceMap {
    const entries: Entry[] = pcMap.map((m) => ({
      mapPc: m.pc,
      source: 0,
      line: m.use.line,
      column: m.use.utf16Column,
      ...(m.definition ? { definition: { line: m.definition.line, column: m.definition.utf16Column } } : {}),
    }));
    return new ProgramSourceMap('assembler', [file ?? '<source>'], entries, 0, new Map());
  }

  /**
   * Reads a v3 source map keyed by pc: the node's or AlgoKit's TEAL map (`.teal.tok.map`,
   * `.teal.map`), or Puya's `.puya.map` (recognised by its `pc_events`). Throws
   * `SourceMapError` for text that is not such a map.
   */
  static parse(input: unknown): ProgramSourceMap {
    const o = objectOf(input, 'source map');
    // Version, mappings and source indices are checked as for the node's maps.
    const entries: Entry[] = parseNodeSourceMap(o as unknown as NodeSourceMap).map((e) => ({ mapPc: e.pc, source: e.source, line: e.line, column: e.column }));
    const sources = stringList(o.sources) ?? [];
    const root = typeof o.sourceRoot === 'string' ? o.sourceRoot : '';
    const isPuya = typeof o.pc_events === 'object' && o.pc_events !== null;
    const events = new Map<number, PuyaPcEvent>();
    if (isPuya) for (const [k, v] of Object.entries(o.pc_events as Record<string, unknown>)) if (/^\d+$/.test(k)) events.set(Number(k), eventOf(v));
    const offset = typeof o.op_pc_offset === 'number' && Number.isInteger(o.op_pc_offset) && o.op_pc_offset >= 0 ? o.op_pc_offset : 0;
    return new ProgramSourceMap(
      isPuya ? 'puya' : 'teal-map',
      sources.map((s) => root + s),
      entries,
      offset,
      events,
    );
  }

  /** Gives the `sources` entries file paths (e.g. resolved against the map's folder); returns this. */
  resolveSources(resolve: (source: string) => string): this {
    this.resolved = this.sources.map(resolve);
    return this;
  }

  /** The files the map points into (resolved when `resolveSources` was called). */
  get files(): readonly string[] {
    return this.resolved;
  }

  /** Whether lookups need a base (the map counts pcs from after the constant blocks). */
  get needsBase(): boolean {
    return this.opPcOffset > 0;
  }

  /**
   * The real pc the map's pc 0 stands for. With program bytes: the end of the leading constant
   * blocks; else with a trace's first pcs: the pc of the instruction after the `opPcOffset`
   * constant-block instructions (they always run first). 0 when the map counts real pcs.
   */
  baseFor(program?: { bytes?: Uint8Array; tracePcs?: readonly number[] }): number {
    if (this.opPcOffset === 0) return 0;
    if (program?.bytes) {
      try {
        return cblocksOffset(program.bytes);
      } catch {
        // Bytes that do not decode fall through to the trace.
      }
    }
    const pcs = program?.tracePcs;
    if (pcs && pcs.length > this.opPcOffset) return pcs[this.opPcOffset]!;
    return 0;
  }

  private entryAt(pc: number, base: number): Entry | undefined {
    const mapPc = pc - base;
    const exact = this.byPc.get(mapPc);
    if (exact || this.kind === 'puya') return exact;
    // TEAL maps: the instruction containing pc (constant blocks before the first map to it).
    let best: Entry | undefined;
    for (const e of this.sorted) {
      if (e.mapPc > mapPc) break;
      best = e;
    }
    return best ?? this.sorted[0];
  }

  /**
   * Where the instruction at `pc` came from. Puya maps answer only for instructions that have a
   * source position (compiler-generated code such as the ARC-4 router preamble or library
   * subroutines has none); TEAL maps answer for every pc.
   */
  at(pc: number, base = 0): MappedPosition | undefined {
    const e = this.entryAt(pc, base);
    if (!e) return undefined;
    const file = this.resolved[e.source];
    return { source: e.source, line: e.line, column: e.column, ...(file !== undefined ? { file } : {}), ...(e.definition ? { definition: e.definition } : {}) };
  }

  /** The Puya event of the instruction at `pc` (undefined for other maps). */
  event(pc: number, base = 0): PuyaPcEvent | undefined {
    return this.events.get(pc - base);
  }

  /** The error message the map records for the instruction at `pc` (Puya's `pc_events[…].error`). */
  errorAt(pc: number, base = 0): string | undefined {
    return this.events.get(pc - base)?.error;
  }

  /** The subroutine the instruction at `pc` belongs to: the nearest subroutine start at or before it (Puya maps). */
  subroutineAt(pc: number, base = 0): string | undefined {
    const mapPc = pc - base;
    this.starts ??= [...this.events]
      .filter(([, e]) => e.subroutine !== undefined)
      .map(([p, e]) => ({ pc: p, name: e.subroutine! }))
      .sort((a, b) => a.pc - b.pc);
    // The last start at or before mapPc (binary search: stepping asks at every callsub).
    let lo = 0;
    let hi = this.starts.length - 1;
    let found: string | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]!.pc <= mapPc) {
        found = this.starts[mid]!.name;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Subroutine starts by map pc, ascending (built on first use). */
  private starts?: { pc: number; name: string }[];

  /** Real pcs of the instructions that come from `line` (0-based) of source `source` (an index, or a file as `files` names it). */
  pcsAtLine(source: number | string, line: number, base = 0): number[] {
    const index = typeof source === 'number' ? source : this.resolved.indexOf(source);
    if (index < 0) return [];
    return this.sorted.filter((e) => e.source === index && (e.line === line || e.definition?.line === line)).map((e) => e.mapPc + base);
  }

  /** Every source line (0-based) with code, per source index. */
  linesWithCode(): Map<number, Set<number>> {
    const out = new Map<number, Set<number>>();
    for (const e of this.sorted) {
      let s = out.get(e.source);
      if (!s) out.set(e.source, (s = new Set()));
      s.add(e.line);
    }
    return out;
  }

  /** Every mapped pc (as real pcs for `base`), ascending. */
  pcs(base = 0): number[] {
    return this.sorted.map((e) => e.mapPc + base);
  }
}

/** The short name of a Puya subroutine: `pkg.contract.Class.method` → `Class.method`. */
export function subroutineShortName(name: string): string {
  const parts = name.split('.');
  return parts.length > 2 ? parts.slice(-2).join('.') : name;
}

/** ARC-65 logged errors: `ERR:<code>` or `ERR:<code>:<message>` (prefix `ERR` or `AER`). */
export function parseArc65Error(log: Uint8Array | string): { prefix: string; code: string; message?: string } | undefined {
  let text: string;
  if (typeof log === 'string') text = log;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(log);
    } catch {
      return undefined;
    }
  }
  const m = /^(ERR|AER):([^:]*)(?::([\s\S]*))?$/.exec(text);
  if (!m) return undefined;
  return { prefix: m[1]!, code: m[2]!, ...(m[3] !== undefined ? { message: m[3] } : {}) };
}
