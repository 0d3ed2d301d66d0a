import { isAlias, isMap, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import type { JsonSchema } from './schema.js';
import { setOwn } from './expr.js';

/*
 * Checks a YAML node tree against the subset of JSON Schema draft-07 that WORKFLOW_SCHEMA uses
 * (type, properties, required, additionalProperties, propertyNames, items, minItems, enum, const,
 * pattern, minimum, maximum, oneOf, anyOf, $ref to #/definitions). Working on nodes rather than
 * plain values keeps every problem tied to a source range. While checking it builds the plain
 * value, with the keys of declared properties turned into camelCase (`on-update` → `onUpdate`)
 * and user-named keys (accounts, template variables) left alone.
 */

/** A path into a document: keys and indexes. */
export type SchemaPath = Array<string | number>;

/** A schema violation at a path. */
export interface SchemaIssue {
  path: SchemaPath;
  /** Source offsets [start, end) of the offending node. */
  range: [number, number];
  message: string;
}

/** A value checked against one of the named definitions the parser cares about (references, strings with expressions). */
export interface DefinitionUse {
  definition: string;
  path: SchemaPath;
  range: [number, number];
  value: unknown;
}

/** A string value in the document and where it is. */
export interface StringUse {
  path: SchemaPath;
  node: YamlNode;
  value: string;
}

/** A document checked against the schema: its value, issues, and the names and strings it uses. */
export interface CheckResult {
  value: unknown;
  issues: SchemaIssue[];
  uses: DefinitionUse[];
  strings: StringUse[];
}

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** A kebab-case key in camelCase. */
export function camelCase(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function rangeOf(node: YamlNode | null | undefined, fallback: [number, number]): [number, number] {
  const r = node?.range;
  return r ? [r[0], r[1]] : fallback;
}

function nodeType(node: YamlNode | null): JsonType {
  if (node === null || node === undefined) return 'null';
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'bigint') return 'integer';
    if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
    if (typeof v === 'boolean') return 'boolean';
    return 'string';
  }
  return 'null';
}

function describeType(t: JsonType): string {
  return t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : t === 'null' ? 'nothing' : `a${t === 'integer' ? 'n' : ''} ${t}`;
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

/** The closest of the options to a mistyped word, if one is close. */
export function suggest(word: string, options: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const dist = editDistance(word.toLowerCase(), o.toLowerCase());
    if (dist < bestD) {
      bestD = dist;
      best = o;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** Hooks applied to values checked against a named definition (e.g. "10_000" → 10000n for uint). */
export type Converters = Readonly<Record<string, (value: unknown) => unknown>>;

class Checker {
  issues: SchemaIssue[] = [];
  uses: DefinitionUse[] = [];
  strings: StringUse[] = [];

  constructor(
    private readonly root: JsonSchema,
    private readonly doc: Document,
    private readonly converters: Converters,
    private readonly track: ReadonlySet<string>,
  ) {}

  private resolve(node: YamlNode | null): YamlNode | null {
    if (node && isAlias(node)) return (node.resolve(this.doc) as YamlNode | undefined) ?? null;
    return node;
  }

  private deref(schema: JsonSchema): { schema: JsonSchema; name?: string } {
    if (!schema.$ref) return { schema };
    const m = /^#\/definitions\/(.+)$/.exec(schema.$ref);
    const target = m ? this.root.definitions?.[m[1]!] : undefined;
    if (!target) throw new Error(`schema has a dangling $ref ${schema.$ref}`);
    return { schema: target, name: m![1]! };
  }

  /** Plain value of a node; strings are recorded so expressions inside them get parsed. */
  plain(node: YamlNode | null, path: SchemaPath): unknown {
    node = this.resolve(node);
    if (node === null || node === undefined) return null;
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const k = this.resolve(pair.key as YamlNode | null);
        const key = isScalar(k) ? String(k.value) : String(k);
        setOwn(out, key, this.plain(pair.value as YamlNode | null, [...path, key]));
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((n, i) => this.plain(n as YamlNode | null, [...path, i]));
    if (isScalar(node)) {
      if (typeof node.value === 'string') this.strings.push({ path, node, value: node.value });
      return node.value;
    }
    return null;
  }

  private typeMatches(schema: JsonSchema, actual: JsonType): boolean {
    const { schema: s } = this.deref(schema);
    if (s.type === undefined) {
      if (s.anyOf) return s.anyOf.some((b) => this.typeMatches(b, actual));
      if (s.oneOf && s.oneOf.every((b) => b.type !== undefined || b.$ref !== undefined)) return s.oneOf.some((b) => this.typeMatches(b, actual));
      return true;
    }
    const types = Array.isArray(s.type) ? s.type : [s.type];
    return types.includes(actual) || (actual === 'integer' && types.includes('number'));
  }

  private trial(schema: JsonSchema, node: YamlNode | null, path: SchemaPath, parent: [number, number]): Checker & { result: unknown } {
    const sub = new Checker(this.root, this.doc, this.converters, this.track) as Checker & { result: unknown };
    sub.result = sub.check(schema, node, path, parent);
    return sub;
  }

  private adopt(sub: Checker): void {
    this.issues.push(...sub.issues);
    this.uses.push(...sub.uses);
    this.strings.push(...sub.strings);
  }

  check(schemaIn: JsonSchema, nodeIn: YamlNode | null, path: SchemaPath, parent: [number, number]): unknown {
    const node = this.resolve(nodeIn);
    const { schema, name } = this.deref(schemaIn);
    const range = rangeOf(node, parent);
    const issue = (message: string, at: [number, number] = range) => this.issues.push({ path, range: at, message });
    const actual = nodeType(node);
    let value: unknown;

    const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
    const unions = schema.anyOf ?? (schema.oneOf && schema.oneOf.every((b) => b.type !== undefined || b.$ref !== undefined) ? schema.oneOf : undefined);

    if (types && !(types.includes(actual) || (actual === 'integer' && types.includes('number')))) {
      const hint =
        types.includes('string') && (actual === 'integer' || actual === 'number' || actual === 'boolean')
          ? ' (YAML read it as that; quote it to make it text)'
          : '';
      issue(
        `expected ${types.map((t) => describeType(t as JsonType)).join(' or ')}, got ${describeType(actual)}${actual === 'string' ? ` ${JSON.stringify(String((node as { value?: unknown })?.value ?? '')).slice(0, 60)}` : ''}${hint}`,
      );
      return this.plain(node, path);
    }

    if (!types && unions) {
      // Typed alternatives: pick by the node's type so errors come from the branch the user meant.
      const candidates = unions.filter((b) => this.typeMatches(b, actual));
      if (candidates.length === 0) {
        const wanted = [...new Set(unions.flatMap((b) => this.expectedTypes(b)))].map((t) => describeType(t as JsonType));
        issue(`expected ${wanted.join(' or ')}, got ${describeType(actual)}`);
        return this.plain(node, path);
      }
      let best: (Checker & { result: unknown }) | undefined;
      for (const c of candidates) {
        const t = this.trial(c, node, path, parent);
        if (t.issues.length === 0) {
          best = t;
          break;
        }
        if (!best || t.issues.length < best.issues.length) best = t;
      }
      if (best!.issues.length > 0 && candidates.length > 1) {
        // Neither alternative fits; describe the whole definition rather than one branch's detail.
        const plainValue = this.plain(node, path);
        issue(
          `${JSON.stringify(plainValue, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))?.slice(0, 60)} is not valid here: ${schemaIn.description ?? schema.description ?? 'no alternative matches'}`,
        );
        return plainValue;
      }
      this.adopt(best!);
      value = best!.result;
    } else if (actual === 'object' && isMap(node)) {
      value = this.checkMap(schema, node, path, range);
    } else if (actual === 'array' && isSeq(node)) {
      const out: unknown[] = [];
      if (schema.minItems !== undefined && node.items.length < schema.minItems)
        issue(`needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
      node.items.forEach((item, i) => {
        out.push(schema.items ? this.check(schema.items, item as YamlNode | null, [...path, i], range) : this.plain(item as YamlNode | null, [...path, i]));
      });
      value = out;
    } else {
      value = this.plain(node, path);
      if (types) this.checkScalar(schema, value, issue);
    }

    if (name && this.track.has(name)) this.uses.push({ definition: name, path, range, value });
    const conv = name ? this.converters[name] : undefined;
    return conv ? conv(value) : value;
  }

  private expectedTypes(schema: JsonSchema): string[] {
    const { schema: s } = this.deref(schema);
    if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
    return (s.anyOf ?? s.oneOf ?? []).flatMap((b) => this.expectedTypes(b));
  }

  private checkScalar(schema: JsonSchema, value: unknown, issue: (m: string) => void): void {
    if (schema.enum && !schema.enum.some((e) => e === value)) {
      const hint = typeof value === 'string' ? suggest(value, schema.enum.map(String)) : undefined;
      issue(
        `${JSON.stringify(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}`,
      );
    }
    if (schema.const !== undefined && value !== schema.const) issue(`must be ${JSON.stringify(schema.const)}`);
    if (schema.pattern && typeof value === 'string' && !new RegExp(schema.pattern, 's').test(value)) {
      issue(`${JSON.stringify(value).slice(0, 60)} is not valid here: ${schema.description ?? `must match ${schema.pattern}`}`);
    }
    if ((typeof value === 'bigint' || typeof value === 'number') && schema.minimum !== undefined && value < schema.minimum)
      issue(`must be at least ${schema.minimum}, got ${value}`);
    if ((typeof value === 'bigint' || typeof value === 'number') && schema.maximum !== undefined && value > schema.maximum)
      issue(`must be at most ${schema.maximum}, got ${value}`);
  }

  private checkMap(schema: JsonSchema, node: import('yaml').YAMLMap, path: SchemaPath, range: [number, number]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const props = schema.properties ?? {};
    const present = new Set<string>();
    for (const pair of node.items) {
      const keyNode = this.resolve(pair.key as YamlNode | null);
      const key = isScalar(keyNode) ? String(keyNode.value) : '';
      const keyRange = rangeOf(keyNode, range);
      const valueNode = pair.value as YamlNode | null;
      present.add(key);
      const sub = props[key];
      if (sub) {
        setOwn(out, camelCase(key), this.check(sub, valueNode, [...path, key], keyRange));
        continue;
      }
      if (schema.propertyNames?.pattern && !new RegExp(schema.propertyNames.pattern).test(key)) {
        this.issues.push({
          path: [...path, key],
          range: keyRange,
          message: `${JSON.stringify(key)} is not a valid name (letters, digits, _ and -, starting with a letter or _)`,
        });
      }
      if (schema.additionalProperties === false || (schema.additionalProperties === undefined && schema.properties)) {
        const known = Object.keys(props);
        const hint = suggest(key, known);
        this.issues.push({
          path: [...path, key],
          range: keyRange,
          message: `unknown key ${JSON.stringify(key)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : `; expected ${known.join(', ')}`}`,
        });
        continue;
      }
      setOwn(
        out,
        key,
        typeof schema.additionalProperties === 'object'
          ? this.check(schema.additionalProperties, valueNode, [...path, key], keyRange)
          : this.plain(valueNode, [...path, key]),
      );
    }
    for (const req of schema.required ?? []) if (!present.has(req)) this.issues.push({ path, range, message: `missing ${JSON.stringify(req)}` });
    // Key-presence alternatives ("exactly one of these keys").
    const keyAlternatives = (list: JsonSchema[] | undefined) => list && list.every((b) => b.required && !b.type && !b.$ref && !b.properties);
    if (schema.oneOf && keyAlternatives(schema.oneOf)) {
      const matching = schema.oneOf.filter((b) => b.required!.every((k) => present.has(k)));
      const names = schema.oneOf.map((b) => b.required!.join(' + '));
      const hasUnknown = [...present].some((k) => !props[k]);
      if (matching.length === 0 && !hasUnknown) this.issues.push({ path, range, message: `needs one of: ${names.join(', ')}` });
      if (matching.length > 1)
        this.issues.push({
          path,
          range,
          message: `has ${matching.map((b) => JSON.stringify(b.required!.join(' + '))).join(' and ')}; use exactly one of them`,
        });
    }
    if (schema.anyOf && keyAlternatives(schema.anyOf)) {
      if (!schema.anyOf.some((b) => b.required!.every((k) => present.has(k)))) {
        this.issues.push({ path, range, message: `needs ${schema.anyOf.map((b) => b.required!.map((k) => JSON.stringify(k)).join(' and ')).join(', or ')}` });
      }
    }
    return out;
  }
}

/** Checks the document's root node against `schema`. */
export function checkAgainstSchema(schema: JsonSchema, doc: Document, options: { converters?: Converters; track?: readonly string[] } = {}): CheckResult {
  const c = new Checker(schema, doc, options.converters ?? {}, new Set(options.track ?? []));
  const value = c.check(schema, (doc.contents as YamlNode | null) ?? null, [], [0, 0]);
  return { value, issues: c.issues, uses: c.uses, strings: c.strings };
}
