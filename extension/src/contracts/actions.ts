// Simulate, deploy and call: compiles TEAL files of the workspace, builds groups from the panel's
// form, simulates them (always first), asks before sending anywhere but the devnet, sends with a
// progress notification, links created apps to the workspace and refreshes the state inspector.
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { specBeside } from '@tealworks/sdk/workflow';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArc56, type Arc56AppSpec } from '@tealworks/sdk/abi';
import { appAddressOf, builderParams, fetchApp } from '@tealworks/sdk/app';
import { appKnowledge, attachSourceMaps, compileContract, type CompiledContract } from '@tealworks/sdk/app';
import { GroupComposer, type ComposerEntry, type SendResult } from '@tealworks/sdk/app';
import type { AppKnowledge, SimulateReport } from '@tealworks/sdk/app';
import { failureSummary } from '@tealworks/sdk/app';
import { makePaymentTxn } from '@tealworks/sdk/txn';
import type { Transaction } from '@tealworks/sdk/txn';
import { abiCreateMethods, buildGroup, sameProgram, staleProgramWarning, createOnComplete, type BuiltTxn, type CreateProgram } from './groupForm.js';
import { argProblem, methodInfo } from './argForm.js';
import { FailureHighlight } from './highlight.js';
import { linkMovedText } from './links.js';
import type { TxnFormInput } from './messages.js';
import { needsConfirmation } from './networks.js';
import type { ContractSession } from './session.js';
import { confirmationText, formatBalance } from './summary.js';
import { templateFields, templateOptions, templateTableOf, workflowTemplateValues, type TemplateCompileOptions } from './templateForm.js';
import type { TemplateValue } from '@tealworks/sdk/teal';
import { askTemplateValues, rememberedTemplateValues } from './templatePrompt.js';

export interface Compiled {
  uri: vscode.Uri;
  compiled: CompiledContract;
  spec?: Arc56AppSpec;
  /** The `TMPL_*` values the programs were assembled with (deploy flags included). */
  templates?: Record<string, TemplateValue>;
}

/** Workspace-relative path (the form's `source`), or the absolute path outside a workspace. */
export function sourceKey(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export function uriOfSource(source: string): vscode.Uri {
  if (source.startsWith('/')) return vscode.Uri.file(source);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, source) : vscode.Uri.file(source);
}

async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : readFile(uri.fsPath, 'utf8');
}

/** Template values the workflows beside a program (`tealworks.yaml`, `*.workflow.yaml`) deploy it with. */
export function workflowValuesFor(tealPath: string): Record<string, string> {
  const dir = dirname(tealPath);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n === 'tealworks.yaml' || n === 'tealworks.yml' || /\.workflow\.ya?ml$/.test(n));
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  for (const n of names) {
    try {
      Object.assign(out, workflowTemplateValues(readFileSync(join(dir, n), 'utf8'), dir, tealPath));
    } catch {
      // An unreadable workflow gives no values.
    }
  }
  return out;
}

/** An ARC-56 spec beside the program (the SDK's lookup, shared with the language server). */
export const specPathFor = specBeside;

/** The clear program beside an approval program: `clear.teal`, `<x>.clear.teal` for `<x>.approval.teal`. */
export function clearPathFor(tealPath: string): string | undefined {
  const dir = dirname(tealPath);
  const name = basename(tealPath);
  for (const c of [name.replace(/approval/, 'clear'), 'clear.teal', 'clear_state.teal']) {
    if (c !== name && existsSync(join(dir, c))) return join(dir, c);
  }
  return undefined;
}

/**
 * How compile gets values for `TMPL_*` placeholders: `remembered` uses what the workspace gave
 * before (failing when one is missing), `missing` asks for the missing ones, `all` shows the whole
 * form prefilled (Deploy).
 */
export type TemplateMode = 'remembered' | 'missing' | 'all';

export class ContractActions implements vscode.Disposable {
  readonly highlight = new FailureHighlight();
  /** Called after anything was sent, so views refresh. */
  onSent: () => void = () => undefined;

  constructor(
    private readonly session: ContractSession,
    private readonly state?: vscode.Memento,
  ) {}

  /** The ARC-56 spec beside a program, if there is a usable one. */
  async specFor(uri: vscode.Uri, specPath = specPathFor(uri.fsPath)): Promise<Arc56AppSpec | undefined> {
    if (!specPath) return undefined;
    try {
      return parseArc56(await readFile(specPath, 'utf8'));
    } catch (e) {
      this.session.log.appendLine(`${specPath}: not a usable ARC-56 spec: ${(e as Error).message}`);
      return undefined;
    }
  }

  async compile(uri: vscode.Uri, templates: TemplateMode = 'remembered', specPath?: string): Promise<Compiled> {
    const approval = await textOf(uri);
    const clearPath = clearPathFor(uri.fsPath);
    const version = /#pragma\s+version\s+(\d+)/.exec(approval)?.[1] ?? '10';
    const clear = clearPath ? await textOf(vscode.Uri.file(clearPath)) : `#pragma version ${version}\nint 1\n`;
    const spec = await this.specFor(uri, specPath ?? specPathFor(uri.fsPath));
    const source = sourceKey(uri);
    const fields = templateFields(approval, clear, spec, this.state ? rememberedTemplateValues(this.state, source) : {}, workflowValuesFor(uri.fsPath));
    let options: TemplateCompileOptions | undefined;
    if (fields.length) {
      if (templates !== 'remembered' && this.state) options = await askTemplateValues(this.state, source, fields, templates === 'all');
      else {
        try {
          options = templateOptions(fields, {});
        } catch (e) {
          throw new Error(
            `${source} has template variables without values (${(e as Error).message}): run Deploy, or "Tealworks: Set Template Values…", to give them`,
            { cause: e },
          );
        }
      }
    }
    const compiled = compileContract(
      { approval, clear, approvalName: basename(uri.fsPath), clearName: clearPath ? basename(clearPath) : 'clear (default)', ...(spec ? { spec } : {}) },
      options ?? {},
    );
    // The compiler's map beside the TEAL (Puya's `.puya.map`): failures then land on the .py / .algo.ts line.
    attachSourceMaps(compiled, { approval: uri.fsPath, ...(clearPath ? { clear: clearPath } : {}) });
    const table = options ? templateTableOf(options) : undefined;
    return { uri, compiled, ...(spec ? { spec } : {}), ...(table ? { templates: table } : {}) };
  }

  /**
   * The create schema: the spec's when there is one; else, from a probing simulation with room
   * for everything, the global and local keys the create writes (typed by the values written).
   */
  async schemaFor(c: Compiled, sender: string): Promise<CreateProgram['schema']> {
    const s = c.compiled.schema;
    if (c.spec) return s;
    const chain = await this.session.chain();
    const params = await builderParams(chain);
    const probe = buildGroup([{ kind: 'appcall', sender, appId: '0', source: 'probe' }], {
      params,
      programFor: () => ({
        approval: c.compiled.approval.bytes,
        clear: c.compiled.clear.bytes,
        extraPages: c.compiled.extraPages,
        schema: { globalInts: 32, globalBytes: 32, localInts: 8, localBytes: 8 },
      }),
    });
    const report = await new GroupComposer(chain).add({ txn: probe[0]!.txn }).simulate({ allowUnnamedResources: true });
    // A create that fails anyway keeps the roomy schema, so the real simulation shows the program's own failure.
    if (!report.wouldSucceed) return { globalInts: 32, globalBytes: 32, localInts: 8, localBytes: 8 };
    const t = report.txns[0];
    const g = t?.globalChanges.filter((x) => x.action === 'set') ?? [];
    const l = t?.localChanges.flatMap((x) => x.changes).filter((x) => x.action === 'set') ?? [];
    return {
      globalInts: g.filter((x) => typeof x.item.value === 'bigint').length,
      globalBytes: g.filter((x) => typeof x.item.value !== 'bigint').length,
      localInts: l.filter((x) => typeof x.item.value === 'bigint').length,
      localBytes: l.filter((x) => typeof x.item.value !== 'bigint').length,
    };
  }

  /** Builds the form's group with programs compiled from the workspace and known specs. */
  async build(rows: readonly TxnFormInput[]): Promise<{ built: BuiltTxn[]; composer: GroupComposer; compiled: Map<string, Compiled>; warnings: string[] }> {
    const warnings: string[] = [];
    const chain = await this.session.chain();
    const params = await builderParams(chain);
    const compiled = new Map<string, Compiled>();
    const programs = new Map<string, CreateProgram>();
    for (const r of rows) {
      if (r.kind === 'appcall' && r.source && (r.appId ?? '').trim().replace(/^0+$/, '') === '' && !programs.has(r.source)) {
        const c = await this.compile(uriOfSource(r.source), 'missing');
        compiled.set(r.source, c);
        programs.set(r.source, {
          approval: c.compiled.approval.bytes,
          clear: c.compiled.clear.bytes,
          extraPages: c.compiled.extraPages,
          schema: await this.schemaFor(c, r.sender),
        });
      }
    }
    const appKnow = new Map<bigint, AppKnowledge>();
    const specByApp = new Map<bigint, Arc56AppSpec | undefined>();
    for (const appId of new Set(
      rows.filter((r) => r.kind === 'appcall' && r.appId && BigInt(r.appId.trim() || '0') > 0n).map((r) => BigInt(r.appId!.trim())),
    )) {
      const src = this.session.sourceForApp(appId);
      if (!src) continue;
      try {
        const linkedSpec = this.session.specPathForApp(appId);
        const c = await this.compile(uriOfSource(src), 'remembered', linkedSpec ? uriOfSource(linkedSpec).fsPath : undefined);
        specByApp.set(appId, c.spec);
        // Edited since the deploy? The chain runs the deployed program: map its failures by pc only.
        const onChain = await fetchApp(chain, appId).then(
          (a) => a,
          () => undefined,
        );
        if (onChain && !sameProgram(onChain.approval, c.compiled.approval.bytes)) {
          warnings.push(staleProgramWarning(appId, src));
          // The deployed bytes without a source: the report names the failing op from them.
          appKnow.set(appId, { approval: { bytes: onChain.approval }, clear: { bytes: onChain.clear } });
          continue;
        }
        compiled.set(src, c);
        appKnow.set(appId, appKnowledge(c.compiled, basename(src)));
      } catch {
        // The source changed since the deploy and does not assemble: failures show pcs only.
      }
    }
    const built = buildGroup(rows, {
      params,
      programFor: (s) => programs.get(s),
      specFor: (row) =>
        row.source && (row.appId ?? '0').trim().replace(/^0+$/, '') === ''
          ? compiled.get(row.source)?.spec
          : row.appId
            ? specByApp.get(BigInt(row.appId.trim() || '0'))
            : undefined,
    });
    const composer = new GroupComposer(chain, (address) => this.session.signerFor(address));
    for (const [id, k] of appKnow) composer.knowApp(id, k);
    for (const b of built) {
      const c = b.source ? compiled.get(b.source) : undefined;
      const entry: ComposerEntry = {
        txn: b.txn,
        ...(b.method ? { method: b.method } : {}),
        ...(c ? { app: appKnowledge(c.compiled, basename(b.source!)) } : {}),
      };
      composer.add(entry);
    }
    return { built, composer, compiled, warnings };
  }

  /** Where a failure is in the workspace, for the highlight and the panel's link. */
  failureSource(report: SimulateReport, rows: readonly TxnFormInput[]): vscode.Uri | undefined {
    const f = report.failure;
    // In the user's own source (Algorand Python / TypeScript) when the compiler's map says.
    if (f?.userSource?.file) return vscode.Uri.file(f.userSource.file);
    if (!f?.source || !report.failedAt) return undefined;
    const top = rows[report.failedAt[0]!];
    if (report.failedAt.length === 1 && top?.kind === 'appcall' && top.source && (top.appId ?? '').trim().replace(/^0+$/, '') === '')
      return uriOfSource(top.source);
    if (f.appId !== undefined) {
      const src = this.session.sourceForApp(f.appId);
      if (src) return uriOfSource(src);
    }
    return undefined;
  }

  showFailure(report: SimulateReport, rows: readonly TxnFormInput[]): void {
    this.highlight.clear();
    const uri = this.failureSource(report, rows);
    const s = report.failure?.userSource ?? report.failure?.source;
    if (uri && s) this.highlight.show(uri, s.line, s.column, report.failure?.errorMessage ?? firstLine(report.failureMessage ?? 'failed'), s.definition);
  }

  async simulate(rows: readonly TxnFormInput[]): Promise<{ report: SimulateReport; warnings: string[] }> {
    const { composer, warnings } = await this.build(rows);
    for (const w of warnings) this.session.log.appendLine(`simulate: ${w}`);
    // Show the group as it would be sent: references the programs touch are filled in first
    // (box references also buy the I/O budget box writes need).
    try {
      await composer.prepare({ populateResources: true, coverInnerFees: true });
    } catch (e) {
      this.session.log.appendLine(`resource population skipped: ${(e as Error).message}`);
    }
    const report = await composer.simulate({ allowUnnamedResources: true });
    this.session.log.appendLine(`simulate on ${this.session.activeName}: ${report.wouldSucceed ? 'would succeed' : failureSummary(report)}`);
    if (report.wouldSucceed) this.highlight.clear();
    else this.showFailure(report, rows);
    return { report, warnings };
  }

  /** Asks before sending anywhere but the devnet. True to go on. */
  async confirm(txns: readonly Transaction[]): Promise<boolean> {
    if (!needsConfirmation(this.session.activeName)) return true;
    const choice = await vscode.window.showWarningMessage(confirmationText(this.session.activeName, txns), { modal: true }, 'Sign and Send');
    return choice === 'Sign and Send';
  }

  /** Simulate gate, confirmation, signing and sending; returns undefined when the user declined. */
  async send(rows: readonly TxnFormInput[], title = 'Sending'): Promise<{ result?: SendResult; report: SimulateReport; warnings: string[] }> {
    const { composer, warnings } = await this.build(rows);
    // The probing simulate fills in box/account references the programs touch.
    const probe = await composer.prepare({ populateResources: true, coverInnerFees: true });
    const report = await composer.simulate();
    if (!report.wouldSucceed) {
      this.showFailure(report, rows);
      return { report: probe && !probe.wouldSucceed ? probe : report, warnings };
    }
    for (const e of composer.entries) {
      const sender = e.txn.sender.toString();
      if (!this.session.signerFor(sender))
        throw new Error(`no key for ${sender} on ${this.session.activeName}: unlock its wallet or import it in the Accounts view`);
    }
    if (!(await this.confirm(composer.transactions))) return { report, warnings };
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${title} on ${this.session.activeName}`, cancellable: false },
      async (progress) => {
        progress.report({ message: 'signing and sending…' });
        return composer.send({ skipSimulate: true });
      },
    );
    this.highlight.clear();
    for (let i = 0; i < result.txns.length; i++) {
      const created = result.txns[i]!.createdAppId;
      const src = rows[i]?.source;
      if (created === undefined) continue;
      const specPath = src ? specPathFor(uriOfSource(src).fsPath) : undefined;
      const moved = await this.session.linkApp(created, src, {
        via: 'deploy',
        ...(specPath ? { spec: vscode.workspace.asRelativePath(specPath, false) } : {}),
      });
      // Never silently: the file's lens calls another app from now on.
      if (moved !== undefined && src) warnings.push(linkMovedText(src, moved, created));
    }
    this.session.log.appendLine(`sent ${result.txids.join(', ')} in round ${result.confirmedRound}`);
    this.onSent();
    return { result, report: result.report, warnings };
  }

  /**
   * When the spec allows no bare create: the ABI create method (picked when there are several) and
   * its arguments, asked one by one and checked as typed (Lora's create wizard, in input boxes).
   */
  async #createCall(c: Compiled, name: string): Promise<Pick<TxnFormInput, 'method' | 'args' | 'onComplete'>> {
    const creates = c.spec ? abiCreateMethods(c.spec) : [];
    if (!creates.length) return {};
    let m = creates[0]!;
    if (creates.length > 1) {
      const pick = await vscode.window.showQuickPick(
        creates.map((x) => ({ label: x.method.name, description: x.method.signature, detail: x.json.desc ?? '', m: x })),
        { title: `Create ${name} with which method?`, placeHolder: 'The app spec allows no bare create', ignoreFocusOut: true },
      );
      if (!pick) throw new vscode.CancellationError();
      m = pick.m;
    }
    if (m.method.args.some((a) => a.kind === 'transaction')) {
      throw new Error(
        `${m.method.signature} creates ${name} and takes transaction arguments: build the create in the simulate panel (its form inserts the argument rows)`,
      );
    }
    const info = methodInfo(m.method, m);
    const args: string[] = [];
    for (const [k, a] of info.args.entries()) {
      const text = await vscode.window.showInputBox({
        title: `Create ${name} with ${m.method.name} (${k + 1}/${info.args.length})`,
        prompt: `${a.name} (${a.type})${a.desc ? `: ${a.desc}` : ''}${/^[[(]|\[\]$/.test(a.type) && a.type !== 'byte[]' ? ' · JSON, e.g. [1, 2]' : ''}`,
        ...(a.defaultText !== undefined ? { value: a.defaultText } : {}),
        placeHolder: a.type,
        ignoreFocusOut: true,
        validateInput: (v) => argProblem(m.method, m, k, v),
      });
      if (text === undefined) throw new vscode.CancellationError();
      args.push(text);
    }
    return { method: m.method.signature, args, onComplete: createOnComplete(m) };
  }

  /** Deploy = create from the file (simulated first), then fund the app account per the setting. */
  async deploy(uri: vscode.Uri, sender: string): Promise<{ appId?: bigint; report: SimulateReport; rows: TxnFormInput[]; notes: string[] }> {
    const source = sourceKey(uri);
    // The template form first (prefilled with what this workspace gave last time): the simulation
    // and the create then use exactly these values.
    // The first deploy shows the whole form (prefilled from the workflow and the spec); later ones
    // ask only for values nothing gives yet: "Set Template Values…" changes them.
    const answered = this.state ? Object.keys(rememberedTemplateValues(this.state, source)).length > 0 : false;
    const c = await this.compile(uri, answered ? 'missing' : 'all');
    const rows: TxnFormInput[] = [{ kind: 'appcall', sender, appId: '0', source, ...(await this.#createCall(c, basename(uri.fsPath))) }];
    const { result, report, warnings } = await this.send(rows, `Deploying ${basename(uri.fsPath)}`);
    const appId = result?.txns[0]?.createdAppId;
    if (appId === undefined) return { report, rows, notes: warnings };
    const fund = BigInt(vscode.workspace.getConfiguration('tealworks.deploy').get<number>('fundAppAccount', 1_000_000));
    if (fund > 0n) {
      const chain = await this.session.chain();
      const pay = makePaymentTxn({ sender, receiver: appAddressOf(appId), amount: fund, suggestedParams: await builderParams(chain) });
      if (await this.confirm([pay])) {
        const c = new GroupComposer(chain, (a) => this.session.signerFor(a)).add(pay);
        await c.send();
        this.session.log.appendLine(`funded app ${appId}'s account with ${formatBalance(fund)}`);
      }
    }
    this.onSent();
    return { appId, report, rows, notes: warnings };
  }

  dispose(): void {
    this.highlight.dispose();
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]!;
}
