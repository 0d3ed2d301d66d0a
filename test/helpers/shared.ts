// Where the tests find the shared data (`../shared/data` beside the clone: opcode metadata,
// conformance programs, fixtures). Tests read it in place and never copy it into the repository.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared data folder beside the clone. */
export const sharedData = resolve(repoRoot, '../shared/data');

/** A path inside the shared data folder. */
export function sharedPath(...parts: string[]): string {
  return resolve(sharedData, ...parts);
}

/** Fails with a message saying what is missing and how to provide it. */
export function assertSharedDataPresent(path: string): never {
  throw new Error(
    `${path} is missing. The test suite reads its fixtures from ../shared/data beside the clone; ` +
      'under CI=true a missing fixture fails the run instead of skipping the tests that need it. ' +
      'Place the shared folder beside the repository (or unset CI to skip those tests locally).',
  );
}

/**
 * Skips the calling test (or suite) when `path` is absent — except under CI=true, where a missing
 * fixture is an error, so a run never passes by skipping its data-driven tests.
 */
export function needShared(ctx: Mocha.Context, path: string, note = ''): void {
  if (existsSync(path)) return;
  if (process.env.CI === 'true') assertSharedDataPresent(path);
  console.log(`    (skipped: ${path} is absent${note ? `; ${note}` : ''})`);
  ctx.skip();
}
