/**
 * `TMPL_*` placeholder substitution as deploy tools do it before compiling: integers become
 * decimal, byte arrays `0x…` hex, strings a quoted TEAL string literal — except all-digit strings,
 * which stay as written (AlgoKit does the same, so numeric parameters may arrive as text).
 * Placeholders inside comments or quoted strings are left alone.
 */
import type { TemplateValue } from './results.js';

const PLACEHOLDER = /TMPL_[A-Za-z0-9_]*/g;

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += (x < 16 ? '0' : '') + x.toString(16);
  return s;
}

function quoteTeal(s: string): string {
  let out = '"';
  for (const b of new TextEncoder().encode(s)) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b < 0x20 || b >= 0x7f) out += '\\x' + (b < 16 ? '0' : '') + b.toString(16);
    else out += String.fromCharCode(b);
  }
  return out + '"';
}

/** The TEAL text a template value stands for. */
export function templateValueText(value: TemplateValue): string {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new RangeError(`template integer must be unsigned, got ${value}`);
    return value.toString();
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`template integer must be a non-negative safe integer, got ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return /^\d+$/.test(value) ? value : quoteTeal(value);
  return '0x' + hex(value);
}

/** Replaces `TMPL_NAME` placeholders (keys may be given with or without the `TMPL_` prefix). */
export function replaceTemplateVariables(source: string, vars: Record<string, TemplateValue>): string {
  const table = new Map<string, string>();
  for (const [k, v] of Object.entries(vars)) table.set(k.startsWith('TMPL_') ? k : `TMPL_${k}`, templateValueText(v));
  if (table.size === 0 || !source.includes('TMPL_')) return source;
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes('TMPL_')) continue;
    let out = '';
    let code = 0;
    let j = 0;
    const flush = (end: number) => {
      out += line.slice(code, end).replace(PLACEHOLDER, (m, off: number, whole: string) => {
        const prev = off > 0 ? whole.charCodeAt(off - 1) : 32;
        const wordBefore = (prev >= 48 && prev <= 57) || (prev >= 65 && prev <= 90) || (prev >= 97 && prev <= 122) || prev === 95;
        return !wordBefore && table.has(m) ? table.get(m)! : m;
      });
    };
    while (j < line.length) {
      const c = line[j];
      if (c === '/' && line[j + 1] === '/') break;
      if (c === '"') {
        flush(j);
        let k = j + 1;
        while (k < line.length && !(line[k] === '"' && line[k - 1] !== '\\')) k++;
        out += line.slice(j, k + 1);
        j = k + 1;
        code = j;
        continue;
      }
      j++;
    }
    flush(Math.min(j, line.length));
    out += line.slice(Math.min(j, line.length));
    lines[i] = out;
  }
  return lines.join('\n');
}
