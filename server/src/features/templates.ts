// `TMPL_*` template variables: deploy tools substitute them before assembling, so to the editor
// they stand for a constant. Before analysis each placeholder is replaced by its known value (from
// the `tealworks.templateVariables` setting, the workspace's tealworks.yaml or the ARC-56 spec
// beside the program), or else by a stand-in of the kind the context needs (`0`, `0x`, the zero
// address, …). Every range the assembler reports is then mapped back onto the original text, so
// diagnostics, navigation and hovers point at what the user wrote.
import { bytesToUint64, ZERO_ADDRESS_STRING as ZERO_ADDRESS } from '@tealworks/sdk/encoding';
import { specBeside } from '@tealworks/sdk/workflow';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { LexedLine } from '@tealworks/sdk/teal';
import { statementsOf } from '@tealworks/sdk/teal';

export type TemplateOrigin = 'settings' | 'tealworks.yaml' | 'ARC-56 spec';

export interface TemplateInfo {
  /** The TEAL text substituted for diagnostics (absent: a stand-in is used). */
  valueText?: string;
  /** Where the value came from. */
  origin?: TemplateOrigin;
  /** Detail of the origin (file path, contract key). */
  originDetail?: string;
  /** The type declared for it by the ARC-56 spec. */
  type?: string;
}

export interface TemplateSite {
  name: string;
  line: number;
  start: number;
  end: number;
  /** The op (or pseudo-op) of the statement the placeholder is an immediate of. */
  op?: string;
  /** True inside a `#define` body. */
  inMacro: boolean;
}

const NAME = /^TMPL_[A-Za-z0-9_]+$/;
const BYTES_OPS = new Set(['byte', 'pushbytes', 'bytecblock', 'pushbytess']);

/** Every `TMPL_*` token written in the source (never inside strings or comments: the lexer knows). */
export function templateSites(lines: readonly LexedLine[]): TemplateSite[] {
  const out: TemplateSite[] = [];
  // A placeholder that is a whole `#define` body takes the kind of the op its uses follow.
  const soleBody = new Map<string, TemplateSite>();
  for (const l of lines) {
    if (!l.text.includes('TMPL_')) continue;
    const first = l.tokens[0]?.text;
    const inMacro = first === '#define';
    if (first?.startsWith('#') && !inMacro) continue;
    const body = inMacro ? l.tokens.slice(2) : l.tokens;
    for (const st of statementsOf(body)) {
      const toks = st[0] && st[0].text.endsWith(':') && !st[0].text.startsWith('"') ? st.slice(1) : st;
      toks.forEach((t, i) => {
        if (!NAME.test(t.text)) return;
        const site: TemplateSite = { name: t.text, line: l.line, start: t.start, end: t.end, inMacro };
        if (i > 0) site.op = toks[0]!.text;
        else if (inMacro && body.length === 1) soleBody.set(l.tokens[1]!.text, site);
        out.push(site);
      });
    }
  }
  if (soleBody.size) {
    for (const l of lines) {
      if (l.tokens[0]?.text.startsWith('#')) continue;
      for (const st of statementsOf(l.tokens)) {
        const toks = st[0] && st[0].text.endsWith(':') ? st.slice(1) : st;
        for (const t of toks.slice(1)) {
          const site = soleBody.get(t.text);
          if (site && site.op === undefined) site.op = toks[0]!.text;
        }
      }
    }
  }
  return out;
}

function isBytesType(type: string | undefined): boolean {
  if (!type) return false;
  return (
    type === 'AVMBytes' ||
    type === 'AVMString' ||
    type === 'string' ||
    type === 'address' ||
    /^byte\[\d*\]$/.test(type) ||
    type.endsWith('[]') ||
    type.startsWith('(')
  );
}

/** What stands in for a placeholder that has no value: a constant of the kind its context takes. */
export function standIn(site: TemplateSite, info: TemplateInfo | undefined): string {
  if (info?.valueText !== undefined) return info.valueText;
  if (site.op === 'addr') return ZERO_ADDRESS;
  if (site.op === 'method') return '"f()void"';
  if (site.op && BYTES_OPS.has(site.op)) return '0x';
  if (!site.op && isBytesType(info?.type)) return '0x';
  return '0';
}

interface LineEdit {
  /** Original and substituted spans, in UTF-16 units and in bytes. */
  os: number;
  oe: number;
  ns: number;
  ne: number;
  osB: number;
  oeB: number;
  nsB: number;
  neB: number;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export interface Substituted {
  text: string;
  /** Maps every SourceRange inside `value` (deeply) from the substituted text back to the original. */
  remap<T>(value: T): T;
}

/** Replaces each site with its value or stand-in; identity when there are none. */
export function substituteTemplates(text: string, sites: readonly TemplateSite[], infos: ReadonlyMap<string, TemplateInfo>): Substituted {
  if (!sites.length) return { text, remap: (v) => v };
  const lines = text.split('\n');
  const edits = new Map<number, LineEdit[]>();
  const byLine = new Map<number, TemplateSite[]>();
  for (const s of sites) {
    const list = byLine.get(s.line) ?? [];
    list.push(s);
    byLine.set(s.line, list);
  }
  for (const [line, list] of byLine) {
    const src = lines[line]!;
    list.sort((a, b) => a.start - b.start);
    let out = '';
    let at = 0;
    const es: LineEdit[] = [];
    for (const s of list) {
      out += src.slice(at, s.start);
      const rep = standIn(s, infos.get(s.name));
      const ns = out.length;
      const nsB = byteLength(out);
      out += rep;
      es.push({
        os: s.start,
        oe: s.end,
        ns,
        ne: out.length,
        osB: byteLength(src.slice(0, s.start)),
        oeB: byteLength(src.slice(0, s.end)),
        nsB,
        neB: nsB + byteLength(rep),
      });
      at = s.end;
    }
    out += src.slice(at);
    lines[line] = out;
    edits.set(line, es);
  }
  const mapCol = (es: readonly LineEdit[], col: number, isEnd: boolean, bytes: boolean): number => {
    let delta = 0;
    for (const e of es) {
      const [os, oe, ns, ne] = bytes ? [e.osB, e.oeB, e.nsB, e.neB] : [e.os, e.oe, e.ns, e.ne];
      if (col < ns || (col === ns && !isEnd)) return col + delta;
      if (col <= ne) return isEnd ? oe : os;
      delta = oe - ne;
    }
    return col + delta;
  };
  const remap = <T>(value: T): T => {
    const seen = new Set<object>();
    const visit = (v: unknown): void => {
      if (typeof v !== 'object' || v === null || seen.has(v) || ArrayBuffer.isView(v)) return;
      seen.add(v);
      if (Array.isArray(v)) {
        for (const x of v) visit(x);
        return;
      }
      const r = v as Record<string, unknown>;
      if (typeof r.line === 'number' && typeof r.utf16Column === 'number' && typeof r.utf16EndColumn === 'number') {
        const es = edits.get(r.line);
        if (es) {
          const [c, ec, u, ue] = [r.column as number, r.endColumn as number, r.utf16Column, r.utf16EndColumn];
          if (typeof c === 'number') r.column = mapCol(es, c, false, true);
          if (typeof ec === 'number') r.endColumn = mapCol(es, ec, true, true);
          r.utf16Column = mapCol(es, u, false, false);
          r.utf16EndColumn = mapCol(es, ue, true, false);
        }
      }
      for (const x of Object.values(r)) visit(x);
    };
    visit(value);
    return value;
  };
  return { text: lines.join('\n'), remap };
}

// ---- where values come from ---------------------------------------------------------------------

/** The TEAL text for a value given in settings or YAML: integers, `0x…`/quoted text as written, other text quoted. */
export function valueTextOf(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? String(v) : undefined;
  if (typeof v === 'bigint') return v >= 0n ? v.toString() : undefined;
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (/^\d[\d_]*$/.test(t)) return t.replace(/_/g, '');
  if (/^0x[0-9a-fA-F]*$/.test(t) || /^"(?:[^"\\]|\\.)*"$/.test(t) || /^(base64|b64|base32|b32)\(.*\)$/.test(t)) return t;
  if (/\$\{\{/.test(t)) return undefined; // a workflow expression: only known when the workflow runs
  return JSON.stringify(t);
}

function canonical(name: string): string {
  return name.startsWith('TMPL_') ? name : `TMPL_${name}`;
}

/** Settings: `tealworks.templateVariables` is an object of name → number or text. */
export function templatesFromSettings(value: unknown): Map<string, TemplateInfo> {
  const out = new Map<string, TemplateInfo>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    const text = valueTextOf(v);
    if (text !== undefined && /^[A-Za-z0-9_]+$/.test(k)) out.set(canonical(k), { valueText: text, origin: 'settings' });
  }
  return out;
}

function fromBase64Value(b64: string, type: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(b64, 'base64');
  } catch {
    return undefined;
  }
  if ((type === 'uint64' || type === 'AVMUint64') && bytes.length <= 8) {
    return bytesToUint64(bytes).toString();
  }
  return '0x' + bytes.toString('hex');
}

/** The `templateVariables` of an ARC-56 spec's JSON: names, types and values when given. */
export function templatesFromArc56(json: unknown, path: string): Map<string, TemplateInfo> {
  const out = new Map<string, TemplateInfo>();
  const tv = (json as { templateVariables?: unknown } | null)?.templateVariables;
  if (typeof tv !== 'object' || tv === null) return out;
  for (const [k, raw] of Object.entries(tv as Record<string, unknown>)) {
    const r = (raw ?? {}) as { type?: unknown; value?: unknown };
    const type = typeof r.type === 'string' ? r.type : undefined;
    const info: TemplateInfo = {};
    if (type) info.type = type;
    if (typeof r.value === 'string') {
      const text = fromBase64Value(r.value, type ?? 'AVMBytes');
      if (text !== undefined) Object.assign(info, { valueText: text, origin: 'ARC-56 spec' as const, originDetail: path });
    }
    out.set(canonical(k), info);
  }
  return out;
}

/** The `template` block of the tealworks.yaml contract whose approval is `tealPath`. */
export function templatesFromWorkflow(yamlText: string, yamlPath: string, tealPath: string): Map<string, TemplateInfo> {
  const out = new Map<string, TemplateInfo>();
  let doc: unknown;
  try {
    doc = parseYaml(yamlText);
  } catch {
    return out;
  }
  const contracts = (doc as { contracts?: unknown } | null)?.contracts;
  if (typeof contracts !== 'object' || contracts === null) return out;
  for (const [key, c] of Object.entries(contracts as Record<string, unknown>)) {
    const def = (c ?? {}) as { approval?: unknown; template?: unknown };
    if (typeof def.approval !== 'string' || resolve(dirname(yamlPath), def.approval) !== tealPath) continue;
    if (typeof def.template !== 'object' || def.template === null) continue;
    for (const [k, v] of Object.entries(def.template as Record<string, unknown>)) {
      const text = valueTextOf(v);
      if (text !== undefined) out.set(canonical(k), { valueText: text, origin: 'tealworks.yaml', originDetail: `${yamlPath} (contracts.${key}.template)` });
    }
  }
  return out;
}

const fileCache = new Map<string, { mtime: number; size: number; value: Map<string, TemplateInfo> }>();

/** ARC-56 specs and workflow files larger than this are not read for template values (an app spec is tens of KB). */
export const MAX_TEMPLATE_SOURCE_BYTES = 4 * 1024 * 1024;
/** Files up to this size are read at once; larger ones (up to the cap) in the background. */
const READ_NOW_BYTES = 256 * 1024;
const loading = new Set<string>();
let onLoaded: (() => void) | undefined;

/**
 * Registers what to do when a template source read in the background has arrived (the server
 * re-analyses open documents). Spec and workflow files above 256 KB are read asynchronously, so
 * a large file beside a TEAL program never holds up its first diagnostics.
 */
export function onTemplateSourcesLoaded(fn: (() => void) | undefined): void {
  onLoaded = fn;
}

/** Template sources read in the background and not arrived yet. */
export function templateSourcesLoading(): number {
  return loading.size;
}

function cached(path: string, key: string, read: (text: string) => Map<string, TemplateInfo>): Map<string, TemplateInfo> {
  try {
    const st = statSync(path);
    const hit = fileCache.get(key);
    if (hit && hit.mtime === st.mtimeMs && hit.size === st.size) return hit.value;
    if (st.size > MAX_TEMPLATE_SOURCE_BYTES) {
      fileCache.set(key, { mtime: st.mtimeMs, size: st.size, value: new Map() });
      return new Map();
    }
    if (st.size <= READ_NOW_BYTES) {
      const value = read(readFileSync(path, 'utf8'));
      fileCache.set(key, { mtime: st.mtimeMs, size: st.size, value });
      return value;
    }
    if (!loading.has(key)) {
      loading.add(key);
      readFile(path, 'utf8')
        .then(
          (text) => fileCache.set(key, { mtime: st.mtimeMs, size: st.size, value: text.length <= MAX_TEMPLATE_SOURCE_BYTES ? read(text) : new Map() }),
          () => fileCache.set(key, { mtime: st.mtimeMs, size: st.size, value: new Map() }),
        )
        .finally(() => {
          loading.delete(key);
          onLoaded?.();
        });
    }
    return hit?.value ?? new Map();
  } catch {
    return new Map();
  }
}

/**
 * Everything known about the template variables of the file at `uri`, by precedence: settings,
 * then tealworks.yaml (searched from the file's folder upwards, at most 4 levels), then the ARC-56
 * spec. Types come from the spec either way. Non-file URIs get the settings only.
 */
export function templateInfoFor(uri: string, settings: ReadonlyMap<string, TemplateInfo>): Map<string, TemplateInfo> {
  const out = new Map<string, TemplateInfo>();
  let path: string | undefined;
  if (uri.startsWith('file:')) {
    try {
      path = fileURLToPath(uri);
    } catch {
      path = undefined;
    }
  }
  if (path) {
    const spec = specBeside(path);
    if (spec) {
      for (const [k, v] of cached(spec, spec, (t) => {
        try {
          return templatesFromArc56(JSON.parse(t), spec);
        } catch {
          return new Map();
        }
      }))
        out.set(k, { ...v });
    }
    let dir = dirname(path);
    for (let i = 0; i < 4; i++) {
      for (const name of ['tealworks.yaml', 'tealworks.yml']) {
        const y = join(dir, name);
        if (!existsSync(y)) continue;
        for (const [k, v] of cached(y, `${y}\0${path}`, (t) => templatesFromWorkflow(t, y, path!))) out.set(k, { ...out.get(k), ...v });
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  for (const [k, v] of settings) out.set(k, { ...out.get(k), ...v });
  return out;
}
