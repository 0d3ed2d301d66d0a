import {
  LANGSPEC_MAX_VERSION,
  OPCODES,
  fieldsAt,
  opByName,
  opSpecByName,
  type CostSpec,
  type FieldSpec,
  type ImmediateEncoding,
  type ImmediateSpec,
  type LinearCost,
  type OpcodeSpec,
  type OpVariant,
} from '../spec/opcodes.js';
import { DIRECTIVE_DOCS, NAMED_CONSTANTS } from './constants.js';
import { FIELD_DOCS } from './fields.js';
import { OPCODE_DOCS } from './opcodes.js';

/*
 * Hover text is assembled from two sources: facts from the opcode table (types, costs, versions,
 * modes, encodings) and our prose. Keeping numbers out of the prose means a regenerated table can
 * never leave the hover text stale.
 */

const ENCODING_WORDS: Record<ImmediateEncoding, string> = {
  uint8: 'one byte, 0–255',
  int8: 'one signed byte, −128–127',
  varuint: 'varuint',
  bytes: 'varuint length, then the bytes',
  uints: 'varuint count, then that many varuints',
  bytesList: 'varuint count, then each value as varuint length and bytes',
  label: '2-byte signed big-endian offset from the end of the instruction',
  varintLabel: 'zigzag varint offset: forward from the end of the instruction, backward from its first byte',
  labels: 'one count byte, then a 2-byte signed big-endian offset per label, from the end of the instruction',
};

const PSEUDO_SIGNATURES: Record<string, string[]> = {
  int: ['int VALUE  → X: uint64'],
  byte: ['byte LITERAL  → X: []byte'],
  addr: ['addr ADDRESS  → X: address'],
  method: ['method "SIGNATURE"  → X: method'],
  replace: ['replace S  A: []byte, B: []byte → X: []byte', 'replace  A: []byte, B: uint64, C: []byte → X: []byte'],
};

function letter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** Results are named from the end of the alphabet: X; X, Y; X, Y, Z; W, X, Y, Z … */
function resultNames(count: number): string[] {
  const first = count <= 3 ? 23 : 26 - count;
  return Array.from({ length: count }, (_, i) => String.fromCharCode(65 + first + i));
}

function clampVersion(version: number): number {
  return Math.max(1, Math.min(Math.trunc(version), LANGSPEC_MAX_VERSION));
}

function variantAt(spec: OpcodeSpec, version: number): OpVariant {
  let found = spec.variants[0]!;
  for (const v of spec.variants) if (v.from <= version) found = v;
  return found;
}

/** `app_global_get_ex  A: uint64, B: stateKey → X: any, Y: bool` */
export function opcodeSignature(name: string, variant: Pick<OpVariant, 'args' | 'returns' | 'immediates'>): string {
  const head = [name, ...variant.immediates.map((i) => i.name)].join(' ');
  if (variant.args.length === 0 && variant.returns.length === 0) return head;
  const args = variant.args.map((t, i) => `${letter(i)}: ${t}`).join(', ');
  const names = resultNames(variant.returns.length);
  const results = variant.returns.length === 0 ? '—' : variant.returns.map((t, i) => `${names[i]}: ${t}`).join(', ');
  return `${head}  ${args ? `${args} ` : ''}→ ${results}`;
}

function stackEffect(variant: Pick<OpVariant, 'args' | 'returns'>): string {
  return opcodeSignature('', { ...variant, immediates: [] }).trim();
}

function linearCostWords(cost: LinearCost): string {
  if (typeof cost === 'number') return String(cost);
  return `${cost.base} + ${cost.per} per ${cost.chunk} bytes of ${letter(cost.arg)}`;
}

function isLinear(cost: CostSpec): cost is LinearCost {
  return typeof cost === 'number' || 'base' in cost;
}

/** Cost in words: "35", "1 + 1 per 16 bytes of A", or one line per field for per-field costs. */
export function costWords(cost: CostSpec): string[] {
  if (isLinear(cost)) return [linearCostWords(cost)];
  return Object.entries(cost as Record<string, LinearCost>).map(([field, c]) => `\`${field}\`: ${linearCostWords(c)}`);
}

export function modeWords(modes: number): string {
  if (modes === 1) return 'logicsig only';
  if (modes === 2) return 'application only';
  return 'both (logicsig and application)';
}

function opcodeBytes(spec: OpcodeSpec): string {
  const hex = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;
  return spec.prefix === undefined ? hex(spec.opcode) : `${hex(spec.prefix)} ${hex(spec.opcode)}`;
}

function sizeWords(size: number): string {
  return size === 0 ? 'variable length' : `${size} byte${size === 1 ? '' : 's'}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What changed between consecutive variants, e.g. "v2: cost 7 → 35". */
function history(spec: OpcodeSpec): string[] {
  const lines: string[] = [];
  for (let i = 1; i < spec.variants.length; i++) {
    const before = spec.variants[i - 1]!;
    const after = spec.variants[i]!;
    const changes: string[] = [];
    if (!sameJson(before.cost, after.cost)) {
      changes.push(`cost ${costWords(before.cost).join('; ')} → ${costWords(after.cost).join('; ')}`);
    }
    if (before.modes !== after.modes) changes.push(`mode ${modeWords(before.modes)} → ${modeWords(after.modes)}`);
    if (!sameJson(before.args, after.args) || !sameJson(before.returns, after.returns)) {
      changes.push(`stack became \`${stackEffect(after)}\` (was \`${stackEffect(before)}\`)`);
    }
    before.immediates.forEach((imm, k) => {
      const next = after.immediates[k];
      if (next && next.encoding !== imm.encoding) changes.push(`${imm.name} encoding ${ENCODING_WORDS[imm.encoding]} → ${ENCODING_WORDS[next.encoding]}`);
    });
    if (before.size !== after.size && changes.length === 0) changes.push(`size ${sizeWords(before.size)} → ${sizeWords(after.size)}`);
    if (changes.length > 0) lines.push(`v${after.from}: ${changes.join('; ')}`);
  }
  return lines;
}

function fieldList(spec: OpcodeSpec, version: number): string {
  const now = fieldsAt(spec, version);
  const later = (spec.fields ?? []).length - now.length;
  const names = now.map((f) => `\`${f.name}\``).join(', ');
  const rest = later > 0 ? ` (${later} more in later versions)` : '';
  return now.length > 0 ? `${names}${rest}` : `none at this version${rest}`;
}

function immediateLine(spec: OpcodeSpec, imm: ImmediateSpec, version: number): string {
  const ours = OPCODE_DOCS[spec.name]?.immediates?.[imm.name];
  let line = `- \`${imm.name}\` — ${ENCODING_WORDS[imm.encoding]}.`;
  if (ours) line += ` ${ours}`;
  if (imm.fieldGroup) line += ` ${imm.fieldGroup}: ${fieldList(spec, version)}`;
  return line;
}

function renderPseudoOp(name: string): string | undefined {
  const doc = OPCODE_DOCS[name];
  const signatures = PSEUDO_SIGNATURES[name];
  if (!doc || !signatures) return undefined;
  const parts = ['```teal\n' + signatures.join('\n') + '\n```', doc.summary];
  if (doc.details) parts.push(doc.details);
  parts.push('_Pseudo-op: the assembler picks the actual opcode._');
  return parts.join('\n\n');
}

/**
 * Hover Markdown for an opcode (or pseudo-op) as it is at `version`. Returns undefined for names
 * that are neither.
 */
export function renderOpcodeMarkdown(name: string, version: number): string | undefined {
  const spec = opSpecByName(name);
  if (!spec) return renderPseudoOp(name);
  const v = clampVersion(version);
  const live = opByName(name, v);
  const variant = live ?? variantAt(spec, spec.introduced);
  const doc = OPCODE_DOCS[name];

  const parts: string[] = ['```teal\n' + opcodeSignature(name, variant) + '\n```'];
  if (!live) parts.push(`_Not available at v${v}: introduced in v${spec.introduced}._`);
  if (doc) {
    parts.push(doc.summary);
    if (doc.details) parts.push(doc.details);
  }

  const cost = costWords(variant.cost);
  const facts = [
    cost.length === 1 ? `**Cost:** ${cost[0]}` : undefined,
    `**Introduced:** v${spec.introduced}`,
    `**Mode:** ${modeWords(variant.modes)}`,
    `**Opcode:** \`${opcodeBytes(spec)}\`, ${sizeWords(variant.size)}`,
  ].filter((s): s is string => s !== undefined);
  parts.push(facts.join(' · '));
  if (cost.length > 1) parts.push(['**Cost** (by immediate):', ...cost.map((c) => `- ${c}`)].join('\n'));

  if (variant.immediates.length > 0) {
    parts.push(['**Immediates:**', ...variant.immediates.map((imm) => immediateLine(spec, imm, live ? v : spec.introduced))].join('\n'));
  }
  const changes = history(spec);
  if (changes.length > 0) parts.push(['**Changes across versions:**', ...changes.map((c) => `- ${c}`)].join('\n'));
  return parts.join('\n\n');
}

function opForField(group: string, field: string, opName?: string): { spec: OpcodeSpec; field: FieldSpec } | undefined {
  const candidates = opName !== undefined ? [opSpecByName(opName)] : OPCODES.filter((o) => o.fieldGroup === group);
  let best: { spec: OpcodeSpec; field: FieldSpec } | undefined;
  for (const spec of candidates) {
    if (!spec || spec.fieldGroup !== group) continue;
    const f = spec.fields?.find((x) => x.name === field);
    if (f && (!best || f.version < best.field.version)) best = { spec, field: f };
  }
  return best;
}

/**
 * Hover Markdown for a field or enum constant of a field group at `version`. `opName` picks the
 * op whose view of the field to show (versions differ, e.g. `txn` vs `itxn_field`); by default
 * the earliest op that has it.
 */
export function renderFieldMarkdown(group: string, field: string, version: number, opName?: string): string | undefined {
  const doc = FIELD_DOCS[group]?.[field];
  const found = opForField(group, field, opName);
  if (!doc && !found) return undefined;
  const v = clampVersion(version);
  const parts = [`**\`${field}\`** · ${group}`];
  if (found) {
    const f = found.field;
    const facts: string[] = [];
    if (f.type !== 'any' && f.type !== 'none') facts.push(`${group === 'itxn_field Fields' ? 'Accepts' : 'Type'}: \`${f.type}\``);
    facts.push(`Immediate value: ${f.value}`);
    facts.push(`Introduced: v${f.version}`);
    if (f.modes !== 3) facts.push(`Mode: ${modeWords(f.modes)}`);
    parts.push(facts.join(' · '));
    if (f.version > v) parts.push(`_Not available at v${v}: introduced in v${f.version}._`);
  }
  if (doc) parts.push(doc);
  return parts.join('\n\n');
}

function directiveKey(name: string): string | undefined {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  for (const key of [trimmed, `#${trimmed}`, `#pragma ${trimmed}`]) if (Object.prototype.hasOwnProperty.call(DIRECTIVE_DOCS, key)) return key;
  return undefined;
}

/** Hover Markdown for a named `int` constant (`pay`, `OptIn` …) or a directive (`#pragma version`, `#define`). */
export function renderConstantMarkdown(name: string): string | undefined {
  const constant = Object.prototype.hasOwnProperty.call(NAMED_CONSTANTS, name) ? NAMED_CONSTANTS[name] : undefined;
  if (constant) {
    const meaning = constant.kind === 'TypeEnum' ? 'transaction type, as in `txn TypeEnum`' : 'OnCompletion action, as in `txn OnCompletion`';
    return [
      '```teal\n' + `int ${name} // ${constant.value}` + '\n```',
      `**\`${name}\`** = ${constant.value} · ${meaning}`,
      constant.doc,
      'Named constants work with `int` at every version; `pushint` needs the number.',
    ].join('\n\n');
  }
  const key = directiveKey(name);
  if (!key) return undefined;
  const directive = DIRECTIVE_DOCS[key]!;
  return ['```teal\n' + directive.syntax + '\n```', directive.summary, directive.details].join('\n\n');
}
