import { sha512_256 } from '../crypto/hash.js';
import { fromBase64 } from '../encoding/base64.js';
import { toHex } from '../encoding/hex.js';
import { decodeProgram } from '../teal/disassembler/decode.js';
import { parseNodeSourceMap, type NodeSourceMap } from '../teal/sourcemap.js';
import type { PcMapping } from '../teal/types.js';
import { AppError } from './errors.js';
import type { ProgramKnowledge } from './simulate-report.js';

/*
 * Coverage over AVM execution traces. Every program run a session makes (top-level app calls,
 * inner app calls, logic signatures) is a list of executed pcs in a simulate exec trace; the
 * collector adds them up per program (keyed by the program's hash, as the trace names it), and
 * finds which arm each branch took from the pc that ran next. A report maps pcs to source lines:
 * TEAL lines through the assembler's pc map (instructions from a `#define` count at the macro's
 * use), and lines of a higher-level source (Algorand Python, Algorand TypeScript) through the
 * compiler's source map, where one is given.
 */

/** Raised for a source map that does not fit, or a trace that is not a simulate response. */
export class CoverageError extends AppError {}

/**
 * A higher-level source map for one program: pcs to lines of `.py` / `.algo.ts` files. Puya's
 * `*.puya.map` files are node-format source maps (one `;` entry per pc) with extra fields; pass
 * the parsed JSON and the folder the map lives in (its `sources` are relative to it).
 */
export interface HighLevelSourceMap {
  map: NodeSourceMap & { op_pc_offset?: number };
  /** Prefixed to each of the map's `sources` (with a `/`) to name the files in reports. */
  baseDir?: string;
}

/** A program the collector can map to source: its bytes, the assembler's pc map and file name, and optionally a higher-level source map. */
export interface CoverageProgram extends ProgramKnowledge {
  bytes: Uint8Array;
  /** Source map to the contract's original language (Puya's `.puya.map`). */
  highLevel?: HighLevelSourceMap;
}

/** Which arm a branch took how often: arm 0 is falling through, arm i ≥ 1 is the i-th target. */
export interface BranchCounts {
  /** The pc of the branch instruction. */
  pc: number;
  /** Op name (`bz`, `bnz`, `switch`, `match`). */
  op: string;
  /** Count per arm: [fall-through, target 1, …]. */
  taken: number[];
}

/** Executed pcs and branch arms of one program, over every run the collector saw. */
export interface ProgramCoverage {
  /** sha512_256 of the program bytes, hex (what exec traces name programs by). */
  hash: string;
  /** How often each pc ran (only pcs that ran). */
  hits: Map<number, number>;
  /** Conditional branches of the program (all of them, once the program is registered). */
  branches: Map<number, BranchCounts>;
  /** Number of runs recorded. */
  runs: number;
  /** Set once the program was registered: bytes and source maps. */
  program?: CoverageProgram;
  /** Every instruction's pc (registered programs). */
  instructionPcs?: number[];
}

/** One source line in a report: how often it ran (0 = missed) and its branches. */
export interface LineCoverage {
  /** 1-based. */
  line: number;
  hits: number;
  /** One entry per branch instruction on the line, arms as in `BranchCounts`; `undefined` counts where the line never ran. */
  branches: { pc: number; taken: (number | undefined)[] }[];
}

/** Coverage of one source file. */
export interface FileCoverage {
  file: string;
  /** Lines that hold instructions, in line order. */
  lines: LineCoverage[];
}

/** A coverage report: per file, per line. */
export interface CoverageReport {
  files: FileCoverage[];
  /** Hashes of programs that ran but were never registered (no source to map to). */
  unknownPrograms: string[];
}

/** Options for building a report. */
export interface CoverageReportOptions {
  /**
   * Which sources to report: 'teal' (the TEAL files), 'high-level' (only the `.py` / `.algo.ts`
   * files, for programs that have a map), or 'both' (default).
   */
  level?: 'teal' | 'high-level' | 'both';
}

const CONDITIONAL = new Set(['bz', 'bnz', 'switch', 'match']);

const hashKey = (bytes: Uint8Array): string => toHex(sha512_256(bytes));

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hashText(v: unknown): string | undefined {
  if (v instanceof Uint8Array) return toHex(v);
  if (typeof v === 'string') {
    try {
      return toHex(fromBase64(v));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The pcs of a simulate trace's units (`{pc}` objects, as the internal and the wire shape both write them). */
function pcsOf(trace: unknown): number[] | undefined {
  if (!Array.isArray(trace)) return undefined;
  const out: number[] = [];
  for (const u of trace) {
    const pc = isObj(u) ? u.pc : undefined;
    if (typeof pc === 'number') out.push(pc);
    else if (typeof pc === 'bigint') out.push(Number(pc));
  }
  return out;
}

/**
 * Adds up executed pcs and branch arms over many program runs. Feed it simulate responses with
 * an exec trace (`addSimulateResponse`, both the SDK's and the node's JSON shape) or raw pc lists
 * (`addRun`); register programs (`addProgram`) to map them to source.
 */
export class CoverageCollector {
  readonly programs = new Map<string, ProgramCoverage>();

  private entry(hash: string): ProgramCoverage {
    let e = this.programs.get(hash);
    if (!e) this.programs.set(hash, (e = { hash, hits: new Map(), branches: new Map(), runs: 0 }));
    return e;
  }

  /** Registers a program (its bytes, pc map and sources); runs recorded before or after count alike. Returns its hash. */
  addProgram(program: CoverageProgram): string {
    const hash = hashKey(program.bytes);
    const e = this.entry(hash);
    e.program = program;
    try {
      const decoded = decodeProgram(program.bytes);
      e.instructionPcs = decoded.instructions.map((i) => i.pc);
      for (const ins of decoded.instructions) {
        if (!CONDITIONAL.has(ins.op.name)) continue;
        const known = e.branches.get(ins.pc);
        const arms = 1 + ins.targets.length;
        if (known) while (known.taken.length < arms) known.taken.push(0);
        else e.branches.set(ins.pc, { pc: ins.pc, op: ins.op.name, taken: new Array<number>(arms).fill(0) });
      }
      this.targets.set(
        hash,
        new Map(decoded.instructions.filter((i) => CONDITIONAL.has(i.op.name)).map((i) => [i.pc, { next: i.pc + i.size, targets: i.targets, op: i.op.name }])),
      );
    } catch {
      // Bytes the disassembler cannot read: lines still count from executed pcs, without branches.
    }
    for (const pcs of this.pending.get(hash) ?? []) this.countBranches(e, pcs);
    this.pending.delete(hash);
    return hash;
  }

  private readonly targets = new Map<string, Map<number, { next: number; targets: number[]; op: string }>>();

  /**
   * Records one run of the program with this hash (hex) or these bytes: the pcs it executed, in
   * order. Branch arms are read from consecutive pcs, so pass the whole run.
   */
  addRun(program: string | Uint8Array, pcs: readonly number[]): void {
    const hash = typeof program === 'string' ? program : hashKey(program);
    const e = this.entry(hash);
    e.runs++;
    for (const pc of pcs) e.hits.set(pc, (e.hits.get(pc) ?? 0) + 1);
    if (!e.program) {
      // Branch arms need the decoded program: keep the run until it is registered.
      (this.pending.get(hash) ?? this.pending.set(hash, []).get(hash)!).push(pcs);
      return;
    }
    this.countBranches(e, pcs);
  }

  private readonly pending = new Map<string, (readonly number[])[]>();

  private countBranches(e: ProgramCoverage, pcs: readonly number[]): void {
    const branchAt = this.targets.get(e.hash);
    const length = e.program?.bytes.length;
    for (let i = 0; i < pcs.length; i++) {
      const pc = pcs[i]!;
      const br = branchAt?.get(pc);
      if (!br) continue;
      // The run's next pc tells the arm; a branch that ran last jumped to the program's end (or failed).
      let arm: number;
      if (i + 1 < pcs.length) {
        const next = pcs[i + 1]!;
        arm = next === br.next ? 0 : br.targets.indexOf(next) + 1;
      } else {
        arm = br.targets.indexOf(length ?? -1) + 1;
      }
      if (arm <= 0 && !(i + 1 < pcs.length && pcs[i + 1] === br.next)) continue;
      let counts = e.branches.get(pc);
      if (!counts) e.branches.set(pc, (counts = { pc, op: br.op, taken: new Array<number>(1 + br.targets.length).fill(0) }));
      counts.taken[arm] = (counts.taken[arm] ?? 0) + 1;
    }
  }

  /**
   * Records every program run in a simulate response with an exec trace: each transaction's
   * approval or clear-state program, its logic signature, and inner app calls at any depth.
   * Accepts the SDK's response object and the node's JSON (hashes as base64).
   */
  addSimulateResponse(response: unknown): void {
    if (!isObj(response) || !Array.isArray(response['txn-groups'])) throw new CoverageError('not a simulate response: it has no "txn-groups" list');
    for (const g of response['txn-groups']) {
      const results = isObj(g) ? g['txn-results'] : undefined;
      if (!Array.isArray(results)) continue;
      for (const r of results) if (isObj(r) && isObj(r['exec-trace'])) this.addExecTrace(r['exec-trace']);
    }
  }

  /** Records one transaction's `exec-trace` object (and its inner traces). */
  addExecTrace(trace: Record<string, unknown>): void {
    const pairs: [string, string][] = [
      ['logic-sig-trace', 'logic-sig-hash'],
      ['approval-program-trace', 'approval-program-hash'],
      ['clear-state-program-trace', 'clear-state-program-hash'],
    ];
    for (const [t, h] of pairs) {
      const pcs = pcsOf(trace[t]);
      const hash = hashText(trace[h]);
      if (pcs && hash) this.addRun(hash, pcs);
    }
    const inner = trace['inner-trace'];
    if (Array.isArray(inner)) for (const it of inner) if (isObj(it)) this.addExecTrace(it);
  }

  /**
   * Adds counts recorded elsewhere (a session file of another test process): runs, hits per pc
   * and branch arms per pc.
   */
  addCounts(
    hash: string,
    counts: { runs: number; hits: Iterable<[number, number]>; branches: Iterable<{ pc: number; op: string; taken: readonly number[] }> },
  ): void {
    const e = this.entry(hash);
    e.runs += counts.runs;
    for (const [pc, n] of counts.hits) e.hits.set(pc, (e.hits.get(pc) ?? 0) + n);
    for (const b of counts.branches) {
      const mine = e.branches.get(b.pc);
      if (mine) b.taken.forEach((n, i) => (mine.taken[i] = (mine.taken[i] ?? 0) + n));
      else e.branches.set(b.pc, { pc: b.pc, op: b.op, taken: [...b.taken] });
    }
  }

  /** Runs of a program not registered yet, kept whole until it is (their branch arms are not counted yet). */
  pendingRuns(hash: string): readonly (readonly number[])[] {
    return this.pending.get(hash) ?? [];
  }

  /** The pcs that ran in the program with this hash (hex) or these bytes. */
  executedPcs(program: string | Uint8Array): Set<number> {
    const e = this.programs.get(typeof program === 'string' ? program : hashKey(program));
    return new Set(e?.hits.keys() ?? []);
  }

  /** Adds another collector's counts into this one (e.g. from parallel test files). */
  merge(other: CoverageCollector): void {
    for (const [hash, o] of other.programs) {
      if (o.program && !this.programs.get(hash)?.program) this.addProgram(o.program);
      const e = this.entry(hash);
      e.runs += o.runs;
      for (const [pc, n] of o.hits) e.hits.set(pc, (e.hits.get(pc) ?? 0) + n);
      for (const [pc, b] of o.branches) {
        const mine = e.branches.get(pc);
        if (!mine) e.branches.set(pc, { pc, op: b.op, taken: [...b.taken] });
        else b.taken.forEach((n, i) => (mine.taken[i] = (mine.taken[i] ?? 0) + n));
      }
      for (const pcs of other.pending.get(hash) ?? []) {
        if (e.program) this.countBranches(e, pcs);
        else (this.pending.get(hash) ?? this.pending.set(hash, []).get(hash)!).push(pcs);
      }
    }
  }

  /** Per-line coverage of every registered program's sources. */
  report(options: CoverageReportOptions = {}): CoverageReport {
    const level = options.level ?? 'both';
    const files = new Map<string, Map<number, LineCoverage>>();
    const lineOf = (file: string, line: number): LineCoverage => {
      let f = files.get(file);
      if (!f) files.set(file, (f = new Map()));
      let l = f.get(line);
      if (!l) f.set(line, (l = { line, hits: 0, branches: [] }));
      return l;
    };
    const unknownPrograms: string[] = [];
    for (const e of this.programs.values()) {
      const p = e.program;
      if (!p) {
        unknownPrograms.push(e.hash);
        continue;
      }
      const add = (file: string, byPc: Map<number, number>): void => {
        for (const [pc, line] of byPc) {
          const l = lineOf(file, line + 1);
          l.hits = Math.max(l.hits, e.hits.get(pc) ?? 0);
        }
        for (const [pc, line] of byPc) {
          const b = e.branches.get(pc);
          if (b) lineOf(file, line + 1).branches.push({ pc, taken: [...b.taken] });
        }
      };
      if (level !== 'high-level' && p.pcMap) add(p.sourceName ?? `program-${e.hash.slice(0, 12)}.teal`, tealLines(p.pcMap));
      if (level !== 'teal' && p.highLevel) for (const [file, byPc] of highLevelLines(p.highLevel)) add(file, byPc);
    }
    const out: FileCoverage[] = [];
    for (const [file, lines] of [...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const sorted = [...lines.values()].sort((a, b) => a.line - b.line);
      // A line that never ran has unknown branch counts (lcov writes '-').
      for (const l of sorted) if (l.hits === 0) for (const b of l.branches) b.taken = b.taken.map(() => undefined);
      out.push({ file, lines: sorted });
    }
    return { files: out, unknownPrograms };
  }
}

/** pc → 0-based TEAL line (the use site for instructions a macro produced). */
function tealLines(pcMap: readonly PcMapping[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of pcMap) if (!out.has(m.pc)) out.set(m.pc, m.use.line);
  return out;
}

/** file → (pc → 0-based line) from a higher-level source map. */
function highLevelLines(hl: HighLevelSourceMap): Map<string, Map<number, number>> {
  let entries;
  try {
    entries = parseNodeSourceMap(hl.map);
  } catch (e) {
    throw new CoverageError(`cannot read the source map: ${(e as Error).message}`);
  }
  const offset = hl.map.op_pc_offset ?? 0;
  const out = new Map<string, Map<number, number>>();
  for (const en of entries) {
    const src = hl.map.sources[en.source];
    if (src === undefined) continue;
    const file = hl.baseDir ? joinPath(hl.baseDir, src) : src;
    let m = out.get(file);
    if (!m) out.set(file, (m = new Map()));
    if (!m.has(en.pc + offset)) m.set(en.pc + offset, en.line);
  }
  return out;
}

/** Joins a folder and a relative path with `/`, folding `.` and `..` (portable: no Node `path`). */
function joinPath(base: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  const parts = base.replace(/\\/g, '/').split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  for (const seg of rel.replace(/\\/g, '/').split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/** Totals of a report: lines found / hit, branches found / hit. */
export function coverageTotals(report: CoverageReport): { lines: number; linesHit: number; branches: number; branchesHit: number } {
  let lines = 0;
  let linesHit = 0;
  let branches = 0;
  let branchesHit = 0;
  for (const f of report.files) {
    for (const l of f.lines) {
      lines++;
      if (l.hits > 0) linesHit++;
      for (const b of l.branches) {
        branches += b.taken.length;
        branchesHit += b.taken.filter((n) => (n ?? 0) > 0).length;
      }
    }
  }
  return { lines, linesHit, branches, branchesHit };
}

/**
 * The report in lcov's tracefile format (`SF`, `DA`, `BRDA`, `LF`/`LH`, `BRF`/`BRH`), which
 * Codecov, genhtml and editor coverage tools read. `testName` goes into the `TN:` line.
 */
export function toLcov(report: CoverageReport, testName = ''): string {
  const out: string[] = [];
  for (const f of report.files) {
    out.push(`TN:${testName}`, `SF:${f.file}`);
    let brf = 0;
    let brh = 0;
    for (const l of f.lines) {
      l.branches.forEach((b, block) => {
        b.taken.forEach((n, arm) => {
          out.push(`BRDA:${l.line},${block},${arm},${n === undefined ? '-' : n}`);
          brf++;
          if ((n ?? 0) > 0) brh++;
        });
      });
    }
    out.push(`BRF:${brf}`, `BRH:${brh}`);
    for (const l of f.lines) out.push(`DA:${l.line},${l.hits}`);
    out.push(`LF:${f.lines.length}`, `LH:${f.lines.filter((l) => l.hits > 0).length}`, 'end_of_record');
  }
  return out.join('\n') + '\n';
}

/** Reads an lcov tracefile back into per-file line hits (what an editor needs for covered/missed gutters). */
export function parseLcovLines(text: string): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  let current: Map<number, number> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('SF:')) {
      const file = line.slice(3);
      current = out.get(file) ?? new Map();
      out.set(file, current);
    } else if (line.startsWith('DA:') && current) {
      const [ln, hits] = line.slice(3).split(',');
      const n = Number(ln);
      const h = Number(hits);
      if (Number.isInteger(n) && n > 0 && Number.isFinite(h)) current.set(n, Math.max(current.get(n) ?? 0, h));
    } else if (line === 'end_of_record') current = undefined;
  }
  return out;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A small self-contained HTML page: a summary table, then each file's source with covered lines
 * green, missed lines red and partly taken branches marked. `readSource` returns a file's text
 * (undefined when it cannot be read: the file's lines are listed without text).
 */
export function toCoverageHtml(report: CoverageReport, readSource: (file: string) => string | undefined, title = 'Coverage'): string {
  const parts: string[] = [];
  const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
  parts.push(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>`,
    'body{font-family:system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}',
    'pre{margin:0}.src{font-family:ui-monospace,monospace;font-size:13px;border-collapse:collapse}.src td{padding:0 6px;white-space:pre}',
    '.hit{background:#dff5df}.miss{background:#f9d6d6}.part{background:#fbefc4}.n{color:#888;text-align:right}',
    '</style></head><body>',
    `<h1>${escapeHtml(title)}</h1><table><tr><th>file</th><th>lines</th><th>branches</th></tr>`,
  );
  for (const f of report.files) {
    const t = coverageTotals({ files: [f], unknownPrograms: [] });
    parts.push(
      `<tr><td><a href="#${escapeHtml(encodeURIComponent(f.file))}">${escapeHtml(f.file)}</a></td><td>${t.linesHit}/${t.lines} (${pct(t.linesHit, t.lines)})</td><td>${t.branchesHit}/${t.branches} (${pct(t.branchesHit, t.branches)})</td></tr>`,
    );
  }
  parts.push('</table>');
  for (const f of report.files) {
    parts.push(`<h2 id="${escapeHtml(encodeURIComponent(f.file))}">${escapeHtml(f.file)}</h2><table class="src">`);
    const byLine = new Map(f.lines.map((l) => [l.line, l]));
    const text = readSource(f.file);
    const lines = text !== undefined ? text.split(/\r?\n/) : [];
    const count = Math.max(lines.length, f.lines.length ? f.lines[f.lines.length - 1]!.line : 0);
    for (let n = 1; n <= count; n++) {
      const l = byLine.get(n);
      const partial = l && l.hits > 0 && l.branches.some((b) => b.taken.some((x) => !x));
      const cls = !l ? '' : l.hits === 0 ? 'miss' : partial ? 'part' : 'hit';
      const branchNote = l?.branches.length ? ` title="branches: ${l.branches.map((b) => b.taken.map((x) => x ?? '-').join('/')).join(', ')}"` : '';
      parts.push(`<tr class="${cls}"${branchNote}><td class="n">${n}</td><td class="n">${l ? l.hits : ''}</td><td>${escapeHtml(lines[n - 1] ?? '')}</td></tr>`);
    }
    parts.push('</table>');
  }
  if (report.unknownPrograms.length) parts.push(`<p>${report.unknownPrograms.length} program(s) ran without a known source.</p>`);
  parts.push('</body></html>');
  return parts.join('\n');
}
