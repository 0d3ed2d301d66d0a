// "Debug" in the simulate panel: the group just simulated is already recorded (the simulate asked
// for the full exec trace), so the debugger replays that very run — stepping back is exact and
// nothing is simulated twice. The response goes to a temporary `*.trace.avm.json`; the programs
// are the workspace TEAL files the group creates or calls, matched by hash in the adapter.
import * as vscode from 'vscode';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { SimulateReport, TxnReport } from '@tealworks/sdk/app';
import { templatePlaceholders, toAvmDebuggerTrace } from '@tealworks/sdk/app';
import { templateLaunchText } from './templateForm.js';
import type { ContractActions } from './actions.js';
import { clearPathFor, uriOfSource } from './actions.js';
import type { TxnFormInput } from './messages.js';
import type { ContractSession } from './session.js';

/** Whether the report's response carries an execution trace the debugger can replay. */
export function hasTrace(report: SimulateReport): boolean {
  const group = (report.response as { 'txn-groups'?: { 'txn-results'?: { 'exec-trace'?: unknown }[] }[] } | undefined)?.['txn-groups']?.[0];
  return !!group?.['txn-results']?.some((r) => r['exec-trace'] !== undefined);
}

function appIds(txns: readonly TxnReport[], out = new Set<bigint>()): Set<bigint> {
  for (const t of txns) {
    if (t.appId !== undefined) out.add(t.appId);
    appIds(t.inner, out);
  }
  return out;
}

/** The TEAL files (absolute) of the programs a group creates or calls, clear programs included. */
export function programFiles(report: SimulateReport, rows: readonly TxnFormInput[], sourceForApp: (id: bigint) => string | undefined): string[] {
  const files = new Set<string>();
  for (const r of rows) if (r.kind === 'appcall' && r.source) files.add(uriOfSource(r.source).fsPath);
  for (const id of appIds(report.txns)) {
    const src = sourceForApp(id);
    if (src) files.add(uriOfSource(src).fsPath);
  }
  for (const f of [...files]) {
    const clear = clearPathFor(f);
    if (clear) files.add(clear);
  }
  return [...files];
}

/**
 * The template values of the programs that have `TMPL_*` placeholders, as the panel assembled them
 * (the values this workspace gave), so the debugger assembles the same bytes and finds their lines.
 */
async function programTemplates(files: readonly string[], actions: ContractActions, log: (m: string) => void): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    if (!templatePlaceholders(text).length || /clear/.test(basename(f))) continue;
    try {
      const c = await actions.compile(vscode.Uri.file(f), 'remembered');
      if (c.templates) out[f] = templateLaunchText(c.templates);
      // The clear program beside it was assembled with the same values.
      const clear = clearPathFor(f);
      if (clear && c.templates) out[clear] = templateLaunchText(c.templates);
    } catch (e) {
      log(`debug: ${f}: ${(e as Error).message}`);
    }
  }
  return out;
}

export async function debugReport(report: SimulateReport, rows: readonly TxnFormInput[], actions: ContractActions, session: ContractSession): Promise<void> {
  if (!hasTrace(report))
    throw new Error('this simulation has no execution trace to debug (the node did not return one); simulate again on a node that supports exec-trace-config');
  const dir = mkdtempSync(join(tmpdir(), 'tealworks-debug-'));
  const trace = join(dir, 'group.trace.avm.json');
  writeFileSync(trace, toAvmDebuggerTrace(report.response) + '\n');
  const folder = vscode.workspace.workspaceFolders?.[0];
  const programs = programFiles(report, rows, (id) => session.sourceForApp(id));
  session.log.appendLine(`debugging the simulated group (trace saved to ${trace})`);
  const ok = await vscode.debug.startDebugging(folder, {
    type: 'tealworks',
    request: 'launch',
    name: report.wouldSucceed ? 'Debug simulated group' : 'Debug failing group',
    trace,
    programs,
    templates: await programTemplates(programs, actions, (m) => session.log.appendLine(m)),
    breakOnFailure: true,
    // A failing group opens at the failure; a succeeding one at its first instruction.
    stopOnEntry: report.wouldSucceed,
  });
  if (!ok) throw new Error('VS Code did not start the Tealworks debugger (see the Debug Console)');
  // Show the stack and the other scopes right away: that is what the button was pressed for.
  await vscode.commands.executeCommand('workbench.view.debug');
}
