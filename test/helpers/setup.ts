// Loaded by mocha before any test (`.mocharc.json` "require"). Two rules for the whole suite:
//
// 1. Time limits are hang guards, never performance checks. Any mocha timeout a suite sets is
//    raised to at least HANG_GUARD_MS, so a test that passes on an idle machine also passes on a
//    loaded one (a busy loop on every core). Tests assert work done — diagnostics produced, steps
//    taken, events in order — not how long it took.
// 2. Under CI=true, the shared data folder beside the clone must be there: a missing fixture fails
//    the run with a message instead of letting the tests that read it skip silently.
import { existsSync } from 'node:fs';
import Mocha from 'mocha';
import { HANG_GUARD_MS } from './hang.js';
import { sharedData, assertSharedDataPresent } from './shared.js';

const runnable = Mocha.Runnable.prototype as unknown as { timeout(ms?: number | string): unknown };
const setTimeoutOf = runnable.timeout;
runnable.timeout = function (this: unknown, ms?: number | string) {
  if (ms === undefined) return setTimeoutOf.call(this);
  const n = typeof ms === 'string' ? Number.parseInt(ms, 10) : ms;
  // 0 means "no limit" in mocha: keep it.
  return setTimeoutOf.call(this, n === 0 || !Number.isFinite(n) ? ms : Math.max(n, HANG_GUARD_MS));
};

if (process.env.CI === 'true' && !existsSync(sharedData)) assertSharedDataPresent(sharedData);
