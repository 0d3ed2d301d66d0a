/**
 * `@tealworks/sdk/testing`: contract tests against the real ledger and AVM, in this process.
 *
 *   const f = testFixture({ apps: { counter: { spec, approval, clear } } }).install({ before, beforeEach, after });
 *   f.apps.counter / f.accounts / f.chain (snapshot, revert, cheats) / f.tw (the usual Tealworks client)
 *   await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big', line: 63 });
 *   await expectState(f.apps.counter, { global: { count: 5n } });
 *
 * Walkthrough: docs/testing.md.
 */
export { InProcessChain, type InProcessOptions, type CheatKey, type CheatValue } from '../client/in-process.js';
export { TestFixture, testFixture, withReport, explained, SimulateReportError, type FixtureApp, type FixtureOptions, type RunnerHooks } from './fixture.js';
export { expectFailure, expectState, type ExpectedFailure, type ExpectedState } from './assert.js';
export { TestingError } from './errors.js';
