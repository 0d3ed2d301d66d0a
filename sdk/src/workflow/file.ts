import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { isValidAddress } from '../encoding/address.js';
import { ExprError, ExprPathError, WorkflowFileError, type FilePosition, type WorkflowIssue } from './errors.js';
import { hasTemplate, parseTemplate, references, setOwn, toExprValue, evaluateTemplate, type ExprScope, type ExprValue } from './expr.js';
import { COMMON_STEP_OUTPUTS, STEP_OUTPUTS, type AccountSource, type AccountSpec, type ContractSpec, type NetworkSpec, type WorkflowStep } from './model.js';
import { WORKFLOW_SCHEMA, STEP_KIND_NAMES, type StepKind } from './schema.js';
import { camelCase, checkAgainstSchema, suggest, type SchemaPath } from './schema-check.js';

/** A parsed, validated workflow file. */
export interface Workflow {
  file: string;
  name?: string;
  network: NetworkSpec;
  /** Checkpoints are kept per this key (the network name, or the custom network's name/node URL). */
  networkKey: string;
  vars: Record<string, unknown>;
  accounts: Record<string, AccountSpec>;
  contracts: Record<string, ContractSpec>;
  steps: WorkflowStep[];
  /** Problems that do not stop a run. */
  warnings: WorkflowIssue[];
  /** Source position of the value at a path (`['steps', 2, 'call', 'method']`), for run-time errors. */
  position(path: SchemaPath): FilePosition;
  /** Source position of a character offset inside the string at `path` (as ExprError reports). */
  positionInString(path: SchemaPath, offset: number): FilePosition;
}

/** A parsed workflow (when it has no errors) and every issue found. */
export interface ParseResult {
  workflow?: Workflow;
  /** Every problem, errors and warnings, in file order. */
  issues: WorkflowIssue[];
}

/** Roots expressions may read. `steps` only inside steps; `env` is the process environment. */
export const EXPRESSION_ROOTS = ['steps', 'accounts', 'contracts', 'vars', 'env', 'network'] as const;

const ACCOUNT_SOURCES: readonly AccountSource[] = ['generate', 'mnemonic-env', 'kmd', 'keystore', 'address'];

function pathText(path: SchemaPath): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}

/** Turns `10_000`-style digit strings in uint positions into bigints. */
const converters = {
  uint: (v: unknown) => (typeof v === 'string' && /^[0-9][0-9_]*$/.test(v) ? BigInt(v.replace(/_/g, '')) : v),
};

/** How to check file references while parsing a workflow. */
export interface ParseOptions {
  /**
   * Called with each contract file path (approval, clear, spec) resolved against the workflow's
   * folder; return false to report it missing. Leave out to skip the check (e.g. in tests).
   */
  fileExists?: (path: string) => boolean;
}

/** A contract file path as the engine should open it: relative paths are relative to the workflow file. */
export function contractFilePath(workflowFile: string, path: string): string {
  return isAbsolute(path) ? path : resolvePath(dirname(workflowFile), path);
}

/**
 * The ARC-56 spec beside a TEAL program: `<stem>.arc56.json` (for `x.teal` or `x.approval.teal`),
 * else the only `*.arc56.json` in its folder; undefined when there is none (or the folder cannot
 * be read). The editor and the language server both look specs up this way.
 */
export function specBeside(tealPath: string): string | undefined {
  const dir = dirname(tealPath);
  const stem = basename(tealPath).replace(/\.(approval\.)?teal$/, '');
  const named = join(dir, `${stem}.arc56.json`);
  if (existsSync(named)) return named;
  try {
    const all = readdirSync(dir).filter((f) => f.endsWith('.arc56.json'));
    return all.length === 1 ? join(dir, all[0]!) : undefined;
  } catch {
    return undefined;
  }
}

/** Values a workflow file may hold once its YAML aliases are expanded (far above any real workflow). */
export const MAX_WORKFLOW_YAML_VALUES = 50_000;
/** Deepest nesting of maps and lists a workflow file may have. */
export const MAX_WORKFLOW_YAML_DEPTH = 200;

/**
 * Refuses YAML that would expand beyond reason before anything resolves it: an alias that refers
 * to the anchor it sits in (a self-referencing structure), aliases that expand to more than
 * {@link MAX_WORKFLOW_YAML_VALUES} values (a "billion laughs" bomb, however small the file), or
 * nesting deeper than {@link MAX_WORKFLOW_YAML_DEPTH}. Sizes are memoized per node, so the check
 * costs one pass over the file as written, not over its expansion.
 */
function yamlExpansionProblem(doc: Document): { range: [number, number]; message: string } | undefined {
  const sizes = new Map<unknown, number>();
  const open = new Set<unknown>();
  let problem: { range: [number, number]; message: string } | undefined;
  const size = (node: unknown, depth: number, via: YamlNode | undefined): number => {
    if (problem || node === null || typeof node !== 'object') return 1;
    if (isAlias(node)) {
      const target = node.resolve(doc);
      if (!target) return 1;
      if (open.has(target)) {
        problem = {
          range: rangeOr(node),
          message: `the alias *${node.source} refers to its own anchor &${node.source}, making the value contain itself; a workflow cannot hold a self-referencing value: write the nested value out`,
        };
        return 0;
      }
      return size(target, depth, via ?? node);
    }
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (depth > MAX_WORKFLOW_YAML_DEPTH) {
      problem = {
        range: rangeOr(via ?? (node as YamlNode)),
        message: `values are nested more than ${MAX_WORKFLOW_YAML_DEPTH} levels deep; a workflow does not need that, flatten the file`,
      };
      return 0;
    }
    let n = 1;
    if (isMap(node) || isSeq(node)) {
      open.add(node);
      for (const item of node.items as unknown[]) {
        n += isPair(item) ? size(item.key, depth + 1, via) + size(item.value, depth + 1, via) : size(item, depth + 1, via);
        if (problem) break;
        if (n > MAX_WORKFLOW_YAML_VALUES) {
          problem = {
            range: rangeOr(via ?? (node as YamlNode)),
            message: `YAML aliases (*name) here expand to more than ${MAX_WORKFLOW_YAML_VALUES} values (an "alias bomb"); the file was not read further. Repeat the values you need instead of nesting aliases of aliases`,
          };
          break;
        }
      }
      open.delete(node);
    }
    sizes.set(node, n);
    return n;
  };
  size(doc.contents, 0, undefined);
  return problem;
}

/** Parses and checks a workflow file; never throws for bad input (see `issues`). */
export function parseWorkflow(text: string, file = 'tealworks.yaml', options: ParseOptions = {}): ParseResult {
  try {
    return parseWorkflowText(text, file, options);
  } catch (e) {
    // Nothing in a file may escape as an exception; this is the last guard, not the usual path.
    const message =
      e instanceof RangeError
        ? 'the file is nested or aliased too deeply to read'
        : `the file could not be read (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
    return { issues: [{ file, line: 1, column: 1, message, path: '', severity: 'error' }] };
  }
}

function parseWorkflowText(text: string, file: string, options: ParseOptions): ParseResult {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, intAsBigInt: true, prettyErrors: false, uniqueKeys: true });
  const issues: WorkflowIssue[] = [];
  const pos = (offset: number, end?: number): FilePosition => {
    const a = lc.linePos(offset);
    const out: FilePosition = { file, line: a.line, column: a.col };
    if (end !== undefined) {
      const b = lc.linePos(end);
      out.endLine = b.line;
      out.endColumn = b.col;
    }
    return out;
  };
  const add = (range: [number, number], message: string, path: SchemaPath, severity: 'error' | 'warning' = 'error') =>
    issues.push({ ...pos(range[0], range[1]), message, path: pathText(path), severity });

  for (const e of [...doc.errors, ...doc.warnings]) {
    const lineText = text.split(/\r?\n/)[lc.linePos(e.pos[0]).line - 1] ?? '';
    let message = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    if (/call stack/i.test(message))
      message = `values are nested too deeply to read (more than ${MAX_WORKFLOW_YAML_DEPTH} levels is refused); flatten the file`;
    if (lineText.includes('${{') && /flow|Unexpected|Implicit/.test(message)) message += ' — inside { } or [ ], put ${{ … }} expressions in quotes';
    add([e.pos[0], e.pos[1]], message, [], doc.errors.includes(e as never) ? 'error' : 'warning');
  }
  if (doc.errors.length > 0) return { issues: sortIssues(issues) };
  if (doc.contents === null) {
    add([0, 0], 'the file is empty; a workflow needs at least `steps`', []);
    return { issues };
  }
  const bomb = yamlExpansionProblem(doc as Document);
  if (bomb) {
    add(bomb.range, bomb.message, []);
    return { issues: sortIssues(issues) };
  }

  const checked = checkAgainstSchema(WORKFLOW_SCHEMA, doc as Document, { converters, track: ['accountRef', 'contractRef', 'addressRef'] });
  for (const i of checked.issues) add(i.range, i.message, i.path);
  const root = (checked.value ?? {}) as Record<string, unknown>;

  // Model.
  const accounts: Record<string, AccountSpec> = {};
  for (const [name, raw] of Object.entries((root.accounts as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    if (typeof raw !== 'object' || raw === null) continue;
    const source = ACCOUNT_SOURCES.find((s) => raw[s === 'mnemonic-env' ? 'mnemonicEnv' : s] !== undefined) ?? 'generate';
    accounts[name] = { name, source, ...(raw as object) } as AccountSpec;
  }
  const contracts: Record<string, ContractSpec> = {};
  for (const [key, raw] of Object.entries((root.contracts as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    if (typeof raw !== 'object' || raw === null) continue;
    contracts[key] = { key, appName: typeof raw.name === 'string' ? raw.name : key, template: {}, ...(raw as object) } as ContractSpec;
  }
  const vars = (root.vars as Record<string, unknown> | undefined) ?? {};
  const network = toNetwork(root.network);

  const steps: WorkflowStep[] = [];
  const stepIds = new Map<string, number>();
  const rawSteps = Array.isArray(root.steps) ? (root.steps as Array<Record<string, unknown>>) : [];
  rawSteps.forEach((raw, index) => {
    if (typeof raw !== 'object' || raw === null) return;
    const kind = STEP_KIND_NAMES.find((k) => raw[k] !== undefined);
    const explicitId = typeof raw.id === 'string';
    const id = explicitId ? (raw.id as string) : `step-${index + 1}`;
    const seen = stepIds.get(id);
    if (seen !== undefined) {
      const node = doc.getIn(['steps', index, explicitId ? 'id' : ''], true) as YamlNode | undefined;
      add(
        rangeOr(node ?? (doc.getIn(['steps', index], true) as YamlNode | undefined)),
        `duplicate step id ${JSON.stringify(id)} (first used by step ${seen + 1})`,
        ['steps', index, 'id'],
      );
    } else stepIds.set(id, index);
    if (!kind) return;
    steps.push({
      index,
      id,
      explicitId,
      ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
      ...(typeof raw.if === 'string' ? { if: raw.if } : {}),
      continueOnError: raw.continueOnError === true,
      kind,
      body: raw[kind],
    } as WorkflowStep);
  });
  const stepById = new Map(steps.map((s) => [s.id, s]));

  // References to accounts, contracts and addresses.
  for (const use of checked.uses) {
    const v = use.value;
    if (typeof v !== 'string' || hasTemplate(v)) continue;
    if (use.definition === 'accountRef' && !accounts[v]) {
      const hint = suggest(v, Object.keys(accounts));
      add(
        use.range,
        `unknown account ${JSON.stringify(v)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : `; defined accounts: ${Object.keys(accounts).join(', ') || 'none'}`}`,
        use.path,
      );
    } else if (use.definition === 'contractRef' && !contracts[v]) {
      const hint = suggest(v, Object.keys(contracts));
      add(
        use.range,
        `unknown contract ${JSON.stringify(v)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : `; defined contracts: ${Object.keys(contracts).join(', ') || 'none'}`}`,
        use.path,
      );
    } else if (use.definition === 'addressRef' && !accounts[v] && !isValidAddress(v)) {
      add(use.range, `${JSON.stringify(v)} is neither a defined account nor a valid address`, use.path);
    }
  }

  // Expressions: syntax, and what they refer to.
  for (const s of checked.strings) {
    if (!hasTemplate(s.value)) continue;
    const base = stringBase(s.node);
    let template;
    try {
      template = parseTemplate(s.value);
    } catch (e) {
      if (!(e instanceof ExprError)) throw e;
      add([base + e.offset, base + e.offset + e.length], e.detail, s.path);
      continue;
    }
    const stepIndex = s.path[0] === 'steps' && typeof s.path[1] === 'number' ? s.path[1] : undefined;
    for (const part of template.parts) {
      if (typeof part === 'string') continue;
      for (const ref of references(part.node)) {
        const at: [number, number] = [base + part.node.start, base + part.node.end];
        const problem = checkReference(ref, stepIndex, { accounts, contracts, vars, stepById, stepIds });
        if (problem) add(at, problem, s.path);
      }
    }
  }

  if (options.fileExists) {
    for (const c of Object.values(contracts)) {
      for (const field of ['approval', 'clear', 'spec', 'logicsig'] as const) {
        const rel = c[field];
        if (typeof rel !== 'string' || hasTemplate(rel)) continue;
        if (!options.fileExists(contractFilePath(file, rel))) {
          add(
            rangeOr(doc.getIn(['contracts', c.key, field], true) as YamlNode | undefined),
            `file not found: ${rel} (looked in ${dirname(contractFilePath(file, rel))})`,
            ['contracts', c.key, field],
          );
        }
      }
    }
  }

  // `if` must be one expression: text around it would make the condition always true.
  for (const step of steps) {
    if (step.if === undefined) continue;
    try {
      if (!parseTemplate(step.if).whole)
        add(rangeOr(doc.getIn(['steps', step.index, 'if'], true) as YamlNode | undefined), '"if" must be a single ${{ … }} expression with nothing around it', [
          'steps',
          step.index,
          'if',
        ]);
    } catch {
      // Syntax errors were reported above.
    }
  }

  if (network.kind === 'named' && (network.name === 'testnet' || network.name === 'mainnet')) {
    for (const a of Object.values(accounts)) {
      if (a.source === 'generate')
        add(
          rangeOr(doc.getIn(['accounts', a.name], true) as YamlNode | undefined),
          `account ${JSON.stringify(a.name)} uses "generate", which only works on devnet and localnet (nothing funds it on ${network.name})`,
          ['accounts', a.name],
        );
    }
  }

  const sorted = sortIssues(issues);
  if (sorted.some((i) => i.severity === 'error')) return { issues: sorted };

  const position = (path: SchemaPath): FilePosition => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as YamlNode | undefined;
      if (node?.range) return pos(node.range[0], node.range[1]);
    }
    return { file, line: 1, column: 1 };
  };
  const workflow: Workflow = {
    file,
    ...(typeof root.name === 'string' ? { name: root.name } : {}),
    network,
    networkKey: network.name,
    vars,
    accounts,
    contracts,
    steps,
    warnings: sorted.filter((i) => i.severity === 'warning'),
    position,
    positionInString: (path, offset) => {
      const node = doc.getIn(path, true) as YamlNode | undefined;
      return node?.range ? pos(stringBase(node) + offset) : position(path);
    },
  };
  return { workflow, issues: sorted };
}

/** Parses a workflow file or throws WorkflowFileError listing every problem. */
export function loadWorkflow(text: string, file = 'tealworks.yaml', options: ParseOptions = {}): Workflow {
  const { workflow, issues } = parseWorkflow(text, file, options);
  if (!workflow) throw new WorkflowFileError(issues);
  return workflow;
}

/** Whether a file name is one the workflow runner and the editor treat as a workflow. */
export function isWorkflowFileName(name: string): boolean {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base === 'tealworks.yaml' || base === 'tealworks.yml' || /\.workflow\.ya?ml$/.test(base);
}

function rangeOr(node: YamlNode | undefined | null): [number, number] {
  return node?.range ? [node.range[0], node.range[1]] : [0, 0];
}

/** Offset in the file of the first character of a scalar's value (after an opening quote). */
function stringBase(node: YamlNode): number {
  const start = node.range?.[0] ?? 0;
  if (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) return start + 1;
  return start;
}

function sortIssues(issues: WorkflowIssue[]): WorkflowIssue[] {
  return [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
}

function toNetwork(raw: unknown): NetworkSpec {
  if (raw === undefined || raw === null) return { kind: 'named', name: 'devnet' };
  if (typeof raw === 'string') return { kind: 'named', name: raw as 'devnet' };
  const o = raw as Record<string, string>;
  return { kind: 'custom', ...o, name: o.name ?? o.node ?? 'custom' } as NetworkSpec;
}

function checkReference(
  ref: string[],
  stepIndex: number | undefined,
  ctx: {
    accounts: Record<string, unknown>;
    contracts: Record<string, unknown>;
    vars: Record<string, unknown>;
    stepById: Map<string, WorkflowStep>;
    stepIds: Map<string, number>;
  },
): string | undefined {
  const [root, name, field] = ref;
  if (!(EXPRESSION_ROOTS as readonly string[]).includes(root!)) {
    const hint = suggest(root!, EXPRESSION_ROOTS);
    return `unknown name ${JSON.stringify(root)} in expression${hint ? `; did you mean ${JSON.stringify(hint)}?` : `; use one of ${EXPRESSION_ROOTS.join(', ')}`}`;
  }
  if (name === undefined) return undefined;
  const known = (what: string, table: Record<string, unknown>) => {
    if (Object.prototype.hasOwnProperty.call(table, name)) return undefined;
    const hint = suggest(name, Object.keys(table));
    return `no ${what} named ${JSON.stringify(name)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}`;
  };
  switch (root) {
    case 'accounts':
      return known('account', ctx.accounts) ?? (field !== undefined && field !== 'address' ? `accounts.${name} has only "address"` : undefined);
    case 'contracts':
      return known('contract', ctx.contracts);
    case 'vars':
      return known('variable in vars', ctx.vars);
    case 'steps': {
      if (stepIndex === undefined) return 'step results (steps.…) can only be used inside steps';
      const at = ctx.stepIds.get(name);
      if (at === undefined) {
        const hint = suggest(name, [...ctx.stepIds.keys()]);
        return `no step with id ${JSON.stringify(name)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}`;
      }
      if (at >= stepIndex)
        return at === stepIndex ? `a step cannot read its own results (steps.${name})` : `step ${JSON.stringify(name)} runs after this one (step ${at + 1})`;
      const step = ctx.stepById.get(name);
      if (step && field !== undefined) {
        const outputs = [...STEP_OUTPUTS[step.kind as StepKind], ...COMMON_STEP_OUTPUTS];
        if (!outputs.includes(field)) {
          const hint = suggest(field, outputs);
          return `a ${step.kind} step has no output ${JSON.stringify(field)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : `; it has ${outputs.join(', ')}`}`;
        }
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Resolves every `${{ … }}` in a step's (or any) value: whole-expression strings become the
 * expression's value, others become text; integers stay bigint. The result is what the engine
 * executes and what checkpoints hash.
 */
export function resolveValue(value: unknown, scope: ExprScope, path: SchemaPath = []): ExprValue {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return value;
    try {
      return evaluateTemplate(parseTemplate(value), scope);
    } catch (e) {
      if (e instanceof ExprError && !(e instanceof ExprPathError)) throw new ExprPathError(e, path);
      throw e;
    }
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveValue(v, scope, [...path, i]));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, ExprValue> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) setOwn(out, k, resolveValue(v, scope, [...path, k]));
    return out;
  }
  return toExprValue(value);
}

/**
 * Resolves a step's body. ExprPathError paths are file paths (`steps.N.kind.…`, YAML spelling of
 * keys), ready for Workflow.positionInString.
 */
export function resolveStepBody(step: WorkflowStep, scope: ExprScope): ExprValue {
  try {
    return resolveValue(step.body, scope, ['steps', step.index, step.kind]);
  } catch (e) {
    if (e instanceof ExprPathError)
      throw new ExprPathError(
        e,
        e.path.map((p) => (typeof p === 'string' ? kebabCase(p) : p)),
      );
    throw e;
  }
}

let declaredKeys: Map<string, string> | undefined;

/** Back from the model's camelCase to the YAML spelling, for declared keys only (user-named keys stay). */
function kebabCase(key: string): string {
  if (!declaredKeys) {
    declaredKeys = new Map();
    const walk = (s: unknown) => {
      if (typeof s !== 'object' || s === null) return;
      const o = s as Record<string, unknown>;
      for (const k of Object.keys((o.properties as object | undefined) ?? {})) declaredKeys!.set(camelCase(k), k);
      for (const v of Object.values(o)) if (typeof v === 'object') walk(v);
    };
    walk(WORKFLOW_SCHEMA);
  }
  return declaredKeys.get(key) ?? key;
}
