/** When and how long to wait before repeating a failed request. */
export interface RetryPolicy {
  /** Further attempts after the first (0 disables retrying). */
  retries: number;
  /** Delay before the first retry, ms; grows by `factor` per attempt. */
  baseDelayMs: number;
  /** Cap on any single delay, including one asked for by Retry-After. */
  maxDelayMs: number;
  factor: number;
  /** Statuses that mean "try again later". */
  retryStatuses: ReadonlySet<number>;
}

/** HTTP statuses retried by default: 408, 413, 429 and the transient 5xx. */
export const DEFAULT_RETRY_STATUSES: ReadonlySet<number> = new Set([408, 413, 429, 500, 502, 503, 504]);

/** Default retries: 3, full-jitter exponential backoff from 100 ms, each delay capped at 10 s. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  retries: 3,
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  factor: 2,
  retryStatuses: DEFAULT_RETRY_STATUSES,
});

/** True when the policy retries this HTTP status. */
export function isRetryableStatus(status: number, policy: Pick<RetryPolicy, 'retryStatuses'> = DEFAULT_RETRY_POLICY): boolean {
  return policy.retryStatuses.has(status) || (status >= 500 && status !== 501 && status !== 505);
}

/**
 * Full-jitter exponential backoff: a uniform draw in [0, base·factor^attempt], so many clients that
 * failed together do not come back together.
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** attempt);
  return Math.round(random() * ceiling);
}

/**
 * Retry-After as milliseconds: either delta-seconds or an HTTP-date. Unparseable or negative
 * values yield undefined (the caller falls back to its own backoff).
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
