import { dirname, relative, resolve } from 'node:path';
import { ArgReader } from '../args.js';
import { UsageError, type CliIo, type Command } from '../command.js';
import { readInputText, writeOutput } from '../files.js';
import { assemble } from '../../teal/index.js';
import { AssembleError, type PcMapping, type SourceRange, type TealDiagnostic } from '../../teal/types.js';
import { toNodeSourceMap } from '../../teal/sourcemap.js';
import { MAX_AVM_VERSION } from '../../teal/spec/index.js';

interface AssembleArgs {
  file: string;
  out?: string;
  /** Path of the source map; '' means "next to the output" (`-m`). */
  map?: string;
  version?: number;
  templates: Map<string, string>;
}

const TEMPLATE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function parseArgs(args: string[]): AssembleArgs {
  let file: string | undefined;
  const parsed: Omit<AssembleArgs, 'file'> = { templates: new Map() };
  const argv = new ArgReader(args);
  for (let a = argv.next(); a !== undefined; a = argv.next()) {
    switch (a) {
      case '-o':
      case '--out':
      case '--outfile':
        parsed.out = argv.value();
        break;
      case '--map':
        parsed.map = argv.value();
        break;
      case '-m':
        parsed.map = '';
        break;
      case '--version': {
        const v = argv.value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_AVM_VERSION) {
          throw new UsageError(`--version must be a whole number from 1 to ${MAX_AVM_VERSION}, got "${v}"`);
        }
        parsed.version = Number(v);
        break;
      }
      case '--tmpl': {
        const spec = argv.value();
        const at = spec.indexOf('=');
        if (at <= 0) throw new UsageError(`--tmpl wants NAME=VALUE, got "${spec}"`);
        let name = spec.slice(0, at);
        const val = spec.slice(at + 1);
        if (!TEMPLATE_NAME.test(name)) throw new UsageError(`--tmpl name "${name}" must be letters, digits and _ (not starting with a digit)`);
        if (val === '' || /[\r\n]/.test(val)) throw new UsageError(`--tmpl ${name} needs a one-line, non-empty value`);
        if (!name.startsWith('TMPL_')) name = `TMPL_${name}`;
        if (parsed.templates.has(name)) throw new UsageError(`--tmpl ${name} given twice`);
        parsed.templates.set(name, val);
        break;
      }
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
        if (file !== undefined) throw new UsageError(`one input file expected, got "${file}" and "${a}"`);
        file = a;
    }
  }
  if (file === undefined) throw new UsageError('missing input file (TEAL source)');
  return { file, ...parsed };
}

/** A replacement made on one line: columns at or after `column` shift by `delta`. */
interface Shift {
  column: number;
  utf16Column: number;
  endColumn: number;
  endUtf16Column: number;
  delta: number;
  utf16Delta: number;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/**
 * Replaces `TMPL_NAME` tokens outside strings and comments. Returns the new text and, per line,
 * the shifts needed to report positions in the original text.
 */
export function substituteTemplates(source: string, templates: ReadonlyMap<string, string>): { text: string; shifts: Map<number, Shift[]>; unused: string[] } {
  const used = new Set<string>();
  const shifts = new Map<number, Shift[]>();
  if (templates.size === 0) return { text: source, shifts, unused: [] };
  const lines = source.split('\n');
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln]!;
    let out = '';
    let inString = false;
    let i = 0;
    const lineShifts: Shift[] = [];
    while (i < line.length) {
      const ch = line[i]!;
      if (inString) {
        out += ch;
        if (ch === '\\' && i + 1 < line.length) {
          out += line[i + 1]!;
          i += 2;
          continue;
        }
        if (ch === '"') inString = false;
        i++;
        continue;
      }
      if (ch === '"') inString = true;
      if (ch === '/' && line[i + 1] === '/') {
        out += line.slice(i);
        break;
      }
      const m = /^TMPL_[A-Za-z0-9_]+/.exec(line.slice(i));
      const before = i === 0 ? '' : line[i - 1]!;
      if (m && !/[A-Za-z0-9_]/.test(before) && templates.has(m[0])) {
        const value = templates.get(m[0])!;
        used.add(m[0]);
        const prefix = line.slice(0, i);
        lineShifts.push({
          column: utf8Length(prefix),
          utf16Column: i,
          endColumn: utf8Length(prefix) + m[0].length,
          endUtf16Column: i + m[0].length,
          delta: utf8Length(value) - m[0].length,
          utf16Delta: value.length - m[0].length,
        });
        out += value;
        i += m[0].length;
        continue;
      }
      out += ch;
      i++;
    }
    if (lineShifts.length) shifts.set(ln, lineShifts);
    lines[ln] = out;
  }
  return { text: lines.join('\n'), shifts, unused: [...templates.keys()].filter((k) => !used.has(k)) };
}

/** Maps a (line, column) of the substituted text back to the original text. */
function unshift(shifts: Map<number, Shift[]>, line: number, column: number, utf16: boolean): number {
  const list = shifts.get(line);
  if (!list) return column;
  let original = column;
  let accumulated = 0;
  for (const s of list) {
    const start = (utf16 ? s.utf16Column : s.column) + accumulated;
    const d = utf16 ? s.utf16Delta : s.delta;
    const endNew = (utf16 ? s.endUtf16Column : s.endColumn) + accumulated + d;
    if (column < start) break;
    // Inside the substituted value: point at the template name.
    if (column < endNew) return utf16 ? s.utf16Column : s.column;
    accumulated += d;
    original = column - accumulated;
  }
  return original;
}

/** Diagnostics printed at most (macro-limit errors are always printed). */
const MAX_PRINTED = 200;

function formatDiagnostic(file: string, d: TealDiagnostic, shifts: Map<number, Shift[]>): string {
  const line = d.range.line + 1;
  const col = unshift(shifts, d.range.line, d.range.utf16Column, true) + 1;
  const severity = d.severity === 'warning' ? 'warning: ' : '';
  let text = `${file}:${line}:${col}: ${severity}${d.message}\n`;
  if (d.definition) {
    const macro = d.macros?.length ? ` ${d.macros[d.macros.length - 1]}` : '';
    const defCol = unshift(shifts, d.definition.line, d.definition.utf16Column, true) + 1;
    text += `${file}:${d.definition.line + 1}:${defCol}: note: from macro${macro} defined here\n`;
  }
  return text;
}

function sortDiagnostics(list: readonly TealDiagnostic[]): TealDiagnostic[] {
  return [...list].sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
}

function remapMappings(mappings: readonly PcMapping[], shifts: Map<number, Shift[]>): PcMapping[] {
  if (shifts.size === 0) return [...mappings];
  const back = (r: SourceRange): SourceRange => ({
    ...r,
    column: unshift(shifts, r.line, r.column, false),
    utf16Column: unshift(shifts, r.line, r.utf16Column, true),
  });
  return mappings.map((m) => ({ ...m, use: back(m.use), ...(m.definition ? { definition: back(m.definition) } : {}) }));
}

async function run(args: string[], io: CliIo): Promise<number> {
  const opts = parseArgs(args);
  const sourcePath = resolve(io.cwd, opts.file);
  const source = await readInputText(io, opts.file);
  if (source === undefined) return 1;
  const { text, shifts, unused } = substituteTemplates(source, opts.templates);
  for (const name of unused) io.stderr(`${opts.file}: warning: template ${name} does not appear in the source\n`);

  let result: ReturnType<typeof assemble>;
  try {
    result = assemble(text, opts.version !== undefined ? { version: opts.version } : {});
  } catch (e) {
    if (!(e instanceof AssembleError)) throw e;
    const diagnostics = sortDiagnostics(e.diagnostics);
    // A pathological file can have tens of thousands of follow-on errors: print the first ones,
    // every macro-limit error (they explain the rest) and a count.
    const shown =
      diagnostics.length <= MAX_PRINTED
        ? diagnostics
        : [...diagnostics.slice(0, MAX_PRINTED), ...diagnostics.slice(MAX_PRINTED).filter((d) => d.code === 'macro')];
    for (const d of shown) io.stderr(formatDiagnostic(opts.file, d, shifts));
    if (shown.length < diagnostics.length) io.stderr(`${opts.file}: ${diagnostics.length - shown.length} more diagnostics not shown\n`);
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    io.stderr(`${opts.file}: ${errors} error${errors === 1 ? '' : 's'}\n`);
    return 1;
  }
  for (const d of sortDiagnostics(result.warnings)) io.stderr(formatDiagnostic(opts.file, d, shifts));

  const outName = opts.out ?? `${opts.file}.tok`;
  if (!(await writeOutput(io, outName, result.program))) return 1;
  if (opts.map !== undefined) {
    const mapName = opts.map === '' ? `${outName}.map` : opts.map;
    const mapPath = resolve(io.cwd, mapName);
    // Like the node's tools: the source is named relative to the map file.
    const map = toNodeSourceMap(remapMappings(result.sourceMap, shifts), { sources: [relative(dirname(mapPath), sourcePath)] });
    if (!(await writeOutput(io, mapName, JSON.stringify(map)))) return 1;
  }
  const size = result.program.length;
  io.stdout(`${opts.file}: v${result.version}, ${size} byte${size === 1 ? '' : 's'} written to ${outName}\n`);
  io.stdout(`logicsig address: ${result.address}\n`);
  return 0;
}

export const assembleCommand: Command = {
  name: 'assemble',
  summary: 'Compile TEAL source to program bytes (and a source map)',
  usage: 'tealworks assemble FILE.teal [-o FILE.tok] [--map FILE.map | -m] [--version N] [--tmpl NAME=VALUE ...]',
  run,
};
