// `tealworks run [FILE]`: runs a workflow file step by step, with a line per step, a summary table
// and exit code 0 (every step passed) or 1. The embedded devnet is started and stopped for the run.
import { existsSync, readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { UsageError, type CliIo, type Command } from '../command.js';
import { runWorkflow, type ProgressEvent, type RunSummary, type StepSummary } from '../../workflow/engine.js';
import { formatIssue } from '../../workflow/errors.js';
import { isWorkflowFileName } from '../../workflow/file.js';

const USAGE = 'tealworks run [FILE] [--network devnet|localnet|testnet|mainnet] [--fresh] [--simulate-only] [--in-memory] [--json]';
const NETWORKS = ['devnet', 'localnet', 'testnet', 'mainnet'] as const;

/** Splits `--flag value`, `--flag=value` and positionals; `flags` lists the ones without a value. */
export function parseArgs(
  args: readonly string[],
  flags: readonly string[],
  valued: readonly string[],
  repeatable: readonly string[] = [],
): { positional: string[]; opts: Map<string, string | true>; multi: Map<string, string[]> } {
  const positional: string[] = [];
  const opts = new Map<string, string | true>();
  const multi = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    let inline: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      inline = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (!a.startsWith('--') || a === '--') {
      positional.push(a);
      continue;
    }
    if (flags.includes(a)) {
      if (inline !== undefined) throw new UsageError(`${a} takes no value`);
      opts.set(a, true);
    } else if (valued.includes(a) || repeatable.includes(a)) {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      if (repeatable.includes(a)) multi.set(a, [...(multi.get(a) ?? []), v]);
      else opts.set(a, v);
    } else throw new UsageError(`unknown option ${a}`);
  }
  return { positional, opts, multi };
}

export function networkOption(v: string | true | undefined): (typeof NETWORKS)[number] | undefined {
  if (v === undefined) return undefined;
  if (v === true || !(NETWORKS as readonly string[]).includes(v)) throw new UsageError(`--network must be one of ${NETWORKS.join(', ')}`);
  return v as (typeof NETWORKS)[number];
}

function findWorkflow(cwd: string): string {
  for (const name of ['tealworks.yaml', 'tealworks.yml']) if (existsSync(resolve(cwd, name))) return resolve(cwd, name);
  const found = readdirSync(cwd).filter((n) => isWorkflowFileName(n));
  if (found.length === 1) return resolve(cwd, found[0]!);
  if (found.length > 1) throw new UsageError(`several workflow files here (${found.join(', ')}); name one`);
  throw new UsageError('no tealworks.yaml or *.workflow.yaml in this folder; name the workflow file');
}

const MARK: Record<StepSummary['status'], string> = { done: '✓', cached: '↺', skipped: '-', failed: '✗', simulated: '≈' };

function stepLabel(s: { index: number; id: string; kind: string; name?: string }): string {
  return `${String(s.index + 1).padStart(2)}. ${s.kind.padEnd(8)} ${s.name ?? s.id}`;
}

export function renderSummaryTable(summary: RunSummary): string {
  const rows = summary.steps.map((s) => [
    String(s.index + 1),
    s.id,
    s.kind,
    s.status,
    `${s.durationMs} ms`,
    s.detail.length > 70 ? `${s.detail.slice(0, 67)}…` : s.detail,
  ]);
  const head = ['#', 'step', 'kind', 'status', 'time', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const out = [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)];
  const count = (st: StepSummary['status']) => summary.steps.filter((s) => s.status === st).length;
  out.push(
    '',
    `${summary.ok ? 'PASSED' : 'FAILED'}: ${count('done')} done, ${count('cached')} from checkpoint, ${count('simulated')} simulated, ${count('skipped')} skipped, ${count('failed')} failed`,
  );
  return out.join('\n') + '\n';
}

function progressPrinter(io: CliIo, cwd: string): (e: ProgressEvent) => void {
  return (e) => {
    if (e.type === 'start') {
      io.stdout(`Running ${relative(cwd, e.workflow) || e.workflow} on ${e.network} (${e.steps} steps)\n`);
      if (e.discarded) io.stdout(`  checkpoints not used: ${e.discarded}\n`);
    } else if (e.type === 'step-end') {
      const s = e.step;
      io.stdout(`${MARK[s.status]} ${stepLabel(s)}  ${s.detail}\n`);
      if (s.error) {
        const p = s.error.position;
        io.stdout(`    at ${relative(cwd, p.file) || p.file}:${p.line}:${p.column}\n`);
        const text = s.error.reportText ?? (s.error.message.includes('\n') ? s.error.message : undefined);
        if (text)
          io.stdout(
            text
              .split('\n')
              .map((l) => `    ${l}`)
              .join('\n') + '\n',
          );
      }
    }
  };
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Run a workflow (tealworks.yaml): deploy, call, simulate and assert, step by step',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts } = parseArgs(args, ['--fresh', '--simulate-only', '--in-memory', '--json'], ['--network']);
    if (positional.length > 1) throw new UsageError('give at most one workflow file');
    const file = positional[0] ? resolve(io.cwd, positional[0]) : findWorkflow(io.cwd);
    if (!existsSync(file)) throw new UsageError(`no such file: ${positional[0]}`);
    const json = opts.has('--json');
    const network = networkOption(opts.get('--network'));
    const summary = await runWorkflow(file, {
      ...(network ? { network } : {}),
      fresh: opts.has('--fresh'),
      simulateOnly: opts.has('--simulate-only'),
      inMemory: opts.has('--in-memory'),
      ...(json ? {} : { onProgress: progressPrinter(io, io.cwd) }),
    });
    if (json) {
      io.stdout(
        JSON.stringify(summary, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? `0x${Buffer.from(v).toString('hex')}` : v), 2) +
          '\n',
      );
      return summary.ok ? 0 : 1;
    }
    if (summary.error) {
      io.stderr(`tealworks run: ${summary.error.issues ? summary.error.issues.map(formatIssue).join('\n') : summary.error.message}\n`);
      return 1;
    }
    io.stdout('\n' + renderSummaryTable(summary));
    return summary.ok ? 0 : 1;
  },
};
