// What the editor says and offers when the persistent devnet's chain data is damaged. The SDK
// refuses to open a damaged journal or snapshot and changes nothing; the user can recover (keep
// every intact round, move the damaged rest aside into a separate file) or leave it as it is.
// No `vscode` import here, so it is unit-testable in plain Node.
import type { LedgerDamageError } from '@tealworks/sdk/ledger';

/** By name, so that loading this module does not load the ledger (the devnet is loaded on first use). */
function isDamage(error: unknown): error is LedgerDamageError {
  return error instanceof Error && error.name === 'LedgerDamageError';
}

/** The question to put to the user, or undefined when the error is not recoverable damage. */
export interface DevnetRecoveryPrompt {
  message: string;
  /** The SDK's account of the damage: which file, where, what is kept. */
  detail: string;
  /** The button that recovers. */
  action: string;
}

/** The recovery question for a devnet start that failed on damaged chain data. */
export function devnetRecoveryPrompt(error: unknown, dataDir: string): DevnetRecoveryPrompt | undefined {
  if (!isDamage(error)) return undefined;
  // The genesis record defines the chain: nothing can be kept without it.
  if (error.round === 0n) return undefined;
  const kept =
    error.round !== undefined ? `rounds 0 to ${error.round - 1n} are intact and kept` : 'the journal holds every round and the state is rebuilt from it';
  return {
    message: `The devnet's chain data in ${dataDir} is damaged and was not opened. Recover it? ${kept[0]!.toUpperCase()}${kept.slice(1)}; the damaged part is moved aside into a separate file, not deleted.`,
    detail: error.message,
    action: 'Recover',
  };
}

/** The line the output channel gets after a recovery, one entry per part set aside. */
export function describeRecovery(recovered: readonly string[]): string {
  if (recovered.length === 0) return 'devnet: recover found nothing damaged; nothing was set aside';
  return recovered.map((r) => `devnet: recovered: ${r}`).join('\n');
}
