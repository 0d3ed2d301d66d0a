/**
 * Generates sdk/src/teal/spec/opcodes.generated.ts from the langspec JSON files (one per AVM
 * version). Only facts are copied: bytes, names, immediates, types, sizes, costs, versions, modes
 * and fields. Documentation prose is ours and lives in sdk/src/teal/docs/.
 *
 *   npm run gen:opcodes [-- --langspec DIR]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dirFlag = process.argv.indexOf('--langspec');
const langspecDir = dirFlag > 0 ? resolve(process.argv[dirFlag + 1]!) : resolve(repo, '../shared/data/langspec');
const out = join(repo, 'sdk/src/teal/spec/opcodes.generated.ts');

interface RawImmediate {
  Comment?: string;
  Encoding: string;
  Name: string;
  Reference?: string;
}
interface RawField {
  Name: string;
  Type?: string;
  ByteEncoding: number;
  Version?: number;
  Modes?: number;
}
interface RawOp {
  Opcode: number | [number, number];
  Name: string;
  Args?: string[];
  Returns?: string[];
  Size: number;
  DocCost: string;
  ImmediateNote?: RawImmediate[];
  IntroducedVersion: number;
  Groups?: string[];
  Modes: number;
  ArgEnum?: string[];
  ArgEnumTypes?: string[];
  ArgDetails?: RawField[];
}
interface RawSpec {
  Version: number;
  NamedTypes: { Name: string; Abbreviation: string; Bound: [number, number]; AVMType: string }[];
  Ops: RawOp[];
}

type Cost = number | { base: number; per: number; chunk: number; arg: number };

const ENCODINGS: Record<string, string> = {
  uint8: 'uint8',
  int8: 'int8',
  varuint: 'varuint',
  'varuint length, bytes': 'bytes',
  'varuint count, [varuint ...]': 'uints',
  'varuint count, [varuint length, bytes ...]': 'bytesList',
  'int16 (big-endian)': 'label',
  'varint (zigzag)': 'varintLabel',
  'varuint count, [int16 (big-endian) ...]': 'labels',
};

function parseLinear(text: string, op: string): Cost {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const m = /^(\d+) \+ (\d+) per (\d+) bytes of ([A-Z])$/.exec(t);
  if (!m) throw new Error(`${op}: unrecognised cost ${JSON.stringify(text)}`);
  return { base: Number(m[1]), per: Number(m[2]), chunk: Number(m[3]), arg: m[4]!.charCodeAt(0) - 65 };
}

function parseCost(text: string, op: string): Cost | Record<string, Cost> {
  if (!text.includes('=')) return parseLinear(text, op);
  const byField: Record<string, Cost> = {};
  for (const part of text.split(';')) {
    const [field, cost] = part.split('=');
    byField[field!.trim()] = parseLinear(cost!, op);
  }
  return byField;
}

// The version range is whatever langspec_vN.json files the data folder holds (1..N, no gaps).
const versions = readdirSync(langspecDir)
  .map((f) => /^langspec_v(\d+)\.json$/.exec(f)?.[1])
  .filter((v): v is string => v !== undefined)
  .map(Number)
  .sort((a, b) => a - b);
const maxVersion = versions.at(-1) ?? 0;
if (maxVersion === 0 || versions.some((v, i) => v !== i + 1)) {
  throw new Error(`${langspecDir}: expected langspec_v1.json … langspec_vN.json with no gaps, found versions ${versions.join(', ') || 'none'}`);
}
const specs: RawSpec[] = [];
for (let v = 1; v <= maxVersion; v++) {
  // uint64's upper bound does not fit a double; keep it as text.
  const text = readFileSync(join(langspecDir, `langspec_v${v}.json`), 'utf8').replace(/18446744073709551615/g, '"18446744073709551615"');
  specs.push(JSON.parse(text) as RawSpec);
}

interface Variant {
  from: number;
  size: number;
  cost: Cost | Record<string, Cost>;
  args: string[];
  returns: string[];
  modes: number;
  immediates: { name: string; encoding: string; fieldGroup?: string }[];
}
interface Field {
  name: string;
  value: number;
  type: string;
  version: number;
  modes: number;
}
interface Op {
  name: string;
  opcode: number;
  prefix?: number;
  introduced: number;
  groups: string[];
  variants: Variant[];
  fieldGroup?: string;
  fields?: Field[];
}

const ops = new Map<string, Op>();
const order: string[] = [];
for (const spec of specs) {
  for (const raw of spec.Ops) {
    const [prefix, opcode] = Array.isArray(raw.Opcode) ? raw.Opcode : [undefined, raw.Opcode];
    const immediates = (raw.ImmediateNote ?? []).map((imm) => {
      const encoding = ENCODINGS[imm.Encoding];
      if (!encoding) throw new Error(`${raw.Name}: unknown immediate encoding ${imm.Encoding}`);
      // itxn_field names its group "txn" although its settable fields differ from txn's.
      const group = imm.Reference === 'txn' ? 'itxn_field Fields' : imm.Reference;
      return group ? { name: imm.Name, encoding, fieldGroup: group } : { name: imm.Name, encoding };
    });
    const variant: Variant = {
      from: spec.Version,
      size: raw.Size,
      cost: parseCost(raw.DocCost, raw.Name),
      args: raw.Args ?? [],
      returns: raw.Returns ?? [],
      modes: raw.Modes,
      immediates,
    };
    let op = ops.get(raw.Name);
    if (!op) {
      op = { name: raw.Name, opcode: opcode!, introduced: raw.IntroducedVersion, groups: raw.Groups ?? [], variants: [] };
      if (prefix !== undefined) op.prefix = prefix;
      ops.set(raw.Name, op);
      order.push(raw.Name);
    }
    const last = op.variants[op.variants.length - 1];
    const withoutVersion = (v: Variant) => JSON.stringify({ ...v, from: 0 });
    const same = last !== undefined && withoutVersion(last) === withoutVersion(variant);
    if (!same) op.variants.push(variant);
    if (raw.ArgDetails) {
      // The last (newest) file lists every field with the version it arrived in.
      op.fieldGroup = immediates.find((i) => i.fieldGroup)?.fieldGroup;
      op.fields = raw.ArgDetails.map((f) => ({
        name: f.Name,
        value: f.ByteEncoding,
        type: f.Type ?? raw.ArgEnumTypes?.[raw.ArgEnum!.indexOf(f.Name)] ?? 'any',
        version: f.Version ?? raw.IntroducedVersion,
        modes: f.Modes ?? 3,
      }));
    }
  }
}

const namedTypes = specs[specs.length - 1]!.NamedTypes.map((t) => ({
  name: t.Name,
  abbreviation: t.Abbreviation,
  bound: t.Bound.map((b) => (typeof b === 'string' ? `${b}n` : `${b}n`)),
  avmType: t.AVMType,
}));

function lit(value: unknown): string {
  return JSON.stringify(value);
}

const lines: string[] = [];
lines.push(`// Generated by scripts/gen-opcodes.ts from langspec_v1..${maxVersion}.json — do not edit. Run \`npm run gen:opcodes\`.`);
lines.push("import type { OpcodeSpec, NamedTypeSpec } from './types.js';");
lines.push('');
lines.push('/** The highest AVM version of the language spec the table was generated from. */');
lines.push(`export const LANGSPEC_MAX_VERSION = ${maxVersion};`);
lines.push('');
lines.push('/** Named stack types of the language spec (e.g. `bool`, `address`) with their ranges. */');
lines.push('export const NAMED_TYPES: readonly NamedTypeSpec[] = [');
for (const t of namedTypes)
  lines.push(`  { name: ${lit(t.name)}, abbreviation: ${lit(t.abbreviation)}, min: ${t.bound[0]}, max: ${t.bound[1]}, avmType: ${lit(t.avmType)} },`);
lines.push('];');
lines.push('');
lines.push('/** The opcode table (generated from the language spec): the one source of opcode facts for the assembler, AVM, docs and grammar. */');
lines.push('export const OPCODES: readonly OpcodeSpec[] = [');
for (const name of order) {
  const op = ops.get(name)!;
  const parts = [`name: ${lit(op.name)}`, `opcode: ${op.opcode}`];
  if (op.prefix !== undefined) parts.push(`prefix: ${op.prefix}`);
  parts.push(`introduced: ${op.introduced}`, `groups: ${lit(op.groups)}`);
  lines.push(`  { ${parts.join(', ')},`);
  lines.push('    variants: [');
  for (const v of op.variants) lines.push(`      ${lit(v)},`);
  lines.push('    ],');
  if (op.fields) {
    lines.push(`    fieldGroup: ${lit(op.fieldGroup)},`);
    lines.push('    fields: [');
    for (const f of op.fields) lines.push(`      ${lit(f)},`);
    lines.push('    ],');
  }
  lines.push('  },');
}
lines.push('];');
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${order.length} opcodes to ${out}`);
