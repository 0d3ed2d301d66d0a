import assert from 'node:assert/strict';
import { TealworksError, ValidationError } from '../../../sdk/src/errors.js';
import { UsageError } from '../../../sdk/src/cli/command.js';
import { runCli } from '../../../sdk/src/cli/main.js';
import type { CliIo, Command } from '../../../sdk/src/cli/command.js';

/** A second, separately evaluated copy of a module, as two installed SDK versions would give. */
async function secondCopy<T>(relative: string): Promise<T> {
  const url = new URL(relative, import.meta.url);
  url.searchParams.set('copy', String(Math.random()));
  return (await import(url.href)) as T;
}

function captureIo(): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', cwd: process.cwd(), stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) };
  return io;
}

describe('error classes across copies of the SDK', () => {
  it('a TealworksError from another copy of the module is a TealworksError', async () => {
    const other = await secondCopy<typeof import('../../../sdk/src/errors.js')>('../../../sdk/src/errors.ts');
    assert.notEqual(other.TealworksError, TealworksError, 'the loader gave a second copy');
    const e = new other.ValidationError('bad input');
    assert.ok(e instanceof TealworksError);
    assert.ok(new ValidationError('x') instanceof TealworksError);
    // Subclasses keep the ordinary check: a ValidationError is not a DecodeError.
    assert.ok(!(new ValidationError('x') instanceof other.DecodeError));
    assert.ok(!(new Error('plain') instanceof TealworksError));
    for (const v of [null, 'text', 7] as unknown[]) assert.ok(!(v instanceof TealworksError));
  });

  it('the CLI reports both copies as user errors, not internal ones', async () => {
    const errors = await secondCopy<typeof import('../../../sdk/src/errors.js')>('../../../sdk/src/errors.ts');
    const command = await secondCopy<typeof import('../../../sdk/src/cli/command.js')>('../../../sdk/src/cli/command.ts');
    assert.ok(new command.UsageError('u') instanceof UsageError);
    const failing = (name: string, error: Error): Command => ({
      name,
      summary: 's',
      usage: `tealworks ${name}`,
      run: () => Promise.reject(error),
    });
    const list = [
      failing('user', new errors.ValidationError('the amount is not a number')),
      failing('usage', new command.UsageError('missing --app')),
      failing('bug', new TypeError('x is undefined')),
    ];
    const user = captureIo();
    assert.equal(await runCli(['user'], user, list), 1);
    assert.equal(user.err, 'tealworks user: the amount is not a number\n');
    const usage = captureIo();
    assert.equal(await runCli(['usage'], usage, list), 2);
    assert.match(usage.err, /missing --app\nUsage: tealworks usage/);
    const bug = captureIo();
    assert.equal(await runCli(['bug'], bug, list), 70);
    assert.match(bug.err, /internal error: x is undefined/);
  });
});
