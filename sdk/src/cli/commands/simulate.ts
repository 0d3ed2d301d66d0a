// `tealworks simulate`: one app call (like `tealworks call`) or a file of transactions (signed or
// not) run through the node's simulate; prints the report and exits 0 only when it would succeed.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, type CliIo, type Command } from '../command.js';
import { parseArgs } from './run.js';
import { appIdArg, callOptionsFrom, jsonText, loadSpecOption, NETWORK_FLAGS, openOneOff, parseCliValue, printReport, sourceKnowledge } from './call.js';
import { AppClient } from '../../app/client.js';
import { simulateGroup } from '../../app/composer.js';
import { decodeSignedTransactions } from '../../txn/encode.js';
import { encodeSignedTransaction } from '../../txn/encode.js';
import { fromBase64 } from '../../encoding/base64.js';
import type { SimulateReport } from '../../app/simulate-report.js';

const USAGE =
  'tealworks simulate (APP_ID [METHOD] [ARG…] [--spec FILE] [--source APPROVAL.teal [--template NAME=VALUE]…] [--on-complete X] [--box NAME]… | --txns FILE) [--extra-budget N] [--allow-unnamed] [--allow-more-logging] [--fix-signers] [--round N] [--network N] [--mnemonic-env VAR] [--json]';

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'Simulate an app call or a file of transactions; report success, failing line, logs, budget',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts, multi } = parseArgs(
      args,
      ['--json', '--allow-unnamed', '--allow-more-logging', '--fix-signers'],
      ['--spec', '--source', '--on-complete', '--txns', '--extra-budget', '--round', ...NETWORK_FLAGS],
      ['--box', '--template'],
    );
    const num = (flag: string) => {
      const v = opts.get(flag);
      if (v === true || (v !== undefined && !/^[0-9]+$/.test(v))) throw new UsageError(`${flag} needs a number`);
      return v;
    };
    const extra = num('--extra-budget');
    const round = num('--round');
    const simOpts = {
      ...(extra ? { extraOpcodeBudget: Number(extra) } : {}),
      ...(round !== undefined ? { round: BigInt(round) } : {}),
      ...(opts.has('--allow-unnamed') ? { allowUnnamedResources: true } : {}),
      ...(opts.has('--allow-more-logging') ? { allowMoreLogging: true } : {}),
      ...(opts.has('--fix-signers') ? { fixSigners: true } : {}),
    };
    const one = await openOneOff(opts, io.cwd);
    try {
      let report: SimulateReport;
      const txnsFile = opts.get('--txns');
      if (typeof txnsFile === 'string') {
        // Concatenated msgpack signed transactions (as `goal clerk` writes), raw or base64.
        const raw = await readFile(resolve(io.cwd, txnsFile));
        const bytes = /^[A-Za-z0-9+/=\s]+$/.test(raw.toString('latin1')) ? fromBase64(raw.toString('latin1').replace(/\s+/g, '')) : new Uint8Array(raw);
        const stxns = decodeSignedTransactions(bytes);
        report = await simulateGroup(
          one.network.chain,
          stxns.map((s) => encodeSignedTransaction(s)),
          { ...simOpts, allowEmptySignatures: true },
        );
      } else {
        const spec = await loadSpecOption(opts, io.cwd);
        const knowledge = await sourceKnowledge(opts, multi, io.cwd, spec);
        const client = new AppClient({
          chain: one.network.chain,
          appId: appIdArg(positional[0]),
          ...(spec ? { spec } : {}),
          sender: one.sender,
          signer: one.signer,
        });
        if (knowledge) client.knowledge = () => knowledge;
        report = await client.simulate(positional[1], positional.slice(2).map(parseCliValue), {
          ...callOptionsFrom(opts, multi, one.sender, one.signer),
          ...simOpts,
        });
      }
      if (opts.has('--json')) io.stdout(jsonText(report));
      else printReport(io, report);
      return report.wouldSucceed ? 0 : 1;
    } finally {
      await one.close();
    }
  },
};
