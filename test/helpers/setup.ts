// Loaded by mocha before any test (`.mocharc.json` "require"). Two rules for the whole suite:
//
// 1. Time limits are hang guards, never performance checks. Any mocha timeout a suite sets is
//    raised to at least HANG_GUARD_MS, so a test that passes on an idle machine also passes on a
//    loaded one (a busy loop on every core). Tests assert work done — diagnostics produced, steps
//    taken, events in order — not how long it took.
// 2. Under CI=true, the shared data folder beside the clone must be there: a missing fixture fails
//    the run with a message instead of letting the tests that read it skip silently.
// 3. Nothing outlives the run: a server still listening or a child process still running after the
//    last test fails the run, naming the test that opened it (mocha also runs with --exit, so a leak
//    is reported rather than hanging CI).
import { existsSync } from 'node:fs';
import { ChildProcess } from 'node:child_process';
import * as net from 'node:net';
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

/** Which test opened each server, to name it if the server is still listening at the end. */
const openedBy = new WeakMap<object, string>();
let currentTest = '(outside any test)';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  openedBy.set(this, currentTest);
  return (listen as (...a: unknown[]) => net.Server).apply(this, args);
} as typeof net.Server.prototype.listen;

interface Handle {
  constructor?: { name?: string };
}
function leftovers(): string[] {
  const handles = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
  const out: string[] = [];
  for (const h of handles) {
    if (h instanceof net.Server && h.listening) out.push(`a server on ${JSON.stringify(h.address())}, opened by "${openedBy.get(h) ?? 'unknown'}"`);
    else if (h instanceof ChildProcess && h.exitCode === null && h.signalCode === null)
      out.push(`child process ${h.pid}: ${h.spawnargs.join(' ').slice(0, 200)}`);
  }
  return out;
}

export const mochaHooks = {
  beforeEach(this: Mocha.Context) {
    currentTest = `${this.currentTest?.fullTitle() ?? '?'} (${this.currentTest?.file ?? '?'})`;
  },
  async afterAll() {
    // Closing is often a moment behind the last await: give handles a short while to go.
    for (let i = 0; i < 50 && leftovers().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    const left = leftovers();
    if (left.length > 0) throw new Error(`the test run left ${left.length} handle(s) open; close them in the test's after hook:\n  ${left.join('\n  ')}`);
  },
};
