// Hostile workflow files: a "billion laughs" alias bomb, self-referencing anchors and absurd nesting
// are refused with a clear message by parseWorkflow (which never throws), by `tealworks run`, and
// by the debugger's workflow launch. Nothing is expanded, nothing hangs.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWorkflow } from '../../sdk/src/workflow/file.js';
import { resolveLaunch, LaunchError } from '../../server/src/debug/launch.js';
import { cli } from '../cli/helpers.js';

const LEVELS = 'abcdefghi';
/** Nine levels of nine aliases each: 9^9 (387 million) strings once expanded, ~350 bytes as written. */
const BILLION_LAUGHS =
  'vars:\n' +
  [...LEVELS]
    .map(
      (c, i) =>
        `  ${c}: &${c} [${
          i === 0
            ? Array(9).fill('"lol"').join(',')
            : Array(9)
                .fill(`*${LEVELS[i - 1]}`)
                .join(',')
        }]`,
    )
    .join('\n') +
  `\nsteps:\n  - id: s1\n    assert: { that: "\${{ vars.i }}", equals: 1 }\n`;
const SELF_REFERENCE = 'vars: &v\n  again: *v\nsteps:\n  - id: s1\n    assert: { that: "${{ vars.again }}", equals: 1 }\n';
const SELF_IN_STEPS = 'steps: &s\n  - id: s1\n    call: *s\n';
const DEEP = `vars:\n  x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\nsteps: []\n`;

describe('fault: hostile YAML in workflows', function () {
  this.timeout(3 * HANG_GUARD_MS);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'tw-yaml-bomb-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('parseWorkflow refuses alias bombs, self-references and deep nesting with a message, never throwing', () => {
    assert.ok(BILLION_LAUGHS.length < 600, `the bomb is small (${BILLION_LAUGHS.length} bytes)`);
    const cases: Array<[string, string, RegExp]> = [
      ['billion laughs', BILLION_LAUGHS, /expand to more than 50000 values \(an "alias bomb"\)/],
      ['self-referencing anchor', SELF_REFERENCE, /alias \*v refers to its own anchor &v/],
      ['self-referencing steps', SELF_IN_STEPS, /alias \*s refers to its own anchor &s/],
      ['deep nesting', DEEP, /nested/],
    ];
    for (const [name, text, message] of cases) {
      const result = parseWorkflow(text);
      assert.equal(result.workflow, undefined, name);
      assert.ok(
        result.issues.some((i) => i.severity === 'error' && message.test(i.message)),
        `${name}: ${JSON.stringify(result.issues)}`,
      );
      assert.ok(
        result.issues.every((i) => !/call stack|at [\w.]+ \(/.test(i.message)),
        `${name}: no stack traces`,
      );
    }
    // Ordinary aliases (shared defaults) still work.
    const ok = parseWorkflow('vars:\n  base: &base { a: 1 }\n  other: *base\nsteps:\n  - id: s1\n    assert: { that: "${{ vars.other.a }}", equals: 1 }\n');
    assert.deepEqual(
      ok.issues.filter((i) => i.severity === 'error'),
      [],
    );
    assert.ok(ok.workflow);
  });

  it('`tealworks run` refuses the bomb with the message and a failing exit code', async () => {
    const file = join(dir, 'tealworks.yaml');
    writeFileSync(file, BILLION_LAUGHS);
    const r = await cli(['run', file], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr + r.stdout, /alias bomb/);
    writeFileSync(file, SELF_REFERENCE);
    const r2 = await cli(['run', file], dir);
    assert.notEqual(r2.code, 0);
    assert.match(r2.stderr + r2.stdout, /refers to its own anchor/);
  });

  it("the debugger's workflow launch refuses them as a launch error", async () => {
    for (const [name, text, message] of [
      ['bomb.workflow.yaml', BILLION_LAUGHS, /alias bomb/],
      ['self.workflow.yaml', SELF_REFERENCE, /refers to its own anchor/],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      await assert.rejects(resolveLaunch({ workflow: file, step: 's1', cwd: dir }), (e: unknown) => e instanceof LaunchError && message.test(e.message));
    }
  });
});
