// `tealworks call APP_ID [METHOD] [ARG…]`: one app call, simulated first and then sent; prints the
// return value, events and logs. Shared helpers of the one-off commands live here too.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { UsageError, type CliIo, type Command } from '../command.js';
import { parseArgs, networkOption } from './run.js';
import { connectNetwork, type WorkflowNetwork } from '../../workflow/connect.js';
import { LocalSigner, type Signer } from '../../adapters/signer.js';
import { loadAppSpec, type Arc56AppSpec } from '../../abi/arc56.js';
import { AppClient, onCompleteFromName, type AppCallOptions } from '../../app/client.js';
import { SimulateFailedError } from '../../app/errors.js';
import { renderSimulateReport, type SimulateReport } from '../../app/simulate-report.js';
import { displayBytes, formatAbi } from '../../app/state-decode.js';
import { utf8 } from '../../encoding/bytes.js';
import { toHex } from '../../encoding/hex.js';
import { assemble } from '../../teal/assembler/assembler.js';
import type { TemplateValue } from '../../teal/assembler/results.js';
import type { AppKnowledge, ProgramKnowledge } from '../../app/simulate-report.js';
import { attachSourceMap } from '../../app/compile.js';

const USAGE =
  'tealworks call APP_ID [METHOD] [ARG…] [--spec FILE] [--source APPROVAL.teal [--template NAME=VALUE]…] [--on-complete noop|optin|closeout|clear|delete] [--box NAME]… [--arg-bytes] [--send] [--network N] [--mnemonic-env VAR] [--json]';

export const NETWORK_FLAGS = ['--network', '--mnemonic-env'] as const;

export interface OneOff {
  network: WorkflowNetwork;
  sender: string;
  signer: Signer;
  close(): Promise<void>;
}

/** Connects for a one-off command: the embedded devnet keeps its chain in `<cwd>/.tealworks/devnet`. */
export async function openOneOff(opts: Map<string, string | true>, cwd: string): Promise<OneOff> {
  const name = networkOption(opts.get('--network')) ?? 'devnet';
  // A `tealworks devnet` already serving `<cwd>/.tealworks/devnet` is used over HTTP (connectNetwork
  // finds it through the data directory's lock file) rather than opening its files a second time.
  const network = await connectNetwork({ kind: 'named', name }, { baseDir: cwd });
  try {
    const envVar = opts.get('--mnemonic-env');
    let sender: string;
    let signer: Signer;
    if (typeof envVar === 'string') {
      const phrase = process.env[envVar];
      if (!phrase) throw new UsageError(`the environment variable ${envVar} is not set`);
      const s = LocalSigner.fromMnemonic(phrase);
      sender = s.addresses[0]!;
      signer = s;
    } else if (network.dispenser) {
      sender = network.dispenser.address;
      signer = network.dispenser.signer;
    } else throw new UsageError(`on ${name}, say who signs with --mnemonic-env VAR`);
    return { network, sender, signer, close: () => network.close() };
  } catch (e) {
    await network.close();
    throw e;
  }
}

export async function loadSpecOption(opts: Map<string, string | true>, cwd: string): Promise<Arc56AppSpec | undefined> {
  const f = opts.get('--spec');
  if (f === undefined) return undefined;
  if (f === true) throw new UsageError('--spec needs a file');
  return loadAppSpec(await readFile(resolve(cwd, f), 'utf8'));
}

/** Command-line argument text → a value the ABI layer takes: integers, JSON lists/objects, else text. */
export function parseCliValue(text: string): unknown {
  if (/^[0-9]+$/.test(text)) return BigInt(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^[[{"]/.test(text)) {
    try {
      return JSON.parse(text.replace(/(?<![\w."])(\d{16,})(?![\w."])/g, '"$1"'), (_k, v) => (typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v));
    } catch {
      return text;
    }
  }
  if (/^0x[0-9a-fA-F]*$/.test(text)) return Uint8Array.from(text.slice(2).match(/../g) ?? [], (h) => parseInt(h, 16));
  return text;
}

export function appIdArg(text: string | undefined): bigint {
  if (!text || !/^[0-9]+$/.test(text)) throw new UsageError('give the app id as a number');
  return BigInt(text);
}

export function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? `0x${toHex(x)}` : x), 2) + '\n';
}

export function callOptionsFrom(opts: Map<string, string | true>, multi: Map<string, string[]>, sender: string, signer: Signer): AppCallOptions {
  const oc = opts.get('--on-complete');
  const onComplete = typeof oc === 'string' ? onCompleteFromName(oc) : undefined;
  return {
    sender,
    signer,
    ...(onComplete !== undefined ? { onComplete } : {}),
    ...(multi.get('--box') ? { boxes: multi.get('--box')!.map((b) => ({ name: b.startsWith('0x') ? (parseCliValue(b) as Uint8Array) : utf8(b) })) } : {}),
  };
}

/**
 * `--source FILE` (the app's approval TEAL, with `--template NAME=VALUE` for its placeholders):
 * failures in the report then point at lines of that file.
 */
export async function sourceKnowledge(
  opts: Map<string, string | true>,
  multi: Map<string, string[]>,
  cwd: string,
  spec?: Arc56AppSpec,
): Promise<AppKnowledge | undefined> {
  const f = opts.get('--source');
  const specFile = opts.get('--spec');
  if (f === undefined && typeof specFile === 'string' && spec) {
    // No TEAL given: a compiler's map beside the spec (Puya's `.puya.map`) still names source lines.
    const approval: ProgramKnowledge = {};
    const bytes = spec.byteCode('approval');
    if (bytes) approval.bytes = bytes;
    return attachSourceMap(approval, resolve(cwd, specFile), 'approval') ? { spec, approval } : undefined;
  }
  if (f === undefined) return undefined;
  if (f === true) throw new UsageError('--source needs a TEAL file');
  const text = await readFile(resolve(cwd, f), 'utf8');
  const vars: Record<string, TemplateValue> = {};
  for (const t of multi.get('--template') ?? []) {
    const eq = t.indexOf('=');
    if (eq <= 0) throw new UsageError('--template wants NAME=VALUE');
    const v = parseCliValue(t.slice(eq + 1));
    vars[t.slice(0, eq).startsWith('TMPL_') ? t.slice(0, eq) : `TMPL_${t.slice(0, eq)}`] =
      typeof v === 'bigint' || typeof v === 'string' || v instanceof Uint8Array ? v : t.slice(eq + 1);
  }
  const { program, sourceMap } = assemble(text, { templateVars: vars });
  const approval: ProgramKnowledge = { bytes: program, pcMap: sourceMap, sourceName: basename(f), sourceLines: text.split(/\r?\n/) };
  // A compiler's map beside the TEAL (Puya's `.puya.map`) names the user's own source lines.
  attachSourceMap(approval, resolve(cwd, f), 'approval');
  return { ...(spec ? { spec } : {}), approval };
}

export function printReport(io: CliIo, report: SimulateReport): void {
  io.stdout(renderSimulateReport(report) + '\n');
}

export const callCommand: Command = {
  name: 'call',
  summary: 'Call an app (ABI method by name with --spec, or a full signature; bare without a method)',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts, multi } = parseArgs(
      args,
      ['--json', '--send'],
      ['--spec', '--source', '--on-complete', ...NETWORK_FLAGS],
      ['--box', '--template'],
    );
    const appId = appIdArg(positional[0]);
    const method = positional[1];
    const spec = await loadSpecOption(opts, io.cwd);
    const knowledge = await sourceKnowledge(opts, multi, io.cwd, spec);
    const one = await openOneOff(opts, io.cwd);
    try {
      const client = new AppClient({ chain: one.network.chain, appId, ...(spec ? { spec } : {}), sender: one.sender, signer: one.signer });
      if (knowledge) client.knowledge = () => knowledge;
      const values = positional.slice(2).map(parseCliValue);
      try {
        const r = await client.call(method, values, {
          ...callOptionsFrom(opts, multi, one.sender, one.signer),
          ...(opts.has('--send') ? { sendReadonly: true } : {}),
        });
        if (opts.has('--json')) {
          io.stdout(
            jsonText({
              txid: r.txid,
              round: r.confirmedRound,
              return: r.returnValue,
              events: r.events,
              logs: r.logs.map((l) => l.bytes),
              ...(r.simulated ? { simulated: true } : {}),
            }),
          );
          return 0;
        }
        if (r.simulated) io.stdout(`called app ${appId}: ${method} is read-only, so it was simulated and not sent (--send sends it)\n`);
        else io.stdout(`called app ${appId} in round ${r.confirmedRound} (txn ${r.txid})\n`);
        if (r.returnValue !== undefined) io.stdout(`returned ${formatAbi(r.returnValue)}\n`);
        for (const l of r.logs) {
          if (l.kind === 'return') continue;
          io.stdout(l.event ? `event ${l.event.name} ${formatAbi(l.event.named as never)}\n` : `log ${displayBytes(l.bytes)}\n`);
        }
        return 0;
      } catch (e) {
        if (e instanceof SimulateFailedError) {
          io.stderr('the call would fail; nothing was sent\n');
          printReport(io, e.report as SimulateReport);
          return 1;
        }
        throw e;
      }
    } finally {
      await one.close();
    }
  },
};
