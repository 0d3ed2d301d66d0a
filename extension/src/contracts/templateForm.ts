// The template-variable form Deploy and the simulate panel show before a create: one field per
// `TMPL_*` placeholder of the approval and clear programs, named and typed as the ARC-56 spec
// declares (`templateVariables`), prefilled with what this workspace gave last time. Pure (no
// vscode import): the field list, per-field validation and the compile options are unit-tested.
import type { Arc56AppSpec } from '@tealworks/sdk/abi';
import type { TemplateValue } from '@tealworks/sdk/teal';
import { templatePlaceholders } from '@tealworks/sdk/app';
import { isValidAddress, decodeAddress } from '@tealworks/sdk/encoding';
import { bytesToUint64, fromHex, toHex } from '@tealworks/sdk/encoding';
import { fromBase64 } from '@tealworks/sdk/encoding';
import { parse as parseYaml } from 'yaml';
import { resolve as resolvePath } from 'node:path';

/** Deploy-time flags with a fixed meaning (AlgoKit's convention): asked as yes/no. */
export const FLAG_VARIABLES = ['TMPL_UPDATABLE', 'TMPL_DELETABLE'] as const;

export interface TemplateField {
  /** With the prefix, as written in TEAL. */
  name: string;
  /** The spec's type (`uint64`, `AVMBytes`, `address`, a struct …), `bool` for the deploy flags, else `unknown`. */
  type: string;
  /** Where the type came from. */
  typeFrom: 'spec' | 'flag' | 'guess';
  /** A value the spec gives (as text for the input box). */
  specValue?: string;
  /** What the workspace typed last time. */
  remembered?: string;
  /** The value a workflow (tealworks.yaml) deploys this program with. */
  workflowValue?: string;
  /** Used in the program but not declared in the spec (when there is a spec). */
  undeclared?: boolean;
}

const UINT64_MAX = (1n << 64n) - 1n;

function strip(name: string): string {
  return name.startsWith('TMPL_') ? name.slice(5) : name;
}

function isUintType(t: string): boolean {
  return t === 'uint64' || t === 'AVMUint64' || /^uint\d+$/.test(t);
}

/**
 * One field per placeholder, in first-use order (flags last), typed by the spec when it declares
 * the variable (with or without the `TMPL_` prefix).
 */
export function templateFields(
  approval: string,
  clear: string,
  spec?: Pick<Arc56AppSpec, 'templateVariables'>,
  remembered: Readonly<Record<string, string>> = {},
  workflow: Readonly<Record<string, string>> = {},
): TemplateField[] {
  const names = [...new Set([...templatePlaceholders(approval), ...templatePlaceholders(clear)])];
  const declared = new Map<string, { type: string; value?: Uint8Array }>();
  for (const [k, v] of spec?.templateVariables ?? [])
    declared.set(k.startsWith('TMPL_') ? k : `TMPL_${k}`, { type: v.type.text, ...(v.value ? { value: v.value } : {}) });
  const flags = names.filter((n) => (FLAG_VARIABLES as readonly string[]).includes(n));
  const rest = names.filter((n) => !(FLAG_VARIABLES as readonly string[]).includes(n));
  return [...rest, ...flags].map((name) => {
    const d = declared.get(name);
    const flag = (FLAG_VARIABLES as readonly string[]).includes(name);
    const f: TemplateField = { name, type: flag ? 'bool' : (d?.type ?? 'unknown'), typeFrom: flag ? 'flag' : d ? 'spec' : 'guess' };
    if (d?.value) f.specValue = isUintType(d.type) && d.value.length <= 8 ? bytesToUint64(d.value).toString() : `0x${toHex(d.value)}`;
    const r = remembered[name] ?? remembered[strip(name)];
    if (r !== undefined) f.remembered = r;
    const w = workflow[name] ?? workflow[strip(name)];
    if (w !== undefined) f.workflowValue = w;
    if (spec && !d && !flag) f.undeclared = true;
    return f;
  });
}

/** The prompt shown for a field: its name, type and how to write a value. */
export function fieldPrompt(f: TemplateField): string {
  if (f.typeFrom === 'flag')
    return `${f.name}: ${f.name === 'TMPL_UPDATABLE' ? 'may the creator update the app later?' : 'may the creator delete the app later?'}`;
  const how = isUintType(f.type)
    ? 'a whole number'
    : f.type === 'address'
      ? 'an address'
      : f.type === 'unknown'
        ? 'a number, 0x… hex, or text (quoted as a string)'
        : '0x… hex, base64:…, or text';
  return `${f.name} (${f.type === 'unknown' ? 'type not declared' : f.type}${f.typeFrom === 'spec' ? ' from the ARC-56 spec' : ''}): ${how}`;
}

export class TemplateValueError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'TemplateValueError';
  }
}

/** Parses what was typed for a field; throws TemplateValueError naming the field. */
export function parseTemplateValue(f: Pick<TemplateField, 'name' | 'type'>, text: string): TemplateValue | boolean {
  const t = text.trim();
  if (t === '') throw new TemplateValueError(f.name, 'a value is required');
  if (f.type === 'bool') {
    if (/^(true|yes|1)$/i.test(t)) return true;
    if (/^(false|no|0)$/i.test(t)) return false;
    throw new TemplateValueError(f.name, 'answer true or false');
  }
  if (isUintType(f.type) || (f.type === 'unknown' && /^\d[\d_]*$/.test(t))) {
    const digits = t.replace(/_/g, '');
    if (!/^\d+$/.test(digits)) throw new TemplateValueError(f.name, `expected a whole number, got ${JSON.stringify(t.slice(0, 30))}`);
    const v = BigInt(digits);
    const bits = /^uint(\d+)$/.exec(f.type)?.[1];
    const max = bits && Number(bits) < 64 ? (1n << BigInt(bits)) - 1n : UINT64_MAX;
    if (v > max) throw new TemplateValueError(f.name, `larger than ${max} (the largest ${f.type === 'unknown' ? 'uint64' : f.type})`);
    return v;
  }
  if (f.type === 'address') {
    if (!isValidAddress(t)) throw new TemplateValueError(f.name, 'not a valid address (58 characters with a checksum)');
    return decodeAddress(t);
  }
  if (/^0x/i.test(t)) {
    if (!/^0x([0-9a-f]{2})*$/i.test(t)) throw new TemplateValueError(f.name, 'hex needs an even number of 0-9a-f digits after 0x');
    return fromHex(t.slice(2));
  }
  if (/^base64:/i.test(t)) {
    try {
      return fromBase64(t.slice(7));
    } catch (e) {
      throw new TemplateValueError(f.name, `not base64: ${(e as Error).message}`);
    }
  }
  const fixed = /^byte\[(\d+)\]$/.exec(f.type);
  const bytes = new TextEncoder().encode(text);
  if (fixed && bytes.length !== Number(fixed[1])) throw new TemplateValueError(f.name, `${f.type} takes exactly ${fixed[1]} bytes, got ${bytes.length}`);
  if (isUintType(f.type)) throw new TemplateValueError(f.name, 'expected a whole number');
  return text;
}

/** The problem with a typed value, or undefined (for an input box's validateInput). */
export function templateValueProblem(f: Pick<TemplateField, 'name' | 'type'>, text: string): string | undefined {
  try {
    parseTemplateValue(f, text);
    return undefined;
  } catch (e) {
    return e instanceof TemplateValueError ? e.message.slice(f.name.length + 2) : (e as Error).message;
  }
}

export interface TemplateCompileOptions {
  template: Record<string, TemplateValue>;
  updatable?: boolean;
  deletable?: boolean;
}

/** Turns the form's texts (by field name) into compileContract options; throws TemplateValueError on the first bad field. */
export function templateOptions(fields: readonly TemplateField[], texts: Readonly<Record<string, string>>): TemplateCompileOptions {
  const out: TemplateCompileOptions = { template: {} };
  for (const f of fields) {
    const text = texts[f.name] ?? currentValue(f);
    if (text === undefined) throw new TemplateValueError(f.name, 'a value is required');
    const v = parseTemplateValue(f, text);
    if (f.name === 'TMPL_UPDATABLE') out.updatable = v as boolean;
    else if (f.name === 'TMPL_DELETABLE') out.deletable = v as boolean;
    else out.template[f.name] = typeof v === 'boolean' ? (v ? 1n : 0n) : v;
  }
  return out;
}

/** Fields still lacking a value (no text typed, nothing remembered, no spec value). */
export function missingFields(fields: readonly TemplateField[], texts: Readonly<Record<string, string>> = {}): TemplateField[] {
  return fields.filter((f) => (texts[f.name] ?? currentValue(f)) === undefined);
}

/** A field's value before anything is typed: what this workspace gave, else the workflow's, else the spec's. */
export function currentValue(f: TemplateField): string | undefined {
  return f.remembered ?? f.workflowValue ?? f.specValue;
}

/**
 * The template values a workflow file deploys a program with: `contracts.<name>.template` of every
 * contract whose `approval` (or `clear`) is `tealPath` (paths relative to the workflow file).
 * Deploy flags (`updatable`, `deletable` of its deploy steps) are not read. Never throws.
 */
export function workflowTemplateValues(yamlText: string, yamlDir: string, tealPath: string): Record<string, string> {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText, { intAsBigInt: true });
  } catch {
    return {};
  }
  const contracts = (doc as { contracts?: unknown } | null)?.contracts;
  if (!contracts || typeof contracts !== 'object') return {};
  const out: Record<string, string> = {};
  const target = resolvePath(tealPath);
  for (const c of Object.values(contracts as Record<string, unknown>)) {
    if (!c || typeof c !== 'object') continue;
    const { approval, clear, template } = c as { approval?: unknown; clear?: unknown; template?: unknown };
    const names = [approval, clear].filter((p): p is string => typeof p === 'string').map((p) => resolvePath(yamlDir, p));
    if (!names.includes(target) || !template || typeof template !== 'object') continue;
    for (const [k, v] of Object.entries(template as Record<string, unknown>)) {
      if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
        out[k.startsWith('TMPL_') ? k : `TMPL_${k}`] = String(v);
    }
  }
  return out;
}

/** Every placeholder's value in compile options, the deploy flags as 1 or 0. */
export function templateTableOf(options: TemplateCompileOptions): Record<string, TemplateValue> {
  const table: Record<string, TemplateValue> = { ...options.template };
  if (options.updatable !== undefined) table.TMPL_UPDATABLE = options.updatable ? 1n : 0n;
  if (options.deletable !== undefined) table.TMPL_DELETABLE = options.deletable ? 1n : 0n;
  return table;
}

/**
 * Template values as a debug launch configuration carries them (JSON): integers in decimal, bytes
 * and text as `0x…` hex (all-digit text stays decimal, as the substitution itself treats it).
 */
export function templateLaunchText(table: Readonly<Record<string, TemplateValue>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(table)) {
    const key = name.startsWith('TMPL_') ? name : `TMPL_${name}`;
    if (typeof v === 'bigint' || typeof v === 'number') out[key] = v.toString();
    else if (typeof v === 'string') out[key] = /^\d+$/.test(v) ? v : `0x${toHex(new TextEncoder().encode(v))}`;
    else out[key] = `0x${toHex(v)}`;
  }
  return out;
}
