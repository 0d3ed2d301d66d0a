import type { ComposerObserver, SendResult } from '../app/composer.js';
import { failureSummary, renderSimulateReport, type SimulateReport } from '../app/simulate-report.js';
import type { Transaction } from '../txn/types.js';
import { ClientError } from './errors.js';

/*
 * The client's transaction log: what was simulated, sent and confirmed, one line each, written to
 * a sink (stderr by default). `info` shows sends, confirmations and failed simulations; `debug`
 * adds every simulation and prints the whole simulate report of a failure (TEAL line, logs, state).
 */

/** How much the transaction log says: nothing, sends and failures, or everything with reports. */
export type TxnLogLevel = 'off' | 'info' | 'debug';

/** Where the log's lines go (default: standard error). */
export type TxnLogSink = (line: string) => void;

/** The transaction log's settings, as `Tealworks.connect…({ log })` takes them. */
export interface TxnLogOptions {
  /** Default `off`, or `TEALWORKS_LOG` from the environment. */
  level?: TxnLogLevel;
  /** Default: `console.error`. */
  sink?: TxnLogSink;
}

const LEVELS: readonly TxnLogLevel[] = ['off', 'info', 'debug'];

/** The level named by `text` (`off`, `info`, `debug`); a clear error for anything else. */
export function txnLogLevel(text: string, where = 'the log level'): TxnLogLevel {
  const l = text.trim().toLowerCase();
  if (!(LEVELS as readonly string[]).includes(l)) throw new ClientError(`${where} is ${JSON.stringify(text)}; use one of ${LEVELS.join(', ')}`);
  return l as TxnLogLevel;
}

function describe(t: Transaction): string {
  const who = t.sender.toString();
  const short = `${who.slice(0, 6)}…${who.slice(-4)}`;
  switch (t.type) {
    case 'pay':
      return `pay ${t.payment?.amount ?? 0n} from ${short}`;
    case 'axfer':
      return `axfer asset ${t.assetTransfer?.assetId ?? 0n} from ${short}`;
    case 'appl':
      return `appl app ${t.appCall?.appId ?? 0n}${t.appCall?.appId === 0n ? ' (create)' : ''} from ${short}`;
    default:
      return `${t.type} from ${short}`;
  }
}

/**
 * `tw.log`: the transaction log. Change `level` (and `sink`) at any time; every send, simulation
 * and confirmation of this client is reported through it.
 *
 * @example
 * ```ts
 * const tw = await Tealworks.connect.devnet({ log: { level: 'debug' } });
 * tw.log.level = 'info'; // fewer lines from here on
 * ```
 */
export class TransactionLog implements ComposerObserver {
  /** Current level. */
  level: TxnLogLevel;
  /** Where lines go. */
  sink: TxnLogSink;

  /** Prefer the `log` option of `Tealworks.connect…()` (or `TEALWORKS_LOG`). */
  constructor(options: TxnLogOptions = {}) {
    this.level = options.level ?? 'off';
    this.sink = options.sink ?? ((line) => console.error(line));
  }

  /** Whether lines of level `min` are written now (nothing is worked out for a line that is not). */
  #on(min: 'info' | 'debug'): boolean {
    return this.level !== 'off' && (min === 'info' || this.level === 'debug');
  }

  #write(min: 'info' | 'debug', text: () => string): void {
    if (!this.#on(min)) return;
    for (const line of text().split('\n')) this.sink(`[tealworks] ${line}`);
  }

  /** Successes are written only at `debug` (see {@link ComposerObserver.ignoresSuccess}). */
  get ignoresSuccess(): boolean {
    return !this.#on('debug');
  }

  /** A simulation finished: failures at `info` (with the whole report at `debug`), successes at `debug`. */
  simulated(report: SimulateReport, stage: 'gate' | 'simulate', txns: readonly Transaction[]): void {
    const what = () => `${stage === 'gate' ? 'simulated before sending' : 'simulated'} ${txns.length === 1 ? describe(txns[0]!) : `group of ${txns.length}`}`;
    if (report.wouldSucceed) {
      this.#write('debug', () => `${what()}: would succeed`);
      return;
    }
    this.#write('info', () => `${what()}: ${failureSummary(report)}`);
    this.#write('debug', () => renderSimulateReport(report));
  }

  /** The group was submitted. */
  submitted(txids: readonly string[], txns: readonly Transaction[]): void {
    txns.forEach((t, i) => this.#write('info', () => `sent ${describe(t)} (txn ${txids[i]})`));
  }

  /** The group was confirmed. */
  confirmed(result: SendResult): void {
    this.#write(
      'info',
      () => `confirmed in round ${result.confirmedRound}: ${result.txids.length === 1 ? `txn ${result.txids[0]}` : `group of ${result.txids.length}`}`,
    );
  }
}
