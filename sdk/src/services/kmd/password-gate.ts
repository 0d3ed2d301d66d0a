import { WalletError } from './errors.js';

/**
 * How the key manager slows password guessing. Every route that checks a wallet password (handle
 * init, rename, master-key and key export, signing, key and multisig deletes) goes through one
 * {@link PasswordGate}: after `freeAttempts` consecutive wrong passwords on a wallet, each further
 * attempt first waits an exponentially growing delay. The wait happens before the check and
 * outside the wallet's lock, so it never queues the owner behind an attacker's attempts, and an
 * attempt whose client went away while waiting is dropped unchecked. At most `maxWaiting`
 * attempts may wait per wallet; more are answered 429 at once.
 */
export interface PasswordBackoffOptions {
  /** Consecutive wrong passwords per wallet before attempts wait (default 5). */
  freeAttempts?: number;
  /** First delay once the free attempts are used (default 250 ms); it doubles per failure. */
  baseMs?: number;
  /** Longest delay (default 10 s). */
  maxMs?: number;
  /** Attempts allowed to wait at once per wallet; more are refused with 429 (default 8). */
  maxWaiting?: number;
}

/** What the gate has done so far (for tests and metrics; counts, never passwords). */
export interface PasswordGateStats {
  /** Passwords actually compared. */
  checked: number;
  /** Attempts that had to wait before their check. */
  delayed: number;
  /** Attempts refused with 429 because too many were already waiting. */
  refused: number;
  /** Attempts dropped unchecked because their client went away while waiting. */
  abandoned: number;
}

const DEFAULTS: Required<PasswordBackoffOptions> = { freeAttempts: 5, baseMs: 250, maxMs: 10_000, maxWaiting: 8 };

/** The message of the 429 answer when too many password attempts wait on one wallet. */
export const TOO_MANY_PASSWORD_ATTEMPTS = 'too many password attempts are waiting for this wallet after repeated wrong passwords; wait a few seconds and retry';

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The one password-check path of the key manager: back-off, a cap on waiting attempts, no work for abandoned requests. */
export class PasswordGate {
  readonly #opts: Required<PasswordBackoffOptions>;
  readonly #failures = new Map<string, number>();
  readonly #waiting = new Map<string, number>();
  readonly stats: PasswordGateStats = { checked: 0, delayed: 0, refused: 0, abandoned: 0 };

  constructor(options: PasswordBackoffOptions = {}) {
    this.#opts = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  }

  /** The delay the next attempt on `walletId` waits before its check (ms). */
  backoffMs(walletId: string): number {
    const f = this.#failures.get(walletId) ?? 0;
    const { freeAttempts, baseMs, maxMs } = this.#opts;
    return f < freeAttempts ? 0 : Math.min(maxMs, baseMs * 2 ** Math.min(30, f - freeAttempts));
  }

  /** Attempts on `walletId` waiting for their back-off right now. */
  waiting(walletId: string): number {
    return this.#waiting.get(walletId) ?? 0;
  }

  /**
   * Runs `check` (which answers `undefined` for a wrong password) after the wallet's back-off.
   * Wrong → `wrong()` is thrown and the failure counted; right → the failures are forgotten.
   */
  async attempt<T>(
    walletId: string,
    signal: AbortSignal | undefined,
    check: () => T | undefined | Promise<T | undefined>,
    wrong: () => WalletError,
  ): Promise<T> {
    const ms = this.backoffMs(walletId);
    if (ms > 0) {
      const waiting = this.waiting(walletId);
      if (waiting >= this.#opts.maxWaiting) {
        this.stats.refused++;
        throw new WalletError(429, TOO_MANY_PASSWORD_ATTEMPTS);
      }
      this.#waiting.set(walletId, waiting + 1);
      this.stats.delayed++;
      try {
        await pause(ms, signal);
      } finally {
        const left = this.waiting(walletId) - 1;
        if (left > 0) this.#waiting.set(walletId, left);
        else this.#waiting.delete(walletId);
      }
    }
    if (signal?.aborted) {
      this.stats.abandoned++;
      throw new WalletError(499, 'the request was abandoned before its password was checked');
    }
    this.stats.checked++;
    const result = await check();
    if (result === undefined) {
      this.#failures.set(walletId, (this.#failures.get(walletId) ?? 0) + 1);
      throw wrong();
    }
    this.#failures.delete(walletId);
    return result;
  }
}
