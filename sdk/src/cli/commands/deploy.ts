// `tealworks deploy APPROVAL.teal [CLEAR.teal]`: idempotent deploy by creator and app name (ARC-2
// deploy note), simulated before anything is sent.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError, type CliIo, type Command } from '../command.js';
import { parseArgs } from './run.js';
import { jsonText, loadSpecOption, NETWORK_FLAGS, openOneOff, parseCliValue, printReport } from './call.js';
import { compileContract } from '../../app/compile.js';
import { deployApp } from '../../app/deploy.js';
import { ON_SCHEMA_BREAK_VALUES, ON_UPDATE_VALUES, type OnSchemaBreak, type OnUpdate } from '../../app/deploy-plan.js';
import { DeployPlanError, SimulateFailedError } from '../../app/errors.js';
import type { SimulateReport } from '../../app/simulate-report.js';
import type { TemplateValue } from '../../teal/assembler/results.js';
import { parseAmount } from './fund.js';
import { Tealworks } from '../../client/tealworks.js';

const USAGE =
  'tealworks deploy [APPROVAL.teal [CLEAR.teal]] [--spec FILE] [--name NAME] [--version V] [--on-update fail|update|replace|append] [--on-schema-break fail|replace|append] [--updatable] [--deletable] [--template NAME=VALUE]… [--simulate-only] [--fund AMOUNT] [--network N] [--mnemonic-env VAR] [--json]';

export const deployCommand: Command = {
  name: 'deploy',
  summary: 'Deploy an app idempotently (create, update, replace, append or nothing); simulates first',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts, multi } = parseArgs(
      args,
      ['--json', '--updatable', '--deletable', '--simulate-only'],
      ['--spec', '--name', '--version', '--on-update', '--on-schema-break', '--fund', ...NETWORK_FLAGS],
      ['--template'],
    );
    const spec = await loadSpecOption(opts, io.cwd);
    const approvalPath = positional[0] ? resolve(io.cwd, positional[0]) : undefined;
    if (!approvalPath && !spec) throw new UsageError('give an approval program (and clear program), or --spec with byte code or source');
    let clearPath = positional[1] ? resolve(io.cwd, positional[1]) : undefined;
    if (approvalPath && !clearPath && existsSync(join(dirname(approvalPath), 'clear.teal'))) clearPath = join(dirname(approvalPath), 'clear.teal');
    const onUpdate = opts.get('--on-update');
    if (onUpdate !== undefined && !ON_UPDATE_VALUES.includes(onUpdate as OnUpdate))
      throw new UsageError(`--on-update must be one of ${ON_UPDATE_VALUES.join(', ')}`);
    const onSchemaBreak = opts.get('--on-schema-break');
    if (onSchemaBreak !== undefined && !ON_SCHEMA_BREAK_VALUES.includes(onSchemaBreak as OnSchemaBreak))
      throw new UsageError(`--on-schema-break must be one of ${ON_SCHEMA_BREAK_VALUES.join(', ')}`);
    const template: Record<string, TemplateValue> = {};
    for (const t of multi.get('--template') ?? []) {
      const eq = t.indexOf('=');
      if (eq <= 0) throw new UsageError('--template wants NAME=VALUE');
      const v = parseCliValue(t.slice(eq + 1));
      template[t.slice(0, eq)] = typeof v === 'bigint' || typeof v === 'string' || v instanceof Uint8Array ? v : t.slice(eq + 1);
    }
    const perms = { ...(opts.has('--updatable') ? { updatable: true } : {}), ...(opts.has('--deletable') ? { deletable: true } : {}) };
    const compiled = compileContract(
      {
        ...(approvalPath ? { approval: await readFile(approvalPath, 'utf8'), approvalName: basename(approvalPath) } : {}),
        ...(clearPath ? { clear: await readFile(clearPath, 'utf8'), clearName: basename(clearPath) } : {}),
        ...(spec ? { spec } : {}),
      },
      { template, updatable: perms.updatable ?? false, deletable: perms.deletable ?? false },
    );
    const name = (opts.get('--name') as string | undefined) ?? spec?.name ?? (approvalPath ? basename(approvalPath).replace(/\.teal$/, '') : 'app');
    const fundText = opts.get('--fund');
    const fund = typeof fundText === 'string' ? parseAmount(fundText) : undefined;
    const one = await openOneOff(opts, io.cwd);
    try {
      const result = await deployApp({
        chain: one.network.chain,
        creator: one.sender,
        signer: one.signer,
        compiled,
        metadata: {
          name,
          version: (opts.get('--version') as string | undefined) ?? '1.0',
          updatable: perms.updatable ?? false,
          deletable: perms.deletable ?? false,
        },
        ...(onUpdate ? { onUpdate: onUpdate as OnUpdate } : {}),
        ...(onSchemaBreak ? { onSchemaBreak: onSchemaBreak as OnSchemaBreak } : {}),
        simulateOnly: opts.has('--simulate-only'),
      });
      // --fund: keep at least AMOUNT spendable in the app account (boxes and inner payments need it).
      let funded = '';
      if (fund !== undefined && !result.simulated) {
        const net = one.network;
        const tw = new Tealworks({
          name: net.name,
          profile: net.profile,
          chain: net.chain,
          dispenser: { address: one.sender, signer: one.signer },
          isDev: net.isDev,
          tokenSource: 'the network profile',
          close: async () => {},
        });
        await tw.account.ensureFunded(result.appAddress, fund);
        const paid = tw.account.lastFunding;
        funded = paid ? `funded the app account with ${paid.txn.payment?.amount ?? ''} micro-units (txn ${paid.txid})` : 'the app account already had enough';
      }
      if (opts.has('--json')) {
        io.stdout(
          jsonText({
            action: result.action,
            appId: result.appId,
            appAddress: result.appAddress,
            txid: result.txid,
            round: result.confirmedRound,
            deletedAppId: result.deletedAppId,
            reason: result.plan.reason,
            warnings: result.plan.warnings,
            wouldSucceed: result.report?.wouldSucceed,
            ...(funded ? { funded } : {}),
          }),
        );
        return result.report && !result.report.wouldSucceed ? 1 : 0;
      }
      io.stdout(`${result.plan.reason}\n`);
      if (funded) io.stdout(`${funded}\n`);
      for (const w of result.plan.warnings) io.stdout(`warning: ${w}\n`);
      if (result.simulated) {
        printReport(io, result.report!);
        return result.report!.wouldSucceed ? 0 : 1;
      }
      io.stdout(
        `${result.action === 'nothing' ? 'unchanged' : result.action}: app ${result.appId} (${result.appAddress})${result.txid ? ` in round ${result.confirmedRound}, txn ${result.txid}` : ''}${result.deletedAppId !== undefined ? `; deleted app ${result.deletedAppId}` : ''}\n`,
      );
      return 0;
    } catch (e) {
      if (e instanceof SimulateFailedError) {
        io.stderr('the deploy would fail; nothing was sent\n');
        printReport(io, e.report as SimulateReport);
        return 1;
      }
      if (e instanceof DeployPlanError) {
        io.stderr(`tealworks deploy: ${e.message}\n`);
        return 1;
      }
      throw e;
    } finally {
      await one.close();
    }
  },
};
