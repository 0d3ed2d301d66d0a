// `tealworks test [--runner mocha|vitest|node] [runner args…]`: runs a project's contract tests
// with the runner the project already uses.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ReportSession } from '../../app/report-session.js';
import { toLcov, toCoverageHtml, coverageTotals } from '../../app/coverage.js';
import { budgetSnapshotText, checkBudget, formatBudgetReport, parseBudgetSnapshot } from '../../app/budget-report.js';
import { REPORT_DIR_ENV } from '../../testing/fixture.js';
import { UsageError, type CliIo, type Command } from '../command.js';

const USAGE = `tealworks test [--runner mocha|vitest|node] [--coverage] [--coverage-dir DIR] [--budget]
               [--budget-snapshot FILE] [--budget-check FILE] [-- runner arguments…]
  Runs the project's tests with its own runner: vitest or mocha when package.json depends on
  them, else node's built-in runner (node --test). Tests use @tealworks/sdk/testing (docs/testing.md).
  With no test files named (and, for mocha, no .mocharc), runs every *.test / *.spec file
  (.ts .mts .js .mjs .cjs) outside node_modules; TypeScript files load through the project's tsx.
  --coverage             every program the fixtures' chains run (top-level, inner, logic sigs) counts:
                         writes DIR/lcov.info and DIR/index.html (DIR: --coverage-dir, default coverage)
  --budget               prints opcode budget, op-ups, fees, min-balance change and size per method
  --budget-snapshot FILE writes that report to FILE
  --budget-check FILE    fails (exit 1) with a diff when a figure grew against FILE`;

/** A test runner `tealworks test` delegates to. */
export type Runner = 'mocha' | 'vitest' | 'node';

/** Which runner a project uses, from its package.json (vitest, then mocha, else node:test). */
export function detectRunner(cwd: string): Runner {
  const file = join(cwd, 'package.json');
  if (!existsSync(file)) return 'node';
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`${file} is not valid JSON`);
  }
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (deps.vitest) return 'vitest';
  if (deps.mocha) return 'mocha';
  return 'node';
}

/** The command line that runs the tests with `runner`. */
export function runnerCommand(runner: Runner, args: string[]): { command: string; args: string[] } {
  switch (runner) {
    case 'vitest':
      return { command: 'npx', args: ['--no-install', 'vitest', 'run', ...args] };
    case 'mocha':
      return { command: 'npx', args: ['--no-install', 'mocha', ...args] };
    case 'node':
      return { command: process.execPath, args: ['--test', ...args] };
  }
}

const TEST_FILE = /\.(test|spec)\.(ts|mts|cts|js|mjs|cjs)$/;
const TYPESCRIPT_FILE = /\.(ts|mts|cts)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'out', 'coverage']);

/**
 * The test files of a project, relative to `cwd` and sorted: `*.test.*` and `*.spec.*` files
 * (TypeScript or JavaScript) outside `node_modules`, build output and dot-folders.
 */
export function findTestFiles(cwd: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (depth < 8 && !e.name.startsWith('.') && !SKIPPED_FOLDERS.has(e.name)) walk(join(dir, e.name), depth + 1);
      } else if (e.isFile() && TEST_FILE.test(e.name)) found.push(relative(cwd, join(dir, e.name)));
    }
  };
  walk(cwd, 0);
  return found.sort();
}

/** Whether the project configures mocha itself (a .mocharc file or a "mocha" key in package.json). */
function hasMochaConfig(cwd: string): boolean {
  if (['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yaml', '.mocharc.yml'].some((f) => existsSync(join(cwd, f))))
    return true;
  try {
    return 'mocha' in (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as object);
  } catch {
    return false;
  }
}

/** Whether `tsx` is installed for the project (in its node_modules or a parent's). */
function hasTsx(cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The runner arguments after what `tealworks test` adds: the project's test files when none are
 * named, and the tsx loader when TypeScript files run under mocha or node and no loader is given.
 */
export function prepareRunnerArgs(runner: Runner, cwd: string, args: string[]): string[] {
  if (runner === 'vitest') return args; // vitest finds and compiles its own files
  if (runner === 'mocha' && hasMochaConfig(cwd)) return args; // the project's .mocharc says what to run and how
  const named = args.filter((a) => !a.startsWith('-') && (/[*?{]/.test(a) || existsSync(isAbsolute(a) ? a : resolve(cwd, a))));
  let files: string[] = [];
  if (named.length === 0) {
    files = findTestFiles(cwd);
    if (files.length === 0) {
      throw new UsageError(
        `found no test files under ${cwd} (looked for *.test.ts, *.spec.ts, *.test.js … outside node_modules); name them after --, e.g. tealworks test -- test/app.test.ts`,
      );
    }
  }
  const typescript = [...named, ...files].some((f) => TYPESCRIPT_FILE.test(f) || /[*?{]/.test(f));
  const loaderGiven = args.some((a) => /tsx|ts-node|strip-types|--loader|--experimental-loader/.test(a));
  const loader: string[] = [];
  if (typescript && !loaderGiven && !(process.features as { typescript?: unknown }).typescript) {
    if (hasTsx(cwd)) loader.push('--import=tsx');
    else if ([...named, ...files].some((f) => TYPESCRIPT_FILE.test(f))) {
      throw new UsageError(
        `TypeScript test files need a loader on Node ${process.versions.node}: install tsx in the project (npm install --save-dev tsx), or pass your own after -- (e.g. -- --import tsx)`,
      );
    }
  }
  return [...loader, ...args, ...files];
}

export const testCommand: Command = {
  name: 'test',
  summary: "Run the project's contract tests with its own runner (mocha, vitest or node --test)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    let runner: Runner | undefined;
    const rest: string[] = [];
    let coverage = false;
    let coverageDir = 'coverage';
    let budget = false;
    let snapshotFile: string | undefined;
    let checkFile: string | undefined;
    const value = (i: number, flag: string): string => {
      const v = args[i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--runner') {
        const v = args[++i];
        if (v !== 'mocha' && v !== 'vitest' && v !== 'node') throw new UsageError('--runner is mocha, vitest or node');
        runner = v;
      } else if (a === '--coverage') coverage = true;
      else if (a === '--coverage-dir') {
        coverageDir = value(++i, a);
        coverage = true;
      } else if (a === '--budget') budget = true;
      else if (a === '--budget-snapshot') snapshotFile = value(++i, a);
      else if (a === '--budget-check') checkFile = value(++i, a);
      else if (a === '--') {
        rest.push(...args.slice(i + 1));
        i = args.length;
      } else rest.push(a);
    }
    const at = (p: string): string => (isAbsolute(p) ? p : resolve(io.cwd, p));
    const snapshot = checkFile !== undefined ? readSnapshot(at(checkFile)) : undefined;
    const reporting = coverage || budget || snapshotFile !== undefined || checkFile !== undefined;
    const reportDir = reporting ? mkdtempSync(join(tmpdir(), 'tealworks-test-report-')) : undefined;
    const chosen = runner ?? detectRunner(io.cwd);
    const { command, args: argv } = runnerCommand(chosen, prepareRunnerArgs(chosen, io.cwd, rest));
    const code = await new Promise<number>((done) => {
      const child = spawn(command, argv, {
        cwd: io.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: reportDir ? { ...process.env, [REPORT_DIR_ENV]: reportDir } : process.env,
      });
      child.stdout.on('data', (d: Buffer) => io.stdout(d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => io.stderr(d.toString('utf8')));
      child.on('error', (e) => {
        io.stderr(`tealworks test: could not start ${chosen} (${e.message}); install it in the project or pick another with --runner\n`);
        done(2);
      });
      child.on('close', (c) => done(c ?? 1));
    });
    if (!reportDir) return code;
    try {
      const session = new ReportSession();
      for (const f of readdirSync(reportDir)
        .filter((n) => n.endsWith('.json'))
        .sort())
        session.mergeJSON(readFileSync(join(reportDir, f), 'utf8'));
      let status = code;
      if (coverage) {
        const report = session.coverage.report();
        const rel = (f: string): string => (isAbsolute(f) ? relative(io.cwd, f) : f);
        const named = { ...report, files: report.files.map((f) => ({ ...f, file: rel(f.file) })) };
        const dir = at(coverageDir);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'lcov.info'), toLcov(named));
        writeFileSync(
          join(dir, 'index.html'),
          toCoverageHtml(named, (f) => {
            try {
              return readFileSync(at(f), 'utf8');
            } catch {
              return undefined;
            }
          }),
        );
        const t = coverageTotals(named);
        io.stdout(
          `coverage: ${t.linesHit}/${t.lines} lines, ${t.branchesHit}/${t.branches} branches in ${named.files.length} file(s); ${relative(io.cwd, join(dir, 'lcov.info')) || 'lcov.info'}, index.html\n`,
        );
      }
      const budgetReport = session.budget.report();
      if (budget || snapshotFile !== undefined || checkFile !== undefined) io.stdout(formatBudgetReport(budgetReport));
      if (snapshotFile !== undefined) {
        writeFileSync(at(snapshotFile), budgetSnapshotText(budgetReport));
        io.stdout(`budget snapshot written to ${snapshotFile}\n`);
      }
      if (snapshot) {
        const check = checkBudget(budgetReport, snapshot);
        if (check.text) io.stdout(`budget changes against ${checkFile}:\n${check.text}`);
        if (!check.ok) {
          io.stderr(
            `tealworks test: ${check.grew.length} budget figure(s) grew against ${checkFile}; update it with --budget-snapshot ${checkFile} if that is intended\n`,
          );
          if (status === 0) status = 1;
        } else io.stdout(`budget check against ${checkFile}: no figure grew\n`);
      }
      return status;
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  },
};

function readSnapshot(file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the budget snapshot ${file}; write one first with --budget-snapshot`);
  }
  try {
    return parseBudgetSnapshot(text);
  } catch (e) {
    throw new UsageError(`${file}: ${(e as Error).message}`);
  }
}
